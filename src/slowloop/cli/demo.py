"""``slowloop demo``."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--home", type=click.Path(path_type=Path), default=None,
              help="Run in this folder instead of a new temporary one.")
def demo(home: Path | None) -> None:
    """Run the whole loop on bundled example transcripts, offline, in a throw-away home:
    observe → score → reflect → skills and memo → the next session's bootstrap.

    No API key, no network, nothing outside the temporary folder is touched.

    \b
    Example:
      slowloop demo
      slowloop demo --home /tmp/sl-demo && SLOWLOOP_HOME=/tmp/sl-demo slowloop skills list --agent demo
    """
    from ..demo import run_demo

    run_demo(home, out=click.echo)
