"""``slowloop ledger [status|copy]``: where the ledger is, and moving it to a PostgreSQL server."""

from __future__ import annotations

import sys

import click

from .common import echo_json, get_app, json_option


@click.group()
def ledger() -> None:
    """The ledger: turns, signals, metrics, reflections, history, leases.

    SQLite in the home by default; on a PostgreSQL server many machines share when
    SLOWLOOP_DATABASE_URL (or [ledger] database_url) is set.

    \b
    Example:
      slowloop ledger status
      slowloop ledger copy --to postgresql://me@db.internal/slowloop
    """


@ledger.command("status")
@json_option
def status(as_json: bool) -> None:
    """Which database holds the ledger, its schema version, whether it is sound, and its rows.

    \b
    Example:
      slowloop ledger status --json
    """
    from ..store.copy import row_counts

    store = get_app().store
    out = {"backend": store.backend, "where": store.where, "transport": store.transport(),
           "schema_version": store.schema_version, "problems": store.integrity(),
           "rows": row_counts(store)}
    if as_json:
        echo_json(out)
        return
    kind = "PostgreSQL" if store.backend == "postgresql" else "SQLite"
    click.echo(f"{kind} at {out['where']} over {out['transport']} (schema version "
               f"{out['schema_version']}): "
               + ("sound" if not out["problems"] else "DAMAGED: " + "; ".join(out["problems"])))
    click.echo("  " + ", ".join(f"{n} {t}" for t, n in out["rows"].items()))


@ledger.command("copy")
@click.option("--to", "url", required=True, metavar="URL",
              help="postgresql://… of an empty database (the password from ~/.pgpass or PGPASSWORD).")
@json_option
def copy(url: str, as_json: bool) -> None:
    """Copy this home's SQLite ledger into an empty PostgreSQL database, in one transaction.

    The first machine of a fleet seeds the shared ledger this way: turns, signals, metrics,
    reflections, history (undo keeps working), proposals and followed files, with their ids.
    Nothing here changes; afterwards point this machine at the server with SLOWLOOP_DATABASE_URL
    or [ledger] database_url. Other machines start recording there as they are.

    \b
    Example:
      slowloop ledger copy --to postgresql://me@db.internal/slowloop
    """
    from ..config import redact_url
    from ..errors import UserError
    from ..paths import db_path
    from ..store import open_store
    from ..store.copy import copy_ledger, row_counts
    from ..store.db import SQLiteStore

    app = get_app()
    if not url.startswith(("postgresql://", "postgres://")):
        raise UserError(f"--to {url!r} is not a PostgreSQL URL",
                        hint="give postgresql://user@host/database")
    source_path = db_path(app.home)
    if not source_path.exists():
        raise UserError(f"there is no SQLite ledger to copy at {source_path}",
                        hint="SLOWLOOP_HOME names the home whose slowloop.db is copied")
    with SQLiteStore(source_path) as source, open_store(home=app.home, url=url) as target:
        total = sum(row_counts(source).values())
        with click.progressbar(length=total, label="copying", file=sys.stderr,
                               show_pos=True) as bar:
            copied = copy_ledger(source, target, progress=lambda _t, n: bar.update(n))
    shown = redact_url(url)
    if as_json:
        echo_json({"from": str(source_path), "to": shown, "rows": copied})
        return
    click.echo(f"copied {sum(copied.values())} rows from {source_path} to {shown}: "
               + ", ".join(f"{n} {t}" for t, n in copied.items() if n))
    click.echo(f"next: export SLOWLOOP_DATABASE_URL='{shown}' (or [ledger] database_url in "
               "config.toml) on this machine and the others")
