"""``slowloop ingest``: record the turns of transcript files or folders."""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

import click

from ..ingest import expand_paths, ingest_paths
from ..paths import layout
from .common import agent_option, echo_json, get_app, json_option, warn

PROGRESS_MIN_BYTES = 5 * 1024 * 1024


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--no-reflect", is_flag=True,
              help="Record only: start no reflection, even when the turns make the agent due.")
@agent_option
@json_option
def ingest(paths: tuple[Path, ...], agent: str, as_json: bool, no_reflect: bool = False) -> None:
    """Observe and record every turn of the given transcripts for an agent.

    Incremental: a turn already recorded is not recorded again; a turn that grew since is updated.
    Malformed lines are reported with file and line and skipped; nothing recorded is lost. Exits 3
    when none of the files given is a transcript. A large input (16 MB or more) is read by worker
    processes, one per core (SLOWLOOP_INGEST__WORKERS=1: none); past 300 new turns the search
    index catches up in the background. Then, as after any recorded turns, a reflection starts by
    itself when the agent is due ([reflect] auto; --no-reflect: not this time).

    \b
    Example:
      slowloop ingest ~/.claude/projects/myproj --agent myproj
      slowloop ingest ~/.codex/sessions/2026/11/29/*.jsonl
    """
    app = get_app()
    files = expand_paths(paths)
    for p in paths:  # a folder with nothing to read is most likely the wrong folder: say so
        if p.expanduser().is_dir() and not any(p.expanduser().resolve() in f.parents for f in files):
            warn(f"note: {p} holds no .jsonl or .json files (nothing to observe there)")
    total = sum(f.stat().st_size for f in files)
    weakness = _weakness(agent, app)
    show_bar = total >= PROGRESS_MIN_BYTES and not as_json
    progress: AbstractContextManager[_Bar] = (
        click.progressbar(length=total, label="observing", file=sys.stderr,
                          show_pos=False, show_percent=True) if show_bar else _NoBar())
    with progress as bar:
        summary = ingest_paths(files, agent=agent, store=app.store, cfg=app.config, weakness=weakness,
                               on_file=lambda _p, size: bar.update(size))
    from ..integrations.recorded import turns_recorded

    after = turns_recorded(app.home, agent, app.store, app.config, changed=summary.new + summary.updated,
                           why="slowloop ingest", reflect=not no_reflect)
    indexing = {"state": after.index if after.index != "unchanged" else "current", "pid": after.index_pid}
    for note in after.notes:
        warn(f"note: {note}")
    for problem in summary.problems:
        warn(f"warning: {problem} (line skipped)")
    for skipped in summary.skipped_files:
        warn(f"skipped: {skipped}")
    if as_json:
        echo_json({**summary.to_dict(), "search_index": indexing, "reflection_pid": after.reflection_pid})
    else:
        read = summary.files - len(summary.skipped_files)
        skipped = (f" read, {len(summary.skipped_files)} skipped (not transcripts)"
                   if summary.skipped_files else "")
        click.echo(f"{read} file(s){skipped}, {summary.turns} turn(s): {summary.new} new, "
                   f"{summary.updated} updated, {summary.unchanged} already recorded; "
                   f"{summary.reflect_worthy} worth reflecting on; "
                   f"{len(summary.problems)} malformed line(s) skipped (agent {agent!r}).")
        if indexing["pid"]:
            click.echo(f"Indexing the new turns for search in the background (pid {indexing['pid']}, "
                       f"log {app.home / 'logs' / 'recall.log'}); `slowloop search` waits for it.")
        if after.reflection_pid:
            click.echo(f"The agent is due: reflecting in the background (pid {after.reflection_pid}); "
                       "`slowloop status` shows what it learned.")
    if summary.files and len(summary.skipped_files) == summary.files:
        # nothing given could be read: the input was wrong, and a script should know it
        click.get_current_context().exit(3)


class _Bar(Protocol):
    def update(self, n: int, /) -> None: ...


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        pass


def _weakness(agent: str, app):
    if not layout(agent, app.home).memo.exists():
        return None
    from ..ingest import default_weakness

    return default_weakness(agent, home=app.home)
