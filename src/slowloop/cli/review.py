"""``slowloop review``: what a reflection proposed but may not apply without the person."""

from __future__ import annotations

import click

from ..errors import UserError
from .common import agent_option, echo_json, get_app, json_option


@click.group(invoke_without_command=True)
@click.pass_context
def review(ctx: click.Context) -> None:
    """Proposals waiting for your approval: corrections no rule could be learned from (a wording
    to accept, edit or decline), rules learned from your words that fall in a danger class, and
    changes over text a person wrote.

    \b
    Example:
      slowloop review list
      slowloop review approve 3
      slowloop review decline 4
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(list_cmd)


@review.command("list")
@click.option("--all", "include_decided", is_flag=True, help="Include approved and declined ones.")
@agent_option
@json_option
def list_cmd(include_decided: bool = False, agent: str = "default", as_json: bool = False) -> None:
    """List the proposals waiting for a decision (every one with --all).

    \b
    Example:
      slowloop review list --json
    """
    from ..reflect.review import proposals

    rows = proposals(get_app().store, agent, include_decided=include_decided)
    if as_json:
        echo_json([p.to_dict() for p in rows])
        return
    if not rows:
        click.echo("nothing waits for approval")
    for p in rows:
        refl = f" R{p.reflection_id}" if p.reflection_id else ""
        click.echo(f"P{p.id}{refl} {p.at} [{p.status}] {p.summary()}\n    waits because: {p.reason}")


def _id(value: str) -> int:
    text = value[1:] if value[:1] in "Pp" else value
    if not text.isdigit():
        raise UserError(f"{value!r} is not a proposal id", hint="give a number from `slowloop review list`")
    return int(text)


@review.command()
@click.argument("proposal")
@click.option("--text", default=None, metavar="RULE",
              help="Your own wording for the rule it adds (a correction waiting for a wording).")
@agent_option
def approve(proposal: str, agent: str, text: str | None = None) -> None:
    """Apply one proposal now, against the files as they are (undo with `slowloop history undo`).

    \b
    Example:
      slowloop review approve 3
      slowloop review approve 5 --text "When writing tests, never comment out an assertion."
    """
    from ..reflect.review import approve as _approve

    app = get_app()
    p = _approve(agent, _id(proposal), home=app.home, store=app.store, text=text)
    click.echo(f"approved P{p.id}: {p.outcome}")


@review.command()
@click.argument("proposal")
@agent_option
def decline(proposal: str, agent: str) -> None:
    """Drop one proposal; it stays in the ledger as declined.

    \b
    Example:
      slowloop review decline 4
    """
    from ..reflect.review import decline as _decline

    app = get_app()
    p = _decline(agent, _id(proposal), home=app.home, store=app.store)
    click.echo(f"declined P{p.id}")
