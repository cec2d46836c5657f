"""What may travel through a shared remote, in either direction: the learned Markdown, nothing else.

A remote is written by whoever can push to it (a teammate, or whoever holds a leaked token), and what
comes in lands where every session of the agent starts reading. So each file a merge would bring, and
each file slowloop commits or pushes, is judged here, with the same rules both ways:

- **the path**: only the learned Markdown — ``memo.md``, ``skills/<name>/SKILL.md`` (and Markdown
  beside it), ``memory/*.md`` and its ``past/`` layers, ``contexts/<name>/*.md``, ``archive/**.md``.
  ``.gitignore`` and ``.gitattributes`` are this machine's own: never taken from a remote;
- **a regular file** (git mode 100644): no link, no submodule, no executable;
- **size**: at most ``FILE_MAX`` bytes a file — the danger gate judges ``MAX_SCAN_CHARS`` characters,
  so a larger file could not be judged whole — and ``MERGE_MAX`` bytes for all a merge brings;
- **text**: UTF-8 without NUL bytes; never a database (an SQLite header, a ``.db`` name);
- **the gate** (``safety.gate.introduced``) on the file as it will be after the merge, normalised,
  against this machine's version: a danger or a secret the change brings is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..safety.danger import MAX_SCAN_CHARS, scan
from ..safety.gate import introduced
from ..safety.redact import redact

FILE_MAX = MAX_SCAN_CHARS  # bytes; a UTF-8 file of this size has at most this many characters
MERGE_MAX = 4 * 1024 * 1024
OWN_FILES = (".gitignore", ".gitattributes")
REGULAR = "100644"

_PART = r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}"
_MD = _PART + r"\.md"
ALLOWED = re.compile(
    rf"^(?:memo\.md"
    rf"|skills/{_PART}/(?:{_PART}/){{0,2}}{_MD}"
    rf"|memory/(?:past/{_PART}/(?:late-edits/)?)?{_MD}"
    rf"|contexts/{_PART}/(?:{_PART}/){{0,2}}{_MD}"
    rf"|archive/(?:{_PART}/){{0,3}}{_MD})$")


@dataclass(frozen=True)
class Refusal:
    kind: str  # path, own_file, link, mode, size, merge_size, binary, database, danger, secret
    reason: str
    line: int | None = None

    @property
    def dangerous(self) -> bool:
        return self.kind == "danger"

    @property
    def acceptable(self) -> bool:
        """A person may take it in anyway (a danger, explicitly); the rest can never be merged."""
        return self.kind in ("danger", "merge_size")


def path_refusal(path: str) -> Refusal | None:
    if path in OWN_FILES:
        return Refusal("own_file", f"{path} is this machine's own and is never taken from a remote")
    if ".." in path.split("/") or not ALLOWED.match(path):
        return Refusal("path", f"{path} is not a learned Markdown file (memo.md, skills/<name>/SKILL.md, "
                               "memory/*.md, contexts/, archive/); only those are shared")
    return None


def mode_refusal(path: str, mode: str) -> Refusal | None:
    if mode == REGULAR:
        return None
    what = {"120000": "a symbolic link", "160000": "a submodule", "100755": "an executable file",
            "040000": "a folder"}.get(mode, f"not a regular file (mode {mode})")
    return Refusal("link" if mode == "120000" else "mode", f"{path} is {what}; only regular files are shared")


def size_refusal(path: str, size: int) -> Refusal | None:
    if size > FILE_MAX:
        return Refusal("size", f"{path} is {size:,} bytes; a learned file is shared up to {FILE_MAX:,} bytes "
                               "(the danger gate judges that much)")
    return None


def content_refusal(path: str, data: bytes) -> Refusal | None:
    if data.startswith(b"SQLite format 3\0") or path.endswith((".db", ".sqlite", ".sqlite3")):
        return Refusal("database", f"{path} is a database; a database is never shared")
    if b"\0" in data:
        return Refusal("binary", f"{path} is binary (it holds NUL bytes); only text is shared")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Refusal("binary", f"{path} is not UTF-8 text (byte {exc.start}); only text is shared")
    return None


def static_refusal(path: str, mode: str, size: int, data: bytes | None) -> Refusal | None:
    """Path, kind of file, size and bytes: what no content judgement can make acceptable."""
    return (path_refusal(path) or mode_refusal(path, mode) or size_refusal(path, size)
            or (content_refusal(path, data) if data is not None else None))


def gate_refusal(path: str, before: str, after: str) -> Refusal | None:
    """A danger or a secret that ``after`` (the file as it would be) holds and ``before`` does not."""
    new = introduced(before, after)
    if not new:
        return None
    first = next((d for d in new if d.kind != "secret"), new[0])
    line = added_line(before, after, first.kind)
    where = f"{path}:{line}" if line else path
    if first.kind == "secret":
        return Refusal("secret", f"{where}: looks like a secret ({first.reason.removeprefix('contains a ')})",
                       line)
    more = f" (+{len(new) - 1} more)" if len(new) > 1 else ""
    return Refusal("danger", f"{where}: a dangerous instruction ({first.kind}: {first.reason}: "
                             f"{first.evidence[:100]}){more}", line)


def added_line(before: str, after: str, kind: str) -> int | None:
    """The first line ``after`` adds that shows ``kind`` on its own; else the first line it adds."""
    had = set(before.splitlines())
    added = [(i, ln) for i, ln in enumerate(after.splitlines(), 1) if ln not in had and ln.strip()]
    for i, ln in added:
        if kind == "secret" and redact(ln).count:
            return i
        if kind != "secret" and any(d.kind == kind for d in scan(ln)):
            return i
    return added[0][0] if added else None


def secret_line(text: str) -> tuple[int, str] | None:
    """The first line of ``text`` holding what looks like a secret, and its kind."""
    for i, ln in enumerate(text.splitlines(), 1):
        r = redact(ln)
        if r.count:
            return i, next(iter(r.kinds))
    r = redact(text)  # a secret split over lines (a key block) shows only in the whole
    return (1, next(iter(r.kinds))) if r.count else None
