"""``slowloop watch`` and the incremental reader under it: a real writer process, real signals,
rotated, truncated, rewritten and half-written files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from integrations_fixtures import cc_turn, lines

from slowloop.cli import cli
from slowloop.config import load_config
from slowloop.integrations.follow import observe_new
from slowloop.store import open_store

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")


def _turns(home: Path) -> list[tuple[int, str]]:
    with open_store(home=home) as store:
        return [(r["idx"], r["user_text"]) for r in
                store.query("SELECT idx, user_text FROM turns ORDER BY source, idx")]


def _wait(pred, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.1)
    return False


def test_watch_follows_a_file_written_in_pieces_and_stops_on_sigterm(tmp_path: Path,
                                                                     slowloop_home: Path) -> None:
    folder = tmp_path / "projects" / "myproj"
    folder.mkdir(parents=True)
    target = folder / "session.jsonl"
    content = "".join(lines(cc_turn(f"task number {i}", n=i)) for i in range(3))
    writer = textwrap.dedent(f"""
        import sys, time
        data = {content!r}.encode()
        step = 97  # pieces that cut lines (and records) in the middle
        with open({str(target)!r}, "ab", buffering=0) as f:
            for i in range(0, len(data), step):
                f.write(data[i:i + step])
                time.sleep(0.02)
    """)
    watcher = subprocess.Popen([sys.executable, "-m", "slowloop", "watch", "--path", str(tmp_path / "projects"),
                                "--interval", "0.1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        subprocess.run([sys.executable, "-c", writer], check=True, timeout=60)
        assert _wait(lambda: len(_turns(slowloop_home)) == 3 and all(
            c for c in _complete(slowloop_home)))
    finally:
        watcher.send_signal(signal.SIGTERM)
        out, err = watcher.communicate(timeout=30)
    assert watcher.returncode == 0, err.decode()
    assert _turns(slowloop_home) == [(0, "task number 0"), (1, "task number 1"), (2, "task number 2")]
    assert b"stopped:" in err and b"Traceback" not in err


def _complete(home: Path) -> list[int]:
    with open_store(home=home) as store:
        return [r["complete"] for r in store.query("SELECT complete FROM turns")]


def _observe(path: Path, home: Path):
    with open_store(home=home) as store:
        return observe_new(path, agent="default", store=store, cfg=load_config(home), home=home)


def test_rotated_truncated_and_rewritten_files_are_read_again(tmp_path: Path, slowloop_home: Path) -> None:
    p = tmp_path / "s.jsonl"
    p.write_text(lines(cc_turn("first question", n=0)))
    assert _observe(p, slowloop_home).new == 1
    nothing = _observe(p, slowloop_home)
    assert nothing.turns == 0 and not nothing.reset
    # rotated: a new file at the same path, with a different session
    p.rename(tmp_path / "s.jsonl.1")
    p.write_text(lines(cc_turn("after rotation", session="s2", n=0)))
    r = _observe(p, slowloop_home)
    assert r.reset.startswith("rotated") and r.new == 1
    # truncated: shorter than what was read
    with open(p, "r+") as f:
        f.truncate(10)
    r = _observe(p, slowloop_home)
    assert r.reset == "truncated" and r.new == 0
    # rewritten in place, same inode and longer: the consumed bytes changed
    with open(p, "w") as f:
        f.write(lines(cc_turn("rewritten question", session="s3", n=0) + cc_turn("more", session="s3", n=1)))
    r = _observe(p, slowloop_home)
    assert r.reset == "rewritten" and r.new == 2
    assert sorted(t for _, t in _turns(slowloop_home)) == [
        "after rotation", "first question", "more", "rewritten question"]


def test_resumed_reads_give_the_same_turns_as_a_full_read(tmp_path: Path, slowloop_home: Path) -> None:
    p = tmp_path / "s.jsonl"
    data = "".join(lines(cc_turn(f"question {i}", n=i, tool_error="FAILED test_x" if i == 1 else None))
                   for i in range(4)).encode()
    with open(p, "wb") as f:
        for cut in range(0, len(data), 150):
            f.write(data[cut:cut + 150])
            f.flush()
            _observe(p, slowloop_home)
    with open_store(home=slowloop_home) as store:
        rows = store.query("SELECT key, idx, complete FROM turns ORDER BY idx")
    assert [(r["idx"], r["complete"]) for r in rows] == [(0, 1), (1, 1), (2, 1), (3, 1)]
    with open_store(home=slowloop_home) as store:  # the failing tool call of turn 1, recorded once
        assert [e["kind"] for e in store.query("SELECT kind FROM errors")] == ["real"]
    from slowloop.transcripts import iter_turns

    assert sorted(r["key"] for r in rows) == sorted(t.key() for t in iter_turns(p))


def test_watch_once_json_and_bad_path(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(lines(cc_turn("hello", n=0)))
    r = CliRunner().invoke(cli, ["watch", "--path", str(tmp_path), "--once", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["new"] == 1
    bad = CliRunner().invoke(cli, ["watch", "--path", str(tmp_path / "missing"), "--once"])
    assert bad.exit_code != 0 and "missing" in bad.output


def test_a_file_that_is_not_a_transcript_is_skipped_with_a_reason(tmp_path: Path, slowloop_home: Path) -> None:
    p = tmp_path / "notes.json"
    p.write_text(json.dumps({"hello": "world"}))
    r = _observe(p, slowloop_home)
    assert r.skipped and r.turns == 0
    assert os.path.exists(p)
