"""Each learned rule's record in the ledger, matched to its line, and what taught it.

A rule is a line the agent reads: a memo entry (every play, and each pitfall among the strengths)
or a rule line (``- When …``) inside a skill. Its record is found by its text — folded, the repeat
count ("(corrected 2 times)") left out — so memo.md stays plain Markdown a person edits freely: an
entry reworded a little keeps its record (same file, most words shared), one removed by hand is
marked ``gone``, one a person or a teammate wrote gets a record of its own.

Evidence comes from the history: the change that first put the line in its file says who wrote it
(a reflection, a person, a teammate through sync); a reflection's own answer says why — the reason
of the action that wrote the line cites the turn it was learned from, and that turn (and the one
before it) in the ledger gives the person's words, the agent's action they reacted to and what
it did instead, the turn and the session. The rule's ``watermark`` is the last turn recorded
before the line was written: turns after it are the rule's "after".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .. import clock
from ..errors import DataError
from ..memo import Memo, is_pitfall
from ..observe.lessons import person_text
from ..observe.redo import Act, find_redo, turn_acts
from ..skills.library import SkillLibrary
from ..store import Store, ledger, rules as q
from ..text import fold, similar
from ..transcripts.model import Turn

COUNT = re.compile(r"\s*\(corrected \d+ times\)\s*$")
_CITED = re.compile(r"\bturns?\s*#?\s*(\d+)", re.I)
LIVE = ("active", "escalated")


def norm(text: str) -> str:
    """What matches a rule to its line: folded, spaces collapsed, the repeat count left out."""
    return fold(COUNT.sub("", " ".join(text.split()))).strip(" .")


@dataclass(frozen=True)
class Line:
    kind: str  # memo | skill
    target: str  # memo section, skill name
    text: str
    path: Path


def current_lines(agent: str, home: Path, cfg, store: Store) -> list[Line]:
    """Every rule the agent reads now, in the order it reads them."""
    out: list[Line] = []
    memo = Memo(agent, home=home, config=cfg, store=store)
    try:
        content = memo.content()[0]
    except DataError:
        content = None  # a hand-broken memo is doctor's to report
    if content is not None:
        out += [Line("memo", "plays", e, memo.path) for e in content.entries["plays"]]
        out += [Line("memo", "strengths", e, memo.path) for e in content.entries["strengths"] if is_pitfall(e)]
    skills, _broken = SkillLibrary(agent, home=home, store=store, config=cfg).scan()
    for s in skills:
        out += [Line("skill", s.name, ln.strip()[2:].strip(), s.path) for ln in s.body.splitlines()
                if ln.strip().startswith(("- When ", "* When "))]
    return out


def _turn(row) -> Turn:
    return Turn.from_dict(json.loads(row["data"]))


def _describe(acts: list[Act], *, first: bool = False) -> str:
    for a in acts if first else reversed(acts):
        if a.kind == "run" and a.command:
            return a.command
        if a.path:
            return f"{a.kind} {a.path}"
    return ""


def turn_evidence(store: Store, agent_id: int, turn_id: int) -> dict:
    """The person's words in one turn, the agent's action they reacted to, what it did then."""
    rows = ledger.turns_by_ids(store, agent_id, [turn_id])
    if not rows:
        return {"turn_id": turn_id, "missing": "the turn is no longer in the ledger"}
    row = dict(rows[0])
    turn = _turn(row)
    prev_row = q.previous_of(store, agent_id, [row]).get(turn_id)
    before = (turn_acts(_turn(prev_row), rejected=False) if prev_row else []) + turn_acts(turn, rejected=True)
    done = turn_acts(turn, rejected=False)
    redo = find_redo(before, done)
    said = " ".join(person_text(turn.user_text).split()) if turn.person else ""
    # a recovery has nothing before it: the action is the turn's first (what failed), then its last
    action = redo.before if redo else (_describe(before) or _describe(done, first=True))
    return {"turn_id": turn_id, "session_id": row["session_id"], "at": row["started_at"] or row["recorded_at"],
            "said": said[:400], "action": action[:300],
            "then": (redo.after if redo else _describe(done))[:300]}


def _introduced(store: Store, agent_id: int, line: Line) -> dict | None:
    """The change that first put ``line`` in its file (the oldest one whose ``after`` holds it and
    whose ``before`` did not), or None when the history never recorded it."""
    key = norm(line.text)

    def holds(text: str | None) -> bool:
        return bool(text) and any(norm(ln.strip()[2:]) == key for ln in (text or "").splitlines()
                                  if ln.strip()[:2] in ("- ", "* "))
    found = None
    for ch in q.memo_changes(store, agent_id, str(line.path)):
        if holds(ch["after"]) and not holds(ch["before"]):
            found = ch  # the newest introduction: a line taken out and put back counts from then
    return found


def _reason_for(raw_output: str, line: Line) -> str:
    """The reason of the action of a reflection's answer that wrote ``line``."""
    key = norm(line.text)
    for chunk in raw_output.split("\n--- offline learner ---\n")[::-1]:
        try:
            actions = json.loads(chunk).get("actions", [])
        except (ValueError, AttributeError):
            continue
        for a in actions if isinstance(actions, list) else []:
            if not isinstance(a, dict):
                continue
            texts = [str(a.get(k) or "") for k in ("text", "body", "new")]
            if any(norm(t) == key or any(norm(ln.strip()[2:]) == key for ln in t.splitlines()
                                         if ln.strip().startswith("- ")) for t in texts):
                return str(a.get("reason") or "")
    return ""


def _origin(store: Store, agent_id: int, line: Line, synced: bool) -> tuple[str, dict, int | None, str | None]:
    """(proposer, evidence, reflection id, when the line was written) of a line without a record."""
    ch = _introduced(store, agent_id, line)
    if ch is None:
        return ("unknown: written before slowloop kept a history of it", {}, None, None)
    at = q.change_at(store, ch["id"])
    if ch["actor"] in ("person", "undo") or ch["reflection_id"] is None:
        who = "a teammate or another machine (through sync)" if synced else "a person (written by hand)"
        return (who, {"change": ch["id"]}, None, at)
    rid = int(ch["reflection_id"])
    refl = q.reflection_of(store, rid)
    proposer = "the offline learner" if refl is None or refl["provider"] in ("offline", "") else (
        f"{refl['provider']}" + (f" (model {refl['model']})" if refl["model"] else ""))
    reason = _reason_for(refl["raw_output"], line) if refl is not None else ""
    approved = re.search(r"approved in review \(P(\d+)\)", ch["note"] or "")
    if approved and not _CITED.search(reason):
        # a wording the person accepted (or edited) in review: its evidence is the proposal's turn
        held = q.proposal_of(store, agent_id, int(approved.group(1)))
        if held is not None:
            try:
                said = str((json.loads(held["action"]) or {}).get("reason") or "")
            except (ValueError, AttributeError):
                said = ""
            reason = " — ".join(x for x in (said, str(held["reason"] or "")) if x) or reason
        proposer += ", approved by the person in review"
    if refl is not None and refl["finished_at"]:
        at = refl["finished_at"]  # to the microsecond: a turn recorded in the same second is told apart
    evidence: dict = {"change": ch["id"], "reflection": rid, "reason": reason[:400]}
    cited = [int(n) for n in _CITED.findall(reason)]
    if cited:
        evidence.update(turn_evidence(store, agent_id, cited[0]))
        if len(cited) > 1:
            evidence["also_turns"] = sorted(set(cited[1:]))
    return proposer, evidence, rid, at


def sync_rules(store: Store, agent: str, home: Path, cfg) -> tuple[list[dict], list[Line]]:
    """Bring the records up to date with the rules in the files; returns (every record, the lines)
    — a new line gets a record with its evidence, a line restored (`history undo` of an archive)
    wakes its record, a line gone from its file leaves its record ``gone``."""
    from ..sync import is_synced

    agent_id = store.agent_id(agent)
    lines = current_lines(agent, home, cfg, store)
    records = [dict(r) for r in q.list_rules(store, agent_id)]
    by_norm: dict[str, dict] = {}
    for r in records:
        by_norm.setdefault(r["norm"], r)
    now = clock.iso()
    matched: set[int] = set()
    new_lines: list[Line] = []
    with store.transaction() as tx:
        for line in lines:
            rec = by_norm.get(norm(line.text))
            if rec is None or rec["id"] in matched:
                rec = _reworded(records, matched, line)
            if rec is None:
                new_lines.append(line)
                continue
            matched.add(rec["id"])
            changes: dict[str, object] = {}
            if rec["text"] != line.text or rec["target"] != line.target:
                changes.update(text=line.text, norm=norm(line.text), target=line.target)
            if rec["status"] in ("archived", "gone"):
                changes.update(status="active", last_relevant_at=now, archived_change=None)
            if changes:
                q.update_rule(tx, rec["id"], **changes, updated_at=now)
                rec.update(changes)
        for rec in records:
            if rec["id"] not in matched and rec["status"] in LIVE:
                q.update_rule(tx, rec["id"], status="gone", updated_at=now)
                rec["status"] = "gone"
    synced = is_synced(agent, home) if new_lines else False
    for line in new_lines:
        proposer, evidence, rid, at = _origin(store, agent_id, line, synced)
        mark = _turn_before(store, agent_id, at)
        with store.transaction() as tx:
            rid_new = q.insert_rule(tx, agent_id, kind=line.kind, target=line.target, text=line.text,
                                    norm=norm(line.text), at=at or now, watermark=mark, reflection_id=rid,
                                    proposer=proposer, evidence=json.dumps(evidence, ensure_ascii=False))
        rec = q.get_rule(store, rid_new)
        if rec is not None:
            records.append(dict(rec))
    return records, lines


def _reworded(records: list[dict], matched: set[int], line: Line) -> dict | None:
    """The unmatched record of the same file this line is a rewording of (most words shared)."""
    best, score = None, 0.0
    for r in records:
        if r["id"] in matched or r["kind"] != line.kind or (line.kind == "skill" and r["target"] != line.target):
            continue
        s = similar(r["text"], line.text)
        if s >= 0.8 and s > score:
            best, score = r, s
    return best


def _turn_before(store: Store, agent_id: int, at: str | None) -> int:
    """The last turn recorded at or before ``at`` (all of them when ``at`` is unknown)."""
    return q.last_turn_id(store, agent_id) if at is None else q.turn_before(store, agent_id, at)
