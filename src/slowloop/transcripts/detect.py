"""Which format a file holds, decided from its first meaningful records — never the whole file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from ..errors import DataError

Format = Literal["openai", "anthropic", "claude-code", "codex", "gemini"]
FORMATS: tuple[Format, ...] = ("openai", "anthropic", "claude-code", "codex", "gemini")
Layout = Literal["jsonl", "json"]

SUPPORTED = ("Claude Code session JSONL, Codex rollout JSONL, Gemini CLI session JSON/JSONL, "
             "OpenAI chat messages or Anthropic messages (a JSON array, an object with "
             "\"messages\", or one message per line)")

_SNIFF_LINES = 50
_SNIFF_BYTES = 16 * 1024 * 1024
_CODEX_TYPES = frozenset(("session_meta", "response_item", "event_msg", "turn_context",
                          "compacted"))
_RESPONSES_ITEMS = frozenset(("function_call", "function_call_output", "custom_tool_call",
                              "custom_tool_call_output", "local_shell_call", "reasoning",
                              "function_result", "tool_call", "tool_result", "web_search_call"))
_CLAUDE_TYPES = frozenset(("user", "assistant", "summary", "system", "attachment", "progress",
                           "file-history-snapshot", "queue-operation", "tool_use", "tool_result"))
_GEMINI_TYPES = frozenset(("user", "gemini", "model", "info", "error", "warning"))
_ANTHROPIC_BLOCKS = frozenset(("tool_use", "tool_result", "thinking", "redacted_thinking"))
_RESPONSES_BLOCKS = frozenset(("input_text", "output_text"))


def _block_types(content: Any) -> set[str]:
    if not isinstance(content, list):
        return set()
    return {t for c in content if isinstance(c, dict) and isinstance(t := c.get("type"), str)}


def classify_message(msg: Any) -> tuple[Format | None, bool]:
    """(format, decisive) for one chat message; plain ``{"role":"user","content":"hi"}`` is
    both OpenAI and Anthropic, so it is not decisive."""
    if not isinstance(msg, dict):
        return None, False
    if isinstance(msg.get("type"), str) and "role" not in msg and msg["type"] in _GEMINI_TYPES:
        return "gemini", True
    role = msg.get("role")
    if not isinstance(role, str):
        return None, False
    blocks = _block_types(msg.get("content"))
    if blocks & _ANTHROPIC_BLOCKS:
        return "anthropic", True
    if blocks & _RESPONSES_BLOCKS:
        return "codex", True
    if "tool_calls" in msg or "function_call" in msg or role in ("tool", "function", "developer"):
        return "openai", True
    return "openai", False


def classify_record(rec: Any) -> tuple[Format | None, bool]:
    """(format, decisive) for one JSONL record."""
    if not isinstance(rec, dict):
        return None, False
    kind = rec.get("type")
    if kind in _CODEX_TYPES and "payload" in rec:
        return "codex", True
    if kind in _CLAUDE_TYPES and ("message" in rec or "sessionId" in rec or "uuid" in rec
                                  or "leafUuid" in rec):
        return "claude-code", True
    if "projectHash" in rec or (kind in _GEMINI_TYPES and "message" not in rec
                                and "role" not in rec and ("content" in rec or "parts" in rec)):
        return "gemini", True
    if kind in _RESPONSES_ITEMS:
        return "codex", True
    return classify_message(rec)


def classify_messages(msgs: list[Any]) -> Format:
    guess: Format | None = None
    for msg in msgs[:200]:
        fmt, decisive = classify_message(msg)
        if decisive and fmt is not None:
            return fmt
        guess = guess or fmt
    return guess or "openai"


def classify_document(doc: Any) -> tuple[Format | None, list[Any] | None]:
    """(format, messages) of a whole JSON document, or (None, None) when it holds no transcript."""
    if isinstance(doc, list):
        if doc and not any(isinstance(m, dict) and ("role" in m or "type" in m) for m in doc[:50]):
            return None, None
        return classify_messages(doc), doc
    if isinstance(doc, dict) and isinstance(doc.get("messages"), list):
        msgs = doc["messages"]
        if "projectHash" in doc or any(isinstance(m, dict) and "role" not in m
                                       and m.get("type") in _GEMINI_TYPES for m in msgs[:50]):
            return "gemini", msgs
        if "system" in doc and not isinstance(doc.get("system"), dict):
            fmt = classify_messages(msgs)  # Anthropic keeps the system prompt beside messages
            return ("anthropic" if fmt == "openai" else fmt), msgs
        return classify_messages(msgs), msgs
    return None, None


def not_a_transcript(path: Path, why: str) -> DataError:
    return DataError(f"not a transcript ({why})", path=str(path),
                     hint=f"supported formats: {SUPPORTED}")


def sniff(path: Path) -> tuple[Format | None, Layout]:
    """Look at the head of ``path``: (format, layout). Format is None for an empty file.

    Raises DataError for anything that is not a transcript (binary, CSV, unrelated JSON).
    """
    with open(path, "rb") as f:
        head = f.read(8192)
        if not head.strip():
            return None, "jsonl"
        first = head.lstrip()[:1]
        if head.startswith(b"\xef\xbb\xbf"):
            first = head[3:].lstrip()[:1]
        if first not in (b"{", b"["):
            # A NUL inside a JSONL transcript (a line half-written before a crash) is one bad
            # line, reported and skipped; only a file that does not even start as JSON is binary.
            raise not_a_transcript(path, "binary content" if b"\x00" in head
                                   else "it does not start with JSON")
        f.seek(0)
        guess: Format | None = None
        parsed = first_failed = 0
        seen = 0
        for n, raw in enumerate(f):
            seen += len(raw)
            if n >= _SNIFF_LINES or seen > _SNIFF_BYTES:
                break
            try:
                rec = json.loads(raw)
            except (ValueError, RecursionError):
                if n == 0:
                    first_failed = 1
                continue
            parsed += 1
            if isinstance(rec, list) or (isinstance(rec, dict) and isinstance(rec.get("messages"),
                                                                              list)):
                if n == 0:  # a whole JSON document written on one line
                    return _document_format(path, rec), "json"
                continue
            fmt, decisive = classify_record(rec)
            if decisive and fmt is not None:
                return fmt, "jsonl"
            guess = guess or fmt
    if guess is not None:
        return guess, "jsonl"
    if first_failed:  # a pretty-printed JSON document
        try:
            with open(path, "rb") as f:
                doc = json.load(f)
        except (ValueError, RecursionError) as e:
            raise not_a_transcript(path, f"invalid JSON: {e}") from None
        return _document_format(path, doc), "json"
    raise not_a_transcript(path, "no chat message or session record in its first "
                                 f"{_SNIFF_LINES} lines" if parsed else "no JSON records")


def _document_format(path: Path, doc: Any) -> Format:
    fmt, _ = classify_document(doc)
    if fmt is None:
        raise not_a_transcript(path, "a JSON document without a list of messages")
    return fmt
