"""One exception root, split by who is at fault.

Every message quotes the offending value and says what to do next. The CLI maps each class to an
exit code (see ``slowloop.cli``): user errors 2, data errors 3, model errors 4, environment 5.
"""

from __future__ import annotations


class SlowloopError(Exception):
    """Root of every error slowloop raises on purpose."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message}\n  hint: {self.hint}"
        return self.message


class UserError(SlowloopError):
    """The person asked for something invalid: a bad name, a missing file, a wrong option."""

    exit_code = 2


class DataError(SlowloopError):
    """A file or record on disk is malformed: a broken transcript line, a hand-broken SKILL.md."""

    exit_code = 3

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 hint: str | None = None) -> None:
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(where + message, hint=hint)
        self.path = path
        self.line = line


class ConflictError(SlowloopError):
    """Someone else changed a file or record since we read it; we gave way instead of overwriting."""

    exit_code = 6


class ModelError(SlowloopError):
    """A model answered with something unusable (invalid JSON, wrong schema)."""

    exit_code = 4


class ProviderError(SlowloopError):
    """The model provider failed. ``transient`` says whether retrying later may help."""

    exit_code = 5

    def __init__(self, message: str, *, transient: bool, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.transient = transient


class PrivacyError(UserError):
    """A remote provider was configured but not allowed by name in the config."""


class AccessError(UserError):
    """A shared ledger refused this machine's database role: the agent is not granted to it."""


class LockedError(SlowloopError):
    """Another process holds the lock (e.g. another reflector is working on this agent)."""

    exit_code = 7
