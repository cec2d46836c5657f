"""What a person (and the agent) reads about the rules: each one's evidence and outcomes, what
needs attention, and the escalated rules a session starts with."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .. import clock
from ..store import Store, rules as q
from .check import read_rule
from .outcomes import judged_records
from .records import COUNT, LIVE, norm

ESCALATED_MAX = 5  # escalated rules at the top of a session start, newest first
_WHEN = re.compile(r"^when\s+(?P<phrase>[^,]+),\s*(?P<body>.+)$", re.I | re.S)


def _counts(c: dict[str, int]) -> dict[str, int]:
    return {k: c.get(k, 0) for k in ("relevant", "followed", "violated", "corrected_again")}


def _last(store: Store, agent_id: int, rule_id: int, outcome: str) -> dict | None:
    rows = q.outcomes(store, agent_id, rule_id=rule_id, kinds=(outcome,))
    after = [r for r in rows if r["phase"] == "after"]
    if not after:
        return None
    r = after[-1]
    return {"turn_id": r["turn_id"], "session_id": r["session_id"], "at": r["at"], "action": r["detail"]}


def recent(store: Store, agent_id: int, rule_id: int, n: int = 10) -> list[dict]:
    """The rule's last ``n`` outcomes after it was written that say something (followed, violated,
    corrected again), oldest first: which turn of which session, and the action."""
    rows = [r for r in q.outcomes(store, agent_id, rule_id=rule_id,
                                  kinds=("followed", "violated", "corrected_again")) if r["phase"] == "after"]
    return [{"outcome": r["outcome"], "turn_id": r["turn_id"], "session_id": r["session_id"], "at": r["at"],
             "action": r["detail"]} for r in rows[-n:]]


def _stale(rec: dict, check, last_turn_at: str | None, window_days: float) -> bool:
    """The rule names files, tools or commands none of which appeared in the agent's work for the
    window, while work went on (turns were recorded within it)."""
    if not check.literals or rec["status"] not in LIVE:
        return False
    now = clock.now()
    seen = clock.parse_iso(rec["last_seen_at"] or rec["created_at"]) or now
    recent = clock.parse_iso(last_turn_at) if last_turn_at else None
    return recent is not None and now - recent < window_days * 86400 and now - seen >= window_days * 86400


def view(store: Store, agent_id: int, rec: dict, counts: dict, *, last_turn_at: str | None,
         window_days: float, agent: str = "default") -> dict:
    """One rule as ``memo show --json`` and ``skills show --json`` give it."""
    check = read_rule(rec["text"])
    after, before = counts.get("after", {}), counts.get("before", {})
    d = {"rule": rec["id"], "kind": rec["kind"], "target": rec["target"], "text": rec["text"],
         "status": rec["status"], "proposer": rec["proposer"], "created_at": rec["created_at"],
         "evidence": json.loads(rec["evidence"] or "{}"),
         "outcomes": _counts(after) if check.checkable else "not checkable",
         "before": _counts(before) if check.checkable else None,
         "check": check.to_dict(),
         "possibly_stale": _stale(rec, check, last_turn_at, window_days)}
    if rec["status"] == "escalated" or rec["reported_turn"]:
        d["escalated"] = {"at": rec["escalated_at"], "turn_id": rec["escalated_turn"],
                          "broken_again_at_turn": rec["reported_turn"]}
    if after.get("violated"):
        d["last_violation"] = _last(store, agent_id, int(rec["id"]), "violated")
    if after:
        d["recent"] = recent(store, agent_id, int(rec["id"]))
    if rec["status"] == "archived":
        d["archived"] = {"change": rec["archived_change"],
                         "restore": f"slowloop history undo {rec['archived_change']}"
                                    + (f" --agent {agent}" if agent != "default" else "")}
    return d


def rules_report(store: Store, agent: str, home: Path, cfg, *, include_old: bool = False) -> list[dict]:
    """Every rule the agent reads now (and, with ``include_old``, the archived and gone ones)."""
    from ..store import ledger

    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return []  # nothing recorded for it: a read must not create the agent
    records = judged_records(store, agent, home, cfg)
    keep = [r for r in records if include_old or r["status"] in LIVE]
    counts = q.outcome_counts(store, [r["id"] for r in keep])
    _n, last_at = ledger.turn_activity(store, agent_id)
    window = cfg.memo.stale_after.seconds / 86400
    return [view(store, agent_id, r, counts.get(int(r["id"]), {}), last_turn_at=last_at, window_days=window,
                 agent=agent) for r in keep]


def for_entries(views: list[dict], kind: str, target: str, entries: list[str]) -> list[dict | None]:
    """The view of each entry of one memo section or skill, in order (None: not a rule)."""
    by_norm = {norm(v["text"]): v for v in views if v["kind"] == kind}
    return [by_norm.get(norm(e)) for e in entries]


def attention(views: list[dict], archived: list[dict]) -> dict:
    """What ``slowloop status`` says about the rules."""
    checkable = [v for v in views if v["check"]["checkable"]]
    return {
        "rules": len(views), "checkable": len(checkable),
        "working": [v["text"] for v in checkable if v["outcomes"]["followed"] and not v["outcomes"]["violated"]],
        "escalated": [v["text"] for v in views if v["status"] == "escalated" and not v.get("escalated", {}).get("broken_again_at_turn")],
        "broken_again": [{"text": v["text"], "turn_id": v["escalated"]["broken_again_at_turn"],
                          "action": (v.get("last_violation") or {}).get("action", "")}
                         for v in views if v.get("escalated", {}).get("broken_again_at_turn")],
        "never_relevant": [v["text"] for v in checkable if not v["outcomes"]["relevant"]],
        "possibly_stale": [v["text"] for v in views if v["possibly_stale"]],
        "not_checkable": len(views) - len(checkable),
        "archived": [{"text": v["text"], "restore": v["archived"]["restore"]} for v in archived
                     if v.get("archived") and v["archived"]["change"]],
    }


def escalated_section(store: Store, agent: str, texts: list[str]) -> str:
    """The escalated rules still in what the agent reads (``texts``: the memo entries and skill
    bodies as read now — a rule a person or a later reflection took out is never restated),
    restated with their trigger and the action that broke them: the top of the session bootstrap
    ('' when none)."""
    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return ""
    recs = [dict(r) for r in q.list_rules(store, agent_id, ("escalated",))]
    if not recs:
        return ""
    present = {norm(ln.strip().lstrip("-*+ ")) for t in texts for ln in t.splitlines()}
    recs = [r for r in recs if r["norm"] in present]
    if not recs:
        return ""
    recs.sort(key=lambda r: r["escalated_at"] or "", reverse=True)
    lines = []
    for r in recs[:ESCALATED_MAX]:
        m = _WHEN.match(COUNT.sub("", " ".join(r["text"].split())))
        said = r["text"]
        if m:
            gerund = re.match(r"^\w+ing\b", m.group("phrase"))
            said = f"Every time {'you are ' if gerund else ''}{m.group('phrase')}: {m.group('body')}"
        last = _last(store, agent_id, int(r["id"]), "violated")
        broke = f" Broken after it was learned: `{last['action'][:100]}`." if last and last["action"] else ""
        lines.append(f"- {said.rstrip('.')}.{broke}")
    return ("# Rules I broke after learning them\n\nCheck each one before you act; it was broken after "
            "it was learned.\n" + "\n".join(lines))


def describe(v: dict) -> list[str]:
    """A rule's evidence and outcomes in words (two or three short lines)."""
    ev = v["evidence"]
    said = f'the person said "{ev["said"][:120]}"' if ev.get("said") else ""
    acted = f"after `{ev['action'][:80]}`" if ev.get("action") else ""
    where = f"turn {ev['turn_id']}" + (f" of session {ev['session_id']}" if ev.get("session_id") else "") \
        if ev.get("turn_id") else ""
    taught = ", ".join(x for x in (where, " ".join(x for x in (said, acted) if x)) if x)
    out = [f"learned from: {taught or 'no turn recorded'} — proposed by {v['proposer']}"]
    if v["outcomes"] == "not checkable":
        out.append(f"outcomes: not checkable ({v['check']['why']})")
    else:
        o, b = v["outcomes"], v["before"] or {}
        out.append(f"since: relevant {o['relevant']}, followed {o['followed']}, violated {o['violated']}, "
                   f"corrected again {o['corrected_again']} (before it: violated {b.get('violated', 0)} of "
                   f"{b.get('relevant', 0)})")
    flags = []
    if v.get("escalated"):
        again = v["escalated"]["broken_again_at_turn"]
        flags.append(f"escalated: broken at turn {v['escalated']['turn_id']}" +
                     (f", broken again at turn {again} — yours to look at" if again else ""))
    if v["possibly_stale"]:
        flags.append("possibly stale: what it names has not appeared in the recent work")
    if v["status"] == "archived" and v.get("archived"):
        flags.append(f"archived: never relevant; restore with `{v['archived']['restore']}`")
    return out + flags
