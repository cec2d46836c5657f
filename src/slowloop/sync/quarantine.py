"""Changes a sync refused to merge, kept where the person can see them and out of the agent's folder.

``<home>/quarantine/<agent>/<N>.json`` says which file, what was wrong, which commits brought it and
who wrote them (git author); ``<N>.txt`` beside it is the refused version, secrets redacted, when it
is text. The refused version itself stays in the agent's git objects (``blob``), so ``slowloop sync
accept N`` takes exactly what was refused, through the same screening.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..clock import iso
from ..errors import DataError, UserError
from ..fsutil import atomic_write, read_text
from ..paths import quarantine_dir
from ..safety.redact import redact
from .git import Author
from .screen import Refusal


@dataclass
class Held:
    id: int
    agent: str
    path: str
    kind: str
    reason: str
    blob: str | None  # the refused version (a git blob of the agent's repository)
    base: str | None  # the version both sides last shared, for merging it in later
    mode: str
    size: int
    remote: str  # the remote commit it came with
    authors: list[dict] = field(default_factory=list)  # commit, name, email, subject; newest first
    at: str = ""
    status: str = "held"  # held, accepted, dropped

    @property
    def acceptable(self) -> bool:
        return Refusal(self.kind, self.reason).acceptable

    def by(self) -> str:
        seen: list[str] = []
        for a in self.authors:
            who = f"{a['name']} <{a['email']}>"
            if who not in seen:
                seen.append(who)
        return ", ".join(seen) or "unknown author"

    def to_dict(self) -> dict:
        return {**asdict(self), "by": self.by(), "acceptable": self.acceptable,
                "dangerous": self.kind == "danger"}


def folder(repo: Path) -> Path:
    """The quarantine of the agent whose folder is ``repo`` (``<home>/agents/<agent>``)."""
    return quarantine_dir(repo.name, repo.parent.parent)


def _records(repo: Path) -> list[Held]:
    d = folder(repo)
    out = []
    for p in sorted(d.glob("*.json"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0):
        try:
            out.append(Held(**json.loads(p.read_text(encoding="utf-8"))))
        except (OSError, ValueError, TypeError):
            continue  # a damaged record: doctor's general checks see the folder; nothing to merge
    return out


def held(repo: Path) -> list[Held]:
    """The changes still waiting for the person, oldest first."""
    return [h for h in _records(repo) if h.status == "held"]


def get(repo: Path, ident: int) -> Held:
    for h in _records(repo):
        if h.id == ident:
            return h
    raise UserError(f"no quarantined change {ident} for agent {repo.name!r}",
                    hint=f"list them with `slowloop sync status --agent {repo.name}`")


def save(repo: Path, h: Held) -> None:
    atomic_write(folder(repo) / f"{h.id}.json", json.dumps(asdict(h), indent=2, ensure_ascii=False) + "\n")


def add(repo: Path, *, path: str, refusal: Refusal, blob: str | None, base: str | None, mode: str,
        size: int, remote: str, authors: list[Author], text: str | None) -> Held | None:
    """Keep a refused change; None when the same version of the same file is already kept."""
    records = _records(repo)
    if any(h.path == path and h.blob == blob and h.status == "held" for h in records):
        return None
    h = Held(max((r.id for r in records), default=0) + 1, repo.name, path, refusal.kind, refusal.reason,
             blob, base, mode, size, remote, [asdict(a) for a in authors], iso())
    if text is not None:
        atomic_write(folder(repo) / f"{h.id}.txt", redact(text).text)
    save(repo, h)
    return h


def settle(repo: Path, h: Held, status: str) -> None:
    h.status = status
    save(repo, h)


def describe(repo: Path, ident: int) -> dict:
    """A kept change for the person: the record, the refused version (secrets redacted) and the lines
    it adds to this machine's file."""
    h = get(repo, ident)
    copy = folder(repo) / f"{h.id}.txt"
    text = copy.read_text(encoding="utf-8", errors="replace") if copy.is_file() else None
    try:
        current = read_text(repo / h.path, within=repo)[0] or ""
    except DataError:  # this machine's file is itself not readable as a learned file
        current = ""
    had = set(current.splitlines())
    adds = [ln for ln in (text or "").splitlines() if ln.strip() and ln not in had][:200]
    return {**h.to_dict(), "text": text, "adds": adds}
