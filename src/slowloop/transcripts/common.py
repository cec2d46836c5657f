"""What every adapter shares: the turn being built, skill-read detection, text helpers.

Adapters read one record at a time and drive a ``TurnBuilder``: ``start`` a turn on real user
text, ``text``/``call``/``result`` for what the agent did, ``finish`` at the end of the source.
Only the open turn is held in memory, so a transcript of any size streams.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from .model import ParseProblem, ParseReport, Step, ToolCall, ToolResult, Turn

# Tools whose input names a file they read, and the keys that hold the path.
_PATH_KEYS = ("file_path", "path", "filePath", "absolute_path", "file", "filename")
_SHELL_KEYS = ("command", "cmd", "script")
_READERS = ("cat", "head", "tail", "less", "more", "sed", "bat", "nl", "view", "type",
            "Get-Content", "awk", "rg", "grep")


def skill_from_path(path: str) -> str | None:
    """``…/skills/<name>/SKILL.md`` → ``<name>``."""
    if not path.endswith("SKILL.md"):
        return None
    parts = path.replace("\\", "/").split("/")
    if len(parts) >= 3 and parts[-1] == "SKILL.md" and parts[-3] == "skills" and parts[-2]:
        return parts[-2]
    return None


def skills_in_command(command: str) -> list[str]:
    """Skill names whose SKILL.md a shell command reads (``cat ~/.claude/skills/x/SKILL.md``)."""
    if "SKILL.md" not in command:  # the cheap check that keeps this off the hot path
        return []
    words = command.replace(";", " ").replace("&&", " ").replace("|", " ").split()
    if not any(w.rsplit("/", 1)[-1] in _READERS for w in words):
        return []
    found = []
    for i, word in enumerate(words):
        if "SKILL.md" not in word:
            continue
        if i > 0 and words[i - 1] in (">", ">>", "tee"):  # writing the skill, not reading it
            continue
        name = skill_from_path(word.strip("'\"`()"))
        if name and name not in found:
            found.append(name)
    return found


def skills_in_call(name: str, args: Any) -> list[str]:
    """Skills a tool call loads: the ``Skill`` tool, a file read, or a shell read of SKILL.md."""
    if not isinstance(args, dict):
        if isinstance(args, str) and "SKILL.md" in args:
            return skills_in_command(args)
        return []
    if name == "Skill":
        skill = args.get("skill") or args.get("command") or args.get("name")
        return [skill.strip().lstrip("/")] if isinstance(skill, str) and skill.strip() else []
    for key in _PATH_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value.endswith("SKILL.md"):
            skill = skill_from_path(value)
            return [skill] if skill else []
    for key in _SHELL_KEYS:
        value = args.get(key)
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        if isinstance(value, str) and "SKILL.md" in value:
            return skills_in_command(value)
    return []


def parse_args(raw: Any) -> Any:
    """Tool arguments: parsed when they are a JSON object in a string, else as given."""
    if isinstance(raw, str) and raw[:1] == "{":
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):  # junk, or nested too deep: kept as the raw text
            return raw
    return raw


def block_text(content: Any) -> str:
    """Text of a message or tool-result content: a string, or a list of text blocks/parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        out = []
        for b in content:
            if isinstance(b, str):
                out.append(b)
            elif isinstance(b, dict):
                t = b.get("text")
                if isinstance(t, str):
                    out.append(t)
        return "\n".join(out)
    if isinstance(content, dict):
        t = content.get("text")
        if isinstance(t, str):
            return t
        return json.dumps(content, ensure_ascii=False)
    return str(content)


@dataclass
class Draft:
    """The open turn: mutable while records arrive, frozen into a ``Turn`` when it ends."""

    user_text: str
    line_start: int | None
    byte_start: int | None
    started_at: str | None
    session_id: str | None
    steps: list[Step] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # call id → tool name
    last_call: str | None = None
    skills: list[str] = field(default_factory=list)
    aborted: bool = False
    abort_evidence: str | None = None
    line_end: int | None = None
    byte_end: int | None = None
    ended_at: str | None = None
    done: bool | None = None  # the format said the agent finished (Codex task_complete…)
    origin: str = ""  # adapter-private: where the user text came from
    local_command: bool = False  # a slash command answered locally (no agent run)


class TurnBuilder:
    def __init__(self, source: str, fmt: str, *, start_index: int = 0,
                 report: ParseReport | None = None) -> None:
        self.source = source
        self.format = fmt
        self.index = start_index
        self.report = report if report is not None else ParseReport()
        self.draft: Draft | None = None
        self.session_id: str | None = None
        # False when nobody typed this source's prompts: a sub-agent's transcript, where every
        # "user" message is the main agent talking (its words never count as a person's correction)
        self.person = True

    # --- reporting --------------------------------------------------------------------------
    def problem(self, line: int | None, message: str) -> None:
        self.report.problems.append(ParseProblem(self.source, line or 0, message))

    def skip(self) -> None:
        self.report.skipped_records += 1

    # --- building ---------------------------------------------------------------------------
    def start(self, user_text: str, *, line: int | None = None, byte_start: int | None = None,
              at: str | None = None, origin: str = "", session_id: str | None = None
              ) -> Turn | None:
        """Open a new turn; returns the previous one, now ended (control came back to the user)."""
        ended = self.end(followed=True)
        self.draft = Draft(user_text=user_text, line_start=line, byte_start=byte_start,
                           started_at=at, session_id=session_id or self.session_id, origin=origin)
        return ended

    def touch(self, line: int | None, byte_end: int | None, at: str | None = None) -> None:
        d = self.draft
        if d is not None:
            if line is not None:
                d.line_end = line
            if byte_end is not None:
                d.byte_end = byte_end
            if at:
                d.ended_at = at

    def text(self, text: str, *, at: str | None = None, sidechain: bool = False) -> None:
        if self.draft is not None and text:
            self.draft.steps.append(Step("text", text=text, at=at, sidechain=sidechain))

    def call(self, call_id: str | None, name: str, args: Any, *, at: str | None = None,
             sidechain: bool = False) -> None:
        d = self.draft
        if d is None:
            return
        d.steps.append(Step("tool_call", call=ToolCall(call_id, name, args), at=at,
                            sidechain=sidechain))
        if call_id:
            d.names[call_id] = name
        d.last_call = name
        for skill in skills_in_call(name, args):
            if skill not in d.skills:
                d.skills.append(skill)

    def result(self, call_id: str | None, output: str, *, name: str | None = None,
               is_error: bool | None = None, exit_code: int | None = None,
               rejected: bool = False, at: str | None = None, sidechain: bool = False) -> None:
        d = self.draft
        if d is None:
            return
        if name is None:
            name = d.names.get(call_id) if call_id else None
            if name is None:
                name = d.last_call  # results without ids follow their call
        d.steps.append(Step("tool_result", result=ToolResult(call_id, name, output, is_error,
                                                             exit_code, rejected),
                            at=at, sidechain=sidechain))

    def abort(self, evidence: str) -> None:
        if self.draft is not None and not self.draft.aborted:
            self.draft.aborted = True
            self.draft.abort_evidence = evidence

    def end(self, *, followed: bool) -> Turn | None:
        """Freeze the open turn. ``followed``: the user spoke again, so the agent had finished."""
        d, self.draft = self.draft, None
        if d is None:
            return None
        if d.local_command and not d.steps:
            self.skip()  # /clear, /model…: answered by the CLI itself, no agent turn
            return None
        if followed or d.aborted or d.done:
            complete = True
        elif d.done is False:
            complete = False
        else:  # no end marker: finished when the last thing the agent did was answer in text
            last = next((s for s in reversed(d.steps) if not s.sidechain), None)
            complete = last is not None and last.kind == "text"
        turn = Turn(source=self.source, format=self.format, index=self.index,
                    user_text=d.user_text, steps=tuple(d.steps),
                    session_id=d.session_id or self.session_id, started_at=d.started_at,
                    ended_at=d.ended_at, aborted=d.aborted, abort_evidence=d.abort_evidence,
                    skills_read=tuple(d.skills), line_start=d.line_start,
                    line_end=d.line_end if d.line_end is not None else d.line_start,
                    complete=complete, byte_start=d.byte_start,
                    byte_end=d.byte_end if d.byte_end is not None else d.byte_start,
                    person=self.person)
        self.index += 1
        return turn


def patch_results(steps: list[Step], updates: dict[str, dict[str, Any]]) -> None:
    """Fill result fields the format records elsewhere (Codex exec_command_end exit codes)."""
    for i, step in enumerate(steps):
        r = step.result
        if r is None or r.call_id is None or r.call_id not in updates:
            continue
        fields = {k: v for k, v in updates[r.call_id].items() if getattr(r, k) in (None, False)}
        if fields:
            steps[i] = replace(step, result=replace(r, **fields))
