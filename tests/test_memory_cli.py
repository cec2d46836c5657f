"""``slowloop memory`` from the command line: CliRunner for the flow, a real subprocess for exit codes,
and every command of docs/memory.md run in order."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from slowloop.cli import cli

DOCS = Path(__file__).resolve().parents[1] / "docs" / "memory.md"


def run(*args: str, code: int = 0) -> str:
    res = CliRunner().invoke(cli, list(args))
    assert res.exit_code == code, f"{args}: exit {res.exit_code}\n{res.output}"
    return res.stdout


def test_the_agent_memory_flow(slowloop_home: Path) -> None:
    assert "created system-state.md" in run("memory", "init", "--agent", "coder")
    root = slowloop_home / "agents" / "coder" / "memory"
    assert (root / "debts.md").exists()
    run("memory", "state", "set", "--agent", "coder", "CI", "arm64", "runners")
    assert "D-0001 [open] cache key ignores the arch" in run(
        "memory", "debt", "add", "--agent", "coder", "cache", "key", "ignores", "the", "arch")
    note = json.loads(run("memory", "note", "--agent", "coder", "--json", "decided to pin the key"))
    assert note["text"] == "decided to pin the key" and note["archived"] is None
    run("memory", "debt", "update", "--agent", "coder", "D-0001", "--status", "deferred", "--note", "after v1")
    debts = json.loads(run("memory", "debt", "list", "--agent", "coder", "--json"))
    assert debts[0]["id"] == "D-0001" and debts[0]["status"] == "deferred" and debts[0]["notes"] == ["after v1"]
    st = json.loads(run("memory", "status", "--agent", "coder", "--json"))
    assert st["cycle"] == 1 and st["open_debts"] == ["D-0001"] and st["files"]["chronicle.md"]["caps"]["lines"] == 400
    shown = run("memory", "show", "--agent", "coder")
    assert "arm64 runners" in shown and "D-0001 [deferred]" in shown and "decided to pin the key" in shown
    assert json.loads(run("memory", "show", "--agent", "coder", "--json", "--budget", "50"))["tokens"] <= 50
    state = json.loads(run("memory", "state", "show", "--agent", "coder", "--json"))
    assert state == [{"section": "CI", "text": "arm64 runners", "line": 3}]
    # the other agent's memory is another folder
    assert "no memory" in run("memory", "status", "--agent", "writer")


def test_thresholds_come_from_the_config(slowloop_home: Path, monkeypatch) -> None:
    monkeypatch.setenv("SLOWLOOP_MEMORY__CHRONICLE_MAX_LINES", "9")
    run("memory", "init")
    outs = [CliRunner().invoke(cli, ["memory", "note", f"n{i}"]) for i in range(4)]
    assert any("archived into past/0001-" in r.output for r in outs)
    assert json.loads(run("memory", "status", "--json"))["cycle"] == 2


def test_check_exits_1_on_violations_and_0_when_clean(tmp_path: Path) -> None:
    d = str(tmp_path)
    run("memory", "init", "--dir", d)
    run("memory", "note", "--dir", d, "TODO: rotate the signing keys")
    out = json.loads(run("memory", "check", "--dir", d, "--json", code=1))
    assert out[0]["rule"] == "open-item-in-chronicle" and out[0]["line"] == 6
    run("memory", "debt", "add", "--dir", d, "rotate the signing keys")
    assert "memory roles are clean" in run("memory", "check", "--dir", d)


def test_errors_go_to_stderr_with_exit_codes_that_say_who_is_at_fault(tmp_path: Path) -> None:
    env = dict(os.environ)

    def slowloop(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                              env=env, timeout=60)

    d = str(tmp_path)
    p = slowloop("memory", "note", "--dir", d, "hello")
    assert p.returncode == 2 and "no memory at" in p.stderr and "slowloop memory init" in p.stderr
    assert slowloop("memory", "init", "--dir", d).returncode == 0
    p = slowloop("memory", "debt", "update", "--dir", d, "D-0042", "--status", "closed")
    assert p.returncode == 2 and "no debt D-0042" in p.stderr and p.stdout == ""
    p = slowloop("memory", "debt", "update", "--dir", d, "D-0001", "--status", "done")
    assert p.returncode == 2 and "'done'" in p.stderr  # click names the valid choices
    debts = tmp_path / "memory" / "debts.md"
    debts.write_text(debts.read_text() + "- D-0001 [opne] typo in the status\n")
    p = slowloop("memory", "debt", "list", "--dir", d)
    assert p.returncode == 3
    assert f"{debts}:2: debt D-0001 has status 'opne'" in p.stderr
    p = slowloop("memory", "check", "--dir", d)
    assert p.returncode == 1 and "[malformed]" in p.stdout and "debts.md:2:" in p.stdout
    p = slowloop("memory", "archive", "--dir", d, "--force")
    assert p.returncode == 3 and "opne" in p.stderr  # a broken register is never archived


def test_every_memory_command_has_help_with_an_example() -> None:
    from slowloop.cli.ctx import ctx
    from slowloop.cli.memory import memory

    def walk(group, prefix):
        for name, cmd in group.commands.items():
            yield f"{prefix} {name}", cmd
            if hasattr(cmd, "commands"):
                yield from walk(cmd, f"{prefix} {name}")

    for path, cmd in [("memory", memory), ("ctx", ctx), *walk(memory, "memory"), *walk(ctx, "ctx")]:
        assert cmd.help and "Example:" in cmd.help, path


def docs_commands() -> list[str]:
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", text, re.DOTALL)
    return [line[2:] for b in blocks for line in b.splitlines() if line.startswith("$ ")]


def test_docs_memory_md_commands_run(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    commands = docs_commands()
    assert len(commands) >= 15
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] == "slowloop"
        run(*argv[1:])
    assert (tmp_path / "memory" / "past").is_dir() and (tmp_path / "contexts" / "blog-writer" / "CONTEXT.md").exists()
    layer = next((tmp_path / "memory" / "past").iterdir())
    assert layer.name.endswith("-arm64-ci") and "D-0001 [closed]" in (layer / "debts.md").read_text()


def test_archive_summarises_with_the_configured_command_provider(tmp_path: Path, monkeypatch) -> None:
    # A real local "model": a script that reads the prompt on stdin and answers on stdout.
    model = tmp_path / "model.py"
    model.write_text("import sys\nprompt = sys.stdin.read()\n"
                     "print('- Cycle 1: arm64 CI (the model read %d chars)' % len(prompt))\n")
    monkeypatch.setenv("SLOWLOOP_PROVIDER__KIND", "command")
    monkeypatch.setenv("SLOWLOOP_PROVIDER__COMMAND", f"{sys.executable} {model}")
    d = str(tmp_path)
    run("memory", "init", "--dir", d)
    run("memory", "note", "--dir", d, "We moved CI to arm64 because x86 queued.")
    out = json.loads(run("memory", "archive", "--dir", d, "--force", "--json"))
    assert out["summary_by"] == "model"
    assert "- Cycle 1: arm64 CI (the model read" in (tmp_path / "memory" / "past-summary.md").read_text()
    run("memory", "note", "--dir", d, "We decided to keep x86 for releases because of signing.")
    out = json.loads(run("memory", "archive", "--dir", d, "--force", "--no-model", "--json"))
    assert out["summary_by"] == "extractive"
    assert "keep x86 for releases" in (tmp_path / "memory" / "past-summary.md").read_text()
