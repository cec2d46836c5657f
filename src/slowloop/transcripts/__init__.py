"""Real transcripts in, one normalized ``Turn`` out.

``iter_turns(path)`` detects the format from the first records and streams: a JSONL transcript is
read line by line (each line parsed once), and only the turn being built is held in memory.
Unknown records are skipped and counted; a malformed line becomes a ``ParseProblem`` with its line
number and is skipped. ``turns_from_messages`` does the same for message lists in memory.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal, Protocol, cast

from ..errors import DataError, UserError
from .anthropic import AnthropicAdapter
from .claude_code import ClaudeCodeAdapter
from .common import TurnBuilder
from .detect import FORMATS, SUPPORTED, Format, classify_document, classify_messages, sniff
from .model import ParseProblem, ParseReport, Step, ToolCall, ToolResult, Turn

__all__ = ["iter_turns", "turns_from_messages", "detect_format", "Turn", "Step", "ToolCall",
           "ToolResult", "ParseProblem", "ParseReport", "FORMATS"]


class _Adapter(Protocol):
    """Fed one record at a time; returns the turn that record ended, if any."""

    def feed(self, rec: Any, line: int | None, start: int | None, end: int | None
             ) -> Turn | None: ...

    def finish(self) -> Turn | None: ...


class _Splittable(_Adapter, Protocol):
    """An adapter that can read a file in pieces (see ``iter_turns``'s ``resync``)."""

    def opens_turn(self, rec: Any, prev: Any) -> bool: ...

    def cut(self, rec: Any) -> Turn | None: ...

    @staticmethod
    def session_of(rec: Any) -> str | None: ...


def _openai(b: TurnBuilder) -> _Adapter:
    from .openai import OpenAIAdapter

    return OpenAIAdapter(b)


def _codex(b: TurnBuilder) -> _Adapter:
    from .codex import CodexAdapter

    return CodexAdapter(b)


def _gemini(b: TurnBuilder) -> _Adapter:
    from .gemini import GeminiAdapter

    return GeminiAdapter(b)


# The formats not read on every start are imported when first read (every import is compiled anew
# where no bytecode cache is kept).
_ADAPTERS: dict[Format, Callable[[TurnBuilder], _Adapter]] = {
    "openai": _openai, "anthropic": AnthropicAdapter, "claude-code": ClaudeCodeAdapter,
    "codex": _codex, "gemini": _gemini}
MessageFormat = Literal["openai", "anthropic"]
# Formats whose files can be read in pieces by several workers (their adapter is _Splittable).
SPLITTABLE: frozenset[str] = frozenset({"claude-code", "codex"})


def detect_format(path: str | Path) -> Format | None:
    """The format of a transcript file (None when it is empty); DataError when it is none."""
    return sniff(Path(path))[0]


def _check_format(fmt: str | None) -> Format | None:
    """``fmt`` as a known format (``None``: detect it); UserError for any other name."""
    if fmt is None:
        return None
    for known in _ADAPTERS:
        if known == fmt:
            return known
    raise UserError(f"unknown transcript format {fmt!r}",
                    hint=f"use one of: {', '.join(FORMATS)}")


def message_format(fmt: str | None) -> MessageFormat | None:
    """``fmt`` as the format of a message list (``None``: detect it); UserError for any other."""
    if fmt is None:
        return None
    if fmt == "openai":
        return "openai"
    if fmt == "anthropic":
        return "anthropic"
    raise UserError(f"unknown message format {fmt!r}", hint="use 'openai' or 'anthropic'")


def _count_lines(path: Path, offset: int) -> int:
    """Line number of the line starting at ``offset`` (a cheap newline count of the prefix)."""
    lines, left = 1, offset
    with open(path, "rb") as f:
        while left > 0:
            chunk = f.read(min(left, 1 << 20))
            if not chunk:
                break
            lines += chunk.count(b"\n")
            left -= len(chunk)
    return lines


def _header_session_id(path: Path) -> str | None:
    """Codex and Gemini name the session only in a header record; a resumed read still needs it."""
    return _header(path)[0]


def _header(path: Path) -> tuple[str | None, bool]:
    """(session id, whether a person typed its prompts) from a Codex or Gemini header record: a
    read that starts mid-file (a hook resuming, a worker's piece) never sees it otherwise."""
    from .codex import is_subagent_source

    with open(path, "rb") as f:
        for k in range(5):
            raw = f.readline()
            if not raw:
                break
            try:
                rec = json.loads(raw)
            except (ValueError, RecursionError):
                continue
            if not isinstance(rec, dict):
                continue
            p = rec.get("payload")
            if rec.get("type") == "session_meta" and isinstance(p, dict):
                sid = p.get("id") or p.get("session_id")
                # only the file's first line is its own header (the adapter reads it so too)
                return (sid if isinstance(sid, str) else None), not (k == 0 and is_subagent_source(p.get("source")))
            if "type" not in rec and isinstance(rec.get("sessionId"), str):
                return rec["sessionId"], True
    return None, True


def iter_turns(path: str | Path, *, report: ParseReport | None = None, start_offset: int = 0,
               format: str | None = None, start_line: int | None = None,
               start_index: int = 0, resync: bool = False,
               stop_offset: int | None = None, end_offset: int | None = None) -> Iterator[Turn]:
    """Stream the turns of a transcript file.

    ``start_offset`` resumes a growing file at a turn boundary (a ``Turn.byte_start``); pass the
    same turn's ``line_start`` and ``index`` as ``start_line``/``start_index`` to get line numbers
    and indexes identical to a full read (``start_line`` is counted from the file when omitted).

    A piece of a file read by one of several workers (``SPLITTABLE`` formats only): ``resync``
    starts at the first record at or after ``start_offset`` that opens a turn whatever came
    before it (a prompt the person typed: the adapter's ``opens_turn``, which may also look at
    the record on the line before; a piece that starts mid-file reads back to that line),
    skipping the lines before it (the previous piece reads them); ``stop_offset`` ends at the first such record at
    or after it (where the next piece starts), ending the open turn as that record would. Pieces
    cut at the same offsets together yield exactly the turns, problems and counts of one read of
    the whole file, except that each piece's turn indexes count from ``start_index``.
    ``end_offset``: read the file as it was when it had that many bytes (all pieces of a file
    that is still being written read the same snapshot; a line cut there is a truncated line).
    """
    p = Path(path)
    forced = _check_format(format)
    if not p.is_file():
        raise UserError(f"no such transcript file: {p}", hint="check the path")
    report = report if report is not None else ParseReport()
    fmt, layout = sniff(p)
    if forced is not None:
        fmt = forced
    if fmt is None:
        return
    b = TurnBuilder(str(p), fmt, start_index=start_index, report=report)
    adapter: _Adapter = _ADAPTERS[fmt](b)
    if layout == "json":
        if start_offset:
            raise UserError(f"{p}: start_offset only applies to line-oriented (JSONL) transcripts")
        yield from _document(p, fmt, b, adapter, report)
        return
    piece: _Splittable | None = None
    if resync or stop_offset is not None:
        if fmt not in SPLITTABLE:
            raise UserError(f"{p}: a {fmt} transcript cannot be read in pieces",
                            hint=f"only {', '.join(sorted(SPLITTABLE))} files can")
        piece = cast(_Splittable, adapter)
    syncing = resync and start_offset > 0
    if syncing:
        assert piece is not None
        b.session_id = _first_session_id(p, start_offset, piece)
    elif start_offset and fmt in ("codex", "gemini"):
        b.session_id = _header_session_id(p)
    if start_offset and fmt == "codex":
        b.person = _header(p)[1]  # a sub-agent's rollout, read from the middle, is still one
    line = (start_line if start_line is not None
            else _count_lines(p, start_offset) if start_offset else 1) - 1
    first_line = line
    offset = first_offset = start_offset
    stop = stop_offset if stop_offset is not None else sys.maxsize
    limit = end_offset if end_offset is not None else sys.maxsize
    parse = _parse_line
    feed = adapter.feed
    # the record on the last line before that was not blank (None: none, or not JSON)
    prev: Any = _record_before(p, start_offset) if syncing else None
    with open(p, "rb") as f:
        if start_offset:
            f.seek(start_offset)
        for raw in f:
            start = offset
            if start >= limit:
                break
            line += 1
            offset += len(raw)
            if offset > limit:  # the snapshot ends inside this line
                raw, offset = raw[:limit - start], limit
            try:
                rec = parse(raw)
            except _Blank:
                continue
            except ValueError as e:  # JSONDecodeError, UnicodeDecodeError, extra data
                if not syncing:  # a line before this piece's first turn is the last piece's
                    _bad_line(b, line, raw, f"invalid JSON: {e}")
                prev = None
                continue
            if syncing or start >= stop:
                assert piece is not None
                opens, prev = piece.opens_turn(rec, prev), rec
                if not opens:
                    if syncing:
                        if b.session_id is None:  # what feeding it would have noted
                            b.session_id = piece.session_of(rec)
                        continue
                elif syncing:  # this piece's first turn, unless it is already the next's
                    if start >= stop:
                        return
                    syncing = False
                    first_line, first_offset = line - 1, start
                else:  # the next piece's first turn: this piece ends here
                    report.lines += line - 1 - first_line
                    report.bytes += start - first_offset
                    last = piece.cut(rec)
                    if last is not None:
                        yield last
                    return
            else:
                prev = rec
            ended = feed(rec, line, start, offset)
            if ended is not None:
                yield ended
    if syncing:  # no turn starts in this piece: the previous piece read all of it
        return
    report.lines += line - first_line
    report.bytes += offset - first_offset
    last = adapter.finish()
    if last is not None:
        yield last


def split_points(path: str | Path, piece_bytes: int, size: int | None = None
                 ) -> Iterator[tuple[int, int]]:
    """Where to cut a JSONL file into pieces of about ``piece_bytes`` for ``iter_turns``'s
    ``resync``/``stop_offset``: ``(byte offset, line number)`` of each piece's first line, the
    first being ``(0, 1)``; a piece ends where the next begins. One pass counting newlines,
    yielding as it goes (the first pieces are read while it finds the next). ``size``: the bytes
    to cut (the file's size when the ingest began; default its size now)."""
    if piece_bytes < 1:
        raise ValueError(f"piece_bytes must be at least 1, not {piece_bytes}")
    yield 0, 1
    if size is None:
        size = os.path.getsize(path)
    target = piece_bytes
    pos, lines = 0, 1
    with open(path, "rb") as f:
        while target < size:
            block = f.read(1 << 20)
            if not block:
                break
            while target < pos + len(block):
                i = block.find(b"\n", max(0, target - pos - 1))
                if i < 0:
                    break
                cut = pos + i + 1
                if cut >= size:
                    target = size
                    break
                yield cut, lines + block.count(b"\n", 0, i + 1)
                target = cut + piece_bytes
            lines += block.count(b"\n")
            pos += len(block)


def _record_before(p: Path, offset: int) -> Any:
    """The record of the last line before ``offset`` that is not blank (None when there is none
    or it is not JSON): what a reader of the whole file saw just before reaching ``offset``."""
    with open(p, "rb") as f:
        end = offset
        while end > 0:
            # the line ending at ``end`` (exclusive) starts after the newline before it
            start = end - 1
            block = 1 << 16
            while True:
                lo = max(0, start - block)
                f.seek(lo)
                chunk = f.read(start - lo)
                i = chunk.rfind(b"\n")
                if i >= 0:
                    start = lo + i + 1
                    break
                if lo == 0:
                    start = 0
                    break
                start, block = lo, block * 2
            f.seek(start)
            try:
                return _parse_line(f.read(end - start))
            except _Blank:
                end = start
            except ValueError:
                return None
    return None


def _first_session_id(p: Path, before: int, adapter: _Splittable) -> str | None:
    """The session id a read of the whole file would hold on reaching ``before``: the first one
    a record before it names (usually the first line's)."""
    with open(p, "rb") as f:
        offset = 0
        for raw in f:
            if offset >= before:
                break
            offset += len(raw)
            try:
                rec = _parse_line(raw)
            except (_Blank, ValueError):
                continue
            sid = adapter.session_of(rec)
            if sid is not None:
                return sid
    return None


# typeshed's JSONDecoder leaves out ``scan_once``, the scanner its __init__ sets on every instance.
_SCANNER: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


class _Blank(Exception):
    """A line with nothing on it (skipped without a word)."""


def _parse_line(raw: bytes) -> Any:
    """The record on one line, exactly as ``iter_turns`` reads it: the JSON value at its start
    with nothing but whitespace after it, else (an indented line, a BOM) the line stripped.
    Raises ``_Blank`` for a blank line, ValueError for anything that is not one JSON value."""
    text = raw.decode("utf-8")
    try:
        rec, end = _SCANNER(text, 0)  # the C scanner json.loads uses, minus its per-call overhead
    except StopIteration:  # no JSON value at column 1: blank, indented, BOM, or junk
        if not raw.strip():
            raise _Blank from None
        try:
            return _loads_lenient(raw)
        except RecursionError:
            raise ValueError("the record nests deeper than JSON can be read here; skipped") from None
    except RecursionError:
        # a record nested ~1,000 deep (an MCP tool's result): that record is lost, never the read,
        # the hook, or the turns after it
        raise ValueError("the record nests deeper than JSON can be read here; skipped") from None
    if end != len(text) and text[end:].strip():
        raise ValueError(f"extra data after the record at column {end + 1}")
    return rec


def _loads_lenient(raw: bytes) -> Any:
    return json.loads(raw.decode("utf-8").lstrip("\ufeff \t\r"))


def _bad_line(b: TurnBuilder, line: int, raw: bytes, message: str) -> None:
    if raw.endswith(b"\n"):
        b.problem(line, message)
    else:
        b.problem(line, f"truncated last line (the file may still be being written): {message}")


def _document(p: Path, fmt: str, b: TurnBuilder, adapter: _Adapter,
              report: ParseReport) -> Iterator[Turn]:
    with open(p, "rb") as f:
        data = f.read()
    report.bytes += len(data)
    report.lines += data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    try:
        doc = json.loads(data)
    except ValueError:  # a one-line document followed by more lines: the first line is the doc
        doc = json.loads(data.split(b"\n", 1)[0])
    except RecursionError:
        raise DataError("the document nests deeper than JSON can be read here", path=str(p),
                        hint="nothing of it is recorded; the other files are") from None
    del data
    _, msgs = classify_document(doc)
    if msgs is None:
        raise DataError("not a transcript (a JSON document without a list of messages)",
                        path=str(p), hint=f"supported formats: {SUPPORTED}")
    if isinstance(doc, dict) and isinstance(doc.get("sessionId"), str):
        b.session_id = doc["sessionId"]
    for msg in msgs:
        ended = adapter.feed(msg, None, None, None)
        if ended is not None:
            yield ended
    last = adapter.finish()
    if last is not None:
        yield last


def turns_from_messages(messages: list[dict[str, Any]], *,
                        format: MessageFormat | None = None,
                        source: str = "<memory>") -> list[Turn]:
    """Turns of a message list handed over by a library caller (OpenAI or Anthropic shape).

    Malformed messages raise DataError naming the message's position.
    """
    if not isinstance(messages, list):
        raise UserError(f"messages must be a list of dicts, got {type(messages).__name__}")
    fmt: Format = message_format(format) or classify_messages(messages)
    if fmt not in ("openai", "anthropic"):
        fmt = "openai"  # Responses-style parts ({"type": "input_text", "text"}) read as OpenAI
    report = ParseReport()
    b = TurnBuilder(source, fmt, report=report)
    adapter: _Adapter = _ADAPTERS[fmt](b)
    turns: list[Turn] = []
    for i, msg in enumerate(messages):
        ended = adapter.feed(msg, i + 1, None, None)
        if ended is not None:
            turns.append(ended)
    last = adapter.finish()
    if last is not None:
        turns.append(last)
    if report.problems:
        first = report.problems[0]
        raise DataError(f"message {first.line - 1} (0-based): {first.message}", path=source)
    # positions in a list are not file lines
    return [t if t.line_start is None else _without_lines(t) for t in turns]


def _without_lines(t: Turn) -> Turn:
    from dataclasses import replace

    return replace(t, line_start=None, line_end=None)
