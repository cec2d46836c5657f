"""Atomic, private, conflict-aware file writes and inter-process file locks.

Markdown files are the truth people edit, so every write goes through ``atomic_write``: a temp file
in the same directory, fsync, ``os.replace``. Callers that read-modify-write pass the hash they read
(``expect``) so that a person's edit made in between is detected instead of overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .errors import ConflictError, LockedError

if sys.platform != "win32":  # POSIX: flock, shared or exclusive
    import fcntl


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_hash(path: Path) -> str | None:
    """The sha256 of the file's bytes, or ``None`` when it does not exist."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


# A learned Markdown file (a memory file, the memo, a skill) is read only up to this size: a bigger
# one was not written by slowloop, whose files stay a few kilobytes, and would flood every session.
LEARNED_FILE_MAX = 4 * 1024 * 1024


def read_text(path: Path, *, within: Path | None = None) -> tuple[str | None, str | None]:
    """``(text, hash)``; ``(None, None)`` when missing — or when a folder stands where the file
    should be (there is no such file; ``doctor`` names the folder).

    ``within`` marks a file the agent will read as its own (the memory, the memo, a skill): it must
    be a regular file, not a link, inside ``within`` through no linked folder, and at most
    ``LEARNED_FILE_MAX`` bytes — else ``DataError`` names it. A repository or a sync cannot then put
    ``~/.aws/credentials`` or ``~/.ssh/id_ed25519`` into a session's context behind a link.
    """
    if within is None:
        try:
            data = Path(path).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            return None, None
        return data.decode("utf-8", errors="replace"), hashlib.sha256(data).hexdigest()
    return _read_learned(Path(path), Path(within))


def leads_outside(path: Path, top: Path) -> str | None:
    """Where ``path`` really is, when links carry it outside ``top``; None when it stays inside."""
    real_top, real = os.path.realpath(top), os.path.realpath(path)
    return real if os.path.commonpath([real_top, real]) != real_top else None


def _read_learned(path: Path, within: Path) -> tuple[str | None, str | None]:
    from .errors import DataError

    hint = "replace it with the file itself (slowloop reads only regular files in its folders)"
    real_parent = leads_outside(path.parent, within)
    if real_parent is not None:
        if not os.path.exists(real_parent):
            return None, None
        raise DataError(f"a linked folder leads outside {within} ({path.parent} -> {real_parent}); "
                        "not read", path=str(path), hint=hint)
    try:
        fd = os.open(str(path), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None, None
    except OSError as exc:
        if exc.errno == errno.ELOOP or os.path.islink(path):
            if not os.path.exists(path):
                return None, None
            raise DataError(f"is a link (to {os.path.realpath(path)}), not a file; not read",
                            path=str(path), hint=hint) from None
        raise
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            return None, None
        if not stat.S_ISREG(st.st_mode):
            raise DataError("is not a regular file (a pipe or a device); not read", path=str(path), hint=hint)
        if st.st_size > LEARNED_FILE_MAX:
            raise DataError(f"is {st.st_size / 1e6:.0f} MB; a learned file is read up to "
                            f"{LEARNED_FILE_MAX // (1024 * 1024)} MB, so it was not read", path=str(path),
                            hint="shorten it (or move what it holds elsewhere); slowloop's own files "
                                 "stay a few kilobytes")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(LEARNED_FILE_MAX + 1)
    finally:
        os.close(fd)
    return data.decode("utf-8", errors="replace"), hashlib.sha256(data).hexdigest()


def atomic_write(path: Path, text: str, *, expect: str | None | bool = False, mode: int = 0o600) -> str:
    """Write ``text`` to ``path`` atomically and return the new content hash.

    ``expect``: ``False`` (default) writes unconditionally; ``None`` requires that the file does not
    exist; a hash requires the file to still have that hash. A mismatch raises ``ConflictError`` and
    leaves the file untouched. The check and the replace happen under the file's lock, so two
    slowloop processes cannot interleave; a person's editor does not take our lock, which is why
    the hash check exists.
    """
    path = Path(path)
    confine(path)
    make_private_dirs(path.parent)
    data = text.encode("utf-8")
    with file_lock(lock_path_for(path)):
        if expect is not False:
            try:
                old = path.read_bytes()
            except FileNotFoundError:
                old = None
            current = None if old is None else hashlib.sha256(old).hexdigest()
            if current != expect:
                raise ConflictError(
                    f"{path} changed since it was read (someone edited it); not overwriting",
                    hint="re-read the file and apply the change again",
                )
            if old is not None:
                _refuse_lossy_rewrite(path, old)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        fsync_dir(path.parent)
    return hashlib.sha256(data).hexdigest()


def _refuse_lossy_rewrite(path: Path, old: bytes) -> None:
    """A read-modify-write of a file that is not UTF-8 would carry U+FFFD where the person's bytes
    were (``read_text`` decodes leniently so that reading never fails): refuse instead."""
    try:
        old.decode("utf-8")
    except UnicodeDecodeError as exc:
        from .errors import DataError

        line = old.count(b"\n", 0, exc.start) + 1
        raise DataError(f"not UTF-8 text (byte {old[exc.start]:#04x}); not rewriting it, that would "
                        "replace the bytes slowloop cannot read", path=str(path), line=line,
                        hint="save the file as UTF-8, then run the command again") from None


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new file in ``directory`` durable (POSIX; a no-op elsewhere)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(str(directory), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def lock_dir() -> Path:
    """This user's lock folder, where no other user can create it first.

    ``$XDG_RUNTIME_DIR/slowloop`` (per-user, private, made by the login session) when there is one,
    else the user's cache folder. A shared folder such as ``/tmp`` would let another local user
    create the lock folder first and block every write (SessionStart would then deliver nothing).
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and _private_dir(Path(runtime)):
        d = Path(runtime) / "slowloop"
    elif sys.platform == "darwin":
        d = Path.home() / "Library" / "Caches" / "slowloop" / "locks"
    else:
        d = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "slowloop" / "locks"
    make_private_dirs(d)
    if hasattr(os, "getuid") and d.stat().st_uid != os.getuid():
        raise LockedError(f"{d} belongs to another user; refusing to keep locks there",
                          hint="remove it, or set XDG_RUNTIME_DIR to a private folder")
    return d


def _private_dir(d: Path) -> bool:
    try:
        st = d.stat()
    except OSError:
        return False
    return (not hasattr(os, "getuid") or st.st_uid == os.getuid()) and not st.st_mode & 0o077


def make_private_dirs(d: Path) -> None:
    """``mkdir -p`` where every folder it creates is 0700 (whatever the umask)."""
    d = Path(d)
    missing = []
    while not d.exists():
        missing.append(d)
        if d.parent == d:
            break
        d = d.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            continue
        with contextlib.suppress(OSError):
            os.chmod(folder, 0o700)


def confine(path: Path, root: Path | None = None) -> None:
    """Refuse a write in the home that a planted symlink would carry outside it.

    Only paths under the slowloop home are confined (``hooks install`` writes a project's
    settings.json through its symlink on purpose). The home itself may be a link; what is
    inside it may not lead out.
    """
    from .errors import DataError
    from .paths import home

    top = os.path.abspath(root if root is not None else home())
    target = os.path.abspath(path)
    if os.path.commonpath([top, target]) != top:
        return
    real = leads_outside(Path(target), Path(top))
    if real is not None:
        raise DataError(f"a symlink in the slowloop home leads outside it ({target} -> {real}); "
                        "not writing through it", path=target,
                        hint="remove the symlink; slowloop keeps everything it writes in its home")


def lock_path_for(path: Path) -> Path:
    """The lock file guarding ``path``, kept out of the folder the file lives in.

    A ``SKILL.md.lock`` beside each skill would show up in the folders Claude Code and Codex load,
    and in the user's project when memory lives there. Keyed by the resolved path in one per-user
    folder, every slowloop process still agrees on one lock per file, whatever home it was given.
    """
    key = hashlib.sha256(str(Path(path).resolve()).encode("utf-8")).hexdigest()[:32]
    return lock_dir() / f"{key}.lock"


@contextlib.contextmanager
def file_lock(lock_path: Path, *, timeout: float = 30.0, shared: bool = False) -> Iterator[None]:
    """An advisory inter-process lock on ``lock_path`` (created if needed).

    ``flock`` locks die with their process, so a crashed holder never blocks anyone forever. Where
    there is no ``flock`` (Windows) the well-kept ``filelock`` library locks instead (see
    ``_portable_lock``).
    """
    lock_path = Path(lock_path)
    make_private_dirs(lock_path.parent)
    if sys.platform == "win32":  # pragma: no cover — the same code is tested on POSIX directly
        with _portable_lock(lock_path, timeout=timeout):
            yield
        return
    fd = os.open(str(lock_path), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        op = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, op | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                if time.monotonic() >= deadline:
                    raise LockedError(
                        f"{lock_path} is held by another process",
                        hint="wait for it to finish, or stop the other slowloop process") from None
                time.sleep(0.02)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextlib.contextmanager
def _portable_lock(lock_path: Path, *, timeout: float) -> Iterator[None]:
    """An exclusive lock through ``filelock`` (``msvcrt`` on Windows), for platforms without
    ``flock``. A shared request takes it exclusively: readers wait for each other, never for less
    safety. Like ``flock``, the OS releases it when its process dies."""
    import filelock

    lock = filelock.FileLock(str(lock_path), timeout=max(timeout, 0), thread_local=False)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise LockedError(f"{lock_path} is held by another process",
                          hint="wait for it to finish, or stop the other slowloop process") from None
    try:
        yield
    finally:
        lock.release()


def append_line(path: Path, line: str) -> None:
    """Append one line under the file's lock (used for logs and append-only notes)."""
    path = Path(path)
    confine(path)
    make_private_dirs(path.parent)
    with file_lock(lock_path_for(path)):
        fd = os.open(str(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, (line.rstrip("\n") + "\n").encode("utf-8"))
        finally:
            os.close(fd)


def replace_foreign_file(path: Path, text: str, *, expect: str | None, mode: int = 0o644) -> None:
    """Atomically replace a file that belongs to another program, unless it changed since read.

    Unlike ``fsutil.atomic_write`` it leaves no lock file beside the target: these files live in
    the user's project and home folders, where a stray ``settings.json.lock`` would be litter.
    """
    # A settings.json or AGENTS.md is often a link into a dotfiles repo (or AGENTS.md -> CLAUDE.md):
    # write through to the file it points at, or os.replace would turn the link into a copy and
    # quietly cut the person's file off from its source.
    path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        try:
            current = hashlib.sha256(path.read_bytes()).hexdigest()
        except FileNotFoundError:
            current = None
        if current != expect:
            raise ConflictError(f"{path} changed while slowloop was updating it; not overwriting",
                                hint="run the command again")
        os.replace(tmp, path)
        fsync_dir(path.parent)  # the rename itself survives a crash
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
