"""The ledger's data-access layer: every SQL statement the observing and reflecting modules run.

Modules above this one (ingest, the hooks, ``watch``, the scheduler, the bundle, the reflection
cycle, the CLI) call the named functions here and never write SQL. The SQL here is what SQLite and
PostgreSQL both run (``ON CONFLICT DO NOTHING``, not ``INSERT OR IGNORE``; ``CASE``, not the
two-argument ``MAX``; ``"offset"`` quoted), so the one module serves both (``store.postgres``
translates the placeholders).

Conventions:

- Every function takes the :class:`~slowloop.store.Store` first. A write that reads before it
  writes first takes ``store.lock(key)`` on what it reads (the agent, the lease), so concurrent
  writers on a PostgreSQL ledger are serialized where SQLite's single write lock serialized
  them. A write runs in one transaction of its own; a caller that composes several writes into one unit of work wraps them in
  ``with store.transaction():`` — the functions then join that transaction (it nests).
- Rows come back as :class:`Row` (read by column name) or as small dataclasses; reads that serve
  many turns take the list of ids and answer in a few batched queries, never one per turn.
- This module imports only the standard library and ``slowloop.clock`` at load time: the hooks'
  fast path imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .. import clock

if TYPE_CHECKING:
    from .db import Store

# SQLite's limit on bound parameters is 999 on old builds: stay well under it.
CHUNK = 500


class Row(Protocol):
    """A row read by column name (``row["id"]``); ``dict(row)`` gives a plain dict."""

    def __getitem__(self, key: str, /) -> Any: ...

    def keys(self) -> list[str]: ...


def _chunks(ids: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


def _marks(n: int) -> str:
    return ",".join("?" * n)


# -- agents -----------------------------------------------------------------------------------

def agent_by_id(store: Store, agent_id: int) -> Row | None:
    """The ``agents`` row of ``agent_id`` (None when there is none)."""
    rows = store.query("SELECT * FROM agents WHERE id = ?", (agent_id,))
    return rows[0] if rows else None


def read_point(store: Store, agent_id: int) -> str:
    """Inside a transaction: wait for the agent's writes in flight, then the moment from which a
    reflection's reading counts (turns updated after it are new to the next reflection)."""
    store.lock(f"agent:{agent_id}")
    return clock.iso(micro=True)


def set_last_attempt(store: Store, agent_id: int, at: str) -> None:
    """Record a reflection attempt (the cooldown counts from it)."""
    with store.transaction() as db:
        db.execute("UPDATE agents SET last_attempt_at = ? WHERE id = ?", (at, agent_id))


def maybe_due_agents(store: Store, *, forced_before: str) -> set[int]:
    """The ids of the agents a reflection may be due for, in one query — a superset the scheduler
    then judges exactly (times compared to the second, cooldowns not looked at), so a pass over a
    fleet reads the pending work of these agents only. An agent left out is not due: it has
    nothing new, or only new turns below the threshold and no person's edit, and it was reflected
    on (or first seen) after ``forced_before`` (an ISO time: older ones are forced when dirty).
    """
    since = "substr(a.last_reflected_at, 1, 19)"
    new = "t.id > a.last_seen_turn_id"
    grown = f"(a.last_reflected_at IS NOT NULL AND t.updated_at >= {since})"
    edit = ("EXISTS (SELECT 1 FROM edits e WHERE e.agent_id = a.id AND "
            f"(a.last_reflected_at IS NULL OR e.at >= {since}))")
    return {int(r[0]) for r in store.query(
        "SELECT a.id FROM agents a WHERE "
        f"EXISTS (SELECT 1 FROM turns t WHERE t.agent_id = a.id AND t.reflect = 1 AND ({new} OR {grown})) "
        f"OR {edit} "
        "OR (substr(COALESCE(a.last_reflected_at, a.created_at), 1, 19) <= ? AND "
        f"EXISTS (SELECT 1 FROM turns t WHERE t.agent_id = a.id AND ({new} OR {grown})))",
        (forced_before[:19],))}


def turn_counts(store: Store) -> dict[int, tuple[int, str | None]]:
    """agent id → (turns recorded, when the last one was recorded), for every agent with turns."""
    return {int(r["agent_id"]): (int(r["turns"]), r["last_turn_at"]) for r in store.query(
        "SELECT agent_id, COUNT(*) AS turns, MAX(recorded_at) AS last_turn_at"
        " FROM turns GROUP BY agent_id")}


def turn_activity(store: Store, agent_id: int) -> tuple[int, str | None]:
    """(turns recorded, when the last one ended or started) for one agent."""
    r = store.query("SELECT COUNT(*) AS n, MAX(COALESCE(ended_at, started_at, recorded_at)) AS last "
                    "FROM turns WHERE agent_id = ?", (agent_id,))[0]
    return int(r["n"]), r["last"]


def turns_per_day(store: Store, agent_id: int) -> list[tuple[str, int, int]]:
    """(day ``YYYY-MM-DD``, turns, turns the person corrected) for each day with a turn, by the
    turn's own time (else when it was recorded)."""
    return [(r["day"], int(r["n"]), int(r["c"] or 0)) for r in store.query(
        "SELECT substr(COALESCE(started_at, recorded_at), 1, 10) AS day, COUNT(*) AS n,"
        " SUM(corrected) AS c FROM turns WHERE agent_id = ? GROUP BY day ORDER BY day", (agent_id,))]


# -- turns: recording -------------------------------------------------------------------------

class TurnRecord(NamedTuple):
    """The columns of one ``turns`` row as ingest computes them (``data``: the Turn as JSON).

    (Named tuples, not dataclasses, here: this module is imported on the hooks' fast path, and a
    dataclass costs milliseconds to define.)
    """

    agent_id: int
    key: str
    content_hash: str
    source: str
    format: str
    session_id: str | None
    idx: int
    started_at: str | None
    ended_at: str | None
    updated_at: str
    user_text: str
    tool_calls: int
    corrected: int
    aborted: int
    rejected: int
    recovered: int
    ended_in_real_error: int
    score: float
    threshold: float
    reflect: int
    complete: int
    data: str


_TURN_FIELDS = TurnRecord._fields
_TURN_UPDATE = _TURN_FIELDS[2:]  # all but agent_id and key, which identify the row
_INSERT_TURN = (f"INSERT INTO turns({', '.join(_TURN_FIELDS)}, recorded_at)"
                f" VALUES ({_marks(len(_TURN_FIELDS) + 1)})")
_UPDATE_TURN = f"UPDATE turns SET {', '.join(n + '=?' for n in _TURN_UPDATE)} WHERE id=?"


def record_turn(store: Store, rec: TurnRecord, *,
                errors: Iterable[tuple[str, str | None, str, str, int | None]],
                signals: Iterable[tuple[str, float, str]], skills: Iterable[str],
                used_at: str) -> tuple[int, str]:
    """Insert or update one turn with what hangs off it, in one transaction.

    ``errors``: (kind, tool, evidence, excerpt, step); ``signals``: (name, weight, why);
    ``skills``: the skills read during the turn, each also counted as an invocation at
    ``used_at``. A turn already recorded with the same content hash is left alone. Returns
    (turn id, ``"new"`` | ``"updated"`` | ``"unchanged"``).
    """
    with store.transaction() as db:
        store.lock(f"agent:{rec.agent_id}")  # hooks and watch may record the same turn at once
        # Stamped under the agent's lock: a reflection reads under the same lock and counts
        # updates after the moment it read, so a write in flight then is never missed (and ids,
        # drawn under the lock, grow in commit order for the agent: the watermark holds too).
        rec = rec._replace(updated_at=clock.iso(micro=True))
        row = db.execute("SELECT id, content_hash FROM turns WHERE agent_id = ? AND key = ?",
                         (rec.agent_id, rec.key)).fetchone()
        if row is not None and row["content_hash"] == rec.content_hash:
            return int(row["id"]), "unchanged"
        if row is None:
            cur = db.execute(_INSERT_TURN, (*rec, rec.updated_at))  # recorded when first updated
            assert cur.lastrowid is not None  # set by the INSERT that just ran
            turn_id, status = cur.lastrowid, "new"
        else:
            turn_id, status = int(row["id"]), "updated"
            db.execute(_UPDATE_TURN, (*rec[2:], turn_id))
            for table in ("errors", "signals", "turn_skills"):
                db.execute(f"DELETE FROM {table} WHERE turn_id = ?", (turn_id,))
        db.executemany(
            "INSERT INTO errors(turn_id, kind, tool, evidence, excerpt, step) VALUES (?,?,?,?,?,?)",
            [(turn_id, *e) for e in errors])
        db.executemany("INSERT INTO signals(turn_id, name, weight, why) VALUES (?,?,?,?)",
                       [(turn_id, *s) for s in signals])
        for skill in dict.fromkeys(skills):
            db.execute("INSERT INTO turn_skills(turn_id, skill) VALUES (?, ?) ON CONFLICT DO NOTHING",
                       (turn_id, skill))
            db.execute("INSERT INTO invocations(agent_id, skill, at, source, turn_id)"
                       " VALUES (?, ?, ?, 'transcript', ?) ON CONFLICT DO NOTHING",
                       (rec.agent_id, skill, used_at, turn_id))
    return turn_id, status


def record_correction_edits(store: Store, agent_id: int, turn_id: int, *, source: str,
                            idx: int, session_id: str | None, at: str, note: str) -> None:
    """An edit-after-use (source ``correction``) of every skill the turn before ``turn_id`` in
    the same conversation read, unless already recorded for this turn."""
    with store.transaction() as db:
        store.lock(f"agent:{agent_id}")
        prev = db.execute(
            "SELECT id FROM turns WHERE agent_id = ? AND source = ? AND idx = ? "
            "AND COALESCE(session_id, '') = COALESCE(?, '')",
            (agent_id, source, idx - 1, session_id)).fetchone()
        if prev is None:
            return
        for (skill,) in db.execute("SELECT skill FROM turn_skills WHERE turn_id = ?",
                                   (prev["id"],)).fetchall():
            exists = db.execute("SELECT 1 FROM edits WHERE turn_id = ? AND skill = ? AND "
                                "source = 'correction'", (turn_id, skill)).fetchone()
            if not exists:
                db.execute("INSERT INTO edits(agent_id, skill, at, source, turn_id, note) "
                           "VALUES (?, ?, ?, 'correction', ?, ?)", (agent_id, skill, at, turn_id, note))


# -- turns: reading (scheduler, bundle, distiller) ---------------------------------------------

_PENDING_COLS = "id, session_id, idx, score, reflect, corrected, started_at, recorded_at, updated_at"


def turns_after(store: Store, watermarks: Mapping[int, int]) -> dict[int, list[Row]]:
    """agent id → its turns past its watermark (the dirty gate's new turns), in id order: the
    columns the scheduler needs, not the turn's data. Batched over agents."""
    out: dict[int, list[Row]] = {}
    for chunk in _chunks(list(watermarks.items()), 400):
        values = ",".join("(?,?)" for _ in chunk)
        for r in store.query(
                f"WITH w(w_agent, w_mark) AS (VALUES {values}) SELECT t.agent_id, {_PENDING_COLS} "
                "FROM w JOIN turns t ON t.agent_id = w.w_agent AND t.id > w.w_mark "
                "ORDER BY t.agent_id, t.id", [x for pair in chunk for x in pair]):
            out.setdefault(int(r["agent_id"]), []).append(r)
    return out


def turns_updated_since(store: Store, marks: Mapping[int, tuple[int, str]]) -> dict[int, list[Row]]:
    """agent id → its turns at or below its watermark whose ``updated_at`` is not before its
    ``since`` (a coarse string filter; the caller compares exact times), in id order.
    ``marks``: agent id → (watermark, since). Batched over agents."""
    out: dict[int, list[Row]] = {}
    for chunk in _chunks(list(marks.items()), 300):
        values = ",".join("(?,?,?)" for _ in chunk)
        for r in store.query(
                f"WITH w(w_agent, w_mark, w_since) AS (VALUES {values}) SELECT t.agent_id, "
                f"{_PENDING_COLS} FROM w JOIN turns t ON t.agent_id = w.w_agent "
                "AND t.id <= w.w_mark AND t.updated_at >= w.w_since ORDER BY t.agent_id, t.id",
                [x for aid, (mark, since) in chunk for x in (aid, mark, since)]):
            out.setdefault(int(r["agent_id"]), []).append(r)
    return out


def turns_by_ids(store: Store, agent_id: int, ids: Sequence[int], *,
                 lessons_only: bool = False) -> list[Row]:
    """The agent's turns among ``ids``, in id order (batched). ``lessons_only``: only turns that
    were corrected, recovered or ended in a real error."""
    where = " AND (corrected = 1 OR recovered = 1 OR ended_in_real_error = 1)" if lessons_only else ""
    rows: list[Row] = []
    for chunk in _chunks(list(ids)):
        rows += store.query(f"SELECT * FROM turns WHERE agent_id = ? AND id IN "
                            f"({_marks(len(chunk))}){where} ORDER BY id", (agent_id, *chunk))
    return rows


def previous_turns(store: Store, agent_id: int, keys: Iterable[tuple[str, int, str | None]]
                   ) -> dict[tuple[str, int, str], Row]:
    """For each (source, idx, session_id), the turn before it in the same conversation (same
    source and session, ``idx - 1``; the first recorded when several match), in batched queries.

    The answer is keyed by ``(source, idx, session_id or "")`` of the asking turn; turns without
    a predecessor are absent. Each row holds every column of ``turns``.
    """
    want = list(dict.fromkeys((s, int(i), sid or "") for s, i, sid in keys if int(i) > 0))
    found: dict[tuple[str, int, str], Row] = {}
    for chunk in _chunks(want, 300):
        values = ",".join("(?,?,?)" for _ in chunk)
        params: list[Any] = [x for s, i, sid in chunk for x in (s, i - 1, sid)]
        for r in store.query(
                f"WITH want(w_source, w_idx, w_sid) AS (VALUES {values}) "
                f"SELECT w.w_source, w.w_idx, w.w_sid, t.* FROM want w JOIN turns t ON "
                "t.agent_id = ? AND t.source = w.w_source AND t.idx = w.w_idx "
                "AND COALESCE(t.session_id, '') = w.w_sid ORDER BY t.id",
                (*params, agent_id)):
            key = (r["w_source"], int(r["w_idx"]) + 1, r["w_sid"])
            found.setdefault(key, r)  # ordered by id: the first recorded wins
    return found


def signals_of(store: Store, turn_ids: Sequence[int], *, name: str | None = None
               ) -> dict[int, list[Row]]:
    """turn id → its signals (name, weight, why) in the order they were recorded; ``name``: only
    that signal. One query per 500 turns."""
    out: dict[int, list[Row]] = {}
    only = " AND name = ?" if name is not None else ""
    for chunk in _chunks(list(turn_ids)):
        for r in store.query(f"SELECT turn_id, name, weight, why FROM signals WHERE turn_id IN "
                             f"({_marks(len(chunk))}){only} ORDER BY turn_id, id",
                             (*chunk, *((name,) if name is not None else ()))):
            out.setdefault(int(r["turn_id"]), []).append(r)
    return out


def errors_of(store: Store, turn_ids: Sequence[int]) -> dict[int, list[Row]]:
    """turn id → its errors (kind, tool, evidence, excerpt, step) in step order. One query per
    500 turns."""
    out: dict[int, list[Row]] = {}
    for chunk in _chunks(list(turn_ids)):
        for r in store.query("SELECT turn_id, kind, tool, evidence, excerpt, step FROM errors "
                             f"WHERE turn_id IN ({_marks(len(chunk))}) "
                             "ORDER BY turn_id, COALESCE(step, -1), id", tuple(chunk)):
            out.setdefault(int(r["turn_id"]), []).append(r)
    return out


# -- edits ------------------------------------------------------------------------------------

def edits_of(store: Store, agent_ids: Sequence[int]) -> dict[int, list[Row]]:
    """agent id → every user edit of that agent, oldest first. Batched over agents."""
    out: dict[int, list[Row]] = {}
    for chunk in _chunks(list(agent_ids)):
        for r in store.query(f"SELECT * FROM edits WHERE agent_id IN ({_marks(len(chunk))}) "
                             "ORDER BY agent_id, at, id", tuple(chunk)):
            out.setdefault(int(r["agent_id"]), []).append(r)
    return out


# -- offsets: incremental reading of growing transcripts ---------------------------------------

class SavedOffset(NamedTuple):
    """Where the next read of a followed file starts, and what the file looked like then."""

    inode: int | None
    size: int
    mtime: float
    offset: int
    head_hash: str
    line: int
    turn_index: int


def _local(store: Store, path: str) -> str:
    """A followed file's identity in the ledger. A file path names a file on one machine: in a
    ledger several machines share, the machine's name goes with it (two laptops' identical
    ``~/.claude/projects/…`` paths are different files)."""
    if not store.shared:
        return path
    import socket

    return f"{socket.gethostname()}:{path}"


def saved_offset(store: Store, agent_id: int, path: str) -> SavedOffset | None:
    path = _local(store, path)
    rows = store.query('SELECT inode, size, mtime, "offset", head_hash, line, turn_index FROM offsets'
                       " WHERE agent_id = ? AND path = ?", (agent_id, path))
    if not rows:
        return None
    r = rows[0]
    return SavedOffset(r["inode"], int(r["size"]), float(r["mtime"]), int(r["offset"]),
                       r["head_hash"], int(r["line"]), int(r["turn_index"]))


def save_offset(store: Store, agent_id: int, path: str, saved: SavedOffset) -> None:
    path = _local(store, path)
    with store.transaction() as db:
        db.execute(
            'INSERT INTO offsets(agent_id, path, inode, size, mtime, "offset", head_hash, line, turn_index)'
            " VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(agent_id, path) DO UPDATE SET inode=excluded.inode,"
            ' size=excluded.size, mtime=excluded.mtime, "offset"=excluded."offset",'
            " head_hash=excluded.head_hash, line=excluded.line, turn_index=excluded.turn_index",
            (agent_id, path, *saved))


def forget_offset(store: Store, agent_id: int, path: str) -> None:
    path = _local(store, path)
    with store.transaction() as db:
        db.execute("DELETE FROM offsets WHERE agent_id = ? AND path = ?", (agent_id, path))


def follower_of(store: Store, path: str, *, other_than: str) -> str | None:
    """The name of an agent other than ``other_than`` that follows ``path``, if any."""
    path = _local(store, path)
    rows = store.query("SELECT a.name FROM offsets o JOIN agents a ON a.id = o.agent_id WHERE o.path = ?"
                       " AND a.name != ? LIMIT 1", (path, other_than))
    return rows[0]["name"] if rows else None


# -- impressions and invocations (the bootstrap) -----------------------------------------------

def record_impressions(store: Store, agent_id: int, skills: Sequence[str], *, at: str,
                       bootstrap_id: str) -> None:
    """One impression per skill a bootstrap showed, in one transaction."""
    with store.transaction() as db:
        db.executemany("INSERT INTO impressions(agent_id, skill, at, bootstrap_id) VALUES (?, ?, ?, ?)",
                       [(agent_id, s, at, bootstrap_id) for s in skills])


def last_invocation_id(store: Store, agent_id: int) -> int | None:
    """The id of the agent's latest invocation (a cheap "did anything get used" fingerprint)."""
    row = store.query("SELECT MAX(id) AS m FROM invocations WHERE agent_id = ?", (agent_id,))
    return row[0]["m"]


# -- reflections ------------------------------------------------------------------------------

def start_reflection(store: Store, agent_id: int, *, started_at: str, provider: str, model: str,
                     sent_to: str, bundle_tokens: int, watermark: int) -> int:
    """A new reflection, status ``running``; returns its id."""
    with store.transaction() as db:
        cur = db.execute(
            "INSERT INTO reflections(agent_id, started_at, status, provider, model, sent_to,"
            " bundle_tokens, watermark) VALUES (?,?,?,?,?,?,?,?)",
            (agent_id, started_at, "running", provider, model, sent_to, bundle_tokens, watermark))
        assert cur.lastrowid is not None
        return int(cur.lastrowid)


def record_answer(store: Store, reflection_id: int, raw_output: str,
                  rejections: Iterable[tuple[str, str]], *, at: str) -> None:
    """What the model answered and the actions rejected, each (action as text, reason)."""
    with store.transaction() as db:
        db.execute("UPDATE reflections SET raw_output = ? WHERE id = ?", (raw_output, reflection_id))
        db.executemany("INSERT INTO rejections(reflection_id, action, reason, at) VALUES (?,?,?,?)",
                       [(reflection_id, action, reason, at) for action, reason in rejections])


def end_dry_run(store: Store, reflection_id: int, *, summary: str, at: str) -> None:
    with store.transaction() as db:
        db.execute("UPDATE reflections SET status = 'dry-run', finished_at = ?, summary = ?"
                   " WHERE id = ?", (at, summary, reflection_id))


def fail_reflection(store: Store, reflection_id: int, error: str, *, at: str,
                    cool_down: int | None = None) -> None:
    """Mark the reflection failed; ``cool_down``: also record the attempt on that agent id (the
    cooldown starts), in the same transaction."""
    with store.transaction() as db:
        db.execute("UPDATE reflections SET status = 'failed', finished_at = ?, error = ? WHERE id = ?",
                   (at, error, reflection_id))
        if cool_down is not None:
            db.execute("UPDATE agents SET last_attempt_at = ? WHERE id = ?", (at, cool_down))


def journal_reflection(store: Store, reflection_id: int, *, plan: str, watermark: int,
                       summary: str) -> None:
    """Write the planned changes (status ``applying``) before any file is touched."""
    with store.transaction() as db:
        db.execute("UPDATE reflections SET status = 'applying', plan = ?, watermark = ?, summary = ?"
                   " WHERE id = ?", (plan, watermark, summary, reflection_id))


def finish_reflection(store: Store, agent_id: int, reflection_id: int, *, status: str,
                      finished_at: str, seen_at: str, watermark: int) -> None:
    """The reflection done and the agent's watermark advanced, in one transaction."""
    with store.transaction() as db:
        db.execute("UPDATE reflections SET status = ?, finished_at = ? WHERE id = ?",
                   (status, finished_at, reflection_id))
        # an offline reflection is no model call: it leaves the model's cooldown where it was
        db.execute("UPDATE agents SET last_reflected_at = ?, last_attempt_at = CASE WHEN (SELECT provider FROM"
                   " reflections WHERE id = ?) = 'offline' AND last_attempt_at IS NOT NULL THEN last_attempt_at"
                   " ELSE ? END, last_seen_turn_id ="
                   " CASE WHEN last_seen_turn_id > ? THEN last_seen_turn_id ELSE ? END WHERE id = ?",
                   (seen_at, reflection_id, finished_at, watermark, watermark, agent_id))


def roll_back_reflection(store: Store, reflection_id: int, error: str, *, at: str) -> None:
    with store.transaction() as db:
        db.execute("UPDATE reflections SET status = 'rolled-back', finished_at = ?, error = ?"
                   " WHERE id = ?", (at, error, reflection_id))


def reflection_started_at(store: Store, reflection_id: int) -> str | None:
    row = store.query("SELECT started_at FROM reflections WHERE id = ?", (reflection_id,))
    return row[0]["started_at"] if row else None


def reflection_summary(store: Store, reflection_id: int) -> str | None:
    row = store.query("SELECT summary FROM reflections WHERE id = ?", (reflection_id,))
    return row[0]["summary"] if row else None


def unfinished_reflections(store: Store, agent_id: int) -> Sequence[Row]:
    """Reflections a crash may have left ``applying`` or ``running``: id, plan, watermark."""
    return store.query("SELECT id, plan, watermark FROM reflections WHERE agent_id = ? AND status IN"
                       " ('applying', 'running')", (agent_id,))


def last_reflection(store: Store, agent_id: int) -> Row | None:
    """The latest reflection that was not a dry run."""
    rows = store.query("SELECT id, status, started_at, finished_at, summary, error, sent_to FROM "
                       "reflections WHERE agent_id = ? AND status != 'dry-run' ORDER BY id DESC LIMIT 1",
                       (agent_id,))
    return rows[0] if rows else None


def applied_reflections(store: Store, agent_id: int, *, limit: int) -> Sequence[Row]:
    """The latest applied reflections (id, finished_at, summary), newest first."""
    return store.query("SELECT id, finished_at, summary FROM reflections WHERE agent_id = ? AND "
                       "status = 'applied' ORDER BY id DESC LIMIT ?", (agent_id, limit))


def reflection_timeline(store: Store, agent_id: int, *, limit: int) -> Sequence[Row]:
    """The latest reflections that applied something, newest first, with who proposed (provider,
    model, where the bundle went) and the last turn their bundle covered."""
    return store.query("SELECT id, started_at, finished_at, status, provider, model, sent_to, summary,"
                       " watermark FROM reflections WHERE agent_id = ? AND status = 'applied'"
                       " ORDER BY id DESC LIMIT ?", (agent_id, limit))


def corrected_turns(store: Store, agent_id: int, *, after_id: int, upto_id: int,
                    limit: int) -> Sequence[Row]:
    """The turns the person corrected with ids in (after_id, upto_id], oldest first."""
    return store.query("SELECT id, source, idx, session_id, started_at, user_text FROM turns"
                       " WHERE agent_id = ? AND corrected = 1 AND id > ? AND id <= ? ORDER BY id LIMIT ?",
                       (agent_id, after_id, upto_id, limit))


# -- changes (history rows a reflection made) --------------------------------------------------

def change_ids(store: Store, reflection_id: int) -> list[int]:
    """The history changes a reflection recorded, in order."""
    return [int(r["id"]) for r in store.query(
        "SELECT id FROM changes WHERE reflection_id = ? ORDER BY id", (reflection_id,))]


def count_changes(store: Store, reflection_id: int) -> int:
    return int(store.query("SELECT COUNT(*) AS n FROM changes WHERE reflection_id = ?",
                           (reflection_id,))[0]["n"])


def record_changes_once(store: Store, agent_id: int, reflection_id: int,
                        changes: Iterable[tuple[str, str, str, str, str | None, str | None]], *,
                        actor: str, at: str, note: str) -> bool:
    """Record a reflection's changes, each (kind, target, op, path, before, after), unless it has
    recorded some already (checked in the same transaction). False when nothing was written."""
    with store.transaction() as db:
        store.lock(f"changes:{agent_id}")
        have = db.execute("SELECT COUNT(*) FROM changes WHERE reflection_id = ?",
                          (reflection_id,)).fetchone()[0]
        if have:
            return False
        db.executemany("INSERT INTO changes(agent_id, at, kind, target, op, actor, reflection_id, path,"
                       " before, after, note) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                       [(agent_id, at, kind, target, op, actor, reflection_id, path, before, after, note)
                        for kind, target, op, path, before, after in changes])
    return True


# -- leases -----------------------------------------------------------------------------------

def lease_row(store: Store, name: str) -> Row | None:
    rows = store.query("SELECT * FROM leases WHERE name = ?", (name,))
    return rows[0] if rows else None


def take_lease(store: Store, name: str, *, holder: str, pid: int, host: str, ttl: float,
               now: Callable[[], float], stale: Callable[[Row, float], str | None]) -> float | None:
    """Take the lease ``name`` for ``ttl`` seconds unless a live holder has it.

    Read and write happen in one write transaction holding the lease's lock (SQLite: ``BEGIN
    IMMEDIATE``; PostgreSQL: an advisory lock on the name), so two processes — on one machine or
    on two sharing a PostgreSQL ledger — racing for it are serialized: the second sees the first
    one's row. ``stale(row,
    t)`` says why a held lease may be taken over (None: it may not). Returns the time it was
    taken (its ``acquired_at``), or None.
    """
    with store.transaction() as db:
        store.lock(f"lease:{name}")  # PostgreSQL: racing machines wait here; SQLite: held already
        t = now()
        row = db.execute("SELECT * FROM leases WHERE name = ?", (name,)).fetchone()
        if row is not None and stale(row, t) is None:
            return None
        db.execute("INSERT INTO leases(name, holder, pid, host, acquired_at, expires_at) "
                   "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, "
                   "pid = excluded.pid, host = excluded.host, acquired_at = excluded.acquired_at, "
                   "expires_at = excluded.expires_at",
                   (name, holder, pid, host, t, t + ttl))
    return t


_MINE = "name = ? AND holder = ? AND pid = ? AND host = ? AND acquired_at = ?"


def renew_lease(store: Store, name: str, *, holder: str, pid: int, host: str, acquired_at: float,
                expires_at: Callable[[], float]) -> float | None:
    """Push the expiry of a lease still held by exactly this holder; the new expiry, or None when
    it was taken over."""
    with store.transaction() as db:
        expires = expires_at()
        cur = db.execute(f"UPDATE leases SET expires_at = ? WHERE {_MINE}",
                         (expires, name, holder, pid, host, acquired_at))
        return expires if cur.rowcount == 1 else None


def drop_lease(store: Store, name: str, *, holder: str, pid: int, host: str,
               acquired_at: float) -> bool:
    """Give back a lease held by exactly this holder. False when it was no longer theirs."""
    with store.transaction() as db:
        cur = db.execute(f"DELETE FROM leases WHERE {_MINE}", (name, holder, pid, host, acquired_at))
        return cur.rowcount == 1
