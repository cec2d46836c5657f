"""Local hardening: nothing slowloop writes in its home is carried out of it by a planted symlink,
its locks live where no other user can create them first, and its folders are private."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from slowloop.errors import DataError
from slowloop.fsutil import atomic_write, lock_dir
from slowloop.memo import Memo
from slowloop.skills import SkillLibrary
from slowloop.store import open_store


def test_a_planted_skills_link_does_not_take_writes_out(slowloop_home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    skills = slowloop_home / "agents" / "default" / "skills"
    skills.parent.mkdir(parents=True)
    skills.symlink_to(outside, target_is_directory=True)
    with pytest.raises(DataError, match="leads outside"):
        SkillLibrary("default").create("testing", "When testing.", "- When testing, always run make test.\n")
    assert list(outside.iterdir()) == []


def test_a_planted_file_link_is_not_written_through(slowloop_home: Path, tmp_path: Path) -> None:
    target = tmp_path / "bashrc"
    target.write_text("# mine\n")
    memo = slowloop_home / "agents" / "default" / "memo.md"
    memo.parent.mkdir(parents=True)
    memo.symlink_to(target)
    with pytest.raises(DataError, match="is a link"):  # refused when read, before any write
        Memo("default").add("plays", "When testing, always run make test.")
    assert target.read_text() == "# mine\n"


def test_a_planted_ledger_link_is_refused(slowloop_home: Path, tmp_path: Path) -> None:
    slowloop_home.mkdir(parents=True)
    (slowloop_home / "slowloop.db").symlink_to(tmp_path / "elsewhere.db")
    with pytest.raises(DataError, match="leads outside"):
        open_store()
    assert not (tmp_path / "elsewhere.db").exists()


def test_a_home_that_is_itself_a_link_still_works(tmp_path: Path, monkeypatch) -> None:
    real = tmp_path / "real-home"
    real.mkdir()
    link = tmp_path / "home-link"
    link.symlink_to(real, target_is_directory=True)
    monkeypatch.setenv("SLOWLOOP_HOME", str(link))
    Memo("default").add("plays", "When testing, always run make test.")
    assert (real / "agents" / "default" / "memo.md").exists()


def test_locks_live_in_a_private_per_user_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    d = lock_dir()
    assert d == tmp_path / "cache" / "slowloop" / "locks"
    assert not str(d).startswith("/tmp/slowloop-locks")
    assert stat.S_IMODE(d.stat().st_mode) == 0o700
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert lock_dir() == runtime / "slowloop"
    os.chmod(runtime, 0o777)  # a runtime folder others can write is not used
    assert lock_dir() == tmp_path / "cache" / "slowloop" / "locks"


def test_folders_slowloop_creates_are_private(slowloop_home: Path) -> None:
    old = os.umask(0o022)
    try:
        SkillLibrary("default").create("testing", "When testing.",
                                       "- When testing, always run make test.\n")
        atomic_write(slowloop_home / "agents" / "default" / "memory" / "x" / "y.md", "y\n")
    finally:
        os.umask(old)
    for folder in (slowloop_home / "agents", slowloop_home / "agents" / "default",
                   slowloop_home / "agents" / "default" / "skills" / "testing",
                   slowloop_home / "agents" / "default" / "memory" / "x"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder


def test_a_record_nested_deeper_than_json_can_be_read_costs_that_record_only(tmp_path):
    """An MCP tool's result nested ~1,100 deep: that line is reported and skipped; the turns
    around it — a correction after it included — are recorded, by ingest as by the Stop hook."""
    import json as _json
    import os as _os
    import subprocess as _sp
    import sys as _sys

    deep = "[" * 1100 + '"x"' + "]" * 1100
    lines = [_json.dumps({"type": "user", "sessionId": "s", "timestamp": "2026-12-01T10:00:00Z", "uuid": "u0",
                          "message": {"role": "user", "content": "read the mcp thing"}}),
             _json.dumps({"type": "assistant", "sessionId": "s", "timestamp": "2026-12-01T10:00:01Z", "message": {
                 "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "mcp__x__get", "input": {}}]}}),
             '{"type":"user","sessionId":"s","timestamp":"2026-12-01T10:00:02Z","message":{"role":"user","content":'
             '[{"type":"tool_result","tool_use_id":"t1","content":' + deep + '}]}}',
             _json.dumps({"type": "assistant", "sessionId": "s", "timestamp": "2026-12-01T10:00:03Z",
                          "message": {"role": "assistant", "content": [{"type": "text", "text": "done"}]}}),
             _json.dumps({"type": "user", "sessionId": "s", "timestamp": "2026-12-01T10:01:00Z", "uuid": "u1",
                          "message": {"role": "user", "content": "No, use pnpm instead of npm"}}),
             _json.dumps({"type": "assistant", "sessionId": "s", "timestamp": "2026-12-01T10:01:01Z",
                          "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}})]
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for how in ("ingest", "hook"):
        home = tmp_path / how
        env = {k: v for k, v in _os.environ.items() if not k.startswith("SLOWLOOP_")}
        env.update(SLOWLOOP_HOME=str(home), SLOWLOOP_REFLECT__AUTO="false", SLOWLOOP_HOOKS__BACKGROUND="false")
        if how == "ingest":
            done = _sp.run([_sys.executable, "-m", "slowloop", "ingest", str(f), "--agent", "a"], env=env,
                           capture_output=True, text=True, timeout=120)
            assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
            assert "nests deeper" in done.stderr
        else:
            payload = _json.dumps({"session_id": "s", "transcript_path": str(f), "cwd": str(tmp_path)})
            _sp.run([_sys.executable, "-m", "slowloop.integrations.hooks_runtime", "claude-code", "Stop", "--agent", "a"],
                    input=payload, env=env, capture_output=True, text=True, timeout=120)
        from slowloop.store import open_store

        with open_store(home=home) as store:
            texts = [r["user_text"] for r in store.query("SELECT user_text FROM turns ORDER BY idx")]
        assert texts == ["read the mcp thing", "No, use pnpm instead of npm"], (how, texts)


def test_a_huge_message_or_tool_input_is_stored_capped_with_a_marker_and_observed_whole():
    from slowloop.ingest import STORED_STRING_MAX, shrink_for_storage
    from slowloop.observe.observe import observe_turn
    from slowloop.transcripts.model import Step, ToolCall, ToolResult, Turn

    big = ("word " * 200_000) + "the end"
    turn = Turn(source="t", format="claude-code", index=0, user_text="No, use pnpm instead of npm. " + big,
                steps=(Step("tool_call", call=ToolCall("c", "Write", {"file_path": "a.txt", "content": big})),
                       Step("tool_result", result=ToolResult("c", "Write", "ok"))))
    assert observe_turn(turn).corrected  # observed on the whole text
    stored = shrink_for_storage(turn)
    assert len(stored.user_text) <= STORED_STRING_MAX and "chars not stored" in stored.user_text
    content = stored.steps[0].call.input["content"]
    assert len(content) <= STORED_STRING_MAX and content.endswith("the end")
    assert shrink_for_storage(stored) == stored  # capped once: a re-ingest stores the same bytes


@pytest.mark.parametrize("url", [
    "postgresql://me:s3cr%zzet@127.0.0.1:1/db",  # the driver quotes the bad %-escape
    "host=127.0.0.1 port=1 password=hunter2xyz user=me dbname=x",  # key=value form
    "postgresql://me:hunter2xyz@127.0.0.1:1/db",
    "postgresql://me@127.0.0.1:1/db?password=hunter2xyz",
])
def test_no_message_prints_the_ledgers_password(url: str, slowloop_home: Path, monkeypatch) -> None:
    import subprocess
    import sys

    pytest.importorskip("psycopg")
    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", url)
    for args in (["status"], ["config", "show"], ["doctor"]):
        out = subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                             timeout=60)
        shown = out.stdout + out.stderr
        assert "hunter2xyz" not in shown and "s3cr%zzet" not in shown and "s3cr" not in shown, (args, shown)
    assert "***" in shown or "password" not in url
