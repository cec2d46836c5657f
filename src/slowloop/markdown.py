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
