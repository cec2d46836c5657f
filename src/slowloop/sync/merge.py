"""Merging what two machines learned: never lose either side.

The memo, the memory files and the contexts merge by lines within their ``##`` sections: each
side's new lines are kept, a line one side removed is removed, the same line learned on both is kept
once. A skill (or any other learned Markdown) changed on both sides is merged by git's line merge
when it can be; a real conflict keeps this machine's body and the other's in a marked block that the
next reflection or the person settles. Used by the screened merge (``incoming``) and, for a person
who runs ``git merge`` by hand in the folder, as a git merge driver.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .git import git_program

CONFLICT_BEGIN = "<!-- slowloop:conflict"
CONFLICT_END = "<!-- slowloop:end-conflict -->"


def _sections(text: str) -> list[tuple[str, list[str]]]:
    """(heading line or '', lines) in order; a heading inside a code fence is text
    (``slowloop.markdown`` decides both)."""
    from ..markdown import code_lines, heading

    out: list[tuple[str, list[str]]] = [("", [])]
    for line, in_code in code_lines(text.splitlines()):
        if not in_code and heading(line) is not None:
            out.append((line, []))
            continue
        out[-1][1].append(line)
    return out


def _norm(line: str) -> str:
    return " ".join(line.split()).casefold()


def merge_lines(base: str, ours: str, theirs: str) -> str:
    """Three-way merge by lines within sections: keep each side's additions, honour each side's
    removals, keep a line both added once."""
    b = {h: [_norm(x) for x in ls] for h, ls in _sections(base)}
    o = _sections(ours)
    t = dict(_sections(theirs))
    out: list[str] = []
    seen_heads = set()
    for head, lines in o:
        seen_heads.add(head)
        base_set = set(b.get(head, []))
        their = t.get(head, [])
        their_set = {_norm(x) for x in their}
        kept = [x for x in lines if not (_norm(x) in base_set and _norm(x) not in their_set and _norm(x))]
        have = {_norm(x) for x in kept}
        added = [x for x in their if _norm(x) not in base_set and _norm(x) not in have]
        if added:
            while kept and not kept[-1].strip():
                kept.pop()
            kept += added
            if lines and not lines[-1].strip():
                kept.append("")
        if head:
            out.append(head)
        out.extend(kept)
    for head, lines in _sections(theirs):
        if head not in seen_heads and head not in b:
            out.append(head)
            out.extend(lines)
    return "\n".join(out).rstrip("\n") + "\n"


def _front(text: str) -> tuple[str, str]:
    from ..markdown import split_frontmatter

    fm = split_frontmatter(text)
    return (fm.head, fm.body) if fm.text is not None else ("", text)


def merge_skill(base: str, ours: str, theirs: str, path: str) -> str:
    """git's line merge for the body; a real conflict keeps both sides, the other's marked."""
    import tempfile

    front, body_o = _front(ours)
    _f, body_t = _front(theirs)
    _fb, body_b = _front(base)
    if body_o == body_t:
        return ours
    with tempfile.TemporaryDirectory() as d:
        files = []
        for name, text in (("ours", body_o), ("base", body_b), ("theirs", body_t)):
            f = Path(d) / name
            f.write_text(text, encoding="utf-8")
            files.append(str(f))
        done = subprocess.run([git_program(), "merge-file", "-p", "-q", *files], capture_output=True, text=True)
    if done.returncode == 0:
        return front + done.stdout
    name = Path(path).parent.name
    return (front + body_o.rstrip("\n") + "\n\n"
            f"{CONFLICT_BEGIN} skill {name}: another machine changed this skill differently. Its version is"
            " below; keep what is right, delete the rest and these markers. -->\n"
            + body_t.strip("\n") + "\n" + CONFLICT_END + "\n")


def merge_driver(base_path: str, ours_path: str, theirs_path: str, path: str) -> int:
    def read(p: str) -> str:
        try:
            return Path(p).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    merged = merged_text(path, read(base_path), read(ours_path), read(theirs_path))
    Path(ours_path).write_text(merged, encoding="utf-8")
    return 0


def merged_text(path: str, base: str, ours: str, theirs: str) -> str:
    """The one merge of a learned file changed on both sides: by lines within sections for the memo,
    the memory and the contexts; git's line merge (both kept on a conflict) for the rest."""
    if path == "memo.md" or path.startswith("memory/") or path.endswith("/CONTEXT.md"):
        return merge_lines(base, ours, theirs)
    return merge_skill(base, ours, theirs, path)


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) == 5 and args[0] == "merge-driver":
        sys.exit(merge_driver(*args[1:]))
    print("usage: python -m slowloop.sync merge-driver BASE OURS THEIRS PATH", file=sys.stderr)
    sys.exit(2)
