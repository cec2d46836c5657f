"""The command provider with real subprocesses: small Python scripts play the user's CLI."""

from __future__ import annotations

import json
import os
import shlex
import sys
import textwrap
import time
from pathlib import Path

import pytest

from slowloop.config import load_config
from slowloop.errors import ProviderError, UserError
from slowloop.providers import CommandProvider, get_provider

SCHEMA = {"type": "object", "properties": {"actions": {"type": "array"}}, "required": ["actions"]}


def cli(tmp_path: Path, name: str, body: str) -> str:
    """Write a script and return a provider.command line that runs it."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return shlex.join([sys.executable, str(path)])


def provider(command: str, sleeps: list[float], **kw: object) -> CommandProvider:
    kw.setdefault("retries", 0)
    return CommandProvider(command=command, sleep=sleeps.append, **kw)  # type: ignore[arg-type]


@pytest.fixture
def sleeps() -> list[float]:
    return []


def test_prompt_goes_in_on_stdin_and_the_answer_comes_back(tmp_path: Path,
                                                           sleeps: list[float]) -> None:
    command = cli(tmp_path, "echo_json", """
        import json, sys
        prompt = sys.stdin.read()
        print("```json")
        print(json.dumps({"actions": [], "prompt": prompt}))
        print("```")
    """)
    out = provider(command, sleeps).complete("SYSTEM RULES", "THE BUNDLE", schema=SCHEMA)
    data = json.loads(out.text)  # the fence the CLI added is gone
    assert data["actions"] == []
    prompt = data["prompt"]
    assert prompt.index("SYSTEM RULES") < prompt.index("THE BUNDLE") < prompt.index("JSON Schema")
    assert '"required":["actions"]' in prompt
    assert out.destination.startswith(f"local command `{command}`")
    assert "remote service" in out.destination


def test_without_schema_no_schema_instructions(tmp_path: Path, sleeps: list[float]) -> None:
    command = cli(tmp_path, "echo", "import sys; print(sys.stdin.read().upper())")
    out = provider(command, sleeps).complete("be brief", "hello")
    from slowloop.selfobs import PROMPT_MARK

    # the first line marks the run as slowloop's own, so its transcript is never observed
    assert out.text == PROMPT_MARK.upper() + "\n\nBE BRIEF\n\nHELLO"


def test_the_child_knows_it_is_a_reflection_and_runs_in_the_private_folder(tmp_path: Path,
                                                                           sleeps: list[float]) -> None:
    command = cli(tmp_path, "where", """
        import os, sys
        sys.stdin.read()
        print(os.environ.get("SLOWLOOP_REFLECTING"), os.getcwd())
    """)
    out = provider(command, sleeps).complete("s", "u")
    flag, cwd = out.text.split()
    assert flag == "1" and cwd.endswith("/reflector") and os.path.isfile(os.path.join(cwd, ".slowloop-reflector"))


def test_agent_clis_get_the_flags_that_keep_them_quiet_and_inert() -> None:
    from slowloop.providers.command import agent_cli_argv

    assert agent_cli_argv(["claude", "-p"]) == ["claude", "-p", "--no-session-persistence", "--tools", ""]
    assert agent_cli_argv(["codex", "exec"]) == ["codex", "exec", "--ephemeral", "--skip-git-repo-check",
                                                 "--sandbox", "read-only", "-"]
    assert agent_cli_argv(["codex", "exec", "-"])[-1] == "-"
    assert agent_cli_argv(["llm", "-m", "x"]) == ["llm", "-m", "x"]


def test_nonzero_exit_is_permanent_with_stderr(tmp_path: Path, sleeps: list[float]) -> None:
    command = cli(tmp_path, "fails", """
        import sys
        sys.stdin.read()
        print("error: unknown option --frobnicate", file=sys.stderr)
        sys.exit(1)
    """)
    with pytest.raises(ProviderError) as err:
        provider(command, sleeps, retries=3).complete("s", "u")
    assert not err.value.transient
    assert "exited with status 1" in str(err.value) and "--frobnicate" in str(err.value)
    assert sleeps == []  # a permanent failure is not retried


def test_network_words_on_stderr_make_it_transient_and_retried(tmp_path: Path,
                                                               sleeps: list[float]) -> None:
    counter = tmp_path / "calls"
    command = cli(tmp_path, "flaky", f"""
        import pathlib, sys
        sys.stdin.read()
        p = pathlib.Path({str(counter)!r})
        n = int(p.read_text()) if p.exists() else 0
        p.write_text(str(n + 1))
        if n < 2:
            print("API Error: Connection error (ECONNRESET)", file=sys.stderr)
            sys.exit(1)
        print("third time lucky")
    """)
    out = provider(command, sleeps, retries=3).complete("s", "u")
    assert out.text == "third time lucky"
    assert counter.read_text() == "3" and len(sleeps) == 2


def test_a_cli_that_hangs_is_killed_at_the_timeout(tmp_path: Path, sleeps: list[float]) -> None:
    # It also starts a grandchild that holds stdout open: killing only the child would hang us.
    command = cli(tmp_path, "hangs", f"""
        import subprocess, sys, time
        subprocess.Popen([{sys.executable!r}, "-c", "import time; time.sleep(60)"])
        time.sleep(60)
    """)
    started = time.monotonic()
    with pytest.raises(ProviderError) as err:
        provider(command, sleeps, timeout=1).complete("s", "u")
    assert err.value.transient and "did not finish within 1s" in str(err.value)
    assert time.monotonic() - started < 10


def test_command_not_found_says_what_to_do(sleeps: list[float]) -> None:
    with pytest.raises(ProviderError) as err:
        provider("definitely-not-a-real-llm-cli -p", sleeps).complete("s", "u")
    assert not err.value.transient
    assert "command not found" in str(err.value) and "full path" in str(err.value)


def test_empty_output_is_an_error(tmp_path: Path, sleeps: list[float]) -> None:
    command = cli(tmp_path, "silent", "import sys; sys.stdin.read()")
    with pytest.raises(ProviderError, match="printed nothing"):
        provider(command, sleeps).complete("s", "u")


def test_known_clis_name_their_service() -> None:
    claude = get_provider(load_config().with_overrides(
        provider={"kind": "command", "command": "claude -p"}))
    assert claude is not None
    assert claude.destination() == ("local command `claude -p` "
                                    "(it may send the prompt on to Anthropic)")
    codex = CommandProvider(command="/usr/local/bin/codex exec -")
    assert "OpenAI" in codex.destination() and codex.name == "codex"


@pytest.mark.parametrize("command", ["", "   ", "claude 'unbalanced"])
def test_bad_command_setting_is_a_user_error(command: str) -> None:
    with pytest.raises(UserError, match="provider.command"):
        CommandProvider(command=command)
