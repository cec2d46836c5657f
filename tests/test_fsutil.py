"""Atomic writes: lock files stay out of the folders agents load; conflicts are refused."""

from __future__ import annotations

import pytest

from slowloop.errors import ConflictError
from slowloop.fsutil import atomic_write, lock_path_for, read_text


def test_no_lock_file_beside_what_agents_load(slowloop_home):
    from slowloop.skills import SkillLibrary

    lib = SkillLibrary("default")
    lib.create("run-tests", "Run the tests. Use when asked to test.", "1. Run `pytest -q` in the repo root.\n")
    lib.patch("run-tests", "pytest -q", "python -m pytest -q")
    skills_dir = slowloop_home / "agents" / "default" / "skills"
    assert sorted(p.name for p in skills_dir.rglob("*")) == ["SKILL.md", "run-tests"]
    assert not lock_path_for(skills_dir / "run-tests" / "SKILL.md").is_relative_to(slowloop_home)


def test_expect_hash_refuses_a_concurrent_edit(tmp_path):
    f = tmp_path / "note.md"
    h = atomic_write(f, "one\n", expect=None)
    f.write_text("a person's edit\n")
    with pytest.raises(ConflictError):
        atomic_write(f, "two\n", expect=h)
    assert read_text(f)[0] == "a person's edit\n"


def test_the_memory_leaves_no_lock_file_in_a_project_it_lives_in(tmp_path):
    from slowloop.memory.files import Memory

    project = tmp_path / "project" / "memory"
    mem = Memory(project)
    mem.init()
    mem.add_debt("the flaky login test is skipped, not fixed")
    mem.note("moved the login flow to the new session store")
    assert mem.debts() and "session store" in mem.text("chronicle.md")
    assert not [p.name for p in project.rglob("*.lock")]
    assert not lock_path_for(project).is_relative_to(tmp_path)


def test_the_lock_for_platforms_without_flock_excludes_a_flock_holder_and_times_out(tmp_path):
    """fsutil._portable_lock is what Windows runs (filelock, msvcrt there); on POSIX filelock uses
    flock too, so it must wait for a holder of file_lock in another process, then get the lock."""
    import subprocess
    import sys
    import time

    from slowloop.errors import LockedError
    from slowloop.fsutil import _portable_lock

    lock = tmp_path / "locks" / "x.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from pathlib import Path; from slowloop.fsutil import file_lock\n"
         f"with file_lock(Path({str(lock)!r})):\n    print('held', flush=True); time.sleep(1.0)\n"
         "print('released', flush=True)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        t0 = time.monotonic()
        with pytest.raises(LockedError, match="held by another process"):
            with _portable_lock(lock, timeout=0.2):
                pass
        assert time.monotonic() - t0 < 0.9
        with _portable_lock(lock, timeout=10):  # it waits for the holder, then the lock is ours
            assert holder.stdout.readline().strip() == "released"
    finally:
        holder.wait(timeout=10)
    assert holder.returncode == 0


def test_slowloops_own_locks_live_under_the_homes_lock_folder(tmp_path):
    from slowloop.paths import home_lock

    assert home_lock("daemon.lock", tmp_path) == tmp_path / "locks" / "daemon.lock"
    for bad in ("", "../x.lock", ".hidden", "a/b.lock"):
        with pytest.raises(ValueError):
            home_lock(bad, tmp_path)
