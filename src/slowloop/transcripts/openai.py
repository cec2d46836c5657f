"""OpenAI chat messages: ``{"role", "content"}``, assistant ``tool_calls``, ``role: tool`` results.

The legacy ``function_call`` / ``role: function`` pair is read too. The format has no error flag
for a tool result, so ``is_error`` stays None and observation judges the output's words.
"""

from __future__ import annotations

from typing import Any

from .common import TurnBuilder, block_text, parse_args
from .model import Turn


class OpenAIAdapter:
    format = "openai"

    def __init__(self, b: TurnBuilder) -> None:
        self.b = b

    def feed(self, msg: Any, line: int | None, start: int | None, end: int | None
             ) -> Turn | None:
        b = self.b
        if not isinstance(msg, dict) or not isinstance(msg.get("role"), str):
            b.problem(line, "not an OpenAI chat message (expected an object with 'role')")
            return None
        role, content = msg["role"], msg.get("content")
        if content is not None and not isinstance(content, (str, list)):
            b.problem(line, f"message 'content' is {type(content).__name__}, expected text or parts")
            return None
        ended = None
        if role == "user":
            ended = b.start(block_text(content), line=line, byte_start=start)
        elif role == "assistant":
            if b.draft is None:  # an answer with no question before it (a prefilled history)
                b.start("", line=line, byte_start=start)
            b.text(block_text(content))
            calls = msg.get("tool_calls")
            for call in calls if isinstance(calls, list) else ():
                if not isinstance(call, dict):
                    b.problem(line, "a 'tool_calls' entry is not an object")
                    continue
                fn = f if isinstance(f := call.get("function"), dict) else {}
                name = n if isinstance(n := fn.get("name"), str) else "?"
                b.call(call.get("id"), name, parse_args(fn.get("arguments")))
            legacy = msg.get("function_call")
            if isinstance(legacy, dict):
                name = n if isinstance(n := legacy.get("name"), str) else "?"
                b.call(None, name, parse_args(legacy.get("arguments")))
        elif role in ("tool", "function"):
            b.result(msg.get("tool_call_id"), block_text(content),
                     name=n if isinstance(n := msg.get("name"), str) else None)
        else:  # system / developer prompts
            b.skip()
        b.touch(line, end)
        return ended

    def finish(self) -> Turn | None:
        return self.b.end(followed=False)
