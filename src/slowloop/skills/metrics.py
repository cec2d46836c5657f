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

from ..store import Store


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
    counts: dict[str, dict[str, Any]] = {}

    def slot(skill: str) -> dict[str, Any]:
        return counts.setdefault(skill, {"impressions": 0, "invocations": 0, "edits": 0,
                                         "ineffective": 0, "judged": 0, "last": None})

    for name in names or ():
        slot(name)
    if agent_id is None:
        return {name: SkillMetrics(name) for name in counts}

    for row in store.query("SELECT skill, COUNT(*) AS n FROM impressions WHERE agent_id = ? "
                           "GROUP BY skill", (agent_id,)):
        slot(row["skill"])["impressions"] = int(row["n"])
    for row in store.query("SELECT skill, COUNT(*) AS n, MAX(at) AS last FROM invocations "
                           "WHERE agent_id = ? GROUP BY skill", (agent_id,)):
        s = slot(row["skill"])
        s["invocations"] = int(row["n"])
        s["last"] = row["last"]
    # An edit about a turn counts once per turn; an edit without a turn (record-edit from the CLI)
    # is one edited use on its own.
    for row in store.query(
            "SELECT skill, COUNT(DISTINCT CASE WHEN turn_id IS NULL THEN 'e' || id "
            "ELSE 't' || turn_id END) AS n FROM edits "
            "WHERE agent_id = ? AND skill IS NOT NULL AND source IN ('explicit', 'correction') "
            "GROUP BY skill", (agent_id,)):
        slot(row["skill"])["edits"] = int(row["n"])
    for row in store.query(
            "SELECT i.skill AS skill, COUNT(*) AS judged, "
            "SUM(CASE WHEN t.ended_in_real_error = 1 THEN 1 ELSE 0 END) AS bad "
            "FROM invocations i JOIN turns t ON t.id = i.turn_id "
            "WHERE i.agent_id = ? AND t.aborted = 0 GROUP BY i.skill", (agent_id,)):
        s = slot(row["skill"])
        s["judged"] = int(row["judged"])
        s["ineffective"] = int(row["bad"] or 0)

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
