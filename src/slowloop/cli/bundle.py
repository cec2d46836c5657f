"""``slowloop bundle``: print exactly what a reflection model would read about an agent."""

from __future__ import annotations

import click

from .common import agent_option, echo_json, get_app, json_option, warn


@click.command()
@agent_option
@click.option("--prompt", "full_prompt", is_flag=True,
              help="Print the whole prompt as a model receives it: instructions, memo, skill "
                   "index with metrics, then the bundle.")
@json_option
def bundle(agent: str, full_prompt: bool, as_json: bool) -> None:
    """Print the reflection bundle for an agent: exactly the text the model would get.

    Recent conversations with something new since the last reflection, with their signals,
    errors (transient ones labelled as the environment's), user edits and skill metrics, under
    the token budget, secrets redacted. Nothing is sent anywhere and nothing is written.
    --json gives the text with its token count, turn ids, watermark and counts.

    \b
    Example:
      slowloop bundle --agent my-assistant | less
      slowloop bundle --json | jq '{tokens, redactions, truncated}'
      slowloop bundle --prompt > what-the-model-reads.md
    """
    from ..reflect.bundle import build_bundle

    app = get_app()
    b = build_bundle(app.store, agent, app.config)
    if full_prompt:
        from ..memo import Memo
        from ..reflect.cycle import reflection_prompt
        from ..skills import SkillLibrary

        p = reflection_prompt(SkillLibrary(agent, home=app.home, store=app.store, config=app.config),
                              Memo(agent, home=app.home, config=app.config), app.store, agent, b.text)
        if as_json:
            echo_json({"system": p.system, "user": p.user, "schema": p.schema, "bundle": b.to_dict()})
            return
        click.echo(f"=== system ===\n{p.system}\n=== user ===\n{p.user}")
        return
    if as_json:
        echo_json(b.to_dict())
        return
    click.echo(b.text, nl=False)
    warn(f"[{b.tokens} tokens of {app.config.bundle.token_budget}, "
         f"{len(b.turn_ids)} turns, {b.events} events, {b.redactions} secrets redacted"
         f"{', shortened to fit' if b.truncated else ''}]")
