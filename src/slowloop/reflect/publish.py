"""What happens after the agent's files changed — one path, whatever changed them: a reflection
applied, a proposal approved in review, an undo. Every place the agent reads what it learned is
brought up to date (the hooks' bootstrap cache, AGENTS.md/CLAUDE.md blocks, skill links), and a
shared agent's folder is committed and synced, so the very next session carries it.

Never raises: the change is made; what could not follow is said in the lines returned.
"""

from __future__ import annotations

from pathlib import Path


def changed(home: Path, agent: str, store=None, *, reflection_id: int | None = None,
            what: str = "a reflection") -> tuple[list[str], str | None]:
    """(the places brought up to date, what sync did or None when the agent is not shared)."""
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
