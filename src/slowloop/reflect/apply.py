"""Apply a reflection's planned changes as one unit, with a journal for crashes.

1. The planned ``FileChange`` list is written into ``reflections.plan`` (status ``applying``) in one
   transaction, before any file is touched.
2. ``history.apply_changes`` writes every file (rolling back its own writes on an error) and records
   the changes with the reflection's id.
3. One transaction marks the reflection ``applied`` and advances the agent's watermark.

If the process dies between 1 and 3, ``recover`` (run before every reflection and by ``doctor``)
finds the ``applying`` row: when every file already holds its planned content the reflection is
rolled forward (recorded as applied); otherwise whatever was written is put back and the reflection
is marked ``rolled-back`` — its turns stay pending and are reflected on again. A person's edit made
in the meantime is never overwritten: such a file is left as the person wrote it and reported.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from .. import clock
from ..errors import ConflictError
from ..fsutil import atomic_write, file_hash, sha256_text
from ..history import FileChange, apply_changes
from ..store import Store


def _encode(changes: Sequence[FileChange]) -> str:
    return json.dumps([{"path": str(c.path), "before": c.before, "before_hash": c.before_hash,
                        "after": c.after, "kind": c.kind, "target": c.target, "op": c.op,
                        "archive_to": str(c.archive_to) if c.archive_to else None, "note": c.note}
                       for c in changes], ensure_ascii=False)


def _decode(plan: str) -> list[FileChange]:
    out = []
    for d in json.loads(plan or "[]"):
        out.append(FileChange(path=Path(d["path"]), before=d["before"], before_hash=d["before_hash"],
                              after=d["after"], kind=d["kind"], target=d["target"], op=d["op"],
                              archive_to=Path(d["archive_to"]) if d.get("archive_to") else None,
                              note=d.get("note", "")))
    return out


def apply_reflection(store: Store, agent: str, reflection_id: int, changes: Sequence[FileChange], *,
                     watermark: int, summary: str, status: str = "applied",
                     seen_at: str | None = None, _crash_after_files: bool = False) -> list[int]:
    """Journal, write and record ``changes`` for reflection ``reflection_id`` as one unit."""
    agent_id = store.agent_id(agent)
    with store.transaction() as db:
        db.execute("UPDATE reflections SET status = 'applying', plan = ?, watermark = ?, summary = ?"
                   " WHERE id = ?", (_encode(changes), watermark, summary, reflection_id))
    ids = apply_changes(changes, store=store, agent=agent, actor="reflection",
                        reflection_id=reflection_id, note=f"reflection R{reflection_id}") if changes else []
    if _crash_after_files:  # test seam: simulate the process dying right here
        raise SystemExit("simulated crash after the files were written")
    _finish(store, agent_id, reflection_id, watermark, status, seen_at)
    return ids


def _finish(store: Store, agent_id: int, reflection_id: int, watermark: int, status: str,
            seen_at: str | None = None) -> None:
    """Record the reflection done. ``last_reflected_at`` is the moment the ledger was read for
    it (``seen_at``), not now: a turn that grew while the model was thinking stays new."""
    now = clock.iso(micro=True)
    if seen_at is None:
        row = store.query("SELECT started_at FROM reflections WHERE id = ?", (reflection_id,))
        seen_at = row[0]["started_at"] if row else now
    with store.transaction() as db:
        db.execute("UPDATE reflections SET status = ?, finished_at = ? WHERE id = ?",
                   (status, now, reflection_id))
        db.execute("UPDATE agents SET last_reflected_at = ?, last_attempt_at = ?,"
                   " last_seen_turn_id = MAX(last_seen_turn_id, ?) WHERE id = ?",
                   (seen_at, now, watermark, agent_id))


def _state(c: FileChange) -> str:
    """'after' when the planned content is on disk, 'before' when untouched, else 'other'."""
    current = file_hash(c.path)
    if c.after is not None:
        if current == sha256_text(c.after):
            return "after"
        return "before" if current == c.before_hash else "other"
    # an archive move: done when the file is gone and the archived copy is there
    if current is None and c.archive_to is not None and c.archive_to.exists():
        return "after"
    return "before" if current == c.before_hash else "other"


_UNFINISHED = ("SELECT id, plan, watermark FROM reflections WHERE agent_id = ? AND status IN"
               " ('applying', 'running')")


def recover(store: Store, agent: str) -> list[str]:
    """Resolve reflections a crash left half-applied. Returns what was done, in words.

    An unfinished reflection is only a crashed one when nobody holds the agent's lease: a live
    reflector in another process is left alone (rolling it back would undo its files under it).
    """
    from .lease import acquire, agent_lease_name, release

    agent_id = store.agent_id(agent, create=False)
    if agent_id is None or not store.query(_UNFINISHED, (agent_id,)):
        return []
    lease = acquire(store, agent_lease_name(agent), holder=f"recovery pid {os.getpid()}",
                    ttl=RECOVERY_TTL)
    if lease is None:
        return []  # a live reflector holds the agent: its reflection is not a crashed one
    try:
        return _recover_locked(store, agent, agent_id)
    finally:
        release(lease)


# Recovery reads and writes a handful of files; the lease only has to outlive that.
RECOVERY_TTL = 600


def _recover_locked(store: Store, agent: str, agent_id: int) -> list[str]:
    notes: list[str] = []
    rows = store.query(_UNFINISHED, (agent_id,))  # again, now that the agent is ours
    for row in rows:
        rid = int(row["id"])
        changes = _decode(row["plan"])
        states = [_state(c) for c in changes]
        recorded = store.query("SELECT COUNT(*) AS n FROM changes WHERE reflection_id = ?", (rid,))[0]["n"]
        if changes and all(s == "after" for s in states) and recorded == len(changes):
            _finish(store, agent_id, rid, int(row["watermark"]), "applied")
            notes.append(f"R{rid}: found fully applied after a crash; recorded as applied")
            continue
        if changes and all(s == "after" for s in states):
            # files written, history not recorded: record it now, then finish
            _record_missing(store, agent, rid, changes)
            _finish(store, agent_id, rid, int(row["watermark"]), "applied")
            notes.append(f"R{rid}: files were written before a crash; history recorded, applied")
            continue
        kept = []
        for c, s in zip(reversed(changes), reversed(states), strict=True):
            if s == "after":
                _put_back(c)
            elif s == "other":
                kept.append(str(c.path))
        with store.transaction() as db:
            db.execute("UPDATE reflections SET status = 'rolled-back', finished_at = ?, error = ?"
                       " WHERE id = ?", (clock.iso(), "interrupted before it finished; rolled back"
                                         + (f"; left as a person edited them: {', '.join(kept)}"
                                            if kept else ""), rid))
        notes.append(f"R{rid}: interrupted mid-apply; rolled back" +
                     (f" (kept person-edited {', '.join(kept)})" if kept else ""))
    return notes


def _put_back(c: FileChange) -> None:
    if c.after is not None:
        if c.before is None:
            try:
                c.path.unlink()
            except FileNotFoundError:
                pass
            if c.kind == "skill":
                try:
                    c.path.parent.rmdir()
                except OSError:
                    pass
        else:
            atomic_write(c.path, c.before, expect=sha256_text(c.after))
    elif c.before is not None:
        atomic_write(c.path, c.before, expect=None)
        if c.archive_to is not None and c.archive_to.exists():
            pass  # the archived copy stays: nothing is ever deleted


def _record_missing(store: Store, agent: str, rid: int, changes: Sequence[FileChange]) -> None:
    agent_id = store.agent_id(agent)
    now = clock.iso()
    with store.transaction() as db:
        have = db.execute("SELECT COUNT(*) FROM changes WHERE reflection_id = ?", (rid,)).fetchone()[0]
        if have:
            return
        for c in changes:
            db.execute("INSERT INTO changes(agent_id, at, kind, target, op, actor, reflection_id, path,"
                       " before, after, note) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                       (agent_id, now, c.kind, c.target, c.op, "reflection", rid, str(c.path),
                        c.before, c.after, f"reflection R{rid} (recovered after a crash)"))


__all__ = ["apply_reflection", "recover", "ConflictError"]
