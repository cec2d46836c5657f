"""The Python API (``import slowloop``) and the worked example in examples/, run against a real
local HTTP server that speaks the OpenAI chat API."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from integrations_fixtures import write_skill
from test_providers_http import FakeServer, Reply, chat_reply

import slowloop
from slowloop.store import open_store

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "openai_agent.py"


def test_the_loop_from_python(slowloop_home: Path) -> None:
    write_skill(slowloop_home, "weekly-report", "Compile this week's data into the weekly report format")
    text = slowloop.get_bootstrap(task="write the weekly report")
    assert "weekly-report: Compile this week's data" in text
    openai_msgs = [{"role": "system", "content": text},
                   {"role": "user", "content": "make the weekly report"},
                   {"role": "assistant", "content": "Here it is."},
                   {"role": "user", "content": "No, that's wrong: use the standard format instead"},
                   {"role": "assistant", "content": "Fixed."}]
    first = slowloop.observe_messages(openai_msgs[:3], agent="default", session_id="c1")
    assert [t["status"] for t in first] == ["new"]
    second = slowloop.observe_messages(openai_msgs, session_id="c1")
    assert [t["status"] for t in second] == ["unchanged", "new"]
    assert second[1]["corrected"] and "user_correction" in {s["name"] for s in second[1]["signals"]}
    anthropic_msgs = [{"role": "user", "content": [{"type": "text", "text": "run the tests"}]},
                      {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash",
                                                         "input": {"command": "pytest"}}]},
                      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                                    "is_error": True, "content": "ConnectionResetError"}]},
                      {"role": "assistant", "content": [{"type": "text", "text": "The network failed."}]}]
    res = slowloop.observe_messages(anthropic_msgs, format="anthropic", session_id="c2")
    assert res[0]["tool_calls"] == 1 and res[0]["errors"]["transient"] and not res[0]["errors"]["real"]
    assert "1. Compile this week's data" in slowloop.read_skill("weekly-report")
    assert slowloop.record_edit("weekly-report", "the user fixed the totals") == ["weekly-report"]
    with open_store(home=slowloop_home) as store:
        assert store.query("SELECT source FROM invocations")[0]["source"] == "library"
        assert store.query("SELECT COUNT(*) AS n FROM impressions")[0]["n"] == 1
    reflector = slowloop.start_reflector(poll_seconds=0.05)
    assert reflector.running
    reflector.stop()
    assert not reflector.running


def test_bad_messages_name_the_position(slowloop_home: Path) -> None:
    with pytest.raises(slowloop.SlowloopError) as exc:
        slowloop.observe_messages("not a list")  # type: ignore[arg-type]
    assert "messages must be a list" in str(exc.value)


def test_the_example_imports_without_the_openai_package(tmp_path: Path, slowloop_home: Path) -> None:
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\nclass _Block:\n    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'openai' or name.startswith('openai.'):\n"
        "            raise ImportError('hidden for the test')\n"
        "sys.meta_path.insert(0, _Block())\n")
    write_skill(slowloop_home, "weekly-report", "Compile this week's data")
    code = (f"import importlib.util, sys\nspec = importlib.util.spec_from_file_location('ex', {str(EXAMPLE)!r})\n"
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
            "print(m.system_prompt('default'))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(blocker)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("You are a helpful assistant.") and "weekly-report" in r.stdout


def test_the_example_against_a_local_openai_compatible_server(slowloop_home: Path) -> None:
    pytest.importorskip("openai", reason="the example needs the openai SDK (CI installs it)")
    write_skill(slowloop_home, "weekly-report", "Compile this week's data into the weekly report format")
    server = FakeServer()
    try:
        server.queue(
            Reply(body=chat_reply(None, tool_calls=[{"id": "c1", "type": "function", "function": {
                "name": "read_skill", "arguments": '{"name": "weekly-report"}'}}])),
            Reply(body=chat_reply("Report ready, in the standard format.")),
            Reply(body=chat_reply("Totals fixed.")))
        env = {**os.environ, "OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": "test-key", "MODEL": "m"}
        r = subprocess.run([sys.executable, str(EXAMPLE), "--no-reflect"], capture_output=True, text=True,
                           input="write the weekly report\nNo, that's wrong: the totals are off\n",
                           env=env, timeout=120)
    finally:
        server.close()
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["Report ready, in the standard format.", "Totals fixed."]
    assert "weekly-report: Compile" in server.seen[0].body["messages"][0]["content"]
    assert server.seen[1].body["messages"][-1]["role"] == "tool"
    with open_store(home=slowloop_home) as store:
        turns = store.query("SELECT idx, corrected, tool_calls FROM turns ORDER BY idx")
        assert [(t["idx"], t["corrected"], t["tool_calls"]) for t in turns] == [(0, 0, 1), (1, 1, 0)]
        assert [r["skill"] for r in store.query("SELECT skill FROM invocations")] == ["weekly-report"]
