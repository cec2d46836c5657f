"""A fleet's ledger on SQLite and on PostgreSQL: recording turns, the scheduler's pass, a cycle.

For each database (--database sqlite|postgresql|both, default both), in ONE run so the two are
compared on the same machine at the same moment, builds a ledger of --agents agents (default
10,000) — each with --turns recorded conversations (default 5), one in --worthy of them with a
correction pending — then times:

  record   turns observed and written per second, one process (each agent's turns observed, then
           written in one transaction, as ingest does)
  record×4 the same work split over --writers processes (default 4, different agents each) writing
           to one fresh ledger at once, beside the same work in one process; and the time a
           turn's write transaction takes, waiting for the lock included (SQLite: one write lock
           for the file; PostgreSQL: writers of different agents do not wait for each other)
  plan     plan_cycle(): every agent's schedule, the due ones ordered and capped — what
           `slowloop daemon` does at each cycle
  status   all_statuses(): the same for every agent, what `slowloop schedule` prints
  reflect  one cycle (at most scheduler.max_agents_per_cycle agents) with the offline distiller
  size     SQLite: slowloop.db (+ its -wal); PostgreSQL: pg_database_size()
  RSS      peak RSS of the process that did the above (the client; not the server's)

and, on PostgreSQL only, --due agents all due (a correction each) reflected by run_cycle with the
offline distiller: one worker, then two worker processes with two homes (two machines) on the same
database at once; agents reflected per second, and a check that no agent was reflected twice
(reflections per agent counted in the ledger).

PostgreSQL: --database-url URL uses that server (the bench creates and drops its own databases
there, slowloop_bench_*: the URL's role needs CREATEDB); without it the bench starts a throw-away
server (tests/pgserver.py) and stops it after, or skips PostgreSQL saying why.

    python bench/fleet.py                  # 10,000 agents, both databases
    python bench/fleet.py --agents 1000    # a smoke run, about a minute (100 due agents)
    python bench/fleet.py --database sqlite
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))  # pgserver: the throw-away PostgreSQL the tests use too

PLAIN = [{"role": "user", "content": "add a date library"},
         {"role": "assistant", "content": "Added it."}]
CORRECTED = PLAIN + [{"role": "user", "content": "No, use pendulum instead of arrow in this project."},
                     {"role": "assistant", "content": "Switched."}]


# -- the work, in whichever process runs it -------------------------------------------------------
def record(home: Path, names: list[str], turns: int, worthy_every: int,
           start_at: float = 0.0) -> dict:
    """Observe and write ``turns`` conversations for each agent in ``names`` (agent i has a
    correction when i % worthy_every == 0): each agent's turns observed, then written in one
    transaction. Returns turns written, the elapsed time and the time inside write transactions."""
    from slowloop.config import load_config
    from slowloop.ingest import record_observed
    from slowloop.observe.observe import observe_and_score
    from slowloop.store import open_store
    from slowloop.transcripts import turns_from_messages

    cfg = load_config(home)
    base = {False: turns_from_messages(PLAIN), True: turns_from_messages(CORRECTED)}
    written, in_tx, waited = 0, 0.0, 0.0
    with open_store(home=home) as store:
        if start_at:
            time.sleep(max(0.0, start_at - time.time()))
        started = time.time()
        for i, name in enumerate(names):
            msgs = base[i % worthy_every == 0]
            observed = [observe_and_score(dataclasses.replace(t, session_id=f"{name}-s{n}"), cfg)
                        for n in range(turns) for t in msgs]
            t0 = time.perf_counter()
            with store.transaction():
                waited += time.perf_counter() - t0  # SQLite's BEGIN IMMEDIATE waits for the lock
                for ot in observed:
                    record_observed(store, name, ot)
            in_tx += time.perf_counter() - t0
            written += len(observed)
        ended = time.time()
    return {"turns": written, "started": started, "ended": ended, "in_tx": in_tx,
            "waited": waited, "transactions": len(names)}


def ledger_size(home: Path) -> float:
    """Bytes the ledger takes: SQLite's file and its WAL, or the PostgreSQL database."""
    from slowloop.store import open_store

    with open_store(home=home) as store:
        if store.backend == "postgresql":
            return float(store.query("SELECT pg_database_size(current_database())")[0][0])
    files = [home / "slowloop.db", home / "slowloop.db-wal"]
    return float(sum(f.stat().st_size for f in files if f.exists()))


def measure(home: Path, agents: int, turns: int, worthy: int) -> dict:
    """The one-process figures on the ledger the environment points at."""
    from slowloop.config import load_config
    from slowloop.reflect.cycle import run_cycle
    from slowloop.reflect.scheduler import all_statuses, plan_cycle
    from slowloop.store import open_store

    out: dict = {"empty_bytes": ledger_size(home)}  # opening migrates
    rec = record(home, [f"agent-{i:05d}" for i in range(agents)], turns, worthy)
    out["built_s"] = rec["ended"] - rec["started"]
    cfg = load_config(home)
    with open_store(home=home) as store:
        out["turns"] = int(store.query("SELECT COUNT(*) AS n FROM turns")[0]["n"])
        out["plan_s"], out["status_s"] = float("inf"), float("inf")
        for _ in range(3):  # the best of three: the machine is shared
            t = time.perf_counter()
            plan = plan_cycle(store, cfg)
            out["plan_s"] = min(out["plan_s"], time.perf_counter() - t)
            t = time.perf_counter()
            statuses = all_statuses(store, cfg)
            out["status_s"] = min(out["status_s"], time.perf_counter() - t)
    out["due"], out["taken"] = sum(s.due for s in statuses), len(plan)
    out["bytes"] = ledger_size(home)
    t = time.perf_counter()
    outcomes = run_cycle(home=home, cfg=cfg, provider=None)
    out["cycle_s"] = time.perf_counter() - t
    out["cycle_agents"] = len(outcomes)
    out["cycle_applied"] = sum(o.status == "applied" for o in outcomes)
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def work_cycle(home: Path, start_at: float) -> dict:
    """One worker: run_cycle with the offline distiller over every due agent (the cap is set by
    the caller through SLOWLOOP_SCHEDULER__MAX_AGENTS_PER_CYCLE)."""
    from slowloop.config import load_config
    from slowloop.reflect.cycle import run_cycle

    cfg = load_config(home)
    time.sleep(max(0.0, start_at - time.time()))
    started = time.time()
    outcomes = run_cycle(home=home, cfg=cfg, provider=None)
    ended = time.time()
    by: dict[str, int] = {}
    for o in outcomes:
        by[o.status] = by.get(o.status, 0) + 1
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {"started": started, "ended": ended, "outcomes": by, "cpu": ru.ru_utime + ru.ru_stime,
            "reflected": [o.agent for o in outcomes if o.reflection_id is not None]}


# -- processes ----------------------------------------------------------------------------------
def _env(home: Path, url: str | None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOWLOOP_")}
    env.update(SLOWLOOP_HOME=str(home), SLOWLOOP_REFLECT__AUTO="false", **extra)
    if url:
        env["SLOWLOOP_DATABASE_URL"] = url
    return env


def _spawn(role: str, payload: dict, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, "--role", role, "--payload", json.dumps(payload)],
                            env=env, stdout=subprocess.PIPE, text=True)


def _result(proc: subprocess.Popen) -> dict:
    stdout, _ = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"a bench process failed (exit {proc.returncode}); its error is above")
    return json.loads(stdout.strip().splitlines()[-1])


def _child(role: str, payload: dict) -> None:
    home = Path(os.environ["SLOWLOOP_HOME"])
    if role == "measure":
        out = measure(home, payload["agents"], payload["turns"], payload["worthy"])
    elif role == "write":
        out = record(home, payload["names"], payload["turns"], payload["worthy"], payload["start_at"])
    elif role == "cycle":
        out = work_cycle(home, payload["start_at"])
    else:
        raise SystemExit(f"unknown role {role!r}")
    print(json.dumps(out))


class Ledgers:
    """Fresh ledgers of one database: a home each (SQLite: the ledger is in it; PostgreSQL: a
    fresh database per ledger, named in the environment)."""

    def __init__(self, backend: str, root: Path, admin_url: str | None) -> None:
        self.backend, self.root, self.admin_url = backend, root, admin_url
        self.databases: list[str] = []

    def fresh(self, name: str) -> tuple[Path, str | None]:
        home = self.root / self.backend / name
        home.mkdir(parents=True)
        url = None
        if self.backend == "postgresql":
            from pgserver import fresh_database

            db = f"slowloop_bench_{os.getpid()}_{name}"
            url = fresh_database(self.admin_url, db)
            self.databases.append(db)
        return home, url

    def migrate(self, home: Path, url: str | None) -> None:
        """Open the ledger once so its schema exists before processes race to it."""
        subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                        "from slowloop.store import Store; open_store().close()", str(ROOT / "src")],
                       env=_env(home, url), check=True)

    def drop(self) -> None:
        if self.backend == "postgresql":
            from pgserver import drop_database

            for db in self.databases:
                drop_database(self.admin_url, db)


def concurrent_writes(ledgers: Ledgers, processes: int, agents: int, turns: int, worthy: int,
                      tag: str) -> dict:
    """``agents`` agents' turns recorded by ``processes`` processes at once into one fresh ledger."""
    home, url = ledgers.fresh(tag)
    ledgers.migrate(home, url)
    start_at = time.time() + 1.5  # every process imported and connected before the start
    procs = [_spawn("write", {"names": [f"w{k}-agent-{i:05d}" for i in range(k, agents, processes)],
                              "turns": turns, "worthy": worthy, "start_at": start_at},
                    _env(home, url)) for k in range(processes)]
    sampler = LockSampler(url) if url else None
    cpu = at_start(start_at)
    results = [_result(p) for p in procs]
    busy = busy_since(cpu)
    samples = sampler.stop() if sampler else None
    written = sum(r["turns"] for r in results)
    span = max(r["ended"] for r in results) - min(r["started"] for r in results)
    return {"turns": written, "rate": written / span,
            "tx_ms": sum(r["in_tx"] for r in results) / written * 1e3,
            "begin_ms": sum(r["waited"] for r in results) / sum(r["transactions"] for r in results) * 1e3,
            # write transactions open at once, on average (the lock wait left out): at most 1 on
            # SQLite, whose writers hold one lock in turn
            "open": sum(r["in_tx"] - r["waited"] for r in results) / span,
            "lock_waits": samples, "busy": busy}


def cpu_ticks() -> tuple[int, int] | None:
    """(busy, total) jiffies of all cores so far (Linux /proc/stat; None elsewhere)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


def busy_since(before: tuple[int, int] | None) -> float | None:
    """The share of the machine's cores that were busy since ``before`` (0..1)."""
    after = cpu_ticks()
    if before is None or after is None or after[1] == before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1])


def at_start(start_at: float) -> tuple[int, int] | None:
    time.sleep(max(0.0, start_at - time.time()))
    return cpu_ticks()


class LockSampler:
    """PostgreSQL: how often the bench's writers, seen in a transaction or a query, are waiting on
    a lock (pg_stat_activity, sampled every 5 ms in a thread while they write)."""

    def __init__(self, url: str) -> None:
        import threading

        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)
        self.active = self.waiting = 0
        self.events: dict[str, int] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        sql = ("SELECT state, wait_event_type, wait_event FROM pg_stat_activity WHERE "
               "application_name = 'slowloop' AND datname = current_database() AND state <> 'idle'")
        while not self.done.wait(0.005):
            for _state, kind, event in self.conn.execute(sql).fetchall():
                self.active += 1
                if kind == "Lock":
                    self.waiting += 1
                    self.events[event] = self.events.get(event, 0) + 1

    def stop(self) -> dict:
        self.done.set()
        self.thread.join()
        self.conn.close()
        return {"active": self.active, "waiting": self.waiting, "events": self.events}


def shared_cycle(ledgers: Ledgers, workers: int, due: int, turns: int, tag: str) -> dict:
    """``due`` agents, each with a correction pending, reflected by ``workers`` run_cycle processes
    (a home each: two machines) on one fresh ledger at once."""
    home, url = ledgers.fresh(tag)
    ledgers.migrate(home, url)
    builder = _spawn("write", {"names": [f"due-{i:05d}" for i in range(due)], "turns": turns,
                               "worthy": 1, "start_at": 0}, _env(home, url))
    _result(builder)
    start_at = time.time() + 1.5
    procs = [_spawn("cycle", {"start_at": start_at},
                    _env(ledgers.root / ledgers.backend / f"{tag}-worker{k}", url,
                         SLOWLOOP_SCHEDULER__MAX_AGENTS_PER_CYCLE=str(due)))
             for k in range(workers)]
    cpu = at_start(start_at)
    results = [_result(p) for p in procs]
    busy = busy_since(cpu)
    span = max(r["ended"] for r in results) - min(r["started"] for r in results)
    import psycopg

    with psycopg.connect(url) as conn:
        per_agent = conn.execute("SELECT a.name, COUNT(r.id) FROM agents a LEFT JOIN reflections r "
                                 "ON r.agent_id = a.id GROUP BY a.name").fetchall()
    counts = [int(n) for _name, n in per_agent]
    twice = [name for name, n in per_agent if n > 1]
    assert not twice, f"agents reflected more than once: {twice[:10]}"
    reflected = sum(counts)
    return {"reflected": reflected, "never": sum(n == 0 for n in counts), "span": span,
            "rate": reflected / span, "max_per_agent": max(counts, default=0),
            "per_worker": [len(r["reflected"]) for r in results],
            "cpu": sum(r["cpu"] for r in results), "busy": busy,
            "outcomes": [r["outcomes"] for r in results]}


def run_database(backend: str, args: argparse.Namespace, root: Path, admin_url: str | None) -> dict:
    ledgers = Ledgers(backend, root, admin_url)
    try:
        home, url = ledgers.fresh("fleet")
        say(f"[{backend}] {args.agents:,} agents: recording, the scheduler's pass, a cycle …")
        out = _result(_spawn("measure", {"agents": args.agents, "turns": args.turns,
                                         "worthy": args.worthy}, _env(home, url)))
        say(f"[{backend}] {args.writers} writers at once, and the same work in one process …")
        share = max(args.agents // 5, args.writers)
        out["w1"] = concurrent_writes(ledgers, 1, share, args.turns, args.worthy, "w1")
        out["wn"] = concurrent_writes(ledgers, args.writers, share, args.turns, args.worthy, "wn")
        out["w_agents"] = share
        if backend == "postgresql" and args.due:
            say(f"[{backend}] run_cycle over {args.due} due agents: 1 worker, then 2 at once, "
                f"{args.repeat} times …")
            out["r1"], out["r2"] = [], []
            for n in range(args.repeat):  # alternated, so a burst of load elsewhere hits both
                out["r1"].append(shared_cycle(ledgers, 1, args.due, args.turns, f"r1_{n}"))
                out["r2"].append(shared_cycle(ledgers, 2, args.due, args.turns, f"r2_{n}"))
        return out
    finally:
        ledgers.drop()


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _busy(r: dict) -> str:
    return "" if r.get("busy") is None else f"; the machine's {os.cpu_count()} cores {r['busy']:.0%} busy"


def table(results: dict[str, dict], args: argparse.Namespace) -> str:
    names = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
    cols = [b for b in ("sqlite", "postgresql") if b in results]
    any_r = next(iter(results.values()))
    w = args.writers
    rows = [
        ("record turns, 1 process (turns/s)", lambda r: r["turns"] / r["built_s"], "{:,.0f}"),
        (f"record turns, {any_r['w_agents']:,} agents, 1 process (turns/s)",
         lambda r: r["w1"]["rate"], "{:,.0f}"),
        (f"  same, {w} processes at once (turns/s)", lambda r: r["wn"]["rate"], "{:,.0f}"),
        ("  write transaction per turn, 1 process (ms)", lambda r: r["w1"]["tx_ms"], "{:.2f}"),
        (f"  write transaction per turn, {w} processes (ms)", lambda r: r["wn"]["tx_ms"], "{:.2f}"),
        (f"  the machine's {os.cpu_count()} cores busy (all its processes), {w} writers (%)",
         lambda r: 100 * (r["wn"]["busy"] or 0), "{:.0f}"),
        (f"  write transactions open at once, {w} processes (average)", lambda r: r["wn"]["open"],
         "{:.2f}"),
        ("  waiting to BEGIN, 1 process (ms per transaction)", lambda r: r["w1"]["begin_ms"], "{:.2f}"),
        (f"  waiting to BEGIN, {w} processes (ms per transaction)", lambda r: r["wn"]["begin_ms"],
         "{:.2f}"),
        (f"plan_cycle over {args.agents:,} agents (s, best of 3)", lambda r: r["plan_s"], "{:.2f}"),
        (f"all_statuses over {args.agents:,} agents (s, best of 3)", lambda r: r["status_s"], "{:.2f}"),
        ("one cycle, offline distiller (s)", lambda r: r["cycle_s"], "{:.2f}"),
        ("ledger size (MB)", lambda r: r["bytes"] / 1e6, "{:.1f}"),
        ("  of which an empty ledger (MB)", lambda r: r["empty_bytes"] / 1e6, "{:.1f}"),
        ("peak RSS, measuring process (MB)", lambda r: r["rss_mb"], "{:.0f}"),
    ]
    head = ["what"] + [names[c] for c in cols] + (["PG/SQLite"] if len(cols) == 2 else [])
    body = []
    for label, get, fmt in rows:
        vals = [get(results[c]) for c in cols]
        line = [label] + [fmt.format(v) for v in vals]
        if len(cols) == 2:
            line.append(f"{vals[1] / vals[0]:.2f}×" if vals[0] else "-")
        body.append(line)
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    fmt_line = lambda r: "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])  # noqa: E731
                                   for i, c in enumerate(r))
    lines = [fmt_line(head), fmt_line(["-" * x for x in widths])] + [fmt_line(r) for r in body]
    first = results[cols[0]]
    lines.append(f"({first['turns']:,} turns for {args.agents:,} agents; {first['due']:,} due, "
                 f"the cycle took {first['cycle_agents']} (cap {first['taken']}); ratio: PostgreSQL "
                 "over SQLite, above 1 is more for rates, slower for times)")
    pg = results.get("postgresql")
    if pg and pg["wn"]["lock_waits"]:
        lw = pg["wn"]["lock_waits"]
        lines.append(f"(PostgreSQL, {w} writers: of {lw['active']:,} sightings in pg_stat_activity "
                     f"of a writer in a transaction, {lw['waiting']:,} waiting on a lock"
                     + (f" ({', '.join(f'{k} {v}' for k, v in sorted(lw['events'].items()))})"
                        if lw["events"] else "") + "; PostgreSQL's "
                     "BEGIN takes no lock, so its wait is the processes sharing the machine's cores)")
    if pg and "r1" in pg:
        import statistics

        lines.append("")
        lines.append(f"PostgreSQL, run_cycle over {args.due} due agents (offline distiller), one "
                     f"home per worker, {len(pg['r1'])} times each, alternated:")
        med = {}
        for key, label in (("r1", "1 worker "), ("r2", "2 workers")):
            runs = pg[key]
            med[key] = statistics.median(r["rate"] for r in runs)
            lines.append(f"  {label}: median {med[key]:.1f} agents/s (runs: "
                         + ", ".join(f"{r['rate']:.1f}" for r in runs) + "; the machine's "
                         f"{os.cpu_count()} cores busy: "
                         + ", ".join("?" if r["busy"] is None else f"{r['busy']:.0%}" for r in runs)
                         + ")")
        lines.append(f"  2 workers / 1 worker: {med['r2'] / med['r1']:.2f}× (medians)")
        last = pg["r2"][-1]
        lines.append(f"  2 workers, every run: each agent reflected at most "
                     f"{max(r['max_per_agent'] for r in pg['r2'])} time (checked in the ledger), "
                     f"{sum(r['never'] for r in pg['r2'])} never; last run per worker "
                     f"{' + '.join(map(str, last['per_worker']))}, outcomes {last['outcomes']}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", type=int, default=10_000)
    ap.add_argument("--turns", type=int, default=5, help="conversations recorded per agent")
    ap.add_argument("--worthy", type=int, default=10, help="one agent in N has a correction pending")
    ap.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    ap.add_argument("--database-url", default="",
                    help="a PostgreSQL server to use (the bench creates its databases there); "
                         "default: start a throw-away one")
    ap.add_argument("--writers", type=int, default=4, help="processes writing at once")
    ap.add_argument("--due", type=int, default=None,
                    help="due agents for the shared run_cycle (PostgreSQL; 0: skip; default "
                         "--agents / 10, at least 20, at most 200)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="times the 1-worker and 2-worker run_cycle are each run (medians shown)")
    ap.add_argument("--role", help=argparse.SUPPRESS)
    ap.add_argument("--payload", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.due is None:
        args.due = min(200, max(20, args.agents // 10))
    if args.role:
        _child(args.role, json.loads(args.payload))
        return

    wanted = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    results: dict[str, dict] = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="slowloop-fleet-") as d:
        root = Path(d)
        os.chmod(root, 0o755)
        if "sqlite" in wanted:
            results["sqlite"] = run_database("sqlite", args, root, None)
        if "postgresql" in wanted:
            from pgserver import Unavailable, missing, throwaway_server

            if args.database_url:
                why = missing(server=False)
                if why:
                    say(f"PostgreSQL skipped: {why} (pip install 'psycopg[binary]')")
                else:
                    results["postgresql"] = run_database("postgresql", args, root, args.database_url)
            else:
                try:
                    with throwaway_server() as admin_url:
                        say(f"[postgresql] a throw-away server at {admin_url}")
                        results["postgresql"] = run_database("postgresql", args, root, admin_url)
                except Unavailable as exc:
                    say(f"PostgreSQL skipped: {exc}")
    if not results:
        raise SystemExit("nothing measured")
    print(table(results, args))
    from slowloop.config import redact_url

    shown = " ".join(redact_url(a) if "://" in a else a for a in sys.argv[1:])
    print(f"(the whole run: {time.perf_counter() - started:.0f} s; `python bench/fleet.py {shown}`)")


if __name__ == "__main__":
    main()
