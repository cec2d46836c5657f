"""What the review page reads and does, each through the function the CLI calls for it.

A ``Ctx`` is one request's view of the home (the ledger opened for that request only). Reading
functions return plain data for :mod:`.pages`; writing functions return the line to show the person
and go through the library exactly as the CLI does: validation, the danger gate, atomic writes, the
history, and the places refreshed after.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import clock
from ..config import Config
from ..errors import UserError


@dataclass
class Ctx:
    home: Path
    store: Any  # slowloop.store.Store, opened for one request
    config: Config

    def agents(self) -> list[str]:
        return [r["name"] for r in self.store.agents()]

    def known(self, agent: str) -> str:
        if self.store.agent(agent) is None:
            raise UserError(f"no agent named {agent!r} in {self.home}",
                            hint="agents appear when their first turn is recorded")
        return agent

    def memo(self, agent: str):
        from ..memo import Memo

        return Memo(agent, home=self.home, config=self.config, store=self.store)

    def skills(self, agent: str):
        from ..skills import SkillLibrary

        return SkillLibrary(agent, home=self.home, store=self.store, config=self.config)


# -- reading ----------------------------------------------------------------------------------

def summary(ctx: Ctx, agent: str) -> dict:
    """``slowloop status --json`` for one agent, and the corrections per week from the ledger."""
    from ..reflect.overview import agent_summary, corrections_by_week

    data = agent_summary(ctx.store, ctx.config, ctx.home, agent, clock.now())
    data["weeks"] = corrections_by_week(ctx.store, agent)
    return data


def lessons(ctx: Ctx, agent: str, *, limit: int = 20) -> list[dict]:
    """The timeline: each applied reflection, newest first, with what it taught (still in effect),
    who proposed it, its changes (each undoable) and the corrections among the turns it read —
    the person's words, and what the agent had just done in that conversation."""
    from ..history import history, learned
    from ..store import ledger

    aid = ctx.store.agent_id(agent, create=False)
    if aid is None:
        return []
    rows = list(ledger.reflection_timeline(ctx.store, aid, limit=limit + 1))
    changes: dict[int, list[dict]] = {}
    for c in history(ctx.store, agent, limit=500):
        if c.reflection_id is not None:
            changes.setdefault(c.reflection_id, []).append(c.to_dict(texts=False))
    out = []
    for n, r in enumerate(rows[:limit]):
        after = int(rows[n + 1]["watermark"]) if n + 1 < len(rows) else 0
        out.append({**dict(r), "lessons": learned(ctx.store, agent, int(r["id"])),
                    "proposer": proposer(dict(r)), "changes": changes.get(int(r["id"]), []),
                    "evidence": _evidence(ctx, aid, after, int(r["watermark"]))})
    return out


def proposer(reflection: dict) -> str:
    """Who proposed a reflection's changes, in words: the offline learner, or which model where."""
    if reflection.get("provider") in ("", "offline", None):
        return "the offline learner on this machine (no model)"
    model = f" {reflection['model']}" if reflection.get("model") else ""
    return f"{reflection['provider']}{model} ({reflection.get('sent_to') or 'destination not recorded'})"


def _evidence(ctx: Ctx, agent_id: int, after: int, upto: int) -> list[dict]:
    from ..store import ledger

    turns = ledger.corrected_turns(ctx.store, agent_id, after_id=after, upto_id=upto, limit=6)
    if not turns:
        return []
    before = ledger.previous_turns(ctx.store, agent_id,
                                   [(t["source"], t["idx"], t["session_id"]) for t in turns])
    why = ledger.signals_of(ctx.store, [int(t["id"]) for t in turns], name="user_correction")
    out = []
    for t in turns:
        prev = before.get((t["source"], int(t["idx"]), t["session_id"] or ""))
        out.append({"turn": int(t["id"]), "session": t["session_id"], "at": t["started_at"],
                    "words": t["user_text"], "read": [s["why"] for s in why.get(int(t["id"]), [])],
                    "agent_did": _actions(prev["data"]) if prev is not None else []})
    return out


def _actions(data: str, limit: int = 4) -> list[str]:
    """The last tool calls of a turn, one line each (``Bash: npm install lodash``)."""
    try:
        steps = json.loads(data).get("steps") or []
    except (ValueError, AttributeError):
        return []
    calls = []
    for s in steps:
        call = s.get("call") if isinstance(s, dict) else None
        if s.get("kind") == "tool_call" and isinstance(call, dict):
            args = call.get("input") or {}
            if isinstance(args, dict) and isinstance(args.get("command"), list):  # Codex: argv
                argv = [str(a) for a in args["command"]]
                args = {"command": argv[-1] if argv[1:2] in (["-lc"], ["-c"]) else " ".join(argv)}
            what = (args.get("command") or args.get("file_path") or args.get("path") or
                    json.dumps(args, ensure_ascii=False)) if isinstance(args, dict) else str(args)
            calls.append(f"{call.get('name', 'tool')}: {' '.join(str(what).split())[:200]}")
    return calls[-limit:]


def review_queue(ctx: Ctx, agent: str, *, decided: bool = False) -> list[dict]:
    from ..reflect.marks import UNLEARNED
    from ..reflect.review import proposals

    return [{**p.to_dict(), "summary": p.summary(), "unlearned": UNLEARNED in p.reason,
             "wording": p.action.get("text") if p.action.get("type") == "update_memo" else None}
            for p in proposals(ctx.store, agent, include_decided=decided)]


def quarantined(ctx: Ctx, agent: str) -> list[dict]:
    """A teammate's changes a sync refused, waiting for the person (`slowloop sync status`)."""
    from ..sync import held

    try:
        return [h for h in held(agent, ctx.home) if h.get("status", "held") == "held"]
    except Exception:  # noqa: BLE001 — not shared, or git missing: nothing waits from a remote
        return []


def quarantine_accept(ctx: Ctx, agent: str, ident: int, dangerous: bool) -> str:
    from ..paths import agent_dir
    from ..sync.incoming import accept

    h, _result, warning = accept(agent_dir(agent, ctx.home), ident, dangerous=dangerous)
    return f"took in {h.path} from {h.by()}" + (f" — {warning}" if warning else "")


def quarantine_drop(ctx: Ctx, agent: str, ident: int) -> str:
    from ..paths import agent_dir
    from ..sync.incoming import drop

    h = drop(agent_dir(agent, ctx.home), ident)
    return f"dropped {h.path} from {h.by()}; this machine's version stays"


def memo(ctx: Ctx, agent: str) -> dict:
    """What `slowloop memo show --json` prints: each section's entries and each rule's evidence
    and outcomes."""
    from ..memo import memo_view
    from ..rules import for_entries, rules_report

    view = memo_view(ctx.memo(agent))
    views = rules_report(ctx.store, agent, ctx.home, ctx.config)
    for s, d in view["sections"].items():
        d["rules"] = for_entries(views, "memo", s, d["entries"])
    return view


def skills(ctx: Ctx, agent: str) -> list[dict]:
    lib = ctx.skills(agent)
    items = lib.list(include_retired=True)
    metrics = lib.metrics([s.name for s in items])
    return [lib.describe(s, metrics.get(s.name)) for s in items]


def skill(ctx: Ctx, agent: str, name: str) -> dict:
    lib = ctx.skills(agent)
    lib.list()  # a person's hand edits recorded first
    found = lib.get(name)
    return {**lib.describe(found, lib.metrics([name])[name]), "body": found.body}


def changes(ctx: Ctx, agent: str, *, limit: int = 60) -> list[dict]:
    from ..history import history
    from ..reflect.overview import notice_all

    notice_all(agent, home=ctx.home, store=ctx.store, config=ctx.config)
    return [c.to_dict() for c in history(ctx.store, agent, limit=limit)]


def memory(ctx: Ctx, agent: str) -> dict:
    from ..memory import Memory, show_text, status

    mem = Memory.for_agent(agent, home=ctx.home, config=ctx.config)
    st = status(mem)
    return {"root": st.root, "exists": st.exists, "text": show_text(mem) if st.exists else "",
            "debts": st.debts, "errors": st.errors}


def search(ctx: Ctx, agent: str, query: str, *, k: int = 20) -> tuple[list[dict], list[str]]:
    """``slowloop search``: the index brought up to date, then the best ``k`` hits."""
    from ..recall import refresh, search as run_search

    stats = refresh(agent, ctx.home)
    hits = run_search(query, agent, k=k, home=ctx.home)
    return [h.to_dict() for h in hits], list(stats.problems)


# -- deciding ---------------------------------------------------------------------------------

def approve(ctx: Ctx, agent: str, proposal: int, text: str | None) -> str:
    from ..reflect.review import approve as _approve

    p = _approve(agent, proposal, home=ctx.home, store=ctx.store, text=text or None)
    return f"approved P{p.id}: {p.outcome}"


def decline(ctx: Ctx, agent: str, proposal: int) -> str:
    from ..reflect.review import decline as _decline

    p = _decline(agent, proposal, home=ctx.home, store=ctx.store)
    return f"declined P{p.id}: it stays in the ledger as declined"


def _memo_entry(ctx: Ctx, agent: str, section: str, number: int, expect: str):
    """The memo, once entry ``number`` of ``section`` is checked to still be ``expect``: a page
    shown before the memo changed never edits the wrong line."""
    m = ctx.memo(agent)
    m.notice()
    entries = m.entries(section)
    if not 1 <= number <= len(entries) or entries[number - 1] != expect:
        raise UserError("the memo changed since this page was shown; nothing was written",
                        hint="reload the page and decide again")
    return m


def memo_replace(ctx: Ctx, agent: str, section: str, number: int, expect: str, text: str) -> str:
    _memo_entry(ctx, agent, section, number, expect).replace(section, number, text)
    return f"rule {number} of {section} rewritten (undo it from History)"


def memo_remove(ctx: Ctx, agent: str, section: str, number: int, expect: str) -> str:
    _memo_entry(ctx, agent, section, number, expect).remove(section, number)
    return f"rule {number} of {section} retired (the text is kept in History: undo brings it back)"


def skill_edit(ctx: Ctx, agent: str, name: str, body: str) -> str:
    lib = ctx.skills(agent)
    lib.list()
    old = lib.get(name).body
    new = body.replace("\r\n", "\n")
    if new.strip() == old.strip():
        return f"skill {name} unchanged"
    lib.patch(name, old, new if new.endswith("\n") else new + "\n")
    return f"skill {name} edited (undo it from History)"


def skill_retire(ctx: Ctx, agent: str, name: str, reason: str) -> str:
    ctx.skills(agent).retire(name, reason=reason or "retired from the review page")
    return f"skill {name} retired (archived, never deleted: undo it from History)"


def undo(ctx: Ctx, agent: str, change: str) -> str:
    from ..reflect.overview import undo as _undo

    ids, warnings = _undo(agent, change, home=ctx.home, store=ctx.store, config=ctx.config)
    what = f"reflection {change.upper()}" if change[:1] in "Rr" else f"change {change}"
    return f"undid {what} (recorded as change {', '.join(map(str, ids))})" + "".join(
        f"; warning: {w}" for w in warnings)
