"""Whose words are these? A person's text is theirs: a machine may add beside it, not replace it.

The ``changes`` table records every write to a learned file with its actor and its before/after
text. A span of text was written by whoever made the change that brought it in (after has it,
before had not). Text no recorded change brought in was there before slowloop wrote anything: a
person wrote it. Undo restores someone else's words, so it is looked through.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..errors import SlowloopError
from ..memo import _resolve
from ..store import Store, artifacts
from .actions import Action

MACHINE = ("reflection", "slowloop")


def author_of(store: Store, agent_id: int, path: Path, fragment: str) -> str:
    """``"person"`` or the machine actor that wrote ``fragment`` in ``path``."""
    for r in artifacts.change_texts(store, agent_id, str(path)):
        if r["actor"] == "undo":
            continue
        if fragment in (r["after"] or "") and fragment not in (r["before"] or ""):
            return "machine" if r["actor"] in MACHINE else "person"
    return "person"


def persons_files(store: Store, agent_id: int, paths: Iterable[Path]) -> list[Path]:
    """Those of ``paths`` a person wrote any of: created by hand or edited since (one query).

    A file no change was recorded for is a person's when it exists."""
    paths = list(paths)
    changes = artifacts.change_actors(store, agent_id, [str(p) for p in paths])
    out = []
    for path in paths:
        rows = changes.get(str(path))
        if not rows:
            mine = path.exists()
        else:
            mine = any(actor == "person" for actor, _ in rows) or not any(
                actor in MACHINE and op in ("create", "merge") for actor, op in rows)
        if mine:
            out.append(path)
    return out


def _at_line_bounds(text: str, part: str) -> tuple[str, str] | None:
    """``(before, after)`` around ``part`` when it sits in ``text`` as whole lines, else None."""
    i = text.find(part)
    while i >= 0:
        before, after = text[:i], text[i + len(part):]
        if (not before or before.endswith("\n")) and (not after or after.startswith("\n")
                                                      or part.endswith("\n")):
            return before, after
        i = text.find(part, i + 1)
    return None


def _adds_whole_lines(old: str, new: str, path: Path) -> bool:
    """Whether a patch only adds lines beside ``old``, which it keeps whole as it stands in the
    file: "Don't " + old, or old + " --no-verify", contains old and still rewrites it."""
    from ..fsutil import read_text

    if _at_line_bounds(new, old) is None:
        return False
    try:
        text = read_text(path, within=path.parent.parent)[0]
    except SlowloopError:
        return False
    return text is not None and _at_line_bounds(text, old) is not None


def persons_words_at_stake(action: Action, store: Store, agent_id: int, lib, memo) -> str:
    """Why ``action`` must wait for the person's approval ('' when it need not).

    Replacing, removing or merging over what a person wrote waits; adding beside it does not.
    """
    if action.type == "update_memo" and action.op in ("replace", "remove"):
        try:
            entries = tuple(memo.entries(action.section))
            entry = entries[_resolve(entries, action.match, action.section)]
        except SlowloopError:
            return ""  # planning will reject it with its own reason
        if author_of(store, agent_id, memo.path, entry) == "person":
            verb = "replace" if action.op == "replace" else "remove"
            return f"would {verb} a memo entry a person wrote: {entry[:120]!r}"
    elif action.type == "patch_skill" and action.old and not _adds_whole_lines(
            action.old, action.new, lib.path_of(action.name)):
        path = lib.path_of(action.name)
        if author_of(store, agent_id, path, action.old) == "person":
            return f"would rewrite text a person wrote in skill {action.name}: {action.old[:120]!r}"
    elif action.type in ("merge_skills", "retire_skill"):
        names = list(action.names if action.type == "merge_skills" else (action.name,))
        if action.type == "merge_skills" and action.into and action.into not in names:
            names.append(action.into)
        touched = set(persons_files(store, agent_id, [lib.path_of(n) for n in names]))
        mine = [n for n in names if lib.path_of(n) in touched]
        if mine:
            verb = "merge over" if action.type == "merge_skills" else "retire"
            return f"would {verb} skill(s) a person wrote or edited: {', '.join(mine)}"
    return ""
