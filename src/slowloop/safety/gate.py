"""The gate in front of every text saved where an agent will read it.

Skills, the memo, the operational memory and its summaries are read by a coding agent with a shell
at the start of every session, so a line saved there is a standing instruction. Whatever an agent
or a model hands in (MCP writes, a model's summary, a reflection's actions) passes :func:`check`;
a person typing at the CLI writes their own files and is not gated, and a rule *learned from* a
person's words that falls in a danger class waits for that person's approval instead
(``slowloop review``).
"""

from __future__ import annotations

from collections import Counter

from ..errors import UserError
from .danger import Danger, scan

__all__ = ["UnsafeText", "check", "describe", "introduced"]


class UnsafeText(UserError):
    """Text refused because an agent would read it as a dangerous standing instruction."""

    def __init__(self, where: str, dangers: list[Danger], *, hint: str | None = None) -> None:
        self.dangers = dangers
        super().__init__(f"not saved to {where}: {describe(dangers)}",
                         hint=hint or "if a person means it, they can write it themselves "
                                      "(the CLI, or by editing the file)")


def describe(dangers: list[Danger]) -> str:
    # the gravest first: a refusal's class (remote code, exfiltration…) before a posture change
    d = min(dangers, key=lambda x: x.kind == "posture")
    more = f" (+{len(dangers) - 1} more)" if len(dangers) > 1 else ""
    return f"{d.kind}: {d.reason} ({d.evidence}){more}"


def check(text: str, *, where: str, hint: str | None = None) -> None:
    """Raise :class:`UnsafeText` when ``text`` holds a dangerous instruction or a secret."""
    dangers = scan(text)
    if dangers:
        raise UnsafeText(where, dangers, hint=hint)


def introduced(before: str, after: str) -> list[Danger]:
    """The dangers (secrets included) ``after`` holds that ``before`` did not: a change judged on
    the file it results in, so a download in one entry and its execution in another are seen
    together, while a danger the file already had (a person's own rule) is not laid on the change."""
    had = Counter(scan(before)) if before else Counter()
    out = []
    for d in scan(after):
        if had[d] > 0:
            had[d] -= 1
        else:
            out.append(d)
    return out
