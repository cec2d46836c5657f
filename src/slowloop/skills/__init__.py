"""Skills: ``SKILL.md`` files in the Agent Skills format, their lifecycle and their metrics.

The planners below are pure (they read files and return ``FileChange`` values for
``slowloop.history.apply_changes``); ``SkillLibrary`` methods are plan + apply.
"""

from __future__ import annotations

from pathlib import Path

from ..config import Config
from ..history import FileChange
from ..store import Store
from .eviction import Eviction
from .format import Skill, name_problem, slugify, validate_name
from .library import CreateResult, SkillLibrary
from .metrics import SkillMetrics, skill_metrics


def _lib(agent: str, home: Path | None, store: Store | None, config: Config | None) -> SkillLibrary:
    return SkillLibrary(agent, home=home, store=store, config=config)


def plan_create(name: str, description: str, body: str, *, title: str | None = None,
                agent: str = "default", home: Path | None = None, store: Store | None = None,
                config: Config | None = None) -> list[FileChange]:
    """Create ``name``; includes the evictions the cap requires (op ``evict``, reason in ``note``)."""
    return _lib(agent, home, store, config).plan_create(name, description, body, title=title)[0]


def plan_patch(name: str, old: str, new: str, *, agent: str = "default", home: Path | None = None,
               store: Store | None = None, config: Config | None = None) -> list[FileChange]:
    return _lib(agent, home, store, config).plan_patch(name, old, new)


def plan_retire(name: str, *, reason: str = "", agent: str = "default", home: Path | None = None,
                store: Store | None = None, config: Config | None = None) -> list[FileChange]:
    return _lib(agent, home, store, config).plan_retire(name, reason=reason)


def plan_merge(names: list[str], into_name: str, description: str, body: str, *,
               agent: str = "default", home: Path | None = None, store: Store | None = None,
               config: Config | None = None) -> list[FileChange]:
    return _lib(agent, home, store, config).plan_merge(names, into_name, description, body)


__all__ = [
    "CreateResult", "Eviction", "FileChange", "Skill", "SkillLibrary", "SkillMetrics",
    "name_problem", "plan_create", "plan_merge", "plan_patch", "plan_retire", "skill_metrics",
    "slugify", "validate_name",
]
