"""slowloop: a slow learning loop for AI agents.

The front door is the handful of calls an agent builder uses — ``get_bootstrap``,
``observe_messages``, ``read_skill``, ``record_edit``, ``start_reflector``, ``search`` — with the
types they hand back and the errors they raise. Everything else is reachable as a submodule
(``slowloop.skills.SkillLibrary``, ``slowloop.config.load_config``, ``slowloop.store.Store``…).

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
    "search": "slowloop.recall",
    # what they hand back
    "Hit": "slowloop.recall.model",
    "BackgroundReflector": "slowloop.reflect.daemon",
    "Turn": "slowloop.transcripts",
    # what they raise: one root, split by who is at fault
    "SlowloopError": "slowloop.errors",
    "UserError": "slowloop.errors",
    "DataError": "slowloop.errors",
    "ConflictError": "slowloop.errors",
    "ModelError": "slowloop.errors",
    "ProviderError": "slowloop.errors",
    "PrivacyError": "slowloop.errors",
    "LockedError": "slowloop.errors",
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
