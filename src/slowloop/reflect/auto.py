"""Reflection that runs itself: after new turns are recorded, a due agent reflects in the background.

Whoever records turns — the hooks' worker, ``slowloop watch``, the MCP server's record tool, the
Python API's ``observe_messages`` — calls ``maybe_start(home, agent)``. It asks the scheduler the
same question the daemon asks (dirty gate, cooldown, threshold or forced; ``slowloop schedule``
shows the answer) and, when the agent is due, starts **one detached process** that reflects on
it under the agent's lease and then brings every place the bootstrap lives up to date
(``places.targets``), so the very next session carries what was learned.

- On by default (``[reflect] auto = true``); ``SLOWLOOP_REFLECT__AUTO=false`` turns it off.
- Never more than one per agent: a pid file in ``<home>/locks`` guards the start, the lease guards
  the reflection itself (a second process finds it held and leaves).
- Never inside a reflection (``slowloop.selfobs``): the reflector's own CLI session cannot start
  another one.
- Fail-open and logged: any problem is one line in ``<home>/logs/reflect.log``; the caller's work
  (a hook, an ingest) never fails because of it.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from pathlib import Path

MODULE = "slowloop.reflect.auto"
LOG = "reflect.log"


def log(home: Path, message: str) -> None:
    """One line in ``<home>/logs/reflect.log`` (rotated at 1 MB); never raises, never follows a
    planted symlink out of the home."""
    from ..proc import append_log

    append_log(Path(home), LOG, message)


def _pid_file(home: Path, agent: str) -> Path:
    from ..paths import home_lock

    return home_lock(f"auto-reflect-{agent}.pid", Path(home))


def running(home: Path, agent: str) -> int | None:
    """The pid of the automatic reflection of ``agent`` under way on this host, if any."""
    from .lease import pid_alive

    try:
        pid = int(_pid_file(home, agent).read_text().strip() or 0)
    except (OSError, ValueError):
        return None
    return pid if pid_alive(pid) else None


def enabled(cfg) -> bool:
    return bool(cfg.reflect.auto)


def maybe_start(home: Path, agent: str, *, cfg=None, store=None, why: str = "") -> int | None:
    """Start a background reflection of ``agent`` if it is due; the child's pid, else None.

    Never raises: whatever goes wrong is logged and the caller carries on.
    """
    from ..selfobs import active

    if active():
        return None
    try:
        from ..config import load_config
        from ..store import open_store
        from .lease import agent_lease_name, current
        from .scheduler import agent_status

        home = Path(home)
        cfg = cfg or load_config(home)
        if not enabled(cfg):
            return None
        own = store is None
        store = store or open_store(home=home)
        try:
            if store.agent(agent) is None:
                return None
            sched = agent_status(store, agent, cfg)
            if not sched.due and not sched.offline_due:
                return None
            if current(store, agent_lease_name(agent)) is not None:
                return None
        finally:
            if own:
                store.close()
        if running(home, agent):
            return None
        pid = _spawn(home, agent)
        log(home, f"{agent}: due ({'; '.join(sched.reasons)}){' after ' + why if why else ''};"
                  f" reflecting in background pid {pid}")
        return pid
    except Exception:  # fail-open: recording turns must never fail because of this
        log(Path(home), f"{agent}: could not start an automatic reflection: {traceback.format_exc().strip()}")
        return None


def _spawn(home: Path, agent: str) -> int:
    from ..proc import spawn_detached

    env = dict(os.environ)
    env["SLOWLOOP_HOME"] = str(home)
    return spawn_detached(Path(home), ["-m", MODULE, "--agent", agent, "--home", str(home)], LOG, env)


def _claim(home: Path, agent: str) -> bool:
    """Write our pid in the agent's pid file unless a live process already holds it."""
    path = _pid_file(home, agent)
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(2):
        try:
            fd = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            if running(home, agent):
                return False
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            continue
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        return True
    return False


def run_child(home: Path, agent: str) -> int:
    """The detached process: reflect on ``agent`` if still due, then refresh its bootstrap places."""
    from ..selfobs import active

    if active():
        return 0
    if not _claim(home, agent):
        log(home, f"{agent}: another automatic reflection is under way; leaving it")
        return 0
    started = time.monotonic()
    try:
        from .cycle import reflect_agent

        outcome = reflect_agent(agent, home=home)
        what = f"{outcome.status}" + (f" R{outcome.reflection_id}" if outcome.reflection_id else "")
        log(home, f"{agent}: {what} — {outcome.reason} (sent to: {outcome.sent_to};"
                  f" {time.monotonic() - started:.1f} s)")
        return 0 if outcome.status != "failed" else 1
    except Exception:
        log(home, f"{agent}: automatic reflection FAILED: {traceback.format_exc().strip()}")
        return 1
    finally:
        try:
            _pid_file(home, agent).unlink()
        except OSError:
            pass


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    opts = {"--agent": "default", "--home": None}
    it = iter(args)
    for a in it:
        if a in opts:
            opts[a] = next(it, None)
    from ..paths import home as default_home, validate_agent_name

    home = Path(opts["--home"]).expanduser() if opts["--home"] else default_home()
    try:
        agent = validate_agent_name(str(opts["--agent"]))
    except Exception as exc:
        log(home, f"automatic reflection: bad agent name: {exc}")
        sys.exit(2)
    sys.exit(run_child(home, agent))


if __name__ == "__main__":
    main()
