"""Contexts: named, loadable instruction sets (the seed's AGENTS.ctx), one folder each.

``<agent dir>/contexts/<name>/CONTEXT.md`` (or ``<dir>/contexts/`` for a project folder). A context
gives the frame — how to work in a domain: rules, layout, critical paths; the memory gives the
continuity. Other files may sit beside CONTEXT.md (references, scripts); only CONTEXT.md is loaded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from .. import yamlio
from ..errors import DataError, UserError
from ..fsutil import atomic_write
from ..paths import DEFAULT_AGENT, agent_dir
from ..tokens import estimate_tokens, truncate_to_tokens

CONTEXT_FILE = "CONTEXT.md"
NAME = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")
_FRONT = re.compile(r"^---\n(.*?)\n---\n?", re.DOTALL)


@dataclass(frozen=True)
class Context:
    name: str
    path: Path
    description: str
    body: str  # CONTEXT.md without its frontmatter

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.body)

    def to_json(self) -> dict:
        return {"name": self.name, "path": str(self.path), "description": self.description,
                "tokens": self.tokens, "body": self.body}


def validate_name(name: str) -> str:
    if not isinstance(name, str) or not NAME.match(name) or "--" in name:
        raise UserError(f"context name {name!r} is not valid",
                        hint="use lowercase letters, digits and single hyphens, e.g. blog-writer (max 64)")
    return name


def parse_context(name: str, path: Path) -> Context:
    text = path.read_text(encoding="utf-8")
    description = ""
    body = text
    m = _FRONT.match(text)
    if m:
        try:
            meta = yamlio.safe_load(m.group(1)) or {}
        except yaml.YAMLError as exc:
            line = getattr(getattr(exc, "problem_mark", None), "line", None)
            raise DataError(f"frontmatter is not valid YAML: {exc}", path=str(path),
                            line=(line + 2) if line is not None else None,
                            hint="fix the lines between the two '---', or remove them") from None
        if not isinstance(meta, dict):
            raise DataError("frontmatter must be key: value pairs", path=str(path), line=2)
        description = str(meta.get("description") or "").strip()
        body = text[m.end():]
    if not description:  # a hand-written CONTEXT.md: its first prose line says what it is for
        description = next((x.strip() for x in body.splitlines() if x.strip() and not x.startswith("#")), "")
    return Context(name, path, " ".join(description.split()), body.strip("\n") + "\n")


class Contexts:
    """The contexts folder of one agent or one project."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    @classmethod
    def for_agent(cls, agent: str = DEFAULT_AGENT, home: Path | None = None) -> Contexts:
        return cls(agent_dir(agent, home) / "contexts")

    @classmethod
    def for_dir(cls, directory: Path) -> Contexts:
        return cls(Path(directory) / "contexts")

    def list(self) -> list[Context]:
        if not self.root.is_dir():
            return []
        return [parse_context(d.name, d / CONTEXT_FILE) for d in sorted(self.root.iterdir())
                if d.is_dir() and NAME.match(d.name) and (d / CONTEXT_FILE).is_file()]

    def get(self, name: str) -> Context:
        path = self.root / validate_name(name) / CONTEXT_FILE
        if not path.is_file():
            known = ", ".join(c.name for c in self.list()) or "none yet"
            raise UserError(f"no context {name!r} in {self.root} (contexts: {known})",
                            hint=f"create it with `slowloop ctx new {name}`")
        return parse_context(name, path)

    def new(self, name: str, description: str = "") -> Context:
        validate_name(name)
        path = self.root / name / CONTEXT_FILE
        if path.exists():
            raise UserError(f"context {name!r} already exists: {path}", hint="edit the file, or pick another name")
        desc = " ".join(str(description).split()) or f"How to work in the {name} context."
        front = yaml.safe_dump({"name": name, "description": desc}, allow_unicode=True, sort_keys=False)
        text = (f"---\n{front}---\n# {name}\n\n{desc}\n\n"
                "## Rules\n\n## Layout and critical paths\n\n## How we work here\n")
        atomic_write(path, text, expect=None, mode=0o644)
        return parse_context(name, path)


def context_text(name: str, budget_tokens: int, *, agent: str = DEFAULT_AGENT, home: Path | None = None,
                 directory: Path | None = None) -> str:
    """A context as the bootstrap shows it, cut from its end to ``budget_tokens``."""
    ctxs = Contexts.for_dir(directory) if directory is not None else Contexts.for_agent(agent, home)
    c = ctxs.get(name)
    text = f"# Context: {c.name} ({c.path})\n\n{c.body}"
    return truncate_to_tokens(text, budget_tokens,
                              marker=f"\n[… cut to fit; `slowloop ctx show {name}`]") if budget_tokens > 0 else ""
