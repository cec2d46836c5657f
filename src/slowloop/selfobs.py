"""slowloop never observes itself: a reflection run through the person's own agent is not a turn.

When the model is the person's own CLI (``claude -p``, ``codex exec``), the reflection prompt
becomes a session of that agent — with the same hooks installed, the same transcript folders
watched. Left alone, slowloop would record the prompt as a user turn, find a "correction" in its
own instructions, and reflect again on its own reflection. Three marks stop it, each enough alone:

- **an environment marker**, ``SLOWLOOP_REFLECTING=1``, set on the reflector's child; every hook
  sees it in its environment (Claude Code and Codex pass theirs down) and does nothing;
- **a private working directory** under the home, ``<home>/reflector/``: a transcript whose session
  ran there (Claude Code's ``cwd`` field, Codex's ``session_meta.cwd``) is the reflector's;
- **a first line** every reflection prompt starts with (``PROMPT_MARK``): a transcript whose
  first user message carries it is the reflector's, wherever it ran.

``watch``, ``ingest`` and the hooks skip such transcripts; nothing of them is ever recorded.
Standard library only: the hooks import it on their fast path.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

ENV = "SLOWLOOP_REFLECTING"
PROMPT_MARK = "[slowloop reflection: a background job, not a conversation with a person]"
WORKDIR = "reflector"
HEAD_BYTES = 64 * 1024


def active() -> bool:
    """True inside a process slowloop started to reflect (or any of its children)."""
    return os.environ.get(ENV, "") not in ("", "0")


def workdir(home: Path) -> Path:
    """The private folder a reflector CLI runs in (created 0700)."""
    d = Path(home) / WORKDIR
    d.mkdir(parents=True, exist_ok=True, mode=0o700)
    return d


def child_env(home: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    env[ENV] = "1"
    env.setdefault("SLOWLOOP_HOME", str(home))
    return env


def _cwd_of(record: dict) -> str | None:
    cwd = record.get("cwd")
    if isinstance(cwd, str):
        return cwd
    payload = record.get("payload")
    if isinstance(payload, dict) and isinstance(payload.get("cwd"), str):
        return payload["cwd"]
    return None


def _typed_prompt_marked(record: dict) -> bool:
    """Whether ``record`` is a prompt typed into the session (not a tool's output, not a file the
    agent read) that starts with ``PROMPT_MARK`` — text an attacker plants in a README or a web
    page reaches a transcript only as tool output, so it cannot hide a session this way."""
    msg = record.get("message") if record.get("type") == "user" else None
    if isinstance(msg, dict) and isinstance(msg.get("content"), str):  # Claude Code: a typed prompt
        return msg["content"].lstrip().startswith(PROMPT_MARK)
    payload = record.get("payload") if record.get("type") in ("response_item", "event_msg") else record
    if not isinstance(payload, dict):
        return False
    if payload.get("type") == "user_message" and isinstance(payload.get("message"), str):  # Codex event
        return payload["message"].lstrip().startswith(PROMPT_MARK)
    if payload.get("role") == "user" and payload.get("type", "message") == "message":  # Codex item
        content = payload.get("content")
        items = content if isinstance(content, list) else [{"text": content}]
        return any(isinstance(c, dict) and isinstance(c.get("text"), str)
                   and c["text"].lstrip().startswith(PROMPT_MARK) for c in items)
    return False


def is_reflector_transcript(path: Path, reflector_dirs: list[Path] | None = None) -> bool:
    """Whether ``path`` is a transcript a slowloop reflection left behind.

    Reads at most the first 64 KB: the session's working directory and first prompt are there.
    """
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES)
    except OSError:
        return False
    marked = PROMPT_MARK.encode("utf-8") in head
    marker = f"{os.sep}{WORKDIR}"
    dirs = [str(d) for d in (reflector_dirs or [])]
    cwd_seen = False
    for raw in head.splitlines()[:200]:
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):  # junk, or nested deeper than can be read: not ours
            continue
        if not isinstance(record, dict):
            continue
        if marked and _typed_prompt_marked(record):
            return True
        cwd = _cwd_of(record)
        if cwd is None or cwd_seen:
            continue
        cwd_seen = True
        if any(cwd == d or cwd.startswith(d + os.sep) for d in dirs):
            return True
        # A home we do not know (another SLOWLOOP_HOME): the folder's name and its marker file.
        if cwd.rstrip(os.sep).endswith(marker) and Path(cwd, ".slowloop-reflector").exists():
            return True
        if not marked:  # nothing further down can say otherwise: no need to parse it
            return False
    return False


def mark_workdir(home: Path) -> Path:
    """The reflector folder with its marker file (how a transcript's cwd is recognised)."""
    d = workdir(home)
    m = d / ".slowloop-reflector"
    if not m.exists():
        m.write_text("slowloop runs reflections here; transcripts of sessions run here are never observed\n",
                     encoding="utf-8")
    return d
