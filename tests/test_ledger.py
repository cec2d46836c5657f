"""The data-access layer (``slowloop.store.ledger``): the modules above it hold no SQL, and one
reflection runs the same number of statements whatever the number of turns it reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from integrations_fixtures import cc_turn, lines

from slowloop.config import load_config
from slowloop.ingest import ingest_paths
from slowloop.reflect.bundle import build_bundle
from slowloop.reflect.cycle import reflect_agent
from slowloop.store import ledger, open_store

SRC = Path(__file__).resolve().parents[1] / "src" / "slowloop"

# The modules whose SQL lives in the ledger layer (a unit of work, `with store.transaction():`,
# may still group several of its calls).
ABOVE_THE_LAYER = [
    "ingest.py", "integrations/follow.py", "integrations/hooks_runtime.py", "integrations/watch.py",
    "reflect/scheduler.py", "reflect/bundle.py", "reflect/cycle.py", "reflect/apply.py",
    "reflect/lease.py", "reflect/overview.py", "cli/status.py", "cli/agents.py", "sync/__init__.py",
]
SQL = re.compile(r"\.(query|execute|executemany|executescript)\(|\b(SELECT|INSERT|UPDATE|DELETE)\s+"
                 r"(\*|\w+\s*(,|FROM|INTO|SET)|FROM|INTO|OR)")


@pytest.mark.parametrize("module", ABOVE_THE_LAYER)
def test_no_sql_above_the_layer(module: str) -> None:
    text = (SRC / module).read_text(encoding="utf-8")
    found = [line.strip() for line in text.splitlines() if SQL.search(line)]
    assert found == [], f"{module} runs SQL itself: {found}"


def _session(home: Path, turns: int) -> Path:
    recs: list[dict] = []
    for i in range(turns):
        if i % 2 == 0:
            recs += cc_turn(f"run the tests for module {i}", n=i, answer=f"I ran npm install for {i}.",
                            tool_error="Error: tests failed" if i % 4 == 0 else None)
        else:
            recs += cc_turn("No, that's wrong: use pnpm, never npm, in this project.", n=i,
                            answer="Sorry, using pnpm.")
    path = home / f"session-{turns}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(lines(recs))
    return path


def _statements(home: Path, agent: str, turns: int) -> tuple[int, int]:
    """(statements the bundle ran, statements one offline reflection ran) over ``turns`` turns."""
    cfg = load_config()
    with open_store() as store:
        ingest_paths([_session(home, turns)], agent=agent, store=store, cfg=cfg)
        seen: list[str] = []
        store.trace(seen.append)
        build_bundle(store, agent, cfg)
        bundle = len(seen)
        seen.clear()
        out = reflect_agent(agent, store=store, cfg=cfg, provider=None, force=True)
        store.trace(None)
    assert out.status == "applied", out
    return bundle, len(seen)


def test_a_reflection_runs_as_many_statements_for_20_turns_as_for_4(slowloop_home: Path) -> None:
    small = _statements(slowloop_home, "small", 4)
    large = _statements(slowloop_home, "large", 20)
    assert large == small  # no query per turn: not in the bundle, not in the distiller's evidence


def test_previous_turns_matches_conversations_without_a_session(slowloop_home: Path) -> None:
    cfg = load_config()
    with open_store() as store:
        ingest_paths([_session(slowloop_home, 4)], agent="a", store=store, cfg=cfg)
        agent_id = store.agent_id("a")
        rows = ledger.turns_by_ids(store, agent_id, list(range(1, 10)))
        keys = [(r["source"], r["idx"], r["session_id"]) for r in rows]
        before = ledger.previous_turns(store, agent_id, keys)
        for r in rows:
            prev = before.get((r["source"], r["idx"], r["session_id"] or ""))
            if r["idx"] == 0:
                assert prev is None
            else:
                assert prev is not None and prev["idx"] == r["idx"] - 1
                assert prev["session_id"] == r["session_id"]
        # a turn asking without a session finds none of these (they all have one)
        assert ledger.previous_turns(store, agent_id, [(rows[1]["source"], 1, None)]) == {}
