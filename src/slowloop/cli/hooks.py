"""``slowloop hooks install|remove|status|sync``: wire slowloop into Claude Code and Codex."""

from __future__ import annotations

import click

from ..paths import layout
from .common import agent_option, echo_json, json_option

HARNESS = click.Choice(["claude-code", "codex"])


def _scope_options(fn):
    fn = click.option("--user", "scope", flag_value="user",
                      help="The user-wide settings (~/.claude, $CODEX_HOME) for every project.")(fn)
    fn = click.option("--project", "scope", flag_value="project", default=True,
                      help="The project in the current directory (the default).")(fn)
    return fn


def _module(harness: str):
    if harness == "claude-code":
        from ..integrations import claude_code

        return claude_code
    from ..integrations import codex

    return codex


def _show(report, as_json: bool, verb: str) -> None:
    if as_json:
        echo_json(report.to_dict())
        return
    state = "changed" if report.changed else "already up to date"
    if verb == "status":
        state = "installed" if report.hooks else "not installed"
    click.echo(f"{report.harness} ({report.scope}): {state} — {report.settings}")
    for h in report.hooks:
        trust = f" [codex: {h['trust']}]" if h.get("trust") else ""
        click.echo(f"  hook {h['event']}{trust}: {h['command']}")
    if report.agents_md:
        click.echo(f"  bootstrap block in {report.agents_md}")
    s = report.skills or {}
    if "linked" in s:
        click.echo(f"  skills linked in {report.skills_dir}: {', '.join(s['linked']) or 'none'}")
        if s.get("not_linked") and report.hooks:
            click.echo(f"  learned but not linked: {', '.join(s['not_linked'])} (run `slowloop hooks sync`)")
    elif s:
        for key in ("added", "removed", "conflicts"):
            if s.get(key):
                click.echo(f"  skills {key}: {', '.join(s[key])}")
    for note in report.notes:
        click.echo(f"note: {note}", err=True)


@click.group()
def hooks() -> None:
    """Install slowloop's hooks into Claude Code or Codex, and keep what they load current.

    The hooks give each new session the bootstrap (memo, skill index, memory root), observe each
    finished turn, and link learned skills where the agent loads them. They fail open: a problem
    is logged to <home>/logs/hooks.log and the session goes on.

    \b
    Example:
      slowloop hooks install claude-code --project
      slowloop hooks status claude-code --json
    """


@hooks.command("install")
@click.argument("harness", type=HARNESS)
@_scope_options
@agent_option
@click.option("--no-skills", is_flag=True, help="Do not link learned skills into the agent's skills folder.")
@click.option("--bootstrap", "via", type=click.Choice(["agents-md", "hooks"]), default=None,
              help="Codex only: send the bootstrap through a SessionStart hook (default for --project) "
                   "or a block of AGENTS.md (default for --user).")
@click.option("--reflect-with", type=click.Choice(["claude", "codex", "offline"]), default=None,
              help="Reflect with your own agent CLI (`claude -p` / `codex exec`): the reflection prompt "
                   "then goes to that agent's service (Anthropic / OpenAI), which already sees these "
                   "sessions. Default: keep the configured provider (offline: nothing leaves the machine).")
@click.option("--model", "model", default="", metavar="NAME",
              help="With --reflect-with claude|codex: the model that CLI is asked for (default: its own).")
@click.option("--trust", is_flag=True,
              help="Codex only: record Codex's trust for exactly slowloop's hooks now (what /hooks → "
                   "Trust does); without it Codex asks you at its next start.")
@click.option("--memory", "memory_mode", type=click.Choice(["committed", "private", "home"]), default=None,
              help="--project only: keep the operational memory in the project's memory/ folder, "
                   "committed with it (the default) or private to this machine (left out of git), or "
                   "in the slowloop home. Default: what the project has, else committed.")
@json_option
def install(harness: str, scope: str, agent: str, no_skills: bool, via: str | None, reflect_with: str | None,
            trust: bool, as_json: bool, model: str = "", memory_mode: str | None = None) -> None:
    """Add slowloop's hooks (only its own entries; running it again changes nothing).

    From then on each session starts with what was learned, each finished turn is observed, and
    when a turn taught something (a correction, a recovery from a real error) slowloop reflects by
    itself in the background; the next session carries the lesson. `slowloop status` shows it.

    \b
    Example:
      slowloop hooks install claude-code --project --agent myproj
      slowloop hooks install claude-code --user --reflect-with claude --model sonnet
      slowloop hooks install codex --project --agent myproj --trust
      slowloop hooks install claude-code --project --agent myproj --memory private

    A project install keeps the operational memory in the project (memory/, versioned with it,
    unless --memory says otherwise): each session leaves its entry there by itself.

    In a terminal, the first install asks once whether to reflect with your own agent CLI
    (saying what is sent where and about how many tokens); elsewhere it stays offline and says
    how to switch.
    """
    mod = _module(harness)
    kw = {"bootstrap": via, "trust": trust} if harness == "codex" else {}
    if harness != "codex" and (via or trust):
        from ..errors import UserError

        raise UserError("--bootstrap and --trust are for codex only",
                        hint="Claude Code takes the bootstrap from its SessionStart hook and needs no trust step")
    offered = None
    if reflect_with is None and not as_json:
        reflect_with, model, offered = _offer_reflector(harness, model)
    if memory_mode is not None and scope != "project":
        from ..errors import UserError

        raise UserError("--memory is for a project install",
                        hint="a user install keeps the memory in the slowloop home; add --project")
    report = mod.install(scope, agent=agent, export_skills=not no_skills, reflect_with=reflect_with,
                         model=model, **kw)
    if scope == "project":
        from ..integrations.claude_code import project_dir
        from ..integrations.project_memory import set_up

        report.notes.append(set_up(project_dir(), agent, memory_mode))
    if offered:
        report.notes.append(offered)
    _show(report, as_json, "install")


def interactive() -> bool:
    """A person at a terminal (both ends), who can answer a question."""
    import sys

    return sys.stdin.isatty() and sys.stdout.isatty()


def _offer_reflector(harness: str, model: str) -> tuple[str | None, str, str | None]:
    """Ask once, in a terminal, whether to reflect with the person's own agent CLI; elsewhere say
    how to switch. Returns (reflect_with, model, a note)."""
    from ..config import load_config
    from ..fsutil import atomic_write
    from ..integrations.claude_code import reflector_offer
    from ..paths import home as default_home

    h = default_home()
    asked = h / "cache" / f"asked-reflector-{harness}"
    if load_config(h).provider.kind != "offline" or asked.exists():
        return None, model, None
    which, why = reflector_offer(harness, h)
    if not interactive():
        return None, model, (f"reflection stays offline; to reflect with your own agent instead: "
                             f"`slowloop hooks install {harness} --reflect-with {which}` ({why})")
    click.echo(why, err=True)
    yes = click.confirm(f"Reflect with `{'claude -p' if which == 'claude' else 'codex exec'}`?",
                        default=False, err=True)
    if yes and not model:
        model = click.prompt("Which model (empty: the CLI's default)", default="", show_default=False, err=True)
    asked.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(asked, "yes\n" if yes else "no\n")
    if not yes:
        return None, model, (f"reflection stays offline; switch any time with "
                             f"`slowloop hooks install {harness} --reflect-with {which}`")
    return which, model, None


@hooks.command("remove")
@click.argument("harness", type=HARNESS)
@_scope_options
@agent_option
@json_option
def remove(harness: str, scope: str, agent: str, as_json: bool) -> None:
    """Take out exactly what install added: slowloop's hooks, skill links and AGENTS.md block.

    \b
    Example:
      slowloop hooks remove claude-code --project

    A project memory nothing was written in yet goes too; one that holds anything stays.
    """
    report = _module(harness).remove(scope, agent=agent)
    if scope == "project":
        from ..integrations.claude_code import project_dir
        from ..integrations.project_memory import tear_down
        from ..paths import home as default_home

        note = tear_down(default_home(), project_dir())
        if note:
            report.notes.append(note)
    _show(report, as_json, "remove")


@hooks.command("uninstall", hidden=True)
@click.argument("harness", type=HARNESS)
@_scope_options
@agent_option
@json_option
@click.pass_context
def uninstall(ctx: click.Context, harness: str, scope: str, agent: str, as_json: bool) -> None:
    """The same as `slowloop hooks remove`.

    \b
    Example:
      slowloop hooks uninstall claude-code --project
    """
    ctx.forward(remove)


@hooks.command("status")
@click.argument("harness", type=HARNESS)
@_scope_options
@agent_option
@json_option
def status(harness: str, scope: str, agent: str, as_json: bool) -> None:
    """Show slowloop's hooks, linked skills and bootstrap block for a harness.

    \b
    Example:
      slowloop hooks status codex --user --json
    """
    _show(_module(harness).status(scope, agent=agent), as_json, "status")


@hooks.command("sync")
@click.argument("harness", type=HARNESS)
@_scope_options
@agent_option
@json_option
def sync(harness: str, scope: str, agent: str, as_json: bool) -> None:
    """Bring skill links and the AGENTS.md block up to date now (the hooks also do it).

    \b
    Example:
      slowloop hooks sync claude-code --user
    """
    from ..paths import home
    from ..places import skills_export

    mod = _module(harness)
    report = mod.status(scope, agent=agent)
    # Installed with --no-skills, the hooks carry no --skills-dir: sync must not link them either.
    exporting = not report.hooks or any("--skills-dir" in h["command"] for h in report.hooks)
    result = (skills_export.sync(layout(agent, home()).skills, mod.skills_path(scope))
              if exporting else skills_export.ExportResult(str(mod.skills_path(scope))))
    s = result.to_dict()
    md: dict | None = None
    if harness == "codex" and report.agents_md:
        from ..places import agents_md

        md = {"path": report.agents_md,
              "changed": agents_md.write_block(mod.agents_md_path(scope),
                                               mod.bootstrap_text(agent, exporting))}
    if as_json:
        echo_json({"skills": s, "agents_md": md})
        return
    click.echo(f"skills in {s['target']}: {len(s['added'])} added, {len(s['removed'])} removed, "
               f"{len(s['kept'])} kept" + (f", conflicts: {', '.join(s['conflicts'])}" if s["conflicts"] else ""))
    if md:
        click.echo(f"AGENTS.md block {'updated' if md['changed'] else 'already current'}: {md['path']}")
