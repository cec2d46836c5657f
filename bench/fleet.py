"""A fleet's ledger: the scheduler's pass over many agents, and what one reflection cycle costs.

Builds a ledger of --agents agents (default 10,000) in a fresh SQLite home — each with --turns
recorded turns (default 5), one in --worthy of them with a correction pending — then times, in one
run:

  plan     plan_cycle(): every agent's schedule (dirty gate, cooldown, threshold), the due ones
           ordered and capped — what `slowloop daemon` does at each cycle
  status   all_statuses(): the same for every agent, what `slowloop schedule` prints
  reflect  one cycle (at most scheduler.max_agents_per_cycle agents) with the offline distiller

    python bench/fleet.py                 # 10,000 agents
    python bench/fleet.py --agents 1000
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def build(home: Path, agents: int, turns: int, worthy_every: int) -> float:
    from slowloop.config import load_config
    from slowloop.ingest import record_observed
    from slowloop.observe.observe import observe_and_score
    from slowloop.store import Store
    from slowloop.transcripts import turns_from_messages

    cfg = load_config(home)
    started = time.perf_counter()
    plain = [{"role": "user", "content": "add a date library"},
             {"role": "assistant", "content": "Added it."}]
    corrected = plain + [{"role": "user", "content": "No, use pendulum instead of arrow in this project."},
                         {"role": "assistant", "content": "Switched."}]
    with Store(home=home) as store:
        for i in range(agents):
            name = f"agent-{i:05d}"
            msgs = corrected if i % worthy_every == 0 else plain
            with store.transaction():
                for n in range(turns):
                    for t in turns_from_messages(msgs):
                        import dataclasses

                        t = dataclasses.replace(t, session_id=f"{name}-s{n}")
                        record_observed(store, name, observe_and_score(t, cfg))
    return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", type=int, default=10_000)
    ap.add_argument("--turns", type=int, default=5)
    ap.add_argument("--worthy", type=int, default=10, help="one agent in N has a correction pending")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        home = Path(d) / "home"
        os.environ["SLOWLOOP_HOME"] = str(home)
        os.environ["SLOWLOOP_REFLECT__AUTO"] = "false"
        built = build(home, args.agents, args.turns, args.worthy)
        from slowloop.config import load_config
        from slowloop.reflect.cycle import run_cycle
        from slowloop.reflect.scheduler import all_statuses, plan_cycle
        from slowloop.store import Store

        cfg = load_config(home)
        with Store(home=home) as store:
            recorded = int(store.query("SELECT COUNT(*) AS n FROM turns")[0]["n"])
        print(f"ledger: {args.agents:,} agents, {recorded:,} turns recorded in {built:.1f} s "
              f"({recorded / built:,.0f} turns/s, observed and written); "
              f"{(home / 'slowloop.db').stat().st_size / 1e6:.1f} MB")
        with Store(home=home) as store:
            t = time.perf_counter()
            plan = plan_cycle(store, cfg)
            plan_s = time.perf_counter() - t
            t = time.perf_counter()
            statuses = all_statuses(store, cfg)
            status_s = time.perf_counter() - t
        due = sum(s.due for s in statuses)
        print(f"plan_cycle over {args.agents:,} agents: {plan_s:.2f} s "
              f"({plan_s / args.agents * 1e3:.2f} ms/agent); {due:,} due, {len(plan)} taken")
        print(f"all_statuses: {status_s:.2f} s")
        t = time.perf_counter()
        outcomes = run_cycle(home=home, cfg=cfg, provider=None)
        cycle_s = time.perf_counter() - t
        applied = sum(o.status == "applied" for o in outcomes)
        print(f"one cycle (offline distiller): {cycle_s:.2f} s for {len(outcomes)} agents, {applied} applied "
              f"(the plan is most of it at this size)")
        print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
