"""Docs that cannot drift: every command has help with an example; reading commands speak JSON;
the README's Quickstart has exactly two commands and CI runs its test command."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from slowloop.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[1]


def _walk(cmd: click.Command, path: tuple[str, ...] = ()):
    yield path, cmd
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd)
        for name in cmd.list_commands(ctx):
            yield from _walk(cmd.get_command(ctx, name), path + (name,))


ALL = [(" ".join(p), c) for p, c in _walk(cli) if p]


@pytest.mark.parametrize("name,cmd", ALL, ids=[n for n, _ in ALL])
def test_every_command_has_help_with_an_example(name, cmd):
    r = CliRunner().invoke(cli, [*name.split(), "--help"])
    assert r.exit_code == 0, r.output
    assert "Example" in r.output, f"`slowloop {name} --help` has no Example"
    assert (cmd.help or "").strip(), f"`slowloop {name}` has no help text"


READING = {"agents", "config show", "explain", "schedule", "bundle", "search", "skills list",
           "skills stats", "memory status", "memory debt list", "history", "doctor", "lint",
           "index status", "review list"}


@pytest.mark.parametrize("name", sorted(READING))
def test_reading_commands_take_json(name):
    known = {n for n, _ in ALL}
    if name not in known:
        pytest.fail(f"`slowloop {name}` is missing")
    r = CliRunner().invoke(cli, [*name.split(), "--help"])
    assert "--json" in r.output


# Commands that change something; `hooks` has its own (it writes files outside the home).
WRITING = {"ctx new", "index add", "index remove", "index rebuild", "ingest", "memo add",
           "memo replace", "memo remove", "memory archive", "memory debt add", "memory debt update",
           "memory init", "memory note", "memory state set", "record-edit", "reflect",
           "skills new", "skills patch", "skills retire", "skills restore", "history undo"}


@pytest.mark.parametrize("name", sorted(WRITING))
def test_writing_commands_take_json(name):
    known = {n for n, _ in ALL}
    assert name in known, f"`slowloop {name}` is missing"
    r = CliRunner().invoke(cli, [*name.split(), "--help"])
    assert "--json" in r.output


def test_commands_are_noun_verb_and_old_spellings_still_work():
    from slowloop.cli import ALIASES

    top = set(cli.list_commands(click.Context(cli)))
    assert not set(ALIASES) & top  # help teaches one spelling
    ctx = click.Context(cli)
    for alias, (noun, verb) in ALIASES.items():
        assert cli.get_command(ctx, alias) is cli.get_command(ctx, noun).get_command(ctx, verb)
    r = CliRunner().invoke(cli, ["undo", "--help"])
    assert r.exit_code == 0 and "history undo" in r.output
    r = CliRunner().invoke(cli, ["reindex", "--help"])
    assert r.exit_code == 0 and "index rebuild" in r.output


def test_unknown_command_and_bad_option_fail_clearly():
    r = CliRunner().invoke(cli, ["frobnicate"])
    assert r.exit_code == 2 and "No such command" in r.output
    r = CliRunner().invoke(cli, ["agents", "--agent", "../x"])
    assert r.exit_code == 2


def test_every_registered_module_imports():
    for name in COMMANDS:
        assert cli.get_command(click.Context(cli), name) is not None


def test_readme_quickstart_has_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    m = re.search(r"^## Quickstart\n(.*?)(?=^## |\Z)", readme, re.S | re.M)
    assert m, "README has no Quickstart section"
    blocks = re.findall(r"```bash\n(.*?)```", m.group(1), re.S)
    commands = [line for b in blocks for line in b.strip().splitlines() if line.strip()]
    assert len(commands) == 2, commands
    assert "slowloop demo" in commands[0]
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci
