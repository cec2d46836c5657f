"""``slowloop index add|remove|status|rebuild``: the recall index (``reindex`` is an alias)."""

from __future__ import annotations

import click

from .common import agent_option, echo_json, get_app, json_option, warn


def _stats_line(stats) -> str:
    for problem in stats.problems:
        warn(f"warning: {problem}")
    return (f"+{stats.added} added, ~{stats.updated} updated, -{stats.removed} removed, "
            f"{stats.embedded} embedded; {stats.total} entries ({stats.seconds:.2f}s)")


@click.group()
def index() -> None:
    """The recall index: what `slowloop search` looks through.

    It covers recorded turns, operational memory (chronicle, debts, archived layers), skills, the
    memo, and the folders of notes you add. It lives in <agent dir>/recall.db and can always be
    rebuilt with `slowloop index rebuild`.

    \b
    Example:
      slowloop index add ~/notes
      slowloop index status
    """


@index.command("add")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@agent_option
@json_option
def add(paths: tuple[str, ...], agent: str, as_json: bool) -> None:
    """Index folders (or files) of your own Markdown or text notes, and keep them current.

    Each Markdown section (or text paragraph group) becomes one entry of kind `doc`. The folders
    are remembered; every refresh re-reads the files that changed and drops the removed ones.

    \b
    Example:
      slowloop index add ~/notes ~/work/decisions.md
    """
    from ..recall import add_paths

    stats = add_paths(list(paths), agent, get_app().home)
    if as_json:
        echo_json(stats.to_dict())
    else:
        click.echo(f"indexed {', '.join(paths)}: {_stats_line(stats)}")


@index.command("remove")
@click.argument("paths", nargs=-1, required=True)
@agent_option
@json_option
def remove(paths: tuple[str, ...], agent: str, as_json: bool) -> None:
    """Stop indexing folders added with `index add` (your files are not touched).

    \b
    Example:
      slowloop index remove ~/notes
    """
    from ..recall import remove_paths

    stats = remove_paths(list(paths), agent, get_app().home)
    if as_json:
        echo_json(stats.to_dict())
    else:
        click.echo(f"removed {', '.join(paths)}: {_stats_line(stats)}")


@index.command("status")
@agent_option
@json_option
def status(agent: str, as_json: bool) -> None:
    """Show what the index holds: entries per kind, vectors, registered folders.

    \b
    Example:
      slowloop index status --json
    """
    from ..recall import status as index_status

    info = index_status(agent, get_app().home)
    if as_json:
        echo_json(info)
        return
    if not info["exists"]:
        click.echo(f"no index yet for agent {agent!r} (it is built by the first search or refresh)")
        return
    click.echo(f"index       {info['path']} ({info['size_bytes'] / 1e6:.1f} MB)")
    click.echo(f"entries     {info['entries']}  " +
               "  ".join(f"{k}={v}" for k, v in info["by_kind"].items()))
    sem = info["vector_model"] or "none"
    if not info["semantic_available"]:
        sem += "  (semantic extra not installed: pip install 'slowloop[semantic]')"
    click.echo(f"vectors     {info['vectors']}  model {sem}")
    click.echo(f"refreshed   {info['refreshed_at'] or 'never'}")
    for root in info["doc_roots"]:
        click.echo(f"folder      {root['path']}" + ("" if root["exists"] else "  (missing)"))


@index.command("rebuild")
@agent_option
@click.option("--embed/--no-embed", default=None,
              help="Also compute vectors now (default: when the [semantic] extra is installed).")
@json_option
def rebuild(agent: str, embed: bool | None, as_json: bool) -> None:
    """Rebuild the recall index from its sources (turns, memory, skills, memo, notes).

    Recorded data is never touched: the index is derived. Registered folders stay registered.
    (`slowloop reindex` is the same command.)

    \b
    Example:
      slowloop index rebuild --agent default
    """
    from ..recall import reindex as run_reindex
    from ..recall.semantic import available

    do_embed = available() if embed is None else embed

    def progress(done: int, total: int) -> None:
        if done == total or done % 2048 == 0:
            warn(f"embedded {done}/{total}")

    stats = run_reindex(agent, get_app().home, embed=do_embed, progress=progress)
    if as_json:
        echo_json(stats.to_dict())
    else:
        click.echo(f"reindexed agent {agent!r}: {_stats_line(stats)}")
