"""Anthropic Messages: ``{"role", "content": str | blocks}`` with ``tool_use``/``tool_result``.

The block handling here is shared with Claude Code, whose session records wrap the same messages.
"""

from __future__ import annotations

from typing import Any

from .common import TurnBuilder, block_text
from .model import Turn

INTERRUPT = "[Request interrupted by user"
# Claude Code's words when the user refuses a tool use ("…the user said:\n<reason>" keeps the
# reason in the output) or interrupts while it runs.
REJECTED = ("The user doesn't want to proceed with this tool use",
            "The user doesn't want to take this action right now")
# What Claude Code records beside a refusal (``toolUseResult``). A tool that ran records its own
# result there (``{"stdout": …}``, a file, ``"Error: Exit code 1…"``): its output may *say* the
# user refused, but it is the tool's text, and the person's words are never taken from it.
HARNESS_REFUSALS = ("User rejected tool use", "The user doesn't want", "Error: The user doesn't want")


def refusal_reason(output: str) -> str:
    """The person's words given with a refusal of a tool use: only after the harness's own template
    (the adapter has already checked that the result *is* the harness's refusal). The format's own
    knowledge, here, for everyone who reads a refused call (observation, the learner, the gate)."""
    if not output.startswith(REJECTED):
        return ""
    marker = "the user said:"
    low = output.lower()
    i = low.find(marker)
    return output[i + len(marker):].strip() if i >= 0 else ""


def refusal_by_harness(output: str, is_error: bool, tool_use_result: object = None, *,
                       recorded: bool = False, denied: bool = False) -> bool:
    """Whether a tool result is the harness refusing the call (the tool never ran).

    Text alone proves nothing: ``cat README.md`` or a web page can start with the refusal
    template. A refusal is an error result starting with the template and, where the format
    records the tool's own result (``recorded``), that record must be the harness's refusal too.
    """
    if denied:
        return True
    if not is_error or not output.startswith(REJECTED):
        return False
    if not recorded:
        return True
    return isinstance(tool_use_result, str) and tool_use_result.startswith(HARNESS_REFUSALS)


def exit_code_of(output: str) -> int | None:
    """Claude Code prefixes a failed Bash result with ``Exit code N``."""
    if output.startswith("Exit code "):
        digits = output[10:16].split("\n", 1)[0].strip()
        if digits.lstrip("-").isdigit():
            return int(digits)
    return None


def assistant_blocks(b: TurnBuilder, content: Any, *, at: str | None = None,
                     sidechain: bool = False) -> None:
    if isinstance(content, str):
        b.text(content, at=at, sidechain=sidechain)
        return
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str):
                b.text(text, at=at, sidechain=sidechain)
        elif kind in ("tool_use", "server_tool_use"):
            name = block.get("name")
            b.call(block.get("id"), name if isinstance(name, str) else "?", block.get("input"),
                   at=at, sidechain=sidechain)
        # thinking, redacted_thinking, images, unknown blocks: not steps


def tool_result_block(b: TurnBuilder, block: dict[str, Any], *, at: str | None = None,
                      sidechain: bool = False, fallback_error: bool | None = None,
                      call_id: str | None = None, denied: bool = False,
                      tool_use_result: object = None, recorded: bool = False) -> None:
    output = block_text(block.get("content"))
    if not output and isinstance(block.get("text"), str):
        output = block["text"]
    flag = block.get("is_error")
    is_error = bool(flag) if isinstance(flag, bool) else bool(fallback_error)
    interrupted = is_error and output.startswith(INTERRUPT) and not isinstance(tool_use_result, dict)
    rejected = interrupted or refusal_by_harness(output, is_error, tool_use_result,
                                                 recorded=recorded, denied=denied)
    if interrupted:
        b.abort(output.split("\n", 1)[0])
    b.result(block.get("tool_use_id") or call_id, output, is_error=is_error,
             exit_code=exit_code_of(output) if is_error else None, rejected=rejected, at=at,
             sidechain=sidechain)


def user_text_of(content: Any) -> str:
    """Real text the user typed: string content or text blocks (images are left out)."""
    if isinstance(content, str):
        return content
    return block_text([c for c in content if isinstance(c, dict) and c.get("type") == "text"])


class AnthropicAdapter:
    format = "anthropic"

    def __init__(self, b: TurnBuilder) -> None:
        self.b = b

    def feed(self, msg: Any, line: int | None, start: int | None, end: int | None
             ) -> Turn | None:
        b = self.b
        if not isinstance(msg, dict) or "role" not in msg:
            b.problem(line, "not an Anthropic message (expected an object with 'role')")
            return None
        role, content = msg.get("role"), msg.get("content")
        if not isinstance(content, (str, list)):
            b.problem(line, f"message 'content' is {type(content).__name__}, expected text or blocks")
            return None
        if role == "user":
            if isinstance(content, list) and any(isinstance(c, dict) and c.get("type") == "tool_result"
                                                 for c in content):
                for c in content:
                    if isinstance(c, dict) and c.get("type") == "tool_result":
                        tool_result_block(b, c)
                b.touch(line, end)
                return None
            text = user_text_of(content)
            if text.startswith(INTERRUPT):
                b.abort(text.strip())
                b.touch(line, end)
                return None
            ended = b.start(text, line=line, byte_start=start)
            b.touch(line, end)
            return ended
        if role == "assistant":
            if b.draft is None:  # an answer with no question before it (a prefilled history)
                b.start("", line=line, byte_start=start)
            assistant_blocks(b, content)
            b.touch(line, end)
        else:
            b.skip()
        return None

    def finish(self) -> Turn | None:
        return self.b.end(followed=False)
