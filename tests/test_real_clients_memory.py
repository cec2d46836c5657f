"""Reopen the agent and it knows where we were — in the real Claude Code and Codex CLIs.

Installed as a person would (`hooks install … --project`), three sessions against the scripted
model server on 127.0.0.1: session 1 starts a feature (a branch, a file, a commit), session 2 adds a
test that fails, session 3 fixes it. Nobody runs `slowloop memory …`: session 2's and 3's **first
model request** carry the previous session's entry, session 3's the open debt, and after session 3
the debt is closed. The test runner is the real pytest, on the files the sessions wrote.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from agent_server import Reply, ScriptedModel, ends_with_tool_result, last_user_text, tool_names
from test_real_clients import (  # noqa: F401  (the fixtures, shared with the other real-client tests)
    _claude,
    _codex,
    _codex_home,
    _slowloop,
    _wait,
    _wait_quiet,
    claude_bin,
    codex_bin,
    world,
)

pytestmark = pytest.mark.clients

PYTEST = f"{sys.executable} -m pytest -q -p no:cacheprovider test_total.py"
SESSIONS = {
    "start the cart total feature": (
        "git checkout -b feature/total && printf 'def total(items):\\n    return 0\\n' > total.py"
        " && git add total.py && git commit -q -m 'start the cart total'"),
    "add a test for the cart total": (
        "printf 'from total import total\\n\\n\\ndef test_total():\\n    assert total([1, 2]) == 3\\n'"
        f" > test_total.py && {PYTEST}"),
    "fix the cart total so the test passes": (
        f"printf 'def total(items):\\n    return sum(items)\\n' > total.py && {PYTEST}"),
}


GIT_ENV = {"GIT_AUTHOR_NAME": "p", "GIT_AUTHOR_EMAIL": "p@example.org", "GIT_COMMITTER_NAME": "p",
           "GIT_COMMITTER_EMAIL": "p@example.org"}


def policy(api: str, body: dict) -> Reply:
    """Each session's prompt runs its one shell command; then the model says it is done."""
    if ends_with_tool_result(api, body):
        return Reply(text="Done.")
    said, tools = last_user_text(api, body), tool_names(api, body)
    for prompt, command in SESSIONS.items():
        if prompt in said:
            if "Bash" in tools:
                return Reply(tool="Bash", args={"command": command, "description": "run it"})
            if "exec_command" in tools:
                return Reply(tool="exec_command", args={"cmd": command})
    return Reply(text="OK.")


def _memory(proj: Path, name: str) -> str:
    p = proj / "memory" / name
    return p.read_text(encoding="utf-8") if p.exists() else ""


def _debt_state(proj: Path) -> str | None:
    m = re.search(r"^- D-0001 \[(\S+)\] tests fail", _memory(proj, "debts.md"), re.MULTILINE)
    return m.group(1) if m else None


def _three_sessions(run, seen, proj: Path, sh: Path) -> list[str]:
    """Run the sessions; return the first model request of sessions 2 and 3."""
    firsts = []
    prompts = list(SESSIONS)
    run(prompts[0])
    _wait(lambda: "start the cart total feature" in _memory(proj, "chronicle.md"), 60, "session 1's entry")
    _wait_quiet(sh)
    n = len(seen())
    run(prompts[1])
    firsts.append(seen()[n].text())
    _wait(lambda: _debt_state(proj) == "open", 60, "session 2's failing test to open a debt")
    _wait(lambda: "add a test for the cart total" in _memory(proj, "chronicle.md"), 60, "session 2's entry")
    _wait_quiet(sh)
    n = len(seen())
    run(prompts[2])
    firsts.append(seen()[n].text())
    _wait(lambda: _debt_state(proj) == "closed", 60, "session 3's passing test to close the debt")
    return firsts


def _check(firsts: list[str], proj: Path) -> None:
    second, third = firsts
    assert "Asked: “start the cart total feature”" in second, second[:3000]
    assert "branch feature/total" in second and "commit “start the cart total”" in second
    assert "Asked: “add a test for the cart total”" in third, third[:3000]
    assert "D-0001 [open] tests fail" in third and "test_total.py" in third
    assert "slowloop memory note" in third  # the agent is told how to add to it
    debts = _memory(proj, "debts.md")
    assert "closed by session" in debts and "passed" in debts
    chron = _memory(proj, "chronicle.md")
    assert chron.count("· session ") == 3 and "Closed D-0001" in chron


def test_claude_code_sessions_carry_where_we_left_off(claude_bin: Path, world: dict) -> None:  # noqa: F811
    env, proj, sh = world["env"], world["proj"], world["slowloop_home"]
    env = {**env, **GIT_ENV}
    _slowloop(["hooks", "install", "claude-code", "--project", "--agent", "shop"], env, proj)
    assert (proj / "memory" / "system-state.md").is_file()  # the project keeps its memory
    with ScriptedModel(policy) as srv:
        env = {**env, "ANTHROPIC_BASE_URL": srv.url}
        firsts = _three_sessions(lambda p: _claude(claude_bin, env, proj, p), lambda: srv.seen("anthropic"),
                                 proj, sh)
    _check(firsts, proj)


def test_codex_sessions_carry_where_we_left_off(codex_bin: Path, world: dict) -> None:  # noqa: F811
    env, proj, sh = world["env"], world["proj"], world["slowloop_home"]
    env = {**env, **GIT_ENV}
    with ScriptedModel(policy) as srv:
        ch = _codex_home(world, srv.url)
        env = {**env, "CODEX_HOME": str(ch), "SCRIPTED_API_KEY": "x", "SLOWLOOP_CODEX_BIN": str(codex_bin)}
        _slowloop(["hooks", "install", "codex", "--project", "--agent", "shop", "--trust"], env, proj)
        firsts = _three_sessions(lambda p: _codex(codex_bin, env, proj, p), lambda: srv.seen("openai"),
                                 proj, sh)
    _check(firsts, proj)
    assert json.loads(_slowloop(["memory", "debt", "list", "--all", "--json"], env, proj).stdout)[0]["status"] \
        == "closed"  # and inside the project, `slowloop memory` finds it without a flag
