"""What every provider shares: the result type, the protocol, retries, and schema instructions.

A provider turns (system, user[, schema]) into one ``Completion``. Failures are split by whether
waiting helps: ``ProviderError(transient=True)`` leaves the agent due for the next cycle,
``transient=False`` needs a person to fix something (a key, a URL, a model name), and the message
says what.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar, runtime_checkable

from ..errors import ProviderError

ProviderKind = Literal["offline", "openai", "anthropic", "command"]
KINDS: tuple[str, ...] = ("offline", "openai", "anthropic", "command")

T = TypeVar("T")


@dataclass(frozen=True)
class Completion:
    text: str
    model: str
    # What left the machine and to whom, e.g. "http://127.0.0.1:8080 (loopback)".
    destination: str


@runtime_checkable
class Provider(Protocol):
    name: str
    kind: str

    def destination(self) -> str: ...

    def complete(self, system: str, user: str, *, schema: dict | None = None) -> Completion: ...


class RetryableError(ProviderError):
    """A transient failure that may carry the server's own idea of when to come back."""

    def __init__(self, message: str, *, retry_after: float | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message, transient=True, hint=hint)
        self.retry_after = retry_after


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 3
    # Longest wait we accept between attempts; a server asking for more is not retried now
    # (the agent stays due and the next cycle comes back later).
    max_wait: float = 60.0
    base: float = 1.0


def backoff_delay(attempt: int, policy: RetryPolicy, rand: Callable[[], float] = random.random) -> float:
    """Exponential backoff with "equal jitter": half fixed, half random, so callers spread out."""
    ceiling = min(policy.max_wait, policy.base * (2 ** attempt))
    return ceiling / 2 + rand() * ceiling / 2


def run_with_retries(attempt: Callable[[], T], policy: RetryPolicy, *, what: str,
                     sleep: Callable[[float], None] = time.sleep) -> T:
    """Call ``attempt`` until it succeeds, fails for good, or runs out of retries.

    Only ``ProviderError(transient=True)`` is retried. The final transient error says how many
    attempts were made, so the reflection log shows that backoff already happened.
    """
    tries = max(0, int(policy.retries)) + 1
    for n in range(tries):
        try:
            return attempt()
        except ProviderError as exc:
            if not exc.transient:
                raise
            last = n == tries - 1
            retry_after = getattr(exc, "retry_after", None)
            if retry_after is not None and retry_after > policy.max_wait:
                raise ProviderError(
                    f"{exc.message} — {what} asked to wait {retry_after:.0f}s, longer than "
                    f"provider.max_retry_wait ({policy.max_wait:.0f}s); not retrying now",
                    transient=True,
                    hint="the agent stays due; the next reflection cycle will try again",
                ) from exc
            if last:
                plural = "attempt" if tries == 1 else "attempts"
                raise ProviderError(
                    f"{exc.message} ({tries} {plural})", transient=True,
                    hint=exc.hint or "the agent stays due; the next reflection cycle will try again",
                ) from exc
            sleep(retry_after if retry_after is not None else backoff_delay(n, policy))
    raise AssertionError("unreachable: the loop returns or raises")


def schema_instructions(schema: dict) -> str:
    """The schema as plain instructions, for endpoints and CLIs without structured output."""
    return (
        "Answer with one JSON object and nothing else: no prose before or after it, no Markdown "
        "code fence. The object must conform to this JSON Schema:\n"
        # compact: the indented form costs ~75% more tokens, which a 2-4k context feels
        + json.dumps(schema, separators=(",", ":"), ensure_ascii=False)
    )


def excerpt(text: str, limit: int = 300) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def api_key_from_env(env_name: str) -> str | None:
    """The API key from the variable the config names (keys are never stored in the config)."""
    if not env_name:
        return None
    key = os.environ.get(env_name, "").strip()
    if not key:
        raise ProviderError(f"environment variable ${env_name} is empty or not set",
                            transient=False,
                            hint=f"export {env_name}=... in the environment that runs slowloop, "
                                 "or change provider.api_key_env")
    return key
