"""slowloop: a slow learning loop for AI agents. The public API is re-exported here.

Names are loaded on first use (PEP 562), so ``import slowloop`` costs nothing and the hooks that
import a submodule do not pay for the whole library.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # the loop, for people building their own agents
    "get_bootstrap": "slowloop.integrations.api",
    "observe_messages": "slowloop.integrations.api",
    "read_skill": "slowloop.integrations.api",
    "record_edit": "slowloop.integrations.api",
    "start_reflector": "slowloop.integrations.api",
    # the pieces underneath
    "build_bootstrap": "slowloop.bootstrap",
    "Bootstrap": "slowloop.bootstrap",
    "BackgroundReflector": "slowloop.reflect.daemon",
    "reflect_agent": "slowloop.reflect.cycle",
    "SkillLibrary": "slowloop.skills",
    "Memo": "slowloop.memo",
    "Memory": "slowloop.memory",
    "search": "slowloop.recall",
    "iter_turns": "slowloop.transcripts",
    "turns_from_messages": "slowloop.transcripts",
    "Turn": "slowloop.transcripts",
    "record_turns": "slowloop.ingest",
    "ingest_paths": "slowloop.ingest",
    "load_config": "slowloop.config",
    "Store": "slowloop.store",
    "SlowloopError": "slowloop.errors",
    "UserError": "slowloop.errors",
    "DataError": "slowloop.errors",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'slowloop' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
