"""A large ingest is read by worker processes, Claude Code files in pieces: it must record exactly
what one reader of the whole input records — every turn, index, line, stored JSON, key, error,
signal, skill use and correction edit, every problem line, in the same order."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from integrations_fixtures import cc_turn

import slowloop.ingest as ingest
from slowloop.config import load_config
from slowloop.errors import SlowloopError
from slowloop.store import open_store
from slowloop.transcripts import ParseReport, iter_turns, split_points
from slowloop.transcripts.model import Turn, json_parts, key_parts, turn_key


def _rec(kind: str, session: str | None, n: int, **extra: Any) -> dict[str, Any]:
    r: dict[str, Any] = {"type": kind, "timestamp": f"2026-11-29T11:{n % 60:02d}:00Z", "uuid": f"x{n}"}
    if session is not None:
        r["sessionId"] = session
    r.update(extra)
    return r


def _msg(role: str, content: Any) -> dict[str, Any]:
    return {"role": role, "content": content}


def hard_session() -> str:
    """A Claude Code file with everything that carries state from one record to the next."""
    out: list[str] = []
    add = out.extend
    a, b = "sess-a", "sess-b"
    add(json.dumps(r) for r in cc_turn("fix the build", session=a, skill="build-fixer", n=1))
    # the person corrects the skill-assisted turn: an edit-after-use of the skill
    add(json.dumps(r) for r in cc_turn("no, that's wrong: use make, not npm", session=a, n=2,
                                       tool_error="make: *** No rule to make target 'all'. Stop."))
    # a slash command answered locally: no turn
    out.append(json.dumps(_rec("user", a, 3, message=_msg("user", "<command-name>/clear</command-name>"))))
    out.append(json.dumps(_rec("user", a, 4, message=_msg("user", "<local-command-stdout></local-command-stdout>"))))
    # a turn the person interrupted, with a sub-agent's prompt and work folded into it
    out.append(json.dumps(_rec("user", a, 5, message=_msg("user", "refactor the parser"))))
    out.append(json.dumps(_rec("user", a, 6, isSidechain=True, message=_msg("user", "search for parse("))))
    out.append(json.dumps(_rec("assistant", a, 7, isSidechain=True, message=_msg("assistant", [
        {"type": "tool_use", "id": "g1", "name": "Grep", "input": {"pattern": "parse("}}]))))
    out.append(json.dumps(_rec("user", a, 8, isSidechain=True, message=_msg("user", [
        {"type": "tool_result", "tool_use_id": "g1", "content": "src/p.py:3: def parse(", "is_error": False}]))))
    out.append(json.dumps(_rec("user", a, 9, message=_msg("user", "[Request interrupted by user]"))))
    # records that are not prompts even though they are "user" records
    out.append(json.dumps(_rec("user", a, 10, isMeta=True, message=_msg("user", "Caveat: expanded"))))
    out.append(json.dumps(_rec("user", a, 11, isCompactSummary=True,
                               message=_msg("user", "This session is being continued from a previous"))))
    out.append("")  # a blank line
    out.append("{this is not json")
    out.append(json.dumps(["a", "list"]))
    out.append(json.dumps(_rec("summary", a, 12, summary="x")))
    # a prompt without a session id: a turn, but not a place a piece can start
    out.append(json.dumps(_rec("user", None, 13, message=_msg("user", "and the docs?"))))
    out.append(json.dumps(_rec("assistant", None, 14, message=_msg("assistant", [{"type": "text", "text": "Done."}]))))
    # a long turn: many tool calls and big outputs, so that many pieces fall inside it
    out.append(json.dumps(_rec("user", a, 15, message=_msg("user", "run every test"))))
    for i in range(40):
        out.append(json.dumps(_rec("assistant", a, 16 + i, message=_msg("assistant", [
            {"type": "tool_use", "id": f"t{i}", "name": "Bash", "input": {"command": f"pytest -k t{i}"}}]))))
        output = (f"FAILED test_x.py::test_{i} - AssertionError\n" if i % 7 == 0 else "ok\n") * 60
        out.append(json.dumps(_rec("user", a, 17 + i, message=_msg("user", [
            {"type": "tool_result", "tool_use_id": f"t{i}", "content": output, "is_error": i % 7 == 0}]))))
    out.append(json.dumps(_rec("assistant", a, 99, message=_msg("assistant", [{"type": "text", "text": "All green."}]))))
    # a second session in the same file (a resumed one): the first session id stays the file's
    add(json.dumps(r) for r in cc_turn("what changed since yesterday?", session=b, n=20))
    add(json.dumps(r) for r in cc_turn("no, I meant in the api folder", session=b, n=21, skill="git-log"))
    add(json.dumps(r) for r in cc_turn("stop, that is the wrong branch", session=b, n=22, end_marker=False))
    return "\n".join(out) + "\n" + '{"type": "user", "sessionId": "sess-b", "message": {"ro'  # cut short


def _cx(kind: str, payload: dict[str, Any], n: int = 0) -> str:
    return json.dumps({"timestamp": f"2026-11-29T12:{n % 60:02d}:00Z", "type": kind, "payload": payload})


def _said(text: str, n: int) -> str:
    return _cx("response_item", {"type": "message", "role": "user",
                                 "content": [{"type": "input_text", "text": text}]}, n)


def _heard(text: str, n: int) -> str:
    return _cx("event_msg", {"type": "user_message", "message": text}, n)


def _answer(text: str, n: int) -> str:
    return _cx("response_item", {"type": "message", "role": "assistant",
                                 "content": [{"type": "output_text", "text": text}]}, n)


def _shell(call: str, cmd: str, out: str, n: int, code: int | None = 0) -> list[str]:
    output: Any = json.dumps({"output": out, "metadata": {"exit_code": code}}) if code is not None else out
    return [_cx("response_item", {"type": "function_call", "name": "shell", "call_id": call,
                                  "arguments": json.dumps({"command": ["bash", "-lc", cmd]})}, n),
            _cx("response_item", {"type": "function_call_output", "call_id": call, "output": output}, n)]


def hard_codex_session() -> str:
    """A Codex rollout with everything that carries state across records: both copies of each
    prompt (either order, with records between them), injected context, exit codes that come
    after the output, an escalation never approved, an aborted turn, a compaction."""
    out = [_cx("session_meta", {"id": "rollout-1", "cwd": "/r"}),
           _cx("turn_context", {"cwd": "/r"}),
           _said("<environment_context><cwd>/r</cwd></environment_context>", 1),
           _said("make the tests pass", 2), _heard("make the tests pass", 2),
           _cx("event_msg", {"type": "task_started"}, 2)]
    for i in range(25):  # a long turn
        out += _shell(f"c{i}", f"pytest -k t{i}", ("E   AssertionError\n" if i % 5 == 0 else "passed\n") * 40,
                      3, 1 if i % 5 == 0 else 0)
        out.append(_cx("event_msg", {"type": "exec_command_end", "call_id": f"c{i}",
                                     "exit_code": 1 if i % 5 == 0 else 0}, 3))
    out += [_answer("All tests pass now.", 4), _cx("event_msg", {"type": "task_complete"}, 4),
            # the event copy first, something between the two copies
            _heard("no, use pytest -x, not the whole suite", 5),
            _cx("turn_context", {"cwd": "/r"}, 5),
            _said("no, use pytest -x, not the whole suite", 5),
            _cx("response_item", {"type": "function_call", "name": "shell", "call_id": "e1",
                                  "arguments": json.dumps({"command": ["rm", "-rf", "build"],
                                                           "sandbox_permissions": "require_escalated"})}, 6),
            _said("stop", 7), _heard("stop", 7),  # the escalation never ran
            _cx("event_msg", {"type": "turn_aborted", "reason": "interrupted"}, 7),
            _cx("compacted", {"message": "summary"}, 8),
            "not json at all",
            _said("<user_instructions>be brief</user_instructions>", 9),
            _said("why did it fail?", 10), _heard("why did it fail?", 10)]
    out += _shell("d1", "git log -1", "fatal: not a git repository", 11, 128)
    out += [_answer("It is not a git repository.", 12),
            _heard("thanks", 13), _said("thanks", 13)]
    return "\n".join(out) + "\n"


def read_in_pieces(path: Path, piece_bytes: int) -> tuple[list[Turn], ParseReport]:
    points = list(split_points(path, piece_bytes))
    stops = [p[0] for p in points[1:]] + [None]
    turns: list[Turn] = []
    report = ParseReport()
    for (start, line), stop in zip(points, stops, strict=True):
        base = len(turns)
        for t in iter_turns(path, report=report, start_offset=start, start_line=line,
                            resync=start > 0, stop_offset=stop):
            turns.append(dataclasses.replace(t, index=t.index + base))
    return turns, report


def assert_pieces_match(path: Path, sizes: list[int]) -> int:
    whole_report = ParseReport()
    whole = list(iter_turns(path, report=whole_report))
    for size in sizes:
        turns, report = read_in_pieces(path, size)
        assert turns == whole, f"{path.name} in pieces of {size} bytes"
        assert report == whole_report, f"{path.name} in pieces of {size} bytes"
    return len(whole)


def test_split_points_are_line_starts_with_their_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(hard_session(), encoding="utf-8")
    data = path.read_bytes()
    points = list(split_points(path, 700))
    assert points[0] == (0, 1) and len(points) > 10
    for offset, line in points:
        assert offset == 0 or data[offset - 1:offset] == b"\n"
        assert line == data.count(b"\n", 0, offset) + 1
    assert [o for o, _ in points] == sorted({o for o, _ in points})


def test_every_way_of_cutting_a_hard_session_reads_the_same_turns(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(hard_session(), encoding="utf-8")
    # 1 byte: every line its own piece; the rest land inside turns, long lines and the long turn
    n = assert_pieces_match(path, [1, 37, 200, 512, 1000, 1500, 3000, 7000, 50_000])
    assert n == 8
    whole = list(iter_turns(path))
    assert [t.session_id for t in whole].count("sess-b") == 3
    assert whole[2].aborted and any(s.sidechain for s in whole[2].steps)
    assert whole[3].session_id == "sess-a"  # no id of its own: the file's first


def test_every_real_claude_code_sample_reads_the_same_in_pieces(samples: Path) -> None:
    files = sorted((samples / "claude-code").rglob("*.jsonl"))
    assert files
    total = sum(assert_pieces_match(f, [1, 300, 1000, 4000]) for f in files)
    assert total > 20


def test_every_way_of_cutting_a_hard_codex_rollout_reads_the_same_turns(tmp_path: Path) -> None:
    path = tmp_path / "rollout.jsonl"
    path.write_text(hard_codex_session(), encoding="utf-8")
    n = assert_pieces_match(path, [1, 37, 200, 512, 1000, 1500, 3000, 7000, 50_000])
    whole = list(iter_turns(path))
    assert n == len(whole) == 5
    assert [t.user_text for t in whole][1] == "no, use pytest -x, not the whole suite"
    assert any(r.rejected for r in whole[1].tool_results)  # the escalation that never ran
    assert {t.session_id for t in whole} == {"rollout-1"}


def test_every_real_codex_sample_reads_the_same_in_pieces(samples: Path) -> None:
    files = sorted((samples / "codex").rglob("*.jsonl"))
    assert files
    assert sum(assert_pieces_match(f, [1, 300, 1000, 4000]) for f in files) > 10


def test_pieces_only_for_formats_that_can_start_mid_file(samples: Path) -> None:
    gemini = sorted((samples / "gemini").rglob("*.jsonl"))[0]
    with pytest.raises(SlowloopError, match="cannot be read in pieces"):
        list(iter_turns(gemini, start_offset=10, resync=True))


# -- the stored form is unchanged: to_json and key from their parts ----------------------------

def test_the_stored_json_and_key_are_the_bytes_earlier_versions_hashed(tmp_path: Path, samples: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(hard_session(), encoding="utf-8")
    turns = list(iter_turns(path))
    for f in sorted(samples.rglob("*.json*")):
        turns += list(iter_turns(f))
    turns.append(dataclasses.replace(turns[0], person=False, skills_read=(), steps=()))
    assert len(turns) > 50
    for t in turns:
        d = t.to_dict()
        legacy = json.dumps(d, ensure_ascii=False, sort_keys=True, default=str)
        assert t.to_json() == legacy
        before, after = json_parts(d)
        assert f"{before}{t.index}{after}" == legacy
        basis = json.dumps([t.format, t.session_id or t.source, t.index, t.started_at or "",
                            t.user_text[:500]], ensure_ascii=False)
        head, tail = key_parts(t.format, t.session_id or t.source, t.started_at, t.user_text)
        assert f"{head}{t.index}{tail}" == basis
        assert t.key() == turn_key(t.format, t.session_id or t.source, t.index, t.started_at,
                                   t.user_text)
    assert json_parts({"index": 1}) == ('{"index": ', "}")
    assert json_parts({"a": 1, "index": 2}) == ('{"a": 1, "index": ', "}")
    assert json_parts({"index": 2, "z": [1]}) == ('{"index": ', ', "z": [1]}')


# -- the ledger a parallel ingest writes -------------------------------------------------------

TABLES = ("turns", "errors", "signals", "turn_skills", "invocations", "edits")
STAMPS = {"updated_at", "recorded_at", "at"}


def ledger_rows(home: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(home / "slowloop.db") as db:
        out = {}
        for table in TABLES:
            cols = [r[1] for r in db.execute(f"PRAGMA table_info({table})")
                    if r[1] not in STAMPS or table in ("invocations", "edits") and r[1] == "at"]
            out[table] = db.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY 1").fetchall()
    return out


def ingest_into(home: Path, paths: list[Path], workers: int) -> ingest.IngestSummary:
    cfg = load_config(home)
    with open_store(home=home) as store:
        return ingest.ingest_paths(paths, agent="a", store=store, cfg=cfg, workers=workers)


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(ingest, "PIECE_BYTES", 1500)


def corpus(tmp_path: Path, samples: Path) -> list[Path]:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "hard.jsonl").write_text(hard_session(), encoding="utf-8")
    (folder / "rollout.jsonl").write_text(hard_codex_session(), encoding="utf-8")
    (folder / "not-a-transcript.json").write_text('{"hello": "world"}', encoding="utf-8")
    return [folder, samples]


def test_workers_record_exactly_what_one_reader_records(tmp_path: Path, samples: Path,
                                                        small_pieces: None) -> None:
    inputs = corpus(tmp_path, samples)
    one = ingest_into(tmp_path / "one", inputs, workers=1)
    two = ingest_into(tmp_path / "two", inputs, workers=2)
    assert two.to_dict() == one.to_dict()
    assert one.turns > 60 and one.problems and one.skipped_files
    rows_one, rows_two = ledger_rows(tmp_path / "one"), ledger_rows(tmp_path / "two")
    assert rows_two == rows_one
    assert rows_one["edits"] and rows_one["invocations"] and rows_one["errors"]
    # and again: every turn is recognised as recorded, whoever reads it
    again = ingest_into(tmp_path / "one", inputs, workers=2)
    assert again.unchanged == one.turns and again.new == again.updated == 0


def test_a_worker_that_dies_is_reported_and_what_was_recorded_stays(
        tmp_path: Path, samples: Path, small_pieces: None, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "hard.jsonl"
    text = hard_session() * 3
    path.write_text(text, encoding="utf-8")
    observe = ingest.observe_file

    def dies_on_a_late_piece(path: Path, cfg: Any, **kw: Any) -> Any:
        if kw.get("start_offset", 0) > len(text) // 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return observe(path, cfg, **kw)

    monkeypatch.setattr(ingest, "observe_file", dies_on_a_late_piece)  # forked workers see it
    with pytest.raises(SlowloopError, match="stopped unexpectedly") as err:
        ingest_into(tmp_path / "h", [path], workers=2)
    assert str(path) in str(err.value) and "WORKERS=1" in str(err.value)
    kept = ledger_rows(tmp_path / "h")["turns"]
    monkeypatch.setattr(ingest, "observe_file", observe)
    full = ingest_into(tmp_path / "h", [path], workers=2)
    assert 0 < len(kept) < full.turns
    assert full.unchanged == len(kept) and full.new == full.turns - len(kept)


def test_worker_count(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cfg = load_config(tmp_path)
    big = ingest.PARALLEL_MIN_BYTES
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert ingest._worker_count(cfg, None, big) == ingest.MAX_WORKERS
    assert ingest._worker_count(cfg, None, big - 1) == 1  # too small to be worth the start
    assert ingest._worker_count(cfg, 3, big) == 3
    assert ingest._worker_count(cfg.with_overrides(ingest={"workers": 1}), None, big) == 1
    import threading

    started = threading.Event()
    stop = threading.Event()
    t = threading.Thread(target=lambda: (started.set(), stop.wait()))
    t.start()
    try:
        started.wait()
        assert ingest._worker_count(cfg, 2, big) == 1  # never fork a process that runs threads
    finally:
        stop.set()
        t.join()


def test_the_workers_setting_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLOWLOOP_INGEST__WORKERS", "-1")
    with pytest.raises(SlowloopError, match="SLOWLOOP_INGEST__WORKERS"):
        load_config(tmp_path)


# -- the search index after a large ingest -----------------------------------------------------

def test_a_large_ingest_indexes_its_turns_for_search_in_the_background(
        tmp_path: Path, slowloop_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    import slowloop.integrations.recorded as recorded
    from slowloop.cli import cli

    path = tmp_path / "s.jsonl"
    path.write_text(hard_session(), encoding="utf-8")
    monkeypatch.setattr(recorded, "BACKGROUND_INDEX_TURNS", 5)
    r = CliRunner().invoke(cli, ["ingest", str(path), "--agent", "a", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["turns"] == 8 and out["search_index"]["state"] == "updating in the background"
    pid = out["search_index"]["pid"]
    _, status = os.waitpid(pid, 0)  # started by this process: wait for it, then read its log line
    assert os.waitstatus_to_exitcode(status) == 0
    log = (slowloop_home / "logs" / "recall.log").read_text(encoding="utf-8")
    # the 8 turns, and what the memory kept of their session (its entry, the debts it opened)
    added = re.search(rf"pid={pid} a: (\d+) added", log)
    assert added is not None and int(added.group(1)) > 8, log
    found = CliRunner().invoke(cli, ["search", "wrong branch", "--agent", "a", "--json"])
    assert found.exit_code == 0 and "stop, that is the wrong branch" in found.stdout

    # a few turns: indexed before the command returns, nothing left running
    small = tmp_path / "small.jsonl"
    small.write_text("".join(json.dumps(x) + "\n" for x in cc_turn("rename the module", session="s9")),
                     encoding="utf-8")
    r = CliRunner().invoke(cli, ["ingest", str(small), "--agent", "a"])
    assert r.exit_code == 0 and "background" not in r.output
    found = CliRunner().invoke(cli, ["search", "rename the module", "--agent", "a", "--json"])
    assert "rename the module" in found.stdout


def test_workers_on_a_postgresql_ledger(tmp_path: Path, samples: Path, small_pieces: None,
                                        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer's open connection to the server is inherited by the forked workers, which never
    use it: the ingest on PostgreSQL records what one reader records on SQLite."""
    inputs = corpus(tmp_path, samples)
    one = ingest_into(tmp_path / "one", inputs, workers=1)
    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", postgres_url)
    two = ingest_into(tmp_path / "two", inputs, workers=2)
    assert two.to_dict() == one.to_dict()
    sql = "SELECT key, content_hash, idx, source, data FROM turns ORDER BY id"
    with open_store(home=tmp_path / "two") as store:
        assert store.backend == "postgresql"
        on_server = [tuple(r[k] for k in ("key", "content_hash", "idx", "source", "data"))
                     for r in store.query(sql)]
        edits = store.query("SELECT COUNT(*) AS n FROM edits")[0]["n"]
    with sqlite3.connect(tmp_path / "one" / "slowloop.db") as db:
        assert on_server == db.execute(sql).fetchall()
        assert edits == db.execute("SELECT COUNT(*) FROM edits").fetchone()[0] > 0


def test_the_index_reads_turns_a_page_at_a_time(tmp_path: Path, slowloop_home: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from slowloop.recall import api as recall_api

    path = tmp_path / "s.jsonl"
    path.write_text(hard_session(), encoding="utf-8")
    ingest_into(slowloop_home, [path], workers=1)
    monkeypatch.setattr(recall_api, "TURNS_PER_PAGE", 3)
    pages: list[int] = []
    from slowloop.store import artifacts

    read = artifacts.turns_for_recall
    monkeypatch.setattr(artifacts, "turns_for_recall", lambda store, ids: pages.append(len(ids)) or read(store, ids))
    stats = recall_api.refresh("a", slowloop_home)
    assert pages == [3, 3, 2] and stats.added >= 8
    with recall_api.open_index("a", slowloop_home) as idx:
        assert idx.get_meta("turns.max_id") == "8"
    again = recall_api.refresh("a", slowloop_home)  # only the turn stamped last is looked at again
    assert (again.added, again.updated) == (0, 0) and pages == [3, 3, 2, 1]


# -- what a piece cannot see: found by review, each a file that once read differently in pieces --

def _cc(kind: str, text: str, session: str | None = None, **extra: Any) -> str:
    rec: dict[str, Any] = {"type": kind, **extra}
    if session is not None:
        rec["sessionId"] = session
    content: Any = text if kind == "user" else [{"type": "text", "text": text}]
    rec["message"] = {"role": kind, "content": content}
    return json.dumps(rec)


@pytest.mark.parametrize("name,lines", [
    # a first prompt with no session id: the next prompt's id is the file's, the first turn's too
    ("cc-late-session", [_cc("user", "hello"), _cc("assistant", "hi"), _cc("user", "second", "S1"),
                         _cc("assistant", "ok", "S1")]),
    # the file's first session id is named by a record the next piece skips, not by its prompt
    ("cc-session-in-skipped-record", [
        _cc("user", "one"), _cc("assistant", "a"),
        json.dumps({"type": "system", "sessionId": "A", "subtype": "note", "content": "x"}),
        _cc("user", "two", "B"), _cc("assistant", "b", "B"), _cc("user", "three"), _cc("assistant", "c")]),
    # Codex names the session after the first prompt
    ("cx-late-session-meta", [_said("first", 1), _answer("a", 1),
                              _cx("session_meta", {"id": "R1"}, 2), _said("second", 3), _answer("b", 3)]),
    # an exit code reported while no turn is open, for a call id used again later
    ("cx-update-before-any-turn", [
        _cx("session_meta", {"id": "R"}), _cx("event_msg", {"type": "exec_command_end", "call_id": "c1",
                                                            "exit_code": 1}),
        _cx("response_item", {"type": "function_call_output", "call_id": "c1", "output": "x"}),
        _heard("hi", 1), *_shell("c1", "make", "boom", 2, None)]),
    # a line that ends in whitespace JSON does not allow but str.strip() does
    ("cx-trailing-form-feed", [_said("first", 1), _answer("a", 1) + "\f", _said("second", 2),
                               _answer("b", 2)]),
])
def test_state_a_piece_cannot_see_is_learned_as_one_reader_learns_it(tmp_path: Path, name: str,
                                                                     lines: list[str]) -> None:
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert assert_pieces_match(path, [1, 2, 5, 10, 30, 60, 100, 200, 400, 1000]) >= 1


def test_a_file_written_while_its_pieces_are_read_is_read_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    path.write_text("\n".join([_cc("user", "first", "S"), _cc("assistant", "x" * 300, "S"),
                               _cc("assistant", "y" * 300, "S")]) + "\n", encoding="utf-8")
    size = path.stat().st_size
    points = list(split_points(path, 400, size))
    (s0, l0), (s1, l1) = points[0], points[1]
    report = ParseReport()
    turns = list(iter_turns(path, report=report, start_offset=s0, start_line=l0, stop_offset=s1,
                            end_offset=size))
    with path.open("a", encoding="utf-8") as f:  # the session goes on while the next piece waits
        f.write(_cc("assistant", "z", "S") + "\n" + _cc("user", "second", "S") + "\n")
    turns += [dataclasses.replace(t, index=t.index + len(turns)) for t in iter_turns(
        path, report=report, start_offset=s1, start_line=l1, resync=True, end_offset=size)]
    snapshot = ParseReport()
    assert turns == list(iter_turns(path, report=snapshot, end_offset=size)) and report == snapshot
    assert len(turns) == 1 and len(turns[0].steps) == 2
    # a snapshot that ends inside a line reads it as a line still being written
    cut = ParseReport()
    assert len(list(iter_turns(path, report=cut, end_offset=size + 10))) == 1
    assert "truncated last line" in str(cut.problems[-1])
    assert [t.user_text for t in iter_turns(path)] == ["first", "second"]  # the next ingest


def test_split_points_refuses_an_empty_piece(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(hard_session(), encoding="utf-8")
    with pytest.raises(ValueError, match="at least 1"):
        next(iter(split_points(path, 0)))


def test_a_turn_rewritten_while_the_index_reads_its_pages_is_read_again(
        tmp_path: Path, slowloop_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from slowloop.recall import api as recall_api
    from slowloop.store import artifacts

    path = tmp_path / "s.jsonl"
    path.write_text(hard_session(), encoding="utf-8")
    ingest_into(slowloop_home, [path], workers=1)
    recall_api.refresh("a", slowloop_home)
    db = sqlite3.connect(slowloop_home / "slowloop.db", isolation_level=None)

    def rewrite(turn_id: int, text: str, stamp: str) -> None:
        db.execute("UPDATE turns SET user_text = ?, updated_at = ? WHERE id = ?", (text, stamp, turn_id))

    rewrite(2, "grown two", "2099-01-01T00:00:01.000000Z")  # two sessions growing
    rewrite(5, "grown five", "2099-01-01T00:00:01.000000Z")
    read = artifacts.turns_for_recall

    def meanwhile(store: Any, ids: list[int]) -> list[dict]:
        if ids == [2]:  # after the list was taken: turn 3 is rewritten, then turn 5 again
            rewrite(3, "grown three", "2099-01-01T00:00:02.000000Z")
            rewrite(5, "grown five again", "2099-01-01T00:00:03.000000Z")
        return read(store, ids)

    monkeypatch.setattr(recall_api, "TURNS_PER_PAGE", 1)
    monkeypatch.setattr(artifacts, "turns_for_recall", meanwhile)
    recall_api.refresh("a", slowloop_home)
    monkeypatch.setattr(artifacts, "turns_for_recall", read)
    recall_api.refresh("a", slowloop_home)
    with recall_api.open_index("a", slowloop_home) as idx:
        texts = {r["source"]: r["text"] for r in idx.conn.execute("SELECT source, text FROM entries")}
    assert texts["turn:3"].startswith("grown three")
    assert texts["turn:5"].startswith("grown five again")
