"""``slowloop ledger [status|copy|access|grant|revoke]``: where the ledger is, moving it to a
PostgreSQL server, and which database roles may use each agent there."""

from __future__ import annotations

import sys

import click

from .common import echo_json, get_app, json_option


@click.group()
def ledger() -> None:
    """The ledger: turns, signals, metrics, reflections, history, leases.

    SQLite in the home by default; on a PostgreSQL server many machines share when
    SLOWLOOP_DATABASE_URL (or [ledger] database_url) is set.

    On PostgreSQL each machine connects as its own role and the server lets a role read and
    write only the agents granted to it (`grant`, `revoke`, `access`).

    \b
    Example:
      slowloop ledger status
      slowloop ledger copy --to postgresql://me@db.internal/slowloop
      slowloop ledger grant alice --role bob
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
        raise UserError(f"--to {redact_url(url)!r} is not a PostgreSQL URL",
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


def _grant_dict(g) -> dict:
    return {"agent": g.agent, "role": g.role, "granted_at": g.granted_at, "granted_by": g.granted_by}


@ledger.command("access")
@click.option("--agent", default=None, metavar="AGENT", help="Only this agent's roles.")
@click.option("--role", default=None, metavar="ROLE", help="Only this role's agents.")
@json_option
def access(agent: str | None, role: str | None, as_json: bool) -> None:
    """Which database roles may read and write each agent, and who this machine is.

    The ledger's owner sees every agent; any other role sees the agents granted to it. On SQLite
    the ledger is this user's file and the list is empty.

    \b
    Example:
      slowloop ledger access --agent alice --json
    """
    from ..store.access import grants, identity

    store = get_app().store
    me = identity(store)
    rows = grants(store, agent=agent, role=role)
    if as_json:
        echo_json({"role": me.role, "owner": me.owner, "administers": me.administers,
                   "backend": me.backend, "grants": [_grant_dict(g) for g in rows]})
        return
    if me.backend != "postgresql":
        click.echo(f"SQLite at {store.where}: this user's file ({me.role}); nothing is granted")
        return
    click.echo(f"connected as {me.role}; the ledger's owner is {me.owner}"
               + (" (you: every agent is yours to see and grant)" if me.administers else ""))
    if not rows:
        click.echo("  no grants" + ("" if me.administers else f" for {me.role}: ask {me.owner} to "
                                    f"run `slowloop ledger grant AGENT --role {me.role}`"))
    for g in rows:
        click.echo(f"  {g.agent}: {g.role} (since {g.granted_at}, {g.granted_by})")


@ledger.command("grant")
@click.argument("agent")
@click.option("--role", required=True, metavar="ROLE", help="The database role to let in.")
@json_option
def grant_cmd(agent: str, role: str, as_json: bool) -> None:
    """Let a database role read and write an agent's turns, history and leases (owner only).

    The agent is made if it is new; the role also gets the privileges it needs on the ledger's
    tables (the server's policies still keep it to its agents). Granting twice changes nothing.

    \b
    Example:
      slowloop ledger grant alice --role bob
    """
    from ..store.access import grant

    g = grant(get_app().store, agent, role)
    if as_json:
        echo_json(_grant_dict(g))
        return
    click.echo(f"granted {g.agent} to {g.role}: its machines now read and write the agent's rows")


@ledger.command("revoke")
@click.argument("agent")
@click.option("--role", required=True, metavar="ROLE", help="The database role to shut out.")
@json_option
def revoke_cmd(agent: str, role: str, as_json: bool) -> None:
    """Take an agent away from a database role (owner only): the server stops showing it the
    agent's rows at its next statement. What it wrote stays the agent's.

    \b
    Example:
      slowloop ledger revoke alice --role bob
    """
    from ..store.access import revoke

    done = revoke(get_app().store, agent, role)
    if as_json:
        echo_json({"agent": agent, "role": role, "revoked": done})
        return
    click.echo(f"revoked {agent} from {role}" if done else f"{role} did not hold {agent}: nothing "
               "changed")
