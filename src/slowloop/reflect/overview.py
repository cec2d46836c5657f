"""What a person sees of one agent, shared by ``slowloop status``/``history`` and ``slowloop ui``:
its status on one screen, corrections per week, and the two steps every reading or undoing starts
or ends with (hand edits recorded first; the places refreshed after an undo)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from ..config import Config


def agent_summary(store, cfg: Config, home: Path, name: str, now: float) -> dict:
    """Everything ``status`` shows about one agent (the JSON form)."""
    from .. import clock
    from ..history import learned
    from ..places.targets import for_agent
    from ..store import ledger
    from . import auto, lease as leases
    from .review import waiting
    from .scheduler import agent_status

    row = store.agent(name)
    aid = int(row["id"])
    s = agent_status(store, name, cfg, now=now)
    n_turns, last_turn_at = ledger.turn_activity(store, aid)
    last = ledger.last_reflection(store, aid)
    last_applied = ledger.applied_reflections(store, aid, limit=1)
    lease = leases.current(store, leases.agent_lease_name(name), now=now)
    if lease is not None or auto.running(home, name):
        nxt = "reflecting now"
    elif s.due:
        nxt = ("now: the next recorded turn starts it in the background" if auto.enabled(cfg)
               else "at the next `slowloop reflect` (automatic reflection is off)")
    elif s.cooldown_until:
        nxt = f"not before {s.cooldown_until} (cooldown)"
    elif not s.dirty:
        nxt = "when something new is recorded"
    else:
        nxt = (f"when the pending score reaches {cfg.signals.threshold:g} "
               f"(now {s.pending_score:g}), or {cfg.scheduler.force_after} after the last one")
    return {
        "agent": name,
        "turns": n_turns,
        "last_turn_at": last_turn_at,
        "pending": {"turns": s.pending_turns, "worthy_turns": s.worthy_turns, "edits": s.pending_edits,
                    "score": s.pending_score, "due": s.due, "reasons": s.reasons},
        "last_reflection": dict(last) if last is not None else None,
        "last_learned": ({**dict(last_applied[0]),
                          "lessons": learned(store, name, int(last_applied[0]["id"]))}
                         if last_applied else None),
        "next_reflection": nxt,
        "waiting": waiting(store, name),
        "auto_reflect": auto.enabled(cfg),
        "installs": [{k: t.get(k) for k in ("harness", "scope", "project", "skills_dir", "agents_md")}
                     for t in for_agent(home, name)],
        "sync": _sync_state(home, name),
        **_rules_state(store, cfg, home, name),
        "now": clock.iso(now),
    }


def _rules_state(store, cfg, home: Path, name: str) -> dict:
    """Which rules work, which do not and what was done about them; the repeated-mistake rate."""
    from ..rules import attention, repeated_mistakes, rules_report

    views = rules_report(store, name, home, cfg, include_old=True)
    live = [v for v in views if v["status"] in ("active", "escalated")]
    return {"rules": attention(live, [v for v in views if v["status"] == "archived"]),
            "repeated_mistakes": repeated_mistakes(store, name)}


def _sync_state(home: Path, name: str) -> dict | None:
    from ..paths import agent_dir
    from ..sync import conflicted_skills, held, remote_url

    repo = agent_dir(name, home)
    if not (repo / ".git").is_dir():
        return None
    try:
        return {"remote": remote_url(repo), "conflicts": conflicted_skills(repo),
                "quarantined": held(name, home)}
    except Exception as exc:  # noqa: BLE001 — git missing or broken: say so, show the rest
        return {"remote": None, "conflicts": [], "quarantined": [], "problem": str(exc)}


def notice_all(agent: str, *, home: Path, store, config: Config | None = None) -> None:
    """Record the person's hand edits of skills and the memo before showing or changing anything."""
    from ..memo import Memo
    from ..skills import SkillLibrary

    SkillLibrary(agent, home=home, store=store, config=config).list()
    Memo(agent, home=home, config=config, store=store).notice()


def undo(agent: str, change: str, *, home: Path, store, config: Config | None = None
         ) -> tuple[list[int], list[str]]:
    """Undo one change (``42``) or one whole reflection (``R7``), hand edits recorded first, then the
    places the next session reads from refreshed: (the undo's change ids, warnings to show)."""
    from ..errors import UserError
    from ..history import undo as undo_change, undo_reflection
    from .publish import changed

    notice_all(agent, home=home, store=store, config=config)
    if change[:1] in "Rr" and change[1:].isdigit():
        ids = undo_reflection(store, agent, int(change[1:]))
    elif change.isdigit():
        ids = [undo_change(store, agent, int(change))]
    else:
        raise UserError(f"{change!r} is not a change id",
                        hint="give a number from `slowloop history`, or R<reflection id>")
    places, _synced = changed(home, agent, what="an undo")
    return ids, [line for line in places if "FAILED" in line or line.startswith("could not")]


def corrections_by_week(store, agent: str) -> list[dict[str, Any]]:
    """Per ISO week with a recorded turn, oldest first: turns recorded and how many of them the
    person corrected (the ledger's own count, nothing estimated)."""
    from ..store import ledger

    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return []
    weeks: dict[str, list[int]] = {}
    for day, turns, corrected in ledger.turns_per_day(store, agent_id):
        try:
            year, week, _ = dt.date.fromisoformat(day).isocalendar()
        except ValueError:
            continue
        slot = weeks.setdefault(f"{year}-W{week:02d}", [0, 0])
        slot[0] += turns
        slot[1] += corrected
    return [{"week": w, "turns": t, "corrections": c} for w, (t, c) in sorted(weeks.items())]
