"""``slowloop watch``: follow transcript folders and observe new turns as they are written.

Polling, not inotify: it works the same on every platform and every file system (network home
folders included), and a poll of a few hundred files is a few hundred ``stat`` calls. A file is
read only when its size or mtime moved; what is read is only the new part (``follow``), and a
rotated, truncated or rewritten file is read again from the start. A half-written last line waits
for the next poll. SIGTERM or SIGINT stops the loop after the file being read.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Config, load_config
from ..errors import SlowloopError
from ..paths import home as default_home
from ..store import Store, ledger, open_store
from .follow import FollowResult, observe_new

SUFFIXES = (".jsonl", ".json")


def _followed_by_another(store: Store, path: str, agent: str) -> str | None:
    """The agent that already follows ``path`` (a Claude Code or Codex hook), if not ``agent``."""
    try:
        return ledger.follower_of(store, path, other_than=agent)
    except UnicodeEncodeError:  # a name that is not UTF-8 was never followed by anyone
        return None


def default_folders() -> list[Path]:
    """The folders the agents people use write to: Claude Code projects and Codex sessions."""
    from .codex import sessions_dir

    return [Path(os.path.expanduser("~")) / ".claude" / "projects", sessions_dir()]


@dataclass
class WatchStats:
    polls: int = 0
    files_read: int = 0
    turns: int = 0
    new: int = 0
    updated: int = 0
    problems: list[str] = field(default_factory=list)


def _scan(folders: list[Path]) -> dict[str, tuple[int, int, float]]:
    """path -> (inode, size, mtime) of every transcript file under the folders."""
    out: dict[str, tuple[int, int, float]] = {}
    for folder in folders:
        if folder.is_file():
            try:
                st = folder.stat()
                out[str(folder.resolve())] = (st.st_ino, st.st_size, st.st_mtime)
            except OSError:
                pass
            continue
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            for name in files:
                if name.endswith(SUFFIXES):
                    p = os.path.join(root, name)
                    try:
                        st = os.stat(p)
                    except OSError:
                        continue  # removed between the listing and the stat
                    out[os.path.realpath(p)] = (st.st_ino, st.st_size, st.st_mtime)
    return out


class Watcher:
    def __init__(self, folders: list[Path], *, agent: str = "default", home: Path | None = None,
                 cfg: Config | None = None, interval: float = 1.0,
                 on_result: Callable[[FollowResult], None] | None = None) -> None:
        self.folders = [Path(f).expanduser() for f in folders]
        self.agent = agent
        self.home = home or default_home()
        self.cfg = cfg or load_config(self.home)
        self.interval = interval
        self.on_result = on_result
        self.stop_event = threading.Event()
        self.stats = WatchStats()
        self._seen: dict[str, tuple[int, int, float]] = {}

    def poll(self, store: Store) -> int:
        """One pass: observe every file that changed since the last pass; returns files read."""
        current = _scan(self.folders)
        read = 0
        changed = 0  # turns new or grown in this pass
        for path, sig in sorted(current.items()):
            if self.stop_event.is_set():
                break
            if self._seen.get(path) == sig:
                continue
            owner = _followed_by_another(store, path, self.agent)
            if owner:
                # a hook already observes this session under its own agent: one observation each
                self._seen[path] = sig
                continue
            try:
                res = observe_new(path, agent=self.agent, store=store, cfg=self.cfg, home=self.home)
            except FileNotFoundError:
                continue  # rotated away mid-read: the next pass sees the new file
            except (SlowloopError, OSError, ValueError, sqlite3.Error) as exc:
                # One file we cannot read (a name that is not UTF-8, no permission, its lock held
                # by a long hook) must not end a watch that follows hundreds; it is tried again
                # when it changes.
                self._seen[path] = sig
                res = FollowResult(path=path, skipped=f"cannot read it: {exc}")
                self.stats.problems.append(f"{path!r}: cannot read it: {exc}")
                if self.on_result is not None:
                    self.on_result(res)
                continue
            self._seen[path] = sig
            read += 1
            self.stats.files_read += 1
            self.stats.turns += res.turns
            self.stats.new += res.new
            self.stats.updated += res.updated
            changed += res.new + res.updated
            self.stats.problems.extend(res.problems)
            if self.on_result is not None and (res.turns or res.reset or res.skipped or res.problems):
                self.on_result(res)
        for gone in set(self._seen) - set(current):
            del self._seen[gone]
        self.stats.polls += 1
        if changed:
            from .recorded import turns_recorded

            turns_recorded(self.home or default_home(), self.agent, store, self.cfg, changed=changed, why="watch")
        return read

    def run(self, *, once: bool = False) -> WatchStats:
        with open_store(home=self.home) as store:
            while not self.stop_event.is_set():
                self.poll(store)
                if once:
                    break
                self.stop_event.wait(self.interval)
        return self.stats

    def stop(self, *_args: object) -> None:
        self.stop_event.set()

    def install_signal_handlers(self) -> None:
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)


def watch(folders: list[Path] | None = None, *, agent: str = "default", once: bool = False,
          interval: float = 1.0, home: Path | None = None,
          on_result: Callable[[FollowResult], None] | None = None) -> WatchStats:
    """Follow ``folders`` (default: ``default_folders()`` that exist) until SIGTERM/SIGINT."""
    chosen = [f for f in (folders or default_folders()) if Path(f).expanduser().exists()]
    w = Watcher(chosen, agent=agent, home=home, interval=interval, on_result=on_result)
    if threading.current_thread() is threading.main_thread():
        w.install_signal_handlers()
    return w.run(once=once)
