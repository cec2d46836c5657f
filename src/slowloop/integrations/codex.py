"""Codex CLI: rollouts in, bootstrap through ``AGENTS.md`` (or its hooks), skills to ``.agents/skills``.

- **Observation**: a Stop hook in Codex's ``hooks.json`` observes the session's rollout
  (``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``) incrementally; ``slowloop watch`` reads
  the same folder for Codex versions whose hooks are off.
- **Bootstrap**: by default a block slowloop owns in ``AGENTS.md`` (``$CODEX_HOME/AGENTS.md`` for
  ``user``, ``./AGENTS.md`` for ``project``), rewritten after each observed turn and by
  ``slowloop hooks sync``; with ``bootstrap="hooks"`` a SessionStart hook sends it instead (and
  records impressions, which a static file cannot).
- **Skills**: one symlink per learned skill in ``.agents/skills`` (``~/.agents/skills`` for ``user``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from ..paths import agent_dir, home as default_home, validate_agent_name
from . import agents_md, settings_json, skills_export
from .claude_code import Report, _pinned_home, _timeout, installed_sources, unlink_skills
from .hooks_runtime import command_for

Scope = Literal["project", "user"]
BootstrapVia = Literal["agents-md", "hooks"]
HARNESS = "codex"


def codex_home() -> Path:
    env = os.environ.get("CODEX_HOME")
    return Path(env).expanduser() if env else Path(os.path.expanduser("~")) / ".codex"


def sessions_dir() -> Path:
    return codex_home() / "sessions"


def hooks_path(scope: Scope, cwd: Path | None = None) -> Path:
    return codex_home() / "hooks.json" if scope == "user" else Path(cwd or Path.cwd()) / ".codex" / "hooks.json"


def agents_md_path(scope: Scope, cwd: Path | None = None) -> Path:
    return codex_home() / "AGENTS.md" if scope == "user" else Path(cwd or Path.cwd()) / "AGENTS.md"


def skills_path(scope: Scope, cwd: Path | None = None) -> Path:
    base = Path(os.path.expanduser("~")) if scope == "user" else Path(cwd or Path.cwd())
    return base / ".agents" / "skills"


def bootstrap_text(agent: str) -> str:
    """The bootstrap as AGENTS.md carries it (no impressions: nobody is known to read it yet)."""
    from ..store import Store
    from .hooks_runtime import cached_bootstrap

    with Store(home=default_home()) as store:
        return cached_bootstrap(default_home(), agent, store)[0]


def install(scope: Scope, *, agent: str = "default", cwd: Path | None = None,
            export_skills: bool = True, bootstrap: BootstrapVia = "agents-md") -> Report:
    validate_agent_name(agent)
    if bootstrap not in ("agents-md", "hooks"):
        from ..errors import UserError

        raise UserError(f"unknown bootstrap route {bootstrap!r}", hint="use agents-md or hooks")
    h = default_home()
    path = hooks_path(scope, cwd)
    sdir = skills_path(scope, cwd) if export_skills else None
    md = agents_md_path(scope, cwd) if bootstrap == "agents-md" else None
    events = ["Stop"] + (["SessionStart"] if bootstrap == "hooks" else [])
    entries = [settings_json.HookEntry(ev, command_for(HARNESS, ev, agent=agent, skills_dir=sdir,
                                                       home=_pinned_home(), agents_md=md),
                                       _timeout(h)) for ev in events]
    data, digest = settings_json.load(path)
    report = Report(HARNESS, scope, str(path), str(sdir or ""))
    report.changed = settings_json.save(path, data, settings_json.with_ours(data, entries, matcher=None),
                                        digest)
    report.hooks = [{"event": e.event, "command": e.command} for e in entries]
    if md is not None:
        report.changed = agents_md.write_block(md, bootstrap_text(agent)) or report.changed
        report.agents_md = str(md)
    else:  # switching to hooks: the old block would send the bootstrap twice
        for scope_md in (agents_md_path(scope, cwd),):
            report.changed = agents_md.remove_block(scope_md) or report.changed
    if sdir is not None:
        report.skills = skills_export.sync(agent_dir(agent, h) / "skills", sdir).to_dict()
    report.notes.append("Codex runs hooks only when they are enabled and trusted: see `/hooks` in "
                        "Codex; `slowloop watch` observes the sessions folder either way")
    return report


def remove(scope: Scope, *, agent: str = "default", cwd: Path | None = None) -> Report:
    validate_agent_name(agent)
    path = hooks_path(scope, cwd)
    sdir = skills_path(scope, cwd)
    data, digest = settings_json.load(path)
    report = Report(HARNESS, scope, str(path), str(sdir))
    entries = settings_json.ours(data)
    report.hooks = [{"event": e.event, "command": e.command} for e in entries]
    report.changed = settings_json.save(path, data, settings_json.without_ours(data), digest)
    md = agents_md_path(scope, cwd)
    report.changed = agents_md.remove_block(md) or report.changed
    report.agents_md = str(md)
    report.skills = unlink_skills(installed_sources(entries, agent), sdir)
    return report


def status(scope: Scope, *, agent: str = "default", cwd: Path | None = None) -> Report:
    validate_agent_name(agent)
    path = hooks_path(scope, cwd)
    sdir = skills_path(scope, cwd)
    data, _ = settings_json.load(path)
    report = Report(HARNESS, scope, str(path), str(sdir))
    report.hooks = [{"event": e.event, "command": e.command} for e in settings_json.ours(data)]
    md = agents_md_path(scope, cwd)
    report.agents_md = str(md) if agents_md.read_block(md) is not None else None
    source = agent_dir(agent, default_home()) / "skills"
    linked = skills_export.owned_links(source, sdir)
    report.skills = {"linked": linked,
                     "not_linked": [n for n in sorted(skills_export.skill_names(source)) if n not in linked]}
    return report
