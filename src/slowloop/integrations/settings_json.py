"""Edit a harness's hooks file (Claude Code ``settings.json``, Codex ``hooks.json``) touching only
the entries slowloop wrote.

Both files share one shape: ``{"hooks": {EVENT: [{"matcher": …, "hooks": [{"type": "command",
"command": …, "timeout": …}]}]}}``. slowloop recognises its entries by their command (it runs
``slowloop.integrations.hooks_runtime``), so a person's own hooks — even in the same group — are
never changed. Writes are atomic and refuse to overwrite a change made since the file was read.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..fsutil import read_text, replace_foreign_file
from .hooks_runtime import is_ours


@dataclass(frozen=True)
class HookEntry:
    event: str
    command: str
    timeout: int | None


def load(path: Path) -> tuple[dict[str, Any], str | None]:
    """The settings object and the hash it was read with (``{}``/None when the file is missing)."""
    text, digest = read_text(path)
    if text is None or not text.strip():
        return {}, digest
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UserError(f"{path}: not valid JSON ({exc}); slowloop will not rewrite it",
                        hint="fix the file (or move it aside), then run the command again") from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: the top level is a JSON {type(data).__name__}, expected an object",
                        hint="fix the file, then run the command again")
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise UserError(f"{path}: \"hooks\" is a {type(hooks).__name__}, expected an object",
                        hint="fix the file, then run the command again")
    for event, groups in (hooks or {}).items():
        if not isinstance(groups, list):
            raise UserError(f"{path}: hooks.{event} is a {type(groups).__name__}, expected a list",
                            hint="fix the file, then run the command again")
    return data, digest


ANY = object()  # every slowloop entry, whatever project it is for


def slot_of(command: Any) -> str | None:
    """The project a slowloop hook command is for (its ``--project``), None for a whole-scope one.

    One hooks file can hold several slowloop installs — Codex's user-level ``hooks.json`` carries
    the hooks of each project installed with ``--project`` — so an install replaces only the
    entries of its own slot."""
    if not isinstance(command, str) or "--project" not in command:
        return None
    import shlex

    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    for i, a in enumerate(argv[:-1]):
        if a == "--project":
            return argv[i + 1]
    return None


def _mine(h: Any, slot: Any) -> bool:
    return (isinstance(h, dict) and is_ours(h.get("command"))
            and (slot is ANY or slot_of(h.get("command")) == slot))


def ours(data: dict[str, Any], slot: Any = ANY) -> list[HookEntry]:
    out = []
    for event, groups in (data.get("hooks") or {}).items():
        for group in groups:
            if not isinstance(group, dict):
                continue
            for h in group.get("hooks") or []:
                if _mine(h, slot):
                    out.append(HookEntry(event, h["command"], h.get("timeout")))
    return out


def without_ours(data: dict[str, Any], slot: Any = ANY) -> dict[str, Any]:
    """A copy with slowloop's hooks removed, and the groups/events only they filled dropped."""
    data = json.loads(json.dumps(data))
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    for event in list(hooks):
        kept_groups = []
        for group in hooks[event]:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                mine = [h for h in group["hooks"] if _mine(h, slot)]
                if mine:
                    group["hooks"] = [h for h in group["hooks"] if h not in mine]
                    if not group["hooks"]:
                        continue
            kept_groups.append(group)
        if kept_groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    if not hooks:
        del data["hooks"]
    return data


def with_ours(data: dict[str, Any], entries: list[HookEntry], *, matcher: str | None,
              slot: Any = ANY) -> dict[str, Any]:
    data = without_ours(data, slot)
    hooks = data.setdefault("hooks", {})
    for e in entries:
        hook: dict[str, Any] = {"type": "command", "command": e.command}
        if e.timeout is not None:
            hook["timeout"] = e.timeout
        group: dict[str, Any] = {"matcher": matcher} if matcher is not None else {}
        group["hooks"] = [hook]
        hooks.setdefault(e.event, []).append(group)
    return data


def save(path: Path, before: dict[str, Any], after: dict[str, Any], digest: str | None) -> bool:
    """Write ``after`` when it differs from ``before``; returns whether the file changed."""
    if before == after:
        return False
    if not after and not path.exists():
        return False
    mode = 0o644
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
    replace_foreign_file(path, json.dumps(after, indent=2, ensure_ascii=False) + "\n", expect=digest, mode=mode)
    return True


