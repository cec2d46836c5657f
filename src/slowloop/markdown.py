"""The Markdown structure slowloop reads: fenced code blocks and ``#`` headings, in one place.

Every file a person edits (the memo, the memory's state and chronicle, notes indexed for recall)
is split into sections by its headings. A line inside a fenced code block is never a heading —
``## comment`` in a bash block is code, not a new section — so the splitter has to know fences,
and there is exactly one that does: this module. The rules follow CommonMark where they matter
here: a fence is three or more backticks or tildes indented at most three spaces, closed by a run
of the same character at least as long; a fence never closed runs to the end of the file; a
heading is ``#``…``######`` at the start of a line followed by a space (an optional closing run of
``#`` preceded by a space is not part of the title).

Chat messages are not documents: a person pastes a fence mid-line ("run ```make``` again") or
never closes it. :func:`strip_fenced` removes fenced material from such text with a looser rule
(any run of three backticks or tildes opens and closes, anywhere on a line); it is the one place
that rule lives, used wherever a person's own words are separated from what they pasted.
:func:`unwrap_fenced` is the other way round: it keeps the inside of a model's answer that came
wrapped whole in one fence.

Pure functions over text: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

_FENCE_OPEN = re.compile(r"^ {0,3}(?P<run>`{3,}|~{3,})(?P<info>.*)$")
_WRAPPER = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n(.*?)\n?```\s*$", re.S)
_LOOSE_FENCE = re.compile(r"(?:```|~~~)[\s\S]*?(?:```|~~~|\Z)")
_HEADING = re.compile(r"^(?P<marks>#{1,6})[ \t]+(?P<title>.*?)(?:[ \t]+#+)?[ \t]*$")


@dataclass(frozen=True)
class Section:
    """One heading and the lines under it, up to the next heading that starts a section."""

    title: str
    line: int  # 1-based line of the heading
    lines: tuple[str, ...]  # the body, verbatim (code blocks included)

    @property
    def body(self) -> str:
        return "\n".join(self.lines).strip("\n")


def code_lines(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """``(line, in_code)`` for each line; fence delimiters count as code."""
    fence: str | None = None  # the opening run while inside a fence
    for line in lines:
        if fence is None:
            m = _FENCE_OPEN.match(line)
            # An info string after backticks may not contain a backtick (```x``` is inline code).
            if m and not (m.group("run")[0] == "`" and "`" in m.group("info")):
                fence = m.group("run")
                yield line, True
                continue
            yield line, False
        else:
            stripped = line.strip()
            if (len(line) - len(line.lstrip(" ")) <= 3 and stripped
                    and set(stripped) == {fence[0]} and len(stripped) >= len(fence)):
                fence = None
            yield line, True


def heading(line: str) -> tuple[int, str] | None:
    """``(level, title)`` when ``line`` is an ATX heading with a title, else None.

    Does not know about fences: use :func:`headings` or :func:`split_sections` on whole text.
    """
    m = _HEADING.match(line)
    if m is None or not m.group("title").strip():
        return None
    return len(m.group("marks")), m.group("title").strip()


def headings(text: str) -> Iterator[tuple[int, int, str]]:
    """``(line_no, level, title)`` for every heading outside code blocks."""
    for no, (line, in_code) in enumerate(code_lines(text.splitlines()), start=1):
        if not in_code and (h := heading(line)) is not None:
            yield no, h[0], h[1]


def split_sections(text: str, *, level: int = 2,
                   starts: Callable[[str], bool] | None = None) -> tuple[list[str], list[Section]]:
    """``(preamble_lines, sections)``: the text split at its level-``level`` headings.

    Headings of other levels, and lines inside code blocks, stay in the body of the section they
    are in. ``starts(title)`` narrows which headings open a section (the chronicle opens one only
    at a dated heading); a heading it refuses is body too.
    """
    preamble: list[str] = []
    found: list[tuple[str, int, list[str]]] = []
    for no, (line, in_code) in enumerate(code_lines(text.splitlines()), start=1):
        h = None if in_code else heading(line)
        if h is not None and h[0] == level and (starts is None or starts(h[1])):
            found.append((h[1], no, []))
        elif found:
            found[-1][2].append(line)
        else:
            preamble.append(line)
    return preamble, [Section(t, no, tuple(body)) for t, no, body in found]


def strip_fenced(text: str, replacement: str = "\n") -> str:
    """``text`` with each fenced block of a chat message (delimiters included) replaced by
    ``replacement``; an unclosed fence runs to the end. See the module docstring for the rule."""
    return _LOOSE_FENCE.sub(replacement, text)


def unwrap_fenced(text: str) -> str:
    """``text`` stripped, or the inside of the one fenced block it entirely is (models wrap an
    answer in a fence even when told not to)."""
    m = _WRAPPER.match(text)
    return m.group(1).strip() if m else text.strip()


def _bullets(text: str) -> dict[str, list[str]]:
    """section title → its ``- `` bullets (outside code), for a list merged entry by entry."""
    _pre, sections = split_sections(text)
    out: dict[str, list[str]] = {}
    for sec in sections:
        out[sec.title] = [ln.strip()[2:].strip() for ln, in_code in code_lines(sec.lines)
                          if not in_code and ln.strip()[:2] in ("- ", "* ", "+ ")]
    return out


def undo_bullets(before: str, after: str, now: str) -> str | None:
    """Take back, in ``now``, the bullets one change made (``before`` → ``after``), keeping every
    bullet that came after it: the ones it added go, the ones it removed come back at the end of
    their section. None when there is nothing to take back or a section it touched is gone."""
    b, a = _bullets(before), _bullets(after)
    added = {t: [e for e in a.get(t, []) if e not in b.get(t, [])] for t in a}
    removed = {t: [e for e in b.get(t, []) if e not in a.get(t, [])] for t in b}
    if not any(added.values()) and not any(removed.values()):
        return None
    lines = now.splitlines()
    _pre, sections = split_sections(now)
    titles = {s.title for s in sections}
    if any(t not in titles for t, es in list(added.items()) + list(removed.items()) if es):
        return None
    out: list[str] = []
    current: str | None = None
    last_bullet: dict[str, int] = {}
    for ln, in_code in code_lines(lines):
        h = None if in_code else heading(ln)
        if h is not None and h[0] == 2:
            current = h[1]
        elif current is not None and not in_code and ln.strip()[:2] in ("- ", "* ", "+ ") \
                and ln.strip()[2:].strip() in added.get(current, []):
            continue  # a bullet the change added: taken back
        out.append(ln)
        if current is not None and not in_code and ln.strip()[:2] in ("- ", "* ", "+ "):
            last_bullet[current] = len(out)
    for title, entries in removed.items():
        back = [f"- {e}" for e in entries if e not in _bullets("\n".join(out)).get(title, [])]
        if not back:
            continue
        at = last_bullet.get(title)
        if at is None:  # the section has no bullet left: right under its heading
            at = next(i + 1 for i, ln in enumerate(out) if (heading(ln) or (0, ""))[1] == title)
        out[at:at] = back
        for t, i in last_bullet.items():
            if i >= at:
                last_bullet[t] = i + len(back)
    text = "\n".join(out).rstrip("\n") + "\n"
    return None if text == now else text


@dataclass(frozen=True)
class Frontmatter:
    """A Markdown file split at its YAML frontmatter (``---`` … ``---`` or ``...``)."""

    opened: bool  # the first line (after a BOM) is '---'
    text: str | None  # the YAML between the lines; None when there is none or it is never closed
    head: str  # the file up to the body, delimiters included ("" when there is no frontmatter)
    body: str
    body_line: int  # the 1-based line the body starts on


def _delimiter(line: str, closing: bool) -> bool:
    s = line.rstrip("\r\n").rstrip()
    return s == "---" or (closing and s == "...")


def split_frontmatter(text: str) -> Frontmatter:
    """The one frontmatter splitter for every Markdown file slowloop reads (skills, memory,
    search, sync, lint): a BOM is skipped, CRLF and trailing blanks are tolerated, ``----`` is a
    rule and not a delimiter, ``...`` closes too (YAML's end of document)."""
    src = text[1:] if text.startswith("\ufeff") else text
    lines = src.splitlines(keepends=True)
    if not lines or not _delimiter(lines[0], closing=False):
        return Frontmatter(False, None, "", text, 1)
    for i in range(1, len(lines)):
        if _delimiter(lines[i], closing=True):
            return Frontmatter(True, "".join(lines[1:i]), "".join(lines[:i + 1]), "".join(lines[i + 1:]), i + 2)
    return Frontmatter(True, None, "", text, 1)
