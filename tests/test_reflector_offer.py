"""`slowloop hooks install` offers, once and only in a terminal, to reflect with the person's own
agent CLI, saying what is sent where and about how many tokens; elsewhere it stays offline and
says how to switch. Run as a person runs it: the real command, in a real pseudo-terminal."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
import tomllib
from pathlib import Path

SLOWLOOP = [sys.executable, "-m", "slowloop"]


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOWLOOP_")}
    env["SLOWLOOP_HOME"] = str(home)
    env["HOME"] = str(home.parent)
    return env


def _in_terminal(args: list[str], cwd: Path, env: dict[str, str], answers: list[tuple[str, str]],
                 timeout: float = 60) -> tuple[int, str]:
    """Run a command on a pseudo-terminal, answering each prompt (text it waits for → answer)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, with the terminal as stdin/stdout/stderr
        os.chdir(cwd)
        os.execve(args[0], args, env)
    out, pending, end = b"", list(answers), time.time() + timeout
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        if pending and pending[0][0].encode() in out:
            os.write(fd, (pending.pop(0)[1] + "\n").encode())
            out += b"\n"
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")


def _provider(home: Path) -> dict:
    path = home / "config.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")).get("provider", {}) if path.exists() else {}


def test_in_a_terminal_it_asks_once_says_what_is_sent_and_configures_the_model(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "proj"
    project.mkdir()
    code, out = _in_terminal(SLOWLOOP + ["hooks", "install", "claude-code", "--project"], project, _env(home),
                             [("Reflect with", "y"), ("Which model", "sonnet")])
    assert code == 0, out
    assert "Anthropic" in out and "tokens in" in out and "nothing leaves this machine" in out
    assert _provider(home) == {"kind": "command", "command": "claude -p --model sonnet"}
    # asked once: a second install in a terminal does not ask again
    code, out = _in_terminal(SLOWLOOP + ["hooks", "install", "claude-code", "--project"], project, _env(home), [],
                             timeout=30)
    assert code == 0 and "Reflect with" not in out, out


def test_declined_in_a_terminal_it_stays_offline_and_says_how_to_switch(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "proj"
    project.mkdir()
    code, out = _in_terminal(SLOWLOOP + ["hooks", "install", "codex", "--project"], project, _env(home),
                             [("Reflect with", "n")])
    assert code == 0, out
    assert "OpenAI" in out and "--reflect-with codex" in out
    assert _provider(home).get("kind", "offline") == "offline"


def test_without_a_terminal_it_never_asks_stays_offline_and_says_how(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "proj"
    project.mkdir()
    done = subprocess.run(SLOWLOOP + ["hooks", "install", "claude-code", "--project"], cwd=project,
                          env=_env(home), capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Reflect with" not in done.stderr + done.stdout
    assert "reflection stays offline" in done.stderr and "--reflect-with claude" in done.stderr
    assert _provider(home).get("kind", "offline") == "offline"
