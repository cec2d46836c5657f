"""Benchmark: the installed Claude Code hooks as the harness runs them (target p95 ≤ 200 ms).

Run: python bench/hooks.py [--runs 40] [--skills 200] [--inline]

It installs the hooks into a throw-away project and SLOWLOOP_HOME (with 200 skills and a memo),
then runs the exact command strings from settings.json through a shell with the JSON payload on
stdin, timing each process from start to exit:

- SessionStart (warm: the bootstrap cache is valid, as it is after any observed turn);
- SessionStart after a skill changed (the cache is rebuilt: the slow path);
- Stop on a growing transcript (one new turn appended before each run), in the default background
  mode; with --inline, observed in the hook process itself.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def _child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def timed(cmd: str, payload: dict, env: dict, cpu: list[float] | None = None) -> float:
    """Wall time of the hook process; its CPU time (user+sys, load-independent) goes to ``cpu``."""
    c0 = _child_cpu()
    t = time.perf_counter()
    r = subprocess.run(cmd, shell=True, input=json.dumps(payload).encode(), capture_output=True, env=env)
    ms = (time.perf_counter() - t) * 1000
    if cpu is not None:
        cpu.append((_child_cpu() - c0) * 1000)
    if r.returncode != 0:
        raise SystemExit(f"hook failed: {r.stderr.decode()}")
    return ms


def _wait_for_worker(home: Path, done: int, timeout: float = 60.0) -> None:
    log = home / "logs" / "hooks.log"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text() if log.exists() else ""
        if text.count(" worker ") + text.count(" Stop default /") >= done:
            return
        time.sleep(0.02)
    raise SystemExit("the Stop worker did not finish in time")


def report(name: str, values: list[float]) -> None:
    print(f"{name:<38} n={len(values):<4} p50={statistics.median(values):7.1f} ms  "
          f"p95={pct(values, 0.95):7.1f} ms  max={max(values):7.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--skills", type=int, default=200)
    ap.add_argument("--inline", action="store_true", help="Stop observes in the hook process")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        home, proj, user = tmpdir / "sl", tmpdir / "proj", tmpdir / "user"
        proj.mkdir()
        user.mkdir()
        env = {**os.environ, "SLOWLOOP_HOME": str(home), "HOME": str(user)}
        if args.inline:
            env["SLOWLOOP_HOOKS__BACKGROUND"] = "false"
        os.environ.update(SLOWLOOP_HOME=str(home), HOME=str(user))
        from integrations_fixtures import cc_turn, lines, write_skill

        from slowloop.integrations import claude_code
        from slowloop.memo import Memo

        for i in range(args.skills):
            write_skill(home, f"skill-{i:03d}", f"When working on area {i}, follow these steps")
        Memo(home=home).add("plays", "When the user asks for a summary, give the conclusion first.")
        os.chdir(proj)
        claude_code.install("project")
        hooks = json.loads((proj / ".claude" / "settings.local.json").read_text())["hooks"]
        start = hooks["SessionStart"][0]["hooks"][0]["command"]
        stop = hooks["Stop"][0]["hooks"][0]["command"]
        payload = {"session_id": "b", "source": "startup", "hook_event_name": "SessionStart"}
        timed(start, payload, env)  # builds the cache once
        cpu: dict[str, list[float]] = {"floor": [], "warm": [], "cold": [], "stop": []}
        warm = [timed(start, payload, env, cpu["warm"]) for _ in range(args.runs)]
        cold = []
        for i in range(max(5, args.runs // 4)):
            write_skill(home, "skill-000", f"Changed description number {i}")
            cold.append(timed(start, payload, env, cpu["cold"]))
        transcript = proj / "session.jsonl"
        transcript.write_text("")
        stops = []
        for i in range(args.runs):
            with open(transcript, "a") as f:
                f.write(lines(cc_turn(f"task {i}", n=i % 60)))
            stops.append(timed(stop, {"transcript_path": str(transcript), "hook_event_name": "Stop"}, env,
                               cpu["stop"]))
            _wait_for_worker(home, i + 1)  # turns are seconds apart: do not time our own workers
            time.sleep(0.5)
        time.sleep(0.5)
        # the floor: an interpreter that starts and exits (site and .pth files included)
        floor = [timed(f"{sys.executable} -c pass", {}, env, cpu["floor"]) for _ in range(args.runs)]
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpu(s), load average "
              f"{os.getloadavg()[0]:.2f}, {args.skills} skills")
        print("wall time (what the agent waits for; inflated by other load on the machine):")
        report("python -c pass (the floor)", floor)
        report("SessionStart (bootstrap cached)", warm)
        report("SessionStart (cache rebuilt)", cold)
        report(f"Stop ({'inline' if args.inline else 'background worker'})", stops)
        print("CPU time of the hook process (user+sys; steady under load):")
        report("python -c pass (the floor)", cpu["floor"])
        report("SessionStart (bootstrap cached)", cpu["warm"])
        report("SessionStart (cache rebuilt)", cpu["cold"])
        report(f"Stop ({'inline' if args.inline else 'background worker'})", cpu["stop"])


if __name__ == "__main__":
    main()
