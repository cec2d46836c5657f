"""Ingest throughput vs a bare JSON parse of the same bytes, and peak memory.

Builds a transcript of at least --mb megabytes (default 100) from the real Claude Code and Codex
samples in ../shared/samples/transcripts (repeated with fresh session ids), then times, in one run
on the same file (these machines are noisy: compare ratios, not seconds):

  parse    for line in f: json.loads(line)                 (the floor)
  observe  adapters + error classification + corrections + scoring, nothing written
  ingest   observe + record every turn in a fresh SQLite ledger

Each measurement runs in its own child process so its peak RSS (ru_maxrss) is its own.

    python bench/ingest.py            # ~100 MB
    python bench/ingest.py --mb 20    # quicker
    python bench/ingest.py --mb 20 --repeat 5   # each step's fastest of 5 runs (a busy machine)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT.parent / "shared" / "samples" / "transcripts"


def build(path: Path, mb: int, fmt: str) -> int:
    sources = sorted((SAMPLES / ("claude-code" if fmt == "claude-code" else "codex")).glob("*.jsonl"))
    lines: list[str] = []
    for src in sources:
        for line in src.read_text(encoding="utf-8").splitlines():
            try:
                json.loads(line)
            except json.JSONDecodeError:
                continue
            lines.append(line)
    target = mb * 1024 * 1024
    written = 0
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        while written < target:
            n += 1
            for line in lines:
                # a new session per copy, so turns are distinct, as in a long-running real log
                line = line.replace('"sessionId":"', f'"sessionId":"c{n}-').replace(
                    '"sessionId": "', f'"sessionId": "c{n}-')
                fh.write(line + "\n")
                written += len(line) + 1
    return written


CHILD = r"""
import json, resource, sys, time
mode, path, home = sys.argv[1], sys.argv[2], sys.argv[3]
t0 = time.perf_counter()
turns = 0
if mode == "parse":
    with open(path, "rb") as fh:
        for line in fh:
            json.loads(line)
elif mode == "observe":
    from slowloop.config import load_config
    from slowloop.ingest import observe_file
    from pathlib import Path
    cfg = load_config(Path(home))
    for ot in observe_file(Path(path), cfg):
        turns += 1
else:
    from slowloop.config import load_config
    from slowloop.ingest import ingest_paths
    from slowloop.store import Store, open_store
    from pathlib import Path
    cfg = load_config(Path(home))
    with open_store(home=Path(home)) as store:
        turns = ingest_paths([path], agent="bench", store=store, cfg=cfg).turns
dt = time.perf_counter() - t0
print(json.dumps({"mode": mode, "seconds": dt, "turns": turns,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run(mode: str, path: Path, home: Path) -> dict:
    env = dict(os.environ, SLOWLOOP_HOME=str(home))
    out = subprocess.run([sys.executable, "-c", CHILD, mode, str(path), str(home)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--format", choices=["claude-code", "codex"], default="claude-code")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each step this many times (interleaved) and keep its fastest run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.jsonl"
        size = build(path, args.mb, args.format)
        best: dict[str, dict] = {}
        for n in range(max(1, args.repeat)):
            for mode in ("parse", "observe", "ingest"):
                home = Path(tmp) / f"home-{mode}-{n}"  # a fresh ledger every time
                r = run(mode, path, home)
                if mode not in best or r["seconds"] < best[mode]["seconds"]:
                    best[mode] = r
        rows = [best[m] for m in ("parse", "observe", "ingest")]
        base = rows[0]["seconds"]
        print(f"transcript: {size / 1e6:.1f} MB ({args.format}), {rows[1]['turns']} turns")
        print("| step | seconds | MB/s | × bare parse | peak RSS (MB) |")
        print("|---|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['mode']} | {r['seconds']:.2f} | {size / 1e6 / r['seconds']:.1f} | "
                  f"{r['seconds'] / base:.2f} | {r['peak_rss_mb']:.0f} |")


if __name__ == "__main__":
    main()
