"""Claude Code: hooks in ``settings.json`` and learned skills in its skills folder.

``install`` writes three hooks — SessionStart (the bootstrap as additional context), Stop and
SessionEnd (observe the session transcript incrementally) — into ``.claude/settings.local.json``
of the project in the working directory (``project``: personal, not committed) or
``~/.claude/settings.json`` (``user``), and links the agent's skills into ``.claude/skills`` or ``~/.claude/skills`` where Claude Code loads
them; its ``Skill`` tool calls then show up in the transcript and count as invocations.
``remove`` takes out exactly what ``install`` added. Both are idempotent.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..config import load_config
from ..errors import UserError
from ..paths import home as default_home, layout, validate_agent_name
from ..places import skills_export
from . import settings_json
from .hooks_runtime import command_for

Scope = Literal["project", "user"]
EVENTS: tuple[str, ...] = ("SessionStart", "Stop", "SessionEnd")
HARNESS = "claude-code"


@dataclass
class Report:
    """What install/remove/status found or did (``--json`` prints ``to_dict``)."""

    harness: str
    scope: str
    settings: str
    skills_dir: str
    changed: bool = False
    hooks: list[dict] = field(default_factory=list)
    skills: dict = field(default_factory=dict)
    agents_md: str | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def _base(scope: Scope, cwd: Path | None) -> Path:
    if scope == "user":
        return Path(os.path.expanduser("~")) / ".claude"
    return Path(cwd or Path.cwd()) / ".claude"


def settings_path(scope: Scope, cwd: Path | None = None) -> Path:
    # Project scope uses settings.local.json, Claude Code's personal, uncommitted project settings:
    # the hook commands carry this machine's absolute paths (its Python, the home), which would
    # break every teammate's session if they landed in the shared settings.json.
    return _base(scope, cwd) / ("settings.json" if scope == "user" else "settings.local.json")


def skills_path(scope: Scope, cwd: Path | None = None) -> Path:
    return _base(scope, cwd) / "skills"


def _timeout(home: Path) -> int:
    return max(1, math.ceil(load_config(home).hooks.timeout_ms / 1000))


def _pinned_home() -> Path | None:
    # Claude Code starts hooks with its own environment: a SLOWLOOP_HOME set while installing
    # must travel in the command, or the hooks would write to the default home.
    return default_home() if os.environ.get("SLOWLOOP_HOME") else None


def project_dir(cwd: Path | None = None) -> Path:
    return Path(os.path.realpath(cwd or Path.cwd()))


def install(scope: Scope, *, agent: str = "default", cwd: Path | None = None,
            export_skills: bool = True, reflect_with: str | None = None, model: str = "") -> Report:
    validate_agent_name(agent)
    h = default_home()
    path = settings_path(scope, cwd)
    sdir = skills_path(scope, cwd) if export_skills else None
    project = project_dir(cwd) if scope == "project" else None
    timeout = _timeout(h)
    entries = [settings_json.HookEntry(ev, command_for(HARNESS, ev, agent=agent, skills_dir=sdir,
                                                       home=_pinned_home(), project=project,
                                                       scope=scope), timeout)
               for ev in EVENTS]
    data, digest = settings_json.load(path)
    after = settings_json.with_ours(data, entries, matcher="")
    report = Report(HARNESS, scope, str(path), str(sdir or ""))
    report.changed = settings_json.save(path, data, after, digest)
    report.hooks = [{"event": e.event, "command": e.command} for e in entries]
    if sdir is not None:
        report.skills = skills_export.sync(layout(agent, h).skills, sdir).to_dict()
        for name in report.skills["conflicts"]:
            report.notes.append(f"{sdir / name} exists and is not slowloop's: skill {name!r} not linked")
    from ..places import targets

    targets.register(h, {"harness": HARNESS, "scope": scope, "agent": agent, "settings": path,
                         "skills_dir": sdir, "agents_md": None, "project": project})
    if project is not None:
        report.notes.extend(keep_out_of_git(project, [path] + ([sdir] if sdir else [])))
    if reflect_with:
        report.notes.append(configure_reflector(h, reflect_with, model))
    report.notes.append(next_steps(HARNESS, h))
    return report


_EXCLUDE_HEADER = "# slowloop: personal, machine-specific"


def keep_out_of_git(project: Path, paths: list[Path]) -> list[str]:
    """List what slowloop put in a git project in ``.git/info/exclude`` (this clone's own ignore
    file, never committed): hooks with this machine's paths, links into this machine's home."""
    git = project / ".git"
    if not git.is_dir():
        return []
    exclude = git / "info" / "exclude"
    try:
        text = exclude.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    rel = []
    for p in paths:
        try:
            r = "/" + str(Path(p).relative_to(project)).replace(os.sep, "/")
        except ValueError:
            continue
        if Path(p).is_dir() or not Path(p).suffix:
            r += "/"
        if r not in text.splitlines():
            rel.append(r)
    if not rel:
        return []
    exclude.parent.mkdir(parents=True, exist_ok=True)
    block = ("" if not text or text.endswith("\n") else "\n") + _EXCLUDE_HEADER + "\n"
    with open(exclude, "a", encoding="utf-8") as f:
        f.write(block + "".join(r + "\n" for r in rel))
    return [f"kept out of git (in .git/info/exclude, never committed): {', '.join(rel)}"]


def release_from_git(project: Path, paths: list[Path]) -> list[str]:
    """Take back what :func:`keep_out_of_git` added to ``.git/info/exclude`` for ``paths`` (and its
    header once nothing of slowloop's is left under it)."""
    exclude = project / ".git" / "info" / "exclude"
    try:
        lines = exclude.read_text(encoding="utf-8").splitlines()
    except (FileNotFoundError, NotADirectoryError):
        return []
    ours = set()
    for p in paths:
        try:
            r = "/" + str(Path(p).relative_to(project)).replace(os.sep, "/")
        except ValueError:
            continue
        ours |= {r, r + "/"}
    out, in_block, removed = [], False, []
    for ln in lines:
        if ln == _EXCLUDE_HEADER:
            in_block = True
            out.append(ln)
            continue
        if in_block and ln in ours:
            removed.append(ln)
            continue
        if in_block and (not ln.startswith("/") or not ln.strip()):
            in_block = False
        out.append(ln)
    # a header with nothing of ours left under it goes too
    cleaned = [ln for i, ln in enumerate(out)
               if not (ln == _EXCLUDE_HEADER and (i + 1 >= len(out) or not out[i + 1].startswith("/")))]
    if not removed:
        return []
    text = "\n".join(cleaned)
    exclude.write_text(text + ("\n" if text else ""), encoding="utf-8")
    return [f"no longer kept out of git (.git/info/exclude): {', '.join(removed)}"]


REFLECTORS = {
    "claude": ("claude -p", "Anthropic"),
    "codex": ("codex exec", "OpenAI"),
    "offline": ("", "nobody: the offline distiller runs on this machine"),
}


def reflection_cost(home: Path) -> str:
    """About how many tokens one reflection sends and receives, from the configured budgets."""
    from ..config import load_config

    cfg = load_config(home)
    budget, answer = int(cfg.bundle.token_budget), int(cfg.provider.max_output_tokens)
    return (f"about {budget // 4:,}–{budget + 1500:,} tokens in (recent turns, secrets redacted) and up to "
            f"{answer:,} out per reflection, at most one every {cfg.scheduler.cooldown}")


def reflector_offer(harness: str, home: Path) -> tuple[str, str]:
    """(which reflector, what to tell the person before asking) for an install in a terminal."""
    which = "claude" if harness == "claude-code" else "codex"
    command, service = REFLECTORS[which]
    return which, (f"slowloop learns offline by default (nothing leaves this machine). It can also reflect "
                   f"with your own {'Claude Code' if which == 'claude' else 'Codex'} (`{command}`): each "
                   f"reflection then sends {reflection_cost(home)} to {service}, the service that already "
                   "sees these sessions; it writes better rules from corrections that state no clean rule.")


def configure_reflector(home: Path, which: str, model: str = "") -> str:
    """Make the person's own agent CLI the model that reflects (``[provider]`` in config.toml);
    ``model``: the model it is asked for (empty: the CLI's own default)."""
    from ..config_edit import set_keys
    from ..paths import config_path, ensure_home

    if which not in REFLECTORS:
        from ..errors import UserError

        raise UserError(f"unknown reflector {which!r}", hint="use claude, codex or offline")
    command, service = REFLECTORS[which]
    ensure_home(home)
    if which == "offline":
        set_keys(config_path(home), "provider", {"kind": "offline"})
        return "reflection: the offline distiller (no model, nothing leaves this machine)"
    if model.strip():
        import shlex

        command = f"{command} --model {shlex.quote(model.strip())}"
    set_keys(config_path(home), "provider", {"kind": "command", "command": command})
    return (f"reflection: `{command}` — each reflection's prompt (recent turns, secrets redacted) goes "
            f"to {service}, the service that already sees these sessions; it runs with no tools, "
            "in a private folder, and slowloop never observes it as a session of yours")


def next_steps(harness: str, home: Path) -> str:
    from ..config import load_config

    cfg = load_config(home)
    auto = bool(cfg.reflect.auto)
    kind = cfg.provider.kind
    if not auto:
        return ("reflection is manual ([reflect] auto = false): run `slowloop reflect`, or cron it, or "
                "`slowloop daemon`")
    return (f"what happens next: work as usual; when you correct {'Claude' if harness == 'claude-code' else 'Codex'}"
            f" or it recovers from a real error, slowloop reflects by itself in the background"
            f" ({'offline distiller' if kind == 'offline' else kind + ' provider'}) and your next session "
            "starts with the lesson; `slowloop status` shows what it learned")


def installed_sources(entries: list[settings_json.HookEntry], agent: str) -> list[Path]:
    """The skills folders whose links ``remove`` must take out: the agent asked for, and every
    agent (and pinned home) the installed hooks name — ``remove`` run without the ``--agent``
    given to ``install`` must still unlink what that install linked."""
    import shlex

    sources = {layout(agent, default_home()).skills}
    for e in entries:
        try:
            argv = shlex.split(e.command)
        except ValueError:
            continue
        opts = {a: argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("--agent", "--home")}
        name = opts.get("--agent", "default")
        try:
            validate_agent_name(name)
        except UserError:
            continue
        h = Path(opts["--home"]).expanduser() if "--home" in opts else default_home()
        sources.add(layout(name, h).skills)
    return sorted(sources)


def unlink_skills(sources: list[Path], sdir: Path) -> dict:
    """Remove slowloop's links from ``sdir`` for each source folder; one merged result."""
    merged = skills_export.ExportResult(str(sdir))
    for source in sources:
        r = skills_export.sync(source, sdir, remove_all=True)
        merged.removed.extend(r.removed)
    merged.removed.sort()
    return merged.to_dict()


def remove(scope: Scope, *, agent: str = "default", cwd: Path | None = None) -> Report:
    validate_agent_name(agent)
    path = settings_path(scope, cwd)
    sdir = skills_path(scope, cwd)
    data, digest = settings_json.load(path)
    report = Report(HARNESS, scope, str(path), str(sdir))
    entries = settings_json.ours(data)
    report.hooks = [{"event": e.event, "command": e.command} for e in entries]
    after = settings_json.without_ours(data)
    report.changed = settings_json.save(path, data, after, digest)
    report.skills = unlink_skills(installed_sources(entries, agent), sdir)
    if report.changed and not after and path.exists() and settings_json.load(path)[0] == {}:
        path.unlink()  # the file only held slowloop's hooks: the project is left as it was found
    _drop_if_empty(sdir)
    if scope == "project":
        _drop_if_empty(path.parent)
        report.notes.extend(release_from_git(project_dir(cwd), [path, sdir]))
    from ..places import targets

    targets.unregister(default_home(), harness=HARNESS, settings=str(path),
                       project=project_dir(cwd) if scope == "project" else None)
    return report


def _drop_if_empty(folder: Path) -> None:
    """Remove a folder slowloop's install left empty (never one holding anything)."""
    try:
        folder.rmdir()  # fails unless empty
    except OSError:
        pass


def status(scope: Scope, *, agent: str = "default", cwd: Path | None = None) -> Report:
    validate_agent_name(agent)
    path = settings_path(scope, cwd)
    sdir = skills_path(scope, cwd)
    data, _ = settings_json.load(path)
    report = Report(HARNESS, scope, str(path), str(sdir))
    report.hooks = [{"event": e.event, "command": e.command} for e in settings_json.ours(data)]
    source = layout(agent, default_home()).skills
    linked = skills_export.owned_links(source, sdir)
    learned = sorted(skills_export.skill_names(source))
    report.skills = {"linked": linked, "not_linked": [n for n in learned if n not in linked]}
    missing = [ev for ev in EVENTS if ev not in {hk["event"] for hk in report.hooks}]
    if missing and report.hooks:
        report.notes.append(f"missing hooks: {', '.join(missing)} (run install again)")
    return report
