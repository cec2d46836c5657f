"""Which skill goes when the library is full (SPEC §1.7): a pure choice over plain facts.

Only skills older than the grace period can go, so a skill born yesterday is not the first victim
just because nobody had the chance to use it yet. Among those, skills never used since they were
created go first (oldest first), then the least recently used.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import clock


@dataclass(frozen=True)
class Candidate:
    name: str
    created_at: float | None      # epoch seconds; None: unknown (treated as very old)
    last_used_at: float | None    # newest of the ledger and the file's lastUsedAt; None: never


@dataclass(frozen=True)
class Eviction:
    name: str
    reason: str


def _age(seconds: float) -> str:
    days = seconds / 86400
    if days >= 1:
        return f"{days:.0f} day{'s' if round(days) != 1 else ''}"
    hours = seconds / 3600
    if hours >= 1:
        return f"{hours:.0f} hour{'s' if round(hours) != 1 else ''}"
    return f"{max(seconds, 0) / 60:.0f} minutes"


def choose_eviction(candidates: list[Candidate], *, now: float, grace_seconds: float) -> Eviction | None:
    """The skill to evict, or ``None`` when every skill is still within the grace period."""
    eligible = [c for c in candidates
                if c.created_at is None or now - c.created_at >= grace_seconds]
    if not eligible:
        return None
    # a read older than the creation (a name reused after a retire) does not count as use
    never = [c for c in eligible
             if c.last_used_at is None or (c.created_at is not None and c.last_used_at < c.created_at)]
    if never:
        victim = min(never, key=lambda c: (c.created_at or 0.0, c.name))
        age = _age(now - victim.created_at) if victim.created_at is not None else "an unknown time"
        return Eviction(victim.name, f"never used since it was created {age} ago")
    victim = min(eligible, key=lambda c: (c.last_used_at or 0.0, c.name))
    return Eviction(victim.name, f"least recently used: last used {clock.iso(victim.last_used_at)} "
                                 f"({_age(now - (victim.last_used_at or now))} ago)")
