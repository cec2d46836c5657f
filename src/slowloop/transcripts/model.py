"""The one normalized shape every transcript format is turned into.

A *turn* is one user message and everything the agent did until it handed control back: its text,
its tool calls and their results, in order. Adapters (one module per format) produce ``Turn``s;
``slowloop.observe`` reads them and never looks at a raw format.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

StepKind = Literal["text", "tool_call", "tool_result"]


@dataclass(frozen=True)
class ToolCall:
    id: str | None
    name: str
    input: Any = None  # parsed arguments (dict) when they were JSON, else the raw string


@dataclass(frozen=True)
class ToolResult:
    call_id: str | None
    name: str | None  # the tool's name, resolved from the matching call when possible
    output: str
    is_error: bool | None = None  # the format's own flag (Anthropic is_error, Codex status…)
    exit_code: int | None = None  # when the format records one (Codex exec, Gemini shell…)
    rejected: bool = False  # the user refused this tool use


@dataclass(frozen=True)
class Step:
    """One thing that happened in the turn, in order (what the reflection bundle renders)."""

    kind: StepKind
    text: str = ""
    call: ToolCall | None = None
    result: ToolResult | None = None
    at: str | None = None
    # True for work a sub-agent did inside this turn (Claude Code ``isSidechain`` records): its tool
    # calls and errors are part of the turn, but its text is not the answer the user read.
    sidechain: bool = False


def _step_dict(s: Step) -> dict[str, Any]:
    # A frozen dataclass's __dict__ holds exactly its fields (tests/test_turn_dict.py checks it):
    # copying it costs a fraction of reading the fields one by one.
    d = s.__dict__.copy()
    if s.call is not None:
        d["call"] = {"id": s.call.id, "name": s.call.name, "input": s.call.input}
    if s.result is not None:
        d["result"] = s.result.__dict__.copy()
    return d


@dataclass(frozen=True)
class Turn:
    source: str  # file path, or "<memory>" for message lists handed over by a library caller
    format: str  # openai | anthropic | claude-code | codex | gemini
    index: int  # 0-based position of the turn in its source
    user_text: str
    steps: tuple[Step, ...] = ()
    session_id: str | None = None
    started_at: str | None = None  # ISO 8601 UTC when the format records it
    ended_at: str | None = None
    aborted: bool = False  # the user interrupted this turn
    abort_evidence: str | None = None
    skills_read: tuple[str, ...] = ()  # skill names the agent loaded in this turn
    line_start: int | None = None  # 1-based line numbers in the source, when line-oriented
    line_end: int | None = None
    complete: bool = True  # False when the source ends mid-turn (a session still being written)
    # Byte offsets in the source: [byte_start, byte_end) spans the turn's lines. Resuming a growing
    # file from the first incomplete turn = iter_turns(path, start_offset=turn.byte_start,
    # start_line=turn.line_start, start_index=turn.index).
    byte_start: int | None = None
    byte_end: int | None = None
    # ``user_text`` is what the person typed. False when someone else reported it (an agent over
    # MCP says what "the user" said): kept for recall, never read as the person's correction.
    person: bool = True

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        return tuple(s.call for s in self.steps if s.kind == "tool_call" and s.call is not None)

    @property
    def tool_results(self) -> tuple[ToolResult, ...]:
        return tuple(s.result for s in self.steps if s.kind == "tool_result" and s.result is not None)

    @property
    def assistant_text(self) -> str:
        return "\n".join(s.text for s in self.steps
                         if s.kind == "text" and s.text and not s.sidechain)

    @property
    def rejected_calls(self) -> tuple[ToolResult, ...]:
        return tuple(r for r in self.tool_results if r.rejected)

    def key(self) -> str:
        """A stable identity: the same turn read twice (or from a grown file) has the same key."""
        basis = json.dumps([self.format, self.session_id or self.source, self.index,
                            self.started_at or "", self.user_text[:500]], ensure_ascii=False)
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:24]

    def content_hash(self, text: str | None = None) -> str:
        """Hash of ``to_json()`` (pass it when already computed: it is the costly part)."""
        return hashlib.sha256((text if text is not None else self.to_json()).encode("utf-8")).hexdigest()[:24]

    def to_dict(self) -> dict[str, Any]:
        # Hand-rolled instead of dataclasses.asdict: asdict deep-copies every tool input, which
        # made serialising a turn cost more than observing it. Tool inputs are JSON values already
        # and are shared, not copied (the dict is only ever serialised).
        d = self.__dict__.copy()  # the fields (see _step_dict)
        d["steps"] = [_step_dict(s) for s in self.steps]
        d["skills_read"] = list(self.skills_read)
        if self.person:
            del d["person"]  # the usual case leaves the stored form (and its hash) as it was
        return d

    def to_json(self) -> str:
        # check_circular=False: the same text, without the encoder recording every container it
        # enters (a tenth of the cost); a turn holds no cycles (a tool input that referred to
        # itself would now raise RecursionError instead of ValueError)
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True, default=str,
                          check_circular=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Turn:
        steps = []
        for s in d.get("steps", ()):
            call = ToolCall(**s["call"]) if s.get("call") else None
            result = ToolResult(**s["result"]) if s.get("result") else None
            steps.append(Step(kind=s["kind"], text=s.get("text", ""), call=call, result=result,
                              at=s.get("at"), sidechain=bool(s.get("sidechain", False))))
        fields = {k: v for k, v in d.items() if k != "steps"}
        fields["skills_read"] = tuple(fields.get("skills_read") or ())
        return cls(steps=tuple(steps), **fields)


@dataclass(frozen=True)
class ParseProblem:
    """A line that could not be used; reported with file and line, then skipped."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class ParseReport:
    problems: list[ParseProblem] = field(default_factory=list)
    skipped_records: int = 0  # unknown record types, silently skipped but counted
    lines: int = 0
    bytes: int = 0
