"""The reflection bundle: what a model reads about an agent's recent experience (SPEC §1.4).

At most ``bundle.conversations`` recent conversations with something new, plus system events
(fired signals, real and transient errors, aborted turns, rejected tool uses, user edits, skill
metrics), in time order, under ``bundle.token_budget`` estimated locally and conservatively.

Order of work, and why:

1. **redact** every piece of user-derived text first — before any cut, so a secret is never split
   by a cut into halves the redactor no longer recognizes, and so markers count in the budget;
2. cut long tool inputs/outputs to ``bundle.tool_output_chars`` with ``[… N chars cut …]``;
3. fit the budget by degrading turns one level at a time (full → compact → minimal → dropped),
   lowest value first: context turns, then turns below the threshold (lowest score, oldest first),
   then reflect-worthy ones. A corrected turn and the answer it corrects are never dropped: at
   worst the user's words and that answer remain. A last-resort cut of the whole text guarantees
   the budget.

The text is Markdown a person can read, and the same inputs give the same bytes.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Literal

from .. import clock
from ..config import Config
from ..errors import UserError
from ..observe.redo import shell_text
from ..safety.redact import redact
from ..skills.metrics import skill_metrics
from ..store import Store, ledger
from ..tokens import estimate_tokens, truncate_to_tokens
from ..transcripts.model import Turn
from .scheduler import Pending, pending

Level = Literal["full", "compact", "minimal", "dropped"]
_LEVELS: tuple[Level, ...] = ("full", "compact", "minimal", "dropped")

MAX_EDITS = 20  # most recent user edits shown; older ones are counted in the header
MAX_METRIC_ROWS = 40
USER_CHARS = {"full": None, "compact": 1500, "minimal": 400}
ANSWER_CHARS = {"compact": 1000, "minimal": 600}
EXCERPT_CHARS = 300
MAX_ERROR_LINES = 8  # distinct errors listed per turn; the rest are counted
# A turn never renders in fewer tokens than this (header, signal line, a few words), so more turns
# than budget/MIN_TURN_TOKENS can never fit: they are left out before rendering anything.
MIN_TURN_TOKENS = 30
MIN_BUDGET = 1000


@dataclass(frozen=True)
class Bundle:
    text: str
    tokens: int
    turn_ids: list[int]  # turns whose content appears in the text (context turns included)
    watermark: int  # highest turn id this bundle covers: the next dirty-gate watermark
    events: int  # system events shown: signals, errors, aborts, rejections, edits, metrics table
    redactions: int  # secrets replaced in what the text shows
    truncated: bool  # something was compressed, dropped or left out to fit the limits
    conversations: int = 0
    left_out_turns: int = 0  # new turns not shown (conversation cap, turn cap or budget)

    def to_dict(self) -> dict:
        return asdict(self)


# -- redaction --------------------------------------------------------------------------------

@dataclass
class _Redactor:
    count: int = 0

    def __call__(self, text: str | None) -> str:
        if not text:
            return ""
        res = redact(text)
        self.count += res.count
        return res.text

    def output(self, text: str | None, command: str) -> str:
        """A tool's output redacted with the command that printed it in front (`$ op read …` then
        the bare value: a secret only its command gives away), the command line itself dropped."""
        if not text or not command.strip():
            return self(text)
        head = "$ " + " ".join(command.split()) + "\n"
        res, alone = redact(head + text), redact(head)
        self.count += res.count - alone.count
        return res.text.split("\n", 1)[1] if "\n" in res.text else self(text)


# -- text helpers -----------------------------------------------------------------------------

def cut_middle(text: str, limit: int) -> str:
    """Keep the head and the tail (errors tend to be at the end) with a visible marker."""
    if limit <= 0 or len(text) <= limit:
        return text
    head = limit * 2 // 3
    tail = limit - head
    cut = len(text) - head - tail
    return f"{text[:head]}\n[… {cut} chars cut …]\n{text[len(text) - tail:]}" if tail else \
        f"{text[:head]}\n[… {cut} chars cut …]"


def cut_head(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return f"{text[:limit]} [… {len(text) - limit} chars cut …]"


_BACKTICKS = re.compile(r"`+")


def _fenced(text: str) -> str:
    """A code block whose fence is longer than any backtick run inside (output stays verbatim)."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"


def _quote(text: str) -> str:
    """Quote people's and the agent's words: their own Markdown headings stay inside the quote
    instead of breaking the bundle's structure."""
    return "\n".join("> " + line if line else ">" for line in text.splitlines() or [""])


def _one_line(text: str, limit: int) -> str:
    return cut_head(" ".join(text.split()), limit)


# -- working items ----------------------------------------------------------------------------

@dataclass
class _Item:
    id: int
    conv: str
    source: str
    format: str
    session_id: str | None
    idx: int
    at: float
    at_iso: str
    score: float
    reflect: bool
    corrected: bool
    aborted: bool
    abort_evidence: str
    pending: bool  # False: an older turn shown only as the answer a new correction corrects
    corrects_next: bool = False  # the following turn corrects this turn's answer
    corrects: int | None = None  # for a corrected turn: the id of the turn whose answer it corrects
    protected: bool = False
    user: str = ""
    person: bool = True  # False: an agent reported what "the user" said (MCP); not the person's words
    answer: str = ""  # the last assistant text of the turn
    steps: list[str] = field(default_factory=list)  # rendered full-level steps
    tools: dict[str, int] = field(default_factory=dict)
    rejected: list[str] = field(default_factory=list)
    signals: list[tuple[str, float, str]] = field(default_factory=list)
    errors: list[tuple[str, str | None, str, str]] = field(default_factory=list)
    redactions: int = 0
    level: Level = "full"
    _cache: dict = field(default_factory=dict)

    @property
    def events(self) -> int:
        return len(self.signals) + len(self.errors) + int(self.aborted) + len(self.rejected)

    def text(self, level: Level | None = None) -> str:
        level = level or self.level
        if level == "dropped":
            return ""
        if level not in self._cache:
            self._cache[level] = _render_turn(self, level)
        return self._cache[level]

    def tokens(self, level: Level | None = None) -> int:
        level = level or self.level
        if level == "dropped":
            return 0
        key = ("tokens", level)
        if key not in self._cache:
            self._cache[key] = estimate_tokens(self.text(level)) + 1  # +1: the joining newlines
        return self._cache[key]


def _load_item(row, *, pending_turn: bool, conv: str, cfg_chars: int, red: _Redactor,
               signals: Sequence[ledger.Row], errors: Sequence[ledger.Row]) -> _Item:
    before = red.count
    turn = Turn.from_dict(json.loads(row["data"]))
    at = clock.parse_iso(row["started_at"]) or clock.parse_iso(row["recorded_at"]) or 0.0
    item = _Item(id=int(row["id"]), conv=conv, source=row["source"], format=row["format"],
                 session_id=row["session_id"], idx=int(row["idx"]), at=at,
                 at_iso=row["started_at"] or row["recorded_at"] or "", score=float(row["score"]),
                 reflect=bool(row["reflect"]), corrected=bool(row["corrected"]),
                 aborted=bool(row["aborted"]), abort_evidence=red(turn.abort_evidence or ""),
                 pending=pending_turn)
    item.user = red(turn.user_text)
    item.person = bool(getattr(turn, "person", True))
    commands = {s.call.id: shell_text(s.call) for s in turn.steps if s.kind == "tool_call" and s.call is not None}
    for step in turn.steps:
        if step.kind == "text" and step.text:
            text = red(step.text)
            if getattr(step, "sidechain", False):  # a sub-agent's text is not what the user read
                item.steps.append(f"**Sub-agent:**\n{_quote(text)}")
            else:
                item.answer = text
                item.steps.append(f"**Assistant:**\n{_quote(text)}")
        elif step.kind == "tool_call" and step.call is not None:
            call = step.call
            item.tools[call.name] = item.tools.get(call.name, 0) + 1
            if call.input is None or call.input == "":
                args = ""
            elif isinstance(call.input, str):
                args = call.input
            else:
                args = json.dumps(call.input, ensure_ascii=False, sort_keys=True, default=str)
            args = cut_middle(red(args), cfg_chars)
            item.steps.append(f"**Tool call** `{call.name}`" + (f":\n{_fenced(args)}" if args else ""))
        elif step.kind == "tool_result" and step.result is not None:
            res = step.result
            flags = []
            if res.rejected:
                flags.append("REJECTED by the user")
                item.rejected.append(res.name or "tool")
            if res.is_error:
                flags.append("error")
            if res.exit_code not in (None, 0):
                flags.append(f"exit code {res.exit_code}")
            out = cut_middle(red.output(res.output, commands.get(res.call_id or "", "")), cfg_chars)
            label = f"**Tool result** `{res.name or '?'}`" + (f" ({', '.join(flags)})" if flags else "")
            item.steps.append(f"{label}:\n{_fenced(out)}" if out else f"{label}: (no output)")
    for s in signals:
        item.signals.append((s["name"], float(s["weight"]), red(s["why"])))
    for e in errors:
        item.errors.append((e["kind"], e["tool"], red(e["evidence"]),
                            _one_line(red(e["excerpt"] or ""), EXCERPT_CHARS)))
    item.redactions = red.count - before
    return item


def _render_turn(it: _Item, level: Level) -> str:
    head = f"### Turn #{it.id} · {it.at_iso or 'time unknown'} · score {it.score:g}"
    if it.reflect:
        head += " · reflect-worthy"
    if not it.pending:
        head += " · already reflected on, shown for context"
    lines = [head]
    if it.signals:
        lines.append("Signals: " + "; ".join(f"{n} {w:g} ({why})" if why else f"{n} {w:g}"
                                             for n, w, why in it.signals))
    else:
        lines.append("Signals: none")
    # The same error repeated (an agent retrying a refused edit 20 times) is one line with a count.
    seen: dict[tuple, int] = {}
    for err in it.errors:
        seen[err] = seen.get(err, 0) + 1
    distinct = list(seen.items())
    for (kind, tool, evidence, excerpt), n in distinct[:MAX_ERROR_LINES]:
        where = f" in `{tool}`" if tool else ""
        tail = f" — {excerpt}" if excerpt else ""
        times = f" (×{n})" if n > 1 else ""
        if kind == "real":
            lines.append(f"- REAL error{where}{times}: {evidence}{tail}")
        else:
            lines.append(f"- TRANSIENT error (environment, not a lesson){where}{times}: "
                         f"{evidence}{tail}")
    rest = distinct[MAX_ERROR_LINES:]
    if rest:
        real = sum(n for (kind, *_), n in rest if kind == "real")
        lines.append(f"- … {sum(n for _, n in rest)} more errors ({real} real, "
                     f"{sum(n for _, n in rest) - real} transient)")
    if it.aborted:
        lines.append("- ABORTED: the user interrupted this turn"
                     + (f" ({it.abort_evidence})" if it.abort_evidence else ""))
    if it.rejected:
        lines.append(f"- REJECTED: the user refused {len(it.rejected)} tool use"
                     f"{'' if len(it.rejected) == 1 else 's'} ({', '.join(sorted(set(it.rejected)))})")
    if it.corrects_next:
        lines.append("- The user corrects this answer in the next turn.")
    lines.append("")
    lines.append("**User:**" if it.person else
                 "**User, as reported by the agent (not the person's own words; never a correction):**")
    lines.append(_quote(cut_head(it.user, USER_CHARS[level])))
    if level == "full":
        lines.extend(["", *"\n\n".join(it.steps).split("\n")] if it.steps else [])
    elif level == "compact":
        if it.tools:
            used = ", ".join(f"{name} ×{n}" for name, n in sorted(it.tools.items()))
            lines.extend(["", f"Tools used (details cut to fit the budget): {used}"])
        if it.answer:
            lines.extend(["", "**Assistant (last answer):**",
                          _quote(cut_head(it.answer, ANSWER_CHARS[level]))])
    elif level == "minimal":
        if it.corrects_next and it.answer:
            lines.extend(["", "**Assistant (the answer the user corrected):**",
                          _quote(cut_head(it.answer, ANSWER_CHARS[level]))])
        else:
            lines.extend(["", "(the rest of this turn was cut to fit the budget)"])
    return "\n".join(lines)


# -- selection --------------------------------------------------------------------------------

def _conv_key(session_id: str | None, turn_id: int) -> str:
    return f"session:{session_id}" if session_id else f"turn:{turn_id}"


def _select(p: Pending, n_convs: int, max_turns: int) -> tuple[list[int], dict[int, str]]:
    """Which pending turns to show (ids) and their conversation keys."""
    convs: dict[str, list] = {}
    for t in p.turns:
        convs.setdefault(_conv_key(t.session_id, t.id), []).append(t)
    # Conversations with something worth learning from come first, then the most recent ones.
    ranked = sorted(convs.items(), key=lambda kv: (not any(t.reflect for t in kv[1]),
                                                   -max(t.at for t in kv[1]),
                                                   -max(t.id for t in kv[1])))
    chosen = [t for _, ts in ranked[:n_convs] for t in ts]
    # Within the cap, the most valuable turns first: corrected, reflect-worthy, higher score, newer.
    chosen.sort(key=lambda t: (not t.corrected, not t.reflect, -t.score, -t.id))
    kept = chosen[:max_turns]
    return [t.id for t in kept], {t.id: _conv_key(t.session_id, t.id) for t in kept}


# -- the bundle -------------------------------------------------------------------------------

def build_bundle(store: Store, agent: str, cfg: Config, *, now: float | None = None) -> Bundle:
    """The text a model would read to reflect on ``agent`` now (nothing is written)."""
    row = store.agent(agent)
    if row is None:
        known = ", ".join(r["name"] for r in store.agents()) or "none yet"
        raise UserError(f"no agent named {agent!r} in the store (known: {known})",
                        hint="agents appear when their first turn is observed (`slowloop ingest`)")
    t_now = clock.now() if now is None else now
    budget = cfg.bundle.token_budget
    n_convs = cfg.bundle.conversations
    out_chars = cfg.bundle.tool_output_chars
    if budget < MIN_BUDGET:
        raise UserError(f"bundle.token_budget = {budget} is too small: the header and the reading "
                        "guide alone take about 400 tokens", hint=f"use at least {MIN_BUDGET}")
    if n_convs < 1:
        raise UserError(f"bundle.conversations = {n_convs} must be at least 1")
    threshold = cfg.signals.threshold
    agent_id = int(row["id"])
    p = pending(store, agent_id, agent_row=row)
    red = _Redactor()

    ids, conv_of = _select(p, n_convs, max(10, budget // MIN_TURN_TOKENS))
    items: dict[int, _Item] = {}
    # A fixed number of queries whatever the number of turns: the turns, their signals and errors,
    # then the answers the corrections among them correct, with their signals and errors.
    rows = ledger.turns_by_ids(store, agent_id, ids)
    signals = ledger.signals_of(store, ids)
    errors = ledger.errors_of(store, ids)
    for r in rows:
        tid = int(r["id"])
        items[tid] = _load_item(r, pending_turn=True, conv=conv_of[tid], cfg_chars=out_chars,
                                red=red, signals=signals.get(tid, []), errors=errors.get(tid, []))
    # A correction is only understandable next to the answer it corrects.
    pending_ids = {t.id for t in p.turns}
    corrected = [items[tid] for tid in sorted(items) if items[tid].corrected]
    before = ledger.previous_turns(store, agent_id, ((it.source, it.idx, it.session_id)
                                                     for it in corrected))
    extra = sorted({int(r["id"]) for r in before.values()} - set(items))
    signals = ledger.signals_of(store, extra)
    errors = ledger.errors_of(store, extra)
    for it in corrected:
        it.protected = True
        prow = before.get((it.source, it.idx, it.session_id or ""))
        if prow is None:
            continue
        pid = int(prow["id"])
        if pid not in items:
            items[pid] = _load_item(prow, pending_turn=pid in pending_ids, conv=it.conv,
                                    cfg_chars=out_chars, red=red, signals=signals.get(pid, []),
                                    errors=errors.get(pid, []))
        items[pid].corrects_next = True
        items[pid].protected = True
        it.corrects = pid

    # User edits: the most recent ones, within a quarter of the budget so turns keep room.
    edit_blocks: list[tuple[float, int, str]] = []
    edit_room = budget // 4
    for e in reversed(p.edits[-MAX_EDITS:]):
        block = _render_edit(e, red)
        cost = estimate_tokens(block) + 1
        if cost > edit_room:
            break
        edit_room -= cost
        edit_blocks.append((clock.parse_iso(e.at) or 0.0, e.id, block))
    edit_blocks.reverse()
    edits_left = len(p.edits) - len(edit_blocks)
    fixed_redactions = red.count - sum(it.redactions for it in items.values())
    metrics_block = _metrics_block(store, agent, budget // 6)

    watermark = max([p.watermark] + [t.id for t in p.turns])
    left_out = len(pending_ids - set(items))  # by the conversation cap or the turn cap
    header = functools.partial(_header, agent=agent, now=t_now, p=p, threshold=threshold,
                               watermark=watermark, left_out=left_out, edits_left=edits_left,
                               conversations=len({i.conv for i in items.values()}))
    header_budget = estimate_tokens(header(truncated=True)) + 2
    fixed = header_budget + (estimate_tokens(metrics_block) + 1 if metrics_block else 0) + \
        sum(estimate_tokens(b) + 1 for _, _, b in edit_blocks)

    degraded = _fit(list(items.values()), budget - fixed)
    conv_meta = _conv_meta(items)

    def assemble(truncated: bool) -> str:
        parts = [header(truncated=truncated)]
        if metrics_block:
            parts.append(metrics_block)
        timeline: list[tuple[float, int, str]] = [(at, 0, b) for at, _, b in edit_blocks]
        for conv, (first_at, title) in conv_meta.items():
            shown = sorted((i for i in items.values() if i.conv == conv and i.level != "dropped"),
                           key=lambda i: (i.at, i.idx, i.id))
            if not shown:
                continue
            block = "\n\n".join([title] + [i.text() for i in shown])
            timeline.append((first_at, 1, block))
        timeline.sort(key=lambda x: (x[0], x[1]))
        parts.extend(b for _, _, b in timeline)
        if not items and not edit_blocks:
            parts.append("Nothing new since the last reflection.")
        return "\n\n".join(parts).rstrip() + "\n"

    truncated = degraded or left_out > 0 or edits_left > 0
    text = assemble(truncated)
    if estimate_tokens(text) > budget:
        # Per-block estimates are additive only approximately: keep degrading until it fits.
        for it, level in _steps(list(items.values())):
            if _LEVELS.index(level) <= _LEVELS.index(it.level):
                continue
            it.level = level
            text = assemble(True)
            truncated = True
            if estimate_tokens(text) <= budget:
                break
    hard_cut = estimate_tokens(text) > budget
    if hard_cut:
        text = truncate_to_tokens(text, budget, marker="\n[… bundle cut to fit the token budget …]\n")
        truncated = True

    shown = [i for i in items.values() if i.level != "dropped"]
    if hard_cut:  # only what survived the last-resort cut counts as shown
        shown = [i for i in shown if f"### Turn #{i.id} " in text]
    events = (sum(i.events for i in shown) + len(edit_blocks) + (1 if metrics_block else 0))
    redactions = fixed_redactions + sum(i.redactions for i in shown)
    return Bundle(text=text, tokens=estimate_tokens(text), turn_ids=sorted(i.id for i in shown),
                  watermark=watermark, events=events, redactions=redactions, truncated=truncated,
                  conversations=len({i.conv for i in shown}),
                  left_out_turns=len(pending_ids - {i.id for i in shown}))


def _steps(items: list[_Item]) -> list[tuple[_Item, Level]]:
    """Every degradation, in the order they are applied (least valuable first)."""
    def order(i: _Item) -> tuple:
        return (i.score, i.at, i.id)

    context = sorted((i for i in items if not i.pending and not i.protected), key=order)
    low = sorted((i for i in items if i.pending and not i.reflect and not i.protected), key=order)
    worthy = sorted((i for i in items if i.pending and i.reflect and not i.protected), key=order)
    protected = sorted((i for i in items if i.protected), key=order)
    steps: list[tuple[_Item, Level]] = []
    steps += [(i, "dropped") for i in context]
    lower: tuple[Level, ...] = ("compact", "minimal", "dropped")
    for group in (low, worthy):
        for level in lower:
            steps += [(i, level) for i in group]
    for level in lower[:2]:  # compact, minimal: dropping a protected one comes last, below
        steps += [(i, level) for i in protected]
    # Only when even the protected minimum does not fit: drop corrections, least valuable first,
    # each together with the answer it corrects (a correction alone teaches nothing).
    by_id = {i.id: i for i in items}
    gone: set[int] = set()
    for i in sorted((i for i in protected if i.corrected), key=order):
        pair = [i]
        pred = by_id.get(i.corrects) if i.corrects is not None else None
        if pred is not None and not pred.corrected:
            pair.append(pred)
        for j in pair:
            if j.id not in gone:
                gone.add(j.id)
                steps.append((j, "dropped"))
    steps += [(i, "dropped") for i in protected if i.id not in gone]
    return steps


def _fit(items: list[_Item], room: int) -> bool:
    """Degrade items until their estimated tokens fit ``room``; True if anything was degraded."""
    conv_count: dict[str, int] = {}
    for i in items:
        conv_count[i.conv] = conv_count.get(i.conv, 0) + 1
    conv_heading = 40  # generous estimate of a conversation heading
    total = sum(i.tokens() for i in items) + conv_heading * len(conv_count)
    applied: list[tuple[_Item, Level, Level]] = []
    for it, level in _steps(items):
        if total <= room:
            break
        if _LEVELS.index(level) <= _LEVELS.index(it.level):
            continue
        total -= it.tokens()
        applied.append((it, it.level, level))
        it.level = level
        total += it.tokens()
        if level == "dropped":
            conv_count[it.conv] -= 1
            if conv_count[it.conv] == 0:
                total -= conv_heading
    # One huge turn compacted late can free far more room than the small turns dropped before it:
    # give the room back, most valuable first (the reverse of the degradation order).
    for it, before, after in reversed(applied):
        if it.level != after:
            continue
        heading = conv_heading if after == "dropped" and conv_count[it.conv] == 0 else 0
        grown = total - it.tokens() + it.tokens(before) + heading
        if grown <= room:
            it.level = before
            total = grown
            if after == "dropped":
                conv_count[it.conv] += 1
    return any(i.level != "full" for i in items)


def _conv_meta(items: dict[int, _Item]) -> dict[str, tuple[float, str]]:
    """Conversation key → (time of its first turn, Markdown heading), in a stable order."""
    by_conv: dict[str, list[_Item]] = {}
    for i in sorted(items.values(), key=lambda i: (i.at, i.id)):
        by_conv.setdefault(i.conv, []).append(i)
    meta: dict[str, tuple[float, str]] = {}
    for conv, its in sorted(by_conv.items(), key=lambda kv: (kv[1][0].at, kv[1][0].id)):
        first = its[0]
        new = sum(1 for i in its if i.pending)
        where = (f"session `{first.session_id}`" if first.session_id
                 else f"a turn without a session (`{os.path.basename(first.source)}`)")
        when = first.at_iso or "time unknown"
        meta[conv] = (first.at, f"## Conversation: {where} · {first.format} · from {when} · "
                                f"{new} new turn{'' if new == 1 else 's'}")
    return meta


def _render_edit(e, red: _Redactor) -> str:
    what = f"the result of skill `{e.skill}`" if e.skill else "the agent's result"
    how = "explicit edit" if e.source == "explicit" else "a correction right after the skill was used"
    turn = f", about turn #{e.turn_id}" if e.turn_id else ""
    note = _one_line(red(e.note), 400)
    return (f"## User edit · {e.at}\nThe user changed {what} ({how}{turn})."
            + (f"\nNote: {note}" if note else ""))


def _metrics_block(store: Store, agent: str, room: int) -> str:
    """One compact table, most used skills first, within ``room`` tokens."""
    metrics = [m for m in skill_metrics(store, agent).values() if m.impressions or m.invocations]
    if not metrics:
        return ""
    metrics.sort(key=lambda m: (-m.invocations, -m.impressions, m.name))
    rows = ["## Skill metrics (all time)",
            "| skill | impressions | invocations | invocation rate | edit after use | ineffective |",
            "|---|---:|---:|---:|---:|---:|"]
    used = estimate_tokens("\n".join(rows)) + 20  # + the "not shown" line

    def pct(rate: float, denominator: int) -> str:
        return f"{rate:.0%}" if denominator else "–"

    shown = 0
    for m in metrics[:MAX_METRIC_ROWS]:
        judged = getattr(m, "judged_invocations", m.invocations)
        row = (f"| {m.name} | {m.impressions} | {m.invocations} | "
               f"{pct(m.invocation_rate, m.impressions)} | "
               f"{pct(m.edit_after_use_rate, m.invocations)} | "
               f"{pct(m.ineffective_rate, judged)} |")
        used += estimate_tokens(row) + 1
        if used > room:
            break
        rows.append(row)
        shown += 1
    if not shown:
        return ""
    if len(metrics) > shown:
        rows.append(f"\n({len(metrics) - shown} less used skills not shown)")
    return "\n".join(rows)


def _header(*, agent: str, now: float, p: Pending, threshold: float, watermark: int,
            left_out: int, edits_left: int, conversations: int, truncated: bool) -> str:
    worthy = len(p.worthy)
    since = p.last_reflected_at or "never reflected before"
    lines = [
        f"# Reflection bundle: agent `{agent}`",
        "",
        f"As of {clock.iso(now)}. Last reflection: {since}. New since then: {len(p.turns)} "
        f"turn{'' if len(p.turns) == 1 else 's'} ({worthy} reflect-worthy) and {len(p.edits)} "
        f"user edit{'' if len(p.edits) == 1 else 's'}; shown below from {conversations} "
        f"conversation{'' if conversations == 1 else 's'}. Covers turns up to #{watermark}.",
    ]
    if left_out:
        lines.append(f"{left_out} new turn{'' if left_out == 1 else 's'} from older or less "
                     "eventful conversations left out: this is a recent window, not the whole "
                     "history.")
    if edits_left:
        lines.append(f"{edits_left} older user edit{'' if edits_left == 1 else 's'} left out.")
    if truncated:
        lines.append("Some turns were shortened or left out to fit the token budget; the "
                     "reflect-worthy ones were kept first.")
    lines += [
        "",
        "How to read this:",
        f"- Each turn shows the signals that fired and its score; a score of {threshold:g} or more "
        "makes a turn reflect-worthy.",
        "- REAL errors are failures of the agent or the task: they can teach something.",
        "- TRANSIENT errors (environment: timeouts, connection resets, rate limits, HTTP 5xx, "
        "overload) are shown for context only. Never learn a rule from them, never call a tool or "
        "a skill unreliable because of them.",
        "- `[… N chars cut …]` marks text left out to fit; secrets were replaced by redaction "
        "markers before this bundle was built.",
    ]
    return "\n".join(lines)
