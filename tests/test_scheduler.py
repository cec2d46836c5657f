"""Scheduler rules on a controllable clock: dirty gate, cooldown, forced, threshold, cap, cadence."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from slowloop import clock
from slowloop.cli import cli
from slowloop.config import DEFAULTS, load_config
from slowloop.reflect.scheduler import agent_status, mark_cycle, next_cycle_at, plan_cycle
from slowloop.store import Store, open_store
from slowloop.transcripts.model import Step, Turn

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")

T0 = clock.parse_iso("2026-11-20T09:00:00Z")
HOUR, DAY = 3600.0, 86400.0
WEIGHTS = DEFAULTS["signals"]


class FakeClock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def fc() -> FakeClock:
    c = FakeClock(T0)
    clock.set_clock(c)
    return c


@pytest.fixture
def store() -> Store:
    s = open_store()
    yield s
    s.close()


@pytest.fixture
def cfg():
    # The cooldown bounds model calls: these tests are about a configured model (a local command),
    # whose calls it spaces out; the offline learner has none (test_offline_learner_has_no_cooldown).
    from slowloop.paths import home

    h = home()
    h.mkdir(parents=True, exist_ok=True)
    (h / "config.toml").write_text('[provider]\nkind = "command"\ncommand = "cat"\n', encoding="utf-8")
    return load_config()


def test_offline_learner_has_no_cooldown(fc, store):
    """With no model, a second lesson the same morning is learned at once: the offline learner
    costs nothing, so nothing makes it wait behind a first "nothing to save"."""
    offline = load_config()
    assert offline.provider.kind == "offline"
    record_turn(store, "alpha", signals=("user_correction",))
    reflected(store, "alpha")
    record_turn(store, "alpha", signals=("user_correction",))
    fc.advance(60)
    s = agent_status(store, "alpha", offline)
    assert s.due and s.cooldown_until is None, s.reasons


def record_turn(store: Store, agent: str, *, signals: tuple[str, ...] = (), session: str | None = "s1",
                user: str = "deploy the staging site", steps: tuple[Step, ...] = (),
                errors: tuple[tuple[str, str, str, str], ...] = (), aborted: bool = False,
                index: int | None = None, started_at: str | None = None) -> int:
    """Write a turn the way the ledger holds one (turns + signals + errors rows), with the signals
    we choose fired. ``errors`` are (kind, tool, evidence, excerpt). The same ``index`` and
    ``started_at`` again is the same turn, grown: it is updated in place, keeping its id."""
    aid = store.agent_id(agent)
    if index is None:
        index = store.query("SELECT COUNT(*) AS n FROM turns WHERE agent_id = ? AND "
                            "COALESCE(session_id, '') = COALESCE(?, '')", (aid, session))[0]["n"]
    turn = Turn(source=f"{session or 'loose'}.jsonl", format="claude-code", index=int(index),
                user_text=user, steps=steps, session_id=session,
                started_at=started_at or clock.iso(), aborted=aborted)
    fired = [(n, float(WEIGHTS[n]), f"{n} fired") for n in signals]
    score = round(sum(w for _, w, _ in fired), 6)
    threshold = float(WEIGHTS["threshold"])
    now = clock.iso()
    values = dict(content_hash=turn.content_hash(), source=turn.source, format=turn.format,
                  session_id=session, idx=turn.index, started_at=turn.started_at,
                  updated_at=now, user_text=user, tool_calls=len(turn.tool_calls),
                  corrected=int("user_correction" in signals), aborted=int(aborted),
                  rejected=len(turn.rejected_calls), recovered=0,
                  ended_in_real_error=int(any(e[0] == "real" for e in errors)), score=score,
                  threshold=threshold, reflect=int(score >= threshold - 1e-9), data=turn.to_json())
    with store.transaction() as db:
        row = db.execute("SELECT id FROM turns WHERE agent_id = ? AND key = ?",
                         (aid, turn.key())).fetchone()
        if row is None:
            values.update(agent_id=aid, key=turn.key(), recorded_at=now)
            cols = ", ".join(values)
            cur = db.execute(f"INSERT INTO turns({cols}) VALUES ({', '.join('?' * len(values))})",
                             tuple(values.values()))
            turn_id = int(cur.lastrowid)
        else:
            turn_id = int(row["id"])
            sets = ", ".join(f"{k} = ?" for k in values)
            db.execute(f"UPDATE turns SET {sets} WHERE id = ?", (*values.values(), turn_id))
            db.execute("DELETE FROM signals WHERE turn_id = ?", (turn_id,))
            db.execute("DELETE FROM errors WHERE turn_id = ?", (turn_id,))
        db.executemany("INSERT INTO signals(turn_id, name, weight, why) VALUES (?, ?, ?, ?)",
                       [(turn_id, *f) for f in fired])
        db.executemany("INSERT INTO errors(turn_id, kind, tool, evidence, excerpt) "
                       "VALUES (?, ?, ?, ?, ?)", [(turn_id, *e) for e in errors])
    return turn_id


def reflected(store: Store, agent: str, *, at: float | None = None) -> None:
    """What a completed reflection leaves behind: times and the watermark."""
    stamp = clock.iso(at)
    top = store.query("SELECT COALESCE(MAX(id), 0) AS m FROM turns")[0]["m"]
    with store.transaction() as db:
        db.execute("UPDATE agents SET last_reflected_at = ?, last_attempt_at = ?, "
                   "last_seen_turn_id = ? WHERE name = ?", (stamp, stamp, top, agent))


def add_edit(store: Store, agent: str, *, source: str = "explicit", skill: str = "deploy") -> None:
    aid = store.agent_id(agent)
    with store.transaction() as db:
        db.execute("INSERT INTO edits(agent_id, skill, at, source, note) VALUES (?, ?, ?, ?, ?)",
                   (aid, skill, clock.iso(), source, "changed the port"))


def snapshot(store: Store) -> dict:
    tables = [r["name"] for r in store.query(
        "SELECT name FROM sqlite_master WHERE type = 'table'" if store.backend == "sqlite" else
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")]
    return {t: [tuple(r) for r in store.query(f"SELECT * FROM {t} ORDER BY 1")] for t in tables}


# -- the dirty gate ------------------------------------------------------------------------------

def test_clean_agent_is_not_due_and_nothing_is_written(fc, store, cfg):
    record_turn(store, "alpha", signals=("user_correction", "complex_task"))
    reflected(store, "alpha")
    fc.advance(30 * DAY)  # long past cooldown and force_after: only the dirty gate holds it back
    before = snapshot(store)
    s = agent_status(store, "alpha", cfg)
    assert not s.due and not s.dirty and not s.forced
    assert s.reasons == ["clean: nothing new since the last reflection"]
    assert plan_cycle(store, cfg) == []
    assert snapshot(store) == before  # deciding costs no write (and no reflection row)
    assert store.query("SELECT COUNT(*) AS n FROM reflections")[0]["n"] == 0


def test_new_turn_past_watermark_makes_agent_dirty(fc, store, cfg):
    record_turn(store, "alpha", signals=("user_correction",))
    reflected(store, "alpha")
    fc.advance(5 * HOUR)
    record_turn(store, "alpha", signals=("user_correction", "complex_task"))
    record_turn(store, "alpha", signals=("error_recovery",))
    record_turn(store, "alpha")  # an uneventful turn: dirty, but adds no score
    s = agent_status(store, "alpha", cfg)
    assert s.due and s.dirty and not s.forced
    assert s.pending_turns == 3 and s.worthy_turns == 2
    assert s.pending_score == pytest.approx(2.2)
    assert s.reasons == ["dirty: 2 reflect-worthy turns, 1 other new turn, score 2.2"]


def test_turn_updated_after_reflection_is_new_again(fc, store, cfg):
    first = clock.iso()
    record_turn(store, "alpha", index=0, started_at=first, signals=("complex_task",))
    reflected(store, "alpha")
    fc.advance(5 * HOUR)
    assert not agent_status(store, "alpha", cfg).dirty
    # the same turn, grown (a session still being written): updated in place, below the watermark
    record_turn(store, "alpha", index=0, started_at=first, signals=("complex_task", "user_correction"))
    s = agent_status(store, "alpha", cfg)
    assert s.dirty and s.due and s.pending_turns == 1 and s.pending_score == pytest.approx(1.4)


def test_never_reflected_agent_with_worthy_turns_is_due(fc, store, cfg):
    record_turn(store, "alpha", signals=("user_correction",))
    s = agent_status(store, "alpha", cfg)
    assert s.due and s.last_reflected_at is None
    assert s.reasons == ["dirty: 1 reflect-worthy turn, score 0.9", "never reflected"]


def test_below_threshold_waits(fc, store, cfg):
    record_turn(store, "alpha", signals=("complex_task",))
    s = agent_status(store, "alpha", cfg)
    assert s.dirty and not s.due
    assert s.reasons[0] == "waiting: score 0.5 < 0.7"
    assert "none reflect-worthy" in s.reasons[1]
    # a stricter configuration changes the verdict, not the code
    loose = cfg.with_overrides(signals={"threshold": 0.5})
    record_turn(store, "beta", signals=("complex_task",))
    store.execute("UPDATE turns SET reflect = 1 WHERE agent_id = ?", (store.agent_id("beta"),))
    assert agent_status(store, "beta", loose).due


# -- user edits ----------------------------------------------------------------------------------

def test_explicit_edit_after_reflection_is_new_and_weighs_like_a_correction(fc, store, cfg):
    record_turn(store, "alpha", signals=("user_correction",))
    reflected(store, "alpha")
    fc.advance(5 * HOUR)
    add_edit(store, "alpha")
    s = agent_status(store, "alpha", cfg)
    assert s.dirty and s.due and s.pending_edits == 1 and s.pending_turns == 0
    assert s.pending_score == pytest.approx(0.9)
    assert s.reasons[0] == "dirty: 1 user edit, score 0.9"


def test_correction_edit_is_dirty_but_not_counted_twice(fc, store, cfg):
    record_turn(store, "alpha", signals=("complex_task",))
    reflected(store, "alpha")
    fc.advance(5 * HOUR)
    add_edit(store, "alpha", source="correction")
    s = agent_status(store, "alpha", cfg)
    assert s.dirty and not s.due and s.pending_score == 0
    assert "1 correction edit" in s.reasons[1]


# -- cooldown ------------------------------------------------------------------------------------

def test_cooldown_boundary(fc, store, cfg):
    record_turn(store, "alpha", signals=("user_correction",))
    reflected(store, "alpha")  # attempt at T0
    record_turn(store, "alpha", signals=("user_correction", "complex_task"))
    fc.advance(4 * HOUR - 1)
    s = agent_status(store, "alpha", cfg)
    assert not s.due and s.dirty
    assert s.cooldown_until == "2026-11-20T13:00:00Z"
    assert s.reasons[0] == "cooling down until 2026-11-20T13:00:00Z"
    assert s.reasons[1].startswith("dirty: 1 reflect-worthy turn")
    fc.advance(1)
    s = agent_status(store, "alpha", cfg)
    assert s.due and s.cooldown_until is None


def test_failed_attempt_also_cools_down(fc, store, cfg):
    record_turn(store, "alpha", signals=("user_correction",))
    store.execute("UPDATE agents SET last_attempt_at = ?", (clock.iso(),))  # failed: no watermark
    fc.advance(HOUR)
    s = agent_status(store, "alpha", cfg)
    assert not s.due and s.reasons[0] == "cooling down until 2026-11-20T13:00:00Z"
    short = cfg.with_overrides(scheduler={"cooldown": "30m"})
    assert agent_status(store, "alpha", short).due


# -- forced --------------------------------------------------------------------------------------

def test_forced_after_seven_days_even_with_a_low_score(fc, store, cfg):
    record_turn(store, "alpha", signals=("user_correction",))
    reflected(store, "alpha")
    fc.advance(6 * DAY)
    record_turn(store, "alpha")  # one uneventful turn: score 0
    s = agent_status(store, "alpha", cfg)
    assert not s.due and not s.forced and s.reasons[0] == "waiting: score 0 < 0.7"
    fc.advance(2 * DAY)
    s = agent_status(store, "alpha", cfg)
    assert s.due and s.forced
    assert s.reasons == ["forced: no reflection for 8 days", "dirty: 1 new turn, none reflect-worthy, score 0"]


def test_forced_never_applies_to_a_clean_agent(fc, store, cfg):
    record_turn(store, "alpha")
    reflected(store, "alpha")
    fc.advance(60 * DAY)
    s = agent_status(store, "alpha", cfg)
    assert not s.due and not s.forced


def test_forced_for_never_reflected_agent_counts_from_first_seen(fc, store, cfg):
    record_turn(store, "alpha", signals=("complex_task",))  # agent first seen now
    fc.advance(7 * DAY)
    s = agent_status(store, "alpha", cfg)
    assert s.due and s.forced
    assert s.reasons[0] == "forced: never reflected, first seen 7 days ago"


# -- the cycle -----------------------------------------------------------------------------------

def test_plan_orders_by_pending_score_and_caps(fc, store, cfg):
    # agent i gets i reflect-worthy corrections: score 0.9 * i
    for i in range(1, 8):
        for _ in range(i):
            record_turn(store, f"agent{i}", signals=("user_correction",), session=f"agent{i}")
    record_turn(store, "quiet", signals=("complex_task",), session="quiet")
    plan = plan_cycle(store, cfg)
    assert [s.agent for s in plan] == ["agent7", "agent6", "agent5", "agent4", "agent3"]
    assert [round(s.pending_score, 1) for s in plan] == [6.3, 5.4, 4.5, 3.6, 2.7]
    two = plan_cycle(store, cfg.with_overrides(scheduler={"max_agents_per_cycle": 2}))
    assert [s.agent for s in two] == ["agent7", "agent6"]
    only = plan_cycle(store, cfg, agents=["agent1", "quiet"])
    assert [s.agent for s in only] == ["agent1"]


def test_equal_scores_go_to_the_agent_that_waited_longest(fc, store, cfg):
    for name in ("b-recent", "a-older"):
        record_turn(store, name, signals=("user_correction",), session=name)
    reflected(store, "a-older", at=T0 - 30 * DAY)
    reflected(store, "b-recent", at=T0 - 2 * DAY)
    for name in ("b-recent", "a-older"):
        record_turn(store, name, signals=("user_correction",), session=name)
    store.execute("UPDATE agents SET last_attempt_at = NULL")
    plan = plan_cycle(store, cfg)
    assert [s.agent for s in plan][:2] == ["a-older", "b-recent"]


def test_next_cycle_cadence(fc, store, cfg):
    assert next_cycle_at(store, cfg, clock.now()) == "2026-11-20T09:00:00Z"  # never ran: now
    mark_cycle(store)
    assert next_cycle_at(store, cfg, clock.now()) == "2026-11-20T21:00:00Z"
    fc.advance(13 * HOUR)
    assert next_cycle_at(store, cfg, clock.now()) == "2026-11-20T22:00:00Z"  # overdue: now
    six = cfg.with_overrides(scheduler={"interval": "6h"})
    mark_cycle(store)
    assert next_cycle_at(store, six, clock.now()) == "2026-11-21T04:00:00Z"


def test_bad_duration_in_config_names_the_key(cfg):
    from slowloop.errors import UserError

    # refused where the value comes in, before any schedule is computed with it
    with pytest.raises(UserError, match="scheduler.cooldown = 'four hours'"):
        cfg.with_overrides(scheduler={"cooldown": "four hours"})


def test_unknown_agent_is_a_user_error(store, cfg):
    from slowloop.errors import UserError

    with pytest.raises(UserError, match="no agent named 'ghost'"):
        agent_status(store, "ghost", cfg)


# -- the command ---------------------------------------------------------------------------------

def test_schedule_command_shows_every_agent_and_why(fc, store, cfg):
    record_turn(store, "busy", signals=("user_correction", "complex_task"), session="busy")
    record_turn(store, "idle", session="idle")
    reflected(store, "idle")
    record_turn(store, "cooling", signals=("user_correction",), session="cooling")
    store.execute("UPDATE agents SET last_attempt_at = ? WHERE name = 'cooling'", (clock.iso(),))
    runner = CliRunner()
    res = runner.invoke(cli, ["schedule", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    by = {a["agent"]: a for a in data["agents"]}
    assert set(by) == {"busy", "idle", "cooling"}
    assert data["next_cycle"] == ["busy"]
    assert by["busy"]["due"] and by["busy"]["in_next_cycle"]
    assert by["idle"]["reasons"] == ["clean: nothing new since the last reflection"]
    assert by["cooling"]["reasons"][0] == "cooling down until 2026-11-20T13:00:00Z"
    text = runner.invoke(cli, ["schedule"])
    assert text.exit_code == 0
    # no daemon runs here: no "next cycle" is promised, and the output says what happens instead
    assert "busy: DUE" in text.output and "next cycle" not in text.output.split("\n", 1)[1]
    assert text.output.startswith("no `slowloop daemon` runs for this home") and not data["daemon_running"]
    assert "- cooling down until 2026-11-20T13:00:00Z" in text.output
    assert "- clean: nothing new since the last reflection" in text.output
    # while a daemon serves the home, the cycle it will run is shown
    from slowloop.fsutil import file_lock
    from slowloop.paths import home

    with file_lock(home() / "locks" / "daemon.lock", shared=True):
        text = runner.invoke(cli, ["schedule"])
    assert text.output.startswith("next cycle: ") and "busy: DUE (next cycle)" in text.output


def test_agents_and_schedule_show_the_same_pending_score_after_an_edit(slowloop_home):
    """One truth: ``slowloop agents`` reads the scheduler's pending score, edits included."""
    import json

    from click.testing import CliRunner

    from slowloop.cli import cli
    from slowloop.skills import SkillLibrary

    SkillLibrary("web", home=slowloop_home).create(
        "deploy", "Deploy the app to staging.", "1. Always tag the release first.\n")
    runner = CliRunner()
    r = runner.invoke(cli, ["record-edit", "--skill", "deploy", "--agent", "web", "--json"])
    assert r.exit_code == 0, r.output
    agents = {a["name"]: a for a in json.loads(runner.invoke(cli, ["agents", "--json"]).stdout)}
    sched = {a["agent"]: a for a in
             json.loads(runner.invoke(cli, ["schedule", "--json"]).stdout)["agents"]}
    assert agents["web"]["pending_score"] == pytest.approx(0.9)
    assert agents["web"]["pending_score"] == sched["web"]["pending_score"]
    assert agents["web"]["pending_edits"] == sched["web"]["pending_edits"] == 1
    text = runner.invoke(cli, ["agents"]).stdout
    assert "0.9" in text.splitlines()[1]


# -- the pass over a fleet reads only the agents that may be dirty -------------------------------

def test_the_fleet_pass_plans_exactly_what_a_status_of_every_agent_would(fc, store, cfg):
    from slowloop.reflect.scheduler import all_statuses, plan_cycle

    # every kind of agent the dirty gate tells apart, at several moments
    record_turn(store, "never-reflected", signals=("user_correction",))
    record_turn(store, "clean", signals=("user_correction",))
    reflected(store, "clean")
    record_turn(store, "new-after", signals=("user_correction",))
    reflected(store, "new-after")
    fc.advance(5 * 3600)
    record_turn(store, "new-after", signals=("user_correction",), session="s2")
    record_turn(store, "grown", signals=("user_correction",), index=0, started_at="2026-11-01T09:00:00Z")
    reflected(store, "grown")
    fc.advance(5 * 3600)
    record_turn(store, "grown", signals=("user_correction", "complex_task"), index=0,
                started_at="2026-11-01T09:00:00Z")  # the same turn, grown after the reflection
    record_turn(store, "edited", signals=())
    fc.advance(60)
    reflected(store, "edited")
    fc.advance(3600)
    add_edit(store, "edited")  # nothing new but a person's edit of a skill
    record_turn(store, "cooling", signals=("user_correction",))
    reflected(store, "cooling")
    record_turn(store, "cooling", signals=("user_correction",), session="s3")
    record_turn(store, "below-threshold", signals=("complex_task",))
    for moment in (0, 3 * 3600, 8 * 24 * 3600):
        fc.advance(moment)
        planned = plan_cycle(store, cfg, limit=None)
        every = sorted((s for s in all_statuses(store, cfg) if s.due),
                       key=lambda s: (-s.pending_score,
                                      clock.parse_iso(s.last_reflected_at) or float("-inf"), s.agent))
        assert [(s.agent, s.pending_score, s.reasons) for s in planned] == \
               [(s.agent, s.pending_score, s.reasons) for s in every]
    assert {s.agent for s in planned} >= {"never-reflected", "new-after", "grown", "edited"}


def test_during_the_models_cooldown_the_offline_learner_reads_the_turns_and_leaves_the_cooldown(fc, store, cfg):
    """The cooldown bounds model calls only: a second lesson taught the same morning is learned
    offline at once, and the model's next call stays where the cooldown put it."""
    record_turn(store, "alpha", signals=("user_correction",))
    reflected(store, "alpha")  # a model call at T0
    record_turn(store, "alpha", signals=("user_correction",))
    fc.advance(HOUR)
    s = agent_status(store, "alpha", cfg)
    assert not s.due and s.offline_due and s.cooldown_until, s.reasons
    before = store.query("SELECT last_attempt_at FROM agents WHERE name = 'alpha'")[0]["last_attempt_at"]
    from slowloop.reflect.cycle import reflect_agent

    out = reflect_agent("alpha", store=store, cfg=cfg)  # provider from the config: a model
    assert out.status in ("applied", "nothing") and any("offline learner" in n for n in out.notes), out
    assert out.sent_to.startswith("nowhere")  # no model was called
    after = store.query("SELECT last_attempt_at FROM agents WHERE name = 'alpha'")[0]["last_attempt_at"]
    assert after == before  # the model's cooldown is where it was
    assert not agent_status(store, "alpha", cfg).dirty  # the turns were read
