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


def state_dir() -> Path:
    """Where slowloop keeps what must outlive a home (``$XDG_STATE_HOME/slowloop``): the list of
    homes that have held what an agent learned, so a deleted one is noticed, not recreated in
    silence."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "slowloop"


def _homes_file() -> Path:
    return state_dir() / "homes"


def _known_homes() -> set[str]:
    try:
        return {ln for ln in _homes_file().read_text(encoding="utf-8").splitlines() if ln}
    except OSError:
        return set()


def remember_home(h: Path) -> None:
    """Note that ``h`` holds slowloop's data (best effort: a read-only state folder is no error)."""
    key = os.path.realpath(h)
    known = _known_homes()
    if key in known:
        return
    try:
        _homes_file().parent.mkdir(parents=True, exist_ok=True)
        with open(_homes_file(), "a", encoding="utf-8") as f:
            f.write(key + "\n")
    except OSError:
        pass


def lost_home(h: Path | None = None) -> Path | None:
    """``h`` when it held slowloop's data before and is gone now (deleted or moved), else None."""
    h = h or home()
    if h.exists():
        return None
    return h if os.path.realpath(h) in _known_homes() else None


LOST_HOME_HINT = ("everything learned there (skills, memo, memory, the ledger) was deleted or moved; if you "
                  "moved it, point SLOWLOOP_HOME at the new place; otherwise a new, empty home is started")


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
    remember_home(h)
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


def home_lock(name: str, base: Path | None = None) -> Path:
    """``<home>/locks/<name>``: the lock guarding a piece of slowloop's own state in a home (the
    daemon, reflection, recall, a followed transcript). A lock guarding a file outside the home — a
    skill, the memory, another program's settings — lives in the per-user lock folder instead
    (``fsutil.lock_path_for``), so no lock file is ever left in a folder a person or an agent reads.
    """
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise ValueError(f"not a lock name: {name!r}")
    return (base if base is not None else home()) / "locks" / name


def agent_dir(agent: str = DEFAULT_AGENT, base: Path | None = None) -> Path:
    """``<home>/agents/<agent>``: skills/, memo.md, memory/ live here. The one way to an agent's
    folder: the name is checked here, so no caller can build a path out of the home with it."""
    return agents_root(base) / validate_agent_name(agent)


def quarantine_dir(agent: str, base: Path | None = None) -> Path:
    """``<home>/quarantine/<agent>``: changes a sync refused to merge, out of the folder the agent
    reads, where the person can look at them (``slowloop sync status``)."""
    return (base if base is not None else home()) / "quarantine" / validate_agent_name(agent)


class AgentLayout:
    """The one description of an agent's folder: where each thing it learned lives. Every module
    asks here instead of spelling ``"memo.md"`` or ``/ "skills"`` itself."""

    __slots__ = ("root",)

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def memo(self) -> Path:
        return self.root / "memo.md"

    @property
    def skills(self) -> Path:
        return self.root / "skills"

    @property
    def memory(self) -> Path:
        return self.root / "memory"

    @property
    def archive(self) -> Path:
        return self.root / "archive"

    @property
    def recall_db(self) -> Path:
        return self.root / "recall.db"

    def skill_files(self) -> list[Path]:
        return sorted(self.skills.glob("*/SKILL.md"))


def layout(agent: str = DEFAULT_AGENT, base: Path | None = None) -> AgentLayout:
    """The folder layout of ``agent`` in ``base`` (the home)."""
    return AgentLayout(agent_dir(agent, base))


def db_path(base: Path | None = None) -> Path:
    return (base or home()) / "slowloop.db"


def config_path(base: Path | None = None) -> Path:
    return (base or home()) / "config.toml"


def log_path(base: Path | None = None) -> Path:
    return (base or home()) / "logs" / "slowloop.log"
