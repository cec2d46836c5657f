"""Ledger queries for learned rules and their outcomes (``slowloop.rules`` reads and writes only
through these). Reads take the store; writes a caller composes take the open transaction."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .artifacts import Row, Tx, _chunks, _marks, _rows
from .db import Store

__all__ = ["list_rules", "insert_rule", "update_rule", "record_outcomes", "outcome_counts", "reflection_of",
           "last_turn_id", "memo_changes", "previous_of", "get_rule", "change_at", "turn_before",
           "violations_in", "escalation_mark", "news_since",
           "outcomes", "turns_after", "turns_upto", "watermark", "set_watermark"]

# the columns ``update_rule`` may set (a name never comes from outside this list)
_UPDATABLE = frozenset({"text", "norm", "status", "escalated_at", "escalated_turn", "reported_turn",
                        "archived_change", "last_relevant_at", "last_seen_at", "updated_at",
                        "target", "evidence", "proposer", "watermark", "judged_before"})


def list_rules(store: Store, agent_id: int, statuses: Sequence[str] | None = None) -> list[Row]:
    """The agent's rules, oldest first (only those in ``statuses`` when given)."""
    if statuses:
        return _rows(store, f"SELECT * FROM rules WHERE agent_id = ? AND status IN "
                            f"({_marks(len(statuses))}) ORDER BY id", (agent_id, *statuses))
    return _rows(store, "SELECT * FROM rules WHERE agent_id = ? ORDER BY id", (agent_id,))


def insert_rule(tx: Tx, agent_id: int, *, kind: str, target: str, text: str, norm: str, at: str,
                watermark: int, reflection_id: int | None, proposer: str, evidence: str) -> int:
    cur = tx.execute(
        "INSERT INTO rules(agent_id, kind, target, text, norm, created_at, watermark, reflection_id, "
        "proposer, evidence, status, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?)",
        (agent_id, kind, target, text, norm, at, watermark, reflection_id, proposer, evidence, at))
    return int(cur.lastrowid)


def update_rule(tx: Tx, rule_id: int, **values: Any) -> None:
    bad = set(values) - _UPDATABLE
    if bad:
        raise ValueError(f"rules has no updatable column {sorted(bad)[0]!r}")
    if values:
        cols = ", ".join(f"{k} = ?" for k in values)
        tx.execute(f"UPDATE rules SET {cols} WHERE id = ?", (*values.values(), rule_id))


def record_outcomes(tx: Tx, rows: Iterable[tuple[int, int, str, str, str, str]]) -> None:
    """(rule id, turn id, phase, outcome, at, detail) rows; one already recorded is kept as it is."""
    tx.executemany("INSERT INTO rule_outcomes(rule_id, turn_id, phase, outcome, at, detail) "
                   "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", list(rows))


def outcome_counts(store: Store, rule_ids: Iterable[int]) -> dict[int, dict[str, dict[str, int]]]:
    """rule id → phase → outcome → number of turns."""
    out: dict[int, dict[str, dict[str, int]]] = {}
    for chunk in _chunks(int(i) for i in rule_ids):
        for r in store.query(f"SELECT rule_id, phase, outcome, COUNT(*) AS n FROM rule_outcomes "
                             f"WHERE rule_id IN ({_marks(len(chunk))}) GROUP BY rule_id, phase, outcome",
                             tuple(chunk)):
            out.setdefault(int(r["rule_id"]), {}).setdefault(r["phase"], {})[r["outcome"]] = int(r["n"])
    return out


def outcomes(store: Store, agent_id: int, *, rule_id: int | None = None,
             kinds: Sequence[str] = ()) -> list[Row]:
    """Outcome rows of the agent's rules (one rule's, of some outcomes), oldest turn first."""
    sql = ("SELECT o.rule_id, o.turn_id, o.phase, o.outcome, o.at, o.detail, t.session_id "
           "FROM rule_outcomes o JOIN rules r ON r.id = o.rule_id JOIN turns t ON t.id = o.turn_id "
           "WHERE r.agent_id = ?")
    params: list[Any] = [agent_id]
    if rule_id is not None:
        sql += " AND o.rule_id = ?"
        params.append(rule_id)
    if kinds:
        sql += f" AND o.outcome IN ({_marks(len(kinds))})"
        params += list(kinds)
    return _rows(store, sql + " ORDER BY o.turn_id, o.id", params)


_TURN_COLS = "id, source, idx, session_id, started_at, recorded_at, updated_at, corrected, data"


def turns_after(store: Store, agent_id: int, after_id: int, after_updated: str, *,
                limit: int) -> list[Row]:
    """Turns added after ``after_id`` or rewritten since ``after_updated``, in id order."""
    return _rows(store, f"SELECT {_TURN_COLS} FROM turns WHERE agent_id = ? AND (id > ? OR updated_at > ?) "
                        "ORDER BY id LIMIT ?", (agent_id, after_id, after_updated, int(limit)))


def turns_upto(store: Store, agent_id: int, upto_id: int, *, limit: int) -> list[Row]:
    """The newest ``limit`` turns up to ``upto_id``, in id order (a new rule's "before")."""
    rows = _rows(store, f"SELECT {_TURN_COLS} FROM turns WHERE agent_id = ? AND id <= ? "
                        "ORDER BY id DESC LIMIT ?", (agent_id, upto_id, int(limit)))
    return rows[::-1]


def watermark(store: Store, agent_id: int) -> tuple[int, str]:
    """(last turn id, last updated_at) the outcomes were computed up to."""
    raw = store.get_meta(f"rules.seen.{agent_id}") or "0|"
    tid, _, upd = raw.partition("|")
    return int(tid or 0), upd


def set_watermark(tx: Tx, agent_id: int, turn_id: int, updated_at: str) -> None:
    tx.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET "
               "value = excluded.value", (f"rules.seen.{agent_id}", f"{turn_id}|{updated_at}"))


def previous_of(store: Store, agent_id: int, rows: Sequence[Row]) -> dict[int, Row]:
    """turn id → the turn before it in its conversation (see ``ledger.previous_turns``)."""
    from .ledger import previous_turns

    before = previous_turns(store, agent_id, ((r["source"], r["idx"], r["session_id"]) for r in rows))
    out: dict[int, Row] = {}
    for r in rows:
        prev = before.get((r["source"], int(r["idx"]), r["session_id"] or ""))
        if prev is not None:
            out[int(r["id"])] = dict(prev)
    return out


def reflection_of(store: Store, reflection_id: int) -> Row | None:
    """``provider``, ``model``, ``raw_output`` and ``finished_at`` of one reflection."""
    rows = _rows(store, "SELECT id, provider, model, raw_output, finished_at FROM reflections WHERE id = ?",
                 (int(reflection_id),))
    return rows[0] if rows else None


def last_turn_id(store: Store, agent_id: int) -> int:
    return int(store.query("SELECT COALESCE(MAX(id), 0) FROM turns WHERE agent_id = ?", (agent_id,))[0][0])


def memo_changes(store: Store, agent_id: int, path: str) -> list[Row]:
    """``id``, ``actor``, ``reflection_id``, ``before``, ``after`` of every change of one file, oldest first."""
    return _rows(store, "SELECT id, actor, reflection_id, before, after, note FROM changes WHERE agent_id = ? "
                        "AND path = ? AND op != 'touch' ORDER BY id", (agent_id, path))


def proposal_of(store: Store, agent_id: int, proposal_id: int) -> Row | None:
    """A held proposal's ``action`` (JSON) and ``reason``: what an approval in review applied."""
    rows = _rows(store, "SELECT action, reason FROM proposals WHERE id = ? AND agent_id = ?",
                 (int(proposal_id), agent_id))
    return rows[0] if rows else None


def get_rule(store: Store, rule_id: int) -> Row | None:
    rows = _rows(store, "SELECT * FROM rules WHERE id = ?", (int(rule_id),))
    return rows[0] if rows else None


def change_at(store: Store, change_id: int) -> str | None:
    rows = store.query("SELECT at FROM changes WHERE id = ?", (int(change_id),))
    return rows[0]["at"] if rows else None


def turn_before(store: Store, agent_id: int, at: str) -> int:
    """The last turn of the agent recorded at or before ``at`` (0: none)."""
    return int(store.query("SELECT COALESCE(MAX(id), 0) FROM turns WHERE agent_id = ? AND recorded_at <= ?",
                           (agent_id, at))[0][0])


def violations_in(store: Store, turn_ids: Iterable[int]) -> set[tuple[int, int]]:
    """(rule id, turn id) of the violations recorded in ``turn_ids``."""
    out: set[tuple[int, int]] = set()
    for chunk in _chunks(int(i) for i in turn_ids):
        out |= {(int(r["rule_id"]), int(r["turn_id"])) for r in store.query(
            f"SELECT rule_id, turn_id FROM rule_outcomes WHERE outcome = 'violated' AND turn_id IN "
            f"({_marks(len(chunk))})", tuple(chunk))}
    return out


def escalation_mark(store: Store, agent_id: int) -> str:
    """What the escalated rules at the top of a session start depend on, in one short string."""
    r = store.query("SELECT COUNT(*) AS n, MAX(escalated_at) AS e, MAX(reported_turn) AS t, MAX(id) AS i "
                    "FROM rules WHERE agent_id = ? AND status = 'escalated'", (agent_id,))[0]
    return f"{r['n']}:{r['e']}:{r['t']}:{r['i']}"


def news_since(store: Store, agent_id: int, *, reported_after: int, archived_after: int) -> tuple[list[Row], list[Row]]:
    """(rules broken again after they were escalated, past turn ``reported_after``; rules archived
    by a change past ``archived_after``), for a person's one-line news at a session start."""
    broken = _rows(store, "SELECT text, reported_turn FROM rules WHERE agent_id = ? AND reported_turn > ? "
                          "AND status = 'escalated' ORDER BY reported_turn", (agent_id, reported_after))
    archived = _rows(store, "SELECT text, archived_change FROM rules WHERE agent_id = ? AND status = 'archived' "
                            "AND archived_change > ? ORDER BY archived_change", (agent_id, archived_after))
    return broken, archived
