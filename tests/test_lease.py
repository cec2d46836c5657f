"""Leases with real processes: one winner in a race, a SIGKILLed holder does not block anyone."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import socket
import time
from pathlib import Path

import pytest

from slowloop import clock
from slowloop.config import load_config
from slowloop.errors import LockedError
from slowloop.reflect.lease import acquire, agent_lease, agent_lease_name, current, pid_alive, release, renew
from slowloop.store import Store, open_store

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")

CTX = mp.get_context("spawn")  # no SQLite connection crosses a fork


def _race(home: str, start, done, results) -> None:
    os.environ["SLOWLOOP_HOME"] = home
    store = open_store()
    start.wait(timeout=30)
    lease = acquire(store, "reflect:alpha", holder=f"racer {os.getpid()}", ttl=60)
    results.put((os.getpid(), lease is not None))
    done.wait(timeout=30)  # hold it until every racer has tried
    if lease is not None:
        release(lease)
    store.close()


def _hold_forever(home: str, acquired) -> None:
    os.environ["SLOWLOOP_HOME"] = home
    store = open_store()
    lease = acquire(store, "reflect:alpha", holder="doomed", ttl=3600)
    assert lease is not None
    acquired.set()
    while True:
        time.sleep(1)


def test_processes_racing_for_an_agent_exactly_one_wins(slowloop_home: Path):
    open_store().close()  # create the ledger once, so the racers only race for the lease
    n = 4
    start, done = CTX.Barrier(n), CTX.Event()
    results = CTX.Queue()
    procs = [CTX.Process(target=_race, args=(str(slowloop_home), start, done, results))
             for _ in range(n)]
    for p in procs:
        p.start()
    try:
        outcomes = [results.get(timeout=60) for _ in range(n)]
    finally:
        done.set()
        for p in procs:
            p.join(timeout=30)
    winners = [pid for pid, won in outcomes if won]
    assert len(winners) == 1, outcomes
    assert all(p.exitcode == 0 for p in procs)
    # the winner released it on the way out: the lease is free again
    assert current(open_store(), "reflect:alpha") is None


def test_a_holder_killed_with_sigkill_does_not_block_the_next(slowloop_home: Path):
    open_store().close()
    acquired = CTX.Event()
    p = CTX.Process(target=_hold_forever, args=(str(slowloop_home), acquired))
    p.start()
    try:
        assert acquired.wait(timeout=60)
        store = open_store()
        assert acquire(store, "reflect:alpha", holder="next", ttl=60) is None  # alive: respected
        held = current(store, "reflect:alpha")
        assert held is not None and held.pid == p.pid and held.holder == "doomed"
    finally:
        os.kill(p.pid, signal.SIGKILL)
        p.join(timeout=30)
    assert not pid_alive(p.pid)
    lease = acquire(store, "reflect:alpha", holder="next", ttl=60)
    assert lease is not None and lease.pid == os.getpid()  # taken over at once, not after 1 h
    release(lease)


def test_acquire_release_and_no_reentry_in_the_same_process():
    store = open_store()
    first = acquire(store, "reflect:alpha", holder="a", ttl="2h")
    assert first is not None
    assert acquire(store, "reflect:alpha", holder="b", ttl="2h") is None  # a thread of ours, too
    assert acquire(store, "reflect:beta", holder="b", ttl="2h") is not None  # other agents free
    assert release(first) is True
    assert release(first) is False  # already given back
    assert acquire(store, "reflect:alpha", holder="b", ttl="2h") is not None


def _foreign_lease(store: Store, *, expires_in: float) -> None:
    now = clock.now()
    with store.transaction() as db:
        db.execute("INSERT INTO leases(name, holder, pid, host, acquired_at, expires_at) "
                   "VALUES ('reflect:alpha', 'remote reflector', 4242, 'another-host', ?, ?)",
                   (now - 10, now + expires_in))


def test_lease_from_another_host_is_trusted_until_it_expires():
    assert socket.gethostname() != "another-host"
    store = open_store()
    _foreign_lease(store, expires_in=60)
    assert acquire(store, "reflect:alpha", holder="me", ttl=60) is None
    t = clock.now()
    clock.set_clock(lambda: t + 61)
    lease = acquire(store, "reflect:alpha", holder="me", ttl=60)
    assert lease is not None and lease.host == socket.gethostname()


def test_renew_keeps_a_long_holder_and_a_lost_lease_is_reported():
    store = open_store()
    t = [1_800_000_000.0]
    clock.set_clock(lambda: t[0])
    lease = acquire(store, "reflect:alpha", holder="slow", ttl=100)
    t[0] += 90
    lease = renew(lease)
    assert lease.expires_at == t[0] + 100
    t[0] += 90  # 180 s after acquiring: alive only thanks to the renewal
    assert acquire(store, "reflect:alpha", holder="other", ttl=100) is None
    t[0] += 20  # now expired: taken over
    other = acquire(store, "reflect:alpha", holder="other", ttl=100)
    assert other is not None
    with pytest.raises(LockedError, match="taken over"):
        renew(lease)
    assert release(lease) is False  # the old holder cannot free the new holder's lease
    assert current(store, "reflect:alpha").holder == "other"


def test_agent_lease_context_manager_says_who_holds_it():
    store = open_store()
    cfg = load_config()
    with agent_lease(store, "alpha", cfg, holder="daemon") as lease:
        assert lease.name == agent_lease_name("alpha")
        with pytest.raises(LockedError) as err:
            with agent_lease(store, "alpha", cfg):
                pass
        assert "daemon" in str(err.value) and f"pid {os.getpid()}" in str(err.value)
        # the lease lasts scheduler.lock_stale_after
        assert lease.expires_at - lease.acquired_at == 2 * 3600
    assert current(store, "reflect:alpha") is None  # released on exit
    with pytest.raises(RuntimeError):
        with agent_lease(store, "alpha", cfg):
            raise RuntimeError("reflection crashed")
    assert current(store, "reflect:alpha") is None  # released on error too
