"""What comes in from the remote, screened before it reaches the folder the agent reads.

``git merge`` would write whatever the remote holds into the working tree — the folder every session
of the agent starts from — before anything could look at it. So slowloop never runs it there. It
reads what the remote changed since the last shared commit, file by file, from git's objects; judges
each file as it would be after the merge (``screen``); builds the merge commit itself in a scratch
index (its parents: this machine's head and the remote's); and only then moves the folder to that
commit, a fast-forward. A refused file keeps this machine's version in the merge and goes to the
quarantine (``quarantine``) with the commits and authors that brought it, for the person to see,
accept or drop. The merge commit carries this machine's version of a refused file, so once pushed
the remote holds it too: the first screened machine that syncs undoes a bad push for everyone, and
the refused version stays in git history and in each machine's quarantine.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError
from ..fsutil import atomic_write, read_text
from . import quarantine
from .git import (
    EMPTY_TREE,
    Author,
    Change,
    Entry,
    authors,
    blob_bytes,
    blob_size,
    changes,
    git,
    identity,
    rev,
    tree,
)
from .merge import merged_text
from .outgoing import commit
from .quarantine import Held
from .result import SyncResult
from .screen import (
    FILE_MAX,
    MERGE_MAX,
    OWN_FILES,
    REGULAR,
    Refusal,
    companions,
    content_refusal,
    gate_refusal,
    mode_refusal,
    path_refusal,
    size_refusal,
)

PREVIEW = 4096  # what the quarantine keeps of a file too big (or not text) to keep whole


@dataclass
class _Verdict:
    update: bool = False  # take ``text`` (None: remove the file)
    text: str | None = None
    refusal: Refusal | None = None
    shown: str | None = None  # the refused version, for the person to look at
    size: int = 0


def _text(repo: Path, entry: Entry | None) -> str:
    if entry is None or entry.mode != REGULAR:
        return ""
    return blob_bytes(repo, entry.oid, FILE_MAX + 1).decode("utf-8", errors="replace")


def _judge(repo: Path, ch: Change, ours: Entry | None, room: int) -> _Verdict:
    if ch.path in OWN_FILES:  # never taken; held for the person to see when it drops one of ours
        theirs = _text(repo, ch.new)
        dropped = set(_text(repo, ours).splitlines()) - set(theirs.splitlines()) - {""}
        return _Verdict(refusal=path_refusal(ch.path) if dropped else None, shown=theirs)
    if ch.new is None:  # removed there: removed here too, unless this machine changed it since
        same = ours is not None and ch.old is not None and ours.oid == ch.old.oid
        return _Verdict(update=same)
    size = blob_size(repo, ch.new.oid)
    head = blob_bytes(repo, ch.new.oid, FILE_MAX + 1 if size <= FILE_MAX else PREVIEW)
    refused = (path_refusal(ch.path) or mode_refusal(ch.path, ch.new.mode) or size_refusal(ch.path, size)
               or content_refusal(ch.path, head))
    if refused:
        binary = refused.kind in ("binary", "database")
        shown = None if binary else head[:PREVIEW].decode("utf-8", errors="replace")
        if shown is not None and size > PREVIEW:
            shown += f"\n[… {size - PREVIEW:,} more bytes not kept here]\n"
        return _Verdict(refusal=refused, shown=shown, size=size)
    if ours is None and ch.old is not None:  # removed here, changed there: this machine's choice stays
        return _Verdict()
    theirs, mine = head.decode("utf-8"), _text(repo, ours)
    unchanged_here = (ours is None) or (ch.old is not None and ours.oid == ch.old.oid)
    merged = theirs if unchanged_here else merged_text(ch.path, _text(repo, ch.old), mine, theirs)
    refused = gate_refusal(ch.path, mine, merged)
    if refused is None and size > room:
        refused = Refusal("merge_size", f"{ch.path}: this merge brings more than {MERGE_MAX:,} bytes; "
                                        "the files past that are kept for you to look at")
    if refused:
        return _Verdict(refusal=refused, shown=theirs, size=size)
    return _Verdict(update=True, text=merged, size=size)


def merge_incoming(repo: Path, result: SyncResult, theirs_ref: str) -> bool:
    """Merge what ``theirs_ref`` brings, screened; True when this machine's branch moved."""
    head, theirs = rev(repo, "HEAD"), rev(repo, theirs_ref)
    if theirs is None or head == theirs:
        return False
    if head and git(repo, "merge-base", "--is-ancestor", theirs, head, check=False).returncode == 0:
        return False
    base = (git(repo, "merge-base", head, theirs, check=False).stdout.strip() if head else "") or EMPTY_TREE
    span = theirs if base == EMPTY_TREE else f"{base}..{theirs}"
    ours_tree = tree(repo, head) if head else {}
    updates: dict[str, str | None] = {}
    room = MERGE_MAX
    lines: list[str] = []
    refused: dict[str, str] = {}  # what was refused, for the files it may be one half of an instruction with
    taken: dict[str, tuple[Change, Entry | None, _Verdict]] = {}
    for ch in changes(repo, base, theirs):
        ours = ours_tree.get(ch.path)
        if ours == ch.new:  # both sides already hold the same version
            continue
        v = _judge(repo, ch, ours, room)
        if v.refusal is not None:
            if v.refusal.kind != "own_file":
                refused[ch.path] = v.shown or ""
            _hold(repo, result, lines, ch, v, theirs, authors(repo, span, ch.path))
            continue
        if ch.path in OWN_FILES:
            result.notes.append(f"the remote's {ch.path} was not taken: this machine's own stays")
        elif v.update:
            taken[ch.path] = (ch, ours, v)
            room -= v.size
    # a merge is read whole by the next session: an instruction split over two files is judged so
    halves = companions(refused, {p: (_text(repo, ours), v.text) for p, (_, ours, v) in taken.items()
                                  if v.text is not None})
    for path, (ch, _ours, v) in taken.items():
        who = authors(repo, span, ch.path)
        if path in halves:
            v.refusal, v.shown = halves[path], v.text
            _hold(repo, result, lines, ch, v, theirs, who)
            continue
        updates[ch.path] = v.text
        by = ", ".join(dict.fromkeys(a.who() for a in who)) or "unknown author"
        result.merged_from.append(f"{ch.path} ({by})")
        lines.append(f"{'removed' if v.text is None else 'merged'}: {ch.path} (from {by})")
    merge = _merge_commit(repo, head, theirs, updates, f"merge what {theirs_ref} learned", "\n".join(lines))
    moved = git(repo, "merge", "--ff-only", "-q", merge, check=False)
    if moved.returncode != 0:
        result.notes.append("not merged: a file the remote changed has changes here that are not "
                            f"committed ({moved.stderr.strip()[-300:]}); fix what was held back and sync again")
        return False
    result.pulled += int(git(repo, "rev-list", "--count", theirs, *(["--not", head] if head else [])).stdout)
    return True


def _hold(repo: Path, result: SyncResult, lines: list[str], ch: Change, v: _Verdict, theirs: str,
          who: list[Author]) -> None:
    if v.refusal is None:
        return
    h = quarantine.add(repo, path=ch.path, refusal=v.refusal, blob=ch.new.oid if ch.new else None,
                       base=ch.old.oid if ch.old else None, mode=ch.new.mode if ch.new else "",
                       size=v.size, remote=theirs, authors=who, text=v.shown)
    if h is not None:
        result.quarantined.append(h.to_dict())
        lines.append(f"not merged, quarantined as {h.id}: {h.reason} (from {h.by()})")


def _merge_commit(repo: Path, head: str | None, theirs: str, updates: dict[str, str | None], subject: str,
                  body: str) -> str:
    """The merge as a commit: this machine's tree with ``updates``, in a scratch index."""
    with tempfile.TemporaryDirectory(prefix="slowloop-merge-") as d:
        env = {"GIT_INDEX_FILE": str(Path(d) / "index")}
        git(repo, "read-tree", *([head] if head else ["--empty"]), env=env)
        for path, text in sorted(updates.items()):
            if text is None:
                git(repo, "update-index", "--force-remove", "--", path, env=env)
                continue
            oid = git(repo, "hash-object", "-w", "--no-filters", "--stdin", input=text).stdout.strip()
            git(repo, "update-index", "--add", "--cacheinfo", f"{REGULAR},{oid},{path}", env=env)
        written = git(repo, "write-tree", env=env).stdout.strip()
    parents = (["-p", head] if head else []) + ["-p", theirs]
    msg = subject + ("\n\n" + body if body else "")
    return git(repo, *identity(repo), "commit-tree", written, *parents, "-m", msg).stdout.strip()


# -- the person's decision --------------------------------------------------------------------------

def accept(repo: Path, ident: int, *, dangerous: bool = False) -> tuple[Held, SyncResult, str | None]:
    """Take a quarantined change in, through the same screening; a dangerous one only with
    ``dangerous`` (the person said so). Returns it, the commit made, and a warning."""
    h = _waiting(repo, ident)
    hint = f"ask {h.by()} to change it, or drop it: `slowloop sync drop {ident} --agent {repo.name}`"
    if not h.acceptable or h.blob is None:
        raise UserError(f"change {ident} ({h.path}) cannot be accepted: {h.reason}", hint=hint)
    theirs = blob_bytes(repo, h.blob, FILE_MAX + 1).decode("utf-8", errors="replace")
    base = _text(repo, Entry(REGULAR, h.base)) if h.base else ""
    mine, seen = read_text(repo / h.path, within=repo)
    mine = mine or ""
    merged = theirs if mine == base else merged_text(h.path, base, mine, theirs)
    refused = gate_refusal(h.path, mine, merged)
    if refused is not None and refused.kind == "secret":
        raise UserError(f"change {ident} cannot be accepted: {refused.reason}; a secret is never taken in",
                        hint=hint)
    if refused is not None and not dangerous:
        raise UserError(f"change {ident} holds {refused.reason}",
                        hint=f"if you trust it, accept it knowingly: `slowloop sync accept {ident} --agent "
                             f"{repo.name} --dangerous`; else {hint}")
    atomic_write(repo / h.path, merged, expect=seen)
    result = SyncResult(repo.name, str(repo))
    first = h.authors[0] if h.authors else None
    commit(repo, f"accepted from quarantine: {h.path}", result,
           f"Refused at sync ({h.reason}); accepted by the person on this machine.\nFrom {h.by()}, "
           f"commit(s) {', '.join(a['commit'][:12] for a in h.authors) or '-'}.",
           only=[h.path], author=f"{first['name']} <{first['email']}>" if first else None,
           allow_danger=refused is not None)
    quarantine.settle(repo, h, "accepted")
    warning = (f"accepted a dangerous instruction into {h.path} ({refused.reason}): every session of "
               f"agent {repo.name} now reads it; `slowloop history`/git revert undo it") if refused else None
    return h, result, warning


def drop(repo: Path, ident: int) -> Held:
    h = _waiting(repo, ident)
    quarantine.settle(repo, h, "dropped")
    return h


def _waiting(repo: Path, ident: int) -> Held:
    h = quarantine.get(repo, ident)
    if h.status != "held":
        raise UserError(f"change {ident} was already {h.status}",
                        hint=f"see what still waits: `slowloop sync status --agent {repo.name}`")
    return h
