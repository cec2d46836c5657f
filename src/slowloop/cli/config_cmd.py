"""``slowloop config show``."""

from __future__ import annotations

import click

from ..config import render_toml, shown_value
from .common import echo_json, get_app, json_option


@click.group()
def config() -> None:
    """Read the effective configuration (config.toml in the home + SLOWLOOP_* overrides).

    \b
    Example:
      SLOWLOOP_SIGNALS__THRESHOLD=0.8 slowloop config show
    """


@config.command("show")
@json_option
def show(as_json: bool) -> None:
    """Print every setting with its effective value and where it came from.

    \b
    Example:
      slowloop config show --json
    """
    app = get_app()
    cfg = app.config
    if as_json:
        echo_json([{"section": s.section, "key": s.key,
                    "value": shown_value(s.section, s.key, s.value), "source": s.source}
                   for s in cfg.settings()])
        return
    click.echo(f"# {cfg.path}{'' if cfg.path and cfg.path.exists() else ' (not present; defaults)'}")
    click.echo(render_toml(cfg))


@config.command("path")
def path() -> None:
    """Print the path of the configuration file.

    \b
    Example:
      $EDITOR "$(slowloop config path)"
    """
    click.echo(str(get_app().config.path))
