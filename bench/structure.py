"""The shape of the code, before and after, in one run: import cycles, long modules and functions,
and the start-up time of the commands people and hooks run most.

    python bench/structure.py --before /tmp/base/src          # compare with another checkout
    python bench/structure.py --before /tmp/base/src --runs 30

Import cycles come from grimp (import-linter's graph; imports inside functions counted, those under
TYPE_CHECKING not). Start-up: `slowloop status` on an empty home, and the hook runtime's
SessionStart and Stop on a tiny transcript, each a whole process timed from start to exit, the two
trees interleaved run by run (this machine is noisy: compare the two columns of one run).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _graph_facts(src: Path) -> dict:
    code = f"""
import sys, json, collections
sys.path.insert(0, {str(src)!r})
import grimp
g = grimp.build_graph("slowloop", exclude_type_checking_imports=True)
adj = {{m: set(g.find_modules_directly_imported_by(m)) for m in g.modules}}
pk = lambda m: ".".join(m.split(".")[:2])
def sccs(graph):
    index, low, st, on, out, c = {{}}, {{}}, [], set(), [], [0]
    sys.setrecursionlimit(100000)
    def sc(v):
        index[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in index: sc(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(sorted(comp))
    for v in list(graph):
        if v not in index: sc(v)
    return out
pkg = collections.defaultdict(set)
for m, deps in adj.items():
    for d in deps:
        if pk(m) != pk(d): pkg[pk(m)].add(pk(d))
print(json.dumps({{"module_cycles": sccs(adj), "package_cycles": sccs(dict(pkg))}}))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    if done.returncode:
        return {"error": done.stderr[-400:]}
    return json.loads(done.stdout)


def _sizes(src: Path) -> dict:
    long_modules, functions = [], []
    for p in sorted((src / "slowloop").rglob("*.py")):
        text = p.read_text(encoding="utf-8")
        n = len(text.splitlines())
        rel = str(p.relative_to(src))
        if n > 500:
            long_modules.append((rel, n))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.append((node.end_lineno - node.lineno + 1, f"{rel}:{node.lineno} {node.name}"))
    functions.sort(reverse=True)
    return {"modules_over_500_lines": sorted(long_modules, key=lambda x: -x[1]),
            "longest_functions": functions[:6]}


def _timed(argv: list[str], env: dict, stdin: str = "") -> float:
    t = time.perf_counter()
    subprocess.run(argv, env=env, input=stdin, capture_output=True, text=True, timeout=120)
    return time.perf_counter() - t


def _startup(trees: dict[str, Path], runs: int) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        transcript = tmp / "s.jsonl"
        transcript.write_text(json.dumps({"type": "user", "sessionId": "s", "timestamp": "2026-12-01T10:00:00Z",
                                          "message": {"role": "user", "content": "hello"}}) + "\n"
                              + json.dumps({"type": "assistant", "sessionId": "s", "timestamp": "2026-12-01T10:00:01Z",
                                            "message": {"role": "assistant", "content": [{"type": "text", "text": "hi"}]}})
                              + "\n")
        payload = json.dumps({"session_id": "s", "transcript_path": str(transcript), "cwd": str(tmp)})
        for _ in range(runs):
            for name, src in trees.items():
                env = {k2: v for k2, v in os.environ.items() if not k2.startswith("SLOWLOOP_")}
                env.update(PYTHONPATH=str(src), SLOWLOOP_HOME=str(tmp / name), SLOWLOOP_REFLECT__AUTO="false",
                           XDG_STATE_HOME=str(tmp / "state"))
                cases = {
                    "slowloop status": ([sys.executable, "-m", "slowloop", "status"], ""),
                    "hook SessionStart": ([sys.executable, "-m", "slowloop.integrations.hooks_runtime", "claude-code",
                                           "SessionStart", "--agent", "a"], payload),
                    "hook Stop": ([sys.executable, "-m", "slowloop.integrations.hooks_runtime", "claude-code", "Stop",
                                   "--agent", "a"], payload),
                }
                for case, (argv, stdin) in cases.items():
                    out[name].setdefault(case, []).append(_timed(argv, env, stdin))
    return {name: {case: statistics.median(v) * 1000 for case, v in cases.items()} for name, cases in out.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="the src folder of the checkout to compare with")
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    trees = {"before": Path(args.before), "after": ROOT / "src"}
    for name, src in trees.items():
        g, sizes = _graph_facts(src), _sizes(src)
        print(f"== {name}: {src}")
        print(f"  package-level import cycles: {g.get('package_cycles')}")
        print(f"  module-level import cycles:  {len(g.get('module_cycles', []))} {g.get('module_cycles')}")
        print(f"  modules over 500 lines: {len(sizes['modules_over_500_lines'])} "
              + ", ".join(f"{m} ({n})" for m, n in sizes["modules_over_500_lines"]))
        print("  longest functions: " + "; ".join(f"{n} lines {where}" for n, where in sizes["longest_functions"]))
    times = _startup(trees, args.runs)
    print(f"start-up, median of {args.runs} interleaved runs (ms):")
    for case in times["before"]:
        b, a = times["before"][case], times["after"][case]
        print(f"  {case:18} before {b:6.0f}   after {a:6.0f}   ratio {a / b:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
