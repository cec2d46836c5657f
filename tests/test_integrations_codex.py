"""Codex: hooks.json under CODEX_HOME, the AGENTS.md block slowloop owns, rollouts observed
incrementally, skills linked into .agents/skills."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from integrations_fixtures import run_installed, write_skill

from slowloop.cli import cli
from slowloop.integrations import codex
from slowloop.places import agents_md
from slowloop.store import open_store


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    home, codex_home, proj = tmp_path / "user", tmp_path / "codex-home", tmp_path / "proj"
    for p in (home, codex_home, proj):
        p.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    monkeypatch.chdir(proj)
    return {"home": home, "codex": codex_home, "proj": proj}


def test_install_user_writes_codex_home_and_agents_md_block(env: dict[str, Path],
                                                             slowloop_home: Path) -> None:
    write_skill(slowloop_home, "deploy-checklist", "What to check before a deploy")
    md = env["codex"] / "AGENTS.md"
    md.write_text("# My rules\n\nAlways answer in English.\n")
    r = CliRunner().invoke(cli, ["hooks", "install", "codex", "--user"])
    assert r.exit_code == 0, r.output
    hooks = json.loads((env["codex"] / "hooks.json").read_text())["hooks"]
    assert list(hooks) == ["Stop"] and "hooks_runtime codex Stop" in hooks["Stop"][0]["hooks"][0]["command"]
    text = md.read_text()
    assert text.startswith("# My rules\n\nAlways answer in English.\n")
    # Codex lists the linked skill with its description itself: the block names it, once
    assert "deploy-checklist" in agents_md.read_block(md)
    assert "What to check before a deploy" not in agents_md.read_block(md)
    assert (env["home"] / ".agents" / "skills" / "deploy-checklist").is_symlink()
    again = CliRunner().invoke(cli, ["hooks", "install", "codex", "--user", "--json"])
    assert json.loads(again.output)["changed"] is False and md.read_text() == text
    CliRunner().invoke(cli, ["hooks", "remove", "codex", "--user"])
    assert md.read_text() == "# My rules\n\nAlways answer in English.\n"
    assert not (env["home"] / ".agents" / "skills" / "deploy-checklist").exists()
    assert "hooks" not in json.loads((env["codex"] / "hooks.json").read_text())


def test_bootstrap_through_hooks_instead_of_agents_md(env: dict[str, Path], slowloop_home: Path) -> None:
    write_skill(slowloop_home, "deploy-checklist", "What to check before a deploy")
    codex.install("project", bootstrap="agents-md")  # asked for: the repository's AGENTS.md
    assert agents_md.read_block(env["proj"] / "AGENTS.md") is not None
    codex.install("project")  # the default for a project: a SessionStart hook, nothing in the repo
    assert not (env["proj"] / "AGENTS.md").exists()  # it held only our block
    assert not (env["proj"] / ".codex").exists()
    hooks = json.loads((env["codex"] / "hooks.json").read_text())["hooks"]
    cmd = hooks["SessionStart"][0]["hooks"][0]["command"]
    assert "--project" in cmd
    out = run_installed(cmd, {"session_id": "x", "source": "startup", "hook_event_name": "SessionStart",
                              "cwd": str(env["proj"])})
    ctx = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "deploy-checklist" in ctx
    # a session in another folder is not this project's: the hook stays silent
    other = run_installed(cmd, {"session_id": "y", "source": "startup", "hook_event_name": "SessionStart",
                                "cwd": str(env["home"])})
    assert other.returncode == 0 and other.stdout == b""
    # resumed: Codex fires SessionStart again; the session already has the bootstrap
    again = run_installed(cmd, {"session_id": "x", "source": "resume", "hook_event_name": "SessionStart",
                                "cwd": str(env["proj"])})
    assert again.stdout == b""


def test_two_projects_share_the_user_hooks_file_without_replacing_each_other(env: dict[str, Path],
                                                                             tmp_path: Path) -> None:
    second = tmp_path / "second"
    second.mkdir()
    codex.install("project", agent="one")
    codex.install("project", agent="two", cwd=second)
    cmds = [h["hooks"][0]["command"] for groups in
            json.loads((env["codex"] / "hooks.json").read_text())["hooks"].values() for h in groups]
    assert sum("--agent one" in c for c in cmds) == 2 and sum("--agent two" in c for c in cmds) == 2
    codex.remove("project", agent="two", cwd=second)
    cmds = [h["hooks"][0]["command"] for groups in
            json.loads((env["codex"] / "hooks.json").read_text())["hooks"].values() for h in groups]
    assert cmds and all("--agent one" in c for c in cmds)


def test_stop_hook_observes_a_rollout_and_refreshes_the_block(env: dict[str, Path], samples: Path,
                                                              slowloop_home: Path) -> None:
    codex.install("project", bootstrap="agents-md")
    rollout = env["codex"] / "sessions" / "2025" / "01" / "04" / "rollout-2025-01-04T09-00-00-golden.jsonl"
    rollout.parent.mkdir(parents=True)
    shutil.copy(samples / "codex" / "ah-codex_golden.jsonl", rollout)
    cmd = json.loads((env["codex"] / "hooks.json").read_text())["hooks"]["Stop"][0]["hooks"][0]["command"]
    payload = {"session_id": "golden-codex-001", "transcript_path": str(rollout), "hook_event_name": "Stop",
               "turn_id": "t1", "cwd": str(env["proj"])}
    inline = {"SLOWLOOP_HOOKS__BACKGROUND": "false"}
    assert run_installed(cmd, payload, env=inline).returncode == 0
    with open_store(home=slowloop_home) as store:
        first = store.query("SELECT COUNT(*) AS n FROM turns WHERE format = 'codex'")[0]["n"]
    assert first >= 1
    run_installed(cmd, payload, env=inline)  # nothing new: nothing recorded twice
    with open_store(home=slowloop_home) as store:
        assert store.query("SELECT COUNT(*) AS n FROM turns")[0]["n"] == first
    write_skill(slowloop_home, "new-skill", "Learned after the session began")
    with open(rollout, "a") as f:
        f.write("\n")
    run_installed(cmd, payload, env=inline)
    assert "new-skill" in agents_md.read_block(env["proj"] / "AGENTS.md")


def test_agents_md_block_survives_a_missing_end_marker(tmp_path: Path) -> None:
    md = tmp_path / "AGENTS.md"
    md.write_text(f"intro\n\n{agents_md.BEGIN}\nold stuff, the end marker was deleted by hand\n")
    assert agents_md.write_block(md, "fresh") is True
    assert md.read_text() == f"intro\n\n{agents_md.BEGIN}\nfresh\n{agents_md.END}"
    assert agents_md.write_block(md, "fresh") is False


def test_a_project_at_the_home_folder_keeps_its_hooks_and_trust_without_codex_writes_nothing(
        env: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from slowloop.errors import UserError

    # the person works in ~ itself: the project's .codex/ is CODEX_HOME's folder
    monkeypatch.setenv("CODEX_HOME", str(env["home"] / ".codex"))
    monkeypatch.chdir(env["home"])
    codex.install("project")
    hooks = json.loads((env["home"] / ".codex" / "hooks.json").read_text())["hooks"]
    assert set(hooks) == {"Stop", "SessionStart"}
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("SLOWLOOP_CODEX_BIN", raising=False)
    monkeypatch.chdir(env["proj"])
    with pytest.raises(UserError, match="--trust"):
        codex.install("project", agent="other", trust=True)
    cmds = json.dumps(json.loads((env["home"] / ".codex" / "hooks.json").read_text()))
    assert "--agent other" not in cmds  # nothing half-installed
