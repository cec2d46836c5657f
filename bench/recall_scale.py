"""Recall at scale: build a 100,000-entry index of synthetic but realistic entries, then measure.

Entries imitate what an agent's history holds: turns (a request, the agent's answer, tool names,
error output), chronicle entries, debts and notes, drawn from a technical vocabulary with a Zipf
distribution of word frequencies plus generated identifiers (file names, test names, hosts) so the
index has a long tail like a real one. Queries mix short keyword queries and natural questions.

Reported: indexing throughput (entries/s through the same upsert the refresh uses, triggers and
both FTS5 tables included), lexical search latency p50/p95 over the queries, the same with
``--kind``/``--since`` filters, brute-force cosine over 100k stored 384-d vectors (random unit
vectors: the model's own time per query is not included), index size and peak RSS.

    python bench/recall_scale.py [--entries 100000] [--queries 300] [--vectors]
"""

from __future__ import annotations

import argparse
import itertools
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from slowloop.recall.api import search_index
from slowloop.recall.index import RecallIndex
from slowloop.recall.model import Entry

WORDS = """
test tests failing failed flaky pipeline build deploy deployment staging production release
rollback migration database postgres sqlite schema index query timeout connection reset refused
retry cache redis queue worker job cron schedule config settings environment variable secret key
token auth login session cookie user account payment invoice refund billing order checkout cart
product search api endpoint request response status error exception traceback stack log logs
metric metrics alert dashboard monitor latency memory cpu disk docker image container kubernetes
pod node cluster helm chart terraform module provider network dns proxy nginx certificate tls
branch merge commit rebase conflict review pull request ci lint format type check mypy pytest
fixture mock patch refactor rename extract function class method module package dependency
version upgrade pin lockfile npm pnpm yarn pip poetry venv python typescript react component
page route form validation field input button modal style css layout mobile accessibility
report weekly summary export csv excel spreadsheet chart email notification slack message
customer ticket support bug issue feature task plan estimate deadline meeting decision note
document readme changelog guide tutorial example benchmark performance slow fast optimize
""".split()
VERBS = "fix add remove update investigate rewrite debug explain review write run check move split".split()
TEMPLATES = [
    "{v} the {a} {b} in {f}; {c} {d} after {e}",
    "why is the {a} {b} {c}? the {d} shows {err}",
    "{v} {a} for the {b} {c} and {d} the {e} {f}",
    "the {a} {b} keeps {c} on {host}: {err}",
    "{v} {t} so that {a} {b} no longer {c}",
]
ERRORS = ["ConnectionResetError: peer closed", "TimeoutError after 30s", "KeyError: 'customer_id'",
          "AssertionError: expected 200, got 500", "ModuleNotFoundError: No module named",
          "permission denied (publickey)", "OOMKilled", "429 Too Many Requests",
          "FATAL: password authentication failed", "segmentation fault (core dumped)"]


class Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        # Zipf weights over the vocabulary plus a long tail of generated identifiers
        syl = ["ka", "lo", "mi", "ren", "tor", "vex", "qui", "zan", "del", "bra", "sto", "nu",
               "pha", "gri", "ol", "um", "tek", "sol", "var", "in", "ex", "dro", "ly", "cor"]
        tail = {"".join(self.r.choice(syl) for _ in range(self.r.randint(2, 4))) for _ in range(30000)}
        # project names, modules, hosts, people: the long tail a real history has
        self.vocab = WORDS + sorted(tail)
        weights = [1 / (i + 1) ** 1.07 for i in range(len(self.vocab))]
        self.cum = list(itertools.accumulate(weights))
        head, rest = self.vocab[:len(WORDS)], self.vocab[len(WORDS):]
        self.r.shuffle(head)
        self.r.shuffle(rest)
        self.vocab = head + rest  # common technical words at the head of the Zipf curve

    def w(self) -> str:
        return self.r.choices(self.vocab, cum_weights=self.cum)[0]

    def sentence(self) -> str:
        t = self.r.choice(TEMPLATES)
        return t.format(v=self.r.choice(VERBS), a=self.w(), b=self.w(), c=self.w(), d=self.w(),
                        e=self.w(), t=self.w(), f=f"src/{self.w()}/{self.w()}.py",
                        host=f"{self.w()}-{self.r.randint(1, 40)}.internal", err=self.r.choice(ERRORS))

    def entry(self, i: int) -> Entry:
        kind = self.r.choices(["turn", "chronicle", "debt", "doc"], [70, 15, 5, 10])[0]
        n = {"turn": self.r.randint(3, 12), "chronicle": self.r.randint(2, 5),
             "debt": 1, "doc": self.r.randint(4, 20)}[kind]
        text = " ".join(self.sentence() for _ in range(n))
        day = 1 + i * 700 // 100_000
        when = f"{2024 + day // 365}-{1 + (day % 365) // 31:02d}-{1 + day % 28:02d}T{i % 24:02d}:00:00Z"
        ctx = "tools: Bash, Edit, Read" if kind == "turn" else f"{kind} section {self.w()}"
        return Entry(kind=kind, source=f"{kind}:{i}", time=when, text=text, context=ctx, origin=kind)

    def query(self) -> str:
        if self.r.random() < 0.5:
            return " ".join(self.w() for _ in range(self.r.randint(1, 4)))
        return f"when did we {self.r.choice(VERBS)} the {self.w()} {self.w()} that kept {self.w()}?"


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--vectors", action="store_true", help="also time cosine over stored vectors")
    ap.add_argument("--db", type=Path, default=None, help="keep the index at this path")
    args = ap.parse_args(argv)
    gen = Gen(7)
    rows: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "recall.db"
        idx = RecallIndex(path)
        entries = [gen.entry(i) for i in range(args.entries)]
        chars = sum(len(e.text) for e in entries)
        t0 = time.perf_counter()
        for i in range(0, len(entries), args.batch):
            idx.upsert(entries[i:i + args.batch])
        build = time.perf_counter() - t0
        rows.append(("entries", args.entries))
        rows.append(("mean entry length (chars)", chars / args.entries))
        rows.append(("indexing throughput (entries/s)", args.entries / build))
        rows.append(("index size (MB)", sum(f.stat().st_size for f in path.parent.glob(path.name + "*")) / 1e6))

        queries = [gen.query() for _ in range(args.queries)]
        for q in queries[:10]:  # warm the page cache like a second search would
            search_index(idx, q, k=10, mode="lexical")
        for label, kw in (("lexical", {}),
                          ("lexical --kind turn --since", {"kinds": ("turn",), "since": "2025-06-01T00:00:00Z"})):
            lat, found = [], 0
            for q in queries:
                t1 = time.perf_counter()
                hits = search_index(idx, q, k=10, mode="lexical", **kw)
                lat.append((time.perf_counter() - t1) * 1000)
                found += bool(hits)
            rows.append((f"{label} p50 (ms)", pct(lat, 50)))
            rows.append((f"{label} p95 (ms)", pct(lat, 95)))
            rows.append((f"{label} queries with hits", found / len(queries)))

        if args.vectors:
            import numpy as np

            from slowloop.recall.semantic import search_vectors

            rng = np.random.default_rng(7)
            with idx.transaction() as db:
                for i in range(0, args.entries, 5000):
                    hashes = [r[0] for r in db.execute("SELECT ehash FROM entries LIMIT 5000 OFFSET ?", (i,))]
                    v = rng.standard_normal((len(hashes), 384)).astype(np.float32)
                    v /= np.linalg.norm(v, axis=1, keepdims=True)
                    db.executemany("INSERT OR REPLACE INTO vectors(ehash, vec) VALUES (?, ?)",
                                   [(h, x.tobytes()) for h, x in zip(hashes, v, strict=True)])
            from slowloop.recall import semantic

            def one(clear: bool) -> float:
                if clear:  # a new process: only the on-disk matrix cache is there
                    semantic._MATRICES.clear()
                q = rng.standard_normal(384).astype(np.float32)
                t1 = time.perf_counter()
                search_vectors(idx, q / np.linalg.norm(q), kinds=None, since=None, limit=50)
                return (time.perf_counter() - t1) * 1000

            rows.append(("cosine, first query after the vectors changed (ms)", one(True)))
            for label, clear in (("cosine, new process (memory-mapped cache)", True),
                                 ("cosine, warm process", False)):
                lat = [one(clear) for _ in range(30)]
                rows.append((f"{label} p50 (ms)", pct(lat, 50)))
                rows.append((f"{label} p95 (ms)", pct(lat, 95)))
        idx.close()
    rows.append(("peak RSS (MB)", rss_mb()))
    print("| measure | value |")
    print("|---|---|")
    for name, value in rows:
        print(f"| {name} | {value:,.1f} |" if isinstance(value, float) else f"| {name} | {value:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
