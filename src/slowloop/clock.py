"""Time, in one place, so tests can drive it.

Everything slowloop stores is ISO 8601 UTC with a ``Z`` suffix, second precision unless more is
needed for ordering. ``set_clock`` swaps the source of "now" (tests, simulations).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import UTC, datetime

_now: Callable[[], float] = time.time


def set_clock(fn: Callable[[], float] | None) -> None:
    """Use ``fn`` (returning epoch seconds) as the clock; ``None`` restores the real one."""
    global _now
    _now = fn or time.time


def now() -> float:
    return _now()


def iso(ts: float | None = None, *, micro: bool = False) -> str:
    dt = datetime.fromtimestamp(now() if ts is None else ts, tz=UTC)
    if micro:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str | None) -> float | None:
    """Parse an ISO 8601 timestamp (``Z`` or offset, optional fraction) to epoch seconds."""
    if not text:
        return None
    s = str(text).strip()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(s)
    except ValueError:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.timestamp()


_DUR = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_duration(value: str | int | float) -> float:
    """``"12h"`` → 43200.0; numbers are seconds; ``"0"`` is allowed."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"duration {value!r} is negative")
        return float(value)
    m = _DUR.match(str(value))
    if not m:
        raise ValueError(f"duration {value!r} is not understood; write e.g. 30s, 15m, 4h, 3d or 1w")
    return float(m.group(1)) * _UNITS[m.group(2)]
