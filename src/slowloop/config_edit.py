"""Set a few keys of a TOML file in place — slowloop's own ``config.toml`` or another program's
(Codex's ``$CODEX_HOME/config.toml``) — keeping the person's comments, order, layout and every
other key. tomlkit reads and writes the file as a document, multi-line arrays and inline tables
included; the result is parsed again before it is written, and a file that does not parse is never
touched (the error names the file, line and column).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import UserError
from .fsutil import atomic_write, read_text


def _path(section: str) -> list[str]:
    """``hooks.state."a.b:c"`` → ``["hooks", "state", "a.b:c"]`` (TOML's own reading of a header)."""
    try:
        parsed = tomllib.loads(f"[{section}]\n")
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{section!r} is not a TOML table name: {exc}") from None
    out: list[str] = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        key = next(iter(parsed))
        out.append(key)
        parsed = parsed[key]
    return out


def set_keys(path: Path, section: str, values: dict[str, Any]) -> bool:
    """Set ``section.key = value`` for each item; returns whether the file changed."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    text, digest = read_text(path)
    text = text or ""
    try:
        tomllib.loads(text)
        doc = tomlkit.parse(text)
    except (tomllib.TOMLDecodeError, TOMLKitError) as exc:
        raise UserError(f"{path}: not valid TOML ({exc}); slowloop will not rewrite it",
                        hint="fix the file, then run the command again") from None
    table: Any = doc
    keys = _path(section)
    for depth, key in enumerate(keys):
        if key not in table:
            # a table only holding tables is written as [a.b] headers, not an empty [a]
            table.add(key, tomlkit.table(is_super_table=depth < len(keys) - 1))
        table = table[key]
        if not hasattr(table, "__setitem__") or isinstance(table, (str, int, float, bool)):
            raise UserError(f"{path}: {'.'.join(keys[:depth + 1])} is a value, not a table; slowloop will "
                            "not rewrite it", hint="fix the file, then run the command again")
    for key, value in values.items():
        table[key] = value
    out = tomlkit.dumps(doc)
    if out and not out.endswith("\n"):
        out += "\n"
    tomllib.loads(out)  # never write what does not parse
    if out == text:
        return False
    atomic_write(path, out, expect=digest)
    return True
