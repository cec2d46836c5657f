"""The Python API for people building their own agents: five calls close the loop.

>>> from slowloop import get_bootstrap, observe_messages   # doctest: +SKIP
>>> system = get_bootstrap("my-agent")                       # at the start of a conversation
>>> observe_messages(messages, agent="my-agent", session_id=conversation_id)  # after each turn

``read_skill`` when the model asks for a skill (it counts as a use), ``record_edit`` when the user
changed a skill-assisted answer, ``start_reflector`` to reflect in a background thread.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Literal

from ..paths import home as default_home, layout


def get_bootstrap(agent: str = "default", *, task: str | None = None, home: Path | None = None,
                  context: str | None = None) -> str:
    """The text to put in the system prompt of the agent's next conversation (records impressions)."""
    from ..bootstrap import build_bootstrap

    return build_bootstrap(agent, task=task, home=home, context=context).text


def observe_messages(messages: list[dict[str, Any]], *, agent: str = "default",
                     format: Literal["openai", "anthropic"] | None = None,
                     session_id: str | None = None, home: Path | None = None,
                     reported_by_agent: bool = False) -> list[dict[str, Any]]:
    """Observe and record the turns of an OpenAI- or Anthropic-style message list.

    ``reported_by_agent``: the list comes from the agent itself (the MCP ``record_turn`` tool), so
    its "user" messages are the agent's account, never the person's correction.

    Call it after each turn with the whole conversation so far: turns already recorded come back
    ``unchanged``, a turn that grew is ``updated``. ``session_id`` keeps two conversations that
    open with the same words apart. Returns one dict per turn: status, score, signals, whether it
    is worth reflecting on.
    """
    from ..config import load_config
    from ..ingest import default_weakness, observed_to_dict, record_turns
    from ..store import open_store
    from ..transcripts import turns_from_messages

    h = Path(home) if home is not None else default_home()
    turns = turns_from_messages(messages, format=format)
    if session_id is not None:
        turns = [dataclasses.replace(t, session_id=str(session_id)) for t in turns]
    if reported_by_agent:
        turns = [dataclasses.replace(t, person=False) for t in turns]
    weakness = default_weakness(agent, home=h) if layout(agent, h).memo.exists() else None
    cfg = load_config(h)
    with open_store(home=h) as store:
        recorded = record_turns(turns, agent=agent, store=store, cfg=cfg, weakness=weakness)
        changed = sum(res.status in ("new", "updated") for _ot, res in recorded)
        if changed:
            from .recorded import turns_recorded

            turns_recorded(h, agent, store, cfg, changed=changed, why="observe_messages")
    out = []
    for ot, res in recorded:
        d = observed_to_dict(ot)
        d["status"] = res.status
        d["turn_id"] = res.turn_id
        out.append(d)
    return out


def read_skill(name: str, *, agent: str = "default", home: Path | None = None) -> str:
    """A learned skill's body; counts as an invocation of the skill."""
    from ..skills import SkillLibrary

    return SkillLibrary(agent, home=home).read(name, source="library")


def record_edit(skill: str | None = None, note: str = "", *, agent: str = "default",
                home: Path | None = None) -> list[str]:
    """The user changed the result of a skill-assisted answer; returns the skills credited."""
    from ..skills import SkillLibrary

    return SkillLibrary(agent, home=home).record_edit(skill, note)


def start_reflector(*, home: Path | None = None, provider: Any = "config",
                    poll_seconds: float = 60.0):
    """Start reflection cycles in a daemon thread of this process; call ``.stop()`` to end them."""
    from ..reflect.daemon import BackgroundReflector

    return BackgroundReflector(home=home, provider=provider, poll_seconds=poll_seconds).start()
