"""``slowloop sync``: share what an agent learned through a git remote you own."""

from __future__ import annotations

import click

from .common import agent_option, echo_json, get_app, json_option


def _show(r, as_json: bool) -> None:
    if as_json:
        echo_json(r.to_dict())
        return
    for c in r.committed:
        click.echo(f"committed: {c}")
    if r.pulled:
        click.echo(f"merged {r.pulled} commit(s) from the remote")
    click.echo("pushed" if r.pushed else "not pushed")
    for h in r.held_back:
        click.echo(f"held back: {h}", err=True)
    for c in r.conflicts:
        click.echo(f"conflict kept in skill {c}: both versions are in its SKILL.md between "
                   "<!-- slowloop:conflict … --> markers; keep what is right", err=True)
    for n in r.notes:
        click.echo(f"note: {n}", err=True)


@click.group(invoke_without_command=True)
@agent_option
@json_option
@click.pass_context
def sync(ctx: click.Context, agent: str, as_json: bool) -> None:
    """Share an agent's skills, memo and memory through a git remote you own.

    `slowloop sync` commits what changed here (one commit per reflection or batch of hand edits),
    fetches, merges what other machines learned (each side's new rules kept, the same rule once, a
    skill changed on both sides kept with both versions marked), and pushes. It uses your git, with
    your credentials. Files holding what looks like a secret or a dangerous instruction are not
    committed. After `sync init`, every reflection syncs by itself.

    \b
    Example:
      slowloop sync init --agent myproj --remote git@github.com:me/myproj-agent.git
      slowloop sync --agent myproj
    """
    if ctx.invoked_subcommand is not None:
        return
    from ..sync import sync as run

    _show(run(agent, home=get_app().home), as_json)


@sync.command("init")
@agent_option
@click.option("--remote", required=True, help="The git URL of a repository you own (bare or hosted).")
@click.option("--private", "private", multiple=True, type=click.Choice(["memory", "contexts", "archive"]),
              help="Keep this folder out of what is shared (repeatable), e.g. personal notes in memory/.")
@json_option
def init_cmd(agent: str, remote: str, private: tuple[str, ...], as_json: bool) -> None:
    """Make the agent's folder a git working tree of REMOTE and sync it once.

    A remote that already holds the agent (another machine, a teammate) is merged in first.

    \b
    Example:
      slowloop sync init --agent myproj --remote ../agents.git
      slowloop sync init --agent team --remote git@host:team/agent.git --private memory
    """
    from ..sync import init

    _show(init(agent, remote, home=get_app().home, private=private), as_json)


@sync.command("status")
@agent_option
@json_option
def status_cmd(agent: str, as_json: bool) -> None:
    """Whether the agent is shared, where, what is not committed yet, and skills with a conflict.

    \b
    Example:
      slowloop sync status --agent myproj --json
    """
    from ..paths import agent_dir
    from ..sync import changed, conflicted_skills, remote_url

    repo = agent_dir(agent, get_app().home)
    shared = (repo / ".git").is_dir()
    uncommitted: list[str] = changed(repo) if shared else []
    conflicts: list[str] = conflicted_skills(repo) if shared else []
    out = {"agent": agent, "path": str(repo), "shared": shared,
           "remote": remote_url(repo) if shared else None,
           "uncommitted": uncommitted, "conflicts": conflicts}
    if as_json:
        echo_json(out)
        return
    if not shared:
        click.echo(f"{agent}: not shared (`slowloop sync init --agent {agent} --remote URL`)")
        return
    click.echo(f"{agent}: shared with {out['remote'] or '(no remote)'}; {len(uncommitted)} file(s) "
               f"not committed yet")
    for c in conflicts:
        click.echo(f"  conflict to settle in skill {c}")
