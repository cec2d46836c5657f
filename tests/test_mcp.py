"""``slowloop mcp`` through a real MCP client session over stdio (a subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp", reason="the [mcp] extra is not installed (CI installs it)")

import anyio  # noqa: E402  (installed with mcp)
from integrations_fixtures import write_skill  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from slowloop.memory import Memory  # noqa: E402
from slowloop.store import open_store  # noqa: E402


def _text(result) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def _session(home: Path, calls):
    async def go():
        params = StdioServerParameters(command=sys.executable, args=["-m", "slowloop", "mcp"],
                                       env={"SLOWLOOP_HOME": str(home), "PATH": os.environ.get("PATH", "")})
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await calls(session)
    return anyio.run(go)


def test_every_tool_through_a_real_client(slowloop_home: Path) -> None:
    write_skill(slowloop_home, "run-tests", "How to run this repo's tests")
    mem = Memory.for_agent("default", home=slowloop_home)
    mem.init()
    debt = mem.add_debt("flaky arm64 job")
    from slowloop.memo import Memo

    Memo(home=slowloop_home).add("plays", "When the user asks for a summary, give the conclusion first.")

    async def calls(s):
        out = {}
        tools = await s.list_tools()
        out["tools"] = {t.name: t.description for t in tools.tools}
        out["list"] = _text(await s.call_tool("list_skills", {}))
        out["read"] = _text(await s.call_tool("read_skill", {"name": "run-tests"}))
        out["missing"] = await s.call_tool("read_skill", {"name": "nope"})
        out["memo"] = _text(await s.call_tool("show_memo", {}))
        out["note"] = _text(await s.call_tool("append_memory", {"text": "moved CI to arm64 runners"}))
        out["memory"] = _text(await s.call_tool("show_memory", {}))
        out["debts"] = _text(await s.call_tool("list_debts", {}))
        out["update"] = _text(await s.call_tool("update_debt", {"debt_id": debt.id, "status": "closed"}))
        out["bad_debt"] = await s.call_tool("update_debt", {"debt_id": "D-9999", "status": "closed"})
        out["add_debt"] = _text(await s.call_tool("add_debt", {"text": "the nightly backup is not verified"}))
        out["state"] = _text(await s.call_tool("set_state", {"section": "CI", "text": "arm64 runners"}))
        out["turn"] = _text(await s.call_tool("record_turn", {"messages": [
            {"role": "user", "content": "deploy it"},
            {"role": "assistant", "content": "Deployed."},
            {"role": "user", "content": "No, that is wrong: deploy to staging instead"},
            {"role": "assistant", "content": "Deployed to staging."}], "session_id": "c1"}))
        out["search"] = _text(await s.call_tool("search", {"query": "arm64"}))
        out["edit"] = _text(await s.call_tool("record_edit", {"skill": "run-tests", "note": "fixed flags"}))
        return out

    out = _session(slowloop_home, calls)
    assert set(out["tools"]) == {"list_skills", "read_skill", "show_memo", "show_memory", "append_memory",
                                 "list_debts", "update_debt", "search", "record_turn", "record_edit",
                                 "list_contexts", "load_context", "add_debt", "set_state"}
    assert all(len(d or "") > 30 for d in out["tools"].values())  # each says what it is for
    assert "run-tests" in out["list"]
    assert "1. How to run this repo's tests" in out["read"]
    assert out["missing"].is_error and "no skill named 'nope'" in _text(out["missing"])
    assert "Plays for this user and domain\n- When the user asks for a summary" in out["memo"]
    assert "moved CI to arm64 runners" in out["memory"]
    assert "flaky arm64 job" in out["debts"]
    assert json.loads(out["update"])["status"] == "closed"
    assert out["bad_debt"].is_error and "D-9999" in _text(out["bad_debt"])
    assert json.loads(out["add_debt"])["id"] == "D-0002"
    assert "D-0002 [open] the nightly backup is not verified" in mem.path("debts.md").read_text()
    assert "## CI\narm64 runners" in mem.path("system-state.md").read_text()
    # the agent's account of a turn is recorded, but its "user" words are never the person's
    # correction: an injected agent could otherwise invent lessons in the person's name
    assert "staging" in out["turn"] and '"corrected": false' in out["turn"].replace(": False", ": false")
    assert "arm64" in out["search"]
    assert "run-tests" in out["edit"]
    with open_store(home=slowloop_home) as store:
        inv = store.query("SELECT skill, source FROM invocations")
        assert [(r["skill"], r["source"]) for r in inv] == [("run-tests", "mcp")]
        assert store.query("SELECT COUNT(*) AS n FROM turns")[0]["n"] == 2
        assert store.query("SELECT COUNT(*) AS n FROM edits WHERE source = 'explicit'")[0]["n"] == 1


def test_without_the_extra_the_error_says_what_to_install(tmp_path: Path) -> None:
    # a sitecustomize that hides the mcp package from the subprocess
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\nclass _Block:\n    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'mcp' or name.startswith('mcp.'):\n"
        "            raise ImportError('hidden for the test')\n"
        "sys.meta_path.insert(0, _Block())\n")
    env = {**os.environ, "PYTHONPATH": str(blocker)}
    r = subprocess.run([sys.executable, "-m", "slowloop", "mcp"], capture_output=True, text=True,
                       env=env, stdin=subprocess.DEVNULL, timeout=60)
    assert r.returncode != 0
    assert "pip install 'slowloop[mcp]'" in r.stderr
