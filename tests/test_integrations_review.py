"""Regressions found in review: each test is a way the integrations let a user down before."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from integrations_fixtures import run_installed, write_skill

from slowloop.integrations import claude_code


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    user = tmp_path / "user"
    user.mkdir()
    monkeypatch.setenv("HOME", str(user))
    proj = tmp_path / "proj"
    proj.mkdir()
    monkeypatch.chdir(proj)
    return proj


def _command(settings: Path, event: str) -> str:
    data = json.loads(settings.read_text())
    return next(h["command"] for g in data["hooks"][event] for h in g["hooks"]
                if "hooks_runtime" in h["command"])


def test_session_start_sends_the_bootstrap_when_the_skills_folder_cannot_be_written(
        project: Path, slowloop_home: Path) -> None:
    # A file where the skills folder should be (or a read-only checkout) used to abort the whole
    # hook: the session started without the memo and the skill index.
    write_skill(slowloop_home, "run-tests", "How to run this repo's tests with pytest")
    claude_code.install("project")
    cmd = _command(project / ".claude" / "settings.json", "SessionStart")
    skills = project / ".claude" / "skills"
    for entry in skills.iterdir():
        entry.unlink()
    skills.rmdir()
    skills.write_text("not a folder\n")
    out = run_installed(cmd, {"session_id": "s1", "source": "startup", "hook_event_name": "SessionStart"})
    assert out.returncode == 0 and out.stderr == b""
    ctx = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "run-tests: How to run this repo's tests" in ctx
    assert "could not link skills" in (slowloop_home / "logs" / "hooks.log").read_text()
    assert skills.read_text() == "not a folder\n"
