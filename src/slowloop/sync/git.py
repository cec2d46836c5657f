"""The ``git`` program the person already has, driven as a subprocess: slowloop's one way to it."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..errors import SlowloopError, UserError

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's well-known empty tree
ZERO = "0" * 40


class SyncError(SlowloopError):
    exit_code = 1


def git_program() -> str:
    found = shutil.which("git")
    if not found:
        raise UserError("git is not installed (slowloop syncs through the git you use)",
                        hint="install git (e.g. `apt install git`, `brew install git`), then run this again")
    return found


def git(repo: Path, *args: str, check: bool = True, input: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full = dict(os.environ)
    full.setdefault("GIT_TERMINAL_PROMPT", "0")  # never hang on a password prompt in the background
    full.update(env or {})
    p = subprocess.run([git_program(), "-C", str(repo), *args], capture_output=True, text=True, env=full,
                       input=input, timeout=300, encoding="utf-8", errors="replace")
    if check and p.returncode != 0:
        said = (p.stderr or p.stdout).strip().splitlines()
        raise SyncError(f"git {' '.join(args[:2])} failed in {repo}: {' '.join(said[-3:])[:600]}",
                        hint="run the same git command in that folder to see the whole message")
    return p


def blob_bytes(repo: Path, oid: str, limit: int) -> bytes:
    """The first ``limit`` bytes of a blob (a huge one is never read whole)."""
    with subprocess.Popen([git_program(), "-C", str(repo), "cat-file", "blob", oid],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as p:
        assert p.stdout is not None
        data = p.stdout.read(limit)
        p.stdout.close()
        p.kill()
    return data


def blob_size(repo: Path, oid: str) -> int:
    return int(git(repo, "cat-file", "-s", oid).stdout.strip())


def identity(repo: Path) -> list[str]:
    """Commit as the person (their git config); a machine without one commits as slowloop."""
    name = git(repo, "config", "user.name", check=False).stdout.strip()
    email = git(repo, "config", "user.email", check=False).stdout.strip()
    out = []
    if not name:
        out += ["-c", "user.name=slowloop"]
    if not email:
        out += ["-c", "user.email=slowloop@localhost"]
    return out


def remote_url(repo: Path) -> str | None:
    if not (repo / ".git").is_dir():
        return None
    p = git(repo, "remote", "get-url", "origin", check=False)
    return p.stdout.strip() or None


def branch(repo: Path) -> str:
    p = git(repo, "symbolic-ref", "--short", "HEAD", check=False)
    return p.stdout.strip() or "main"


def rev(repo: Path, ref: str) -> str | None:
    p = git(repo, "rev-parse", "--verify", "-q", f"{ref}^{{commit}}", check=False)
    return p.stdout.strip() or None


@dataclass(frozen=True)
class Entry:
    mode: str
    oid: str


def tree(repo: Path, ref: str) -> dict[str, Entry]:
    """Every file of ``ref``'s tree: path -> (mode, blob id)."""
    out: dict[str, Entry] = {}
    if ref == EMPTY_TREE:
        return out
    for item in git(repo, "ls-tree", "-r", "-z", ref).stdout.split("\0"):
        if not item:
            continue
        meta, path = item.split("\t", 1)
        mode, _type, oid = meta.split(" ")
        out[path] = Entry(mode, oid)
    return out


@dataclass(frozen=True)
class Change:
    path: str
    status: str  # A, M, D, T (type changed)
    old: Entry | None
    new: Entry | None


def changes(repo: Path, base: str, theirs: str) -> list[Change]:
    """What ``theirs`` changed since ``base``, file by file (no rename detection: a rename is a
    removal and an addition, each judged)."""
    out = git(repo, "diff", "--raw", "-z", "--no-renames", "--no-abbrev", base, theirs).stdout.split("\0")
    found = []
    for meta, path in zip(out[0::2], out[1::2], strict=False):
        if not meta.startswith(":"):
            continue
        old_mode, new_mode, old_oid, new_oid, status = meta[1:].split(" ")
        found.append(Change(path, status[:1],
                            Entry(old_mode, old_oid) if old_oid != ZERO else None,
                            Entry(new_mode, new_oid) if new_oid != ZERO else None))
    return found


@dataclass(frozen=True)
class Author:
    commit: str
    name: str
    email: str
    subject: str

    def who(self) -> str:
        return f"{self.name} <{self.email}>"


def authors(repo: Path, span: str, path: str | None = None) -> list[Author]:
    """The commits in ``span`` (``a..b`` or one ref) touching ``path``, newest first."""
    args = ["log", "--format=%H%x00%an%x00%ae%x00%s", span]
    if path is not None:
        args += ["--", path]
    out = []
    for line in git(repo, *args, check=False).stdout.splitlines():
        parts = line.split("\0")
        if len(parts) == 4:
            out.append(Author(*parts))
    return out
