"""The background slow loop: the daemon as a real process (clean SIGTERM stop, a second start picks
up where the first left off) and the library's background thread (never blocks the caller)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from slowloop.config import load_config
from slowloop.ingest import ingest_paths
from slowloop.reflect.daemon import BackgroundReflector
from slowloop.reflect.scheduler import cycle_key
from slowloop.store import open_store

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples"


def _ingest(agent: str) -> None:
    with open_store() as store:
        ingest_paths([EXAMPLES], agent=agent, store=store, cfg=load_config())


def _reflections(agent: str | None = None) -> list[str]:
    with open_store() as store:
        rows = store.query("SELECT a.name, r.status FROM reflections r JOIN agents a ON a.id = r.agent_id"
                           " ORDER BY r.id")
    return [f"{r['name']}:{r['status']}" for r in rows if agent is None or r["name"] == agent]


def _wait(pred, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.1)
    return False


def test_daemon_reflects_due_agents_and_stops_cleanly_on_sigterm(slowloop_home):
    _ingest("alpha")
    env = dict(os.environ)
    p = subprocess.Popen([sys.executable, "-m", "slowloop", "daemon", "--poll", "0.2"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait(lambda: _reflections("alpha") == ["alpha:applied"]), _reflections()
        # A second agent arriving while the daemon sleeps waits for the next cycle (12 h away):
        _ingest("beta")
        time.sleep(1.0)
        assert _reflections("beta") == []
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert "SIGTERM received" in err and "stopped" in err
    # The next start: the cycle interval has not passed, so nothing runs until it does …
    with open_store() as store:
        store.set_meta(cycle_key(store), "2000-01-01T00:00:00Z")  # … pretend it has
    p2 = subprocess.Popen([sys.executable, "-m", "slowloop", "daemon", "--poll", "0.2"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait(lambda: _reflections("beta") == ["beta:applied"]), _reflections()
        assert _reflections("alpha") == ["alpha:applied"]  # clean: not reflected twice
    finally:
        p2.send_signal(signal.SIGTERM)
        p2.communicate(timeout=30)


def test_a_daemon_killed_mid_cycle_is_picked_up_at_the_next_start(slowloop_home):
    # The cycle is marked done only at its end: a crash leaves it due, and the next start runs it.
    _ingest("gamma")
    with open_store() as store:
        assert store.get_meta(cycle_key(store)) is None
        # the crashed daemon had taken the agent's lease (dead pid): it must not block forever
        from slowloop.reflect.lease import agent_lease_name

        store.execute("INSERT INTO leases(name, holder, pid, host, acquired_at, expires_at)"
                      " VALUES (?, 'crashed daemon', 999999, ?, ?, ?)",
                      (agent_lease_name("gamma"), os.uname().nodename, time.time(), time.time() + 3600))
    p = subprocess.Popen([sys.executable, "-m", "slowloop", "daemon", "--poll", "0.2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait(lambda: _reflections("gamma") == ["gamma:applied"]), _reflections()
    finally:
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=30)


def test_background_reflector_thread_never_blocks_the_caller(slowloop_home):
    import threading

    _ingest("delta")
    gate, done = threading.Event(), threading.Event()

    def on_cycle(outcomes) -> None:  # holds the reflector's thread until the caller lets it go
        gate.wait(30)
        done.set()

    with BackgroundReflector(poll_seconds=0.1, on_cycle=on_cycle) as r:
        # start() returned while the thread's first cycle cannot have finished: had start() run
        # the cycle itself, it would have waited on the gate and `done` would be set by now
        assert r.running and not done.is_set()
        assert _wait(lambda: _reflections("delta") == ["delta:applied"], timeout=60)
        gate.set()
        assert done.wait(30)
    assert not r.running
