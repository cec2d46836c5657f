"""Whether a skill helps (SPEC §1.8), computed from the ledger alone.

- **impressions**: rows in ``impressions`` (one per skill shown in a session bootstrap);
- **invocations**: rows in ``invocations`` (library/CLI/MCP reads and reads seen in transcripts;
  the reflector reads with ``count=False`` so its reads never land here);
- **invocation rate** = invocations / impressions;
- **edit-after-use rate** = share of invocations after which the user changed the result: ``edits``
  rows naming the skill (source ``explicit`` or ``correction``). Several edits about the same turn
  count once, and the count never exceeds the invocations;
- **ineffective rate** = share of invocations whose turn ended in a real error. Only invocations tied
  to a turn can be judged (a read from the CLI has no turn), and turns the user aborted are left
  out of the denominator: an interrupted turn says nothing about the skill. ``turns.ended_in_real_error``
  already ignores transient errors, so a network hiccup never makes a skill look ineffective.

Rates are 0.0 when their denominator is 0; the counts beside them say whether that means
"never" or "not measured yet".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from ..store import Store, artifacts


@dataclass(frozen=True)
class SkillMetrics:
    name: str
    impressions: int = 0
    invocations: int = 0
    invocation_rate: float = 0.0
    edits_after_use: int = 0
    edit_after_use_rate: float = 0.0
    ineffective: int = 0
    ineffective_rate: float = 0.0
    last_invoked_at: str | None = None
    # invocations that could be judged for effectiveness (tied to a turn that was not aborted)
    judged_invocations: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _rate(num: int, den: int) -> float:
    return round(num / den, 4) if den else 0.0


def skill_metrics(store: Store, agent: str, *,
                  names: Iterable[str] | None = None) -> dict[str, SkillMetrics]:
    """Metrics for every skill the ledger mentions for ``agent`` (plus ``names``, zero-filled)."""
    agent_id = store.agent_id(agent, create=False)
    asked = list(dict.fromkeys(names or ()))
    if agent_id is None:
        return {name: SkillMetrics(name) for name in asked}
    found = artifacts.skill_counts(store, agent_id)  # every skill at once, not one query each
    zero = {"impressions": 0, "invocations": 0, "edits": 0, "ineffective": 0, "judged": 0,
            "last": None}
    counts = {name: found.get(name, zero) for name in asked}  # the names asked for first
    counts.update(found)

    out: dict[str, SkillMetrics] = {}
    for name, c in counts.items():
        edits = min(c["edits"], c["invocations"])
        out[name] = SkillMetrics(
            name=name,
            impressions=c["impressions"],
            invocations=c["invocations"],
            invocation_rate=_rate(c["invocations"], c["impressions"]),
            edits_after_use=edits,
            edit_after_use_rate=_rate(edits, c["invocations"]),
            ineffective=c["ineffective"],
            ineffective_rate=_rate(c["ineffective"], c["judged"]),
            last_invoked_at=c["last"],
            judged_invocations=c["judged"],
        )
    return out
