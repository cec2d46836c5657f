"""A chat agent with a slow learning loop, on any OpenAI-compatible server (OpenAI SDK).

Run it:

    pip install openai
    export OPENAI_BASE_URL=http://127.0.0.1:8080/v1   # any OpenAI-compatible server
    export OPENAI_API_KEY=...                          # whatever your server expects
    export MODEL=gpt-4o-mini                           # the model name it serves
    python examples/openai_agent.py --agent my-assistant

Each line you type is one turn. slowloop does four things here:

1. the system prompt carries the agent's bootstrap (memo, skill index, memory root);
2. the model can read a learned skill through a ``read_skill`` tool (a read counts as a use);
3. after each turn the conversation is observed (corrections, errors, tool calls — no model call);
4. a background thread reflects now and then and turns what it saw into skills and memo lines.

The module imports without the ``openai`` package: only ``main`` needs it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from typing import Any, TextIO

import slowloop

BASE_PROMPT = "You are a helpful assistant. Be brief."

READ_SKILL_TOOL = {
    "type": "function",
    "function": {
        "name": "read_skill",
        "description": "Read one of your learned skills (listed in the system prompt) before the task it fits.",
        "parameters": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
    },
}


def system_prompt(agent: str) -> str:
    """The base prompt plus what slowloop learned about working for this user."""
    learned = slowloop.get_bootstrap(agent)
    return BASE_PROMPT + ("\n\n" + learned if learned.strip() else "")


def _tool_result(call: Any, agent: str) -> str:
    if call.function.name != "read_skill":
        return f"unknown tool {call.function.name!r}"
    try:
        name = json.loads(call.function.arguments or "{}").get("name", "")
        return slowloop.read_skill(name, agent=agent)
    except (ValueError, slowloop.SlowloopError) as exc:
        return f"error: {exc}"


def chat_turn(client: Any, model: str, messages: list[dict[str, Any]], user_text: str, *,
              agent: str, session_id: str, max_tool_rounds: int = 4) -> str:
    """One turn: the user's words, the model's tool calls and answer; then slowloop observes it."""
    messages.append({"role": "user", "content": user_text})
    text = ""
    for _ in range(max_tool_rounds + 1):
        reply = client.chat.completions.create(model=model, messages=messages, tools=[READ_SKILL_TOOL])
        msg = reply.choices[0].message
        calls = list(msg.tool_calls or [])
        entry: dict[str, Any] = {"role": "assistant", "content": msg.content or ""}
        if calls:
            entry["tool_calls"] = [{"id": c.id, "type": "function",
                                    "function": {"name": c.function.name, "arguments": c.function.arguments}}
                                   for c in calls]
        messages.append(entry)
        if not calls:
            text = msg.content or ""
            break
        for c in calls:
            messages.append({"role": "tool", "tool_call_id": c.id, "content": _tool_result(c, agent)})
    # Observe the whole conversation: earlier turns come back "unchanged", this one is new.
    slowloop.observe_messages(messages, agent=agent, format="openai", session_id=session_id)
    return text


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="default")
    parser.add_argument("--no-reflect", action="store_true", help="do not start the background reflector")
    args = parser.parse_args(argv)
    from openai import OpenAI  # here, not at the top: the module must import without the SDK

    client = OpenAI(api_key=os.environ.get("OPENAI_API_KEY", "not-needed"),
                    base_url=os.environ.get("OPENAI_BASE_URL") or None)
    model = os.environ.get("MODEL", "gpt-4o-mini")
    reflector = None if args.no_reflect else slowloop.start_reflector()
    session_id = uuid.uuid4().hex
    messages: list[dict[str, Any]] = [{"role": "system", "content": system_prompt(args.agent)}]
    try:
        for line in stdin:
            if line.strip():
                print(chat_turn(client, model, messages, line.strip(), agent=args.agent,
                                session_id=session_id), file=stdout, flush=True)
    finally:
        if reflector is not None:
            reflector.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
