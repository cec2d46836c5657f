"""What leaves this machine: each commit slowloop makes, and every object a push would send, screened.

A file is committed only when it passes the same screening as what comes in (``screen``): a learned
Markdown file, a regular file, within the size cap, text, without a secret, and bringing no dangerous
instruction the committed version did not have. Before each push, every file version the remote does
not have yet — a commit the person made by hand in the folder included — is read for secrets; one
found stops the push and is named with its file and line.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .git import blob_bytes, git, identity
from .result import SyncResult
from .screen import (
    FILE_MAX,
    OWN_FILES,
    Refusal,
    content_refusal,
    gate_refusal,
    path_refusal,
    secret_line,
    size_refusal,
)


def changed(repo: Path) -> list[str]:
    p = git(repo, "status", "--porcelain", "-z", "--untracked-files=all")
    out = []
    entries = iter(p.stdout.split("\0"))
    for entry in entries:
        if len(entry) > 3:
            out.append(entry[3:])
            if entry[0] in "RC":  # a rename names its source next: both changed
                out.append(next(entries, ""))
    return [x for x in out if x]


def _committed(repo: Path, rel: str) -> str:
    p = git(repo, "show", f"HEAD:{rel}", check=False)
    return p.stdout if p.returncode == 0 else ""


def refusal(repo: Path, rel: str, *, allow_danger: bool = False) -> Refusal | None:
    """Why ``rel`` must not be committed, or None (a removed file always may be)."""
    if rel in OWN_FILES:
        return None
    refused = path_refusal(rel)
    path = repo / rel
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if refused:
        return refused
    if stat.S_ISLNK(st.st_mode):
        return Refusal("link", f"{rel} is a symbolic link (to {os.readlink(path)}); only regular files are shared")
    if not stat.S_ISREG(st.st_mode):
        return Refusal("mode", f"{rel} is not a regular file; only regular files are shared")
    refused = size_refusal(rel, st.st_size)
    if refused:
        return refused
    data = path.read_bytes()
    refused = content_refusal(rel, data)
    if refused:
        return refused
    text = data.decode("utf-8")
    found = secret_line(text)
    if found:
        return Refusal("secret", f"{rel}:{found[0]}: looks like a secret ({found[1]})", found[0])
    refused = gate_refusal(rel, _committed(repo, rel), text)
    return None if refused is None or allow_danger else refused


def commit(repo: Path, subject: str, result: SyncResult, body: str = "", *, only: list[str] | None = None,
           author: str | None = None, allow_danger: bool = False) -> bool:
    """Stage every change that passes the screening and commit it; False when nothing to commit."""
    staged = []
    for rel in (only if only is not None else changed(repo)):
        why = refusal(repo, rel, allow_danger=allow_danger)
        if why:
            result.held_back.append(f"{why.reason}; kept out of the commit")
            continue
        staged.append(rel)
    if not staged:
        return False
    git(repo, "add", "-A", "--", *staged)
    if not git(repo, "diff", "--cached", "--name-only").stdout.strip():
        return False
    msg = subject + ("\n\n" + body if body else "")
    git(repo, *identity(repo), "commit", "-q", "--no-verify", *(["--author", author] if author else []),
        "-m", msg, "--", *staged)
    result.committed.append(subject)
    return True


def push_refusals(repo: Path) -> list[str]:
    """Why a push must not happen: each secret (or file that is never shared) in the file versions
    the remote does not have yet, with its file and line."""
    listed = git(repo, "rev-list", "--objects", "HEAD", "--not", "--remotes=origin").stdout.splitlines()
    named: dict[str, str] = {}
    for line in listed:
        oid, _, path = line.partition(" ")
        if path:
            named.setdefault(oid, path)
    if not named:
        return []
    kinds = git(repo, "cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)",
                input="".join(f"{o}\n" for o in named)).stdout.split()
    out = []
    hint = (f"nothing was pushed: take it out of the commits not pushed yet (`git -C {repo} log -p "
            "--not --remotes=origin`, then `git rebase -i` or `git commit --amend`) and sync again")
    for oid, kind, size in zip(kinds[0::3], kinds[1::3], kinds[2::3], strict=False):
        path = named[oid]
        if kind != "blob":
            continue
        refused = None if path in OWN_FILES else (path_refusal(path) or size_refusal(path, int(size)))
        if refused is None:
            data = blob_bytes(repo, oid, FILE_MAX + 1)
            refused = content_refusal(path, data)
            found = None if refused else secret_line(data.decode("utf-8", errors="replace"))
            if found:
                refused = Refusal("secret", f"{path}:{found[0]}: looks like a secret ({found[1]})", found[0])
        if refused:
            out.append(f"{refused.reason}; {hint}")
    return out
