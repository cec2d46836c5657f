"""QA regression: `slowloop memo add` of an entry the section already holds said "added" and wrote
the line twice (spending the cap, showing the agent the same rule twice)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)


def test_adding_the_same_entry_twice_is_refused(slowloop_home: Path):
    rule = "When installing packages, always use pnpm."
    assert run("memo", "add", "-s", "plays", rule).returncode == 0
    memo = slowloop_home / "agents" / "default" / "memo.md"
    before = memo.read_bytes()
    r = run("memo", "add", "-s", "plays", "when installing  packages, always use pnpm.")
    assert r.returncode == 2
    assert "already has this entry (number 1)" in r.stderr and r.stdout == ""
    assert memo.read_bytes() == before
    # the same line in the other section is a different entry
    assert run("memo", "add", "-s", "strengths", rule).returncode == 0
