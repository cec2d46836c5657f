"""What happens after the agent's files changed — one path, whatever changed them: a reflection
applied, a proposal approved in review, an undo. Every place the agent reads what it learned is
brought up to date (the hooks' bootstrap cache, AGENTS.md/CLAUDE.md blocks, skill links), and a
shared agent's folder is committed and synced, so the very next session carries it.

Each learned rule's record follows too (``rules``: its evidence, a rule taken out no longer
escalated). Never raises: the change is made; what could not follow is said in the lines returned.
"""

from __future__ import annotations

from pathlib import Path


def changed(home: Path, agent: str, store=None, *, reflection_id: int | None = None,
            what: str = "a reflection") -> tuple[list[str], str | None]:
    """(the places brought up to date, what sync did or None when the agent is not shared)."""
    if store is not None:
        _rules_follow(home, agent, store)
    try:
        from ..places.targets import refresh

        places = refresh(home, agent, store)
    except Exception as exc:  # noqa: BLE001 — best effort, said
        places = [f"could not refresh the bootstrap places after {what}: {exc}"]
    synced = None
    if reflection_id is not None:
        from ..sync import after_reflection

        synced = after_reflection(agent, home, reflection_id)
    return places, synced


def _rules_follow(home: Path, agent: str, store) -> None:
    """The rules' records follow the files: a new rule gets its evidence (and is judged on the
    turns before it), a rule taken out is no longer escalated at the next session start."""
    try:
        from ..config import load_config
        from ..rules.outcomes import judged_records

        judged_records(store, agent, home, load_config(home))
    except Exception:  # noqa: BLE001 — best effort: the next recorded turn or `memo show` does it
        pass
