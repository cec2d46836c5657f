"""Run reflection cycles in the background: as ``slowloop daemon`` or as a library thread.

The cycle is recorded as done only when it finishes, so a daemon that crashed mid-cycle runs it
again at its next start; agents already reflected in that cycle are then clean or cooling down and
are skipped, and a reflection the crash left half-applied is resolved by ``recover`` first.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from .. import clock
from ..config import Config, load_config
from ..paths import home as default_home, home_lock
from ..store import Store, open_store
from .apply import recover
from .cycle import ReflectionOutcome, run_cycle
from .scheduler import next_cycle_at

log = logging.getLogger("slowloop.reflect")


def recover_all(store: Store) -> list[str]:
    notes: list[str] = []
    for row in store.agents():
        notes.extend(f"{row['name']}: {n}" for n in recover(store, row["name"]))
    return notes


def _daemon_lock(home: Path) -> Path:
    return home_lock("daemon.lock", home)


def daemon_running(home: Path | None = None) -> bool:
    """Whether a `slowloop daemon` serves this home now (it holds its lock while it runs)."""
    from ..errors import LockedError
    from ..fsutil import file_lock

    home = home or default_home()
    if not _daemon_lock(home).exists():
        return False
    try:
        with file_lock(_daemon_lock(home), timeout=0):
            return False
    except LockedError:
        return True


def serve(stop: threading.Event, *, home: Path | None = None, cfg: Config | None = None,
          provider="config", poll_seconds: float = 60.0,
          on_cycle: Callable[[list[ReflectionOutcome]], None] | None = None,
          on_event: Callable[[str], None] | None = None) -> None:
    """Loop until ``stop`` is set: run a cycle whenever one is due, then sleep until the next."""
    from ..fsutil import file_lock

    home = home or default_home()
    cfg = cfg or load_config(home)
    say = on_event or log.info
    with file_lock(_daemon_lock(home), timeout=5, shared=True):  # `schedule` sees a daemon runs
        _serve(stop, home, cfg, provider, poll_seconds, on_cycle, say)


def _serve(stop, home, cfg, provider, poll_seconds, on_cycle, say) -> None:
    with open_store(home=home) as store:
        for note in recover_all(store):
            say(f"recovered {note}")
    while not stop.is_set():
        with open_store(home=home) as store:
            due_at = clock.parse_iso(next_cycle_at(store, cfg)) or clock.now()
        wait = due_at - clock.now()
        if wait > 0:
            stop.wait(min(wait, poll_seconds))
            continue
        say("cycle starting")
        try:
            outcomes = run_cycle(home=home, cfg=cfg, provider=provider, on_event=say)
        except Exception:  # one bad cycle must not end the daemon; it is logged and retried
            log.exception("reflection cycle failed; retrying at the next poll")
            stop.wait(poll_seconds)
            continue
        for o in outcomes:
            say(f"{o.agent}: {o.status} — {o.reason}")
        if on_cycle:
            on_cycle(outcomes)


class BackgroundReflector:
    """Reflection in a daemon thread of your own agent's process; it never blocks a turn.

    >>> r = BackgroundReflector()   # doctest: +SKIP
    >>> r.start(); ...; r.stop()
    """

    def __init__(self, *, home: Path | None = None, cfg: Config | None = None, provider="config",
                 poll_seconds: float = 60.0,
                 on_cycle: Callable[[list[ReflectionOutcome]], None] | None = None) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=serve, name="slowloop-reflector", daemon=True,
            kwargs={"stop": self._stop, "home": home, "cfg": cfg, "provider": provider,
                    "poll_seconds": poll_seconds, "on_cycle": on_cycle})

    def start(self) -> BackgroundReflector:
        self._thread.start()
        return self

    def stop(self, timeout: float | None = 30.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def __enter__(self) -> BackgroundReflector:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
