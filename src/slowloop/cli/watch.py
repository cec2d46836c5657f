"""``slowloop watch``: observe new turns as agents write their transcripts."""

from __future__ import annotations

from pathlib import Path

import click

from .common import agent_option, echo_json, get_app, json_option, warn


@click.command()
@click.option("--path", "paths", multiple=True, type=click.Path(path_type=Path),
              help="A folder or file to follow (repeatable). Default: ~/.claude/projects and "
                   "$CODEX_HOME/sessions (~/.codex/sessions).")
@agent_option
@click.option("--interval", type=click.FloatRange(0.05, 3600), default=1.0, show_default=True,
              help="Seconds between two looks at the folders.")
@click.option("--once", is_flag=True, help="Read what is new once, then exit.")
@json_option
def watch(paths: tuple[Path, ...], agent: str, interval: float, once: bool, as_json: bool) -> None:
    """Follow transcript folders and observe each new turn as it is written.

    Only the new part of a file is read; rotated, truncated and half-written files are handled.
    Stops cleanly on SIGTERM or Ctrl-C.

    \b
    Example:
      slowloop watch --agent myproj
      slowloop watch --path ~/.codex/sessions --once --json
    """
    from ..errors import UserError
    from ..integrations.watch import default_folders, watch as run_watch

    app = get_app()
    folders = [p.expanduser() for p in paths] or default_folders()
    missing = [str(p) for p in paths if not p.expanduser().exists()]
    if missing:
        raise UserError(f"no such folder or file: {', '.join(missing)}", hint="check the --path values")
    existing = [p for p in folders if p.exists()]
    if not existing:
        raise UserError(f"none of the transcript folders exists: {', '.join(map(str, folders))}",
                        hint="give one with --path")
    if not as_json:
        warn(f"watching {', '.join(map(str, existing))} for agent {agent!r}"
             + ("" if once else " (Ctrl-C to stop)"))

    def say(res) -> None:
        if as_json:
            return
        line = f"{res.path}: {res.turns} turn(s), {res.new} new, {res.updated} updated"
        if res.reset:
            line += f" (read again from the start: {res.reset})"
        if res.skipped:
            line += f" (skipped: {res.skipped})"
        click.echo(line)
        for p in res.problems:
            warn(f"warning: {p} (line skipped)")

    stats = run_watch(existing, agent=agent, once=once, interval=interval, home=app.home, on_result=say)
    if as_json:
        echo_json({"polls": stats.polls, "files_read": stats.files_read, "turns": stats.turns,
                   "new": stats.new, "updated": stats.updated, "problems": stats.problems})
    else:
        warn(f"stopped: {stats.turns} turn(s) read ({stats.new} new, {stats.updated} updated)")
