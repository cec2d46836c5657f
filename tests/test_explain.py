"""``slowloop explain``: the verdict in words and as JSON lines; writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from slowloop.cli import cli

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples"


def test_explain_json_shape_and_order(slowloop_home):
    files = [EXAMPLES / "claude-code-api-tests.jsonl", EXAMPLES / "claude-code-webshop-pnpm.jsonl"]
    r = CliRunner().invoke(cli, ["explain", *map(str, files), "--all", "--json"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [Path(x["file"]).name for x in rows] == ["claude-code-api-tests.jsonl"] + \
        ["claude-code-webshop-pnpm.jsonl"] * 3
    for row in rows:
        assert {"file", "turn", "tool_calls", "errors", "corrected", "aborted", "signals", "score",
                "threshold", "reflect"} <= set(row)
        assert set(row["errors"]) == {"transient", "real"}
    tests_turn = rows[0]
    assert tests_turn["errors"]["real"] and tests_turn["errors"]["real"][0]["evidence"]
    assert [s["name"] for s in tests_turn["signals"]] == ["error_recovery"]
    correction = rows[2]
    assert correction["corrected"] and correction["reflect"]
    assert correction["signals"][0] == {"name": "user_correction", "weight": 0.9,
                                        "why": correction["signals"][0]["why"]}
    assert not slowloop_home.joinpath("slowloop.db").exists()  # explain writes nothing


def test_explain_last_turn_in_words(slowloop_home):
    r = CliRunner().invoke(cli, ["explain", str(EXAMPLES / "claude-code-api-network.jsonl")])
    assert r.exit_code == 0, r.output
    assert "TRANSIENT" in r.stdout and "let it pass" in r.stdout


def test_explain_aborted_turn(samples):
    r = CliRunner().invoke(cli, ["explain", str(EXAMPLES / "claude-code-webshop-refactor.jsonl"),
                                 "--all", "--json"])
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert rows[-1]["aborted"] is True
    assert rows[0]["signals"] == [{"name": "complex_task", "weight": 0.5,
                                   "why": rows[0]["signals"][0]["why"]}]
    assert rows[0]["reflect"] is False
