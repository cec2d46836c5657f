"""Pure parsing of the Markdown role files: ``## `` sections of the state, dated chronicle entries.

No I/O here: ``files.Memory`` reads and writes, these functions only split and join text, so the
same code reads the root and every archived layer. The splitting itself (headings, code fences) is
:mod:`slowloop.markdown`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import markdown

# A chronicle entry starts at a level-2 heading that begins with a date, e.g. "## 2025-01-05T10:00:00Z"
# (what `memory note` writes) or "## 2025-01-05 deploy day" (what a person may write by hand).
ENTRY_DATE = re.compile(r"(?P<at>\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?)")


@dataclass(frozen=True)
class Section:
    title: str
    body: str
    line: int  # 1-based line of the heading


@dataclass(frozen=True)
class ChronicleEntry:
    at: str
    text: str  # the entry's body, plus any words after the date on its heading
    line: int


def split_sections(text: str) -> tuple[list[str], list[Section]]:
    """``(preamble_lines, sections)`` for a file of ``## Title`` sections (code blocks stay body)."""
    preamble, found = markdown.split_sections(text)
    return preamble, [Section(s.title, s.body, s.line) for s in found]


def join_sections(preamble: list[str], sections: list[Section]) -> str:
    lines = list(preamble)
    while lines and not lines[-1].strip():
        lines.pop()
    for s in sections:
        lines += ["", f"## {s.title}"] + ([s.body.strip("\n")] if s.body.strip() else [])
    return "\n".join(lines).strip("\n") + "\n"


def replace_section(text: str, title: str, body: str) -> str:
    """Replace the body of the section titled ``title`` (case-insensitive), or append it."""
    preamble, sections = split_sections(text)
    key = title.strip().casefold()
    for i, s in enumerate(sections):
        if s.title.strip().casefold() == key:
            sections[i] = Section(s.title, body, s.line)
            break
    else:
        sections.append(Section(title.strip(), body, 0))
    return join_sections(preamble, sections)


def is_entry_heading(title: str) -> bool:
    """Whether a ``##`` heading's title opens a chronicle entry (it starts with a date)."""
    return ENTRY_DATE.match(title) is not None


def chronicle_entries(text: str) -> tuple[list[str], list[ChronicleEntry]]:
    """``(preamble_lines, entries)``: everything under a dated ``##`` heading is one entry."""
    preamble, found = markdown.split_sections(text, starts=is_entry_heading)
    out = []
    for s in found:
        m = ENTRY_DATE.match(s.title)
        assert m is not None  # only dated headings open an entry
        title = s.title[m.end():].strip(" -—·:")
        out.append(ChronicleEntry(m.group("at").strip(),
                                  "\n".join(([title] if title else []) + list(s.lines)).strip("\n"),
                                  s.line))
    return preamble, out


def render_entry(at: str, text: str) -> str:
    """One chronicle entry as written by ``memory note``: a dated heading, then the text."""
    body = "\n".join(line.rstrip() for line in text.strip("\n").splitlines())
    return f"## {at}\n{body}\n"


def upsert_entry(text: str, marker: str, at: str, body: str) -> tuple[str, bool]:
    """``text`` with the entry whose heading ends in ``· {marker}`` replaced in place by a new one
    (``## {at} · {marker}`` and ``body``), or appended when there is none. Also says whether the
    text changed: the same entry written again leaves the file as it was."""
    heading_line = f"## {at} · {marker}"
    entry = render_entry(at + " · " + marker, body).rstrip("\n").split("\n")
    lines = text.splitlines()
    _pre, found = markdown.split_sections(text, starts=is_entry_heading)
    for i, s in enumerate(found):
        if s.title.endswith("· " + marker):
            end = found[i + 1].line - 1 if i + 1 < len(found) else len(lines)
            while end > s.line and not lines[end - 1].strip():
                end -= 1  # the blank lines before the next entry stay
            new = lines[:s.line - 1] + entry + lines[end:]
            out = "\n".join(new).rstrip("\n") + "\n"
            return out, out != (text if text.endswith("\n") else text + "\n")
    assert entry[0] == heading_line
    return text.rstrip("\n") + "\n\n" + "\n".join(entry) + "\n", True
