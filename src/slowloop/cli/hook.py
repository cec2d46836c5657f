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
    from ..integrations.hooks_runtime import HARNESSES, run

    positional = [a for a in args if not a.startswith("-")]
    if not positional or positional[0] not in HARNESSES:
        # a person typing, not a harness: `slowloop hook install claude-code` is a typo of `hooks`
        from ..errors import UserError

        verb = positional[0] if positional else ""
        hint = (f"did you mean `slowloop hooks {' '.join(positional)}`?" if verb in ("install", "remove", "status", "sync",
                                                                                  "uninstall")
                else "`slowloop hooks install claude-code|codex` installs the hooks; `slowloop hook HARNESS EVENT` "
                     "runs one by hand")
        raise UserError(f"`slowloop hook` runs one hook: HARNESS EVENT, and {verb or 'nothing'!r} is no harness "
                        f"(known: {', '.join(HARNESSES)})", hint=hint)
    sys.exit(run(list(args)))
