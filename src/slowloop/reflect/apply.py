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
from ..store import Store, ledger


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
    ledger.journal_reflection(store, reflection_id, plan=_encode(changes), watermark=watermark,
                              summary=summary)
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
        seen_at = ledger.reflection_started_at(store, reflection_id) or now
    ledger.finish_reflection(store, agent_id, reflection_id, status=status, finished_at=now,
                             seen_at=seen_at, watermark=watermark)


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


def recover(store: Store, agent: str) -> list[str]:
    """Resolve reflections a crash left half-applied. Returns what was done, in words.

    An unfinished reflection is only a crashed one when nobody holds the agent's lease: a live
    reflector in another process is left alone (rolling it back would undo its files under it).
    """
    from .lease import acquire, agent_lease_name, release

    agent_id = store.agent_id(agent, create=False)
    if agent_id is None or not ledger.unfinished_reflections(store, agent_id):
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
    rows = ledger.unfinished_reflections(store, agent_id)  # again, now that the agent is ours
    for row in rows:
        rid = int(row["id"])
        changes = _decode(row["plan"])
        states = [_state(c) for c in changes]
        recorded = ledger.count_changes(store, rid)
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
        ledger.roll_back_reflection(
            store, rid, "interrupted before it finished; rolled back"
            + (f"; left as a person edited them: {', '.join(kept)}" if kept else ""), at=clock.iso())
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
    ledger.record_changes_once(
        store, store.agent_id(agent), rid,
        [(c.kind, c.target, c.op, str(c.path), c.before, c.after) for c in changes],
        actor="reflection", at=clock.iso(), note=f"reflection R{rid} (recovered after a crash)")


__all__ = ["apply_reflection", "recover", "ConflictError"]
