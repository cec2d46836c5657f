"""Every change to a learned file, with before and after: apply, notice, list, undo.

Planners (``slowloop.skills.plan_*``, ``slowloop.memo.plan_memo_update``) are pure: they read the
files and return ``FileChange`` values. ``apply_changes`` is the only place that writes them:

1. it checks every change against the file as it is now (chained when one batch touches a path
   twice), so nothing is written unless all of the batch can be;
2. it writes each file with ``atomic_write(expect=before_hash)``: a person's edit made after the
   plan was read raises ``ConflictError`` and is never overwritten; the files already written by
   this batch are put back, so a batch lands whole or not at all;
3. it records every change (and, first, any edit a person made since slowloop last wrote the file)
   in the ``changes`` table in one transaction.

A crash between the writes and that transaction is the reflection journal's to roll forward; for a
single library call the next ``notice_person_edits`` records the file as it is (attributed to a
person), so history never silently misses a state.

``undo`` reverts one change, ``undo_reflection`` every change of one reflection, newest first; both
go through ``apply_changes`` and so refuse to overwrite anything nobody recorded.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from . import clock
from .errors import ConflictError, UserError
from .fsutil import (
    atomic_write,
    confine,
    file_hash,
    file_lock,
    lock_path_for,
    make_private_dirs,
    read_text,
    sha256_text,
)
from .store import Store, artifacts

ChangeKind = Literal["skill", "memo", "memory"]
Actor = Literal["slowloop", "person", "reflection", "undo"]


@dataclass(frozen=True)
class FileChange:
    """One planned write. ``after=None`` moves the file to ``archive_to`` (never deleted)."""

    path: Path
    before: str | None
    before_hash: str | None
    after: str | None
    kind: str
    target: str
    op: str
    archive_to: Path | None = None
    note: str = ""


@dataclass(frozen=True)
class ChangeRecord:
    id: int
    at: str
    kind: str
    target: str
    op: str
    actor: str
    reflection_id: int | None
    path: str
    before: str | None
    after: str | None
    note: str
    undone_by: int | None

    def to_dict(self, *, texts: bool = True) -> dict:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        if not texts:
            d.pop("before")
            d.pop("after")
        return d


def _hash(text: str | None) -> str | None:
    return None if text is None else sha256_text(text)


def archive_path(path: Path, kind: str, target: str) -> Path:
    """Where an archived copy of ``path`` goes: ``<agent dir>/archive/<kind>s/<target>/<ts>/file``."""
    path = Path(path)
    stamp = clock.iso(micro=True).replace(":", "").replace("-", "")
    if kind == "skill":  # <agent dir>/skills/<name>/SKILL.md
        base = path.parents[2]
        return base / "archive" / "skills" / target / stamp / path.name
    return path.parent / "archive" / kind / stamp / path.name


# -- writing ----------------------------------------------------------------------------------

def _remove(path: Path, expect: str | None) -> None:
    """Remove ``path`` if it still has hash ``expect`` (under the same lock atomic_write takes)."""
    with file_lock(lock_path_for(path)):
        if file_hash(path) != expect:
            raise ConflictError(f"{path} changed since it was read (someone edited it); "
                                "not moving it away", hint="re-read the file and try again")
        os.unlink(path)


def _tidy_skill_dir(folder: Path, archive_dir: Path | None) -> None:
    """After SKILL.md left its folder: move what else a person put there beside the archived copy,
    drop our lock files, remove the empty folder so agents no longer see the skill."""
    if not folder.is_dir():
        return
    for entry in list(folder.iterdir()):
        if entry.name.endswith(".lock") or (entry.name.startswith(".") and entry.name.endswith(".tmp")):
            with contextlib.suppress(OSError):
                entry.unlink()
        elif archive_dir is not None:
            confine(archive_dir / entry.name)  # a planted archive/ link must not carry it out
            make_private_dirs(archive_dir)
            shutil.move(str(entry), str(archive_dir / entry.name))
    with contextlib.suppress(OSError):
        folder.rmdir()


def _write_one(c: FileChange) -> None:
    if c.after is not None:
        atomic_write(c.path, c.after, expect=c.before_hash)
        return
    if c.before is None:
        return  # nothing there, nothing to archive
    if c.archive_to is None:
        raise UserError(f"change to {c.path} removes the file but names no archive path")
    atomic_write(c.archive_to, c.before)
    _remove(c.path, c.before_hash)
    if c.kind == "skill":
        _tidy_skill_dir(c.path.parent, c.archive_to.parent)


def _unwrite(c: FileChange) -> None:
    """Put back what ``_write_one(c)`` replaced (rollback of a batch that failed part-way)."""
    if c.after is not None:
        if c.before is None:
            with contextlib.suppress(ConflictError, FileNotFoundError):
                _remove(c.path, _hash(c.after))
                if c.kind == "skill":
                    _tidy_skill_dir(c.path.parent, None)
        else:
            atomic_write(c.path, c.before, expect=_hash(c.after))
    elif c.before is not None:
        atomic_write(c.path, c.before, expect=None)


def apply_changes(changes: Sequence[FileChange], *, store: Store, agent: str, actor: str,
                  reflection_id: int | None = None, note: str = "") -> list[int]:
    """Write ``changes`` as one unit and record each; returns the new change ids, in order."""
    return _apply(changes, store=store, agent=agent, actor=actor, reflection_id=reflection_id,
                  note=note)


def _apply(changes: Sequence[FileChange], *, store: Store, agent: str, actor: str,
           reflection_id: int | None = None, note: str = "",
           undoes: Sequence[Sequence[int]] | None = None) -> list[int]:
    if not changes:
        return []
    agent_id = store.agent_id(agent)
    # 1. check the whole batch against the files as they are now
    state: dict[Path, str | None] = {}
    for c in changes:
        p = Path(c.path)
        current = state[p] if p in state else file_hash(p)
        if current != c.before_hash:
            raise ConflictError(f"{p} changed since the change was planned (someone edited it); "
                                "nothing was written", hint="plan the change again from the file as it is")
        if c.after is None and c.before is not None and c.archive_to is None:
            raise UserError(f"change to {p} removes the file but names no archive path")
        state[p] = _hash(c.after)
    # 2. write, putting back what was written if one write fails
    done: list[FileChange] = []
    try:
        for c in changes:
            _write_one(c)
            done.append(c)
    except BaseException:
        for c in reversed(done):
            with contextlib.suppress(ConflictError, OSError):
                _unwrite(c)
        raise
    # 3. record: first what a person changed since our last record, then our changes
    ids: list[int] = []
    with store.transaction() as db:
        artifacts.hold_changes(store, agent_id)
        known = artifacts.latest_changes(store, agent_id, [str(c.path) for c in changes])
        seen: set[str] = set()
        for c in changes:
            key = str(c.path)
            if key in seen:
                continue
            seen.add(key)
            last_after = known[key][0] if key in known else None
            if _hash(last_after) != c.before_hash:
                artifacts.insert_change(
                    db, agent_id, at=clock.iso(), kind=c.kind, target=c.target,
                    op="edit" if c.before is not None else "delete", actor="person",
                    reflection_id=None, path=key, before=last_after, after=c.before,
                    note="noticed before a slowloop write")
        for i, c in enumerate(changes):
            cid = artifacts.insert_change(
                db, agent_id, at=clock.iso(), kind=c.kind, target=c.target, op=c.op, actor=actor,
                reflection_id=reflection_id, path=str(c.path), before=c.before, after=c.after,
                note=c.note or note)
            ids.append(cid)
            if undoes and undoes[i]:
                artifacts.mark_undone(db, undoes[i], by=cid)
    return ids


# -- noticing a person's edits ----------------------------------------------------------------

def notice_person_edits(store: Store, agent: str, files: Iterable[tuple[Path, str, str]], *,
                        known_kind: str | None = None) -> list[int]:
    """Record, as changes by ``person``, every file that differs from what slowloop last recorded.

    ``files``: (path, kind, target) of the files that exist now. With ``known_kind``, paths whose
    last record (of that kind) has content but which are gone now are recorded as deleted.
    A file slowloop never recorded is recorded as created by a person.
    """
    files = list(files)
    if not files and store.agent_id(agent, create=False) is None:
        return []  # nothing on disk, no such agent: a read must not create one
    agent_id = store.agent_id(agent)
    # only the given files' records, unless deletions of a whole kind are looked for
    known = artifacts.latest_changes(
        store, agent_id, None if known_kind is not None else [str(p) for p, _, _ in files])
    pending: list[tuple[str, str, str, str, str | None, str | None]] = []
    given: set[str] = set()
    for path, kind, target in files:
        key = str(path)
        given.add(key)
        text, digest = read_text(Path(path))
        last_after = known[key][0] if key in known else None
        if digest != _hash(last_after):
            op = "create" if last_after is None else ("delete" if text is None else "edit")
            pending.append((key, kind, target, op, last_after, text))
    if known_kind is not None:
        # only this home's files: a ledger several machines share also holds the others' paths
        here = _in_this_home(store, agent)
        for key, (after, kind) in known.items():
            if (kind == known_kind and after is not None and key not in given and here(key)
                    and not Path(key).exists()):
                target = Path(key).parent.name if kind == "skill" else Path(key).name
                pending.append((key, kind, target, "delete", after, None))
    if not pending:
        return []
    ids = []
    with store.transaction() as db:
        artifacts.hold_changes(store, agent_id)
        # another process may have recorded it meanwhile
        fresh = artifacts.latest_changes(store, agent_id, [p[0] for p in pending])
        for key, kind, target, op, before, after in pending:
            if key in fresh and _hash(fresh[key][0]) == _hash(after):
                continue
            ids.append(artifacts.insert_change(
                db, agent_id, at=clock.iso(), kind=kind, target=target, op=op, actor="person",
                reflection_id=None, path=key, before=before, after=after,
                note="noticed: the file differs from what slowloop last wrote"))
    return ids


# -- reading ----------------------------------------------------------------------------------

def _record(row: artifacts.Row) -> ChangeRecord:
    return ChangeRecord(id=row["id"], at=row["at"], kind=row["kind"], target=row["target"],
                        op=row["op"], actor=row["actor"], reflection_id=row["reflection_id"],
                        path=row["path"], before=row["before"], after=row["after"],
                        note=row["note"], undone_by=row["undone_by"])


def history(store: Store, agent: str, *, limit: int = 50,
            include_touches: bool = False) -> list[ChangeRecord]:
    """Newest first. ``touch`` rows (lastUsedAt written back) are left out unless asked for."""
    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return []
    return [_record(r) for r in artifacts.list_changes(store, agent_id, limit=limit,
                                                         include_touches=include_touches)]


def get_change(store: Store, agent: str, change_id: int) -> ChangeRecord:
    agent_id = store.agent_id(agent, create=False)
    row = artifacts.get_change(store, agent_id, change_id)
    if row is None:
        raise UserError(f"no change {change_id} for agent {agent!r}",
                        hint="see `slowloop history` for the change ids")
    return _record(row)


# -- undo -------------------------------------------------------------------------------------

def _latest_effective(store: Store, agent_id: int, paths: Iterable[str]) -> dict[str, ChangeRecord]:
    """path → its newest change that is not a ``touch``, for all of ``paths`` in one query."""
    return {p: _record(r) for p, r in artifacts.latest_effective_changes(store, agent_id, paths).items()}


def _revert_plan(latest: ChangeRecord | None, first: ChangeRecord, last: ChangeRecord) -> FileChange:
    """The change that takes ``first.path`` from ``last.after`` back to ``first.before``;
    ``latest`` is the path's newest recorded change (not a touch)."""
    if latest is None or _hash(latest.after) != _hash(last.after):
        by = f"change {latest.id} ({latest.actor} {latest.op})" if latest else "a later change"
        raise ConflictError(f"{first.path} was changed again after change {last.id}, by {by}",
                            hint=f"undo change {latest.id if latest else '…'} first, or edit the file by hand")
    text, digest = read_text(Path(first.path))
    path = Path(first.path)
    archive_to = archive_path(path, first.kind, first.target) if first.before is None else None
    return FileChange(path=path, before=text, before_hash=digest, after=first.before,
                      kind=first.kind, target=first.target, op="undo", archive_to=archive_to)


def _notice_paths(store: Store, agent: str, recs: Sequence[ChangeRecord]) -> None:
    """Record a person's edits to the files of ``recs`` (and their deletions) before undoing:
    one pass for the files that exist, one per kind of file that is gone."""
    present = [(Path(r.path), r.kind, r.target) for r in recs if Path(r.path).exists()]
    if present:
        notice_person_edits(store, agent, present)
    for kind in dict.fromkeys(r.kind for r in recs if not Path(r.path).exists()):
        notice_person_edits(store, agent, [], known_kind=kind)


def _in_this_home(store: Store, agent: str):
    """Whether a recorded path is a file of ``agent``'s folder in this home: a ledger several
    machines share (PostgreSQL) also holds the paths of the other machines' files."""
    from .paths import agent_dir

    root = os.path.realpath(agent_dir(agent, store.home)) + os.sep
    return lambda path: os.path.realpath(path).startswith(root)


def _here(store: Store, agent: str, recs: Sequence[ChangeRecord], what: str) -> None:
    """Refuse to undo changes made to files outside this home: a reflection applied on another
    machine is recorded with that machine's paths, and its files are not here to restore (nor to
    read as edits by a person)."""
    here = _in_this_home(store, agent)
    away = [r.path for r in recs if not here(r.path)]
    if away:
        from .paths import agent_dir

        raise UserError(f"{what} changed {away[0]}, which is not in this home "
                        f"({agent_dir(agent, store.home)}): it was made "
                        "on another machine sharing this ledger, or before the home moved",
                        hint="undo it on the machine that made it; with `slowloop sync` the undo "
                             "then reaches this one")


def undo(store: Store, agent: str, change_id: int) -> int:
    """Restore the file as it was before ``change_id``; returns the id of the undo change."""
    rec = get_change(store, agent, change_id)
    if rec.undone_by is not None:
        raise UserError(f"change {change_id} was already undone by change {rec.undone_by}",
                        hint=f"`slowloop history undo {rec.undone_by}` redoes it")
    _here(store, agent, [rec], f"change {change_id}")
    _notice_paths(store, agent, [rec])
    agent_id = store.agent_id(agent)
    fc = _revert_plan(_latest_effective(store, agent_id, [rec.path]).get(rec.path), rec, rec)
    return _apply([fc], store=store, agent=agent, actor="undo", note=f"undo of change {rec.id}",
                  undoes=[[rec.id]])[0]


def _bullets_plan(store: Store, agent_id: int, first: ChangeRecord, last: ChangeRecord,
                  latest: ChangeRecord | None) -> FileChange | None:
    """Undo one reflection's bullets in a Markdown file (the memo) as it is now, keeping what later
    reflections added (None: not a list file, or a person changed it since)."""
    from .markdown import undo_bullets

    path = Path(first.path)
    if first.kind != "memo" or latest is None or last.after is None:
        return None
    later = artifacts.changes_after(store, agent_id, str(path), last.id)
    if any(r["actor"] not in ("reflection", "undo") for r in later):
        return None
    text, digest = read_text(path)
    if text is None or _hash(text) != _hash(latest.after):
        return None  # edited by hand since the last recorded change
    new = undo_bullets(first.before or "", last.after, text)
    if new is None:
        return None
    return FileChange(path=path, before=text, before_hash=digest, after=new, kind=first.kind,
                      target=first.target, op="undo")


def undo_reflection(store: Store, agent: str, reflection_id: int) -> list[int]:
    """Revert every change of one reflection, newest first, as one unit; returns the undo ids."""
    agent_id = store.agent_id(agent, create=False)
    rows = [_record(r) for r in artifacts.reflection_changes(store, agent_id, reflection_id)]
    if agent_id is None or not rows:
        raise UserError(f"reflection {reflection_id} of agent {agent!r} has no change left to undo",
                        hint="see `slowloop history` for reflection ids (R<n>)")
    _here(store, agent, rows, f"reflection R{reflection_id}")
    by_path: dict[str, list[ChangeRecord]] = {}
    for r in rows:
        by_path.setdefault(r.path, []).append(r)
    _notice_paths(store, agent, [recs[-1] for recs in by_path.values()])
    # newest path first, so the batch reverts in the reverse order it was applied
    ordered = sorted(by_path.values(), key=lambda recs: recs[-1].id, reverse=True)
    latest = _latest_effective(store, agent_id, by_path)
    plans = []
    for recs in ordered:
        try:
            plans.append(_revert_plan(latest.get(recs[0].path), recs[0], recs[-1]))
        except ConflictError:
            # the memo changed again since, by later reflections only: take back this reflection's
            # own entries in the memo as it is now, keeping what came after (a person's edit since
            # is theirs, and still refuses)
            memo_plan = _bullets_plan(store, agent_id, recs[0], recs[-1], latest.get(recs[0].path))
            if memo_plan is None:
                raise
            plans.append(memo_plan)
    return _apply(plans, store=store, agent=agent, actor="undo",
                  note=f"undo of reflection R{reflection_id}",
                  undoes=[[r.id for r in recs] for recs in ordered])


def learned(store: Store, agent: str, reflection_id: int) -> list[str]:
    """What one reflection taught, in words a person reads at a glance: each memo entry it added,
    each skill it created, patched, merged or retired (what is still in effect, not undone)."""
    import re

    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return []
    out: list[str] = []
    for r in artifacts.reflection_changes(store, agent_id, reflection_id):
        if r["kind"] == "memo":
            before = {ln.strip() for ln in (r["before"] or "").splitlines()}
            out += [ln.strip()[2:].strip() for ln in (r["after"] or "").splitlines()
                    if ln.strip().startswith("- ") and ln.strip() not in before]
        elif r["kind"] == "skill":
            m = re.search(r"^description:\s*(.+)$", r["after"] or "", re.M)
            what = {"create": "new skill", "patch": "skill updated", "retire": "skill retired",
                    "merge": "skills merged into"}.get(r["op"], f"skill {r['op']}")
            out.append(f"{what} {r['target']}" + (f": {m.group(1).strip()}" if m and r["op"] == "create" else ""))
    return out
