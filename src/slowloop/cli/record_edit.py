"""``slowloop record-edit``: the user changed the result of a skill-assisted answer."""

from __future__ import annotations

import click

from .common import agent_option, echo_json, get_app, json_option


@click.command("record-edit")
@click.option("--skill", "-s", help="The skill whose result was edited (default: the skills read "
                                    "in the agent's most recent turn).")
@click.option("--note", "-n", default="", help="What was changed, for the reflector.")
@agent_option
@json_option
def record_edit(skill: str | None, note: str, agent: str, as_json: bool) -> None:
    """Record that the user edited the result after a skill was used (edit-after-use rate).

    \b
    Example:
      slowloop record-edit --skill weekly-report-export --note "user rewrote the summary table"
    """
    from ..skills import SkillLibrary

    app = get_app()
    names = SkillLibrary(agent, home=app.home, store=app.store, config=app.config).record_edit(skill, note)
    if as_json:
        echo_json({"skills": names})
    else:
        click.echo("recorded an edit after use of " + ", ".join(names))
