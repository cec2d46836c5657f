"""Whose words are these? A person's text is theirs: a machine may add beside it, not replace it.

The ``changes`` table records every write to a learned file with its actor and its before/after
text. A span of text was written by whoever made the change that brought it in (after has it,
before had not). Text no recorded change brought in was there before slowloop wrote anything: a
person wrote it. Undo restores someone else's words, so it is looked through.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import SlowloopError
from ..memo import _resolve
from ..store import Store
from .actions import Action

MACHINE = ("reflection", "slowloop")


def author_of(store: Store, agent_id: int, path: Path, fragment: str) -> str:
    """``"person"`` or the machine actor that wrote ``fragment`` in ``path``."""
    rows = store.query("SELECT actor, before, after FROM changes WHERE agent_id = ? AND path = ?"
                       " ORDER BY id DESC", (agent_id, str(path)))
    for r in rows:
        if r["actor"] == "undo":
            continue
        if fragment in (r["after"] or "") and fragment not in (r["before"] or ""):
            return "machine" if r["actor"] in MACHINE else "person"
    return "person"


def person_touched(store: Store, agent_id: int, path: Path) -> bool:
    """Whether a person wrote any of the file: created it by hand or edited it since."""
    rows = store.query("SELECT actor, op FROM changes WHERE agent_id = ? AND path = ?",
                       (agent_id, str(path)))
    if not rows:
        return path.exists()
    return any(r["actor"] == "person" for r in rows) or not any(
        r["actor"] in MACHINE and r["op"] in ("create", "merge") for r in rows)


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
    elif action.type == "patch_skill" and action.old and action.old not in action.new:
        path = lib.path_of(action.name)
        if author_of(store, agent_id, path, action.old) == "person":
            return f"would rewrite text a person wrote in skill {action.name}: {action.old[:120]!r}"
    elif action.type in ("merge_skills", "retire_skill"):
        names = action.names if action.type == "merge_skills" else (action.name,)
        mine = [n for n in names if person_touched(store, agent_id, lib.path_of(n))]
        if action.type == "merge_skills" and action.into and action.into not in names:
            if person_touched(store, agent_id, lib.path_of(action.into)):
                mine.append(action.into)
        if mine:
            verb = "merge over" if action.type == "merge_skills" else "retire"
            return f"would {verb} skill(s) a person wrote or edited: {', '.join(mine)}"
    return ""
