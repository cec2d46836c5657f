"""Which database roles may read and write each agent of a shared ledger.

On PostgreSQL the server enforces it (row-level security, migration m006 in
:mod:`~slowloop.store.migrations`): a role sees and writes only the agents in ``agent_access``
for it, whatever SQL it runs. This module is what the ledger's owner uses to change that list
(``slowloop ledger grant|revoke|access``). On SQLite the ledger is one user's file and there is
nothing to grant: identity is the local user.
"""

from __future__ import annotations

import getpass
import os
from typing import TYPE_CHECKING, NamedTuple

from .. import clock
from ..errors import AccessError, UserError
from ..paths import validate_agent_name

if TYPE_CHECKING:
    from .db import Store
    from .postgres import PostgresStore

__all__ = ["Grant", "Identity", "grant", "grants", "identity", "revoke"]


class Grant(NamedTuple):
    agent: str
    role: str
    granted_at: str
    granted_by: str


class Identity(NamedTuple):
    """Who this connection is to the ledger, and who administers it."""

    backend: str
    role: str          # the database role (SQLite: the local user)
    owner: str         # the role that owns the ledger's tables (SQLite: the same user)
    administers: bool  # may grant and revoke, and sees every agent


def identity(store: Store) -> Identity:
    if store.backend != "postgresql":
        try:
            user = getpass.getuser()
        except (OSError, KeyError):  # no USER and no passwd entry (a bare container)
            user = f"uid {os.getuid()}"
        return Identity(store.backend, user, user, True)
    pg = _pg(store)
    return Identity(store.backend, pg.role, pg.owner, pg.administers())


def grants(store: Store, *, agent: str | None = None, role: str | None = None) -> list[Grant]:
    """The allow-list, by agent then role: every row for the owner, a role's own rows for it."""
    where, params = [], []
    if agent is not None:
        where.append("a.name = ?")
        params.append(validate_agent_name(agent))
    if role is not None:
        where.append("g.role = ?")
        params.append(role)
    sql = ("SELECT a.name, g.role, g.granted_at, g.granted_by FROM agent_access g "
           "JOIN agents a ON a.id = g.agent_id"
           + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY a.name, g.role")
    return [Grant(r[0], r[1], r[2], r[3]) for r in store.query(sql, params)]


def grant(store: Store, agent: str, role: str) -> Grant:
    """Let ``role`` read and write ``agent`` (made if it is new), and use the ledger's tables.
    The owner's to do; granting twice changes nothing."""
    pg = _admin(store, "grant")
    validate_agent_name(agent)
    if not pg.role_exists(role):
        raise UserError(f"there is no role {role!r} on the server of {pg.where}",
                        hint=f"create it first (as an administrator: CREATE ROLE \"{role}\" LOGIN; "
                             "its password in that machine's ~/.pgpass), then grant again")
    with pg.transaction() as db:
        agent_id = pg.agent_id(agent)
        db.execute("INSERT INTO agent_access(agent_id, role, granted_at, granted_by) "
                   "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                   (agent_id, role, clock.iso(), pg.role))
        pg.grant_tables(role)
    return grants(pg, agent=agent, role=role)[0]


def revoke(store: Store, agent: str, role: str) -> bool:
    """Take ``agent`` away from ``role``; False when it did not hold it. Its table privileges
    stay (it may hold other agents); the rows it wrote stay the agent's."""
    pg = _admin(store, "revoke")
    agent_id = pg.agent_id(validate_agent_name(agent), create=False)
    if agent_id is None:
        raise UserError(f"there is no agent {agent!r} on {pg.where}",
                        hint="`slowloop ledger access` lists the agents and their roles")
    with pg.transaction() as db:
        cur = db.execute("DELETE FROM agent_access WHERE agent_id = ? AND role = ?",
                         (agent_id, role))
        return bool(cur.rowcount)


def _pg(store: Store) -> PostgresStore:
    from .postgres import PostgresStore

    assert isinstance(store, PostgresStore)
    return store


def _admin(store: Store, verb: str) -> PostgresStore:
    if store.backend != "postgresql":
        raise UserError(f"the ledger is the SQLite file {store.where}: only its user reads it, so "
                        f"there is nothing to {verb}",
                        hint="grants are for a ledger on PostgreSQL (SLOWLOOP_DATABASE_URL), where "
                             "each machine connects as its own role")
    pg = _pg(store)
    if not pg.administers():
        raise AccessError(f"role {pg.role} may not {verb} access to agents on {pg.where}: only "
                          f"the ledger's owner ({pg.owner}) may",
                          hint=f"ask whoever connects as {pg.owner} to run `slowloop ledger {verb} "
                               f"AGENT --role ROLE`")
    return pg
