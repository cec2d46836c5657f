"""Where recall's entries come from, and how each source is split into entries.

Every collector lives here so the day a source module changes its files, one module changes:

* turns: the ledger's ``turns`` table (user text + assistant text, tool names and error outputs as
  context), read incrementally by turn id and ``updated_at`` (through
  ``slowloop.store.artifacts.turns_since`` and ``turns_for_recall``);
* skills: ``<agent dir>/skills/<name>/SKILL.md``, one entry each;
* memo: ``<agent dir>/memo.md``, one entry per section;
* operational memory: ``<agent dir>/memory/**.md`` through ``slowloop.memory.iter_entries`` (one
  entry per chronicle entry, debt, state or summary section, in the root and every ``past/``
  layer), looked up at call time; when it is absent, a generic Markdown splitter (one entry per
  list item, dated line or paragraph) reads the same files;
* docs: the files under the folders registered with ``slowloop index add``, one entry per section.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .. import clock, markdown, yamlio
from ..paths import AgentLayout
from .model import Entry

TURNS_ORIGIN = "turns"
MAX_ENTRY_CHARS = 8000        # an entry longer than this is split (files) or cut (turns)
SECTION_CHARS = 2000          # a Markdown section longer than this is split at paragraphs
ERROR_OUTPUT_CHARS = 400      # of each failing tool result, kept as context of its turn
DOC_SUFFIXES = {".md", ".markdown", ".txt", ".rst", ".org", ".text"}
DOC_MAX_BYTES = 2_000_000

# "past/0003-2025-01-08-milestone" and similar: the date in a name is the layer's time
_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?")
_LIST_ITEM = re.compile(r"^([-*+]|\d+[.)])\s+")
_DATED_LINE = re.compile(r"^\[?\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class FileTarget:
    """A file recall reads. ``group`` says how it is split; ``kind`` is the kind of its entries
    (memory files may also carry a per-entry kind from slowloop.memory)."""

    path: Path
    group: str  # skill | memo | memory | doc
    kind: str


# -- turns ------------------------------------------------------------------------------------

def turn_entry(row: Any) -> Entry:
    """One ledger row of ``turns`` → one entry: what the user said and what the agent answered."""
    try:
        data = json.loads(row["data"]) if row["data"] else {}
    except (TypeError, json.JSONDecodeError):
        data = {}  # a row the ledger could not decode still has its user text
    texts: list[str] = []
    tools: list[str] = []
    errors: list[str] = []
    for step in data.get("steps") or ():
        kind = step.get("kind")
        if kind == "text" and step.get("text"):
            texts.append(str(step["text"]))
        elif kind == "tool_call" and step.get("call"):
            name = str(step["call"].get("name") or "")
            if name and name not in tools:
                tools.append(name)
        elif kind == "tool_result" and step.get("result"):
            res = step["result"]
            failed = res.get("is_error") or (res.get("exit_code") not in (None, 0))
            if failed and res.get("output"):
                # "when did we last see this error?" is a question recall must answer
                errors.append(str(res["output"])[:ERROR_OUTPUT_CHARS])
    user = str(row["user_text"] or "")
    text = user + ("\n\n" + "\n".join(texts) if texts else "")
    context = []
    if tools:
        context.append("tools: " + ", ".join(tools))
    context.extend(errors)
    when = row["started_at"] or row["recorded_at"]
    return Entry(kind="turn", source=f"turn:{row['id']}", time=normalize_time(when),
                 text=text[:MAX_ENTRY_CHARS], context="\n".join(context)[:MAX_ENTRY_CHARS],
                 origin=TURNS_ORIGIN)


# -- which files ------------------------------------------------------------------------------

def agent_files(agent_dir: Path) -> list[FileTarget]:
    out: list[FileTarget] = []
    skills = AgentLayout(agent_dir).skills
    if skills.is_dir():
        for p in sorted(skills.glob("*/SKILL.md")):
            out.append(FileTarget(p, "skill", "skill"))
    memo = AgentLayout(agent_dir).memo
    if memo.is_file():
        out.append(FileTarget(memo, "memo", "memo"))
    memory = AgentLayout(agent_dir).memory
    if memory.is_dir():
        for p in sorted(memory.rglob("*.md")):
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(memory).parts):
                out.append(FileTarget(p, "memory", memory_kind(p)))
    return out


def project_files(home: Path, agent: str) -> list[FileTarget]:
    """The memory and contexts of the projects the agent is installed in (``slowloop hooks install
    --project``): a project's own ``memory/`` (``slowloop memory init --dir``) and
    ``contexts/*/CONTEXT.md`` are searched with the agent's."""
    from ..places.targets import for_agent

    out: list[FileTarget] = []
    for proj in sorted({t["project"] for t in for_agent(home, agent) if t.get("project")}):
        root = Path(proj)
        memory = root / "memory"
        if (memory / "system-state.md").is_file():
            for p in sorted(memory.rglob("*.md")):
                if p.is_file() and not any(part.startswith(".") for part in p.relative_to(memory).parts):
                    out.append(FileTarget(p, "memory", memory_kind(p)))
        contexts = root / "contexts"
        if contexts.is_dir():
            for p in sorted(contexts.glob("*/CONTEXT.md")):
                out.append(FileTarget(p, "doc", "doc"))
    return out


def memory_kind(path: Path) -> str:
    """The kind of a memory file's entries. State and summaries are the chronicle's condensed
    form, so they share its kind (the closed set of kinds has no separate one for them)."""
    name = path.name.lower()
    if name.startswith("debt"):
        return "debt"
    return "chronicle"


def doc_files(roots: Iterable[str]) -> list[FileTarget]:
    out: list[FileTarget] = []
    seen: set[Path] = set()
    for root in roots:
        r = Path(root)
        if r.is_file():
            candidates: Iterable[Path] = [r]
        elif r.is_dir():
            candidates = sorted(p for p in r.rglob("*")
                                if not any(part.startswith(".") for part in p.relative_to(r).parts))
        else:
            continue  # a registered folder that is gone has no entries; `index status` says so
        for p in candidates:
            if p in seen or not p.is_file() or p.suffix.lower() not in DOC_SUFFIXES:
                continue
            seen.add(p)
            out.append(FileTarget(p, "doc", "doc"))
    return out


# -- how a file becomes entries ---------------------------------------------------------------

def parse_file(target: FileTarget, text: str, mtime: float) -> list[Entry]:
    fallback = _path_time(target.path) or clock.iso(mtime)
    if target.group == "skill":
        return [skill_entry(target.path, text, fallback)]
    if target.group == "memory":
        return split_markdown(text, target.path, target.kind, fallback, fine=True)
    if target.group == "doc" and target.path.suffix.lower() not in (".md", ".markdown"):
        return split_plain(text, target.path, fallback)
    return split_markdown(text, target.path, target.kind, fallback, fine=False)


def skill_entry(path: Path, text: str, fallback_time: str) -> Entry:
    meta, body, _ = split_frontmatter(text)
    name = str(meta.get("name") or path.parent.name)
    description = str(meta.get("description") or "")
    md = m if isinstance(m := meta.get("metadata"), dict) else {}
    when = md.get("updatedAt") or meta.get("updatedAt") or md.get("createdAt") or meta.get("createdAt")
    title = md.get("title") or meta.get("title") or ""
    head = " — ".join(x for x in (name, str(title)) if x)
    body_text = body.strip()
    return Entry(kind="skill", source=f"{path}:1", time=normalize_time(when) or fallback_time,
                 text=(f"{head}: {description}\n\n{body_text}" if description else f"{head}\n\n{body_text}")[:MAX_ENTRY_CHARS],
                 context=name.replace("-", " "), origin=str(path))


def split_frontmatter(text: str) -> tuple[dict, str, int]:
    """``(metadata, body, body_first_line)``. A frontmatter that does not parse is kept as body
    text: search must still find a skill someone broke by hand (``skills lint`` reports it)."""
    from ..markdown import split_frontmatter as split

    fm = split(text)
    if fm.text is None:
        return {}, text, 1
    try:
        meta = yamlio.safe_load(fm.text) or {}
    except yaml.YAMLError:
        return {}, text, 1
    if not isinstance(meta, dict):
        return {}, text, 1
    return meta, fm.body, fm.body_line


def split_markdown(text: str, path: Path, kind: str, fallback_time: str, *, fine: bool) -> list[Entry]:
    """Split Markdown into entries carrying their heading path as context.

    ``fine``: one entry per top-level list item, dated line or paragraph (operational memory,
    where each bullet is an event or a debt); otherwise one entry per section (notes, memo).
    """
    _, _, first = split_frontmatter(text)
    lines = text.splitlines()
    headings: list[tuple[int, str]] = []
    blocks: list[tuple[int, list[str], list[str]]] = []  # (line, lines, heading titles)
    cur: list[str] = []
    cur_line = 0

    def flush() -> None:
        nonlocal cur
        if any(s.strip() for s in cur):
            blocks.append((cur_line, cur, [t for _, t in headings]))
        cur = []

    for n, (line, in_fence) in enumerate(markdown.code_lines(lines[first - 1:]), start=first):
        stripped = line.strip()
        h = None if in_fence else markdown.heading(line)
        if h:
            flush()
            level = h[0]
            headings = [(lv, t) for lv, t in headings if lv < level] + [h]
            cur_line = n + 1
            continue
        if fine and not in_fence:
            top_level = line[:1] not in (" ", "\t")
            starts_item = top_level and (_LIST_ITEM.match(line) or _DATED_LINE.match(line))
            if not stripped or starts_item:
                flush()
        if not cur:
            if not stripped:
                continue
            cur_line = n
        cur.append(line)
    flush()

    out: list[Entry] = []
    for line_no, block, titles in blocks:
        body = "\n".join(block).strip()
        for offset, chunk in _chunks(body, block, line_no):
            heading_time = next((t for t in (_find_time(x) for x in reversed(titles)) if t), None)
            when = _find_time(chunk[:80]) or heading_time or fallback_time
            out.append(Entry(kind=kind, source=f"{path}:{offset}", time=when, text=chunk,
                             context=" / ".join(titles), origin=str(path)))
    if not out and text.strip():  # a file of headings only still deserves to be found
        out.append(Entry(kind=kind, source=f"{path}:1", time=fallback_time,
                         text=text.strip()[:MAX_ENTRY_CHARS], origin=str(path)))
    return out


def split_plain(text: str, path: Path, fallback_time: str) -> list[Entry]:
    lines = text.splitlines()
    body = text.strip()
    if not body:
        return []
    first = next(i for i, line in enumerate(lines, start=1) if line.strip())
    return [Entry(kind="doc", source=f"{path}:{line}", time=fallback_time, text=chunk,
                  context=path.stem.replace("_", " ").replace("-", " "), origin=str(path))
            for line, chunk in _chunks(body, lines[first - 1:], first)]


def _chunks(body: str, block: list[str], line_no: int) -> Iterator[tuple[int, str]]:
    """Long sections are cut at blank lines into pieces of about SECTION_CHARS."""
    if len(body) <= SECTION_CHARS:
        yield line_no, body
        return
    buf: list[str] = []
    start = line_no
    size = 0
    for i, line in enumerate(block):
        if not buf and not line.strip():
            continue
        if not buf:
            start = line_no + i
        buf.append(line)
        size += len(line) + 1
        if size >= SECTION_CHARS and (not line.strip() or size >= MAX_ENTRY_CHARS):
            yield start, "\n".join(buf).strip()
            buf, size = [], 0
    if any(x.strip() for x in buf):
        yield start, "\n".join(buf).strip()


def _find_time(text: str) -> str | None:
    m = _DATE.search(text)
    if not m:
        return None
    s = m.group(1) + ("T" + m.group(2) if m.group(2) else "") + (m.group(3) or "")
    return normalize_time(s)


def _path_time(path: Path) -> str | None:
    for part in reversed(path.parts[:-1]):
        t = _find_time(part)
        if t:
            return t
    return None


def normalize_time(value: Any) -> str:
    """Any ISO-ish time → ``YYYY-MM-DDTHH:MM:SSZ`` (so times compare as text); '' if unknown."""
    if not value:
        return ""
    ts = clock.parse_iso(str(value))
    return clock.iso(ts) if ts is not None else ""


# -- operational memory: the seam with slowloop.memory ----------------------------------------

def memory_parser() -> Callable[..., Iterable[Any]] | None:
    """``slowloop.memory.iter_entries`` when that module provides it, else ``None`` (the generic
    splitter above is used). Looked up at each call, so a newer slowloop.memory is picked up
    without a change here, and a broken one fails loudly instead of being silently skipped."""
    module = importlib.import_module("slowloop.memory")
    return getattr(module, "iter_entries", None)


def memory_entries_from_module(fn: Callable[..., Iterable[Any]], memory_dir: Path,
                               fallback_time: Callable[[Path], str]) -> dict[str, list[Entry]]:
    """Entries of every memory file as ``slowloop.memory`` reads them, grouped by file."""
    out: dict[str, list[Entry]] = {}
    for m in fn(memory_dir):
        path = Path(m.path)
        if not path.is_absolute():
            path = memory_dir / path
        kind = m.kind if m.kind in ("chronicle", "debt") else memory_kind(path)
        when = normalize_time(m.at) or _path_time(path) or fallback_time(path)
        line = m.line or 1
        layer = getattr(m, "layer", None) or ""
        out.setdefault(str(path), []).append(
            Entry(kind=kind, source=f"{path}:{line}", time=when, text=str(m.text).strip(),
                  context=f"{layer} {path.stem.replace('-', ' ')}".strip(), origin=str(path)))
    return out
