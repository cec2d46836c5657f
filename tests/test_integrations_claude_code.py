"""Claude Code: install/remove/status touch only slowloop's entries; the installed hooks run for
real (subprocesses), fail open, observe incrementally and keep skill links current."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from integrations_fixtures import cc_turn, lines, run_hook, run_installed, write_skill

from slowloop.cli import cli
from slowloop.integrations import claude_code
from slowloop.store import open_store

INLINE = {"SLOWLOOP_HOOKS__BACKGROUND": "false"}


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "user"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, user_home: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    monkeypatch.chdir(proj)
    return proj


def _commands(settings: Path) -> dict[str, str]:
    data = json.loads(settings.read_text())
    return {ev: g["hooks"][0]["command"] for ev, groups in data["hooks"].items() for g in groups
            if "hooks_runtime" in g["hooks"][0]["command"]}


def test_install_is_idempotent_and_keeps_the_users_own_hooks(project: Path) -> None:
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    mine = {"permissions": {"allow": ["Bash(ls)"]},
            "hooks": {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "say done"}]}]}}
    settings.write_text(json.dumps(mine))
    r = CliRunner().invoke(cli, ["hooks", "install", "claude-code", "--project", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["changed"] is True
    first = settings.read_text()
    data = json.loads(first)
    assert data["permissions"] == {"allow": ["Bash(ls)"]}
    assert [h["command"] for g in data["hooks"]["Stop"] for h in g["hooks"]][0] == "say done"
    assert set(_commands(settings)) == {"SessionStart", "Stop", "SessionEnd"}
    again = CliRunner().invoke(cli, ["hooks", "install", "claude-code", "--project", "--json"])
    assert json.loads(again.output)["changed"] is False
    assert settings.read_text() == first  # byte for byte: nothing duplicated
    removed = CliRunner().invoke(cli, ["hooks", "remove", "claude-code", "--project"])
    assert removed.exit_code == 0, removed.output
    assert json.loads(settings.read_text()) == mine


def test_user_scope_writes_under_home(user_home: Path, project: Path) -> None:
    r = CliRunner().invoke(cli, ["hooks", "install", "claude-code", "--user", "--agent", "me"])
    assert r.exit_code == 0, r.output
    settings = user_home / ".claude" / "settings.json"
    assert "--agent me" in _commands(settings)["SessionStart"]
    assert not (project / ".claude").exists()
    status = CliRunner().invoke(cli, ["hooks", "status", "claude-code", "--user", "--json"])
    assert len(json.loads(status.output)["hooks"]) == 3


def test_a_broken_settings_file_is_refused_not_overwritten(project: Path) -> None:
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_text('{"hooks": [oops')
    r = CliRunner().invoke(cli, ["hooks", "install", "claude-code"])
    assert r.exit_code != 0
    assert "settings.local.json" in r.output and "not valid JSON" in r.output
    assert settings.read_text() == '{"hooks": [oops'


def test_session_start_prints_only_the_payload_and_counts_impressions(project: Path,
                                                                       slowloop_home: Path) -> None:
    write_skill(slowloop_home, "run-tests", "How to run this repo's tests with pytest")
    claude_code.install("project")
    cmd = _commands(project / ".claude" / "settings.local.json")["SessionStart"]
    for sid in ("s1", "s2"):  # the second start is served from the cache
        out = run_installed(cmd, {"session_id": sid, "source": "startup", "cwd": str(project),
                                  "hook_event_name": "SessionStart"})
        assert out.returncode == 0 and out.stderr == b""
        payload = json.loads(out.stdout)
        ctx = payload["hookSpecificOutput"]
        assert ctx["hookEventName"] == "SessionStart"
        # Claude Code lists the linked skill with its description itself: not a second time here
        assert "How to run this repo's tests" not in ctx["additionalContext"]
        assert "in your skill list" in ctx["additionalContext"]
    # a resumed session already has it: nothing sent, no impression counted again
    again = run_installed(cmd, {"session_id": "s2", "source": "resume", "cwd": str(project),
                                "hook_event_name": "SessionStart"})
    assert again.returncode == 0 and again.stdout == b""
    with open_store(home=slowloop_home) as store:
        assert store.query("SELECT COUNT(*) AS n FROM impressions")[0]["n"] == 2
    # the skill is linked where Claude Code loads it
    link = project / ".claude" / "skills" / "run-tests"
    assert link.is_symlink() and (link / "SKILL.md").read_text().startswith("---")


def test_stop_observes_only_new_lines_and_skill_tool_uses_count(project: Path,
                                                                 slowloop_home: Path) -> None:
    write_skill(slowloop_home, "run-tests", "How to run this repo's tests with pytest")
    claude_code.install("project")
    cmd = _commands(project / ".claude" / "settings.local.json")["Stop"]
    transcript = project / "session.jsonl"
    transcript.write_text(lines(cc_turn("run the tests please", skill="run-tests", n=0)))
    payload = {"session_id": "s1", "transcript_path": str(transcript), "hook_event_name": "Stop",
               "stop_hook_active": False}
    assert run_installed(cmd, payload, env=INLINE).returncode == 0
    with open(transcript, "a") as f:  # the next turn, its last line only half written
        text = lines(cc_turn("No, that is wrong: use the fast test target instead", n=1))
        f.write(text[:-40])
    out = run_installed(cmd, payload, env=INLINE)
    assert out.returncode == 0 and out.stdout == b""
    with open(transcript, "a") as f:
        f.write(text[-40:])
    run_installed(cmd, payload, env=INLINE)
    run_installed(cmd, {**payload, "hook_event_name": "SessionEnd", "reason": "exit"}, env=INLINE)
    with open_store(home=slowloop_home) as store:
        turns = store.query("SELECT idx, corrected, complete FROM turns ORDER BY idx")
        assert [(t["idx"], t["corrected"], t["complete"]) for t in turns] == [(0, 0, 1), (1, 1, 1)]
        inv = store.query("SELECT skill, source FROM invocations")
        assert [(r["skill"], r["source"]) for r in inv] == [("run-tests", "transcript")]
        # a correction right after the skill-assisted turn is an edit-after-use of the skill
        assert store.query("SELECT skill FROM edits")[0]["skill"] == "run-tests"
        # the next read starts past both turns (trailing bookkeeping lines may be read again)
        off = store.query("SELECT offset FROM offsets")[0]["offset"]
        assert transcript.read_bytes()[off:].count(b'"type": "user"') == 0 and off > 0
    log = (slowloop_home / "logs" / "hooks.log").read_text()
    assert "1 turn(s) from byte" in log  # the later reads started past what was already seen


def test_stop_runs_in_the_background_by_default(project: Path, slowloop_home: Path) -> None:
    claude_code.install("project")
    cmd = _commands(project / ".claude" / "settings.local.json")["Stop"]
    transcript = project / "s.jsonl"
    transcript.write_text(lines(cc_turn("hello there", n=0)))
    out = run_installed(cmd, {"transcript_path": str(transcript)})
    assert out.returncode == 0 and out.stdout == b""
    deadline = time.monotonic() + 30
    n = 0
    while time.monotonic() < deadline:
        with open_store(home=slowloop_home) as store:
            n = store.query("SELECT COUNT(*) AS n FROM turns")[0]["n"]
        if n:
            break
        time.sleep(0.1)
    assert n == 1


@pytest.mark.parametrize("payload", ["not json", "[1, 2]", json.dumps({"transcript_path": 7}),
                                     json.dumps({"transcript_path": "/nowhere/at/all.jsonl"})])
def test_hooks_fail_open(payload: str, slowloop_home: Path) -> None:
    out = run_hook(["claude-code", "Stop"], payload, env=INLINE)
    assert out.returncode == 0 and out.stdout == b"" and out.stderr == b""
    assert (slowloop_home / "logs" / "hooks.log").exists()


def test_a_corrupt_store_does_not_break_session_start(slowloop_home: Path) -> None:
    slowloop_home.mkdir(parents=True, exist_ok=True)
    (slowloop_home / "slowloop.db").write_bytes(b"this is not sqlite" * 100)
    out = run_hook(["claude-code", "SessionStart"], {"source": "startup"})
    assert out.returncode == 0 and out.stdout == b"" and out.stderr == b""
    assert "FAILED" in (slowloop_home / "logs" / "hooks.log").read_text()


def test_retired_skill_link_goes_and_users_own_skills_stay(project: Path, slowloop_home: Path) -> None:
    write_skill(slowloop_home, "alpha", "first")
    write_skill(slowloop_home, "beta", "second")
    own = project / ".claude" / "skills" / "beta"
    own.mkdir(parents=True)
    (own / "SKILL.md").write_text("---\nname: beta\ndescription: the user's own\n---\nmine\n")
    report = claude_code.install("project")
    assert report.skills["added"] == ["alpha"] and report.skills["conflicts"] == ["beta"]
    from slowloop.skills import SkillLibrary

    SkillLibrary(home=slowloop_home).retire("alpha")
    r = CliRunner().invoke(cli, ["hooks", "sync", "claude-code", "--json"])
    assert json.loads(r.output)["skills"]["removed"] == ["alpha"]
    assert not os.path.lexists(project / ".claude" / "skills" / "alpha")
    assert (own / "SKILL.md").read_text().endswith("mine\n")
    claude_code.remove("project")
    assert (own / "SKILL.md").exists()


def test_sync_respects_an_install_without_skills(project: Path) -> None:
    from slowloop.skills import SkillLibrary

    SkillLibrary("myproj").create("run-tests", "Run the tests. Use when asked to test.",
                                  "1. Run `pytest -q` in the repo root.\n")
    runner = CliRunner()
    assert runner.invoke(cli, ["hooks", "install", "claude-code", "--project", "--agent", "myproj",
                               "--no-skills"]).exit_code == 0
    r = runner.invoke(cli, ["hooks", "sync", "claude-code", "--project", "--agent", "myproj", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["skills"]["added"] == []
    assert not (project / ".claude" / "skills" / "run-tests").exists()
