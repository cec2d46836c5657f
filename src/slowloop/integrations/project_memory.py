"""Where a project install keeps the operational memory: in the project, versioned with it
(``committed``, the default), in the project but out of git (``private``: this clone's own
``.git/info/exclude``), or in the slowloop home (``home``: ``agents/<agent>/memory``).

The project's memory is ``<project>/memory/`` (what ``slowloop memory init --dir`` makes): once it
exists, the hooks write each session's entry there, the bootstrap leads with it, and ``slowloop
memory …`` run inside the project uses it without flags.
"""

from __future__ import annotations

from pathlib import Path

from ..memory import Memory
from ..memory.layout import STATE

MODES = ("committed", "private", "home")


def set_up(project: Path, agent: str, mode: str | None) -> str:
    """Make (or leave) the project's memory for ``mode``; one line for the person. ``None``: keep
    what the project has, or start a committed memory."""
    from .claude_code import keep_out_of_git, release_from_git

    mem = Memory.for_dir(project)
    home = f"the slowloop home (agents/{agent}/memory); `slowloop memory …` inside the project finds it"
    if mode == "home":
        return f"the memory stays in {home}"
    if (mem.root / STATE).is_file() and mode is None:
        return f"the project's memory is {mem.root} (as it was)"
    if _foreign(mem.root):
        return f"{mem.root} is a folder of the project's own: the memory stays in {home}"
    mem.init()
    if mode == "private":
        keep_out_of_git(project, [mem.root])
        return f"the project's memory is {mem.root}, private to this machine (in .git/info/exclude)"
    release_from_git(project, [mem.root])
    return (f"the project's memory is {mem.root}, to commit with the project "
            "(`--memory private` keeps it out of git)")


def _foreign(root: Path) -> bool:
    """A ``memory/`` folder with files that are not slowloop's."""
    if not root.is_dir() or (root / STATE).is_file():
        return False
    return any(True for _ in root.iterdir())


def tear_down(home: Path, project: Path) -> str | None:
    """After the project's last install was removed: a memory still as install made it (headers
    only, nothing archived) goes too, so the project is left as install found it; one that holds
    anything is the project's history and stays. One line for the person, or None."""
    from ..places.targets import load
    from .claude_code import release_from_git

    if any(t.get("project") == str(project) for t in load(home)):
        return None  # another harness's install of this project still uses it
    mem = Memory.for_dir(project)
    if not (mem.root / STATE).is_file():
        return None
    if not _untouched(mem):
        return f"the project's memory stays in {mem.root} (it is the project's history)"
    for p in sorted(mem.root.rglob("*"), key=lambda x: -len(x.parts)):  # what is inside first
        if p.is_dir():
            p.rmdir()
        else:
            p.unlink()
    mem.root.rmdir()
    release_from_git(project, [mem.root])
    return f"removed the project's memory {mem.root}: nothing was written in it yet"


def _untouched(mem: Memory) -> bool:
    from ..memory import sections
    from ..memory.files import _GITIGNORE
    from ..memory.layout import CHRONICLE, HEADERS, PAST

    expected = {n: HEADERS[n] + "\n" for n in HEADERS if n != CHRONICLE} | {".gitignore": _GITIGNORE}
    names = {p.name for p in mem.root.iterdir()}
    if names - set(expected) - {CHRONICLE, PAST} or any((mem.root / PAST).iterdir()):
        return False
    if any(mem.path(n).read_text(encoding="utf-8") != text for n, text in expected.items() if n in names):
        return False
    pre, entries = sections.chronicle_entries(mem.text(CHRONICLE))
    return not entries and all(x.startswith("Cycle 1 · started") for x in pre[1:] if x.strip())
