"""The five weighted signals and the reflect-or-not verdict (SPEC §1.2).

Sum the weights of the signals that fired; reflect when the sum reaches the threshold. The
exemption that matters most is enforced here: purely transient errors never feed
``error_recovery``, ``skill_ineffective`` or ``known_weakness`` — a network hiccup must never teach
the agent anything.
"""

from __future__ import annotations

from collections.abc import Callable

from ..config import Config
from ..transcripts.model import Turn
from .model import Observation, Score, Signal

# The seam to the self-understanding memo: given the turn's task (the user's words), return the
# recorded pitfall it matches, or None. ``slowloop.memo.weakness_matcher`` builds one from a memo.
WeaknessMatcher = Callable[[str], "str | None"]


def score_turn(obs: Observation, turn: Turn, cfg: Config, *,
               weakness: WeaknessMatcher | None = None) -> Score:
    s = cfg.signals  # the section's own dataclass: cfg.section() copies the whole of it per turn
    fired: list[Signal] = []
    if obs.corrected:
        cue = obs.correction.evidence or "correction"
        fired.append(Signal("user_correction", float(s.user_correction),
                            f"the user corrected the agent ({cue!r})"))
    if obs.skills_read and obs.ended_in_real_error:
        last_real = obs.real_errors[-1].evidence if obs.real_errors else "real error"
        fired.append(Signal("skill_ineffective", float(s.skill_ineffective),
                            f"skill {', '.join(obs.skills_read)} was loaded and the turn still ended "
                            f"in a real error ({last_real})"))
    if obs.recovered:
        first = obs.real_errors[0]
        fired.append(Signal("error_recovery", float(s.error_recovery),
                            f"a real error ({first.evidence}) happened and the agent got past it"))
    only_transient = bool(obs.errors) and not obs.real_errors
    if weakness is not None and turn.user_text and not only_transient:
        pitfall = weakness(turn.user_text)
        if pitfall:
            fired.append(Signal("known_weakness", float(s.known_weakness),
                                f"the task matches a recorded pitfall: {pitfall[:120]!r}"))
    limit = int(s.complex_task_tool_calls)
    if obs.tool_calls > limit:
        fired.append(Signal("complex_task", float(s.complex_task),
                            f"{obs.tool_calls} tool calls (more than {limit})"))
    total = round(sum(sig.weight for sig in fired), 6)
    return Score(tuple(fired), total, float(s.threshold))
