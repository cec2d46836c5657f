"""`slowloop hooks remove` (and `uninstall`) leaves a project as install found it, and a typo of
`hooks` is refused with a suggestion — run as a person runs them, the real command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _run(args: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOWLOOP_")}
    env.update(SLOWLOOP_HOME=str(home), HOME=str(home.parent))
    return subprocess.run([sys.executable, "-m", "slowloop", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): (p.read_text(errors="replace") if p.is_file() else "<dir>")
            for p in sorted(root.rglob("*")) if ".git/objects" not in str(p) and ".git/logs" not in str(p)}


@pytest.mark.parametrize("verb", ["remove", "uninstall"])
def test_remove_leaves_the_project_as_install_found_it(tmp_path: Path, verb: str) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    proj.mkdir()
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    (proj / "README.md").write_text("# shop\n")
    before = _tree(proj)
    done = _run(["hooks", "install", "claude-code", "--project", "--agent", "shop"], proj, home)
    assert done.returncode == 0, done.stderr
    assert (proj / ".claude" / "settings.local.json").exists()
    assert "slowloop" in (proj / ".git" / "info" / "exclude").read_text()
    done = _run(["hooks", verb, "claude-code", "--project", "--agent", "shop"], proj, home)
    assert done.returncode == 0, done.stderr
    assert _tree(proj) == before


def test_remove_keeps_what_the_person_had(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    (proj / ".claude" / "skills" / "mine").mkdir(parents=True)
    (proj / ".claude" / "skills" / "mine" / "SKILL.md").write_text("---\nname: mine\ndescription: x\n---\n")
    (proj / ".claude" / "settings.local.json").write_text('{"permissions": {"allow": ["Bash(ls)"]}}\n')
    before = _tree(proj)
    assert _run(["hooks", "install", "claude-code", "--project"], proj, home).returncode == 0
    assert _run(["hooks", "remove", "claude-code", "--project"], proj, home).returncode == 0
    after = _tree(proj)
    assert after.keys() == before.keys()
    assert '"allow"' in after[".claude/settings.local.json"]


def test_a_typo_of_hooks_is_refused_with_a_suggestion_and_creates_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = _run(["hook", "install", "claude-code"], tmp_path, home)
    assert done.returncode != 0
    assert "slowloop hooks install claude-code" in done.stderr
    assert not (home / "slowloop.db").exists()


def test_a_turn_missed_while_the_config_was_broken_is_recorded_once_it_is_fixed(tmp_path: Path) -> None:
    """The Stop hook fails open on a broken config.toml; that session may never run a hook again,
    so the next hook that runs — another session's — catches up on the missed transcript."""
    import json

    from integrations_fixtures import cc_turn, lines

    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOWLOOP_")}
    env.update(SLOWLOOP_HOME=str(home), HOME=str(tmp_path), SLOWLOOP_HOOKS__BACKGROUND="false",
               SLOWLOOP_REFLECT__AUTO="false")

    def stop(transcript: Path, session: str) -> None:
        payload = json.dumps({"session_id": session, "transcript_path": str(transcript), "cwd": str(proj)})
        done = subprocess.run([sys.executable, "-m", "slowloop.integrations.hooks_runtime", "claude-code", "Stop",
                               "--agent", "a"], input=payload, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr  # fail-open, always

    home.mkdir()
    (home / "config.toml").write_text("[signals\nthreshold = 0.7\n")  # broken TOML
    monday = tmp_path / "monday.jsonl"
    monday.write_text(lines(cc_turn("No, use pnpm instead of npm", session="monday")), encoding="utf-8")
    stop(monday, "monday")
    (home / "config.toml").write_text("[signals]\nthreshold = 0.7\n")  # fixed
    tuesday = tmp_path / "tuesday.jsonl"
    tuesday.write_text(lines(cc_turn("add a readme", session="tuesday")), encoding="utf-8")
    stop(tuesday, "tuesday")
    from slowloop.store import open_store

    with open_store(home=home) as store:
        texts = sorted(r["user_text"] for r in store.query("SELECT user_text FROM turns"))
    assert texts == ["No, use pnpm instead of npm", "add a readme"]
    stop(tuesday, "tuesday")  # caught up once: nothing recorded twice
    with open_store(home=home) as store:
        assert store.query("SELECT COUNT(*) AS n FROM turns")[0]["n"] == 2
