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
    for m in r.merged_from:
        click.echo(f"  took in: {m}")
    click.echo("pushed" if r.pushed else "not pushed")
    for h in r.held_back:
        click.echo(f"held back: {h}", err=True)
    for c in r.conflicts:
        click.echo(f"conflict kept in skill {c}: both versions are in its SKILL.md between "
                   "<!-- slowloop:conflict … --> markers; keep what is right", err=True)
    for n in r.notes:
        click.echo(f"note: {n}", err=True)
    for q in r.quarantined:
        click.echo(f"not merged, quarantined as {q['id']}: {q['reason']} (from {q['by']}); "
                   f"`slowloop sync show {q['id']} --agent {r.agent}`", err=True)


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
    committed. What comes in is screened before it reaches the agent's folder (the learned
    Markdown only, no links, size caps, the danger gate and the secret scan); a refused change is
    quarantined: `slowloop sync status` lists it, `sync show/accept/drop` settle it. After `sync
    init`, every reflection syncs by itself, through the same screening.

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
    """Whether the agent is shared, where, what is not committed yet, skills with a conflict, and
    the incoming changes waiting in the quarantine (with who wrote them).

    \b
    Example:
      slowloop sync status --agent myproj --json
    """
    from ..paths import agent_dir
    from ..sync import changed, conflicted_skills, held, remote_url

    home = get_app().home
    repo = agent_dir(agent, home)
    shared = (repo / ".git").is_dir()
    out: dict = {"agent": agent, "path": str(repo), "shared": shared,
           "remote": remote_url(repo) if shared else None,
           "uncommitted": changed(repo) if shared else [],
           "conflicts": conflicted_skills(repo) if shared else [],
           "quarantined": held(agent, home)}
    if as_json:
        echo_json(out)
        return
    if not shared:
        click.echo(f"{agent}: not shared (`slowloop sync init --agent {agent} --remote URL`)")
        return
    click.echo(f"{agent}: shared with {out['remote'] or '(no remote)'}; {len(out['uncommitted'])} file(s) "
               f"not committed yet")
    for c in out["conflicts"]:
        click.echo(f"  conflict to settle in skill {c}")
    for q in out["quarantined"]:
        click.echo(f"  quarantined {q['id']}: {q['path']} from {q['by']}: {q['reason']}")
    if out["quarantined"]:
        click.echo(f"  look: `slowloop sync show N --agent {agent}`; then `sync accept N` or `sync drop N`")


@sync.command("show")
@click.argument("ident", metavar="N", type=int)
@agent_option
@json_option
def show_cmd(ident: int, agent: str, as_json: bool) -> None:
    """Show a quarantined change: the file, why it was refused, the commits and authors that brought
    it, and the refused version (secrets redacted), with the lines it adds to this machine's file.

    \b
    Example:
      slowloop sync show 3 --agent myproj
    """
    from ..paths import agent_dir
    from ..sync import describe_held

    out = describe_held(agent_dir(agent, get_app().home), ident)
    if as_json:
        echo_json(out)
        return
    click.echo(f"quarantined {out['id']} ({out['status']}): {out['path']}")
    click.echo(f"  refused: {out['reason']}")
    for a in out["authors"]:
        click.echo(f"  from {a['name']} <{a['email']}>, commit {a['commit'][:12]}: {a['subject']}")
    if out["adds"]:
        click.echo("  it adds:")
        for line in out["adds"]:
            click.echo(f"  + {line}")
    if out["text"] is not None:
        click.echo("--- the refused version ---")
        click.echo(out["text"].rstrip("\n"))
    if out["status"] == "held":
        how = (f"`slowloop sync accept {ident} --agent {agent}" + (" --dangerous" if out["dangerous"] else "")
               + "`" if out["acceptable"] else "it cannot be accepted")
        click.echo(f"next: {how}, or `slowloop sync drop {ident} --agent {agent}`", err=True)


@sync.command("accept")
@click.argument("ident", metavar="N", type=int)
@agent_option
@click.option("--dangerous", is_flag=True,
              help="Take in a change the danger gate refused: you have read it and trust it.")
@json_option
def accept_cmd(ident: int, agent: str, dangerous: bool, as_json: bool) -> None:
    """Take a quarantined change into the agent's folder, through the same screening, and commit it
    in its author's name. A change holding a dangerous instruction needs --dangerous; a link, a
    file that is not learned Markdown, a binary or a secret is never taken in.

    \b
    Example:
      slowloop sync accept 3 --agent myproj
    """
    from ..paths import agent_dir
    from ..sync import accept

    h, r, warning = accept(agent_dir(agent, get_app().home), ident, dangerous=dangerous)
    if warning:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        echo_json({"accepted": h.to_dict(), "committed": r.committed, "held_back": r.held_back,
                   "warning": warning})
        return
    click.echo(f"accepted {ident}: {h.path} (from {h.by()}); it goes out at the next `slowloop sync`")
    for c in r.committed:
        click.echo(f"committed: {c}")


@sync.command("drop")
@click.argument("ident", metavar="N", type=int)
@agent_option
@json_option
def drop_cmd(ident: int, agent: str, as_json: bool) -> None:
    """Drop a quarantined change: it is never merged here (the record stays, marked dropped).

    \b
    Example:
      slowloop sync drop 3 --agent myproj
    """
    from ..paths import agent_dir
    from ..sync import drop

    h = drop(agent_dir(agent, get_app().home), ident)
    if as_json:
        echo_json(h.to_dict())
        return
    click.echo(f"dropped {ident}: {h.path} (from {h.by()})")
