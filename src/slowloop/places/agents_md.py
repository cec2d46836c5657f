"""A block of ``AGENTS.md`` that slowloop owns, between two markers, rewritten idempotently.

Codex (and other agents that read ``AGENTS.md``) get the session bootstrap this way. Everything
outside the markers belongs to the person and is never changed. Standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path

BEGIN = "<!-- slowloop:begin — written by slowloop (`slowloop hooks sync`); edits inside are replaced -->"
END = "<!-- slowloop:end -->"
_BEGIN_PREFIX = "<!-- slowloop:begin"


def _split(text: str) -> tuple[str, str | None, str]:
    """(before, block or None, after)."""
    i = text.find(_BEGIN_PREFIX)
    if i < 0:
        return text, None, ""
    j = text.find(END, i)
    if j < 0:  # a begin without an end: treat the rest of the file as the block
        return text[:i], text[i:], ""
    j += len(END)
    return text[:i], text[i:j], text[j:]


def render(body: str) -> str:
    body = body.strip() or "(slowloop has learned nothing for this agent yet)"
    return f"{BEGIN}\n{body}\n{END}"


def read_block(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    block = _split(text)[1]
    if block is None:
        return None
    return block[len(BEGIN):-len(END)].strip() if block.endswith(END) else block


def write_block(path: Path, body: str) -> bool:
    """Put ``body`` between the markers (added at the end when missing); True when changed."""
    from ..fsutil import read_text, replace_foreign_file

    text, digest = read_text(path)
    text = text or ""
    before, block, after = _split(text)
    new_block = render(body)
    if block is None:
        sep = "" if not text.strip() else ("\n" if text.endswith("\n") else "\n\n")
        sep = sep if not text.endswith("\n\n") else ""
        new = text + sep + new_block + "\n"
    else:
        new = before + new_block + after
    if new == text:
        return False
    mode = os.stat(path).st_mode & 0o777 if path.exists() else 0o644
    replace_foreign_file(path, new, expect=digest, mode=mode)
    return True


def remove_block(path: Path) -> bool:
    """Take the block out; a file left empty is deleted (a link to it is emptied). True when changed."""
    from ..fsutil import read_text, replace_foreign_file

    text, digest = read_text(path)
    if text is None:
        return False
    before, block, after = _split(text)
    if block is None:
        return False
    new = (before.rstrip("\n") + "\n" + after.lstrip("\n")) if before.strip() else after.lstrip("\n")
    if not new.strip() and not path.is_symlink():
        path.unlink()
        return True
    if not new.strip():  # a link someone made: keep it (and its file), just empty
        new = ""
    replace_foreign_file(path, new, expect=digest, mode=os.stat(path).st_mode & 0o777)
    return True
