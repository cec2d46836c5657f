"""What each rule changed, from the turns recorded after it — at zero model cost — and what
slowloop does about it.

For every turn recorded, each rule that can be checked (``check.read_rule``) gets a verdict from
the agent's actions in it (``check.judge``): ``relevant``, ``followed``, ``violated``; and
``corrected_again`` when the person corrected the agent in that turn about the same thing (the
turn before broke the rule, a tool use it refused broke it, or the person's words name what the
rule is about). Turns recorded before the rule was written count too, as its ``before``: how
often the mistake was made while no rule said otherwise. Incremental: a watermark per agent, so a
hook pays only for the turns it just recorded.

Acting on it:

- **escalated**: the first time a rule is broken after it was written, it goes to the top of what
  the agent reads at a session start (``escalated_section``: its trigger restated, the action that
  broke it quoted), and with it into the CLAUDE.md/AGENTS.md block, which is the bootstrap;
- **reported**: broken again after that, it is the person's to look at (``slowloop status``);
- **archived**: a memo rule that can be checked but was never relevant for ``memo.archive_after``
  (4 weeks by default) leaves memo.md through the history (actor ``slowloop``), never deleted:
  ``slowloop history undo <change>`` brings it back, and its record wakes up;
- **possibly stale**: a rule whose files, tools or commands have not appeared in the agent's work
  for ``memo.stale_after`` (2 weeks) while work went on, is flagged (never removed for that alone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .. import clock
from ..errors import SlowloopError
from ..observe.lessons import person_text, read_lesson
from ..observe.redo import Act, shell_text, turn_acts
from ..store import Store, ledger, rules as q
from ..transcripts.model import Turn
from .check import Check, Verdict, has, judge, mentions, read_rule
from .records import LIVE, sync_rules

BATCH = 2000  # turns judged per pass; the rest in the next one
BEFORE_TURNS = 500  # a new rule is judged on at most this many turns recorded before it
OUTCOMES = ("relevant", "followed", "violated", "corrected_again")


@dataclass
class Update:
    turns: int = 0
    escalated: list[str] = field(default_factory=list)
    reported: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Seen:
    """One turn as the judges read it."""

    id: int
    at: str
    corrected: bool
    acts: list[Act]
    refused: list[Act]
    said: str
    failed: frozenset[str]


def _failed(turn: Turn, errors: list) -> frozenset[str]:
    """The shell commands of the tool calls that ended in a real error."""
    steps = turn.steps
    calls = {s.call.id: s.call for s in steps if s.kind == "tool_call" and s.call and s.call.id}
    out: set[str] = set()
    for e in errors:
        i = e["step"]
        if e["kind"] != "real" or i is None or not 0 <= int(i) < len(steps):
            continue
        res = steps[int(i)].result
        call = calls.get(res.call_id) if res is not None and res.call_id else None
        if call is not None:
            out |= {c.strip() for c in shell_text(call).split("&&") if c.strip()}
    return frozenset(out)


def _read_turns(store: Store, rows: list) -> list[_Seen]:
    errors = ledger.errors_of(store, [int(r["id"]) for r in rows])
    out = []
    for r in rows:
        turn = Turn.from_dict(json.loads(r["data"]))
        out.append(_Seen(int(r["id"]), r["started_at"] or r["recorded_at"], bool(r["corrected"]),
                         turn_acts(turn), turn_acts(turn, rejected=True),
                         person_text(turn.user_text) if turn.person else "",
                         _failed(turn, errors.get(int(r["id"]), []))))
    return out


def _about(check: Check, said: str) -> bool:
    """The person's words are about what the rule is about (they name what to use or avoid)."""
    if not said:
        return False
    lesson = read_lesson(said)
    lits = [x for x in (check.use, check.avoid) if x and not x.startswith("<")]
    named = [lesson.x, lesson.y]
    return any(has(lit, said) for lit in lits) or any(n and has(n, " ".join(lits)) for n in named)


def _rows_for(rule_id: int, phase: str, s: _Seen, v: Verdict, again: bool):
    if v.relevant:
        yield (rule_id, s.id, phase, "relevant", s.at, v.detail)
    if v.followed:
        yield (rule_id, s.id, phase, "followed", s.at, v.detail)
    if v.violated:
        yield (rule_id, s.id, phase, "violated", s.at, v.detail)
    if again:
        yield (rule_id, s.id, phase, "corrected_again", s.at, s.said[:200])


def _judge_rule(tx, rule: dict, check: Check, seen: list[_Seen], prev_of: dict[int, int],
                broken: set[tuple[int, int]], now: str, out: Update) -> None:
    """Record one rule's outcomes on ``seen`` and act on them (escalate, report)."""
    verdicts: dict[int, Verdict] = {}
    results = []
    for s in seen:
        v = judge(check, s.acts, s.failed)
        verdicts[s.id] = v
        results.append((s, v))
    rows = []
    changes: dict = {}
    taught = json.loads(rule["evidence"] or "{}").get("turn_id")
    for s, v in results:
        p = prev_of.get(s.id)
        prev_broke = p is not None and (verdicts[p].violated if p in verdicts else (int(rule["id"]), p) in broken)
        phase = "after" if s.id > int(rule["watermark"]) else "before"
        # corrected *again*: after the rule existed (before it, a correction is what taught it)
        again = phase == "after" and s.corrected and s.id != taught and (
            prev_broke or judge(check, s.refused, s.failed).violated or _about(check, s.said))
        rows += list(_rows_for(int(rule["id"]), phase, s, v, again))
        if mentions(check, s.acts) or v.relevant:
            changes["last_seen_at"] = s.at
        if phase == "before":
            continue
        if v.relevant:
            changes["last_relevant_at"] = s.at
        if v.violated or (again and not prev_broke):  # a correction of a break already counted: once
            status = changes.get("status", rule["status"])
            esc = changes.get("escalated_turn", rule["escalated_turn"])
            if status == "active":
                changes.update(status="escalated", escalated_at=now, escalated_turn=s.id)
                out.escalated.append(rule["text"])
            elif esc is not None and s.id > int(esc) and rule["reported_turn"] != s.id:
                changes["reported_turn"] = s.id
                out.reported.append(rule["text"])
    if rows:
        q.record_outcomes(tx, rows)
    if changes:
        q.update_rule(tx, int(rule["id"]), **changes, updated_at=now)
        rule.update(changes)


def _prev_links(store: Store, agent_id: int, rows: list) -> dict[int, int]:
    """turn id → the id of the turn before it in its conversation."""
    return {tid: int(p["id"]) for tid, p in q.previous_of(store, agent_id, rows).items()}


def update(store: Store, agent: str, home: Path, cfg) -> Update:
    """Judge the turns recorded since the last pass on every live rule; act on what was found."""
    out = Update()
    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return out
    records = judged_records(store, agent, home, cfg, out)
    live = [r for r in records if r["status"] in LIVE]
    checks = {int(r["id"]): read_rule(r["text"]) for r in live}
    now = clock.iso()
    after_id, after_upd = q.watermark(store, agent_id)
    rows = q.turns_after(store, agent_id, after_id, after_upd, limit=BATCH)
    if rows:
        seen = _read_turns(store, rows)
        links = _prev_links(store, agent_id, rows)
        broken = q.violations_in(store, set(links.values()))
        with store.transaction() as tx:
            for r in live:
                if checks[int(r["id"])].checkable:
                    _judge_rule(tx, r, checks[int(r["id"])], seen, links, broken, now, out)
            q.set_watermark(tx, agent_id, max(int(r["id"]) for r in rows),
                            max(r["updated_at"] for r in rows))
        out.turns = len(rows)
    out.archived = _decay(store, agent, home, cfg, live, checks)
    return out


def judged_records(store: Store, agent: str, home: Path, cfg, out: Update | None = None) -> list[dict]:
    """Every rule's record, brought up to date with the files (``records.sync_rules``); a rule met
    for the first time is judged on the turns recorded before it (its "before")."""
    records, _lines = sync_rules(store, agent, home, cfg)
    agent_id = store.agent_id(agent)
    now = clock.iso()
    for r in [r for r in records if r["status"] in LIVE and not r["judged_before"]]:
        check = read_rule(r["text"])
        rows = q.turns_upto(store, agent_id, int(r["watermark"]), limit=BEFORE_TURNS) if check.checkable else []
        seen = _read_turns(store, rows) if rows else []
        links = _prev_links(store, agent_id, rows) if rows else {}
        with store.transaction() as tx:
            if seen:
                _judge_rule(tx, r, check, seen, links, q.violations_in(store, set(links.values())),
                            now, out if out is not None else Update())
            q.update_rule(tx, int(r["id"]), judged_before=1)
        r["judged_before"] = 1
    return records


def _age_days(at: str | None, now: float) -> float:
    ts = clock.parse_iso(at) if at else None
    return float("inf") if ts is None else (now - ts) / 86400


def _decay(store: Store, agent: str, home: Path, cfg, live: list[dict], checks: dict[int, Check]) -> list[str]:
    """Archive the memo rules never relevant for ``memo.archive_after`` (through the history)."""
    from ..memo import Memo

    window = cfg.memo.archive_after.seconds / 86400
    now = clock.now()
    due = [r for r in live if r["kind"] == "memo" and r["status"] == "active" and checks[int(r["id"])].checkable
           and not r["proposer"].startswith("a person") and _age_days(r["created_at"], now) >= window
           and _age_days(r["last_relevant_at"], now) >= window]
    done = []
    memo = Memo(agent, home=home, config=cfg, store=store)
    for r in due:
        try:
            memo.remove(r["target"], r["text"], actor="slowloop",
                        note=f"archived: rule {r['id']} was not relevant for {cfg.memo.archive_after}")
        except SlowloopError:
            continue  # edited meanwhile, or matches two entries: left for the next pass
        change = _last_change(store, agent, memo.path)
        with store.transaction() as tx:
            q.update_rule(tx, int(r["id"]), status="archived", archived_change=change, updated_at=clock.iso())
        done.append(r["text"])
    return done


def _last_change(store: Store, agent: str, path: Path) -> int | None:
    rows = q.memo_changes(store, store.agent_id(agent), str(path))
    return int(rows[-1]["id"]) if rows else None


# -- reading ------------------------------------------------------------------------------------

def _rate(counts: dict[str, int]) -> dict:
    rel, bad = counts.get("relevant", 0), counts.get("violated", 0)
    return {"relevant": rel, "violated": bad, "corrected_again": counts.get("corrected_again", 0),
            "rate": round(bad / rel, 3) if rel else None}


def _week(at: str) -> str:
    ts = clock.parse_iso(at)
    if ts is None:
        return "unknown"
    y, w, _d = datetime.fromtimestamp(ts, tz=UTC).isocalendar()
    return f"{y}-W{w:02d}"


def repeated_mistakes(store: Store, agent: str) -> dict:
    """How often a mistake a rule was learned from came back: violated / relevant turns, before
    the rule existed and after, overall and per ISO week (of the turn). Two rules about the same
    mistake (a play and its pitfall: the same thing to use and to avoid) count a turn once."""
    agent_id = store.agent_id(agent, create=False)
    empty = {"before": _rate({}), "after": _rate({}), "weeks": [], "rules_checked": 0}
    if agent_id is None:
        return empty
    total: dict[str, dict[str, int]] = {"before": {}, "after": {}}
    weeks: dict[str, dict[str, dict[str, int]]] = {}
    rules: set[int] = set()
    mistake = {int(r["id"]): (c.mode, c.use.lower(), c.avoid.lower(), c.tool)
               for r in q.list_rules(store, agent_id) for c in [read_rule(r["text"])]}
    # one count per turn and mistake, in the phase of the first rule about it ("after" as soon
    # as any rule about that mistake existed when the turn happened)
    seen: dict[tuple, tuple[str, str]] = {}
    for r in q.outcomes(store, agent_id, kinds=("relevant", "violated", "corrected_again")):
        rules.add(int(r["rule_id"]))
        key = (r["outcome"], r["turn_id"], mistake.get(int(r["rule_id"]), r["rule_id"]))
        if key not in seen or r["phase"] == "after":
            seen[key] = (r["phase"], r["at"])
    for (outcome, _turn, _m), (phase, at) in seen.items():
        for bucket in (total, weeks.setdefault(_week(at), {"before": {}, "after": {}})):
            c = bucket[phase]
            c[outcome] = c.get(outcome, 0) + 1
    return {"before": _rate(total["before"]), "after": _rate(total["after"]), "rules_checked": len(rules),
            "weeks": [{"week": w, "before": _rate(v["before"]), "after": _rate(v["after"])}
                      for w, v in sorted(weeks.items())]}
