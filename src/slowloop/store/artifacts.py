"""The ledger's data access for what slowloop learned and how it is used: every SQL statement the
history of learned files, the skill library and its metrics, the session bootstrap, the review of
held proposals, authorship and recall's reading of turns run against the ledger.

Modules above this one call named functions and never see SQL, so they do not know which
database they talk to. Rows come back as plain ``dict``\\ s (or as the values asked for), never
as a driver's row type.

Two kinds of functions:

* **reads** take the :class:`~slowloop.store.Store`; inside an open transaction they see its
  writes (the store has one connection);
* **writes** that a caller composes with others take the open transaction, ``tx``, so what is
  atomic stays atomic::

      with store.transaction() as tx:
          cid = artifacts.insert_change(tx, agent_id, ...)
          artifacts.mark_undone(tx, [old], by=cid)

  A write that stands alone (``record_invocation``, ``record_edits``,
  ``decide_proposal``) takes the store and opens its own transaction, which joins the caller's
  when there is one.

No function here runs a query per item of a list: lists of paths or skills are one query
(chunked under the database's limit on bound parameters).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

from .db import Store

__all__ = [
    # changes
    "latest_changes", "hold_changes", "insert_change", "mark_undone", "list_changes", "get_change",
    "latest_effective_changes", "reflection_changes", "change_texts", "change_actors",
    # invocations, edits, impressions, metrics
    "record_invocation", "last_invocation", "skills_read_in_turn", "skill_usage", "record_edits",
    "skill_counts",
    # proposals
    "insert_proposal", "list_proposals", "get_proposal", "decide_proposal",
    # turns (recall)
    "turns_since", "turns_for_recall", "turn_ids", "turn_count",
]

Row = dict[str, Any]

#: bound parameters per statement when a list is spelled out as ``IN (?, ?, …)``
_CHUNK = 500


class Tx(Protocol):
    """An open write transaction, as ``store.transaction()`` yields it."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...

    def executemany(self, sql: str, parameters: Any, /) -> Any: ...


def _rows(store: Store, sql: str, params: Sequence[Any] = ()) -> list[Row]:
    return [dict(r) for r in store.query(sql, params)]


def _chunks(items: Iterable[Any]) -> Iterator[list[Any]]:
    items = list(dict.fromkeys(items))  # unique, in order
    for start in range(0, len(items), _CHUNK):
        yield items[start:start + _CHUNK]


def _marks(n: int) -> str:
    return ", ".join("?" * n)


# -- changes: every write to a learned file (history, undo, authorship) -----------------------

def latest_changes(store: Store, agent_id: int,
                   paths: Iterable[str] | None = None) -> dict[str, tuple[str | None, str]]:
    """path → (after text, kind) of the newest recorded change of each path (or of ``paths``)."""
    if paths is None:
        rows = _rows(store, "SELECT path, after, kind FROM changes WHERE id IN "
                            "(SELECT MAX(id) FROM changes WHERE agent_id = ? GROUP BY path)",
                     (agent_id,))
    else:
        rows = []
        for chunk in _chunks(paths):
            rows += _rows(store, "SELECT path, after, kind FROM changes WHERE id IN "
                                 "(SELECT MAX(id) FROM changes WHERE agent_id = ? AND path IN "
                                 f"({_marks(len(chunk))}) GROUP BY path)", (agent_id, *chunk))
    return {r["path"]: (r["after"], r["kind"]) for r in rows}


def hold_changes(store: Store, agent_id: int) -> None:
    """Inside a transaction that reads the agent's latest changes and then records new ones:
    other processes doing the same for this agent wait until it ends (on SQLite the write
    transaction already excludes them)."""
    store.lock(f"changes:{agent_id}")


def insert_change(tx: Tx, agent_id: int, *, at: str, kind: str, target: str, op: str, actor: str,
                  reflection_id: int | None, path: str, before: str | None, after: str | None,
                  note: str) -> int:
    """Record one change to a learned file; returns its id."""
    cur = tx.execute(
        "INSERT INTO changes(agent_id, at, kind, target, op, actor, reflection_id, path, before, "
        "after, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (agent_id, at, kind, target, op, actor, reflection_id, path, before, after, note))
    return int(cur.lastrowid)


def mark_undone(tx: Tx, change_ids: Iterable[int], *, by: int) -> None:
    """Mark ``change_ids`` as undone by the change ``by``."""
    for chunk in _chunks(int(i) for i in change_ids):
        tx.execute(f"UPDATE changes SET undone_by = ? WHERE id IN ({_marks(len(chunk))})",
                   (by, *chunk))


def list_changes(store: Store, agent_id: int, *, limit: int,
                 include_touches: bool = False) -> list[Row]:
    """The newest ``limit`` changes, newest first; ``touch`` rows only when asked for."""
    where = "" if include_touches else " AND op != 'touch'"
    return _rows(store, f"SELECT * FROM changes WHERE agent_id = ?{where} ORDER BY id DESC LIMIT ?",
                 (agent_id, int(limit)))


def get_change(store: Store, agent_id: int | None, change_id: int) -> Row | None:
    """One change of the agent, or ``None``."""
    rows = _rows(store, "SELECT * FROM changes WHERE id = ? AND agent_id = ?",
                 (int(change_id), agent_id))
    return rows[0] if rows else None


def latest_effective_changes(store: Store, agent_id: int, paths: Iterable[str]) -> dict[str, Row]:
    """path → the newest change of each of ``paths`` that is not a ``touch`` (paths without one
    are left out)."""
    out: dict[str, Row] = {}
    for chunk in _chunks(paths):
        for r in _rows(store, "SELECT * FROM changes WHERE id IN (SELECT MAX(id) FROM changes "
                              f"WHERE agent_id = ? AND op != 'touch' AND path IN "
                              f"({_marks(len(chunk))}) GROUP BY path)", (agent_id, *chunk)):
            out[r["path"]] = r
    return out


def reflection_changes(store: Store, agent_id: int | None, reflection_id: int) -> list[Row]:
    """The changes of one reflection not undone yet (``touch`` rows left out), oldest first."""
    return _rows(store, "SELECT * FROM changes WHERE agent_id = ? AND reflection_id = ? "
                        "AND undone_by IS NULL AND op != 'touch' ORDER BY id",
                 (agent_id, int(reflection_id)))


def change_texts(store: Store, agent_id: int, path: str) -> list[Row]:
    """``actor``, ``before`` and ``after`` of every change of ``path``, newest first."""
    return _rows(store, "SELECT actor, before, after FROM changes WHERE agent_id = ? AND path = ? "
                        "ORDER BY id DESC", (agent_id, path))


def change_actors(store: Store, agent_id: int, paths: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """path → (actor, op) of every change of it, oldest first (paths never changed: absent)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for chunk in _chunks(paths):
        for r in store.query(f"SELECT path, actor, op FROM changes WHERE agent_id = ? AND path IN "
                             f"({_marks(len(chunk))}) ORDER BY id", (agent_id, *chunk)):
            out.setdefault(r["path"], []).append((r["actor"], r["op"]))
    return out


# -- invocations, edits, impressions: how skills are used (SPEC §1.8) -------------------------

def record_invocation(store: Store, agent_id: int, skill: str, *, at: str, source: str,
                      turn_id: int | None) -> None:
    """One read of a skill (a second read of the same skill in the same turn is not counted)."""
    with store.transaction() as tx:
        tx.execute("INSERT INTO invocations(agent_id, skill, at, source, turn_id) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", (agent_id, skill, at, source, turn_id))


def last_invocation(store: Store, agent_id: int, skill: str | None = None) -> Row | None:
    """``skill`` and ``turn_id`` of the agent's newest read (of ``skill``, when given)."""
    if skill is None:
        rows = _rows(store, "SELECT skill, turn_id FROM invocations WHERE agent_id = ? "
                            "ORDER BY id DESC LIMIT 1", (agent_id,))
    else:
        rows = _rows(store, "SELECT skill, turn_id FROM invocations WHERE agent_id = ? AND skill = ? "
                            "ORDER BY id DESC LIMIT 1", (agent_id, skill))
    return rows[0] if rows else None


def skills_read_in_turn(store: Store, agent_id: int, turn_id: int) -> list[str]:
    """The skills read during one turn, by name."""
    return [r["skill"] for r in store.query(
        "SELECT DISTINCT skill FROM invocations WHERE agent_id = ? AND turn_id = ? ORDER BY skill",
        (agent_id, turn_id))]


def skill_usage(store: Store, agent_id: int) -> dict[str, tuple[int, str | None]]:
    """skill → (number of reads, time of the last read), for every skill the agent read."""
    return {r["skill"]: (int(r["n"]), r["last"]) for r in store.query(
        "SELECT skill, COUNT(*) AS n, MAX(at) AS last FROM invocations WHERE agent_id = ? "
        "GROUP BY skill", (agent_id,))}


def record_edits(store: Store, agent_id: int, skills: Iterable[str], *, at: str,
                 turn_id: int | None, note: str, source: str = "explicit") -> None:
    """One edit-after-use per skill, all in one transaction."""
    with store.transaction() as tx:
        tx.executemany("INSERT INTO edits(agent_id, skill, at, source, turn_id, note) "
                       "VALUES (?, ?, ?, ?, ?, ?)",
                       [(agent_id, s, at, source, turn_id, note) for s in skills])


def skill_counts(store: Store, agent_id: int) -> dict[str, Row]:
    """skill → the counts its metrics are computed from, for every skill of the agent at once:

    ``impressions``; ``invocations`` and ``last`` (time of the newest); ``edits`` (edits about a
    turn count once per turn, an edit without a turn once on its own; sources ``explicit`` and
    ``correction``); ``judged`` (invocations tied to a turn that was not aborted) and
    ``ineffective`` (those whose turn ended in a real error). Four grouped queries in all.
    """
    counts: dict[str, Row] = {}

    def slot(skill: str) -> Row:
        return counts.setdefault(skill, {"impressions": 0, "invocations": 0, "edits": 0,
                                         "ineffective": 0, "judged": 0, "last": None})

    for r in store.query("SELECT skill, COUNT(*) AS n FROM impressions WHERE agent_id = ? "
                         "GROUP BY skill", (agent_id,)):
        slot(r["skill"])["impressions"] = int(r["n"])
    for skill, (n, last) in skill_usage(store, agent_id).items():
        s = slot(skill)
        s["invocations"] = n
        s["last"] = last
    for r in store.query(
            "SELECT skill, COUNT(DISTINCT CASE WHEN turn_id IS NULL THEN 'e' || id "
            "ELSE 't' || turn_id END) AS n FROM edits "
            "WHERE agent_id = ? AND skill IS NOT NULL AND source IN ('explicit', 'correction') "
            "GROUP BY skill", (agent_id,)):
        slot(r["skill"])["edits"] = int(r["n"])
    for r in store.query(
            "SELECT i.skill AS skill, COUNT(*) AS judged, "
            "SUM(CASE WHEN t.ended_in_real_error = 1 THEN 1 ELSE 0 END) AS bad "
            "FROM invocations i JOIN turns t ON t.id = i.turn_id "
            "WHERE i.agent_id = ? AND t.aborted = 0 GROUP BY i.skill", (agent_id,)):
        s = slot(r["skill"])
        s["judged"] = int(r["judged"])
        s["ineffective"] = int(r["bad"] or 0)
    return counts


# -- proposals: actions held for a person's review --------------------------------------------

def insert_proposal(tx: Tx, agent_id: int, reflection_id: int | None, *, at: str, action: str,
                    reason: str) -> int:
    """Hold one action (``action`` as JSON) with the reason it waits; returns the proposal id."""
    return int(tx.execute(
        "INSERT INTO proposals(agent_id, reflection_id, at, action, reason) VALUES (?, ?, ?, ?, ?)",
        (agent_id, reflection_id, at, action, reason)).lastrowid)


def changes_after(store: Store, agent_id: int, path: str, after_id: int) -> list[Row]:
    """The recorded changes of one file after change ``after_id`` (touches left out), oldest first."""
    return _rows(store, "SELECT * FROM changes WHERE agent_id = ? AND path = ? AND id > ? AND op != 'touch' "
                        "ORDER BY id", (agent_id, path, after_id))


def note_on_proposal(tx: Tx, proposal_id: int, reason: str) -> None:
    """Replace a pending proposal's reason (a repeat of what it waits for adds to it)."""
    tx.execute("UPDATE proposals SET reason = ? WHERE id = ? AND status = 'pending'", (reason, proposal_id))


def list_proposals(store: Store, agent_id: int, *, include_decided: bool = False) -> list[Row]:
    """The agent's proposals, oldest first: pending ones, or all with ``include_decided``."""
    where = "" if include_decided else " AND status = 'pending'"
    return _rows(store, f"SELECT * FROM proposals WHERE agent_id = ?{where} ORDER BY id", (agent_id,))


def get_proposal(store: Store, agent_id: int, proposal_id: int) -> Row | None:
    rows = _rows(store, "SELECT * FROM proposals WHERE id = ? AND agent_id = ?",
                 (proposal_id, agent_id))
    return rows[0] if rows else None


def decide_proposal(store: Store, proposal_id: int, *, status: str, decided_at: str,
                    outcome: str) -> None:
    with store.transaction() as tx:
        tx.execute("UPDATE proposals SET status = ?, decided_at = ?, outcome = ? WHERE id = ?",
                   (status, decided_at, outcome, proposal_id))


# -- turns, as recall indexes them ------------------------------------------------------------

def turns_since(store: Store, agent_id: int, after_id: int, after_updated: str
                ) -> list[tuple[int, str]]:
    """``(id, updated_at)`` of the turns added after ``after_id`` or rewritten after
    ``after_updated`` (a grown session), in id order; ``turns_for_recall`` reads them a page at a
    time."""
    return [(int(r[0]), r[1] or "") for r in store.query(
        "SELECT id, updated_at FROM turns WHERE agent_id = ? AND (id > ? OR updated_at >= ?) "
        "ORDER BY id", (agent_id, after_id, after_updated))]


def turns_for_recall(store: Store, ids: Sequence[int]) -> list[Row]:
    """What recall indexes of the turns ``ids``: ``id, user_text, data, started_at, recorded_at,
    updated_at, session_id``, in id order (batched)."""
    rows: list[Row] = []
    for chunk in _chunks(list(ids)):
        rows += _rows(store, "SELECT id, user_text, data, started_at, recorded_at, updated_at, "
                             f"session_id FROM turns WHERE id IN ({_marks(len(chunk))}) ORDER BY id",
                      chunk)
    return rows


def turn_ids(store: Store, agent_id: int) -> set[int]:
    return {int(r[0]) for r in store.query("SELECT id FROM turns WHERE agent_id = ?", (agent_id,))}


def turn_count(store: Store, agent_id: int) -> int:
    return int(store.query("SELECT COUNT(*) FROM turns WHERE agent_id = ?", (agent_id,))[0][0])
