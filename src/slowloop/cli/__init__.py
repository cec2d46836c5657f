"""``slowloop <noun> <verb>``: a lazy command group so a hook that runs one command imports only it.

Each command lives in its own module and is listed in ``COMMANDS``; errors from the library become
one line on stderr (plus a hint) and an exit code that says who is at fault.
"""

from __future__ import annotations

import importlib
import sqlite3
import sys
from typing import ClassVar

import click

from ..errors import SlowloopError

# name -> "module:attribute" (relative to slowloop.cli)
COMMANDS: dict[str, str] = {
    "lint": "lint:lint",
    "agents": "agents:agents",
    "bundle": "bundle:bundle",
    "config": "config_cmd:config",
    "ctx": "ctx:ctx",
    "memory": "memory:memory",
    "search": "search:search",
    "index": "index:index",
    "daemon": "reflect:daemon",
    "demo": "demo:demo",
    "explain": "explain:explain",
    "ingest": "ingest:ingest",
    "reflect": "reflect:reflect",
    "schedule": "schedule:schedule",
    "status": "status:status",
    "sync": "sync:sync",
    "ledger": "ledger:ledger",
    "skills": "skills:skills",
    "memo": "memo:memo",
    "prompt": "prompt:prompt",
    "history": "history:history",
    "review": "review:review",
    "doctor": "doctor:doctor",
    "record-edit": "record_edit:record_edit",
    "hooks": "hooks:hooks",
    "hook": "hook:hook",
    "watch": "watch:watch",
    "mcp": "mcp:mcp",
    "ui": "ui:ui",
}


# Older spellings that still work: each is a path to a ``<noun> <verb>`` command. They are not
# listed in ``slowloop --help``, so the help teaches one spelling.
ALIASES: dict[str, tuple[str, str]] = {
    "reindex": ("index", "rebuild"),
    "undo": ("history", "undo"),
}


class Failure(click.ClickException):
    """A library error on its way out: one line on stderr (plus the hint), a meaningful exit code.

    Click declares ``exit_code`` a class variable, so each exit code has its own subclass:
    raise ``Failure.of(exc)``."""

    _by_code: ClassVar[dict[int, type[Failure]]] = {}

    @classmethod
    def of(cls, exc: SlowloopError) -> Failure:
        code = exc.exit_code
        sub = cls._by_code.get(code)
        if sub is None:
            sub = cls._by_code[code] = type(f"Failure{code}", (cls,), {"exit_code": code})
        return sub(str(exc))

    def show(self, file=None) -> None:  # noqa: ARG002 - click's signature
        click.echo(f"error: {self.message}", err=True)


class LazyGroup(click.Group):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except SlowloopError as exc:
            raise Failure.of(exc) from exc
        except sqlite3.DatabaseError as exc:  # a page damaged after the ledger was opened
            if isinstance(exc, sqlite3.OperationalError):
                raise  # locked, read-only, disk full: not damage
            from ..errors import DataError

            raise Failure.of(DataError(f"the ledger is damaged: {exc}",
                                    hint="run `slowloop doctor` for how to recover")) from exc

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in ALIASES:
            noun, verb = ALIASES[name]
            group = self.get_command(ctx, noun)
            assert isinstance(group, click.Group)
            return group.get_command(ctx, verb)
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(f"{__name__}.{module}"), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="slowloop")
def cli() -> None:
    """slowloop: a slow learning loop for your AI agent.

    It observes your agent's turns at no model cost, reflects on the ones worth learning from, and
    writes skills, a self-understanding memo and a living memory as Markdown the agent reads at the
    start of its next conversation. Everything stays in SLOWLOOP_HOME on this machine.

    \b
    Example:
      slowloop demo
      slowloop explain ~/.claude/projects/*/*.jsonl
    """


def main(argv: list[str] | None = None) -> None:
    try:
        rv = cli.main(args=argv, prog_name="slowloop", standalone_mode=False)
        if isinstance(rv, int) and rv:  # ctx.exit(n) comes back as a return value here
            sys.exit(rv)
    except SlowloopError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:
        # The environment refused (permissions, a full disk, a folder where a file should be):
        # say which path and why in one line, with the exit code for environment failures.
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"error: {where}{exc.strerror or exc}", err=True)
        sys.exit(5)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)


__all__ = ["cli", "main", "COMMANDS", "ALIASES"]
