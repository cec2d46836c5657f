"""Pure, dependency-free checks on text that reaches a model or is learned from one.

- :mod:`.redact` — replace secrets with ``[REDACTED:<kind>]`` before a bundle leaves for a model;
- :mod:`.danger` — find exfiltration, destructive commands, prompt injection and secrets in what a
  model proposes to learn;
- :mod:`.lint` — tell an actionable imperative ("When …, always …") from a description.
"""

from .danger import Danger, DangerKind, scan
from .lint import LintFinding, LintResult, lint_line, lint_text
from .redact import RedactResult, find_secrets, is_secret_name, redact

__all__ = [
    "Danger", "DangerKind", "scan",
    "LintFinding", "LintResult", "lint_line", "lint_text",
    "RedactResult", "find_secrets", "is_secret_name", "redact",
]
