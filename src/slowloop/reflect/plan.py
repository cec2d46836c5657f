"""The file changes one valid action makes: what a reflection applies, and what a person's approval
in review applies — one planner for both."""

from __future__ import annotations

from ..errors import SlowloopError  # noqa: F401  (raised by the planners it calls)
from ..history import FileChange
from .actions import Action


def plan_action(action: Action, lib, memo, memo_base: str | None = None, *, added: int = 0,
          touched: frozenset[str] = frozenset(), evicted: list | None = None) -> list[FileChange]:
    """The file changes one valid action would make (raises SlowloopError when it cannot).

    ``added``: net skills the earlier actions of this reflection create; ``touched``: the skills
    they change. A create at the cap evicts with both in mind — two creates must not evict the
    same skill, nor evict one another action patches — and reports what it evicted in ``evicted``.
    """
    if action.type == "create_skill":
        title = action.name.replace("-", " ").capitalize()
        changes, evictions = lib.plan_create(action.name, action.description, action.body,
                                             title=title, extra=added, exclude=touched)
        if evicted is not None:
            evicted.extend(evictions)
        return changes
    if action.type == "patch_skill":
        return lib.plan_patch(action.name, action.old, action.new)
    if action.type == "retire_skill":
        return lib.plan_retire(action.name, reason=action.reason)
    if action.type == "merge_skills":
        return lib.plan_merge(list(action.names), action.into, action.description, action.body)
    if action.type == "update_memo":
        return memo.plan_update(action.section, action.op, action.text or None,
                                match=action.match or None, base_text=memo_base)
    if action.type == "update_state":
        return plan_state(memo.agent, memo.home, action.heading, action.text)
    return []


def plan_state(agent: str, home, heading: str, text: str) -> list[FileChange]:
    """One section of the operational memory's system-state.md replaced (added when missing): the
    truth of today, as a reflection with a model proposes it — written through the history like
    every learned file, so `slowloop history undo` takes it back."""
    from ..memory import Memory
    from ..memory.layout import STATE
    from ..memory.sections import replace_section

    mem = Memory.for_agent(agent, home=home)
    before, digest = mem.read(STATE)
    after = replace_section(before, " ".join(heading.split()), text.strip())
    return [FileChange(path=mem.path(STATE), before=before if digest is not None else None,
                       before_hash=digest, after=after, kind="memory", target="state", op="update")]
