"""What the agent reads as its own is regular files in its folders, never a link out (issue 20).

A repository (after ``hooks install --project``) or a teammate's sync could plant
``memory/system-state.md`` -> ``~/.aws/credentials``: every session would then carry the credentials
to the model vendor. The real SessionStart hook is run as people run it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from integrations_fixtures import run_installed, write_skill

from slowloop.bootstrap import build_bootstrap
from slowloop.errors import DataError
from slowloop.fsutil import LEARNED_FILE_MAX, read_text
from slowloop.integrations import claude_code
from slowloop.memo import Memo
from slowloop.memory.files import Memory

SECRET = "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    user = tmp_path / "user"
    (user / ".aws").mkdir(parents=True)
    (user / ".aws" / "credentials").write_text(f"[default]\n{SECRET}\n")
    monkeypatch.setenv("HOME", str(user))
    proj = tmp_path / "proj"
    proj.mkdir()
    monkeypatch.chdir(proj)
    return proj


def _session_start(project: Path) -> str:
    claude_code.install("project")
    data = json.loads((project / ".claude" / "settings.local.json").read_text())
    cmd = next(h["command"] for g in data["hooks"]["SessionStart"] for h in g["hooks"]
               if "hooks_runtime" in h["command"])
    out = run_installed(cmd, {"session_id": "s1", "source": "startup", "hook_event_name": "SessionStart"})
    assert out.returncode == 0, out.stderr
    return str(json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"])


def test_a_project_memory_file_linked_to_credentials_never_reaches_the_session(
        project: Path, slowloop_home: Path) -> None:
    Memory.for_dir(project).init()
    state = project / "memory" / "system-state.md"
    state.unlink()
    state.symlink_to(Path(os.environ["HOME"]) / ".aws" / "credentials")
    write_skill(slowloop_home, "run-tests", "How to run this repo's tests with pytest")
    ctx = _session_start(project)
    assert "wJalrXUtnFEMI" not in ctx
    assert "run-tests" in ctx  # the rest of the session still starts
    assert "not read" in ctx and "system-state.md" in ctx and "is a link" in ctx


def test_a_project_memory_folder_linked_elsewhere_is_not_read(project: Path, slowloop_home: Path,
                                                             tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere" / "memory"
    Memory(elsewhere).init()
    Memory(elsewhere).set_state("Next", SECRET)
    (project / "memory").symlink_to(elsewhere)
    ctx = build_bootstrap("default", project=project, record_impressions=False).text
    assert "wJalrXUtnFEMI" not in ctx and "linked folder leads outside" in ctx


def test_a_linked_memo_or_skill_is_refused_and_costs_only_itself(project: Path, slowloop_home: Path) -> None:
    write_skill(slowloop_home, "run-tests", "How to run this repo's tests with pytest")
    write_skill(slowloop_home, "deploy", "How to deploy")
    skill = slowloop_home / "agents" / "default" / "skills" / "deploy" / "SKILL.md"
    skill.unlink()
    skill.symlink_to(Path(os.environ["HOME"]) / ".aws" / "credentials")
    memo = Memo("default")
    memo.path.parent.mkdir(parents=True, exist_ok=True)
    memo.path.symlink_to(Path(os.environ["HOME"]) / ".aws" / "credentials")
    text = build_bootstrap("default", record_impressions=False).text
    assert "wJalrXUtnFEMI" not in text
    assert "run-tests" in text and "deploy" not in text
    with pytest.raises(DataError, match="is a link"):
        memo.content()


def test_a_huge_or_special_learned_file_is_refused_by_name(tmp_path: Path) -> None:
    big = tmp_path / "memory" / "chronicle.md"
    big.parent.mkdir()
    with open(big, "wb") as fh:
        fh.truncate(LEARNED_FILE_MAX + 1)
    with pytest.raises(DataError, match="chronicle.md.*MB"):
        read_text(big, within=tmp_path)
    fifo = tmp_path / "memory" / "debts.md"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="not a regular file"):
        read_text(fifo, within=tmp_path)  # and it does not hang waiting for a writer
    assert read_text(tmp_path / "memory" / "missing.md", within=tmp_path) == (None, None)
    (tmp_path / "memory" / "past-summary.md").write_text("ok\n")
    assert read_text(tmp_path / "memory" / "past-summary.md", within=tmp_path)[0] == "ok\n"


def test_a_project_memory_folder_linked_elsewhere_is_not_written_through(project: Path, tmp_path: Path) -> None:
    mine = tmp_path / "my-notes"
    mine.mkdir()
    (project / "memory").symlink_to(mine, target_is_directory=True)
    with pytest.raises(DataError, match="leads outside"):
        Memory.for_dir(project).note("the attacker's line")
    with pytest.raises(DataError, match="leads outside"):
        Memory.for_dir(project).init()
    assert list(mine.iterdir()) == []


def test_links_planted_in_the_home_are_not_written_through(slowloop_home: Path, tmp_path: Path) -> None:
    from slowloop.integrations.hooks_runtime import _already_bootstrapped
    from slowloop.recall.api import refresh

    outside = tmp_path / "outside"
    outside.mkdir()
    agent = slowloop_home / "agents" / "default"
    agent.mkdir(parents=True)
    (agent / "recall.db").symlink_to(outside / "victim.db")
    with pytest.raises(DataError, match="leads outside"):
        refresh("default")
    (slowloop_home / "cache").mkdir()
    (slowloop_home / "cache" / "sessions").symlink_to(outside, target_is_directory=True)
    assert _already_bootstrapped(slowloop_home, "default", {"session_id": "s1", "source": "startup"}) is False
    assert list(outside.iterdir()) == []
