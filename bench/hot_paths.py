"""Benchmark: the throughput figures the tests used to assert with a stopwatch.

Run: python bench/hot_paths.py [--runs 5]
Timings belong here, not in tests (a loaded machine makes a wall-clock assert flaky). Each figure
has the budget the old assert used, for comparison:

- classify an 11 MB failed tool output (only its head and tail are read): budget 250 ms;
- redact 1 MB of mixed text with planted keys: budget 500 ms;
- stream a ~50 MB Claude Code transcript (from the real samples) turn by turn: budget 20 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples" / "transcripts"


def timed(fn, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, max(times) * 1000


def classify(runs: int) -> None:
    from slowloop.observe.errors import classify_result
    from slowloop.transcripts.model import ToolResult

    middle = "building module 123 ... ok\n" * 400_000
    out = "Exit code 1\n" + middle + "ModuleNotFoundError: No module named 'yaml'\n"
    result = ToolResult("x", "Bash", out, is_error=True)
    p50, worst = timed(lambda: classify_result(result), runs)
    print(f"classify {len(out) / 1e6:.0f} MB output: p50 {p50:.1f} ms, max {worst:.1f} ms (budget 250)")


def redact_mb(runs: int) -> None:
    from slowloop.safety.redact import redact

    rng = random.Random(7)
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0" * 3
    chunks = ["The user asked to run the tests again; max_tokens=100 and token_count: 42.\n",
              "def handler(token: str, password=None):\n    return post(url, headers=headers)\n",
              "Error: connection reset by peer while fetching https://api.example.com/v1/items\n"]
    parts, size = [], 0
    while size < 1_000_000:
        chunk = f"export OPENAI_API_KEY={key}\n" if rng.random() < 0.01 else rng.choice(chunks)
        parts.append(chunk)
        size += len(chunk)
    text = "".join(parts)
    redact(text[:1000])  # compile the patterns first
    p50, worst = timed(lambda: redact(text), runs)
    print(f"redact {len(text) / 1e6:.1f} MB: p50 {p50:.0f} ms, max {worst:.0f} ms (budget 500)")


def stream_50mb(runs: int) -> None:
    from slowloop.transcripts import iter_turns

    sample = (SAMPLES / "claude-code/ccv-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl").read_bytes()
    golden = (SAMPLES / "claude-code/ah-claude_golden.jsonl").read_text().splitlines()
    padded = []
    for raw in golden:
        rec = json.loads(raw)
        for block in rec["message"]["content"]:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                block["content"] = "x" * 65536
        padded.append(json.dumps(rec))
    turn_bytes = ("\n".join(padded) + "\n").encode()
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.jsonl"
        with big.open("wb") as f:
            for _ in range(6):
                f.write(sample)
            for _ in range((50 * 1024 * 1024) // len(turn_bytes) + 1):
                f.write(turn_bytes)
        p50, worst = timed(lambda: sum(1 for _ in iter_turns(big)), max(1, runs // 2))
        print(f"stream {big.stat().st_size / 1e6:.0f} MB transcript: p50 {p50 / 1000:.2f} s, "
              f"max {worst / 1000:.2f} s (budget 20)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    classify(args.runs)
    redact_mb(args.runs)
    stream_50mb(args.runs)
    print(f"(load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
