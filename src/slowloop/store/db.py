"""The ledger: SQLite in the home by default, PostgreSQL for a fleet; numbered migrations.

Markdown files are what people edit; this database is the machine's ledger of what it saw and did
(turns, errors, signals, impressions, invocations, edits, reflections, history of changes).

Which database: ``SLOWLOOP_DATABASE_URL=postgresql://…`` (or ``[ledger] database_url`` in
config.toml) puts the ledger on a PostgreSQL server many machines share
(:mod:`slowloop.store.postgres`); without it, ``slowloop.db`` in the home. ``open_store(home)`` opens
whichever is configured, the way ``pathlib.Path`` gives a ``PosixPath``; the data-access layer
(:mod:`~slowloop.store.ledger`, :mod:`~slowloop.store.artifacts`) writes SQL both understand, so no
module above it knows which one it talks to.

SQLite: several processes (an agent's hook, ``slowloop watch``, a background reflector) write at once: each
opens its own connection, WAL lets readers proceed while one writer writes, ``busy_timeout`` makes
writers queue instead of failing, and every write is one ``BEGIN IMMEDIATE`` transaction, so a
crash leaves all of a write or none of it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, overload

from .. import clock
from ..errors import AccessError, DataError, UserError
from ..fsutil import confine
from ..paths import db_path, ensure_home, validate_agent_name
from ..sqlite import BUSY_TIMEOUT_MS, SQLiteFile
from .migrations import MIGRATIONS

__all__ = ["Store", "SQLiteStore", "database_url", "ledger_exists", "BUSY_TIMEOUT_MS"]

#: the variable that puts the ledger on a PostgreSQL server (``[ledger] database_url`` in
#: config.toml says the same; the variable wins)
URL_VARIABLE = "SLOWLOOP_DATABASE_URL"


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


def database_url(home: Path | None = None) -> str:
    """The configured PostgreSQL URL, or ``""`` for the SQLite ledger in the home.

    ``SLOWLOOP_DATABASE_URL`` first, then ``[ledger] database_url`` (``SLOWLOOP_LEDGER__DATABASE_URL``,
    as the configuration loader reads every key, else config.toml: the file is
    parsed only when it mentions the key: opening the store is on the hooks' fast path). Anything
    but a ``postgresql://`` URL is an error naming where it came from.
    """
    url = os.environ.get(URL_VARIABLE, "").strip()
    source = f"environment variable {URL_VARIABLE}"
    if not url and os.environ.get("SLOWLOOP_LEDGER__DATABASE_URL", "").strip():
        # the configuration loader's own override of [ledger] database_url: the same setting
        from ..config import load_config

        url = load_config(home).ledger.database_url.strip()
        source = "environment variable SLOWLOOP_LEDGER__DATABASE_URL"
    if not url:
        from ..paths import config_path

        path = config_path(home)
        try:
            raw = path.read_bytes()
        except OSError:
            return ""
        if b"database_url" not in raw:
            return ""
        from ..config import load_config

        url = load_config(home).ledger.database_url.strip()
        source = f"{path}: [ledger] database_url"
    if url and not url.startswith(("postgresql://", "postgres://")):
        from ..config import redact_url

        raise UserError(f"{source} = {redact_url(url)!r} is not a PostgreSQL URL",
                        hint="give postgresql://user@host/database, or remove it to keep the "
                             "ledger in slowloop.db in the home")
    return url


def ledger_exists(home: Path | None = None) -> bool:
    """Whether there is a ledger to read (opening one that does not exist would create it): a
    configured PostgreSQL ledger always is; a SQLite one once its file exists."""
    return bool(database_url(home)) or db_path(home).exists()


class Store(ABC):
    """The ledger, whichever database holds it. :func:`open_store` opens the configured one: a
    :class:`SQLiteStore` in the home, or a :class:`~slowloop.store.postgres.PostgresStore` when a
    database URL is set; ``SQLiteStore(path)`` opens that SQLite file.

    What every implementation offers (the data-access layer uses nothing else): ``query`` and
    ``execute`` with ``?`` placeholders, ``transaction()`` (nested calls join the outer one;
    inside it, ``lock(key)`` makes other writers of the same key wait until it ends), rows read
    by column name or position, and the agents/meta helpers below.
    """

    what = "the store"
    #: the slowloop home this process works in (skills, memo and memory files live there)
    home: Path
    #: "sqlite" | "postgresql"
    backend: str = ""
    #: whether several machines may share this ledger (then a file path alone names no file)
    shared: bool = False
    #: what to do when :meth:`integrity` finds the ledger damaged
    recovery: str = RECOVERY

    # implemented by each database (an abstract interface: a subclass missing one cannot be made)
    @property
    @abstractmethod
    def where(self) -> str:
        """Where the ledger lives, for messages: its file, or its URL without the password."""

    @abstractmethod
    def transaction(self) -> contextlib.AbstractContextManager[Any]:
        """One write transaction; nested calls join the outer one."""

    @abstractmethod
    def query(self, sql: str, params: Any = ()) -> list[Any]:
        """The rows of one statement (``?`` placeholders)."""

    @abstractmethod
    def execute(self, sql: str, params: Any = ()) -> Any:
        """Run one statement; the cursor (``fetchone``, ``rowcount``, ``lastrowid``)."""

    @abstractmethod
    def lock(self, key: str) -> None:
        """Inside a write transaction: other writers that lock ``key`` wait until it ends."""

    @abstractmethod
    def trace(self, callback: Callable[[str], object] | None) -> None:
        """Call ``callback`` with every SQL statement run from now on (None: stop)."""

    def restart_ids(self) -> None:  # noqa: B027 - SQLite needs nothing: rowids follow the largest
        """After rows were inserted with their ids given: new rows get ids past the largest."""

    def transport(self) -> str:
        """How this process reaches the ledger: ``"file"``, ``"unix socket"``, ``"tls"``, or
        ``"plaintext"`` (turns crossing the network unencrypted)."""
        return "file"

    def clock_skew(self) -> float | None:
        """Seconds this machine's clock is behind the database server's (None: the same machine).
        Leases and the dirty gate compare times written by different machines."""
        return None

    @abstractmethod
    def integrity(self, limit: int = 10) -> list[str]:
        """``[]`` when the ledger is sound, else what is wrong with it."""

    @property
    @abstractmethod
    def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
            self.check_agent_access(name)  # another role's agent is no unknown agent
            return None
        with self.transaction() as db:
            db.execute("INSERT INTO agents(name, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                       (name, clock.iso()))
            found = db.execute("SELECT id FROM agents WHERE name = ?", (name,)).fetchone()
        if found is None:  # the name was taken, and not by a role this connection may act as
            self.check_agent_access(name)
            raise AccessError(f"agent {name!r} is not readable on {self.where}")
        return int(found[0])

    def check_agent_access(self, name: str) -> None:  # noqa: B027 - SQLite: one user's file
        """Raise :class:`~slowloop.errors.AccessError` when an agent of that name exists that
        this connection may not use (a shared ledger's other role's agent); SQLite: never."""

    def agents(self) -> list[Any]:
        return self.query("SELECT * FROM agents ORDER BY name")

    def agent(self, name: str) -> Any | None:
        """The agent's row; None for an unknown one (another role's agent is an error)."""
        rows = self.query("SELECT * FROM agents WHERE name = ?", (name,))
        if not rows:
            self.check_agent_access(name)
        return rows[0] if rows else None

    # -- meta ---------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self.query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO meta(key, value) VALUES (?, ?) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


class SQLiteStore(SQLiteFile, Store):
    """The ledger as one SQLite file (``slowloop.db`` in the home). Cheap to open; open one per
    process (or per thread).

    Opening refuses an empty, truncated or foreign file instead of taking it for a new ledger;
    :meth:`integrity` runs SQLite's own check (``doctor`` does, hooks do not: it reads every page).
    """

    what = "the store"
    broken_hint = RECOVERY
    backend = "sqlite"

    def __init__(self, path: Path | None = None, *, home: Path | None = None) -> None:
        if path is None:
            root = ensure_home(home)
            path = db_path(root)
            confine(Path(path), root)  # a slowloop.db planted as a symlink must not lead out
        self.home = Path(path).parent
        _check_file(Path(path))
        super().__init__(path, setup=self._migrate, foreign_keys=True)

    @property
    def where(self) -> str:
        return str(self.path)

    def lock(self, key: str) -> None:
        # BEGIN IMMEDIATE already holds the database's one write lock: nothing more to take.
        assert self._depth, "lock() outside a transaction"

    def trace(self, callback: Callable[[str], object] | None) -> None:
        self.conn.set_trace_callback(callback)

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


class _InTransaction:
    """The connection as migrations see it: ``executescript`` without its implicit COMMIT.

    ``sqlite3.Connection.executescript`` commits any open transaction first, which would end the
    ``BEGIN IMMEDIATE`` that makes a migration and its version bump one atomic step; so scripts
    run here statement by statement inside that transaction.
    """

    backend = "sqlite"

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
