"""Moving a ledger from SQLite to a PostgreSQL server: ``slowloop ledger copy --to URL``.

The first machine of a fleet seeds the shared ledger with what it has recorded — turns, signals,
skill metrics, reflections, history (so ``undo`` still works), proposals, followed files — rows
and ids as they are, in one transaction: a copy that fails leaves the server as it was. Only into
an empty ledger: ids, watermarks and history refer to each other, and merging two ledgers' ids
would make the dirty gate lose or repeat turns. Leases are not copied (they belong to processes
of this machine); a followed file's offset gets this machine's name (see ``ledger._local``).
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from ..errors import UserError
from .db import SQLiteStore, Store

__all__ = ["TABLES", "copy_ledger", "row_counts"]

#: every table of the ledger in the order foreign keys need (leases: never copied)
TABLES = ("agents", "turns", "errors", "signals", "turn_skills", "impressions", "invocations",
          "edits", "reflections", "rejections", "changes", "proposals", "offsets", "meta")
_BATCH = 1000


def row_counts(store: Store) -> dict[str, int]:
    """table → rows, for every copied table."""
    return {t: int(store.query(f"SELECT COUNT(*) FROM {t}")[0][0]) for t in TABLES}


def _columns(source: SQLiteStore, table: str) -> list[str]:
    return [r["name"] for r in source.query(f"PRAGMA table_info({table})")]


def copy_ledger(source: SQLiteStore, target: Store,
                progress: Callable[[str, int], None] | None = None) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; table → rows copied.

    ``progress(table, rows)`` is called after each batch.
    """
    if target.backend == "sqlite":
        raise UserError("the target must be a PostgreSQL ledger (a postgresql:// URL)")
    if source.schema_version != target.schema_version:
        raise UserError(f"the two ledgers are at different schema versions ({source.schema_version} "
                        f"and {target.schema_version})", hint="open both with the same slowloop")
    host = socket.gethostname()
    copied: dict[str, int] = {}
    with target.transaction() as tx:
        target.lock("copy")
        held = {t: n for t, n in row_counts(target).items() if n}
        if held:
            what = ", ".join(f"{n} {t}" for t, n in held.items())
            raise UserError(f"the PostgreSQL ledger at {target.where} is not empty ({what})",
                            hint="copy into a new database (createdb …); each further machine "
                                 "starts recording there as it is, and `slowloop sync` shares "
                                 "what they learned")
        for table in TABLES:
            cols = _columns(source, table)
            names = ", ".join(f'"{c}"' for c in cols)
            insert = f"INSERT INTO {table}({names}) VALUES ({', '.join('?' * len(cols))})"
            path_at = cols.index("path") if table == "offsets" else -1
            n = 0
            cur = source.conn.execute(f"SELECT {names} FROM {table} ORDER BY rowid")
            while batch := cur.fetchmany(_BATCH):
                rows = [tuple(r) for r in batch]
                if path_at >= 0:  # a followed file is this machine's file
                    rows = [(*r[:path_at], f"{host}:{r[path_at]}", *r[path_at + 1:]) for r in rows]
                tx.executemany(insert, rows)
                n += len(rows)
                if progress:
                    progress(table, len(rows))
            copied[table] = n
        target.restart_ids()
    return copied
