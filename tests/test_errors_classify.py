"""Transient vs real tool errors: measured on labelled outputs and a real Claude Code session."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from slowloop.observe.errors import classify_result, find_errors
from slowloop.transcripts.model import Step, ToolCall, ToolResult, Turn

DATA = Path(__file__).parent / "data" / "errors.jsonl"
SAMPLE = "claude-code/ccv-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"


def _rows() -> list[dict]:
    with DATA.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _case(row: dict) -> tuple[ToolResult, ToolCall]:
    cmd = row.get("command")
    call = ToolCall(id="c1", name=row.get("tool") or "Bash", input={"command": cmd} if cmd else None)
    return (ToolResult(call_id="c1", name=row.get("tool") or "Bash", output=row["output"],
                       is_error=row.get("is_error"), exit_code=row.get("exit_code"),
                       rejected=bool(row.get("rejected"))), call)


def _kind(result: ToolResult, call: ToolCall | None = None) -> str:
    obs = classify_result(result, call)
    return obs.kind if obs else "none"


def _bash(output: str, *, is_error=None, exit_code=None, command: str | None = None) -> str:
    call = ToolCall(id="x", name="Bash", input={"command": command} if command else None)
    return _kind(ToolResult("x", "Bash", output, is_error=is_error, exit_code=exit_code), call)


def test_labelled_set_is_big_and_balanced_enough():
    counts = Counter(r["label"] for r in _rows())
    assert sum(counts.values()) >= 150
    assert min(counts.values()) >= 30, counts


def test_precision_and_recall_floors_on_labelled_outputs():
    confusion: Counter = Counter()
    for row in _rows():
        confusion[(row["label"], _kind(*_case(row)))] += 1
    errors = ("transient", "real")
    detected = sum(confusion[(w, g)] for w in errors for g in errors)
    false_alarms = sum(confusion[("none", g)] for g in errors)
    missed = sum(confusion[(w, "none")] for w in errors)
    assert detected / (detected + false_alarms) >= 0.95
    assert detected / (detected + missed) >= 0.95
    agree = confusion[("transient", "transient")] + confusion[("real", "real")]
    assert agree / detected >= 0.95, confusion
    said_transient = sum(confusion[(w, "transient")] for w in ("none", "transient", "real"))
    # A real error read as transient hides a lesson: transient must be very precise.
    assert confusion[("transient", "transient")] / said_transient >= 0.95, confusion
    assert confusion[("real", "transient")] <= 1, confusion


def test_the_real_sessions_23_failures_are_real_and_the_rest_are_not_errors(samples: Path):
    calls: dict[str, dict] = {}
    verdicts: Counter = Counter()
    with (samples / SAMPLE).open(encoding="utf-8") as f:
        for line in f:
            content = (json.loads(line).get("message") or {}).get("content")
            for block in content if isinstance(content, list) else ():
                if block.get("type") == "tool_use":
                    calls[block["id"]] = block
                elif block.get("type") == "tool_result":
                    body = block.get("content")
                    if isinstance(body, list):
                        body = "\n".join(b.get("text", "") for b in body if isinstance(b, dict))
                    use = calls[block["tool_use_id"]]
                    call = ToolCall(id=use["id"], name=use["name"], input=use.get("input"))
                    res = ToolResult(call_id=use["id"], name=use["name"], output=body or "",
                                     is_error=block.get("is_error"))
                    verdicts[(bool(block.get("is_error")), _kind(res, call))] += 1
    assert verdicts[(True, "real")] == 23
    assert verdicts[(False, "none")] == sum(n for (flag, _), n in verdicts.items() if not flag)


def test_structured_evidence_beats_words():
    failing_test = ("FAILED tests/test_client.py::test_timeout_is_configurable - AssertionError: "
                    "assert 30 == 5\n1 failed, 11 passed in 0.31s\n")
    obs = classify_result(ToolResult("x", "Bash", failing_test, exit_code=1))
    assert obs is not None and obs.kind == "real"
    assert obs.evidence.startswith("exit code 1 + ") and "FAILED" in obs.evidence
    assert _bash("AssertionError: request timed out after 3 retries", exit_code=1) == "real"
    assert _bash("requests.exceptions.HTTPError: 401 Client Error: Unauthorized", exit_code=1) == "real"
    assert _bash("curl: (22) The requested URL returned error: 429", exit_code=22) == "transient"
    assert _bash("Error: Request failed with status code 503", exit_code=1) == "transient"


def test_success_flags_are_trusted_and_grep_hits_are_not_errors():
    grep = "src/http.py:12:    timeout = 30\nsrc/http.py:40:    except ConnectionResetError:\n"
    assert _bash(grep, is_error=False, command="grep -n timeout src") == "none"
    assert _bash(grep, command="grep -n timeout src") == "none"  # no flag at all
    assert _bash("Traceback (most recent call last):\nValueError: x\n", exit_code=0) == "none"
    assert _bash("", exit_code=1, command="rg -l deprecated_api") == "none"  # no match
    assert _bash("", exit_code=2, command="rg -l '('") == "real"  # rg's own error


def test_error_shapes_are_found_without_any_flag():
    assert _bash("Traceback (most recent call last):\n  File \"a.py\", line 1\n"
                 "KeyError: 'amount'\n") == "real"
    assert _bash("Error: connect ECONNREFUSED 127.0.0.1:5432\n") == "transient"
    assert _bash("bash: pnpm: command not found") == "real"
    read = ToolResult("r", "Read", "     1→Traceback (most recent call last):\n     2→KeyError: 1\n")
    assert classify_result(read) is None  # a file that quotes a traceback


def test_own_time_limit_is_real_unless_the_network_shows():
    assert _bash("", exit_code=124, command="timeout 60 pytest") == "real"
    assert _bash("Command timed out after 2m 0.0s\n> next dev\n", is_error=True) == "real"
    assert _bash("curl: (28) Operation timed out after 30001 milliseconds", exit_code=124,
                 command="timeout 40 curl https://x") == "transient"


def test_mixed_transient_and_real_is_real():
    out = ("requests.exceptions.ConnectionError: ('Connection aborted.', "
           "RemoteDisconnected('Remote end closed connection without response'))\n\n"
           "During handling of the above exception, another exception occurred:\n\n"
           "TypeError: Logger.warning() got an unexpected keyword argument 'attempt'\n")
    obs = classify_result(ToolResult("x", "Bash", out, exit_code=1))
    assert obs is not None and obs.kind == "real" and "TypeError" in obs.evidence


def test_evidence_names_flag_and_cause_and_excerpt_is_short():
    out = "x" * 5000 + "\nError: read ECONNRESET\n    at TLSWrap.onStreamRead\n" + "y" * 3000
    obs = classify_result(ToolResult("x", "mcp__github__get_issue", out, is_error=True))
    assert obs is not None and obs.kind == "transient"
    assert obs.evidence == "is_error flag + econnreset"
    assert obs.tool == "mcp__github__get_issue"
    assert "ECONNRESET" in obs.excerpt and len(obs.excerpt) <= 200


def test_huge_output_costs_no_more_than_its_head_and_tail():
    middle = "building module 123 ... ok\n" * 400_000  # ~11 MB
    out = "Exit code 1\n" + middle + "ModuleNotFoundError: No module named 'yaml'\n"
    result = ToolResult("x", "Bash", out, is_error=True)
    obs = classify_result(result)  # its cost is measured by bench/hot_paths.py
    assert obs is not None and obs.kind == "real" and "ModuleNotFoundError" in obs.evidence
    assert "ModuleNotFoundError" in obs.excerpt and len(obs.excerpt) <= 200


def test_find_errors_indexes_steps_and_skips_rejections():
    steps = (
        Step("tool_call", call=ToolCall("a", "Bash", {"command": "npm install"})),
        Step("tool_result", result=ToolResult("a", "Bash", "npm ERR! code ECONNRESET\n", is_error=True)),
        Step("tool_call", call=ToolCall("b", "Edit", {"file_path": "x.py"})),
        Step("tool_result", result=ToolResult("b", "Edit", "The user doesn't want to proceed with "
                                              "this tool use.", is_error=True, rejected=True)),
        Step("text", text="Let me retry."),
        Step("tool_call", call=ToolCall("c", "Bash", {"command": "pytest"})),
        Step("tool_result", result=ToolResult("c", "Bash", "FAILED tests/t.py::test_a - assert 1 == 2",
                                              exit_code=1)),
        Step("tool_call", call=ToolCall("d", "Bash", {"command": "grep -n x a.py"})),
        Step("tool_result", result=ToolResult("d", "Bash", "", exit_code=1)),
    )
    turn = Turn(source="<memory>", format="anthropic", index=0, user_text="fix it", steps=steps)
    found = find_errors(turn)
    assert [(e.step, e.kind, e.tool) for e in found] == [(1, "transient", "Bash"), (6, "real", "Bash")]


@pytest.mark.parametrize("rejected_flag", [True])
def test_rejection_is_not_an_error(rejected_flag: bool):
    res = ToolResult("x", "Write", "The user doesn't want to proceed with this tool use.",
                     is_error=True, rejected=rejected_flag)
    assert classify_result(res) is None
