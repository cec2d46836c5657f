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
