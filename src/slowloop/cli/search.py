"""``slowloop search``: find something from the past by what it was about."""

from __future__ import annotations

import click

from .common import agent_option, echo_json, get_app, json_option, warn

KIND_CHOICES = ["turn", "chronicle", "debt", "skill", "memo", "doc"]


@click.command()
@click.argument("query", nargs=-1, required=True)
@agent_option
@click.option("--kind", "kinds", multiple=True, type=click.Choice(KIND_CHOICES),
              help="Only entries of this kind (repeat for several).")
@click.option("--since", default=None, metavar="DATE",
              help="Only entries from this date/time on (2025-01-08), or this far back (7d, 12h).")
@click.option("-k", "k", default=10, show_default=True, type=click.IntRange(1, 1000),
              help="How many results.")
@click.option("--mode", default="auto", show_default=True,
              type=click.Choice(["auto", "lexical", "semantic", "hybrid"]),
              help="auto = hybrid when the [semantic] extra is installed, else lexical.")
@json_option
def search(query: tuple[str, ...], agent: str, kinds: tuple[str, ...], since: str | None, k: int,
           mode: str, as_json: bool) -> None:
    """Search turns, chronicle and archive, debts, skills, the memo and your notes.

    The index is brought up to date first (only what changed is read). Matching words are marked
    «like this» in the snippet.

    \b
    Example:
      slowloop search "CI failing on the upload test"
      slowloop search deploy rollback --kind chronicle --since 30d -k 5
      slowloop search 部署 --json
    """
    from ..recall import refresh, search as run_search

    app = get_app()
    text = " ".join(query)
    stats = refresh(agent, app.home)
    for problem in stats.problems:
        warn(f"warning: {problem}")
    if stats.changed:
        warn(f"index: +{stats.added} ~{stats.updated} -{stats.removed} entries")
    hits = run_search(text, agent, kinds=kinds or None, since=since, k=k, mode=mode, home=app.home)
    if as_json:
        echo_json([h.to_dict() for h in hits])
        return
    if not hits:
        warn(f"no match for {text!r} among {stats.total} entries of agent {agent!r}")
        return
    for n, h in enumerate(hits, start=1):
        when = h.time[:16].replace("T", " ") if h.time else "-"
        click.echo(f"{n:>2}. [{h.kind}] {when}  {h.source}  (score {h.score:.4g})")
        click.echo(f"    {h.snippet}")
