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
    cmd = _command(project / ".claude" / "settings.local.json", "SessionStart")
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


@pytest.mark.parametrize("harness", ["claude-code", "codex"])
def test_remove_without_the_install_agent_still_unlinks_its_skills(harness: str, project: Path,
                                                                  slowloop_home: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # `hooks install --agent myproj` then `hooks remove` (agent left out) took the hooks out but
    # left myproj's skill links: the agent kept loading learned skills after "remove".
    from click.testing import CliRunner

    from slowloop.cli import cli

    monkeypatch.setenv("CODEX_HOME", str(project.parent / "codex"))
    write_skill(slowloop_home, "utc-dates", "When exporting reports, convert dates to UTC", agent="myproj")
    runner = CliRunner()
    r = runner.invoke(cli, ["hooks", "install", harness, "--agent", "myproj"])
    assert r.exit_code == 0, r.output
    link = project / (".claude" if harness == "claude-code" else ".agents") / "skills" / "utc-dates"
    assert link.is_symlink()
    r = runner.invoke(cli, ["hooks", "remove", harness, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["skills"]["removed"] == ["utc-dates"]
    assert not os.path.lexists(link)
    r = runner.invoke(cli, ["hooks", "status", harness, "--agent", "myproj", "--json"])
    assert json.loads(r.output)["skills"]["linked"] == [] and json.loads(r.output)["hooks"] == []
    assert (slowloop_home / "agents" / "myproj" / "skills" / "utc-dates" / "SKILL.md").exists()


def test_watch_goes_on_past_a_file_it_cannot_read(tmp_path: Path, samples: Path, slowloop_home: Path) -> None:
    # One transcript watch could not handle (here a file name that is not UTF-8) ended
    # `slowloop watch` with a traceback, and with it the observation of every other file.
    import shutil
    import subprocess
    import sys

    folder = tmp_path / "sessions"
    folder.mkdir()
    shutil.copy(samples / "codex" / "as-small.jsonl", os.fsencode(folder) + b"/0-\xff.jsonl")
    shutil.copy(samples / "codex" / "ah-codex_golden.jsonl", folder / "a-good.jsonl")
    r = subprocess.run([sys.executable, "-m", "slowloop", "watch", "--path", str(folder), "--once", "--json"],
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "SLOWLOOP_HOME": str(slowloop_home)})
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    out = json.loads(r.stdout)
    assert out["turns"] == 2 and out["new"] == 2
    assert len(out["problems"]) == 1 and "cannot read it" in out["problems"][0]


def test_linked_settings_and_agents_md_stay_links(project: Path, slowloop_home: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # settings.json linked from a dotfiles repo, AGENTS.md linked to CLAUDE.md: install replaced
    # each link with a regular file, cutting it off from the file people actually edit.
    from slowloop.integrations import codex

    monkeypatch.setenv("CODEX_HOME", str(project.parent / "codex"))
    dotfiles = project.parent / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "settings.json").write_text('{"model": "opus"}\n')
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").symlink_to(dotfiles / "settings.json")
    (project / "CLAUDE.md").write_text("# Rules\n\nUse pnpm.\n")
    (project / "AGENTS.md").symlink_to("CLAUDE.md")
    write_skill(slowloop_home, "run-tests", "How to run this repo's tests")

    claude_code.install("project")
    codex.install("project", bootstrap="agents-md")
    assert (project / ".claude" / "settings.local.json").is_symlink()
    data = json.loads((dotfiles / "settings.json").read_text())
    assert data["model"] == "opus" and set(data["hooks"]) == {"SessionStart", "Stop", "SessionEnd"}
    assert (project / "AGENTS.md").is_symlink()
    assert "run-tests" in (project / "CLAUDE.md").read_text()

    claude_code.remove("project")
    codex.remove("project")
    assert (project / ".claude" / "settings.local.json").is_symlink()
    assert json.loads((dotfiles / "settings.json").read_text()) == {"model": "opus"}
    assert (project / "AGENTS.md").is_symlink()
    assert (project / "CLAUDE.md").read_text() == "# Rules\n\nUse pnpm.\n"


def test_an_agents_md_link_holding_only_the_block_is_emptied_at_its_target(tmp_path: Path) -> None:
    from slowloop.places import agents_md

    target = tmp_path / "CLAUDE.md"
    link = tmp_path / "AGENTS.md"
    link.symlink_to(target)
    agents_md.write_block(link, "- a rule")
    assert link.is_symlink() and "- a rule" in target.read_text()
    assert agents_md.remove_block(link)
    assert link.is_symlink() and target.read_text() == ""  # the person's link stays, the block goes
