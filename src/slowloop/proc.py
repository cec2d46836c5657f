"""Process helpers every layer may use: one line in a log of the home, and starting a background
process that outlives its caller (a hook, an ingest, a reflection). Standard library only: a hook
imports this in its few milliseconds."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path

LOG_MAX_BYTES = 1 << 20


def log_file(home: Path, name: str) -> Path | None:
    """``<home>/logs/<name>``, or None when a planted symlink would carry the write out of the
    home (the logs folder linked elsewhere); the file itself is opened with O_NOFOLLOW."""
    path = Path(home) / "logs" / name
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return None
    real_home = os.path.realpath(home)
    if os.path.commonpath([real_home, os.path.realpath(path.parent)]) != real_home:
        return None
    return path


def append_log(home: Path, name: str, message: str) -> None:
    """One line in ``<home>/logs/<name>`` (rotated at 1 MB); never raises, never follows a link."""
    try:
        path = log_file(home, name)
        if path is None:
            return
        try:
            if path.stat().st_size > LOG_MAX_BYTES:
                os.replace(path, path.with_name(name + ".1"))
        except FileNotFoundError:
            pass
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(str(path), flags, 0o600)
        try:
            os.write(fd, f"{stamp} pid={os.getpid()} {message}\n".encode("utf-8", "replace"))
        finally:
            os.close(fd)
    except OSError:
        pass


def spawn_detached(home: Path, args: list[str], log: str,
                   env: Mapping[str, str] | None = None) -> int:
    """Start ``python <args>`` in a process of its own session that outlives its caller (a hook,
    an ingest), stdin and stdout on /dev/null, stderr appended to ``<home>/logs/<log>``; its pid.
    Every background process slowloop starts is started here."""
    argv = [sys.executable, *args]
    environ = os.environ if env is None else env
    log_path = log_file(home, log)
    err_path = str(log_path) if log_path is not None else os.devnull
    if hasattr(os, "posix_spawn"):
        # posix_spawn instead of subprocess: importing subprocess costs more than the spawn.
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 2, err_path,
                    os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)]
        return os.posix_spawn(sys.executable, argv, environ, file_actions=actions, setsid=True)
    import subprocess

    with open(err_path, "ab") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True, close_fds=True, env=dict(environ))
    return proc.pid
