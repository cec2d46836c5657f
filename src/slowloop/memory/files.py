"""The memory root: five names with strict roles, and every read-modify-write done safely.

A person may edit these files by hand at any moment, so each change re-reads the file under the
memory's lock and writes it back with ``atomic_write(expect=<hash read>)``; if an editor saved in
between, the change is re-applied on top of their version (a few times), then ``ConflictError``.
All slowloop processes serialise on one lock (``fsutil.lock_path_for(root)``, in the per-user lock
folder, never in the memory folder, which may be a project's), which is also what keeps
notes appended by other processes from being lost while an archive runs (see ``archive``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .. import clock
from ..config import Config, MemorySettings, load_config
from ..errors import ConflictError, DataError, UserError
from ..fsutil import atomic_write, file_lock, leads_outside, lock_path_for, read_text
from ..paths import DEFAULT_AGENT, layout
from ..tokens import estimate_tokens
from . import debts as debts_mod, sections

if TYPE_CHECKING:
    from .archive import ArchiveResult, Layer

from .layout import CHRONICLE, DEBTS, HEADERS, PAST, ROLE_FILES, STATE, SUMMARY  # noqa: F401  (their home)

_GITIGNORE = "# slowloop's lock files and an archive in progress are not history\n*.lock\n.archive-staging/\n"
_RETRIES = 5

T = TypeVar("T")


@dataclass(frozen=True)
class NoteResult:
    at: str
    text: str
    archived: ArchiveResult | None  # set when this note pushed the chronicle over a threshold


class Memory:
    """One operational memory: ``root`` holds the four role files and ``past/``."""

    def __init__(self, root: Path, settings: MemorySettings | None = None, *,
                 within: Path | None = None) -> None:
        self.root = Path(root)
        # what the files must stay inside, through no link: the project for a project's memory
        self.within = Path(within) if within is not None else self.root
        self._settings = settings
        self._depth = 0
        self._shared = False

    def __repr__(self) -> str:
        return f"Memory({str(self.root)!r})"

    @classmethod
    def for_agent(cls, agent: str = DEFAULT_AGENT, home: Path | None = None,
                  config: Config | None = None) -> Memory:
        """``<home>/agents/<agent>/memory``."""
        cfg = config or load_config(home)
        return cls(layout(agent, home).memory, cfg.memory)

    @classmethod
    def for_dir(cls, directory: Path, config: Config | None = None) -> Memory:
        """``<directory>/memory``: a memory kept in a project folder, versioned with it."""
        cfg = config or load_config()
        return cls(Path(directory) / "memory", cfg.memory, within=Path(directory))

    @property
    def settings(self) -> MemorySettings:
        if self._settings is None:
            self._settings = load_config().memory
        return self._settings

    def path(self, name: str) -> Path:
        return self.root / name

    # -- existence and locking ------------------------------------------------------------------

    def exists(self) -> bool:
        return any(self.path(n).exists() for n in ROLE_FILES)

    def require(self) -> None:
        if not self.exists():
            raise UserError(f"no memory at {self.root}",
                            hint="create it with `slowloop memory init` (add --dir PATH for a project folder)")

    def init(self) -> list[str]:
        """Create the missing role files (never touches an existing one); return the names created."""
        created: list[str] = []
        with self.lock():
            for name in ROLE_FILES:
                p = self.path(name)
                if not p.exists():
                    atomic_write(p, HEADERS[name] + "\n", expect=None)
                    created.append(name)
            (self.root / PAST).mkdir(exist_ok=True)
            gi = self.path(".gitignore")
            if not gi.exists():
                atomic_write(gi, _GITIGNORE, expect=None, mode=0o644)
            if CHRONICLE in created:
                self._update(CHRONICLE, lambda t: (t.rstrip("\n") + "\n\n" + self._cycle_line() + "\n", None))
        return created

    def _cycle_line(self) -> str:
        return f"Cycle {self.cycle} · started {clock.iso()}"

    @contextlib.contextmanager
    def lock(self, *, shared: bool = False) -> Iterator[None]:
        """The memory-wide lock; re-entrant within this object. Finishes an interrupted archive first."""
        if self._depth:
            if self._shared and not shared:
                raise RuntimeError("cannot write to the memory while holding its read lock")
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        from .archive import STAGING, recover

        if not shared:
            self._refuse_a_linked_root()
        lock_path = lock_path_for(self.root)  # not in the folder: the memory may live in a project
        if shared and (self.root / STAGING).exists():
            with file_lock(lock_path):
                recover(self)
        with file_lock(lock_path, shared=shared):
            self._depth, self._shared = 1, shared
            try:
                if not shared:
                    recover(self)
                yield
            finally:
                self._depth = 0

    def _refuse_a_linked_root(self) -> None:
        """A memory folder linked out of its project (or home) is not written through: a repository
        could point ``memory/`` at a folder of the person's own."""
        real = leads_outside(self.root, self.within)
        if real is not None:
            raise DataError(f"the memory folder {self.root} leads outside {self.within} (to {real}); "
                            "not writing through it", path=str(self.root),
                            hint="replace the link with a real folder (`slowloop memory init --dir`)")

    # -- reading ----------------------------------------------------------------------------------

    def read(self, name: str) -> tuple[str, str | None]:
        """``(text, hash)``; a missing role file reads as its header alone (hash ``None``)."""
        text, digest = read_text(self.path(name), within=self.within)  # never a link: DataError
        if text is None:
            return HEADERS.get(name, "") + "\n", None
        return text, digest

    def text(self, name: str) -> str:
        if not self.root.is_dir():
            return self.read(name)[0]
        with self.lock(shared=True):
            return self.read(name)[0]

    def state_sections(self) -> list[sections.Section]:
        return sections.split_sections(self.text(STATE))[1]

    def chronicle(self) -> list[sections.ChronicleEntry]:
        return sections.chronicle_entries(self.text(CHRONICLE))[1]

    def debts_file(self) -> debts_mod.DebtsFile:
        with self.lock(shared=True):
            return debts_mod.parse_debts(self.read(DEBTS)[0], str(self.path(DEBTS)))

    def debts(self, *, include_closed: bool = True) -> list[debts_mod.Debt]:
        out = self.debts_file().debts
        return out if include_closed else [d for d in out if d.status != "closed"]

    def layers(self) -> list[Layer]:
        from .archive import list_layers

        if not self.root.is_dir():
            return []
        with self.lock(shared=True):  # the lock finishes an interrupted archive first
            return list_layers(self)

    @property
    def cycle(self) -> int:
        """1 for a memory never archived; +1 per archived layer."""
        from .archive import list_layers

        return len(list_layers(self)) + 1

    def chronicle_size(self) -> tuple[int, int]:
        text = self.text(CHRONICLE)
        return len(text.splitlines()), estimate_tokens(text)

    def over_threshold(self) -> bool:
        lines, tokens = self.chronicle_size()
        s = self.settings
        return lines > s.chronicle_max_lines or tokens > s.chronicle_max_tokens

    # -- writing ----------------------------------------------------------------------------------

    def _update(self, name: str, change: Callable[[str], tuple[str, T]]) -> T:
        """Read-modify-write ``name`` under the lock; re-apply on a concurrent hand edit."""
        with self.lock():
            for _ in range(_RETRIES):
                text, digest = self.read(name)
                new, result = change(text)
                if new == text and digest is not None:
                    return result  # nothing to change: the file (and its mtime) stay as they were
                try:
                    atomic_write(self.path(name), new, expect=digest)
                    return result
                except ConflictError:
                    continue
            raise ConflictError(f"{self.path(name)} kept changing while slowloop tried to update it",
                                hint="save your edits in the editor, then run the command again")

    def note(self, text: str, *, at: str | None = None,
             summarize: Callable[[str], str] | None = None) -> NoteResult:
        """Append a timestamped chronicle entry; archive if the chronicle passed a threshold."""
        body = str(text).strip()
        if not body:
            raise UserError("a note needs some text", hint='e.g. slowloop memory note "switched CI to arm64 because…"')
        stamp = at or clock.iso()
        archived = None
        with self.lock():
            self.require()
            self._update(CHRONICLE, lambda t: (t.rstrip("\n") + "\n\n" + sections.render_entry(stamp, body), None))
            archived = self._archive_if_over(summarize)
        return NoteResult(stamp, body, archived)

    def session_entry(self, marker: str, at: str, body: str, *,
                      summarize: Callable[[str], str] | None = None, defer_archive: bool = False) -> NoteResult | None:
        """Write one session's chronicle entry, ``## {at} · {marker}``: replaced in place when the
        session wrote one already (the same session recorded twice leaves one entry), created with
        the memory when there is none yet. ``None`` when the entry was already as given."""
        with self.lock():
            if not self.exists():
                self.init()
            changed = self._update(CHRONICLE, lambda t: sections.upsert_entry(t, marker, at, body.strip()))
            if not changed:
                return None
            return NoteResult(at, body.strip(), self._archive_if_over(summarize, defer=defer_archive))

    def _archive_if_over(self, summarize: Callable[[str], str] | None, *, defer: bool = False) -> ArchiveResult | None:
        """The archive runs by itself once the chronicle passes its cap (``memory.auto_archive``).
        ``defer``: a reflection with a model will condense it (``reflect``), unless the chronicle
        is already twice past its cap — then the extractive summary does, now."""
        if not (self.settings.auto_archive and self.over_threshold()):
            return None
        lines, tokens = self.chronicle_size()
        if defer and lines <= 2 * self.settings.chronicle_max_lines and tokens <= 2 * self.settings.chronicle_max_tokens:
            return None
        from .archive import archive

        return archive(self, reason="threshold", summarize=summarize)

    def set_state(self, section: str, text: str) -> None:
        """Replace the body of one ``## section`` of system-state.md (added when missing)."""
        title = " ".join(str(section).split())
        if not title or title.startswith("#"):
            raise UserError(f"state section name {section!r} is not valid",
                            hint='give a plain title, e.g. slowloop memory state set "CI" "runs on arm64"')
        body = str(text).strip()
        if not body:
            raise UserError(f"no text for state section {title!r}", hint="the state says what is true today")
        with self.lock():
            self.require()
            self._update(STATE, lambda t: (sections.replace_section(t, title, body), None))

    def _all_debt_numbers(self) -> list[int]:
        from .archive import list_layers

        nums = [d.number for d in self.debts_file().debts]
        for layer in list_layers(self):
            p = layer.path / DEBTS
            if p.exists():
                nums += [d.number for d in debts_mod.parse_debts(p.read_text(encoding="utf-8"), str(p)).debts]
        return nums

    def add_debt(self, text: str, *, status: str = "open", notes: tuple[str, ...] = ()) -> debts_mod.Debt:
        title = debts_mod.clean_text(text)
        st = debts_mod.validate_status(status)
        with self.lock():
            self.require()
            number = max(self._all_debt_numbers(), default=0) + 1
            stamp = clock.iso()
            debt = debts_mod.Debt(debts_mod.format_id(number), st, title, opened=stamp,
                                  closed=stamp if st == "closed" else None,
                                  notes=tuple(" ".join(n.split()) for n in notes if n.strip()))

            def change(t: str) -> tuple[str, debts_mod.Debt]:
                f = debts_mod.parse_debts(t, str(self.path(DEBTS)))
                return f.with_debt(debt).render(), debt

            return self._update(DEBTS, change)

    def update_debt(self, debt_id: str, *, status: str | None = None, text: str | None = None,
                    note: str | None = None) -> debts_mod.Debt:
        """Change a debt's status, title or add a note line; unknown ids name the file and the ids known."""
        did = debts_mod.validate_id(debt_id)
        st = debts_mod.validate_status(status) if status is not None else None
        title = debts_mod.clean_text(text) if text is not None else None
        with self.lock():
            self.require()

            def change(t: str) -> tuple[str, debts_mod.Debt]:
                f = debts_mod.parse_debts(t, str(self.path(DEBTS)))
                d = f.get(did)
                if d is None:
                    raise self._unknown_debt(did, f)
                stamp = clock.iso()
                new_status = st or d.status
                closed = None
                if new_status == "closed":  # keep the first closing time; stamp one if closed by hand
                    closed = (d.closed or stamp) if d.status == "closed" else stamp
                notes = d.notes + ((" ".join(note.split()),) if note and note.strip() else ())
                new = debts_mod.Debt(d.id, new_status, title or d.text, d.opened, stamp, closed, notes, d.line)
                return f.with_debt(new).render(), new

            return self._update(DEBTS, change)

    def _unknown_debt(self, did: str, f: debts_mod.DebtsFile) -> UserError:
        from .archive import list_layers

        for layer in reversed(list_layers(self)):
            p = layer.path / DEBTS
            if p.exists() and debts_mod.parse_debts(p.read_text(encoding="utf-8"), str(p)).get(did):
                return UserError(f"debt {did} was closed and archived in {p}",
                                 hint="archived debts stay as they closed; add a new debt if it is open again")
        known = ", ".join(d.id for d in f.debts) or "none"
        return UserError(f"no debt {did} in {self.path(DEBTS)} (known: {known})",
                         hint="see `slowloop memory debt list`")

    # -- the archive ------------------------------------------------------------------------------

    def archive(self, *, force: bool = False, milestone: str | None = None,
                summarize: Callable[[str], str] | None = None) -> ArchiveResult:
        from .archive import archive

        return archive(self, force=force, milestone=milestone, summarize=summarize)
