"""A scripted model server on 127.0.0.1 for driving the real Claude Code and Codex CLIs offline.

It speaks the two wire protocols those clients use — Anthropic Messages (``POST /v1/messages``,
streamed as server-sent events or not) and OpenAI Responses (``POST /v1/responses``, streamed) —
and answers with whatever a *policy* decides from the request: a text, or one tool call. Every
request body is kept (``requests``), so a test can read exactly what the model was sent: the system
prompt, the context a SessionStart hook added, the conversation.

Nothing here knows slowloop; it stands in for the vendor's API and nothing else.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """What the scripted model says: ``text``, or a call of ``tool`` with ``args``."""

    text: str = ""
    tool: str | None = None
    args: dict[str, Any] = field(default_factory=dict)


Policy = Callable[[str, dict[str, Any]], Reply]  # (api: "anthropic" | "openai", request) -> Reply


@dataclass
class Seen:
    api: str
    path: str
    body: dict[str, Any]

    def text(self) -> str:
        """Everything the request carried as one string (instructions, system, messages, input)."""
        return json.dumps(self.body, ensure_ascii=False)


def _sse(handler: BaseHTTPRequestHandler, events: list[tuple[str, dict]]) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.send_header("Connection", "close")
    handler.end_headers()
    for name, data in events:
        handler.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
    handler.wfile.flush()
    handler.close_connection = True


def _json(handler: BaseHTTPRequestHandler, status: int, data: dict) -> None:
    raw = json.dumps(data).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(raw)))
    handler.end_headers()
    handler.wfile.write(raw)


def anthropic_events(reply: Reply, model: str) -> list[tuple[str, dict]]:
    mid = "msg_" + uuid.uuid4().hex[:20]
    usage = {"input_tokens": 10, "output_tokens": 0, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 0}
    ev: list[tuple[str, dict]] = [("message_start", {"type": "message_start", "message": {
        "id": mid, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": usage}})]
    if reply.tool:
        tid = "toolu_" + uuid.uuid4().hex[:20]
        ev += [("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
                   "type": "tool_use", "id": tid, "name": reply.tool, "input": {}}}),
               ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                   "type": "input_json_delta", "partial_json": json.dumps(reply.args)}}),
               ("content_block_stop", {"type": "content_block_stop", "index": 0})]
        stop = "tool_use"
    else:
        ev += [("content_block_start", {"type": "content_block_start", "index": 0,
                                        "content_block": {"type": "text", "text": ""}}),
               ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                        "delta": {"type": "text_delta", "text": reply.text}}),
               ("content_block_stop", {"type": "content_block_stop", "index": 0})]
        stop = "end_turn"
    ev += [("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                              "usage": {"output_tokens": 5}}),
           ("message_stop", {"type": "message_stop"})]
    return ev


def anthropic_message(reply: Reply, model: str) -> dict:
    if reply.tool:
        content = [{"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:20], "name": reply.tool,
                    "input": reply.args}]
    else:
        content = [{"type": "text", "text": reply.text}]
    return {"id": "msg_" + uuid.uuid4().hex[:20], "type": "message", "role": "assistant", "model": model,
            "content": content, "stop_reason": "tool_use" if reply.tool else "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5}}


def responses_events(reply: Reply, model: str) -> list[tuple[str, dict]]:
    rid = "resp_" + uuid.uuid4().hex[:20]
    base = {"id": rid, "object": "response", "model": model, "status": "in_progress", "output": []}
    ev: list[tuple[str, dict]] = [("response.created", {"type": "response.created", "response": base})]
    if reply.tool:
        item = {"type": "function_call", "id": "fc_" + uuid.uuid4().hex[:16], "status": "completed",
                "call_id": "call_" + uuid.uuid4().hex[:16], "name": reply.tool,
                "arguments": json.dumps(reply.args)}
    else:
        item = {"type": "message", "id": "msg_" + uuid.uuid4().hex[:16], "status": "completed",
                "role": "assistant", "content": [{"type": "output_text", "text": reply.text,
                                                  "annotations": []}]}
        ev.append(("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                                  "item": {**item, "status": "in_progress", "content": []}}))
        ev.append(("response.output_text.delta", {"type": "response.output_text.delta", "output_index": 0,
                                                  "item_id": item["id"], "content_index": 0,
                                                  "delta": reply.text}))
    ev.append(("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                             "item": item}))
    done = {**base, "status": "completed", "output": [item],
            "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                      "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}}
    ev.append(("response.completed", {"type": "response.completed", "response": done}))
    return ev


class ScriptedModel:
    """``with ScriptedModel(policy) as srv:`` → ``srv.url`` (``http://127.0.0.1:PORT``)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.requests: list[Seen] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_a: Any) -> None:  # quiet
                pass

            def handle(self) -> None:
                try:
                    super().handle()
                except (ConnectionError, TimeoutError):
                    pass  # a client that hangs up between requests

            def do_HEAD(self) -> None:
                _json(self, 200, {})

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    _json(self, 200, {"object": "list", "data": [{"id": "scripted", "object": "model"}],
                                      "models": []})
                    return
                _json(self, 404, {"error": {"type": "not_found", "message": self.path}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                path = self.path.split("?")[0]
                if path.endswith("/messages/count_tokens"):
                    _json(self, 200, {"input_tokens": 100})
                    return
                if path.endswith("/messages"):
                    api = "anthropic"
                elif path.endswith("/responses"):
                    api = "openai"
                else:
                    _json(self, 404, {"error": {"type": "not_found", "message": path}})
                    return
                with outer._lock:
                    outer.requests.append(Seen(api, path, body))
                reply = outer.policy(api, body)
                model = str(body.get("model") or "scripted")
                if api == "anthropic":
                    if body.get("stream"):
                        _sse(self, anthropic_events(reply, model))
                    else:
                        _json(self, 200, anthropic_message(reply, model))
                else:
                    _sse(self, responses_events(reply, model))

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> ScriptedModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def seen(self, api: str | None = None) -> list[Seen]:
        with self._lock:
            return [r for r in self.requests if api is None or r.api == api]


# -- reading a request ----------------------------------------------------------------------------

def last_user_text(api: str, body: dict) -> str:
    """The text of the last message the *person* sent (tool results are not the person's)."""
    if api == "anthropic":
        for m in reversed(body.get("messages") or []):
            if m.get("role") != "user":
                continue
            c = m.get("content")
            if isinstance(c, str):
                return c
            texts = [b.get("text", "") for b in c or [] if isinstance(b, dict) and b.get("type") == "text"]
            if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in c or []):
                return ""
            if texts:
                return texts[-1]
        return ""
    for item in reversed(body.get("input") or []):
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call_output":
            return ""
        if item.get("role") == "user":
            c = item.get("content")
            if isinstance(c, str):
                return c
            texts = [b.get("text", "") for b in c or [] if isinstance(b, dict)]
            if texts:
                return texts[-1]
    return ""


def ends_with_tool_result(api: str, body: dict) -> bool:
    if api == "anthropic":
        msgs = body.get("messages") or []
        if not msgs:
            return False
        c = msgs[-1].get("content")
        return isinstance(c, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in c)
    items = body.get("input") or []
    return bool(items) and isinstance(items[-1], dict) and items[-1].get("type") == "function_call_output"


def tool_names(api: str, body: dict) -> list[str]:
    out = []
    for t in body.get("tools") or []:
        if isinstance(t, dict):
            out.append(str(t.get("name") or (t.get("function") or {}).get("name") or t.get("type")))
    return out
