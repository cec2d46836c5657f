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
        return turn_key(self.format, self.session_id or self.source, self.index, self.started_at,
                        self.user_text)

    def content_hash(self, text: str | None = None) -> str:
        """Hash of ``to_json()`` (pass it when already computed: it is the costly part)."""
        return text_hash(text if text is not None else self.to_json())

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
        before, after = json_parts(self.to_dict())
        return f"{before}{self.index}{after}"

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


def turn_key(fmt: str, where: str, index: int, started_at: str | None, user_text: str) -> str:
    """``Turn.key()`` from its parts (``where``: the session id, else the source)."""
    before, after = key_parts(fmt, where, started_at, user_text)
    return text_hash(f"{before}{index}{after}")


def key_parts(fmt: str, where: str, started_at: str | None, user_text: str) -> tuple[str, str]:
    """The text a turn's key hashes, in two pieces around its index: the key is the hash of
    ``before + str(index) + after`` (for a reader that learns a turn's index only after it was
    read, as when several workers read one file in pieces). The text is exactly
    ``json.dumps([fmt, where, index, started_at or "", user_text[:500]], ensure_ascii=False)``."""
    head = json.dumps([fmt, where], ensure_ascii=False)
    tail = json.dumps([started_at or "", user_text[:500]], ensure_ascii=False)
    return head[:-1] + ", ", ", " + tail[1:]


def text_hash(text: str) -> str:
    """The content hash of a turn's stored JSON (``Turn.content_hash``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def json_parts(d: dict[str, Any]) -> tuple[str, str]:
    """A turn's stored JSON (``d``: ``Turn.to_dict()``) in two pieces around the value of its
    ``index``: the JSON is ``before + str(index) + after``.

    The text is exactly ``json.dumps(d, ensure_ascii=False, sort_keys=True)``: a sorted object is
    its keys before ``"index"``, then ``"index"``, then the keys after, so the two halves are
    dumped separately and the index is written between them. Content hashes of turns recorded by
    any earlier version depend on these bytes (tests/test_turn_dict.py compares them).
    ``check_circular=False``: the same text, without the encoder recording every container it
    enters (a tenth of the cost); a turn holds no cycles.
    """
    lo: dict[str, Any] = {}
    hi: dict[str, Any] = {}
    for k in sorted(d):
        if k < "index":
            lo[k] = d[k]
        elif k > "index":
            hi[k] = d[k]
    before = _dumps(lo)[:-1] + ', "index": ' if lo else '{"index": '
    after = ", " + _dumps(hi)[1:] if hi else "}"
    return before, after


def _dumps(d: dict[str, Any]) -> str:
    return json.dumps(d, ensure_ascii=False, sort_keys=True, default=str, check_circular=False)


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
