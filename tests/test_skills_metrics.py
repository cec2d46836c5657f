"""Skill metrics from the ledger: rates, transient/aborted exclusions, edits."""

from __future__ import annotations

import pytest

from slowloop import clock
from slowloop.skills.metrics import skill_metrics
from slowloop.store import Store, open_store

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")


def add_turn(store: Store, agent_id: int, key: str, *, real_error: bool = False,
             aborted: bool = False) -> int:
    now = clock.iso()
    with store.transaction() as db:
        cur = db.execute(
            "INSERT INTO turns(agent_id, key, content_hash, source, format, session_id, idx, "
            "recorded_at, updated_at, user_text, tool_calls, corrected, aborted, rejected, "
            "recovered, ended_in_real_error, score, threshold, reflect, data) VALUES "
            "(?, ?, 'h', 'test', 'openai', 's', 0, ?, ?, 'task', 0, 0, ?, 0, 0, ?, 0, 0.7, 0, '{}')",
            (agent_id, key, now, now, int(aborted), int(real_error)))
        return int(cur.lastrowid)


def add_invocation(store: Store, agent_id: int, skill: str, turn_id: int | None,
                   at: str = "2025-01-01T00:00:00Z") -> None:
    with store.transaction() as db:
        db.execute("INSERT INTO invocations(agent_id, skill, at, source, turn_id) VALUES (?, ?, ?, ?, ?)",
                   (agent_id, skill, at, "transcript" if turn_id else "cli", turn_id))


def test_rates_exclude_aborted_and_turnless_invocations(tmp_path):
    store = open_store(home=tmp_path / "h")
    aid = store.agent_id("default")
    with store.transaction() as db:
        for _ in range(8):
            db.execute("INSERT INTO impressions(agent_id, skill, at) VALUES (?, 'deploy', ?)",
                       (aid, clock.iso()))
    ok = add_turn(store, aid, "t1")
    bad = add_turn(store, aid, "t2", real_error=True)
    aborted_bad = add_turn(store, aid, "t3", real_error=True, aborted=True)
    add_invocation(store, aid, "deploy", ok, "2025-01-01T00:00:00Z")
    add_invocation(store, aid, "deploy", bad, "2025-01-02T00:00:00Z")
    add_invocation(store, aid, "deploy", aborted_bad, "2025-01-03T00:00:00Z")
    add_invocation(store, aid, "deploy", None, "2025-01-04T00:00:00Z")
    with store.transaction() as db:
        db.execute("INSERT INTO edits(agent_id, skill, at, source, turn_id) VALUES (?, 'deploy', ?, 'correction', ?)",
                   (aid, clock.iso(), ok))
        db.execute("INSERT INTO edits(agent_id, skill, at, source, turn_id) VALUES (?, 'deploy', ?, 'correction', ?)",
                   (aid, clock.iso(), ok))  # same turn twice: one edited use
        db.execute("INSERT INTO edits(agent_id, skill, at, source) VALUES (?, 'deploy', ?, 'explicit')",
                   (aid, clock.iso()))

    m = skill_metrics(store, "default")["deploy"]
    assert m.impressions == 8 and m.invocations == 4
    assert m.invocation_rate == 0.5
    assert m.edits_after_use == 2 and m.edit_after_use_rate == 0.5
    # judged: ok + bad (aborted and turnless left out) → 1 of 2 ineffective
    assert m.judged_invocations == 2 and m.ineffective == 1 and m.ineffective_rate == 0.5
    assert m.last_invoked_at == "2025-01-04T00:00:00Z"


def test_unknown_agent_and_zero_fill(tmp_path):
    store = open_store(home=tmp_path / "h")
    assert skill_metrics(store, "nobody") == {}
    m = skill_metrics(store, "nobody", names=["x"])["x"]
    assert m.invocations == 0 and m.invocation_rate == 0.0 and m.last_invoked_at is None
