"""Ingest: real transcripts into the ledger, incrementally, safely from several processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from slowloop.cli import cli
from slowloop.config import load_config
from slowloop.ingest import ingest_paths
from slowloop.store import open_store

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")


def test_ingest_all_samples_then_again_records_nothing_new(samples):
    cfg = load_config()
    with open_store() as store:
        first = ingest_paths([samples], agent="default", store=store, cfg=cfg)
        assert first.files >= 20 and first.turns > 30 and first.new == first.turns
        again = ingest_paths([samples], agent="default", store=store, cfg=cfg)
        assert again.new == 0 and again.updated == 0 and again.unchanged == first.turns
        n = store.query("SELECT COUNT(*) AS n FROM turns")[0]["n"]
        assert n == first.turns
        # the real session with 23 failed tool results left its errors in the ledger
        errs = store.query("SELECT COUNT(*) AS n FROM errors")[0]["n"]
        assert errs >= 20


def test_grown_session_updates_its_last_turn(tmp_path):
    src = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples" / "claude-code-webshop-pnpm.jsonl"
    lines = src.read_text().splitlines(keepends=True)
    part = tmp_path / "session.jsonl"
    part.write_text("".join(lines[:3]))  # the first user message and the agent's first tool call
    cfg = load_config()
    with open_store() as store:
        s1 = ingest_paths([part], agent="default", store=store, cfg=cfg)
        assert s1.new == 1
        part.write_text("".join(lines))
        s2 = ingest_paths([part], agent="default", store=store, cfg=cfg)
        assert s2.updated == 1 and s2.new == 2
        assert store.query("SELECT COUNT(*) AS n FROM turns")[0]["n"] == 3


def test_malformed_line_is_reported_with_file_and_line_and_skipped(tmp_path):
    src = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples" / "claude-code-api-tests.jsonl"
    lines = src.read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + '{"type": "assistant", "message": {oops\n' + "".join(lines[1:]))
    r = CliRunner().invoke(cli, ["ingest", str(bad)])
    assert r.exit_code == 0, r.output
    assert f"{bad}:2" in r.stderr
    assert "1 new" in r.stdout


def test_missing_path_is_a_clear_error(tmp_path):
    r = CliRunner().invoke(cli, ["ingest", str(tmp_path / "nope.jsonl")])
    assert r.exit_code != 0
    assert "nope.jsonl" in r.output + r.stderr


def test_two_processes_ingesting_at_once_lose_nothing(samples, slowloop_home):
    # Real processes, the same store, overlapping inputs: every turn is recorded exactly once.
    cmd = [sys.executable, "-m", "slowloop", "ingest", str(samples), "--json"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-500:] for o in outs]
    summaries = [json.loads(o[0]) for o in outs]
    turns = summaries[0]["turns"]
    assert all(s["turns"] == turns for s in summaries)
    assert sum(s["new"] for s in summaries) == turns  # each turn was new to exactly one process
    with open_store() as store:
        assert store.query("SELECT COUNT(*) AS n FROM turns")[0]["n"] == turns
        assert store.integrity() == []


def test_agents_command_counts_waiting_turns(samples):
    runner = CliRunner()
    assert runner.invoke(cli, ["ingest", str(samples / "claude-code"), "--agent", "cc"]).exit_code == 0
    r = runner.invoke(cli, ["agents", "--json"])
    rows = json.loads(r.stdout)
    assert rows[0]["name"] == "cc" and rows[0]["turns"] > 10
    assert rows[0]["waiting_for_reflection"] >= 1


def test_stored_outputs_are_cut_at_whitespace_so_secrets_stay_recognisable():
    from slowloop.ingest import STORED_OUTPUT_HEAD, shrink_for_storage
    from slowloop.safety.redact import redact
    from slowloop.transcripts.model import Step, ToolResult, Turn

    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0" * 3
    for offset in range(-30, 5, 7):  # the key straddles the head cut at several positions
        output = "x " * ((STORED_OUTPUT_HEAD + offset) // 2) + key + " " + "log line\n" * 2000
        turn = Turn("s", "claude-code", 0, "run it",
                    steps=(Step("tool_result", result=ToolResult("c", "Bash", output)),))
        stored = shrink_for_storage(turn).steps[0].result.output
        assert len(stored) < len(output)
        fragment = key[:12]
        if fragment in stored:  # whatever of the key was kept is whole, so redaction finds it
            assert key in stored and key not in redact(stored).text


def test_a_file_is_the_same_file_however_its_path_is_spelled(samples, tmp_path, monkeypatch):
    """Identity by real path: relative, ``..``, symlinked and duplicate spellings change nothing."""
    folder = tmp_path / "projects" / "cc"
    folder.mkdir(parents=True)
    for f in sorted((samples / "claude-code").glob("*.jsonl")):
        (folder / f.name).write_bytes(f.read_bytes())
    (tmp_path / "link").symlink_to(folder)
    runner = CliRunner()

    def ingest(*paths: str) -> dict:
        r = runner.invoke(cli, ["ingest", *paths, "--agent", "cc", "--json"])
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)

    first = ingest(str(folder))
    assert first["new"] == first["turns"] > 10
    monkeypatch.chdir(tmp_path)
    for spelling in (["projects/cc"], ["./projects/../projects/cc"], ["link"],
                     ["projects/cc", str(folder)]):
        again = ingest(*spelling)
        assert again["files"] == first["files"], spelling
        assert (again["new"], again["updated"], again["unchanged"]) == (0, 0, first["turns"]), spelling
    sched = json.loads(runner.invoke(cli, ["schedule", "--json"]).stdout)
    assert sched["agents"][0]["pending_turns"] == first["turns"]  # nothing counted twice
