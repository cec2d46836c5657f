"""store.artifacts: the ledger's data access for learned files and their use — one query per list,
never one per item."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from slowloop import clock
from slowloop.history import apply_changes, undo_reflection
from slowloop.reflect.authorship import persons_files
from slowloop.skills import SkillLibrary, plan_create
from slowloop.store import Store, artifacts, open_store

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")


@contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """The SQL statements ``store`` runs inside the block."""
    seen: list[str] = []
    store.trace(seen.append)
    try:
        yield seen
    finally:
        store.trace(None)


def _reflection(store: Store) -> int:
    aid = store.agent_id("default")
    with store.transaction() as db:
        return int(db.execute("INSERT INTO reflections(agent_id, started_at, status) "
                              "VALUES (?, ?, 'applied')", (aid, clock.iso())).lastrowid)


def _reads_of_changes(seen: list[str]) -> int:
    return sum(1 for s in seen if s.lstrip().upper().startswith("SELECT") and "changes" in s)


def _apply_and_undo(home: Path, n: int) -> tuple[int, int]:
    """Reads of ``changes`` while applying ``n`` new skills as one reflection, then undoing it."""
    store = open_store(home=home)
    rid = _reflection(store)
    changes = []
    for i in range(n):
        changes += plan_create(f"skill-{n}-{i}", f"Skill {i}. Use when asked.", "1. Do it.\n",
                               home=home, store=store)
    with statements(store) as applying:
        apply_changes(changes, store=store, agent="default", actor="reflection", reflection_id=rid)
    with statements(store) as undoing:
        assert len(undo_reflection(store, "default", rid)) == n
    store.close()
    return _reads_of_changes(applying), _reads_of_changes(undoing)


def test_apply_and_undo_read_changes_a_fixed_number_of_times(slowloop_home):
    assert _apply_and_undo(slowloop_home, 2) == _apply_and_undo(slowloop_home, 7)


def test_persons_files_is_one_query(slowloop_home):
    lib = SkillLibrary(home=slowloop_home)
    for i in range(5):
        lib.create(f"s{i}", f"Skill {i}.", "1. Do it.\n", actor="reflection")
    mine = lib.path_of("s1")
    mine.write_text(mine.read_text() + "\nA person's line.\n")
    lib.list()  # records the person's edit
    aid = lib.store.agent_id("default")
    paths = [lib.path_of(f"s{i}") for i in range(5)] + [lib.skills_dir / "never" / "SKILL.md"]
    with statements(lib.store) as seen:
        assert persons_files(lib.store, aid, paths) == [mine]
    assert _reads_of_changes(seen) == 1


def test_latest_changes_past_the_parameter_chunk(slowloop_home):
    store = open_store(home=slowloop_home)
    aid = store.agent_id("default")
    paths = [f"/x/{i}.md" for i in range(1234)]
    with store.transaction() as tx:
        for p in paths:
            artifacts.insert_change(tx, aid, at=clock.iso(), kind="memory", target=p, op="create",
                                    actor="slowloop", reflection_id=None, path=p, before=None,
                                    after="one", note="")
        artifacts.insert_change(tx, aid, at=clock.iso(), kind="memory", target=paths[-1],
                                op="edit", actor="person", reflection_id=None, path=paths[-1],
                                before="one", after="two", note="")
    latest = artifacts.latest_changes(store, aid, paths)
    assert len(latest) == len(paths) and latest[paths[-1]] == ("two", "memory")
    assert latest == artifacts.latest_changes(store, aid)
    assert artifacts.latest_changes(store, aid, []) == {}
    store.close()


def test_skill_usage_and_counts_are_grouped(slowloop_home):
    lib = SkillLibrary(home=slowloop_home)
    for name in ("a", "b"):
        lib.create(name, f"Skill {name}.", "1. Do it.\n")
    lib.read("a")
    lib.read("b")
    lib.read("a")
    aid = lib.store.agent_id("default")
    with statements(lib.store) as seen:
        counts = artifacts.skill_counts(lib.store, aid)
    assert {k: v["invocations"] for k, v in counts.items()} == {"a": 2, "b": 1}
    assert len([s for s in seen if s.lstrip().upper().startswith("SELECT")]) == 4
