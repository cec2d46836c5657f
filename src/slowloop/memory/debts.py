"""``debts.md``: the canonical register of what is open, as lines a person can read and edit.

One debt per top-level bullet, with a stable id and a status in brackets; indented lines under it
are its notes::

    - D-0007 [in-progress] Flaky arm64 CI job (opened 2025-01-05T10:00:00Z; updated 2025-01-06T09:00:00Z)
      the cache key ignores the runner arch

The format is strict on purpose: a top-level bullet that is not a debt would be a debt nobody can
track, so parsing refuses it and names the file and line instead of silently skipping it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from ..errors import DataError, UserError

DebtStatus = Literal["open", "in-progress", "deferred", "closed"]
STATUSES: tuple[DebtStatus, ...] = get_args(DebtStatus)
# Everything but closed is carried into the next cycle by an archive.
OPEN_STATUSES: tuple[str, ...] = ("open", "in-progress", "deferred")

# A note line slowloop keeps on a debt it opened from a session (its key, the session): how a later
# session recognises the debt it closes. Kept in the file, left out of the bootstrap.
AUTO_NOTE = "auto: "

DEBT_ID = re.compile(r"^D-\d{4,}$")
_LINE = re.compile(r"^- (?P<id>\S+) \[(?P<status>[^\]]*)\] (?P<rest>.*\S)\s*$")
_META = re.compile(r"\s+\((?P<meta>(?:opened|updated|closed) [^()]*)\)$")
_META_KEYS = ("opened", "updated", "closed")

FORMAT_HINT = ("write each debt as `- D-0001 [open] what is open` (statuses: "
               + ", ".join(STATUSES) + "), or use `slowloop memory debt add`")


@dataclass(frozen=True)
class Debt:
    id: str
    status: DebtStatus
    text: str
    opened: str | None = None
    updated: str | None = None
    closed: str | None = None
    notes: tuple[str, ...] = field(default=())
    line: int = 0  # 1-based line in the file it was read from; 0 when not read from a file

    @property
    def number(self) -> int:
        return int(self.id[2:])

    def render(self) -> list[str]:
        meta = [f"{k} {v}" for k, v in (("opened", self.opened), ("updated", self.updated),
                                         ("closed", self.closed)) if v]
        head = f"- {self.id} [{self.status}] {self.text}" + (f" ({'; '.join(meta)})" if meta else "")
        return [head] + [f"  {n}" for n in self.notes]

    def to_json(self) -> dict:
        return {"id": self.id, "status": self.status, "text": self.text, "opened": self.opened,
                "updated": self.updated, "closed": self.closed, "notes": list(self.notes),
                "line": self.line}


def _known_status(status: str) -> DebtStatus | None:
    return next((s for s in STATUSES if s == status), None)


def validate_status(status: str) -> DebtStatus:
    known = _known_status(status)
    if known is None:
        raise UserError(f"debt status {status!r} is not valid",
                        hint="use one of: " + ", ".join(STATUSES))
    return known


def validate_id(debt_id: str) -> str:
    norm = debt_id.strip().upper()
    if re.fullmatch(r"\d+", norm):  # "7" is a friendly way to say D-0007
        norm = f"D-{int(norm):04d}"
    if not DEBT_ID.match(norm):
        raise UserError(f"debt id {debt_id!r} is not valid",
                        hint="debt ids look like D-0007 (see `slowloop memory debt list`)")
    return norm


def format_id(number: int) -> str:
    return f"D-{number:04d}"


def clean_text(text: str) -> str:
    """A debt's title is one line; parentheses at its end would be read back as metadata."""
    one = " ".join(str(text).split())
    if not one:
        raise UserError("a debt needs a description", hint='e.g. slowloop memory debt add "CI is flaky on arm64"')
    if _META.search(one):
        one = one + "."
    return one


@dataclass(frozen=True)
class DebtsFile:
    """The file as read: a person's headings and prose stay where they were, debts in between."""

    blocks: tuple[str | Debt, ...]

    @property
    def debts(self) -> list[Debt]:
        return [b for b in self.blocks if isinstance(b, Debt)]

    def get(self, debt_id: str) -> Debt | None:
        return next((d for d in self.debts if d.id == debt_id), None)

    def with_debt(self, debt: Debt) -> DebtsFile:
        """Replace the debt with the same id in place, or append it at the end."""
        if self.get(debt.id) is None:
            blocks = list(self.blocks)
            while blocks and isinstance(blocks[-1], str) and not blocks[-1].strip():
                blocks.pop()
            if blocks and not isinstance(blocks[-1], Debt):
                blocks.append("")
            return DebtsFile(tuple(blocks) + (debt,))
        return DebtsFile(tuple(debt if isinstance(b, Debt) and b.id == debt.id else b for b in self.blocks))

    def without_closed(self) -> DebtsFile:
        return DebtsFile(tuple(b for b in self.blocks if not (isinstance(b, Debt) and b.status == "closed")))

    def render(self) -> str:
        lines: list[str] = []
        for b in self.blocks:
            lines.extend(b.render() if isinstance(b, Debt) else [b])
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join(lines) + "\n"


def parse_debts(text: str, path: str) -> DebtsFile:
    """Read ``debts.md``; a malformed debt line raises ``DataError`` naming the file and line."""
    blocks: list[str | Debt] = []
    seen: dict[str, int] = {}
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith((" ", "\t")) and line.strip() and blocks and isinstance(blocks[-1], Debt):
            d = blocks[-1]
            blocks[-1] = replace(d, notes=d.notes + (line.strip(),))
            continue
        if not line.startswith(("- ", "* ")):
            blocks.append(line)  # headings, prose, blank lines: a person's layout, kept as is
            continue
        m = _LINE.match(line)
        if not m:
            raise DataError(f"not a debt entry: {line[:80]!r}", path=path, line=no, hint=FORMAT_HINT)
        debt_id, rest = m.group("id"), m.group("rest")
        status = _known_status(m.group("status"))
        if not DEBT_ID.match(debt_id):
            raise DataError(f"debt id {debt_id!r} is not valid (expected D- and 4+ digits)",
                            path=path, line=no, hint=FORMAT_HINT)
        if status is None:
            raise DataError(f"debt {debt_id} has status {m.group('status')!r}, not one of {', '.join(STATUSES)}",
                            path=path, line=no, hint="fix the status between the brackets")
        if debt_id in seen:
            raise DataError(f"debt {debt_id} appears twice (first on line {seen[debt_id]})",
                            path=path, line=no, hint="give one of them a new id, e.g. the next free number")
        seen[debt_id] = no
        meta: dict[str, str] = {}
        mm = _META.search(rest)
        if mm:
            rest = rest[:mm.start()]
            for part in mm.group("meta").split(";"):
                key, _, value = part.strip().partition(" ")
                if key not in _META_KEYS or not value.strip():
                    raise DataError(f"debt {debt_id}: cannot read {part.strip()!r} in its (opened …) part",
                                    path=path, line=no,
                                    hint="write e.g. (opened 2025-01-05T10:00:00Z; closed 2025-01-09T12:00:00Z)")
                meta[key] = value.strip()
        blocks.append(Debt(debt_id, status, rest.strip(), meta.get("opened"), meta.get("updated"),
                           meta.get("closed"), (), no))
    return DebtsFile(tuple(blocks))
