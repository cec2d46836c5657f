"""One session, as the next one needs it: what was asked, what changed, how it ended — no model.

Read from the observed turns of the session (what the ledger holds): the files the agent edited or
wrote, the commits, branches and pull requests it made, the test runs and their outcome, the last
real error if nothing got past it, the corrections the person made, and what the person left for
later or said was done. A transient error (a timeout, a 429) is no outcome at all: a test run it
broke neither passes nor fails.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..observe.lessons import person_text
from ..observe.redo import Cmd, acts_of, parse_cmd
from ..safety.redact import redact
from ..transcripts.model import ToolCall, ToolResult, Turn
from .words import deferral, done_saying, shorten

# (kind, tool, evidence, excerpt, step): one row of the ledger's errors table
ErrorRow = tuple[str, "str | None", str, str, "int | None"]

_PR_URL = re.compile(r"https?://\S+/pull/\d+")
_FAILED_ID = re.compile(r"^(?:FAILED|ERROR) (\S+)|^--- FAIL: (\S+)|^\s*✕ (.{3,80}?)\s*(?:\(\d+ ?ms\))?$",
                        re.MULTILINE)
_PATHISH = re.compile(r"[/\\]|::|\.(?:py|js|jsx|ts|tsx|go|rs|rb|java|kt|php|cs|ex|exs)$")


@dataclass(frozen=True)
class TurnIn:
    """One recorded turn of a session and what observing it found (the ledger's columns)."""

    turn: Turn
    errors: Sequence[ErrorRow] = ()
    corrected: bool = False


@dataclass(frozen=True)
class TestRun:
    tool: str  # "pytest", "npm test", "python -m pytest": what a later run is matched by
    command: str
    passed: bool | None  # None: a transient error broke it (no outcome)
    failing: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    turn: int = 0


@dataclass(frozen=True)
class Failure:
    key: str  # "run:npm run build", "Edit:src/app.py"
    what: str  # the command or the tool and file, for a person
    evidence: str
    turn: int = 0


@dataclass
class SessionDigest:
    tag: str
    at: str
    turns: int = 0
    asked: str | None = None
    files: list[str] = field(default_factory=list)
    commits: list[str] = field(default_factory=list)
    branches: list[str] = field(default_factory=list)
    prs: list[str] = field(default_factory=list)
    tests: list[TestRun] = field(default_factory=list)
    outcomes: dict[str, bool] = field(default_factory=dict)  # key → its last outcome was a success
    unresolved: Failure | None = None
    corrections: list[str] = field(default_factory=list)
    deferrals: list[tuple[int, str]] = field(default_factory=list)  # (turn, the person's sentence)
    done: list[tuple[int, str]] = field(default_factory=list)

    def final_tests(self) -> dict[str, TestRun]:
        """Each test tool's last run with an outcome."""
        out: dict[str, TestRun] = {}
        for run in self.tests:
            if run.passed is not None:
                out[run.tool] = run
        return out

    @property
    def has_news(self) -> bool:
        """Anything the next session would want to know (a chat with no change leaves nothing)."""
        return bool(self.files or self.commits or self.branches or self.prs or self.final_tests()
                    or self.unresolved or self.corrections or self.deferrals or self.done)


def session_tag(where: str) -> str:
    """A short stable name for a session (its id, else its transcript path)."""
    return hashlib.sha256(where.encode("utf-8", "replace")).hexdigest()[:8]


def digest(turns: Sequence[TurnIn], *, where: str, at: str, project: Path | None = None) -> SessionDigest:
    """The digest of one session's turns (in order). ``project``: file paths are shown relative to it."""
    d = SessionDigest(session_tag(where), at, turns=len(turns))
    last_real: Failure | None = None
    for t in turns:
        turn = t.turn
        said = redact(person_text(turn.user_text)).text if turn.person else ""
        if d.asked is None and said.strip():
            d.asked = shorten(said, 160)
        if t.corrected and said.strip():
            d.corrections.append(shorten(said, 120))
        if said:
            later, done = deferral(said), done_saying(said)
            if later:
                d.deferrals.append((turn.index, shorten(later, 120)))
            if done:
                d.done.append((turn.index, shorten(done, 120)))
        kinds = {step: kind for kind, _tool, _ev, _ex, step in t.errors if step is not None}
        evidence = {step: ev for _k, _tool, ev, _ex, step in t.errors if step is not None}
        for call, result, step in _calls(turn):
            kind = kinds.get(step) if step is not None else None
            failed = kind == "real" or (kind is None and result is not None and _failed(result))
            _changes(d, call, result, failed, project)
            cmds = _cmds(call)
            test = next((c for c in cmds if c.activity == "test"), None)
            if test is not None:
                d.tests.append(_test_run(test, result, None if kind == "transient" else not failed, turn.index))
                continue
            if kind == "transient" or result is None:
                continue  # a network hiccup is no outcome
            key, what = _key(call, cmds)
            d.outcomes[key] = not failed
            if failed and kind == "real":
                last_real = Failure(key, what, evidence.get(step, "an error") if step is not None else "",
                                    turn.index)
    if last_real is not None and not d.outcomes.get(last_real.key, False):
        d.unresolved = last_real
    return d


def _calls(turn: Turn) -> list[tuple[ToolCall, ToolResult | None, int | None]]:
    """Each tool call the agent made (not a sub-agent's), with its result and the result's step."""
    results: dict[str, tuple[ToolResult, int]] = {}
    for i, s in enumerate(turn.steps):
        if s.kind == "tool_result" and s.result is not None and s.result.call_id:
            results.setdefault(s.result.call_id, (s.result, i))
    out: list[tuple[ToolCall, ToolResult | None, int | None]] = []
    for s in turn.steps:
        if s.kind != "tool_call" or s.call is None or s.sidechain:
            continue
        res, step = results.get(s.call.id or "", (None, None))
        if res is not None and res.rejected:
            continue  # the person refused it: it never ran
        out.append((s.call, res, step))
    return out


def _failed(result: ToolResult) -> bool:
    return bool(result.is_error) or (result.exit_code is not None and result.exit_code != 0)


def _cmds(call: ToolCall) -> list[Cmd]:
    return [c for a in acts_of(call) if a.kind == "run" for c in [parse_cmd(a.command)] if c is not None]


def _key(call: ToolCall, cmds: list[Cmd]) -> tuple[str, str]:
    """What a later success of the same action is recognised by, and how a person reads it."""
    if cmds:
        main = cmds[-1]
        what = " ".join([main.tool] + [a for a in main.args if a not in main.tool.split()][:2])
        return f"run:{what}", f"`{what}`"
    acts = acts_of(call)
    path = next((a.path for a in acts if a.path), "")
    return f"{call.name}:{path}", f"{call.name} {path}".strip()


def _test_run(cmd: Cmd, result: ToolResult | None, passed: bool | None, turn: int) -> TestRun:
    failing: list[str] = []
    if result is not None and passed is False:
        for m in _FAILED_ID.finditer(result.output):
            name = next(g for g in m.groups() if g)
            if name not in failing:
                failing.append(name)
    paths = tuple(a for a in cmd.args if _PATHISH.search(a))
    return TestRun(cmd.tool, shorten(cmd.text, 80), passed, tuple(failing[:3]), paths, turn)


def _changes(d: SessionDigest, call: ToolCall, result: ToolResult | None, failed: bool,
             project: Path | None) -> None:
    if failed:
        return  # an edit that did not apply, a commit that failed: nothing changed
    for a in acts_of(call):
        if a.kind in ("edit", "write") and a.path:
            shown = _shown_path(a.path, project)
            if shown not in d.files:
                d.files.append(shown)
    for cmd in _cmds(call):
        words = list(cmd.words)
        if cmd.activity == "commit":
            msg = _option(words, ("-m", "--message", "-am"))
            d.commits.append(shorten(msg.splitlines()[0], 80) if msg else "a commit")
        elif cmd.activity == "branch":
            name = next((w for w in reversed(words[2:]) if not w.startswith("-")), "")
            if name and name not in d.branches:
                d.branches.append(name)
        elif cmd.prog == "gh" and cmd.sub == "pr" and "create" in words:
            url = _PR_URL.search(result.output) if result is not None else None
            title = _option(words, ("--title", "-t"))
            d.prs.append(url.group(0) if url else f"“{shorten(title, 80)}”" if title else "a pull request")


def _option(words: list[str], names: tuple[str, ...]) -> str:
    for i, w in enumerate(words):
        if w in names and i + 1 < len(words):
            return words[i + 1]
        for n in names:
            if n.startswith("--") and w.startswith(n + "="):
                return w.split("=", 1)[1]
    return ""


def _shown_path(path: str, project: Path | None) -> str:
    p = Path(path)
    if project is not None and p.is_absolute():
        try:
            return str(p.relative_to(project))
        except ValueError:
            pass
    parts = p.parts
    return str(Path(*parts[-3:])) if p.is_absolute() and len(parts) > 4 else path

