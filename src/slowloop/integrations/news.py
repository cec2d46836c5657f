"""What the person hears at a session start (Claude Code's ``systemMessage``): what the latest
reflections changed, corrections that wait for a wording, a rule broken again after it was
escalated, rules archived — each said once (``<home>/cache/announced/<agent>.json``)."""

from __future__ import annotations

import json
from pathlib import Path


def learned_news(home: Path, agent: str, store) -> str | None:
    """One line for the person about what the latest reflection(s) changed, the corrections that
    wait for a wording, a rule broken again after it was escalated and the rules archived, each
    shown once."""
    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return None
    from ..reflect.marks import UNLEARNED
    from ..store import artifacts, ledger, rules

    rows = ledger.applied_reflections(store, agent_id, limit=5)
    path = home / "cache" / "announced" / f"{agent}.json"
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        seen, seen_p = int(saved.get("reflection", 0)), int(saved.get("proposal", 0))
        seen_b, seen_a = int(saved.get("broken", 0)), int(saved.get("archived", 0))
    except (OSError, ValueError, TypeError, AttributeError):
        seen, seen_p, seen_b, seen_a = 0, 0, 0, 0
    fresh = [r for r in rows if int(r["id"]) > seen]
    waiting = [int(r["id"]) for r in artifacts.list_proposals(store, agent_id) if UNLEARNED in r["reason"]]
    new_waiting = [i for i in waiting if i > seen_p]
    broken, archived = rules.news_since(store, agent_id, reported_after=seen_b, archived_after=seen_a)
    if not fresh and not new_waiting and not broken and not archived:
        return None
    from ..fsutil import atomic_write

    atomic_write(path, json.dumps({"reflection": int(rows[0]["id"]) if rows else seen,
                                   "proposal": max([seen_p] + waiting),
                                   "broken": max([seen_b] + [int(r["reported_turn"]) for r in broken]),
                                   "archived": max([seen_a] + [int(r["archived_change"]) for r in archived])}))
    parts = _rule_news(broken, archived)
    if fresh:
        from ..history import learned

        lessons = [x for r in reversed(fresh) for x in learned(store, agent, int(r["id"]))]
        what = "; ".join(lessons) or "; ".join((r["summary"] or "").split(" (")[0] for r in reversed(fresh))
        if len(what) > 240:
            what = what[:239].rstrip() + "…"
        ids = ", ".join(f"R{r['id']}" for r in reversed(fresh))
        parts.append(f"slowloop learned from your last sessions ({ids}): {what}. "
                     f"See `slowloop status`; undo with `slowloop history undo {'R' + str(fresh[0]['id'])}`.")
    if new_waiting:
        parts.append(f"{len(waiting)} correction(s) you made could not be turned into a rule by slowloop "
                     "alone: `slowloop review` shows a wording for each to accept, edit or decline.")
    return " ".join(parts)


def _rule_news(broken: list, archived: list) -> list[str]:
    """What the person hears about the rules: one broken again after it was escalated, the ones
    archived (each once)."""
    parts = []
    for r in broken[-2:]:
        parts.append(f"A rule slowloop had already escalated was broken again (turn {r['reported_turn']}): "
                     f"{r['text'][:160]} — yours to look at: `slowloop memo show`.")
    if archived:
        parts.append(f"slowloop archived {len(archived)} rule(s) not relevant for weeks (never deleted): "
                     "`slowloop status` says how to bring each back.")
    return parts
