"""Which agents reflect in the next cycle, and why the others do not (SPEC §1.3).

Pure functions over the ledger and a clock: nothing here calls a model or writes a row, so
``slowloop schedule`` can show the decision and the daemon can act on the very same one.

The rules, in the order they decide:

1. **dirty gate**: nothing new since the last reflection (no turn past the watermark, no turn
   updated since, no user edit since) → not due; no model call is ever spent on a clean agent;
2. **cooldown**: with a model configured, not due until ``last_attempt_at + cooldown`` (failed
   attempts count too, so a broken provider is not hammered every cycle); the offline learner has
   no cooldown — it costs nothing;
3. **forced**: no reflection for ``force_after`` and anything new at all → due, however low the
   score, so an agent never drifts forever;
4. otherwise due when the pending signal score reaches the threshold — the sum of the scores of
   the reflect-worthy new turns, plus the weight of explicit user edits.

Due agents are ordered by pending score (ties: longest without reflection first) and capped at
``max_agents_per_cycle``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .. import clock
from ..config import Config
from ..errors import UserError
from ..store import Store, ledger

LAST_CYCLE_KEY = "scheduler.last_cycle_at"


def cycle_key(store: Store) -> str:
    """Where this worker records its last cycle: one mark per machine and home, so several
    daemons sharing one ledger (PostgreSQL) each keep their own schedule and together reflect on
    more agents per interval; the agent leases keep them off each other's agents."""
    import socket

    return f"{LAST_CYCLE_KEY}:{socket.gethostname()}:{store.home}"


@dataclass(frozen=True)
class PendingTurn:
    """A turn the next reflection has not covered yet (new past the watermark, or updated since)."""

    id: int
    session_id: str | None
    idx: int
    score: float
    reflect: bool
    corrected: bool
    at: float  # started_at, else recorded_at, as epoch seconds (for ordering)
    updated: bool  # at or below the watermark but re-ingested since the last reflection


@dataclass(frozen=True)
class PendingEdit:
    id: int
    skill: str | None
    at: str
    source: str  # explicit | correction
    turn_id: int | None
    note: str


@dataclass(frozen=True)
class Pending:
    """Everything new for one agent since its last reflection."""

    agent_id: int
    watermark: int  # agents.last_seen_turn_id
    last_reflected_at: str | None
    turns: tuple[PendingTurn, ...]
    edits: tuple[PendingEdit, ...]

    @property
    def dirty(self) -> bool:
        return bool(self.turns or self.edits)

    @property
    def worthy(self) -> tuple[PendingTurn, ...]:
        return tuple(t for t in self.turns if t.reflect)

    @property
    def explicit_edits(self) -> tuple[PendingEdit, ...]:
        return tuple(e for e in self.edits if e.source == "explicit")


@dataclass(frozen=True)
class AgentSchedule:
    agent: str
    due: bool
    reasons: list[str]  # plain words, the deciding reason first
    dirty: bool
    forced: bool
    cooldown_until: str | None  # set only while the agent is cooling down
    pending_score: float
    pending_turns: int
    last_reflected_at: str | None
    worthy_turns: int = 0
    pending_edits: int = 0
    watermark: int = 0
    # due but for the model's cooldown: the offline learner, which costs nothing, may read the turns
    offline_due: bool = False

    def to_dict(self) -> dict:
        return {
            "agent": self.agent, "due": self.due, "offline_due": self.offline_due, "reasons": list(self.reasons),
            "dirty": self.dirty, "forced": self.forced, "cooldown_until": self.cooldown_until,
            "pending_score": self.pending_score, "pending_turns": self.pending_turns,
            "worthy_turns": self.worthy_turns, "pending_edits": self.pending_edits,
            "last_reflected_at": self.last_reflected_at, "watermark": self.watermark,
        }


def _turn_time(row) -> float:
    return clock.parse_iso(row["started_at"]) or clock.parse_iso(row["recorded_at"]) or 0.0


def pending(store: Store, agent_id: int, *, agent_row: ledger.Row | None = None) -> Pending:
    """What is new for ``agent_id``: the dirty gate's evidence, shared with the bundle.

    ``agent_row``: the agent's ``agents`` row when the caller already read it (saves a query).
    """
    agent = agent_row if agent_row is not None else ledger.agent_by_id(store, agent_id)
    if agent is None:
        raise UserError(f"no agent with id {agent_id} in the store")
    return pending_many(store, [agent])[agent_id]


def pending_many(store: Store, agent_rows: Sequence[ledger.Row]) -> dict[int, Pending]:
    """:func:`pending` of each agent (its ``agents`` row given), in three queries for all of them
    (per few hundred agents), not three per agent."""
    agents = {int(a["id"]): a for a in agent_rows}
    marks = {aid: int(a["last_seen_turn_id"] or 0) for aid, a in agents.items()}
    new = ledger.turns_after(store, marks)
    # A turn already covered can grow (a session still being written, re-ingested): it is new
    # again when it changed after the last reflection. The query filters on the second; the exact
    # comparison is done on epochs, not strings: stored timestamps may or may not carry fractions.
    grown = ledger.turns_updated_since(store, {
        aid: (marks[aid], a["last_reflected_at"][:19]) for aid, a in agents.items()
        if marks[aid] and clock.parse_iso(a["last_reflected_at"]) is not None})
    edit_rows = ledger.edits_of(store, list(agents))
    out: dict[int, Pending] = {}
    for aid, agent in agents.items():
        last = agent["last_reflected_at"]
        last_ts = clock.parse_iso(last)
        turns = [_pending_turn(r, updated=False) for r in new.get(aid, [])]
        for r in grown.get(aid, []):
            if last_ts is not None and (clock.parse_iso(r["updated_at"]) or 0.0) > last_ts:
                turns.append(_pending_turn(r, updated=True))
        turns.sort(key=lambda t: t.id)
        edits: list[PendingEdit] = []
        for r in edit_rows.get(aid, []):
            at = clock.parse_iso(r["at"])
            if last_ts is None or (at is not None and at > last_ts):
                edits.append(PendingEdit(int(r["id"]), r["skill"], r["at"], r["source"],
                                         r["turn_id"], r["note"] or ""))
        out[aid] = Pending(aid, marks[aid], last, tuple(turns), tuple(edits))
    return out


def _pending_turn(r, *, updated: bool) -> PendingTurn:
    return PendingTurn(id=int(r["id"]), session_id=r["session_id"], idx=int(r["idx"]),
                       score=float(r["score"]), reflect=bool(r["reflect"]),
                       corrected=bool(r["corrected"]), at=_turn_time(r), updated=updated)


def pending_score(p: Pending, cfg: Config) -> float:
    """Sum of the scores of reflect-worthy new turns + each explicit user edit (weighed like a
    correction: the user changed the result by hand). Edits made through a correction are already
    inside their turn's score and do not count twice."""
    edit_weight = cfg.signals.user_correction
    return round(sum(t.score for t in p.worthy) + edit_weight * len(p.explicit_edits), 4)


def _ago(seconds: float) -> str:
    days = seconds / 86400
    if days >= 2:
        return f"{int(days)} days"
    if days >= 1:
        return "1 day"
    hours = int(seconds // 3600)
    if hours >= 1:
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{int(seconds // 60)} minutes"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def agent_status(store: Store, agent_name: str, cfg: Config, *, now: float | None = None
                 ) -> AgentSchedule:
    """Whether ``agent_name`` is due for reflection at ``now``, and why (see the module doc)."""
    row = store.agent(agent_name)
    if row is None:
        known = ", ".join(r["name"] for r in store.agents()) or "none yet"
        raise UserError(f"no agent named {agent_name!r} in the store (known: {known})",
                        hint="agents appear when their first turn is observed")
    t = clock.now() if now is None else now
    return _status(row, pending(store, int(row["id"]), agent_row=row), cfg, t)


def _status(row: ledger.Row, p: Pending, cfg: Config, t: float) -> AgentSchedule:
    """The schedule of the agent in ``row`` (its pending work ``p``) at ``t``."""
    agent_name = row["name"]
    threshold = cfg.signals.threshold
    score = pending_score(p, cfg)
    last = row["last_reflected_at"]
    base = dict(agent=agent_name, pending_score=score, pending_turns=len(p.turns),
                last_reflected_at=last, worthy_turns=len(p.worthy), pending_edits=len(p.edits),
                watermark=p.watermark)

    if not p.dirty:
        return AgentSchedule(due=False, reasons=["clean: nothing new since the last reflection"],
                             dirty=False, forced=False, cooldown_until=None, **base)

    dirty_reason = _dirty_reason(p, score)
    reasons: list[str] = []

    # forced: measured from the last reflection, or from when the agent was first seen
    ref = clock.parse_iso(last) if last else clock.parse_iso(row["created_at"])
    force_after = cfg.scheduler.force_after.seconds
    forced = False
    if ref is not None and t - ref >= force_after:
        forced = True
        since = _ago(t - ref)
        forced_reason = (f"forced: no reflection for {since}" if last
                         else f"forced: never reflected, first seen {since} ago")

    attempt = clock.parse_iso(row["last_attempt_at"])
    # The cooldown bounds model calls: the offline learner costs nothing, so with no model every
    # turn that makes an agent due is learned from at once (a second lesson the same morning
    # does not wait four hours behind a first "nothing to save").
    if attempt is not None and cfg.provider.kind != "offline":
        until = attempt + cfg.scheduler.cooldown.seconds
        if t < until:
            reasons.append(f"cooling down until {clock.iso(until)}")
            reasons.append(dirty_reason)
            if forced:
                reasons.append(forced_reason)
            # the cooldown spaces out model calls only: what would be due now, the offline learner reads
            offline = forced or score >= threshold - 1e-9
            if offline:
                reasons.append("the offline learner may read the new turns meanwhile (it costs nothing)")
            return AgentSchedule(due=False, reasons=reasons, dirty=True, forced=forced,
                                 cooldown_until=clock.iso(until), offline_due=offline, **base)

    if forced:
        reasons = [forced_reason, dirty_reason]
        return AgentSchedule(due=True, reasons=reasons, dirty=True, forced=True,
                             cooldown_until=None, **base)
    if score >= threshold - 1e-9:
        reasons = [dirty_reason] + ([] if last else ["never reflected"])
        return AgentSchedule(due=True, reasons=reasons, dirty=True, forced=False,
                             cooldown_until=None, **base)
    # Below the threshold only sub-threshold turns are new: show the best of them, which is what
    # a person compares with the threshold ("waiting: score 0.5 < 0.7").
    shown = max([score] + [pt.score for pt in p.turns])
    reasons = [f"waiting: score {shown:g} < {threshold:g}", dirty_reason]
    return AgentSchedule(due=False, reasons=reasons, dirty=True, forced=False,
                         cooldown_until=None, **base)


def _dirty_reason(p: Pending, score: float) -> str:
    parts: list[str] = []
    worthy = len(p.worthy)
    if worthy:
        parts.append(_plural(worthy, "reflect-worthy turn"))
    others = len(p.turns) - worthy
    if others:
        parts.append(_plural(others, "other new turn") if worthy
                     else _plural(others, "new turn") + ", none reflect-worthy")
    if p.explicit_edits:
        parts.append(_plural(len(p.explicit_edits), "user edit"))
    correction_edits = len(p.edits) - len(p.explicit_edits)
    if correction_edits:
        parts.append(_plural(correction_edits, "correction edit"))
    return f"dirty: {', '.join(parts)}, score {score:g}"


def plan_cycle(store: Store, cfg: Config, *, now: float | None = None,
               agents: Iterable[str] | None = None, limit: int | None = -1) -> list[AgentSchedule]:
    """The agents the next cycle reflects on: due ones, highest pending score first, capped at
    ``scheduler.max_agents_per_cycle`` (``limit``: another cap; None: every due agent)."""
    t = clock.now() if now is None else now
    names = list(agents) if agents is not None else None
    # Only an agent with something worth reflecting on, or forced and with anything new, can be
    # due: one query finds them, and the pass reads the pending work of those alone, not of the
    # whole fleet (most agents of a fleet are clean or below the threshold at any moment).
    candidates = (ledger.maybe_due_agents(
        store, forced_before=clock.iso(t - cfg.scheduler.force_after.seconds + 1))
        if names is None else None)
    due = [s for s in _statuses(store, cfg, t, names, only_ids=candidates) if s.due]
    # Ties go to the agent that waited longest (never reflected first), then by name: stable.
    due.sort(key=lambda s: (-s.pending_score,
                            clock.parse_iso(s.last_reflected_at) or float("-inf"), s.agent))
    if limit == -1:
        limit = cfg.scheduler.max_agents_per_cycle
    return due if limit is None else due[:limit]


def all_statuses(store: Store, cfg: Config, *, now: float | None = None) -> list[AgentSchedule]:
    """Every agent, due or not, in name order (what ``slowloop schedule`` shows)."""
    t = clock.now() if now is None else now
    return _statuses(store, cfg, t)


def _statuses(store: Store, cfg: Config, t: float, names: list[str] | None = None,
              only_ids: set[int] | None = None) -> list[AgentSchedule]:
    """The schedule of the named agents (default: all, in name order; ``only_ids``: of those
    agents only), read for all of them at once: a pass over thousands of agents is a few
    queries, not a few per agent."""
    rows = store.agents()
    if only_ids is not None:
        rows = [r for r in rows if int(r["id"]) in only_ids]
    if names is not None:
        by_name = {r["name"]: r for r in rows}
        for n in names:
            if n not in by_name:
                agent_status(store, n, cfg, now=t)  # raises the "no agent named" error
        rows = [by_name[n] for n in names]
    ps = pending_many(store, rows)
    return [_status(r, ps[int(r["id"])], cfg, t) for r in rows]


def next_cycle_at(store: Store, cfg: Config, now: float | None = None) -> str:
    """When the next cycle should run: the last cycle + ``scheduler.interval``, or now if none ran
    (or if the clock went backwards past the recorded cycle)."""
    t = clock.now() if now is None else now
    # a ledger from before per-worker marks has only the one shared mark
    last = clock.parse_iso(store.get_meta(cycle_key(store)) or store.get_meta(LAST_CYCLE_KEY))
    if last is None or last > t:
        return clock.iso(t)
    return clock.iso(max(t, last + cfg.scheduler.interval.seconds))


def mark_cycle(store: Store, now: float | None = None) -> str:
    """Record that a cycle ran at ``now`` (the daemon calls this when a cycle starts)."""
    stamp = clock.iso(clock.now() if now is None else now)
    store.set_meta(cycle_key(store), stamp)
    return stamp
