"""What the ledger (``store``) and the recall index share: how a SQLite file is opened and how a
write transaction is taken, so both behave the same across processes.

WAL lets readers proceed while one writer writes; ``busy_timeout`` makes writers queue instead of
failing; ``BEGIN IMMEDIATE`` takes the write lock up front, so a transaction never fails half-way
on a lock upgrade, and a crash leaves all of it or none of it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from .errors import DataError

BUSY_TIMEOUT_MS = 60_000


class SQLiteFile:
    """One connection to one database file, with nested-safe ``transaction()``."""

    #: words for error messages ("the store", "the recall index")
    what = "the database"
    #: what to do when the file is not usable
    broken_hint = "move the file aside; slowloop will start a new one"

    def __init__(self, path: Path, *, setup: Callable[[], None], foreign_keys: bool = False) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = not self.path.exists()
        try:
            self.conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_MS / 1000,
                                        isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise DataError(f"cannot open {self.what}: {exc}", path=str(self.path)) from None
        if new:
            with contextlib.suppress(OSError):
                os.chmod(self.path, 0o600)
        self.conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._depth = 0
        try:
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            if foreign_keys:
                self.conn.execute("PRAGMA foreign_keys = ON")
            setup()
        except sqlite3.DatabaseError as exc:
            raise DataError(f"{self.what} is not a usable SQLite database: {exc}",
                            path=str(self.path), hint=self.broken_hint) from None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; nested calls join the outer transaction."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            self.conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self.conn
            except BaseException:
                self._depth = 0
                self.conn.execute("ROLLBACK")
                raise
            else:
                self._depth = 0
                self.conn.execute("COMMIT")

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
