"""``slowloop hook HARNESS EVENT``: the hook runtime by hand (the installed hooks skip click and
run ``python -m slowloop.integrations.hooks_runtime`` directly, to start faster)."""

from __future__ import annotations

import sys

import click


@click.command(hidden=True, context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def hook(args: tuple[str, ...]) -> None:
    """Run one hook as the harness would: JSON on stdin, the payload on stdout, always exit 0.

    \b
    Example:
      echo '{"source": "startup"}' | slowloop hook claude-code SessionStart --agent default
    """
    from ..integrations.hooks_runtime import run

    sys.exit(run(list(args)))
