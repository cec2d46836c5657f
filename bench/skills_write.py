"""Benchmark: what writing skills costs as the library grows (reads of SKILL.md files, time).

Run: python bench/skills_write.py [--skills 200] [--cap 150]
In a throw-away SLOWLOOP_HOME: creates ``--skills`` skills one by one in one process, counting
every SKILL.md opened for reading, then patches one, then creates ``--skills`` more in a library
capped at ``--cap`` (each create past the cap evicts one). A write should read O(1) files, not the
whole library; the eviction choice needs every skill's dates, which one cached scan gives.
"""

from __future__ import annotations

import argparse
import builtins
import io
import os
import tempfile
import time
from pathlib import Path

READS = {"n": 0}


def _counting(real):
    def opener(file, mode="r", *args, **kwargs):
        if ("r" in str(mode) and isinstance(file, (str, os.PathLike))
                and str(os.fspath(file)).endswith("SKILL.md")):
            READS["n"] += 1
        return real(file, mode, *args, **kwargs)
    return opener


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skills", type=int, default=200)
    ap.add_argument("--cap", type=int, default=150)
    args = ap.parse_args()
    builtins.open = _counting(builtins.open)
    io.open = _counting(io.open)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        os.environ["SLOWLOOP_HOME"] = str(home)
        from slowloop import clock
        from slowloop.config import load_config
        from slowloop.skills import SkillLibrary
        from slowloop.store import open_store

        store = open_store(home=home)
        t0 = 1_700_000_000.0

        def run(agent: str, max_count: int, label: str) -> None:
            cfg = load_config(home).with_overrides(skills={"max_count": max_count,
                                                           "eviction_grace": "0"})
            lib = SkillLibrary(agent, home=home, store=store, config=cfg)
            READS["n"] = 0
            start = time.perf_counter()
            for i in range(args.skills):
                clock.set_clock(lambda i=i: t0 + i)
                lib.create(f"skill-{i:03d}", f"When handling work item {i}, follow the procedure.",
                           f"1. Always check item {i} first.\n")
            took = time.perf_counter() - start
            creates = READS["n"]
            READS["n"] = 0
            lib.patch("skill-199", "check item 199 first", "check item 199 twice")
            print(f"{label}: {args.skills} creates read {creates} SKILL.md files "
                  f"({creates / args.skills:.1f} per create) in {took:.2f} s; a patch read "
                  f"{READS['n']}; {len(lib.list())} active")

        run("uncapped", args.skills + 10, "under the cap")
        run("capped", args.cap, f"cap {args.cap}  ")
        clock.set_clock(None)


if __name__ == "__main__":
    main()
