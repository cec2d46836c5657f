"""Codex CLI: rollouts in, bootstrap through a SessionStart hook (or ``AGENTS.md``), skills to
``.agents/skills``.

- **Where the hooks go**: always the person's own ``$CODEX_HOME/hooks.json``. A ``project`` install
  adds hooks carrying ``--project DIR``, which act only on sessions inside that folder. Codex has
  no personal, uncommitted project layer like Claude Code's ``settings.local.json`` (its project
  layer, ``<repo>/.codex/``, is shared with the repository and needs the project trusted); the
  user layer is the personal one, so nothing machine-specific lands in a file people commit.
- **Observation**: a Stop hook observes the session's rollout
  (``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``) incrementally; ``slowloop watch`` reads
  the same folder for Codex versions whose hooks are off.
- **Bootstrap**: for a project, a SessionStart hook sends it (it records impressions, and a resumed
  session is not sent it twice). For ``user`` the default is a block slowloop owns in
  ``$CODEX_HOME/AGENTS.md`` (personal too), rewritten after each reflection and observed turn;
  ``bootstrap="agents-md"`` for a project writes the repository's ``AGENTS.md`` instead — a file
  people usually commit, so only when asked for.
- **Trust**: Codex runs a hook only once the person trusted that exact hook (by its hash, in
  ``$CODEX_HOME/config.toml``, ``[hooks.state]``); any change of the command drops the trust.
  ``trust_status`` asks Codex itself (``codex app-server``, ``hooks/list``) and ``grant_trust``
  records the trust Codex would record from ``/hooks`` — only when the person asks (``--trust``).
- **Skills**: one symlink per learned skill in ``.agents/skills`` (``~/.agents/skills`` for ``user``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from ..paths import home as default_home, layout, validate_agent_name
from ..places import agents_md, skills_export
from . import settings_json
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


def hooks_path(scope: Scope, cwd: Path | None = None) -> Path:  # noqa: ARG001 — see the module doc
    return codex_home() / "hooks.json"


def project_dir(cwd: Path | None = None) -> Path:
    return Path(os.path.realpath(cwd or Path.cwd()))


def _slot(scope: Scope, cwd: Path | None) -> str | None:
    return str(project_dir(cwd)) if scope == "project" else None


def agents_md_path(scope: Scope, cwd: Path | None = None) -> Path:
    return codex_home() / "AGENTS.md" if scope == "user" else Path(cwd or Path.cwd()) / "AGENTS.md"


def skills_path(scope: Scope, cwd: Path | None = None) -> Path:
    base = Path(os.path.expanduser("~")) if scope == "user" else Path(cwd or Path.cwd())
    return base / ".agents" / "skills"


def bootstrap_text(agent: str, skills_linked: bool = False) -> str:
    """The bootstrap as AGENTS.md carries it (no impressions: nobody is known to read it yet).
    With the skills linked into .agents/skills, Codex lists them itself: no index here."""
    from ..bootstrap_cache import cached_bootstrap
    from ..store import open_store

    with open_store(home=default_home()) as store:
        return cached_bootstrap(default_home(), agent, store, host_lists_skills=skills_linked)[0]


def install(scope: Scope, *, agent: str = "default", cwd: Path | None = None,
            export_skills: bool = True, bootstrap: BootstrapVia | None = None,
            reflect_with: str | None = None, trust: bool = False, model: str = "") -> Report:
    validate_agent_name(agent)
    via = bootstrap or ("hooks" if scope == "project" else "agents-md")
    if via not in ("agents-md", "hooks"):
        from ..errors import UserError

        raise UserError(f"unknown bootstrap route {via!r}", hint="use agents-md or hooks")
    if trust and codex_program() is None:  # before anything is written: all or nothing
        from ..errors import UserError

        raise UserError("--trust asks Codex for the hooks' hashes, and the codex program was not found "
                        "on PATH", hint="set SLOWLOOP_CODEX_BIN to its path, or install without --trust "
                                        "and trust the hooks from Codex (/hooks)")
    h = default_home()
    path = hooks_path(scope, cwd)
    sdir = skills_path(scope, cwd) if export_skills else None
    md = agents_md_path(scope, cwd) if via == "agents-md" else None
    project = project_dir(cwd) if scope == "project" else None
    events = ["Stop"] + (["SessionStart"] if via == "hooks" else [])
    entries = [settings_json.HookEntry(ev, command_for(HARNESS, ev, agent=agent, skills_dir=sdir,
                                                       home=_pinned_home(), agents_md=md, project=project,
                                                       scope=scope),
                                       _timeout(h)) for ev in events]
    data, digest = settings_json.load(path)
    before_ours = settings_json.ours(data, _slot(scope, cwd))
    report = Report(HARNESS, scope, str(path), str(sdir or ""))
    report.changed = settings_json.save(path, data, settings_json.with_ours(data, entries, matcher=None,
                                                                            slot=_slot(scope, cwd)), digest)
    report.hooks = [{"event": e.event, "command": e.command} for e in entries]
    if md is not None:
        report.changed = agents_md.write_block(md, bootstrap_text(agent, sdir is not None)) or report.changed
        report.agents_md = str(md)
        if scope == "project":
            report.notes.append(f"the bootstrap block is in {md}, a file people usually commit: it will "
                                "carry what slowloop learned into the repository (--bootstrap hooks keeps it out)")
    else:  # through hooks: an old block would send the bootstrap twice
        report.changed = agents_md.remove_block(agents_md_path(scope, cwd)) or report.changed
    old_project_hooks = Path(cwd or Path.cwd()) / ".codex" / "hooks.json"
    if (scope == "project" and old_project_hooks.is_file()  # where an older slowloop put them
            and os.path.realpath(old_project_hooks) != os.path.realpath(path)):  # a project at ~
        old, old_digest = settings_json.load(old_project_hooks)
        if settings_json.ours(old):
            settings_json.save(old_project_hooks, old, settings_json.without_ours(old), old_digest)
            report.notes.append(f"moved slowloop's hooks out of {old_project_hooks} (a shared project file)")
    if sdir is not None:
        report.skills = skills_export.sync(layout(agent, h).skills, sdir).to_dict()
    from ..places import targets
    from .claude_code import configure_reflector, keep_out_of_git, next_steps

    targets.register(h, {"harness": HARNESS, "scope": scope, "agent": agent, "settings": path,
                         "skills_dir": sdir, "agents_md": md, "project": project})
    if project is not None:
        report.notes.extend(keep_out_of_git(project, [p for p in (sdir,) if p]))
    if reflect_with:
        report.notes.append(configure_reflector(h, reflect_with, model))
    changed_hooks = {(e.event, e.command) for e in before_ours} != {(e.event, e.command) for e in entries}
    if trust:
        granted = grant_trust(path, [e.command for e in entries])
        report.notes.append(f"trusted {granted} slowloop hook(s) in {codex_home() / 'config.toml'} "
                            "(what `/hooks` → Trust records)")
    else:
        report.notes.append(trust_instructions(path, changed_hooks))
    report.notes.append(next_steps(HARNESS, h))
    return report


def trust_instructions(path: Path, changed: bool) -> str:
    again = "These hooks are new or changed, so Codex will not run them until you trust them" + (
        " (again)" if changed else "")
    return (f"{again}: start `codex`, answer the 'Hooks need review' prompt with 'Trust all and "
            f"continue' (or type /hooks and trust the slowloop entries of {path}); or run this install "
            "again with --trust to record that trust now. `slowloop hooks status codex` tells whether "
            "Codex will run them.")


def remove(scope: Scope, *, agent: str = "default", cwd: Path | None = None) -> Report:
    validate_agent_name(agent)
    path = hooks_path(scope, cwd)
    sdir = skills_path(scope, cwd)
    data, digest = settings_json.load(path)
    report = Report(HARNESS, scope, str(path), str(sdir))
    slot = _slot(scope, cwd)
    entries = settings_json.ours(data, slot)
    report.hooks = [{"event": e.event, "command": e.command} for e in entries]
    report.changed = settings_json.save(path, data, settings_json.without_ours(data, slot), digest)
    md = agents_md_path(scope, cwd)
    report.changed = agents_md.remove_block(md) or report.changed
    report.agents_md = str(md)
    report.skills = unlink_skills(installed_sources(entries, agent), sdir)
    from ..places import targets

    targets.unregister(default_home(), harness=HARNESS, settings=str(path),
                       project=project_dir(cwd) if scope == "project" else None)
    return report


def status(scope: Scope, *, agent: str = "default", cwd: Path | None = None) -> Report:
    validate_agent_name(agent)
    path = hooks_path(scope, cwd)
    sdir = skills_path(scope, cwd)
    data, _ = settings_json.load(path)
    report = Report(HARNESS, scope, str(path), str(sdir))
    report.hooks = [{"event": e.event, "command": e.command}
                    for e in settings_json.ours(data, _slot(scope, cwd))]
    if report.hooks:
        trust = trust_status(path, [h["command"] for h in report.hooks])
        for hk in report.hooks:
            hk["trust"] = trust.get(hk["command"], "unknown")
        bad = [hk for hk in report.hooks if hk["trust"] not in ("trusted", "managed")]
        if bad:
            states = ", ".join(sorted({hk["trust"] for hk in bad}))
            report.notes.append(f"Codex will NOT run {len(bad)} of slowloop's hooks ({states}). "
                                + trust_instructions(path, any(hk["trust"] == "modified" for hk in bad)))
    md = agents_md_path(scope, cwd)
    report.agents_md = str(md) if agents_md.read_block(md) is not None else None
    source = layout(agent, default_home()).skills
    linked = skills_export.owned_links(source, sdir)
    report.skills = {"linked": linked,
                     "not_linked": [n for n in sorted(skills_export.skill_names(source)) if n not in linked]}
    return report


# -- trust: asked of Codex itself ---------------------------------------------------------------

def codex_program() -> str | None:
    """The ``codex`` the person runs: ``SLOWLOOP_CODEX_BIN``, else ``codex`` on PATH."""
    import shutil

    explicit = os.environ.get("SLOWLOOP_CODEX_BIN")
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else None
    return shutil.which("codex")


def list_hooks(cwd: Path | None = None, timeout: float = 20.0) -> list[dict]:
    """Codex's own view of the hooks (``codex app-server`` → ``hooks/list``): key, command,
    currentHash, trustStatus. Raises OSError/ValueError when Codex cannot be asked."""
    import json
    import subprocess
    import threading

    prog = codex_program()
    if prog is None:
        raise OSError("the codex program was not found on PATH (set SLOWLOOP_CODEX_BIN to its path)")
    where = str(project_dir(cwd))
    proc = subprocess.Popen([prog, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=where)
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    stdin, stdout = proc.stdin, proc.stdout
    try:
        assert stdin is not None and stdout is not None

        def ask(obj: dict) -> None:
            stdin.write(json.dumps(obj) + "\n")
            stdin.flush()

        def answer(want: int) -> dict:
            for line in stdout:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if isinstance(msg, dict) and msg.get("id") == want:
                    if "error" in msg:
                        raise ValueError(f"codex app-server: {msg['error']}")
                    return msg.get("result") or {}
            raise ValueError("codex app-server ended without answering")

        ask({"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "slowloop", "version": "1"}}})
        answer(1)
        ask({"method": "initialized"})
        ask({"id": 2, "method": "hooks/list", "params": {"cwds": [where]}})
        result = answer(2)
        return [h for d in result.get("data") or [] for h in d.get("hooks") or [] if isinstance(h, dict)]
    finally:
        timer.cancel()
        proc.kill()
        proc.wait()


def trust_status(path: Path, commands: list[str], cwd: Path | None = None) -> dict[str, str]:
    """command -> Codex's trust status of that hook ("trusted", "untrusted", "modified"…), or
    "unknown: <why>" when Codex cannot be asked (then the config is read: a hook with no trust
    entry at all is "untrusted")."""
    try:
        hooks = list_hooks(cwd)
    except (OSError, ValueError) as exc:
        recorded = _recorded_trust(path)
        out = {}
        for c in commands:
            out[c] = "untrusted" if not recorded else f"unknown: {exc}"
        return out
    mine = {h.get("command"): str(h.get("trustStatus") or "unknown") for h in hooks
            if h.get("sourcePath") == str(path)}
    return {c: mine.get(c, "not loaded by codex") for c in commands}


def _recorded_trust(path: Path) -> dict[str, str]:
    """key -> trusted_hash recorded in Codex's config for hooks of ``path``."""
    import tomllib

    try:
        data = tomllib.loads((codex_home() / "config.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    state = (data.get("hooks") or {}).get("state") or {}
    return {k: str(v.get("trusted_hash")) for k, v in state.items()
            if isinstance(v, dict) and k.startswith(str(path) + ":") and v.get("trusted_hash")}


def grant_trust(path: Path, commands: list[str], cwd: Path | None = None) -> int:
    """Record Codex's trust for exactly these hooks (their current hash, as Codex computes it) in
    ``$CODEX_HOME/config.toml``; the person asked for it with ``--trust``."""
    from ..config_edit import set_keys
    from ..errors import UserError

    try:
        hooks = list_hooks(cwd)
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot ask Codex for the hooks' hashes: {exc}",
                        hint="trust them from Codex instead: start `codex` and type /hooks") from None
    n = 0
    for h in hooks:
        if h.get("sourcePath") == str(path) and h.get("command") in commands and h.get("currentHash"):
            if h.get("trustStatus") != "trusted":
                set_keys(codex_home() / "config.toml", f'hooks.state."{h["key"]}"',
                         {"trusted_hash": h["currentHash"]})
            n += 1
    return n
