"""``slowloop prompt``: the session bootstrap."""

from __future__ import annotations

from pathlib import Path

import click

from .common import agent_option, echo_json, get_app, json_option


@click.command()
@click.option("--task", "-t", help="The task at hand: skills are ranked by relevance to it.")
@click.option("--context", "-c", help="A named context to include (see `slowloop ctx list`).")
@click.option("--no-impressions", is_flag=True, help="Do not count this as showing the skills.")
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="A project folder: its own memory and contexts are included (default: the project "
                   "installed around the working directory, if any).")
@agent_option
@json_option
def prompt(task: str | None, context: str | None, no_impressions: bool, directory: Path | None, agent: str,
           as_json: bool) -> None:
    """Print what the agent should read at the start of its next conversation.

    The memo, the skill index (within bootstrap.index_tokens), how to read a skill, the
    operational memory root and, with --context, a named context. Each skill listed counts as
    one impression.

    \b
    Example:
      slowloop prompt --task "export the weekly report as CSV"
      slowloop prompt --dir ~/code/shop --context release
    """
    from ..bootstrap import build_bootstrap
    from ..places.targets import project_around

    app = get_app()
    project = directory if directory is not None else project_around(app.home)
    b = build_bootstrap(agent, task=task, home=app.home, record_impressions=not no_impressions,
                        context=context, config=app.config, store=app.store, project=project)
    if as_json:
        echo_json({"text": b.text, "skills_shown": b.skills_shown, "tokens": b.tokens})
    else:
        click.echo(b.text, nl=False)
