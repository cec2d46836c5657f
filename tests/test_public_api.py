"""The front door: a handful of calls, their types and the errors; everything else is a submodule."""

from __future__ import annotations

import subprocess
import sys

import slowloop

FRONT_DOOR = {"get_bootstrap", "observe_messages", "read_skill", "record_edit", "start_reflector",
              "search"}
TYPES = {"Hit", "BackgroundReflector", "Turn"}
ERRORS = {"SlowloopError", "UserError", "DataError", "ConflictError", "ModelError",
          "ProviderError", "PrivacyError", "LockedError"}


def test_the_public_api_is_the_front_door_plus_types_and_errors():
    assert set(slowloop.__all__) == {"__version__"} | FRONT_DOOR | TYPES | ERRORS
    for name in FRONT_DOOR:
        assert callable(getattr(slowloop, name)), name
    for name in ERRORS:
        assert issubclass(getattr(slowloop, name), slowloop.SlowloopError), name
    assert "Store" not in dir(slowloop)  # the schema is not public


def test_internals_stay_reachable_as_submodules():
    from slowloop.config import load_config
    from slowloop.skills import SkillLibrary
    from slowloop.store import Store

    assert callable(load_config) and SkillLibrary and Store


def test_importing_slowloop_imports_nothing_else():
    code = ("import sys, slowloop; "
            "print(sorted(m for m in sys.modules if m.startswith('slowloop.')))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
