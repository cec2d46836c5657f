"""``slowloop ctx …``: named, loadable instruction sets (one folder with a CONTEXT.md each)."""

from __future__ import annotations

from pathlib import Path

import click

from .common import agent_option, echo_json, get_app, json_option
from .memory import dir_option


def open_contexts(agent: str, directory: Path | None):
    from ..memory import Contexts

    if directory is not None:
        return Contexts.for_dir(directory)
    return Contexts.for_agent(agent, home=get_app().home)


@click.group()
def ctx() -> None:
    """Contexts: how to work in a domain (rules, layout, critical paths), loaded on demand.

    A context gives the frame; the memory (`slowloop memory`) gives the continuity. Each context is
    a folder with a CONTEXT.md, in the agent's directory or in DIR/contexts with --dir.

    \b
    Example:
      slowloop ctx new blog-writer --description "Plan, write, then stop for review"
      slowloop ctx show blog-writer
    """


@ctx.command("list")
@agent_option
@dir_option
@json_option
def list_cmd(agent: str, directory: Path | None, as_json: bool) -> None:
    """List the contexts with their descriptions and sizes.

    \b
    Example:
      slowloop ctx list --json
    """
    items = open_contexts(agent, directory).list()
    if as_json:
        echo_json([{k: v for k, v in c.to_json().items() if k != "body"} for c in items])
        return
    for c in items:
        click.echo(f"{c.name:<24} ~{c.tokens:>5} tokens  {c.description}")
    if not items:
        click.echo("no contexts yet (create one with `slowloop ctx new NAME`)", err=True)


@ctx.command("show")
@agent_option
@dir_option
@click.argument("name")
@click.option("--budget", type=click.IntRange(min=1), default=None,
              help="Cut to this many tokens, as the bootstrap does.")
@json_option
def show_cmd(agent: str, directory: Path | None, name: str, budget: int | None, as_json: bool) -> None:
    """Print a context as the session bootstrap loads it.

    \b
    Example:
      slowloop ctx show blog-writer --budget 1500
    """
    from ..memory import context_text

    c = open_contexts(agent, directory).get(name)
    text = context_text(name, budget or 1_000_000, agent=agent, home=get_app().home, directory=directory)
    if as_json:
        echo_json({**c.to_json(), "text": text})
    else:
        click.echo(text, nl=False)


@ctx.command("new")
@agent_option
@dir_option
@click.argument("name")
@click.option("--description", default="", help="What the context is for and when to load it.")
@json_option
def new_cmd(agent: str, directory: Path | None, name: str, description: str,
            as_json: bool) -> None:
    """Create contexts/NAME/CONTEXT.md with a frontmatter and the usual sections, ready to edit.

    \b
    Example:
      slowloop ctx new crisp --description "Research and design only: no implementation"
    """
    c = open_contexts(agent, directory).new(name, description)
    if as_json:
        echo_json({"created": name, "path": str(c.path)})
        return
    click.echo(str(c.path))
