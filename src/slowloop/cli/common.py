"""What every CLI module shares: the ``--agent`` and ``--json`` options, output, the app context.

The CLI is a thin adapter: each command parses arguments, calls one library function, prints the
result (text for people, JSON with ``--json``) on stdout and diagnostics on stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import click

from ..config import Config, load_config
from ..paths import DEFAULT_AGENT, ensure_home, home, validate_agent_name


@dataclass
class App:
    """Lazily opened configuration and store for one CLI invocation."""

    @cached_property
    def home(self) -> Path:
        return home()

    @cached_property
    def config(self) -> Config:
        return load_config(self.home)

    @cached_property
    def store(self):  # -> slowloop.store.Store
        from ..paths import LOST_HOME_HINT, lost_home
        from ..store import open_store

        gone = lost_home(self.home)
        if gone is not None:  # said before an empty home takes its place, never in silence
            click.echo(f"warning: the slowloop home {gone} is gone: {LOST_HOME_HINT}", err=True)
        ensure_home(self.home)
        return open_store(home=self.home)


def get_app() -> App:
    ctx = click.get_current_context()
    root = ctx.find_root()
    if root.obj is None:
        root.obj = App()
    return root.obj


def _validate_agent(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        return validate_agent_name(value)
    except Exception as exc:  # UserError → click's BadParameter names the option
        raise click.BadParameter(str(exc)) from None


def agent_option(fn: Callable) -> Callable:
    return click.option("--agent", "-a", default=DEFAULT_AGENT, show_default=True,
                        envvar="SLOWLOOP_AGENT", callback=_validate_agent,
                        help="The agent (one learning identity).")(fn)


def json_option(fn: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(fn)


def echo_json(data: Any, *, lines: bool = False) -> None:
    if lines:
        for item in data:
            click.echo(json.dumps(item, ensure_ascii=False, default=str))
    else:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def warn(message: str) -> None:
    click.echo(message, err=True)


def is_tty() -> bool:
    return sys.stderr.isatty()
