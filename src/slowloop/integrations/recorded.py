"""What happens after turns are recorded — one path, whoever recorded them: the hooks' worker,
`slowloop watch`, `slowloop ingest`, the Python API and the MCP ``record_turn`` tool.

1. the operational memory keeps itself: each session the turns belong to leaves its chronicle
   entry and opens or closes debts (``sessions.keep``; the project's memory when the project keeps
   one), and the archive runs when the chronicle passes its cap;
2. the search index catches up — the turns and what the memory just kept (here for a few turns,
   in a background process for many);
3. each learned rule is judged on the new turns (``rules.update``: relevant, followed, violated,
   corrected again — no model); a rule broken after it was learned is escalated, one never
   relevant for weeks archived (through the history);
4. the bootstrap cache is rebuilt, so the next session start reads it in milliseconds (with the
   escalated rules near its top);
5. a reflection starts by itself in the background when the agent is due ([reflect] auto);
6. when the caller is one install (a hook), that install's places are brought up to date: its
   AGENTS.md/CLAUDE.md block and its skill links.

Nothing here raises for a step that fails after the turns are recorded: the turns are kept, and
the failure is said in the returned notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# past this many new or grown turns the index catches up in a background process (an ingest of a
# large history returns once its turns are recorded)
BACKGROUND_INDEX_TURNS = 300


@dataclass
class AfterRecorded:
    index: str = "unchanged"  # unchanged | current | updating in the background
    index_pid: int | None = None
    reflection_pid: int | None = None  # a background reflection started
    bootstrap: str = ""  # the bootstrap text as rebuilt (when asked for)
    memory: str = ""  # what the memory kept of the sessions ("" when nothing)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"index": self.index, "index_pid": self.index_pid, "reflection_pid": self.reflection_pid,
                "memory": self.memory, "notes": self.notes}


def turns_recorded(home: Path, agent: str, store, cfg, *, changed: int, why: str,
                   skills_dir: Path | None = None, agents_md: Path | None = None,
                   reflect: bool = True, project: Path | None = None) -> AfterRecorded:
    """Run the steps above for ``changed`` turns recorded new or grown (0: nothing changed, so
    nothing to do but keep this install's places current). ``why`` names the recorder in the logs.
    ``reflect=False``: the caller starts no reflection (`slowloop ingest --no-reflect`).
    ``project``: the project the turns were recorded for (a project install's hook); without it,
    the project of the agent's one project install, if any."""
    out = AfterRecorded()
    if changed:
        try:
            from ..sessions import keep_memory

            kept = keep_memory(store, agent, home=home, config=cfg,
                               project=project if project is not None else agent_project(home, agent))
            out.memory = kept.note()
        except Exception as exc:  # noqa: BLE001 — the turns are recorded; the next pass catches up
            out.notes.append(f"the memory could not keep these sessions: {exc}")
        try:
            if changed >= BACKGROUND_INDEX_TURNS:
                from ..recall.background import refresh_in_background

                out.index, out.index_pid = "updating in the background", refresh_in_background(agent, home)
            else:
                from ..recall import refresh

                refresh(agent, home=home)
                out.index = "current"
        except Exception as exc:  # noqa: BLE001 — the turns are recorded; search catches up later
            out.notes.append(f"the search index could not catch up: {exc}")
    if changed:
        _judge_rules(home, agent, store, cfg, out)
    try:
        from ..bootstrap_cache import cached_bootstrap

        out.bootstrap, _shown = cached_bootstrap(home, agent, store, host_lists_skills=skills_dir is not None)
    except Exception as exc:  # noqa: BLE001
        out.notes.append(f"the bootstrap cache could not be rebuilt: {exc}")
    if changed and reflect:
        try:
            from ..reflect.auto import maybe_start

            out.reflection_pid = maybe_start(home, agent, cfg=cfg, store=store, why=why)
        except Exception as exc:  # noqa: BLE001
            out.notes.append(f"no automatic reflection could start: {exc}")
    if agents_md is not None and out.bootstrap:
        from ..places.agents_md import write_block

        write_block(agents_md, out.bootstrap)
    if skills_dir is not None:
        from ..paths import layout
        from ..places.skills_export import sync

        sync(layout(agent, home).skills, skills_dir)
    return out


def agent_project(home: Path, agent: str) -> Path | None:
    """The project of the agent's project install(s), when they name exactly one: a session that
    ``watch`` or ``ingest`` records for it belongs to that project's memory too."""
    from ..places.targets import for_agent

    found = {t["project"] for t in for_agent(home, agent) if t.get("scope") == "project" and t.get("project")}
    return Path(found.pop()) if len(found) == 1 else None


def _judge_rules(home: Path, agent: str, store, cfg, out: AfterRecorded) -> None:
    """Step 2: the rules judged on the new turns; what was done about them said in the notes."""
    try:
        from ..rules import update

        done = update(store, agent, home, cfg)
    except Exception as exc:  # noqa: BLE001 — the turns are recorded; the rules are judged next time
        out.notes.append(f"the rules could not be judged on the new turns: {exc}")
        return
    out.notes += [f"a rule was broken after it was learned; it now opens the next session: {t}"
                  for t in done.escalated]
    out.notes += [f"a rule was broken again after it was escalated (see `slowloop status`): {t}"
                  for t in done.reported]
    out.notes += [f"archived, never relevant for {cfg.memo.archive_after} (`slowloop history` to undo): {t}"
                  for t in done.archived]
    if done.archived:
        from ..reflect.publish import changed as published

        published(home, agent, store, what="archiving rules never relevant")
