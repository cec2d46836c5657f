"""Ingest time vs a bare JSON parse of the same bytes, each a whole process as a person runs it.

Builds a transcript of at least --mb megabytes (default 100) from the real Claude Code and Codex
samples in ../shared/samples/transcripts (repeated with fresh session ids), then times, in one run
on the same bytes, each as a command of its own from process start to exit (these machines are
noisy: compare ratios within a run, not seconds across runs):

  parse               python: for line in f: json.loads(line)              (the floor)
  observe             adapters + errors + corrections + scoring, nothing written (one process)
  ingest, 1 process   slowloop ingest FILE --agent bench --json, SLOWLOOP_INGEST__WORKERS=1
  ingest              slowloop ingest FILE --agent bench --json (worker processes, one per core)

Each ingest writes a fresh ledger. Peak RSS is the command's own process and, for ingest, its
largest worker. ``slowloop ingest`` returns once the turns are recorded; when it recorded 300
or more it indexes them for search in the background, whose time (from recall.log) is shown
apart. ``--folder`` writes the same bytes as one file per session (a project folder of
sessions, as ~/.claude/projects/<project> holds) instead of one file.

    python bench/ingest.py                     # ~100 MB, one file
    python bench/ingest.py --mb 20 --repeat 5  # each step's fastest of 5 (interleaved) runs
    python bench/ingest.py --folder            # the same bytes as 104 session files
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT.parent / "shared" / "samples" / "transcripts"


def build(path: Path, mb: int, fmt: str, folder: bool = False) -> int:
    """Write the samples again and again (each copy a new session) until ``mb`` MB; into one file,
    or with ``folder`` one file per copy inside the folder ``path``. Returns the bytes written."""
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
    if folder:
        path.mkdir(parents=True, exist_ok=True)
    fh = None if folder else path.open("w", encoding="utf-8")
    try:
        while written < target:
            n += 1
            out = (path / f"session-{n:04d}.jsonl").open("w", encoding="utf-8") if folder else fh
            assert out is not None
            for line in lines:
                # a new session per copy, so turns are distinct, as in a long-running real log
                line = line.replace('"sessionId":"', f'"sessionId":"c{n}-').replace(
                    '"sessionId": "', f'"sessionId": "c{n}-')
                out.write(line + "\n")
                written += len(line) + 1
            if folder:
                out.close()
    finally:
        if fh is not None:
            fh.close()
    return written


PARSE = r"""
import json, resource, sys
from pathlib import Path
p = Path(sys.argv[1])
for f in (sorted(p.iterdir()) if p.is_dir() else [p]):
    with open(f, "rb") as fh:
        for line in fh:
            json.loads(line)
print(json.dumps({"rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "turns": 0}))
"""

OBSERVE = r"""
import json, resource, sys
from pathlib import Path
from slowloop.config import load_config
from slowloop.ingest import expand_paths, observe_file
cfg = load_config(Path(sys.argv[2]))
turns = sum(1 for f in expand_paths([sys.argv[1]]) for _ in observe_file(f, cfg))
print(json.dumps({"rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "turns": turns}))
"""

# The console script's own entry point, then the peak RSS of this process and of its workers.
INGEST = r"""
import json, resource, sys
from slowloop.cli import main
sys.argv = ["slowloop", "ingest", sys.argv[1], "--agent", "bench", "--json"]
try:
    main()
except SystemExit as e:
    if e.code:
        raise
print(json.dumps({"rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "workers_rss": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""

MODES = {"parse": PARSE, "observe": OBSERVE, "ingest, 1 process": INGEST, "ingest": INGEST}


def run(mode: str, path: Path, home: Path) -> dict:
    env = dict(os.environ, SLOWLOOP_HOME=str(home))
    env.pop("SLOWLOOP_DATABASE_URL", None)
    if mode == "ingest, 1 process":
        env["SLOWLOOP_INGEST__WORKERS"] = "1"
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", MODES[mode], str(path), str(home)], env=env,
                         capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    last = out.stdout.strip().splitlines()[-1]
    r = json.loads(last)
    r.update(mode=mode, seconds=seconds)
    if mode.startswith("ingest"):
        summary = json.loads(out.stdout[:out.stdout.rindex(last)])
        r["turns"] = summary["turns"]
        r["index"] = _index_seconds(home, summary["search_index"].get("pid"))
    return r


def _index_seconds(home: Path, pid: int | None) -> float | None:
    """The background search-index refresh's own time, once it has finished."""
    if not pid:
        return None
    log = home / "logs" / "recall.log"
    for _ in range(600):
        text = log.read_text(encoding="utf-8") if log.exists() else ""
        m = re.search(rf"pid={pid} .* in ([0-9.]+) s", text)
        if m:
            return float(m.group(1))
        if "refresh failed" in text:
            raise SystemExit(f"the background index refresh failed: see {log}")
        time.sleep(0.1)
    raise SystemExit(f"the background index refresh did not finish: see {log}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--format", choices=["claude-code", "codex"], default="claude-code")
    ap.add_argument("--folder", action="store_true", help="one file per session, in a folder")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each step this many times (interleaved) and keep its fastest run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("sessions" if args.folder else "big.jsonl")
        size = build(path, args.mb, args.format, args.folder)
        files = len(list(path.iterdir())) if args.folder else 1
        best: dict[str, dict] = {}
        for n in range(max(1, args.repeat)):
            for mode in MODES:
                home = Path(tmp) / f"home-{n}"  # a fresh ledger every time
                r = run(mode, path, home)
                shutil.rmtree(home, ignore_errors=True)
                if mode not in best or r["seconds"] < best[mode]["seconds"]:
                    best[mode] = r
        base = best["parse"]["seconds"]
        what = f"{files} files" if args.folder else "one file"
        print(f"transcript: {size / 1e6:.1f} MB ({args.format}, {what}), {best['observe']['turns']} "
              f"turns; {os.cpu_count()} cores; fastest of {max(1, args.repeat)}")
        print("| step | seconds | × bare parse | peak RSS (MB) |")
        print("|---|---:|---:|---:|")
        for mode in MODES:
            r = best[mode]
            rss = f"{r['rss']:.0f}"
            if r.get("workers_rss"):
                rss += f" (+ workers ≤ {r['workers_rss']:.0f})"
            print(f"| {mode} | {r['seconds']:.2f} | {r['seconds'] / base:.2f} | {rss} |")
        if best["ingest"].get("index") is not None:
            print(f"then, in the background: the search index of the {best['ingest']['turns']:,} turns "
                  f"in {best['ingest']['index']:.2f} s")


if __name__ == "__main__":
    main()
