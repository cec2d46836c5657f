"""The Quickstart's first command, as a new user runs it: a real subprocess, offline."""

from __future__ import annotations

import os
import subprocess
import sys


def test_demo_runs_the_whole_loop_offline(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOWLOOP_")}
    env["SLOWLOOP_HOME"] = str(tmp_path / "untouched")  # the demo must use its own home
    home = tmp_path / "demo-home"
    p = subprocess.run([sys.executable, "-m", "slowloop", "demo", "--home", str(home)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    for step in ("1. OBSERVE", "2. REFLECT", "3. WHAT WAS LEARNED", "4. THE NEXT SESSION'S BOOTSTRAP"):
        assert step in out
    assert "When installing packages in this project, always use pnpm (`pnpm add`), never npm." in out
    assert "always use ruff (`ruff format`), never black" in out
    assert "run `python3 -m pytest -q` instead" in out
    assert "nowhere: the offline distiller ran on this machine" in out
    memo = (home / "agents" / "demo" / "memo.md").read_text()
    assert "pnpm" in memo and "curl" not in memo
    assert (home / "agents" / "demo" / "skills" / "running-tests" / "SKILL.md").exists()
    assert not (tmp_path / "untouched").exists()
