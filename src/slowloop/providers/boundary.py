"""The one door to any model: every text that leaves passes the redaction layer.

:func:`guarded` wraps a provider so its ``complete`` redacts the system and user texts before the
provider sees them. ``get_provider`` returns guarded providers, and the reflection cycle guards a
provider object handed in directly, so no caller can send a bundle, a memory summary or anything
later around it. Redaction is idempotent: guarding twice costs a second pass, never a change.
"""

from __future__ import annotations

from typing import Any

from ..safety.redact import redact
from .base import Completion, Provider

__all__ = ["Guarded", "guarded", "outgoing"]


def outgoing(text: str) -> str:
    """``text`` as it may leave the machine: secrets replaced by ``[REDACTED:<kind>]``."""
    return redact(text).text


class Guarded:
    """A provider whose every request is redacted first (everything else is the inner one's)."""

    def __init__(self, inner: Provider) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def destination(self) -> str:
        return self.inner.destination()

    def complete(self, system: str, user: str, *, schema: dict | None = None) -> Completion:
        return self.inner.complete(outgoing(system), outgoing(user), schema=schema)


def guarded(provider: Provider | None) -> Provider | None:
    if provider is None or isinstance(provider, Guarded):
        return provider
    return Guarded(provider)
