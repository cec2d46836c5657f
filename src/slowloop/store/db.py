"""The SQLite ledger: one file in the home, WAL, numbered migrations, safe across processes.

Markdown files are what people edit; this database is the machine's ledger of what it saw and did
(turns, errors, signals, impressions, invocations, edits, reflections, history of changes).

Several processes (an agent's hook, ``slowloop watch``, a background reflector) write at once: each
opens its own connection, WAL lets readers proceed while one writer writes, ``busy_timeout`` makes
writers queue instead of failing, and every write is one ``BEGIN IMMEDIATE`` transaction, so a
crash leaves all of a write or none of it.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any, Literal, overload

from .. import clock
from ..errors import DataError
from ..fsutil import confine
from ..paths import db_path, ensure_home, validate_agent_name
from ..sqlite import BUSY_TIMEOUT_MS, SQLiteFile
from .migrations import MIGRATIONS

__all__ = ["Store", "open_store", "BUSY_TIMEOUT_MS"]


RECOVERY = ("stop what uses slowloop (hooks, `slowloop watch`, the daemon); copy slowloop.db and "
            "its -wal/-shm files aside; try `sqlite3 slowloop.db .recover | sqlite3 recovered.db` "
            "and put recovered.db in its place; failing that, move slowloop.db aside and slowloop "
            "starts a new ledger (skills, memo and memory files are kept; history, undo and "
            "ingest offsets start over)")
# A file sqlite3.connect just created is empty for the few milliseconds before the first
# migration writes its header; an empty ledger older than this is a truncated one.
_FRESH_SECONDS = 10.0


def _check_file(path: Path) -> None:
    """Refuse an empty ledger file before SQLite silently makes a new ledger of it."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return
    if st.st_size == 0:
        if time.time() - st.st_mtime > _FRESH_SECONDS:  # the file's clock, not a test's
            raise DataError("the ledger is an empty (0-byte) file: its history is gone, and "
                            "slowloop will not start a new one over it", path=str(path),
                            hint=RECOVERY)
    # Nothing else is read here: opening and closing the file in this process would drop the
    # POSIX locks another connection of this process holds on it. A foreign file is refused by
    # SQLite itself when it is opened ("not a usable SQLite database", with the same steps).


class Store(SQLiteFile):
    """A connection to the ledger. Cheap to open; open one per process (or per thread).

    Opening refuses an empty, truncated or foreign file instead of taking it for a new ledger;
    :meth:`integrity` runs SQLite's own check (``doctor`` does, hooks do not: it reads every page).
    """

    what = "the store"
    broken_hint = RECOVERY

    def __init__(self, path: Path | None = None, *, home: Path | None = None) -> None:
        if path is None:
            root = ensure_home(home)
            path = db_path(root)
            confine(Path(path), root)  # a slowloop.db planted as a symlink must not lead out
        _check_file(Path(path))
        super().__init__(path, setup=self._migrate, foreign_keys=True)

    def integrity(self, limit: int = 10) -> list[str]:
        """SQLite's ``quick_check``: ``[]`` when the ledger is sound, else what is damaged."""
        try:
            rows = self.conn.execute(f"PRAGMA quick_check({int(limit)})").fetchall()
        except sqlite3.DatabaseError as exc:
            return [str(exc)]
        found = [str(r[0]) for r in rows]
        return [] if found == ["ok"] else found

    # -- schema -------------------------------------------------------------------------------
    def _migrate(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version >= len(MIGRATIONS):
            return
        with self.transaction():
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            for number, fn in enumerate(MIGRATIONS[version:], start=version + 1):
                fn(_InTransaction(self.conn))
                self.conn.execute(f"PRAGMA user_version = {number}")

    @property
    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    # -- queries ------------------------------------------------------------------------------
    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        with self._lock:
            return self.conn.execute(sql, params)

    def query(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self.conn.execute(sql, params).fetchall()

    # -- agents -------------------------------------------------------------------------------
    @overload
    def agent_id(self, name: str, *, create: Literal[True] = True) -> int: ...
    @overload
    def agent_id(self, name: str, *, create: bool) -> int | None: ...

    def agent_id(self, name: str, *, create: bool = True) -> int | None:
        """The agent's id, created on first use; with ``create=False``, ``None`` for an unknown one."""
        validate_agent_name(name)
        row = self.query("SELECT id FROM agents WHERE name = ?", (name,))
        if row:
            return int(row[0]["id"])
        if not create:
            return None
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO agents(name, created_at) VALUES (?, ?)",
                       (name, clock.iso()))
            return int(db.execute("SELECT id FROM agents WHERE name = ?", (name,)).fetchone()[0])

    def agents(self) -> list[sqlite3.Row]:
        return self.query("SELECT * FROM agents ORDER BY name")

    def agent(self, name: str) -> sqlite3.Row | None:
        rows = self.query("SELECT * FROM agents WHERE name = ?", (name,))
        return rows[0] if rows else None

    # -- meta ---------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self.query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO meta(key, value) VALUES (?, ?) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


class _InTransaction:
    """The connection as migrations see it: ``executescript`` without its implicit COMMIT.

    ``sqlite3.Connection.executescript`` commits any open transaction first, which would end the
    ``BEGIN IMMEDIATE`` that makes a migration and its version bump one atomic step; so scripts
    run here statement by statement inside that transaction.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def executescript(self, script: str) -> None:
        buf = ""
        for line in script.splitlines(keepends=True):
            buf += line
            if sqlite3.complete_statement(buf):
                self._conn.execute(buf)
                buf = ""
        if buf.strip():
            self._conn.execute(buf)

    def execute(self, sql: str, /) -> sqlite3.Cursor:
        return self._conn.execute(sql)


def open_store(home: Path | None = None) -> Store:
    return Store(home=home)
