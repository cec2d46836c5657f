"""A CLI the user already has as the model: the prompt on stdin, the answer on stdout.

``provider.command`` is split with shlex and run without a shell (``claude -p``, ``codex exec -``,
``llm -m mymodel``). The process is local, so privacy lets it run — but the destination says what
such CLIs usually do with a prompt: send it to their own service.

The person's own agent as the model must not observe itself (``slowloop.selfobs``): the child gets
``SLOWLOOP_REFLECTING=1`` (every slowloop hook honours it), runs in the home's private
``reflector/`` folder, and the prompt's first line marks it. For the two agent CLIs the flags that
keep the run from leaving a session behind and from acting are added when missing: ``claude -p``
runs with ``--no-session-persistence`` and no tools; ``codex exec`` runs ``--ephemeral``, in a
read-only sandbox, without its git-repository check, reading the prompt from stdin.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import time
from collections.abc import Callable
from typing import Any

from ..config import Config
from ..errors import ProviderError, UserError
from ..markdown import unwrap_fenced
from .base import (
    Completion,
    RetryableError,
    RetryPolicy,
    excerpt,
    run_with_retries,
    schema_instructions,
)

# Who a well-known CLI talks to, so the destination can say it plainly.
KNOWN_SERVICES = {
    "claude": "Anthropic",
    "codex": "OpenAI",
    "gemini": "Google",
    "llm": "whichever model `llm` is configured to use",
    "aichat": "whichever model `aichat` is configured to use",
    "ollama": "the local Ollama server, unless it is configured for a remote host",
}

# stderr words that mean "the network or the service", not "you called me wrong".
NETWORK_WORDS = re.compile(
    r"time(?:d)?\s*out|timeout|connection\s+(?:reset|refused|aborted|closed|error)|"
    r"network|ECONNRESET|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|getaddrinfo|"
    r"name resolution|temporary failure|temporarily unavailable|unreachable|broken pipe|TLS|SSL|EOF occurred|"
    r"rate.?limit|too many requests|overloaded|service unavailable|bad gateway|"
    r"\b(?:429|500|502|503|504|529)\b",
    re.I,
)


def render_prompt(system: str, user: str, schema: dict | None) -> str:
    from ..selfobs import PROMPT_MARK

    parts = [PROMPT_MARK, system.strip(), user.strip()]
    if schema is not None:
        parts.append(schema_instructions(schema))
    return "\n\n".join(p for p in parts if p) + "\n"


def agent_cli_argv(argv: list[str]) -> list[str]:
    """``argv`` with the flags that keep an agent CLI used as the model quiet and inert."""
    program = os.path.basename(argv[0])
    out = list(argv)
    if program == "claude":
        if "-p" not in out and "--print" not in out:
            out.append("-p")
        if "--no-session-persistence" not in out:
            out.append("--no-session-persistence")
        if "--tools" not in out and "--allowedTools" not in out and "--allowed-tools" not in out:
            out += ["--tools", ""]
    elif program == "codex":
        if "exec" not in out and "e" not in out[1:2]:
            out.insert(1, "exec")
        out = [a for a in out if a != "-"]
        for flag in ("--ephemeral", "--skip-git-repo-check"):
            if flag not in out:
                out.append(flag)
        if "--sandbox" not in out and "-s" not in out and not any(a.startswith("--sandbox=") for a in out):
            out += ["--sandbox", "read-only"]
        if "-" not in out:
            out.append("-")
    return out


class CommandProvider:
    kind = "command"

    def __init__(self, *, command: str, model: str = "", name: str = "", timeout: float = 120,
                 retries: int = 3, max_retry_wait: float = 60,
                 sleep: Callable[[float], None] = time.sleep, home: os.PathLike[str] | str | None = None
                 ) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise UserError(f"provider.command = {command!r} cannot be split: {exc}",
                            hint="quote it as you would in a shell, e.g. \"claude -p\"") from None
        if not argv:
            raise UserError("provider.kind is \"command\" but provider.command is empty",
                            hint="set it to a CLI that reads a prompt on stdin, e.g. \"claude -p\"")
        self.argv = agent_cli_argv(argv)
        self.command = shlex.join(argv)
        self.home = home
        self.program = os.path.basename(argv[0])
        self.name = name or self.program
        self.model = model
        self.timeout = float(timeout)
        self.policy = RetryPolicy(retries=int(retries), max_wait=float(max_retry_wait))
        self._sleep = sleep

    @classmethod
    def from_config(cls, cfg: Config, **extra: Any) -> CommandProvider:
        p = cfg.provider
        if cfg.path is not None and "home" not in extra:
            extra["home"] = cfg.path.parent
        return cls(command=p.command, model=p.model, name=p.name, timeout=p.timeout,
                   retries=p.retries, max_retry_wait=p.max_retry_wait, **extra)

    def destination(self) -> str:
        service = KNOWN_SERVICES.get(self.program)
        where = (f"it may send the prompt on to {service}" if service else
                 "it may send the prompt on to a remote service of its own")
        return f"local command `{self.command}` ({where})"

    def complete(self, system: str, user: str, *, schema: dict | None = None) -> Completion:
        prompt = render_prompt(system, user, schema)
        out = run_with_retries(lambda: self._run(prompt), self.policy, what=f"`{self.program}`",
                               sleep=self._sleep)
        text = unwrap_fenced(out) if schema is not None else out.strip()
        return Completion(text=text, model=self.model or self.program,
                          destination=self.destination())

    def _run(self, prompt: str) -> str:
        try:
            # A new session so a timeout can kill the whole group: CLIs often spawn helpers that
            # would otherwise keep the pipes open and hang us.
            from pathlib import Path

            from ..paths import home as default_home
            from ..selfobs import child_env, mark_workdir

            home = Path(self.home) if self.home is not None else default_home()
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True,
                                    cwd=str(mark_workdir(home)), env=child_env(home))
        except FileNotFoundError:
            raise ProviderError(f"command not found: {self.argv[0]!r} (provider.command = "
                                f"{self.command!r})", transient=False,
                                hint=f"install {self.program}, or set provider.command to its full "
                                     "path (cron and systemd run with a short PATH)") from None
        except PermissionError:
            raise ProviderError(f"{self.argv[0]!r} is not executable", transient=False,
                                hint="check the file's permissions or provider.command") from None
        try:
            stdout, stderr = proc.communicate(prompt.encode("utf-8"), timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self._kill(proc)
            raise RetryableError(f"`{self.command}` did not finish within {self.timeout:g}s "
                                 "(provider.timeout)") from None
        err = stderr.decode("utf-8", "replace")
        if proc.returncode != 0:
            said = excerpt(err[-2000:], 400) or "(nothing on stderr)"
            msg = f"`{self.command}` exited with status {proc.returncode}: {said}"
            if NETWORK_WORDS.search(err):
                raise RetryableError(msg)
            raise ProviderError(msg, transient=False,
                                hint=f"run `{self.command}` by hand with a short prompt on stdin "
                                     "to see what it needs (a login, a flag, a model name)")
        text = stdout.decode("utf-8", "replace")
        if not text.strip():
            raise ProviderError(f"`{self.command}` exited 0 but printed nothing on stdout",
                                transient=False,
                                hint="it must print the answer on stdout; check its flags "
                                     "(e.g. `claude -p`, `codex exec -`)")
        return text

    @staticmethod
    def _kill(proc: subprocess.Popen) -> None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            # A helper that left the group still holds the pipes; stop reading, reap the child.
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
            proc.wait()
