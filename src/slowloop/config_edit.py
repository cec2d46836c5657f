"""Set a few keys of ``config.toml`` in place, keeping the person's comments, order and other keys.

A line-level edit, not a TOML round trip (the standard library reads TOML but does not write it):
the key's line inside its ``[section]`` is replaced, or added at the end of the section, or the
section is appended. The result is parsed again before it is written; a file that does not parse
is never touched.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from .config import toml_value
from .errors import UserError
from .fsutil import atomic_write, read_text

_HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(?:#.*)?$")


def set_keys(path: Path, section: str, values: dict[str, Any]) -> bool:
    """Set ``section.key = value`` for each item; returns whether the file changed."""
    text, digest = read_text(path)
    text = text or ""
    if text.strip():
        try:
            tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"{path}: not valid TOML ({exc}); slowloop will not rewrite it",
                            hint="fix the file, then run the command again") from None
    lines = text.splitlines()
    start = end = None
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if m and start is not None and end is None:
            end = i
        if m and m.group(1).strip() == section:
            start, end = i, None
    if start is None:
        if lines and lines[-1].strip():
            lines.append("")
        lines.append(f"[{section}]")
        start, end = len(lines) - 1, len(lines)
    if end is None:
        end = len(lines)
    for key, value in values.items():
        new = f"{key} = {toml_value(value)}"
        pat = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for i in range(start + 1, end):
            if pat.match(lines[i]):
                lines[i] = new
                break
        else:
            insert = end
            while insert > start + 1 and not lines[insert - 1].strip():
                insert -= 1
            lines.insert(insert, new)
            end += 1
    out = "\n".join(lines).rstrip("\n") + "\n"
    tomllib.loads(out)  # never write what does not parse
    if out == text:
        return False
    atomic_write(path, out, expect=digest)
    return True
