"""Proposals that wait for a person: ``slowloop review``.

A reflection applies what it may on its own and *holds* the rest here, with the reason:
- a rule learned from a person's words that falls in a danger class (:mod:`slowloop.safety.danger`)
  — typed by them or not, a standing instruction to run ``curl … | sh`` is not applied silently;
- a change over text a person wrote (replace, remove, merge, retire: :mod:`.authorship`).

Approving plans the action against the files as they are now and applies it, recorded under the
reflection that proposed it (so ``slowloop history undo R<id>`` still reverts it); declining keeps the
proposal and its reason in the ledger. Either decision is final.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import clock
from ..errors import UserError
from ..history import apply_changes
from ..paths import home as default_home
from ..store import Store, artifacts, open_store
from .actions import Action, _to_action
from .marks import UNLEARNED


@dataclass(frozen=True)
class Proposal:
    id: int
    agent: str
    reflection_id: int | None
    at: str
    action: dict[str, Any]
    reason: str
    status: str
    decided_at: str | None
    outcome: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        a = self.action
        what = a.get("name") or a.get("into") or a.get("section") or ""
        text = a.get("text") or a.get("new") or a.get("body") or a.get("match") or ""
        return f"{a.get('type')} {what}: {' '.join(str(text).split())[:160]}"


def hold(tx: artifacts.Tx, agent_id: int, reflection_id: int | None, action: Action,
         reason: str, *, store: Store | None = None) -> int:
    """Record one held action (inside the caller's transaction); returns its id. An unlearned
    correction that repeats one already waiting (``store`` given to look) is not a second
    proposal: the waiting one says it was said again — a repeat is strong evidence."""
    if store is not None and UNLEARNED in reason:
        from ..text import similar

        for row in artifacts.list_proposals(store, agent_id):
            held = json.loads(row["action"])
            if UNLEARNED in row["reason"] and similar(str(held.get("text", "")), action.text) >= 0.6:
                times = int(m.group(1)) + 1 if (m := re.search(r"said (\d+) times", row["reason"])) else 2
                base = re.sub(r" \(said \d+ times\)$", "", row["reason"])
                artifacts.note_on_proposal(tx, int(row["id"]), f"{base} (said {times} times)")
                return int(row["id"])
    return artifacts.insert_proposal(tx, agent_id, reflection_id, at=clock.iso(),
                                     action=json.dumps(action.to_dict(), ensure_ascii=False),
                                     reason=reason)


def _row(r: artifacts.Row, agent: str) -> Proposal:
    return Proposal(id=int(r["id"]), agent=agent, reflection_id=r["reflection_id"], at=r["at"],
                    action=json.loads(r["action"]), reason=r["reason"], status=r["status"],
                    decided_at=r["decided_at"], outcome=r["outcome"])


def proposals(store: Store, agent: str, *, include_decided: bool = False) -> list[Proposal]:
    return [_row(r, agent) for r in artifacts.list_proposals(store, store.agent_id(agent),
                                                             include_decided=include_decided)]


def _pending(store: Store, agent: str, proposal_id: int) -> Proposal:
    row = artifacts.get_proposal(store, store.agent_id(agent), proposal_id)
    if row is None:
        raise UserError(f"agent {agent!r} has no proposal {proposal_id}",
                        hint="see `slowloop review list`")
    p = _row(row, agent)
    if p.status != "pending":
        raise UserError(f"proposal {proposal_id} was already {p.status} at {p.decided_at}")
    return p


def _decide(store: Store, p: Proposal, status: str, outcome: str) -> Proposal:
    now = clock.iso()
    artifacts.decide_proposal(store, p.id, status=status, decided_at=now, outcome=outcome)
    return Proposal(**{**p.to_dict(), "status": status, "decided_at": now, "outcome": outcome})


def waiting(store: Store, agent: str) -> dict[str, int]:
    """How many proposals wait for the person: all, and of them the corrections no rule was
    learned from (a wording to accept, edit or dismiss)."""
    rows = proposals(store, agent)
    return {"proposals": len(rows), "unlearned": sum(UNLEARNED in p.reason for p in rows)}


def approve(agent: str, proposal_id: int, *, home: Path | None = None,
            store: Store | None = None, text: str | None = None) -> Proposal:
    """Apply a held action now, as the person's decision (raises when it no longer applies).
    ``text``: the person's own wording for a rule the proposal adds (it goes through the same
    check as any rule: an imperative with a trigger, no dangerous instruction)."""
    from ..memo import Memo
    from ..skills import SkillLibrary
    from .plan import plan_action as _plan

    home = home or default_home()
    own = store is None
    store = store or open_store(home=home)
    try:
        p = _pending(store, agent, proposal_id)
        action, problem = _to_action(p.action)
        if action is None:
            raise UserError(f"proposal {proposal_id} is not a valid action any more: {problem}")
        if text is not None:
            from dataclasses import replace

            from .validate import check_content

            if action.type != "update_memo" or action.op not in ("add", "replace"):
                raise UserError(f"proposal {proposal_id} does not add a rule, so it has no wording to edit",
                                hint="approve it as it is, or decline it")
            action = replace(action, text=" ".join(text.split()))
            verdict = check_content(action)
            if not verdict.ok:
                raise UserError(f"the wording is not kept: {verdict.reason}",
                                hint='write an imperative with its trigger, e.g. "When installing packages, '
                                     'always use pnpm, never npm."')
        lib = SkillLibrary(agent, home=home, store=store)
        memo = Memo(agent, home=home, store=store)
        lib.list()  # record hand edits first: the plan is made against the files as they are
        memo.notice()
        changes = _plan(action, lib, memo)
        ids = apply_changes(changes, store=store, agent=agent, actor="reflection",
                            reflection_id=p.reflection_id,
                            note=f"approved in review (P{p.id})") if changes else []
        if ids:
            from .publish import changed

            changed(home, agent, store, reflection_id=p.reflection_id, what="an approval")
        return _decide(store, p, "approved", f"applied as change(s) {', '.join(map(str, ids))}"
                       if ids else "nothing to change")
    finally:
        if own:
            store.close()


def decline(agent: str, proposal_id: int, *, home: Path | None = None,
            store: Store | None = None) -> Proposal:
    own = store is None
    store = store or open_store(home=home or default_home())
    try:
        return _decide(store, _pending(store, agent, proposal_id), "declined", "declined by a person")
    finally:
        if own:
            store.close()
