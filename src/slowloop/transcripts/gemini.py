"""Gemini CLI sessions: a JSON document ``{"sessionId", "messages": [...]}`` or its JSONL form
(a header line, one message per line, ``{"$set": …}`` updates).

Messages have a ``type``: ``user`` opens a turn; ``gemini``/``model`` carry the answer and its
``toolCalls`` (each with its own ``result`` and ``status``); ``info`` "Request cancelled." marks
the turn aborted; other types are skipped.
"""

from __future__ import annotations

from typing import Any

from .common import TurnBuilder, block_text
from .model import Turn


def _exit_code(output: str) -> int | None:
    i = output.find("Exit Code: ")
    if i < 0:
        return None
    digits = output[i + 11:i + 17].split("\\", 1)[0].split("\n", 1)[0].strip()
    return int(digits) if digits.lstrip("-").isdigit() else None


def _response(result: Any) -> tuple[str, bool]:
    """(output text, whether the response holds an error) of a toolCall's ``result``."""
    texts, err = [], False
    for part in result if isinstance(result, list) else [result]:
        if not isinstance(part, dict):
            continue
        fr = part.get("functionResponse", part)
        resp = fr.get("response") if isinstance(fr, dict) else None
        if isinstance(resp, dict):
            if "error" in resp:
                err = True
                texts.append(block_text(resp["error"]))
            elif "output" in resp:
                texts.append(block_text(resp["output"]))
    return "\n".join(t for t in texts if t), err


class GeminiAdapter:
    format = "gemini"

    def __init__(self, b: TurnBuilder) -> None:
        self.b = b

    def feed(self, msg: Any, line: int | None, start: int | None, end: int | None
             ) -> Turn | None:
        b = self.b
        if not isinstance(msg, dict):
            b.problem(line, f"expected a JSON object, found {type(msg).__name__}")
            return None
        kind = msg.get("type")
        at = msg.get("timestamp")
        at = at if isinstance(at, str) else None
        ended = None
        if kind is None:
            if isinstance(msg.get("sessionId"), str) and "messages" not in msg:  # JSONL header
                if b.session_id is None:
                    b.session_id = msg["sessionId"]
            b.skip()
        elif kind == "user":
            text = block_text(msg.get("content", msg.get("parts")))
            ended = b.start(text, line=line, byte_start=start, at=at)
        elif kind in ("gemini", "model") and b.draft is not None:
            b.text(block_text(msg.get("content", msg.get("parts"))), at=at)
            calls = msg.get("toolCalls")
            for call in calls if isinstance(calls, list) else ():
                if isinstance(call, dict):
                    self._call(call, at)
        elif kind == "info" and b.draft is not None and "cancel" in str(msg.get("content")).lower():
            b.abort(str(msg.get("content")))
        else:
            b.skip()
        b.touch(line, end, at)
        return ended

    def _call(self, call: dict[str, Any], at: str | None) -> None:
        b = self.b
        call_id = cid if isinstance(cid := call.get("id"), str) else None
        name = n if isinstance(n := call.get("name"), str) else "?"
        b.call(call_id, name, call.get("args"), at=call.get("timestamp") or at)
        if "result" not in call and "status" not in call:
            return  # still running
        output, resp_error = _response(call.get("result"))
        status = call.get("status")
        if not output and isinstance(call.get("error"), str):
            output = call["error"]
        code = _exit_code(output)
        is_error = status == "error" or resp_error or (code is not None and code != 0)
        b.result(call_id, output, name=name, is_error=is_error, exit_code=code,
                 rejected=status == "cancelled", at=call.get("timestamp") or at)

    def finish(self) -> Turn | None:
        return self.b.end(followed=False)
