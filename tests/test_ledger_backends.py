"""The ledger on PostgreSQL: the same schema as SQLite, found by URL or config, clear errors, and
the fleet's guarantees — machines racing for a lease, migrating a new database, recording the same
turns, dying mid-transaction, and two daemons on two machines sharing the due agents.

(The storage, concurrency and crash tests of the ledger itself run on both databases: the modules
that use the ``ledger_backend`` fixture.)
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from slowloop import clock
from slowloop.errors import DataError
from slowloop.store import Store, ledger, open_store
from slowloop.store.db import SQLiteStore

CTX = mp.get_context("spawn")


def _columns(store: Store) -> dict[str, list[str]]:
    if store.backend == "sqlite":
        tables = [r[0] for r in store.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {t: [r["name"] for r in store.query(f"PRAGMA table_info({t})")] for t in tables}
    out: dict[str, list[str]] = {}
    for r in store.query("SELECT table_name, column_name FROM information_schema.columns WHERE "
                         "table_schema = 'public' AND table_name != 'slowloop_schema' "
                         "ORDER BY table_name, ordinal_position"):
        out.setdefault(r["table_name"], []).append(r["column_name"])
    return out


def _indexes(store: Store) -> set[str]:
    if store.backend == "sqlite":
        return {r[0] for r in store.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    return {r[0] for r in store.query(
        "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE "
        "'%\\_pkey' AND indexname NOT LIKE '%\\_key'")}


def test_the_same_migrations_give_the_same_schema_on_both(postgres_url, tmp_path):
    with SQLiteStore(tmp_path / "l.db") as lite, open_store(home=tmp_path, url=postgres_url) as pg:
        assert pg.backend == "postgresql" and lite.backend == "sqlite"
        assert pg.schema_version == lite.schema_version > 0
        assert _columns(pg) == _columns(lite)
        assert _indexes(pg) == _indexes(lite)
        assert pg.integrity() == [] and lite.integrity() == []


def test_the_url_comes_from_the_variable_or_from_config(postgres_url, slowloop_home, monkeypatch):
    with open_store(home=slowloop_home) as store:
        assert store.backend == "sqlite"
    slowloop_home.mkdir(parents=True, exist_ok=True)
    (slowloop_home / "config.toml").write_text(f'[ledger]\ndatabase_url = "{postgres_url}"\n')
    with open_store(home=slowloop_home) as store:
        assert store.backend == "postgresql"
        store.agent_id("from-config")
    (slowloop_home / "config.toml").write_text("")
    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", postgres_url)
    with open_store(home=slowloop_home) as store:
        assert store.backend == "postgresql"
        assert store.agent_id("from-config", create=False) is not None  # the same database


def test_a_wrong_url_is_an_error_naming_it_without_its_password(slowloop_home, monkeypatch):
    url = f"postgresql://me:hunter2@/nosuchdb?host={slowloop_home}/no-socket-here"
    with pytest.raises(DataError) as err:
        open_store(home=slowloop_home, url=url)
    text = str(err.value) + (err.value.hint or "")
    assert "me:***@" in text and "hunter2" not in text
    assert "SLOWLOOP_DATABASE_URL" in (err.value.hint or "")
    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", url)
    run = subprocess.run([sys.executable, "-m", "slowloop", "status"], capture_output=True, text=True,
                         env={**os.environ})
    assert run.returncode != 0
    assert "cannot open the PostgreSQL ledger" in run.stderr and "hunter2" not in run.stderr
    assert "Traceback" not in run.stderr


def test_config_show_hides_the_password(slowloop_home, monkeypatch):
    monkeypatch.setenv("SLOWLOOP_LEDGER__DATABASE_URL", "postgresql://me:hunter2@db.example/ledger")
    run = subprocess.run([sys.executable, "-m", "slowloop", "config", "show"], capture_output=True,
                         text=True, env={**os.environ})
    assert run.returncode == 0, run.stderr
    assert "postgresql://me:***@db.example/ledger" in run.stdout and "hunter2" not in run.stdout


# -- machines at once ----------------------------------------------------------------------------

def _open_and_migrate(url: str, home: str, start: float, q) -> None:
    while time.time() < start:
        time.sleep(0.001)
    try:
        with open_store(home=Path(home), url=url) as store:
            q.put(("ok", store.schema_version))
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        q.put(("error", repr(exc)))


def test_machines_opening_a_new_database_at_once_migrate_it_once(postgres_url, tmp_path):
    q = CTX.Queue()
    start = time.time() + 1.5
    procs = [CTX.Process(target=_open_and_migrate, args=(postgres_url, str(tmp_path / f"m{i}"), start, q))
             for i in range(6)]
    for p in procs:
        p.start()
    results = [q.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(30)
    with open_store(home=tmp_path, url=postgres_url) as store:
        expected = store.schema_version
        assert store.query("SELECT COUNT(*) FROM slowloop_schema")[0][0] == 1
    assert results == [("ok", expected)] * 6


def _race_for_lease(url: str, home: str, host: str, start: float, q) -> None:
    from slowloop.reflect import lease

    lease._host = lambda: host  # type: ignore[assignment]  # another machine
    with open_store(home=Path(home), url=url) as store:
        while time.time() < start:
            time.sleep(0.0005)
        got = lease.acquire(store, "reflect:shared", holder=f"worker on {host}", ttl="1h")
        q.put(host if got is not None else None)


def test_machines_racing_for_an_agent_lease_get_it_once(postgres_url, tmp_path):
    with open_store(home=tmp_path, url=postgres_url):
        pass  # migrated before the race
    for round_ in range(3):
        q = CTX.Queue()
        start = time.time() + 1.5
        procs = [CTX.Process(target=_race_for_lease,
                             args=(postgres_url, str(tmp_path / f"h{i}"), f"machine-{i}", start, q))
                 for i in range(5)]
        for p in procs:
            p.start()
        winners = [w for w in (q.get(timeout=60) for _ in procs) if w is not None]
        for p in procs:
            p.join(30)
        assert len(winners) == 1, (round_, winners)
        with open_store(home=tmp_path, url=postgres_url) as store:
            row = ledger.lease_row(store, "reflect:shared")
            assert row is not None and row["host"] == winners[0]
            store.execute("DELETE FROM leases")  # the next round starts free


def _hold_a_transaction(url: str, home: str, ready) -> None:
    with open_store(home=Path(home), url=url) as store:
        aid = store.agent_id("crashy")
        with store.transaction() as db:
            store.lock(f"agent:{aid}")
            db.execute("UPDATE agents SET last_attempt_at = 'half-written' WHERE id = ?", (aid,))
            ready.set()
            time.sleep(600)  # killed here, mid-transaction, holding the agent's lock


def test_a_worker_killed_mid_transaction_leaves_nothing_half_done_and_blocks_no_one(postgres_url,
                                                                                   tmp_path):
    with open_store(home=tmp_path, url=postgres_url) as store:
        aid = store.agent_id("crashy")
    ready = CTX.Event()
    p = CTX.Process(target=_hold_a_transaction, args=(postgres_url, str(tmp_path / "w"), ready))
    p.start()
    assert ready.wait(60)
    os.kill(p.pid, signal.SIGKILL)
    p.join(30)
    with open_store(home=tmp_path, url=postgres_url) as store:
        t0 = time.monotonic()
        with store.transaction() as db:
            store.lock(f"agent:{aid}")  # the dead worker's lock went with its connection
            db.execute("UPDATE agents SET last_attempt_at = ? WHERE id = ?", (clock.iso(), aid))
        assert time.monotonic() - t0 < 30
        row = ledger.agent_by_id(store, aid)
        assert row is not None and row["last_attempt_at"] != "half-written"


# -- two daemons on two machines ---------------------------------------------------------------------

CORRECTION = "No, that's wrong: we never use requests here. Use httpx."


def _transcript(path: Path, agent_no: int) -> None:
    lines = []
    sid = f"s-{agent_no}"
    ts = "2026-11-01T10:00:0{}Z"
    msgs = [("user", f"fetch the status page of service {agent_no}"),
            ("assistant", "I'll use requests for that."),
            ("user", CORRECTION),
            ("assistant", "Understood, switching to httpx.")]
    for i, (role, text) in enumerate(msgs):
        lines.append(json.dumps({"type": role, "sessionId": sid, "uuid": f"u{agent_no}-{i}",
                                 "timestamp": ts.format(i), "cwd": "/proj",
                                 "message": {"role": role, "content": text}}))
    path.write_text("\n".join(lines) + "\n")


def _fleet_env(url: str, *, cap: int) -> dict[str, str]:
    """The environment of a machine of the fleet: the shared ledger, a cap per cycle, no
    automatic reflection (the daemons under test do it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOWLOOP_")}
    env.update(SLOWLOOP_DATABASE_URL=url, SLOWLOOP_REFLECT__AUTO="false",
               SLOWLOOP_SCHEDULER__MAX_AGENTS_PER_CYCLE=str(cap))
    return env


def _record_corrections(env: dict[str, str], tmp: Path, agents: list[str], homes: list[Path]) -> None:
    """Each agent's conversation with a correction, ingested by `slowloop ingest` on the homes in
    turn (one transcript per agent, each with its own session)."""
    for i, name in enumerate(agents):
        t = tmp / f"t-{name}.jsonl"
        _transcript(t, 1000 + i)
        run = subprocess.run([sys.executable, "-m", "slowloop", "ingest", str(t), "--agent", name],
                             env={**env, "SLOWLOOP_HOME": str(homes[i % len(homes)])},
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr


def test_two_daemons_on_two_machines_share_the_due_agents_and_never_reflect_one_twice(
        postgres_url, tmp_path, monkeypatch):
    agents = [f"svc{i}" for i in range(8)]
    env = _fleet_env(postgres_url, cap=5)
    homes = [tmp_path / "machine-a", tmp_path / "machine-b"]
    _record_corrections(env, tmp_path, agents, [homes[0]])  # what people did, from machine A
    with open_store(home=homes[0], url=postgres_url) as store:
        assert all(ledger.turn_activity(store, store.agent_id(n))[0] == 2 for n in agents)
    # both machines' daemons start at once, one cycle each
    procs = [subprocess.Popen([sys.executable, "-m", "slowloop", "reflect", "--due", "--json"],
                              env={**env, "SLOWLOOP_HOME": str(h)}, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for h in homes]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-1000:] for o in outs]
    with open_store(home=homes[0], url=postgres_url) as store:
        rows = store.query("SELECT a.name, r.status, r.started_at, r.finished_at FROM reflections r "
                           "JOIN agents a ON a.id = r.agent_id ORDER BY a.name, r.id")
    by_agent: dict[str, list] = {}
    for r in rows:
        by_agent.setdefault(r["name"], []).append(r)
    # every due agent reflected on exactly once, by one machine or the other: 5 + 3, not 5 twice
    assert sorted(by_agent) == agents
    assert all(len(v) == 1 and v[0]["status"] == "applied" for v in by_agent.values()), by_agent
    # each machine wrote what it learned into its own home: together all, no agent on both,
    # neither past its cap of 5
    learned_on = {h.name: {p.parent.name for p in (h / "agents").glob("*/memo.md")} for h in homes}
    assert learned_on["machine-a"] | learned_on["machine-b"] == set(agents)
    assert learned_on["machine-a"] & learned_on["machine-b"] == set()
    assert all(len(v) <= 5 for v in learned_on.values()), learned_on


def test_undo_on_another_machine_refuses_and_records_nothing(postgres_url, tmp_path, monkeypatch):
    from slowloop.errors import UserError
    from slowloop.history import undo_reflection
    from slowloop.ingest import ingest_paths
    from slowloop.reflect.cycle import reflect_agent

    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", postgres_url)
    a, b = tmp_path / "machine-a", tmp_path / "machine-b"
    t = tmp_path / "t.jsonl"
    _transcript(t, 0)
    from slowloop.config import load_config

    with open_store(home=a) as store:
        ingest_paths([t], agent="svc", store=store, cfg=load_config(a))
    out = reflect_agent("svc", home=a, provider=None, force=True)
    assert out.status == "applied" and out.reflection_id
    with open_store(home=b) as store:
        before = store.query("SELECT COUNT(*) FROM changes")[0][0]
        with pytest.raises(UserError) as err:
            undo_reflection(store, "svc", out.reflection_id)
        assert str(a) in str(err.value) and "another machine" in str(err.value)
        assert store.query("SELECT COUNT(*) FROM changes")[0][0] == before
    with open_store(home=a) as store:
        assert undo_reflection(store, "svc", out.reflection_id)  # where it was made, it undoes


def test_a_skill_made_on_one_machine_is_not_taken_for_deleted_by_hand_on_another(postgres_url, tmp_path,
                                                                                monkeypatch):
    from slowloop.skills import SkillLibrary

    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", postgres_url)
    a, b = tmp_path / "machine-a", tmp_path / "machine-b"
    SkillLibrary("svc", home=a).create("pin-deps", "Pin dependencies when adding them.",
                                       "# Pin dependencies\n\nAlways pin exact versions.\n")
    with open_store(home=b) as store:
        before = store.query("SELECT COUNT(*) FROM changes")[0][0]
    assert SkillLibrary("svc", home=b).list() == []  # machine B has no such file …
    with open_store(home=b) as store:  # … and records no deletion by a person of machine A's file
        assert store.query("SELECT COUNT(*) FROM changes")[0][0] == before
    assert [s.name for s in SkillLibrary("svc", home=a).list()] == ["pin-deps"]


def test_the_same_transcript_path_on_two_machines_is_two_files(postgres_url, tmp_path, monkeypatch):
    import socket

    from slowloop.config import load_config
    from slowloop.integrations.follow import observe_new

    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", postgres_url)
    t = tmp_path / "session.jsonl"  # ~/.claude/projects/…: the same path on both laptops
    seen = {}
    for host, agent_no in (("laptop", 1), ("devbox", 2)):
        _transcript(t, agent_no)  # each machine's own file at that path
        monkeypatch.setattr(socket, "gethostname", lambda h=host: h)
        home = tmp_path / host
        with open_store(home=home) as store:
            res = observe_new(t, agent="svc", store=store, cfg=load_config(home), home=home)
            seen[host] = (res.new, res.reset)
    # the devbox read its file from the start, not as the laptop's file "rotated"
    assert seen == {"laptop": (2, ""), "devbox": (2, "")}
    with open_store(home=tmp_path, url=postgres_url) as store:
        keys = sorted(r[0] for r in store.query("SELECT path FROM offsets"))
        assert keys == [f"devbox:{t.resolve()}", f"laptop:{t.resolve()}"]
        monkeypatch.setattr(socket, "gethostname", lambda: "laptop")
        assert ledger.saved_offset(store, store.agent_id("svc"), str(t.resolve())) is not None
        assert ledger.follower_of(store, str(t.resolve()), other_than="other") == "svc"
        monkeypatch.setattr(socket, "gethostname", lambda: "third-machine")
        assert ledger.follower_of(store, str(t.resolve()), other_than="other") is None


def test_a_session_starts_with_what_was_learned_while_the_ledger_is_out_of_reach(postgres_url, tmp_path,
                                                                                 monkeypatch):
    from slowloop.integrations.hooks_runtime import session_start
    from slowloop.memo import Memo

    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", postgres_url)
    home = tmp_path / "laptop"
    Memo("shop", home=home).add("plays", "When making HTTP requests in this project, use httpx.")
    online = session_start(home, "shop", None, {"session_id": "s1"})
    assert online and "use httpx" in online
    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", f"postgresql://me@/gone?host={tmp_path}/no-server")
    t0 = time.monotonic()
    offline = session_start(home, "shop", None, {"session_id": "s2"})
    assert time.monotonic() - t0 < 10
    assert offline and "use httpx" in json.loads(offline)["hookSpecificOutput"]["additionalContext"]
    assert "FAILED to open the ledger" in (home / "logs" / "hooks.log").read_text()


def test_search_on_another_machine_finds_the_turns_the_first_one_recorded(postgres_url, tmp_path,
                                                                         monkeypatch):
    from slowloop.config import load_config
    from slowloop.ingest import ingest_paths
    from slowloop.recall import refresh, search

    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", postgres_url)
    t = tmp_path / "t.jsonl"
    _transcript(t, 3)
    with open_store(home=tmp_path / "laptop") as store:
        ingest_paths([t], agent="svc", store=store, cfg=load_config(tmp_path / "laptop"))
    refresh("svc", home=tmp_path / "devbox")  # what `slowloop search` does first
    hits = search("requests", agent="svc", home=tmp_path / "devbox", mode="lexical")
    assert any("we never use requests here" in h.text for h in hits), hits


def test_without_psycopg_the_error_says_what_to_install(slowloop_home, monkeypatch):
    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", "postgresql://me@db.example/ledger")
    code = ("import sys; sys.modules['psycopg'] = None; sys.argv = ['slowloop', 'status']; "
            "from slowloop.cli import main; main()")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ})
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert "psycopg is not installed" in run.stderr and "slowloop[postgres]" in run.stderr


def test_a_sqlite_ledger_copied_to_postgresql_carries_on_there(postgres_url, slowloop_home, tmp_path):
    import socket

    from slowloop.config import load_config
    from slowloop.history import undo_reflection
    from slowloop.integrations.follow import observe_new
    from slowloop.reflect.cycle import reflect_agent
    from slowloop.store.copy import row_counts

    t = tmp_path / "t.jsonl"
    _transcript(t, 5)
    with open_store(home=slowloop_home) as lite:  # a month of use on this laptop, in SQLite
        observe_new(t, agent="svc", store=lite, cfg=load_config(slowloop_home), home=slowloop_home)
        out = reflect_agent("svc", home=slowloop_home, store=lite, provider=None, force=True)
        assert out.status == "applied"
        before = row_counts(lite)
        turns = [dict(r) for r in lite.query("SELECT * FROM turns ORDER BY id")]
    run = subprocess.run([sys.executable, "-m", "slowloop", "ledger", "copy", "--to", postgres_url, "--json"],
                         capture_output=True, text=True, env={**os.environ})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["rows"] == {**before}
    with open_store(home=slowloop_home, url=postgres_url) as pg:
        assert row_counts(pg) == before
        assert [dict(r) for r in pg.query("SELECT * FROM turns ORDER BY id")] == turns
        assert pg.query("SELECT path FROM offsets")[0][0] == f"{socket.gethostname()}:{t.resolve()}"
        # the dirty gate carries over: nothing pending, and the next turn gets a new id
        assert reflect_agent("svc", home=slowloop_home, store=pg, provider=None).status == "skipped"
        _transcript(t, 6)
        observe_new(t, agent="svc", store=pg, cfg=load_config(slowloop_home), home=slowloop_home)
        assert max(r["id"] for r in pg.query("SELECT id FROM turns")) > max(x["id"] for x in turns)
        assert undo_reflection(pg, "svc", out.reflection_id)  # history came along: undo works
    again = subprocess.run([sys.executable, "-m", "slowloop", "ledger", "copy", "--to", postgres_url],
                           capture_output=True, text=True, env={**os.environ})
    assert again.returncode != 0 and "is not empty" in again.stderr and "Traceback" not in again.stderr


def test_doctor_on_a_shared_ledger_checks_the_server_and_the_clocks(postgres_url, slowloop_home,
                                                                   monkeypatch):
    from click.testing import CliRunner

    from slowloop.cli import cli
    from slowloop.store.postgres import PostgresStore

    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", postgres_url)
    with open_store(home=slowloop_home) as store:
        assert abs(store.clock_skew() or 0) < 5  # the same machine's clock
        assert store.transport() == "unix socket"
    r = CliRunner().invoke(cli, ["doctor"])
    assert r.exit_code == 0 and "0 warning(s)" in r.output
    monkeypatch.setattr(PostgresStore, "clock_skew", lambda self: 95.0)
    monkeypatch.setattr(PostgresStore, "transport", lambda self: "plaintext")
    r = CliRunner().invoke(cli, ["doctor", "--json"])
    assert "clock is 95 s behind the ledger server's" in r.output
    assert "not encrypted" in r.output and "sslmode=verify-full" in r.output
    monkeypatch.setenv("SLOWLOOP_DATABASE_URL", f"postgresql://me@/gone?host={slowloop_home}/nothing")
    r = subprocess.run([sys.executable, "-m", "slowloop", "doctor"], capture_output=True, text=True,
                       env={**os.environ})
    assert r.returncode == 3 and "pg_isready" in r.stdout + r.stderr and "slowloop.db" not in r.stdout


def test_two_daemons_keep_their_own_cycles_and_caps_and_share_the_due_agents(postgres_url, tmp_path):
    agents = [f"team{i}" for i in range(12)]
    env = _fleet_env(postgres_url, cap=3)
    homes = [tmp_path / "worker-a", tmp_path / "worker-b"]
    _record_corrections(env, tmp_path, agents, homes)  # recorded on both machines in turn

    def reflected() -> list[str]:
        with open_store(home=tmp_path, url=postgres_url) as store:
            return [r[0] for r in store.query("SELECT a.name FROM reflections r JOIN agents a "
                                              "ON a.id = r.agent_id ORDER BY r.id")]

    daemons = [subprocess.Popen([sys.executable, "-m", "slowloop", "daemon", "--poll", "0.2"],
                                env={**env, "SLOWLOOP_HOME": str(h)}, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for h in homes]
    try:
        deadline = time.monotonic() + 120
        while len(reflected()) < 6 and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.5)  # a worker past its cap waits for its next cycle (12 h away)
        done = reflected()
    finally:
        for d in daemons:
            d.send_signal(signal.SIGTERM)
        outs = [d.communicate(timeout=60) for d in daemons]
    assert all(d.returncode == 0 for d in daemons), [o[1][-800:] for o in outs]
    # one cycle each, 3 agents each (the cap is per worker), 6 different agents, none twice
    assert len(done) == 6 and len(set(done)) == 6, done
    learned = {h.name: {p.parent.name for p in (h / "agents").glob("*/memo.md")} for h in homes}
    assert [len(v) for v in learned.values()] == [3, 3] and not learned["worker-a"] & learned["worker-b"]
    with open_store(home=tmp_path, url=postgres_url) as store:
        marks = store.query("SELECT key FROM meta WHERE key LIKE 'scheduler.last_cycle_at:%'")
        assert len(marks) == 2  # each worker its own cycle mark (host and home)


@pytest.mark.parametrize("where", ["env", "config"])
def test_a_database_url_that_is_not_postgresql_is_an_error_naming_where_it_came_from(where, slowloop_home,
                                                                                     monkeypatch):
    slowloop_home.mkdir(parents=True, exist_ok=True)
    if where == "env":
        monkeypatch.setenv("SLOWLOOP_DATABASE_URL", "db.internal:5432")
    else:
        (slowloop_home / "config.toml").write_text("[ledger]\ndatabase_url = 5\n")
    run = subprocess.run([sys.executable, "-m", "slowloop", "status"], capture_output=True, text=True,
                         env={**os.environ})
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "is not a PostgreSQL URL" in run.stderr
    assert ("SLOWLOOP_DATABASE_URL" if where == "env" else "config.toml: [ledger] database_url") in run.stderr
    assert not (slowloop_home / "slowloop.db").exists()  # no silent fallback to a local ledger


def test_the_loaders_override_of_ledger_database_url_is_the_same_setting(slowloop_home, monkeypatch):
    """`config show` and the store read one setting: SLOWLOOP_LEDGER__DATABASE_URL (the loader's
    form of [ledger] database_url) puts the ledger on PostgreSQL, never a silent slowloop.db."""
    from slowloop.store.db import database_url

    monkeypatch.setenv("SLOWLOOP_LEDGER__DATABASE_URL", "postgresql://me@db.example/ledger")
    assert database_url(slowloop_home) == "postgresql://me@db.example/ledger"
    monkeypatch.setenv("SLOWLOOP_LEDGER__DATABASE_URL", "db.example:5432")
    run = subprocess.run([sys.executable, "-m", "slowloop", "status"], capture_output=True, text=True,
                         env={**os.environ})
    assert run.returncode == 2 and "SLOWLOOP_LEDGER__DATABASE_URL" in run.stderr
    assert not (slowloop_home / "slowloop.db").exists()
