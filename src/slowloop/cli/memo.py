"""``slowloop memo show|add|replace|remove``."""

from __future__ import annotations

import click

from .common import agent_option, echo_json, get_app, json_option

SECTION = click.Choice(["strengths", "plays"])


def _memo(agent: str):
    from ..memo import Memo

    app = get_app()
    return Memo(agent, home=app.home, config=app.config, store=app.store)


@click.group()
def memo() -> None:
    """The self-understanding memo: strengths and pitfalls, and plays for this user and domain.

    \b
    Example:
      slowloop memo show
      slowloop memo add --section plays "When the user asks for a summary, give the conclusion first."
    """


@memo.command("show")
@click.option("--section", "-s", type=SECTION, help="Only this section.")
@agent_option
@json_option
def show(section: str | None, agent: str, as_json: bool) -> None:
    """Print the memo's entries, numbered (the numbers work with replace/remove), each rule with
    what taught it and what it changed since: relevant, followed, violated, corrected again.

    \b
    Example:
      slowloop memo show --section strengths --json
    """
    from ..memo import memo_view
    from ..rules import for_entries, rules_report
    from ..rules.report import describe

    m = _memo(agent)
    app = get_app()
    view = memo_view(m, [section] if section else None)
    views = rules_report(app.store, agent, app.home, app.config)
    data = view["sections"]
    for s, d in data.items():
        # each entry's rule (None: not a rule, a strength): its evidence and outcomes
        d["rules"] = for_entries(views, "memo", s, d["entries"])
    if as_json:
        echo_json(view)
        return
    click.echo(f"# {m.path}")
    for s, d in data.items():
        click.echo(f"\n## {d['heading']} ({s}: {d['chars']}/{d['cap']} chars)")
        for i, (e, v) in enumerate(zip(d["entries"], d["rules"], strict=True), start=1):
            click.echo(f"{i:3d}. {e}")
            for line in describe(v) if v else []:
                click.echo(f"       {line}")


@memo.command("add")
@click.option("--section", "-s", type=SECTION, required=True)
@click.argument("text")
@agent_option
@json_option
def add(section: str, text: str, agent: str, as_json: bool) -> None:
    """Add one entry (refused if the section would pass its cap).

    \b
    Example:
      slowloop memo add -s strengths "Pitfall: I tend to forget timezones in CSV exports; always convert to UTC first."
    """
    m = _memo(agent)
    m.add(section, text)
    _done(m, section, f"added to {section}", as_json)


@memo.command("replace")
@click.option("--section", "-s", type=SECTION, required=True)
@click.argument("match")
@click.argument("text")
@agent_option
@json_option
def replace(section: str, match: str, text: str, agent: str, as_json: bool) -> None:
    """Replace the entry MATCH (its number, or a unique part of its text) with TEXT.

    \b
    Example:
      slowloop memo replace -s plays 2 "When replying to finance questions, never exceed 5 bullets."
    """
    m = _memo(agent)
    m.replace(section, match, text)
    _done(m, section, f"replaced an entry in {section}", as_json)


@memo.command("remove")
@click.option("--section", "-s", type=SECTION, default=None,
              help="The section (needed only when MATCH could be in either).")
@click.argument("match")
@agent_option
@json_option
def remove(section: str | None, match: str, agent: str, as_json: bool) -> None:
    """Remove the entry MATCH (its number in `memo show`, or a unique part of its text).

    \b
    Example:
      slowloop memo remove "conclusion first"
      slowloop memo remove -s plays 3
    """
    m = _memo(agent)
    section = section or _section_of_match(m, match)
    m.remove(section, match)
    _done(m, section, f"removed an entry from {section}", as_json)


def _section_of_match(m, match: str) -> str:
    """The one section MATCH can name: a part of exactly one entry's text, or a number only one
    section has; otherwise the person is asked to say which."""
    from ..errors import UserError
    from ..memo import SECTIONS

    entries = {s: m.entries(s) for s in SECTIONS}
    if match.isdigit():
        where = [s for s in SECTIONS if 1 <= int(match) <= len(entries[s])]
    else:
        where = [s for s in SECTIONS if any(match.lower() in e.lower() for e in entries[s])]
    if len(where) == 1:
        return where[0]
    if not where:
        raise UserError(f"no memo entry matches {match!r}", hint="see `slowloop memo show` for the entries and their numbers")
    raise UserError(f"{match!r} could be in {' or '.join(where)}",
                    hint=f"say which: `slowloop memo remove --section {where[0]} {match}`")


def _done(m, section: str, message: str, as_json: bool) -> None:
    """What a write prints: a line for people, or the section as it now stands."""
    if as_json:
        echo_json({"path": str(m.path), "section": section, "entries": m.entries(section)})
    else:
        click.echo(message)
