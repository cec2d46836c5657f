"""Shared by the integration tests: synthetic Claude Code sessions and running hooks for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from slowloop.integrations.hooks_runtime import MODULE


def cc_turn(user: str, *, session: str = "s1", skill: str | None = None, tool_error: str | None = None,
            answer: str = "Done.", n: int = 0, end_marker: bool = True) -> list[dict]:
    """The records of one Claude Code turn (user prompt, optional Skill/Bash call, answer)."""
    ts = f"2026-11-29T10:{n:02d}:00Z"
    recs: list[dict] = [{"type": "user", "sessionId": session, "timestamp": ts, "uuid": f"u{n}",
                         "message": {"role": "user", "content": user}}]
    if skill:
        recs.append({"type": "assistant", "sessionId": session, "timestamp": ts,
                     "message": {"role": "assistant", "content": [
                         {"type": "tool_use", "id": f"sk{n}", "name": "Skill", "input": {"skill": skill}}]}})
        recs.append({"type": "user", "sessionId": session, "timestamp": ts, "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": f"sk{n}",
                                         "content": f"Launching skill: {skill}"}]}})
    if tool_error:
        recs.append({"type": "assistant", "sessionId": session, "timestamp": ts,
                     "message": {"role": "assistant", "content": [
                         {"type": "tool_use", "id": f"b{n}", "name": "Bash", "input": {"command": "pytest"}}]}})
        recs.append({"type": "user", "sessionId": session, "timestamp": ts, "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": f"b{n}", "is_error": True,
                                         "content": tool_error}]}})
    recs.append({"type": "assistant", "sessionId": session, "timestamp": ts,
                 "message": {"role": "assistant", "content": [{"type": "text", "text": answer}]}})
    if end_marker:
        recs.append({"type": "system", "subtype": "turn_duration", "sessionId": session, "durationMs": 10})
    return recs


def lines(records: list[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def write_skill(home: Path, name: str, description: str, agent: str = "default") -> Path:
    d = home / "agents" / agent / "skills" / name
    d.mkdir(parents=True, exist_ok=True)
    p = d / "SKILL.md"
    p.write_text(f"---\nname: {name}\ndescription: {description}\n---\n## Steps\n1. {description}\n",
                 encoding="utf-8")
    return p


def run_hook(args: list[str], payload: dict | str | None, *, env: dict | None = None,
             timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the hook runtime exactly as a harness would: a subprocess, JSON on stdin."""
    data = payload if isinstance(payload, str) else json.dumps(payload or {})
    return subprocess.run([sys.executable, "-m", MODULE, *args], input=data.encode(),
                          capture_output=True, timeout=timeout, env={**os.environ, **(env or {})})


def run_installed(command: str, payload: dict, *, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run a command string from settings.json through a shell, as Claude Code does."""
    return subprocess.run(command, shell=True, input=json.dumps(payload).encode(), capture_output=True,
                          timeout=60, env={**os.environ, **(env or {})})
