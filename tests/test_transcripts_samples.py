"""The adapters against every real sample in shared/samples/transcripts (counts verified by reading
the files line by line; see SOURCES.md there for where each comes from)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from slowloop.transcripts import ParseReport, detect_format, iter_turns
from slowloop.transcripts.model import Turn

# file → (format, turns). Why each count is what it is is in the test that looks closer.
EXPECTED = {
    "claude-code/ah-claude_forked_session.jsonl": ("claude-code", 4),
    "claude-code/ah-claude_golden.jsonl": ("claude-code", 1),
    "claude-code/ah-claude_with_rejection.jsonl": ("claude-code", 2),
    "claude-code/ah-session_with_compaction.jsonl": ("claude-code", 3),
    "claude-code/as-large.jsonl": ("claude-code", 4),
    "claude-code/as-schema_drift.jsonl": ("claude-code", 1),
    "claude-code/as-small.jsonl": ("claude-code", 6),
    "claude-code/ccl-edge_cases.jsonl": ("claude-code", 4),
    "claude-code/ccl-representative_messages.jsonl": ("claude-code", 4),
    "claude-code/cct-sample_session.jsonl": ("claude-code", 2),
    "claude-code/ccv-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl": ("claude-code", 1),
    "claude-code/ccv-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl": ("claude-code", 1),
    "claude-code/ccv-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl": ("claude-code", 2),
    "codex/ah-codex_golden.jsonl": ("codex", 2),
    "codex/ah-codex_with_compaction.jsonl": ("codex", 4),
    "codex/ah-codex_with_escalation.jsonl": ("codex", 5),
    "codex/as-large.jsonl": ("codex", 6),
    "codex/as-schema_drift.jsonl": ("codex", 1),
    "codex/as-small.jsonl": ("codex", 3),
    "gemini/ah-gemini_golden.json": ("gemini", 2),
    "gemini/ah-gemini_with_tool_error.jsonl": ("gemini", 4),
    "gemini/as-jsonl_v040.jsonl": ("gemini", 1),
    "gemini/as-large.json": ("gemini", 2),
}


def read(samples: Path, name: str) -> tuple[list[Turn], ParseReport]:
    report = ParseReport()
    return list(iter_turns(samples / name, report=report)), report


def test_every_sample_is_covered(samples: Path) -> None:
    on_disk = {str(p.relative_to(samples)) for p in samples.rglob("*.json*")}
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_format_and_turn_count(samples: Path, name: str) -> None:
    fmt, count = EXPECTED[name]
    assert detect_format(samples / name) == fmt
    turns, _ = read(samples, name)
    assert len(turns) == count
    assert [t.index for t in turns] == list(range(count))
    assert all(t.format == fmt and t.source == str(samples / name) for t in turns)
    assert all(t.complete for t in turns[:-1])  # only the last turn can still be open
    if name.endswith(".jsonl"):  # turns tile the file: consecutive, non-overlapping spans
        for a, b in itertools.pairwise(turns):
            assert a.line_end < b.line_start and a.byte_end == b.byte_start


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if n.endswith(".jsonl")))
def test_resuming_at_any_turn_gives_the_same_turns(samples: Path, name: str) -> None:
    full, _ = read(samples, name)
    for turn in full:
        resumed = list(iter_turns(samples / name, start_offset=turn.byte_start,
                                  start_index=turn.index))
        assert [t.to_dict() for t in resumed] == [t.to_dict() for t in full[turn.index:]]


def test_claude_rejections_keep_the_users_reason(samples: Path) -> None:
    turns, _ = read(samples, "claude-code/ah-claude_with_rejection.jsonl")
    rejected = [r for t in turns for r in t.rejected_calls]
    assert [(r.name, r.is_error) for r in rejected] == [("Edit", True), ("Bash", True)]
    assert rejected[0].output.endswith("Hold. I want to keep it simple - no connection pooling for now.")
    assert "Will this technique work in GitHub CI?" in rejected[1].output
    assert not any(t.aborted for t in turns)
    # the accepted edit after the rejection is a normal result
    assert turns[0].tool_results[-1].output == "File updated successfully"


def test_codex_escalation_denials_and_abort(samples: Path) -> None:
    turns, _ = read(samples, "codex/ah-codex_with_escalation.jsonl")
    assert [t.user_text for t in turns] == [
        "Create a test file", "Yes, overwrite it with something else",
        "Actually nevermind, I want to keep the original content", "Can you read what's in it?",
        "Delete the file"]
    # escalated call that never ran before the user spoke again: refused
    assert [(r.call_id, r.name) for r in turns[1].rejected_calls] == [("call_esc_002", "shell")]
    # the last turn: the user cancelled while approval was pending
    assert turns[4].aborted and "user_cancelled" in turns[4].abort_evidence
    assert [r.call_id for r in turns[4].rejected_calls] == ["call_esc_004"]
    assert not any(t.aborted for t in turns[:4])
    assert turns[3].tool_results[0].output == "Hello World"


def test_codex_small_abort_and_no_double_counted_user_text(samples: Path) -> None:
    turns, report = read(samples, "codex/as-small.jsonl")
    # "List the files" is written as event_msg (line 4) and as response_item (line 6): one turn
    assert turns[0].user_text == "List the files" and turns[0].line_start == 4
    assert turns[0].aborted and turns[0].abort_evidence == "turn_aborted: interrupted"
    assert not turns[1].aborted and not turns[2].aborted
    # task_started (line 97) with no task_complete after it: the agent is still working
    assert turns[2].complete is False
    outputs = {r.call_id: r.output for r in turns[0].tool_results}
    assert outputs["call-2"] == "a.txt\n" and outputs["call-1"] == "a.txt\nb.txt\n"
    assert report.problems == [] and report.skipped_records > 50  # turn_context, world_state…


def test_claude_failed_tool_results_in_sub_agents(samples: Path) -> None:
    turns, report = read(samples, "claude-code/ccv-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl")
    first = turns[0]
    assert first.user_text == "/orchestrator create TODO app by Next.js"  # isMeta expansion skipped
    assert turns[1].user_text.startswith("Thanks! Please update CLAUDE.md")
    failed = [r for r in first.tool_results if r.is_error]
    assert len(failed) == 23
    assert all(s.sidechain for s in first.steps if s.kind == "tool_result" and s.result.is_error)
    assert len(first.tool_calls) == len(first.tool_results) == 166
    assert all(r.name for r in first.tool_results)  # every result resolved to its call's name
    assert not any(s.sidechain for s in turns[1].steps)
    # the sub-agents' prose is not the answer the user read
    assert "Task" in {c.name for c in first.tool_calls}
    assert first.assistant_text and all(s.text not in first.assistant_text
                                        for s in first.steps if s.sidechain and s.kind == "text")
    assert report.problems == []
    # what the ledger stores comes back whole, sidechain marks included
    assert Turn.from_dict(json.loads(first.to_json())) == first


def test_edge_cases_malformed_lines_reported_and_skipped(samples: Path) -> None:
    turns, report = read(samples, "claude-code/ccl-edge_cases.jsonl")
    assert [p.line for p in report.problems] == [10, 11, 13, 14, 15, 16, 18]
    assert all(p.path.endswith("ccl-edge_cases.jsonl") for p in report.problems)
    assert "message" in report.problems[1].message  # line 11: "message": "error"
    # caveat (6), local command output (8) and the summary (19) open no turn
    assert [t.line_start for t in turns] == [1, 3, 7, 12]
    assert turns[2].user_text == "/test-command --verbose --output /tmp/test.log"
    failing = turns[1].tool_results[0]
    assert (failing.name, failing.is_error) == ("FailingTool", True)
    assert turns[3].user_text.startswith("Testing special characters: café")
    assert turns[3].complete is False  # ends on a tool call with no result
    assert report.skipped_records == 3


def test_schema_drift_files(samples: Path) -> None:
    turns, report = read(samples, "claude-code/as-schema_drift.jsonl")
    t = turns[0]
    assert t.user_text == "Open README"
    assert [s.kind for s in t.steps] == ["tool_call", "tool_result", "text"]
    assert t.tool_results[0].name == "bash" and t.tool_results[0].output.startswith("# Title")
    # turn_duration/system, permission-mode, mode, attachment, a task-notification: all skipped
    assert report.problems == [] and report.skipped_records == 6

    turns, report = read(samples, "codex/as-schema_drift.jsonl")
    t = turns[0]
    assert t.user_text == "Translate 'hello' to Spanish"
    assert (t.tool_calls[0].name, t.tool_calls[0].input) == ("translate", {"text": "hello", "to": "es"})
    assert t.tool_results[0].output == "hola" and t.assistant_text == '"hola"'
    assert report.problems == []  # the blank last line is not a problem


def test_compaction_summaries_are_not_turns(samples: Path) -> None:
    turns, _ = read(samples, "claude-code/ah-session_with_compaction.jsonl")
    assert [t.user_text for t in turns] == ["Start working on the authentication module",
                                            "Continue with session management",
                                            "Now let's add logout functionality"]
    turns, _ = read(samples, "codex/ah-codex_with_compaction.jsonl")
    assert turns[-1].user_text == "Now add the authentication middleware"
    assert all("Progress + Plan Status" not in t.user_text for t in turns)


def test_forked_session_keeps_both_branches_in_file_order(samples: Path) -> None:
    turns, _ = read(samples, "claude-code/ah-claude_forked_session.jsonl")
    assert [t.user_text[:20] for t in turns] == ["Help me implement a ", "Let's go with QuickS",
                                                 "Actually, let's try ", "Can you add type hin"]


def test_claude_small_fixture(samples: Path) -> None:
    turns, _ = read(samples, "claude-code/as-small.jsonl")
    first = turns[0]
    # a sidechain-only start still yields a turn, but its prompt came from the main agent
    assert first.user_text == "" and first.tool_calls
    assert first.aborted and first.abort_evidence == "assistant reply aborted mid-stream"
    rejected = first.rejected_calls
    assert len(rejected) == 1 and rejected[0].output.startswith("The user doesn't want to proceed")
    # the compaction summary (line 22) is not a turn; the last user message has no answer yet
    assert all(t.user_text != "Summary of prior context." for t in turns)
    assert turns[-1].complete is False and turns[-1].line_start == 87


def test_codex_as_large_skips_environment_context(samples: Path) -> None:
    turns, _ = read(samples, "codex/as-large.jsonl")
    assert [t.user_text for t in turns] == ["Start", "Step 1", "Step 2", "Step 3", "Step 4", "Step 5"]
    result = turns[0].tool_results[0]
    assert (result.name, result.exit_code, result.is_error) == ("run_shell_command", 0, False)
    assert result.output == "line1\nline2\nline3\n"


def test_gemini_errors_exit_codes_and_cancel(samples: Path) -> None:
    turns, _ = read(samples, "gemini/ah-gemini_with_tool_error.jsonl")
    failed = turns[1].tool_results[0]
    assert failed.is_error and failed.output.startswith("Failed to edit, 0 occurrences")
    assert [r.is_error for r in turns[2].tool_results] == [False, False]
    turns, _ = read(samples, "gemini/as-large.json")
    codes = [(r.exit_code, r.is_error) for r in turns[0].tool_results]
    assert codes == [(0, False), (1, True)]
    assert turns[0].aborted and turns[0].abort_evidence == "Request cancelled."
    assert turns[0].line_start is None  # a JSON document has no line-per-record
    turns, _ = read(samples, "gemini/ah-gemini_golden.json")
    assert turns[0].session_id == "golden-gemini-001"
    assert turns[0].tool_results[0].output == '{"name": "test-project", "version": "1.0.0"}'


def test_real_claude_sessions(samples: Path) -> None:
    turns, _ = read(samples, "claude-code/ccv-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl")
    assert turns[0].user_text == "/init" and len(turns[0].tool_calls) == 12
    assert sum(1 for r in turns[0].tool_results if r.is_error) == 1
    turns, _ = read(samples, "claude-code/ccv-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")
    assert turns[0].user_text.startswith("/orchestrator @CLAUDE.md")
    assert sum(1 for r in turns[0].tool_results if r.is_error) == 3


def test_unanswered_last_message_is_incomplete(samples: Path) -> None:
    turns, _ = read(samples, "claude-code/ccl-representative_messages.jsonl")
    assert turns[-1].complete is False and turns[-1].steps == ()
    turns, _ = read(samples, "claude-code/cct-sample_session.jsonl")
    assert turns[-1].complete is True  # answered
