"""``slowloop history [list|undo]`` (``slowloop undo`` is an alias of ``history undo``)."""

from __future__ import annotations

import difflib

import click

from .common import agent_option, echo_json, get_app, json_option


def _notice_all(agent: str) -> None:
    """Record the person edits made by hand before showing anything."""
    from ..reflect.overview import notice_all

    app = get_app()
    notice_all(agent, home=app.home, store=app.store, config=app.config)


def _summary(before: str | None, after: str | None, op: str = "", change_id: int = 0) -> str:
    if before is None:
        return "created"
    if after is None:
        if op == "delete":  # a person removed the file by hand: no archived copy exists
            return (f"deleted by hand (the text is kept here: `slowloop history undo {change_id}` "
                    "restores it)")
        return "archived"
    diff = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
    changed = [d for d in diff if d[:1] in "+-" and not d.startswith(("+++", "---"))]
    return f"{len(changed)} line(s) changed"


_LIST_OPTIONS = [
    click.option("--limit", "-n", default=30, show_default=True, help="How many changes."),
    click.option("--all", "include_touches", is_flag=True, help="Include lastUsedAt write-backs."),
    click.option("--diff", "show_diff", is_flag=True, help="Show each change as a unified diff."),
    agent_option,
    json_option,
]


def _list_options(fn):
    for option in reversed(_LIST_OPTIONS):
        fn = option(fn)
    return fn


@click.group(invoke_without_command=True)
@_list_options
@click.pass_context
def history(ctx: click.Context, limit: int, include_touches: bool, show_diff: bool, agent: str,
            as_json: bool) -> None:
    """Every change to skills and the memo, by slowloop or by a person, newest first.

    Without a subcommand: the same as `history list`.

    \b
    Example:
      slowloop history --limit 10
      slowloop history undo 42
    """
    if ctx.invoked_subcommand is None:
        _show(limit, include_touches, show_diff, agent, as_json)


@history.command("list")
@_list_options
def list_changes(limit: int, include_touches: bool, show_diff: bool, agent: str,
                 as_json: bool) -> None:
    """List the changes to skills and the memo, newest first.

    \b
    Example:
      slowloop history list --limit 10 --diff
    """
    _show(limit, include_touches, show_diff, agent, as_json)


def _show(limit: int, include_touches: bool, show_diff: bool, agent: str, as_json: bool) -> None:
    from ..history import history as _history

    _notice_all(agent)
    rows = _history(get_app().store, agent, limit=limit, include_touches=include_touches)
    if as_json:
        echo_json([r.to_dict() for r in rows])
        return
    if not rows:
        click.echo("no changes yet")
    for r in rows:
        refl = f" R{r.reflection_id}" if r.reflection_id else ""
        undone = f" [undone by {r.undone_by}]" if r.undone_by else ""
        click.echo(f"{r.id:5d}  {r.at}  {r.actor:10s}{refl} {r.op:8s} {r.kind} {r.target}: "
                   f"{_summary(r.before, r.after, r.op, r.id)}{undone}" + (f" — {r.note}" if r.note else ""))
        if show_diff:
            for line in difflib.unified_diff((r.before or "").splitlines(), (r.after or "").splitlines(),
                                             "before", "after", lineterm=""):
                click.echo("       " + line)


@history.command("undo")
@click.argument("change")
@agent_option
@json_option
def undo(change: str, agent: str, as_json: bool) -> None:
    """Restore the state before one change (CHANGE_ID) or one whole reflection (R<id>).

    Refuses, without writing, when the file was changed again since (by a person or a later change).
    (`slowloop undo` is the same command.)

    \b
    Example:
      slowloop history undo 42
      slowloop history undo R7 --json
    """
    from ..reflect.overview import undo as _undo

    app = get_app()
    ids, warnings = _undo(agent, change, home=app.home, store=app.store, config=app.config)
    for line in warnings:
        click.echo(f"warning: {line}", err=True)
    whole = change[:1] in "Rr"
    if as_json:
        echo_json({"undone": change.upper() if whole else int(change), "changes": ids})
    elif whole:
        click.echo(f"undid reflection {change.upper()}: {len(ids)} file(s) restored "
                   f"(changes {', '.join(map(str, ids))})")
    else:
        click.echo(f"undid change {change} (recorded as change {ids[0]})")
