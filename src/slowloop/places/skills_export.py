"""Learned skills where Claude Code and Codex load them: one symlink per skill, kept current.

Decision: a symlink per skill (``<target>/<name> -> <home>/agents/<agent>/skills/<name>``), not a
copy and not a link of the whole folder. A per-skill link means a patched skill is current the
moment it is written, and a person who edits the skill from their agent's folder edits the one
true file (slowloop notices hand edits). The folder itself stays a real directory, because Claude
Code stopped following a symlinked ``~/.claude/skills`` while it still follows links inside it,
and because the user's own skills live there too.

Ownership needs no manifest: an entry is slowloop's when it is a symlink into the agent's skills
folder. ``sync`` adds links for new skills, removes links whose skill was retired, and never
touches anything else — a real folder with the same name as a learned skill is reported as a
conflict and left alone. Standard library only: the SessionStart hook runs this.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ExportResult:
    target: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def skill_names(source: Path) -> set[str]:
    try:
        return {e.name for e in os.scandir(source)
                if not e.name.startswith(".") and e.is_dir() and os.path.isfile(os.path.join(e.path, "SKILL.md"))}
    except FileNotFoundError:
        return set()


def _ours(entry: os.DirEntry, source: Path) -> bool:
    if not entry.is_symlink():
        return False
    try:
        dest = os.readlink(entry.path)
    except OSError:
        return False
    if not os.path.isabs(dest):
        dest = os.path.join(os.path.dirname(entry.path), dest)
    return os.path.dirname(os.path.normpath(dest)) == os.path.normpath(str(source))


def owned_links(source: Path, target: Path) -> list[str]:
    """Names of the entries in ``target`` that are slowloop's links into ``source``."""
    try:
        return sorted(e.name for e in os.scandir(target) if _ours(e, source))
    except FileNotFoundError:
        return []


def sync(source: Path, target: Path, *, remove_all: bool = False) -> ExportResult:
    """Make ``target`` hold one link per skill in ``source`` (``remove_all``: only remove ours)."""
    source, target = Path(source), Path(target)
    result = ExportResult(str(target))
    wanted = set() if remove_all else skill_names(source)
    if wanted:
        target.mkdir(parents=True, exist_ok=True)
    try:
        entries = {e.name: e for e in os.scandir(target)}
    except FileNotFoundError:
        entries = {}
    for name, entry in sorted(entries.items()):
        if _ours(entry, source) and name not in wanted:
            os.unlink(entry.path)
            result.removed.append(name)
    for name in sorted(wanted):
        existing = entries.get(name)
        if existing is not None:
            if _ours(existing, source):
                result.kept.append(name)
            else:
                result.conflicts.append(name)
            continue
        link = target / name
        try:
            os.symlink(source / name, link, target_is_directory=True)
        except FileExistsError:  # another hook synced it a moment ago
            result.kept.append(name)
            continue
        result.added.append(name)
    return result
