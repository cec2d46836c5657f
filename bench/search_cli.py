"""Benchmark: ``slowloop search`` from the command line, as a person waits for it.

Run: python bench/search_cli.py [--runs 10] [--turns N]
In a throw-away SLOWLOOP_HOME: ingests the real transcript samples (``../shared/samples``), plus
``--turns`` LoCoMo dialogue turns written as notes when ``../shared/data/locomo`` is there, indexes
everything with vectors, then runs the installed ``slowloop search`` command in a new process each
time. "first" is the first search after indexing (new process, files possibly not in the page
cache); p50/p95 are over the following ``--runs``. ``python -c pass`` is the floor.
Needs the [semantic] extra for the hybrid rows.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
QUERIES = ["the CI failure with the flaky cache", "which package manager does the project use",
           "when did we talk about the trip to Paris", "database migration failed"]


def timed(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    took = (time.perf_counter() - t0) * 1000
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {r.stderr[-500:]}")
    return took


def write_locomo_notes(folder: Path, limit: int) -> int:
    data = SHARED / "data" / "locomo" / "locomo10.json"
    if not data.exists():
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    n = 0
    for conv in json.loads(data.read_text()):
        c = conv["conversation"]
        lines = []
        for key in sorted(k for k in c if k.startswith("session_") and not k.endswith("date_time")):
            lines.append(f"## {c.get(key + '_date_time', key)}")
            for turn in c[key]:
                lines.append(f"- {turn['speaker']}: {turn['text']}")
                n += 1
                if n >= limit:
                    break
            if n >= limit:
                break
        (folder / f"{conv['sample_id']}.md").write_text("\n".join(lines) + "\n")
        if n >= limit:
            break
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--turns", type=int, default=2000, help="LoCoMo turns added as notes")
    args = ap.parse_args()
    exe = shutil.which("slowloop") or f"{sys.executable} -m slowloop"
    base = exe.split()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, SLOWLOOP_HOME=str(Path(tmp) / "home"))
        env.pop("SLOWLOOP_RECALL__SEMANTIC", None)
        subprocess.run(base + ["ingest", str(SHARED / "samples" / "transcripts")], env=env,
                       capture_output=True, check=True)
        notes = write_locomo_notes(Path(tmp) / "notes", args.turns)
        if notes:
            subprocess.run(base + ["index", "add", str(Path(tmp) / "notes")], env=env,
                           capture_output=True, check=True)
        t0 = time.perf_counter()
        r = subprocess.run(base + ["index", "rebuild", "--embed", "--json"], env=env,
                           capture_output=True, text=True)
        embedded = "" if r.returncode else f", {json.loads(r.stdout).get('embedded')} embedded"
        print(f"index: samples + {notes} LoCoMo turns{embedded} in {time.perf_counter() - t0:.1f} s")
        floor = statistics.median(timed([sys.executable, "-c", "pass"], env) for _ in range(5))
        print(f"python -c pass: p50 {floor:.0f} ms")
        for mode in ("lexical", "hybrid"):
            cmd = base + ["search", "--mode", mode, "-k", "10"]
            first = timed(cmd + [QUERIES[0]], env)
            times = sorted(timed(cmd + [QUERIES[i % len(QUERIES)]], env) for i in range(args.runs))
            p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
            print(f"search --mode {mode:7s}: first {first:.0f} ms, then p50 "
                  f"{statistics.median(times):.0f} ms, p95 {p95:.0f} ms  (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
