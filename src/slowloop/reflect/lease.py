"""Leases: at most one reflector works on an agent at a time, and a crash never blocks forever.

A lease is a row in the ``leases`` table, taken inside a ``BEGIN IMMEDIATE`` transaction so two
processes racing for it are serialized by SQLite itself: the second one sees the first one's row.
A lease can be taken over when it is stale:

- its ``expires_at`` has passed (``scheduler.lock_stale_after``; a long holder calls ``renew``), or
- its holder ran on this host and that process no longer exists (killed, crashed, rebooted).

A holder on another host is trusted until its lease expires: we cannot see its processes.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from .. import clock
from ..config import Config
from ..errors import LockedError, UserError
from ..store import Store, ledger


@dataclass(frozen=True)
class Lease:
    store: Store
    name: str
    holder: str
    pid: int
    host: str
    acquired_at: float
    expires_at: float

    def describe(self) -> str:
        return (f"{self.holder} (pid {self.pid} on {self.host}) since {clock.iso(self.acquired_at)}, "
                f"expires {clock.iso(self.expires_at)}")


def _host() -> str:
    return socket.gethostname()


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this host and is not a zombie (a killed child that its
    parent has not reaped yet still answers ``kill(pid, 0)``, but will never release anything)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    except OSError:
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        # "pid (comm) S ...": the state follows the last ')' (comm may contain spaces or parens)
        return stat[stat.rindex(b")") + 2:stat.rindex(b")") + 3] not in (b"Z", b"X")
    except (OSError, ValueError):
        return True  # no /proc (macOS…): kill(pid, 0) is all we can know


def _ttl(ttl: float | str) -> float:
    try:
        seconds = clock.parse_duration(ttl)
    except ValueError as exc:
        raise UserError(f"lease ttl {ttl!r}: {exc}") from None
    if seconds <= 0:
        raise UserError(f"lease ttl {ttl!r} must be positive")
    return seconds


def _row_lease(store: Store, row) -> Lease:
    return Lease(store, row["name"], row["holder"], int(row["pid"]), row["host"],
                 float(row["acquired_at"]), float(row["expires_at"]))


def stale_reason(row, now: float) -> str | None:
    """Why the lease in ``row`` may be taken over, or None when its holder still owns it."""
    if float(row["expires_at"]) <= now:
        return f"expired at {clock.iso(float(row['expires_at']))}"
    if row["host"] == _host() and not pid_alive(int(row["pid"])):
        return f"holder pid {row['pid']} is gone"
    return None


def current(store: Store, name: str, *, now: float | None = None) -> Lease | None:
    """The live lease on ``name``, or None when it is free or stale."""
    t = clock.now() if now is None else now
    row = ledger.lease_row(store, name)
    if row is None or stale_reason(row, t) is not None:
        return None
    return _row_lease(store, row)


def acquire(store: Store, name: str, *, holder: str, ttl: float | str) -> Lease | None:
    """Take the lease ``name`` for ``ttl`` (seconds or "2h"), or return None if someone holds it.

    Never waits: a reflector that finds an agent busy moves on to the next one.
    """
    seconds = _ttl(ttl)
    pid, host = os.getpid(), _host()
    t = ledger.take_lease(store, name, holder=holder, pid=pid, host=host, ttl=seconds,
                          now=clock.now, stale=stale_reason)
    if t is None:
        return None
    return Lease(store, name, holder, pid, host, t, t + seconds)


def _mine(lease: Lease) -> dict[str, Any]:
    return {"holder": lease.holder, "pid": lease.pid, "host": lease.host,
            "acquired_at": lease.acquired_at}


def renew(lease: Lease, ttl: float | str | None = None) -> Lease:
    """Push the expiry of a lease we still hold; raises LockedError if it was taken over."""
    seconds = _ttl(ttl) if ttl is not None else lease.expires_at - lease.acquired_at
    expires = ledger.renew_lease(lease.store, lease.name, **_mine(lease),
                                 expires_at=lambda: clock.now() + seconds)
    if expires is None:
        raise LockedError(f"lease {lease.name!r} was taken over by another process",
                          hint="the holder ran past scheduler.lock_stale_after without renewing")
    return replace(lease, expires_at=expires)


def release(lease: Lease) -> bool:
    """Give the lease back. False when it was no longer ours (taken over after expiring)."""
    return ledger.drop_lease(lease.store, lease.name, **_mine(lease))


def agent_lease_name(agent: str) -> str:
    return f"reflect:{agent}"


@contextlib.contextmanager
def agent_lease(store: Store, agent: str, cfg: Config, *, holder: str | None = None
                ) -> Iterator[Lease]:
    """Hold the reflection lease on ``agent`` for the ``with`` block; LockedError if busy."""
    name = agent_lease_name(agent)
    who = holder or f"reflector pid {os.getpid()}"
    lease = acquire(store, name, holder=who, ttl=cfg.scheduler.lock_stale_after)
    if lease is None:
        other = current(store, name)
        by = other.describe() if other else "another process"
        raise LockedError(f"agent {agent!r} is being reflected on by {by}",
                          hint="wait for it to finish; a lease left by a dead process is taken "
                               "over at once, one from another host after scheduler.lock_stale_after")
    try:
        yield lease
    finally:
        release(lease)
