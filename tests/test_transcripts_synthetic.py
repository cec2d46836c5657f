"""Adapters on transcripts written into tmp_path: the shapes the samples do not cover, resuming a
growing file, non-transcripts, and streaming in constant memory."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from slowloop.errors import DataError, UserError
from slowloop.transcripts import ParseReport, detect_format, iter_turns, turns_from_messages

OPENAI = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "What is in /tmp?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "list_dir", "arguments": "{\"path\": \"/tmp\"}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "a.txt\nb.txt"},
    {"role": "assistant", "content": "Two files: a.txt and b.txt."},
    {"role": "user", "content": [{"type": "text", "text": "Thanks"}]},
    {"role": "assistant", "content": "You're welcome."},
]

ANTHROPIC = [
    {"role": "user", "content": "Run the tests"},
    {"role": "assistant", "content": [
        {"type": "text", "text": "Running them."},
        {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "pytest"}}]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
         "content": [{"type": "text", "text": "Exit code 1\n1 failed"}]}]},
    {"role": "assistant", "content": [{"type": "text", "text": "One test fails."}]},
]


def write_jsonl(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def cc(kind: str, content: Any, **extra: Any) -> dict[str, Any]:
    """A Claude Code record."""
    role = "assistant" if kind == "assistant" else "user"
    return {"type": kind, "sessionId": "s1", "uuid": f"u{id(content)}",
            "timestamp": "2025-01-01T00:00:00Z", "message": {"role": role, "content": content},
            **extra}


def tool_use(call_id: str, name: str, inp: dict[str, Any]) -> dict[str, Any]:
    return cc("assistant", [{"type": "tool_use", "id": call_id, "name": name, "input": inp}])


def tool_result(call_id: str, text: str, is_error: bool = False) -> dict[str, Any]:
    return cc("user", [{"type": "tool_result", "tool_use_id": call_id, "content": text,
                        "is_error": is_error}])


def test_openai_tool_calls_in_every_layout(tmp_path: Path) -> None:
    files = [tmp_path / "a.json", tmp_path / "b.json", write_jsonl(tmp_path / "c.jsonl", OPENAI)]
    files[0].write_text(json.dumps(OPENAI, indent=2))
    files[1].write_text(json.dumps({"model": "gpt-x", "messages": OPENAI}))
    for path in files:
        assert detect_format(path) == "openai"
        turns = list(iter_turns(path))
        assert [t.user_text for t in turns] == ["What is in /tmp?", "Thanks"]
        call, result = turns[0].tool_calls[0], turns[0].tool_results[0]
        assert (call.id, call.name, call.input) == ("call_1", "list_dir", {"path": "/tmp"})
        assert (result.name, result.output, result.is_error) == ("list_dir", "a.txt\nb.txt", None)
        assert [s.kind for s in turns[0].steps] == ["tool_call", "tool_result", "text"]
        assert turns[0].assistant_text == "Two files: a.txt and b.txt." and turns[1].complete
    from_memory = turns_from_messages(OPENAI)
    assert [t.to_dict() for t in from_memory] == [
        {**t.to_dict(), "source": "<memory>", "line_start": None, "line_end": None,
         "byte_start": None, "byte_end": None}
        for t in iter_turns(files[0])]


def test_anthropic_tool_result_is_error(tmp_path: Path) -> None:
    path = tmp_path / "conv.json"
    path.write_text(json.dumps({"system": "be brief", "messages": ANTHROPIC}))
    assert detect_format(path) == "anthropic"
    (turn,) = iter_turns(path)
    result = turn.tool_results[0]
    assert (result.name, result.is_error, result.exit_code) == ("bash", True, 1)
    assert result.output == "Exit code 1\n1 failed"
    (mem,) = turns_from_messages(ANTHROPIC)
    assert mem.format == "anthropic" and mem.tool_results[0].is_error is True
    with pytest.raises(DataError, match="message 1"):
        turns_from_messages([{"role": "user", "content": "hi"}, {"content": "no role"}],
                            format="anthropic")


def test_truncated_last_line_is_reported_and_the_turn_left_open(tmp_path: Path) -> None:
    records = [cc("user", "Fix the bug"), tool_use("t1", "Read", {"file_path": "a.py"}),
               tool_result("t1", "x = 1"), cc("assistant", [{"type": "text", "text": "Fixed."}]),
               cc("user", "Now add a test"), tool_use("t2", "Write", {"file_path": "t.py"})]
    text = "".join(json.dumps(r) + "\n" for r in records)
    path = tmp_path / "s.jsonl"
    path.write_text(text + json.dumps(tool_result("t2", "ok"))[:40])  # cut mid-write
    report = ParseReport()
    turns = list(iter_turns(path, report=report))
    assert [(p.line, p.message.split(":")[0]) for p in report.problems] == [
        (7, "truncated last line (the file may still be being written)")]
    assert turns[0].complete and not turns[1].complete
    assert turns[1].tool_calls[0].name == "Write" and turns[1].tool_results == ()


def test_resume_a_growing_file_from_the_first_incomplete_turn(tmp_path: Path) -> None:
    head = [cc("user", "one"), cc("assistant", [{"type": "text", "text": "1"}]),
            cc("user", "two"), tool_use("t1", "Bash", {"command": "ls"})]
    tail = [tool_result("t1", "a"), cc("assistant", [{"type": "text", "text": "2"}]),
            cc("user", "three"), cc("assistant", [{"type": "text", "text": "3"}])]
    path = write_jsonl(tmp_path / "grow.jsonl", head)
    first = list(iter_turns(path))
    pending = next(t for t in first if not t.complete)
    assert pending.user_text == "two" and pending.byte_start == len(
        "".join(json.dumps(r) + "\n" for r in head[:2]).encode())
    with path.open("a") as f:
        f.write("".join(json.dumps(r) + "\n" for r in tail))
    resumed = list(iter_turns(path, start_offset=pending.byte_start,
                              start_line=pending.line_start, start_index=pending.index))
    full = list(iter_turns(path))
    assert [t.to_dict() for t in resumed] == [t.to_dict() for t in full[1:]]
    assert [t.user_text for t in resumed] == ["two", "three"] and all(t.complete for t in resumed)
    assert resumed[0].key() == full[1].key()


def test_claude_interrupts_rejections_and_injected_records(tmp_path: Path) -> None:
    records = [
        cc("user", "<command-message>init is analyzing</command-message>\n"
                   "<command-name>/init</command-name>"),
        cc("user", [{"type": "text", "text": "Analyze this codebase…"}], isMeta=True),
        tool_use("t1", "Bash", {"command": "rm -rf build"}),
        tool_result("t1", "The user doesn't want to proceed with this tool use. The tool use was "
                          "rejected. To tell you how to proceed, the user said:\nkeep build/",
                    is_error=True),
        tool_use("t2", "Bash", {"command": "make"}),
        tool_result("t2", "[Request interrupted by user for tool use]", is_error=True),
        cc("user", [{"type": "text", "text": "[Request interrupted by user for tool use]"}]),
        cc("user", "<command-name>/model</command-name>"),
        cc("user", "<local-command-stdout>Set model to opus</local-command-stdout>"),
        cc("user", "<system-reminder>todo list changed</system-reminder>"),
        cc("user", "This session is being continued from a previous conversation…",
           isCompactSummary=True),
        cc("user", "please continue"),
        cc("assistant", [{"type": "text", "text": "Continuing."}]),
        {"type": "brand-new-record-kind", "sessionId": "s1"},
    ]
    report = ParseReport()
    turns = list(iter_turns(write_jsonl(tmp_path / "s.jsonl", records), report=report))
    assert [t.user_text for t in turns] == ["/init", "please continue"]  # /model: local, no turn
    first = turns[0]
    assert first.aborted and first.abort_evidence == "[Request interrupted by user for tool use]"
    assert [r.rejected for r in first.tool_results] == [True, True]
    assert first.tool_results[0].output.endswith("the user said:\nkeep build/")
    assert not turns[1].aborted and turns[1].complete
    assert report.problems == [] and report.skipped_records >= 5


def test_skills_read(tmp_path: Path) -> None:
    records = [
        cc("user", "make the weekly report"),
        tool_use("t1", "Skill", {"skill": "weekly-report"}),
        tool_use("t2", "Read", {"file_path": "/home/me/.claude/skills/pdf-export/SKILL.md"}),
        tool_use("t3", "Bash", {"command": "cat ~/.claude/skills/charts/SKILL.md | head"}),
        tool_use("t4", "Bash", {"command": "echo x > ~/.claude/skills/draft/SKILL.md"}),
        tool_use("t5", "Read", {"file_path": "/repo/docs/SKILL.md"}),  # not in a skills folder
    ]
    (turn,) = iter_turns(write_jsonl(tmp_path / "s.jsonl", records))
    assert turn.skills_read == ("weekly-report", "pdf-export", "charts")

    codex = [
        {"type": "session_meta", "payload": {"id": "c1"}},
        {"type": "response_item", "payload": {"type": "message", "role": "user",
                                              "content": [{"type": "input_text", "text": "go"}]}},
        {"type": "response_item", "payload": {
            "type": "function_call", "name": "shell", "call_id": "c_1",
            "arguments": json.dumps({"command": ["bash", "-lc",
                                                 "sed -n 1,80p /x/.codex/skills/deploy/SKILL.md"]})}},
    ]
    (turn,) = iter_turns(write_jsonl(tmp_path / "c.jsonl", codex))
    assert turn.skills_read == ("deploy",)


def _codex(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2025-01-01T00:00:00Z", "type": kind, "payload": payload}


def test_codex_exit_codes_rejections_and_dedup(tmp_path: Path) -> None:
    def user_item(text: str) -> dict[str, Any]:
        return _codex("response_item", {"type": "message", "role": "user",
                                        "content": [{"type": "input_text", "text": text}]})

    records = [
        _codex("session_meta", {"id": "sess-9"}),
        user_item("<environment_context><cwd>/r</cwd></environment_context>"),
        user_item("run the build"),  # item first, then its event copy
        _codex("event_msg", {"type": "user_message", "message": "run the build"}),
        _codex("response_item", {"type": "function_call", "name": "shell", "call_id": "a",
                                 "arguments": "{\"command\": [\"make\"]}"}),
        _codex("response_item", {"type": "function_call_output", "call_id": "a",
                                 "output": json.dumps({"output": "make: *** Error 2",
                                                       "metadata": {"exit_code": 2}})}),
        _codex("response_item", {"type": "function_call", "name": "shell", "call_id": "b",
                                 "arguments": "{\"command\": [\"make\", \"clean\"]}"}),
        _codex("event_msg", {"type": "exec_command_end", "call_id": "b", "exit_code": 0}),
        _codex("response_item", {"type": "function_call_output", "call_id": "b",
                                 "output": "cleaned"}),
        _codex("response_item", {"type": "function_call", "name": "shell", "call_id": "c",
                                 "arguments": "{\"command\": [\"rm\", \"-rf\", \"/\"]}"}),
        _codex("response_item", {"type": "function_call_output", "call_id": "c",
                                 "output": "exec command rejected by user"}),
        _codex("response_item", {"type": "message", "role": "assistant",
                                 "content": [{"type": "output_text", "text": "Build fixed."}]}),
        _codex("event_msg", {"type": "task_complete"}),
        _codex("event_msg", {"type": "user_message", "message": "thanks"}),  # event first
        user_item("thanks"),
        {"totally": "unknown"},
    ]
    report = ParseReport()
    turns = list(iter_turns(write_jsonl(tmp_path / "r.jsonl", records), report=report))
    assert [t.user_text for t in turns] == ["run the build", "thanks"]
    a, b, c = turns[0].tool_results
    assert (a.exit_code, a.is_error, a.output) == (2, True, "make: *** Error 2")
    assert (b.exit_code, b.is_error) == (0, False)
    assert c.rejected and c.name == "shell"
    assert turns[0].session_id == "sess-9" and turns[0].complete
    assert turns[1].complete is False  # no answer yet
    assert [p.line for p in report.problems] == [16]


@pytest.mark.parametrize("content,why", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    (b"name,age\nada,36\n", "does not start with JSON"),
    (b'{"name": "ada", "age": 36}\n{"name": "bob"}\n', "no chat message"),
    (b'{"config": {"a": 1}}', "no chat message"),
])
def test_non_transcripts_are_refused_by_name(tmp_path: Path, content: bytes, why: str) -> None:
    path = tmp_path / "thing.dat"
    path.write_bytes(content)
    with pytest.raises(DataError) as err:
        list(iter_turns(path))
    text = str(err.value)
    assert str(path) in text and why in text and "Claude Code" in text and "Codex" in text


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such transcript"):
        list(iter_turns(tmp_path / "missing.jsonl"))
    path = write_jsonl(tmp_path / "c.jsonl", OPENAI)
    with pytest.raises(UserError, match="unknown transcript format"):
        list(iter_turns(path, format="msn"))
    # an explicit format wins over detection
    assert [t.format for t in iter_turns(path, format="anthropic")] == ["anthropic"] * 2
    (tmp_path / "empty.jsonl").write_text("")
    assert list(iter_turns(tmp_path / "empty.jsonl")) == []


def test_a_big_transcript_streams_in_constant_memory(tmp_path: Path, samples: Path) -> None:
    # ~50 MB: a real session repeated, then its golden turn repeated with 64 KB tool outputs (few
    # records per MB keeps tracemalloc's per-allocation overhead inside the time budget).
    sample = (samples / "claude-code/ccv-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl").read_bytes()
    golden = (samples / "claude-code/ah-claude_golden.jsonl").read_text().splitlines()
    padded = []
    for raw in golden:
        rec = json.loads(raw)
        for block in rec["message"]["content"]:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                block["content"] = "x" * 65536
        padded.append(json.dumps(rec))
    turn_bytes = ("\n".join(padded) + "\n").encode()
    big = tmp_path / "big.jsonl"
    real, fat = 6, (50 * 1024 * 1024 - 6 * len(sample)) // len(turn_bytes) + 1
    with big.open("wb") as f:
        for _ in range(real):
            f.write(sample)
        for _ in range(fat):
            f.write(turn_bytes)
    assert big.stat().st_size >= 50 * 1024 * 1024
    report = ParseReport()
    tracemalloc.start()  # the time it takes is measured by bench/hot_paths.py
    try:
        count = errors = outputs = 0
        for turn in iter_turns(big, report=report):
            count += 1
            errors += sum(1 for r in turn.tool_results if r.is_error)
            outputs += sum(len(r.output) for r in turn.tool_results)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 2 * real + fat and errors == 23 * real
    assert outputs > 2 * 65536 * fat  # the big outputs were read, not dropped
    assert report.bytes == big.stat().st_size and report.problems == []
    assert peak < 30 * 1024 * 1024, f"peak traced memory {peak / 1e6:.1f} MB"


def test_a_nul_filled_half_written_line_does_not_make_the_session_binary(tmp_path):
    # A crash can leave NUL bytes where a line was being written; the rest of the session must
    # still be read, and the bad line reported.
    from slowloop.transcripts import iter_turns
    from slowloop.transcripts.model import ParseReport

    src = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples" / "claude-code-webshop-pnpm.jsonl"
    lines = src.read_text().splitlines(keepends=True)
    f = tmp_path / "s.jsonl"
    f.write_bytes("".join(lines[:3]).encode() + b"\x00" * 64 + b"\n" + "".join(lines[3:]).encode())
    report = ParseReport()
    turns = list(iter_turns(f, report=report))
    assert len(turns) == 3
    assert [p.line for p in report.problems] == [4]
