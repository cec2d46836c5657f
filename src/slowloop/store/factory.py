"""``open_store``: the one factory of the ledger — PostgreSQL when a URL is set, else the SQLite
file in the home (the two backends below it never import each other's factory)."""

from __future__ import annotations

from pathlib import Path

from .db import SQLiteStore, Store, database_url


def open_store(home: Path | None = None, *, url: str | None = None) -> Store:
    """The ledger of ``home``: on the PostgreSQL server of ``url`` (or of SLOWLOOP_DATABASE_URL /
    ``[ledger] database_url``), else the SQLite file in the home."""
    if url or database_url(home):
        from .postgres import PostgresStore

        return PostgresStore(home=home, url=url)
    return SQLiteStore(home=home)
