"""The one home directory, and where each agent's files live inside it.

``SLOWLOOP_HOME`` wins; otherwise the platform's user data directory. Nothing is created at
import; ``ensure_home`` creates the home with private permissions when something is written.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from .errors import UserError

AGENT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
DEFAULT_AGENT = "default"


def default_data_dir() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "slowloop"
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "slowloop"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "slowloop"


def home() -> Path:
    env = os.environ.get("SLOWLOOP_HOME")
    return Path(env).expanduser() if env else default_data_dir()


def ensure_home(path: Path | None = None) -> Path:
    h = path or home()
    if h.exists() and not h.is_dir():
        raise UserError(f"the slowloop home {h} is a file, not a folder",
                        hint="point SLOWLOOP_HOME at a folder (it is created when missing)")
    if not h.exists():
        try:
            h.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot create the slowloop home {h}: {exc.strerror or exc}",
                            hint="point SLOWLOOP_HOME at a folder you can write to") from None
        try:
            os.chmod(h, 0o700)
        except OSError:
            pass
    return h


def validate_agent_name(name: str) -> str:
    if not isinstance(name, str) or not AGENT_NAME.match(name) or ".." in name:
        raise UserError(
            f"agent name {name!r} is not valid",
            hint="use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit",
        )
    return name


def agents_root(base: Path | None = None) -> Path:
    """``<home>/agents``: one folder per agent."""
    return (base or home()) / "agents"


def agent_dir(agent: str = DEFAULT_AGENT, base: Path | None = None) -> Path:
    """``<home>/agents/<agent>``: skills/, memo.md, memory/ live here. The one way to an agent's
    folder: the name is checked here, so no caller can build a path out of the home with it."""
    return agents_root(base) / validate_agent_name(agent)


def db_path(base: Path | None = None) -> Path:
    return (base or home()) / "slowloop.db"


def config_path(base: Path | None = None) -> Path:
    return (base or home()) / "config.toml"


def log_path(base: Path | None = None) -> Path:
    return (base or home()) / "logs" / "slowloop.log"
