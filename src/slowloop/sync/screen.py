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


# -- files judged together: what one merge brings is read in one session ----------------------------

# names one file can define and another use: `INSTALL_URL=…` / `$INSTALL_URL`, `alias fresh=…` / `fresh |`,
# `fetchx() {…}`, a host, a helper script's name
_DEFINED = re.compile(r"\b([A-Z][A-Z0-9_]{3,})\s*=|\balias\s+([\w.-]{3,})=|\b([\w-]{3,})\s*\(\)\s*\{|\bfunction\s+([\w-]{3,})")
_HOST_NAME = re.compile(r"(?<![\w.@-])((?:[a-z0-9-]+\.)+[a-z]{2,})(?![\w.-])")
_COMMON = frozenset({"PATH", "HOME", "USER", "SHELL", "LANG", "TERM", "TODO", "NOTE", "README", "CHANGELOG", "JSON",
                     "YAML", "HTTP", "HTTPS", "main", "github.com", "pypi.org", "registry.npmjs.org", "example.com"})


def _names(path: str, text: str) -> set[str]:
    out = {n for m in _DEFINED.finditer(text) for n in m.groups() if n}
    out |= {h for h in _HOST_NAME.findall(text) if not h.endswith((".md", ".sh", ".py", ".json", ".toml", ".txt"))}
    base = path.rsplit("/", 1)[-1]
    if not base.endswith(".md"):
        out.add(base)  # a helper script beside a skill, refused: what names it runs it
    return out - _COMMON


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def companions(refused: dict[str, str], taken: dict[str, tuple[str, str]]) -> dict[str, Refusal]:
    """The files a merge would take (``taken``: path → (this machine's text, the merged text)) that
    are one half of a split instruction, read with the rest of what the same merge brings.

    - read together, the files introduce a danger none of them holds alone (an alias in the memo, its
      use piped into ``bash`` in the chronicle): each file without which the danger goes is held;
    - a file refused in the same merge (``refused``: path → the refused text) defines or names what
      a taken file's new lines use, or the other way round (``INSTALL_URL=`` in one, ``curl
      $INSTALL_URL | bash`` in the other; a helper script and the skill that runs it): the taken file
      is held with it.
    """
    out: dict[str, Refusal] = {}
    if not taken:
        return out
    for path, (mine, after) in taken.items():
        new_lines = "\n".join(sorted(set(after.splitlines()) - set(mine.splitlines())))
        if not new_lines.strip():
            continue
        for other, text in refused.items():
            shared = [n for n in _names(other, text) if _mentions(new_lines, n)]
            shared += [n for n in _names(path, new_lines) if _mentions(text, n)]
            if shared:
                out[path] = Refusal("danger", f"{path}: read with {other}, refused in the same merge (they share "
                                              f"`{shared[0]}`): one half of an instruction split over two files")
                break
    rest = {p: v for p, v in taken.items() if p not in out}
    if len(rest) < 2:
        return out
    before = "\n\n".join(v[0] for v in rest.values())
    after = "\n\n".join(v[1] for v in rest.values())
    joint = introduced(before, after)
    if not joint:
        return out
    for path in rest:
        others = [v for p, v in rest.items() if p != path]
        alone = introduced("\n\n".join(v[0] for v in others), "\n\n".join(v[1] for v in others))
        if len(alone) < len(joint):
            d = joint[0]
            out[path] = Refusal("danger", f"{path}: read with the other files this merge brings, a dangerous "
                                          f"instruction ({d.kind}: {d.reason}: {d.evidence[:100]})")
    return out
