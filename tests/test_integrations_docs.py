"""The integration guides cannot drift: every ``$ command`` in their ``console`` blocks and every
``python`` block runs here, in a fresh HOME and SLOWLOOP_HOME, and must succeed.

``pip install`` lines are not run (the suite runs with the package and its extras installed).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDES = ["claude-code.md", "codex.md", "mcp.md", "python.md", "sharing.md", "learning.md", "rules.md"]
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def blocks(name: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in BLOCK.finditer((ROOT / "docs" / name).read_text())]


@pytest.mark.parametrize("name", GUIDES)
def test_guide_commands_run(name: str, tmp_path: Path, samples: Path, slowloop_home: Path) -> None:
    found = blocks(name)
    runnable = [b for b in found if b[0] in ("console", "python")]
    assert runnable, f"docs/{name} has no command a test runs"
    home = tmp_path / "home"
    sessions = home / ".codex" / "sessions" / "2025" / "01" / "04"
    sessions.mkdir(parents=True)
    shutil.copy(samples / "codex" / "ah-codex_golden.jsonl", sessions / "rollout-2025-01-04T09-00-00-x.jsonl")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "examples").symlink_to(ROOT / "examples")
    env = {k: v for k, v in os.environ.items() if k not in ("CODEX_HOME",)}
    env.update(HOME=str(home), SLOWLOOP_HOME=str(slowloop_home),
               PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""))
    # a guide shows what a person gets: the default configuration (reflection starts by itself)
    env.pop("SLOWLOOP_REFLECT__AUTO", None)
    from test_real_clients import NPM_CACHE

    cached = sorted((NPM_CACHE / "node_modules" / "@openai").glob("codex-linux-*/vendor/*/bin/codex"))
    codex_bin = cached[0] if cached else shutil.which("codex")
    if codex_bin:
        env["SLOWLOOP_CODEX_BIN"] = str(codex_bin)
    ran = 0
    for lang, body in runnable:
        if lang == "python":
            r = subprocess.run([sys.executable, "-c", body], cwd=proj, env=env, capture_output=True,
                               text=True, timeout=120)
            assert r.returncode == 0, f"docs/{name} python block failed:\n{body}\n{r.stderr}"
            ran += 1
            continue
        for line in body.splitlines():
            if not line.startswith("$ "):
                continue
            cmd = line[2:]
            if cmd.startswith("pip install"):
                continue
            # the shell would expand ~ to the test's HOME
            argv = [str(home) + a[1:] if a.startswith("~") else a for a in shlex.split(cmd, comments=True)]
            if "--trust" in argv and codex_bin is None:
                argv.remove("--trust")  # it asks the codex program, which this machine lacks
            if argv[0] == "python":
                argv[0] = sys.executable
            r = subprocess.run(argv, cwd=proj, env=env, capture_output=True, text=True, timeout=120,
                               stdin=subprocess.DEVNULL)
            assert r.returncode == 0, f"docs/{name}: `{cmd}` failed:\n{r.stdout}\n{r.stderr}"
            ran += 1
    assert ran


def test_hooks_guides_name_every_hooks_command() -> None:
    text = (ROOT / "docs" / "claude-code.md").read_text() + (ROOT / "docs" / "codex.md").read_text()
    for verb in ("install", "remove", "status", "sync"):
        assert f"slowloop hooks {verb}" in text
    assert "slowloop watch" in text
