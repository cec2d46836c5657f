"""Codex rollout JSONL (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``) and bare Responses items.

Records are ``{"timestamp", "type", "payload"}``. ``response_item`` payloads are the model
conversation (messages, function_call / function_call_output, custom_tool_call, local_shell_call,
web/tool search); ``event_msg`` payloads are what the CLI showed (user_message, agent_message,
exec_command_end, task_started / task_complete, turn_aborted…); ``session_meta``,
``turn_context``, ``compacted`` and the rest are bookkeeping. Unwrapped items (older rollouts,
Responses API logs) are read the same way.

The user's words appear twice, as ``event_msg`` user_message and as a ``response_item`` user
message, in either order: the second copy is recognised and dropped. Injected context
(``<environment_context>``, AGENTS.md / ``<user_instructions>`` blocks, developer messages) opens
no turn. A shell call asking for escalated permissions that never got an output before the user
spoke again (or before the turn was aborted) was refused: it is recorded as a rejected result.
"""

from __future__ import annotations

from typing import Any

from .common import TurnBuilder, block_text, parse_args, patch_results
from .model import Turn

INJECTED = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions",
            "<INSTRUCTIONS>", "<permissions instructions>", "<user_shell_command>",
            "<turn_aborted>", "<collaboration_mode>", "<skills_instructions>")
CALLS = ("function_call", "custom_tool_call", "local_shell_call", "tool_call", "tool_search_call",
         "web_search_call")
OUTPUTS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output",
           "tool_result", "function_result", "tool_search_output")
SKIPPED_ITEMS = ("reasoning", "ghost_snapshot", "image_generation_call", "agent_message",
                 "compaction", "compaction_summary")


def _exit_from_text(out: str) -> int | None:
    """``Exit code: 1`` (exec output) or ``Process exited with code 1`` (unified exec)."""
    head = out[:300]
    for marker in ("Exit code: ", "Process exited with code "):
        i = head.find(marker)
        if i >= 0:
            digits = head[i + len(marker):i + len(marker) + 6].split("\n", 1)[0].strip()
            if digits.lstrip("-").isdigit():
                return int(digits)
    return None


# What Codex itself writes as the output of a call the person refused. A call that ran has an
# exit code; its output saying "rejected by user" is the tool's text, not a refusal.
_REFUSALS = ("exec command rejected by user", "patch rejected by user",
             "command rejected by user", "user rejected", "rejected by user")


def _refusal(text: str) -> bool:
    t = text.strip().lower().rstrip(".")
    return len(t) <= 80 and t in _REFUSALS


def _output(raw: Any) -> tuple[str, int | None, bool | None]:
    """(text, exit code, error flag) of a tool output in any of the shapes Codex has written."""
    if isinstance(raw, str) and raw.startswith('{"output"'):
        parsed = parse_args(raw)
        if isinstance(parsed, dict):
            raw = parsed
    if isinstance(raw, dict):
        meta = raw.get("metadata")
        code = meta.get("exit_code") if isinstance(meta, dict) else None
        if code is None:
            code = raw.get("exit_code", raw.get("exitCode"))
        if "output" in raw:
            text = block_text(raw["output"])
        elif "stdout" in raw or "stderr" in raw:
            text = "\n".join(s for s in (raw.get("stdout"), raw.get("stderr"))
                             if isinstance(s, str) and s)
        else:
            text = block_text(raw)
        code = code if isinstance(code, int) and not isinstance(code, bool) else None
        if code is None:
            code = _exit_from_text(text)
        success = raw.get("success")
        flag = (not success) if isinstance(success, bool) else None
        return text, code, flag
    text = block_text(raw)
    return text, _exit_from_text(text), None


def _user_text(content: Any) -> str:
    if isinstance(content, str):
        return "" if content.lstrip().startswith(INJECTED) else content
    if not isinstance(content, list):
        return ""
    parts = []
    for c in content:
        if isinstance(c, dict):
            t = c.get("text")
            if isinstance(t, str) and not t.lstrip().startswith(INJECTED):
                parts.append(t)
    return "\n".join(parts)


def _same(a: str, b: str) -> bool:
    a, b = a.strip(), b.strip()
    return a == b or (bool(a) and bool(b) and (a in b or b in a))


def is_subagent_source(source: object) -> bool:
    """Codex's ``session_meta.source`` of a sub-agent's rollout (``{"subagent": …}``, "subagent")."""
    if isinstance(source, dict):
        return any("subagent" in str(k).lower() or "sub_agent" in str(k).lower() for k in source)
    return isinstance(source, str) and ("subagent" in source.lower() or "sub_agent" in source.lower())


class CodexAdapter:
    format = "codex"

    def __init__(self, b: TurnBuilder) -> None:
        self.b = b
        self.updates: dict[str, dict[str, Any]] = {}  # call id → fields from exec/mcp events
        self.escalated: dict[str, str] = {}  # call id → name, for escalated calls without output

    def feed(self, rec: Any, line: int | None, start: int | None, end: int | None
             ) -> Turn | None:
        b = self.b
        if not isinstance(rec, dict):
            b.problem(line, f"expected a JSON object, found {type(rec).__name__}")
            return None
        at = rec.get("timestamp", rec.get("created_at"))
        at = at if isinstance(at, str) else None
        kind = rec.get("type")
        payload = rec.get("payload")
        ended = None
        if isinstance(payload, dict):
            if kind == "response_item":
                ended = self._item(payload, line, start, at)
            elif kind == "event_msg":
                ended = self._event(payload, line, start, at)
            elif kind == "session_meta":
                sid = payload.get("id") or payload.get("session_id")
                if b.session_id is None and isinstance(sid, str):
                    b.session_id = sid
                if line in (None, 1) and is_subagent_source(payload.get("source")):
                    # the file's own header says a sub-agent's rollout: its prompts are the main
                    # agent's (a later session_meta names a thread it spawned, not this file)
                    b.person = False
                b.skip()
            else:  # turn_context, compacted, world_state…
                b.skip()
        elif "payload" in rec:
            b.problem(line, f"'payload' is {type(payload).__name__}, expected an object")
            return None
        elif isinstance(kind, str) or "role" in rec:  # an unwrapped item
            ended = self._item(rec, line, start, at)
        elif "id" in rec and "instructions" in rec:  # first line of early rollouts
            sid = rec.get("id")
            if b.session_id is None and isinstance(sid, str):
                b.session_id = sid
            b.skip()
        else:
            b.problem(line, "record has neither 'type' nor 'role'")
            return None
        b.touch(line, end, at)
        return ended

    # --- turns ------------------------------------------------------------------------------
    def _open(self, text: str, source: str, line: int | None, start: int | None,
              at: str | None) -> Turn | None:
        b = self.b
        d = b.draft
        if d is not None and not d.steps and d.origin != source and _same(d.user_text, text):
            b.skip()  # the other copy of the same user message
            return None
        ended = self._close(followed=True)
        b.start(text, line=line, byte_start=start, at=at, origin=source)
        return ended

    def _close(self, *, followed: bool) -> Turn | None:
        b = self.b
        d = b.draft
        if d is None:
            # exit codes reported while no turn was open belong to no turn read here; kept, they
            # would patch a later call reusing the id (and a reader starting at the next prompt
            # could not know them)
            self.updates, self.escalated = {}, {}
            return None
        if self.escalated and (followed or d.aborted):
            for call_id, name in self.escalated.items():
                b.result(call_id, "(escalated command not approved: it never ran)", name=name,
                         rejected=True)
        if self.updates:
            patch_results(d.steps, self.updates)
        self.updates, self.escalated = {}, {}
        return b.end(followed=followed)

    # --- response items ---------------------------------------------------------------------
    def _item(self, p: dict[str, Any], line: int | None, start: int | None,
              at: str | None) -> Turn | None:
        b = self.b
        kind = p.get("type")
        if kind == "message" or (kind is None and "role" in p):
            role = p.get("role")
            content = p.get("content", p.get("message"))
            if role == "user":
                text = _item_prompt(p)
                if text is None:
                    b.skip()
                    return None
                return self._open(text, "item", line, start, at)
            if role == "assistant":
                b.text(block_text(content), at=at)
                return None
            b.skip()  # developer / system instructions
            return None
        if b.draft is None:
            b.skip()
            return None
        if kind in CALLS:
            self._call(p, at)
        elif kind in OUTPUTS:
            call_id = p.get("call_id")
            call_id = call_id if isinstance(call_id, str) else None
            raw = p.get("output", p.get("result", p.get("tools")))
            text, code, flag = _output(raw)
            if call_id:
                self.escalated.pop(call_id, None)
            rejected = code is None and _refusal(text)
            if flag is None and code is not None:
                flag = code != 0
            name = p.get("name")
            b.result(call_id, text, name=name if isinstance(name, str) else None, is_error=flag,
                     exit_code=code, rejected=rejected, at=at)
        else:
            b.skip()
        return None

    def _call(self, p: dict[str, Any], at: str | None) -> None:
        kind = p.get("type")
        name = p.get("name")
        fn = p.get("function")
        if not isinstance(name, str) and isinstance(fn, dict):
            name = fn.get("name")
        if kind == "local_shell_call":
            name, args = "local_shell", p.get("action")
        elif kind == "web_search_call":
            name, args = "web_search", p.get("action")
        elif kind == "custom_tool_call":
            args = parse_args(p.get("input"))
        else:
            args = parse_args(p.get("arguments", p.get("input")))
        name = name if isinstance(name, str) else (kind or "?")
        call_id = p.get("call_id") or p.get("id")
        call_id = call_id if isinstance(call_id, str) else None
        self.b.call(call_id, name, args, at=at)
        if call_id and isinstance(args, dict) and (
                args.get("sandbox_permissions") == "require_escalated"
                or args.get("with_escalated_permissions") is True):
            self.escalated[call_id] = name

    # --- events -----------------------------------------------------------------------------
    def _event(self, p: dict[str, Any], line: int | None, start: int | None,
               at: str | None) -> Turn | None:
        b = self.b
        kind = p.get("type")
        d = b.draft
        if kind == "user_message":
            text = _event_prompt(p)
            if text is not None:
                return self._open(text, "event", line, start, at)
            b.skip()
        elif kind == "turn_aborted" and d is not None:
            reason = p.get("reason")
            b.abort(f"turn_aborted: {reason}" if isinstance(reason, str) else "turn_aborted")
        elif kind == "task_complete" and d is not None:
            d.done = True
        elif kind == "task_started" and d is not None and d.done is None:
            d.done = False  # from now on only task_complete / turn_aborted end it
        elif kind == "exec_command_end" and isinstance(p.get("call_id"), str):
            code = p.get("exit_code")
            if isinstance(code, int) and not isinstance(code, bool):
                self.updates[p["call_id"]] = {"exit_code": code, "is_error": code != 0}
        elif kind == "patch_apply_end" and isinstance(p.get("call_id"), str):
            ok = p.get("success")
            if isinstance(ok, bool):
                self.updates[p["call_id"]] = {"is_error": not ok}
        elif kind == "mcp_tool_call_end" and isinstance(p.get("call_id"), str):
            res = p.get("result")
            if isinstance(res, dict):
                ok = res.get("Ok")
                err = "Err" in res or (isinstance(ok, dict) and ok.get("isError") is True)
                self.updates[p["call_id"]] = {"is_error": err}
        else:
            b.skip()
        return None

    def finish(self) -> Turn | None:
        return self._close(followed=False)

    # -- reading a file in pieces (several workers, one piece each) ---------------------------

    def opens_turn(self, rec: Any, prev: Any) -> bool:
        """True when feeding ``rec`` opens a new turn whatever was read before ``prev`` (the
        record on the line before): ``rec`` is a message the person typed and ``prev`` gave the
        agent's turn a step (its text, a tool call or output). Then the open turn, if any, has
        a step, so ``rec`` cannot be the second copy of the message that opened it (``_open``
        drops a copy only while the turn is empty): it always closes that turn and opens its
        own. tests/test_ingest_pieces.py checks every cut of the real samples."""
        return _prompt(rec) is not None and _adds_step(prev)

    def cut(self, rec: Any) -> Turn | None:
        """End the open turn as feeding ``rec``, the next piece's first record (a prompt), would."""
        return self._close(followed=True)

    @staticmethod
    def session_of(rec: Any) -> str | None:
        """The session id ``feed`` takes from ``rec`` when it has none yet."""
        if not isinstance(rec, dict):
            return None
        payload = rec.get("payload")
        if isinstance(payload, dict):
            sid = payload.get("id") or payload.get("session_id")
            return sid if rec.get("type") == "session_meta" and isinstance(sid, str) else None
        if "payload" in rec or isinstance(rec.get("type"), str) or "role" in rec:
            return None
        sid = rec.get("id")
        return sid if "instructions" in rec and isinstance(sid, str) else None


def _unwrap(rec: Any) -> tuple[str, dict[str, Any]] | None:
    """(``item`` or ``event``, payload) as ``feed`` dispatches ``rec``; None for the rest."""
    if not isinstance(rec, dict):
        return None
    payload = rec.get("payload")
    if isinstance(payload, dict):
        kind = rec.get("type")
        return ("item", payload) if kind == "response_item" else (
            ("event", payload) if kind == "event_msg" else None)
    if "payload" not in rec and (isinstance(rec.get("type"), str) or "role" in rec):
        return "item", rec
    return None


def _item_prompt(p: dict[str, Any]) -> str | None:
    """The text a user message item opens a turn with; None when it is only injected context."""
    text = _user_text(p.get("content", p.get("message")))
    return text if text.strip() else None


def _event_prompt(p: dict[str, Any]) -> str | None:
    """The text a ``user_message`` event opens a turn with; None for an empty or injected one."""
    text = p.get("message")
    if isinstance(text, str) and text.strip() and not text.lstrip().startswith(INJECTED):
        return text
    return None


def _prompt(rec: Any) -> str | None:
    """The text ``rec`` opens a turn with (``_item``/``_event`` call ``_open``), else None."""
    found = _unwrap(rec)
    if found is None:
        return None
    where, p = found
    kind = p.get("type")
    if where == "event":
        return _event_prompt(p) if kind == "user_message" else None
    if (kind == "message" or (kind is None and "role" in p)) and p.get("role") == "user":
        return _item_prompt(p)
    return None


def _adds_step(rec: Any) -> bool:
    """Whether feeding ``rec`` adds a step to an open turn (``_item``: text, a call, an output)."""
    found = _unwrap(rec)
    if found is None or found[0] != "item":
        return False
    p = found[1]
    kind = p.get("type")
    if kind == "message" or (kind is None and "role" in p):
        return p.get("role") == "assistant" and bool(block_text(p.get("content", p.get("message"))))
    return kind in CALLS or kind in OUTPUTS
