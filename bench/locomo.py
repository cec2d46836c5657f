"""LoCoMo turn-level retrieval benchmark for slowloop recall.

Reads ``locomo10.json`` at run time (CC BY-NC 4.0: a benchmark input only, never copied into the
project). Each of the 10 conversations gets its own recall index; every dialogue turn is one entry
(source = its dia_id); every QA question is a query; its evidence dia_ids are the relevant turns.
Reported: turn-level recall@5 / recall@10 (share of a question's evidence turns found in the top k,
averaged over questions) and per-query latency p50/p95, for lexical, semantic and hybrid.

How turns are indexed (what lifts recall above plain BM25 over the turn text):
* the entry text is "<speaker>: <utterance>" plus the caption of a shared photo, if any;
* the context (indexed at lower weight, embedded after the text) holds the session date and the
  neighbouring turns, because answers often sit in the reply to the turn that names the topic.

    python bench/locomo.py [--data PATH] [--modes lexical,semantic,hybrid] [--window 1]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from slowloop.config import Recall
from slowloop.recall.api import search_index
from slowloop.recall.index import RecallIndex
from slowloop.recall.model import Entry

DEFAULT_DATA = Path("/work/shared/data/locomo/locomo10.json")
_DIA = re.compile(r"D(\d+):(\d+)")
CATEGORY = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


def session_time(text: str) -> str:
    try:
        dt = datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")
    except ValueError:
        return ""
    return dt.replace(tzinfo=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def turns_of(conv: dict) -> list[dict]:
    out = []
    n = 1
    while f"session_{n}" in conv:
        date = conv.get(f"session_{n}_date_time", "")
        for t in conv[f"session_{n}"]:
            out.append({**t, "session": n, "date": date})
        n += 1
    return out


def utterance(t: dict) -> str:
    s = f"{t['speaker']}: {t['text']}"
    if t.get("blip_caption"):
        s += f" [shares a photo: {t['blip_caption']}]"
    return s


def entries_for(conv: dict, window: int) -> list[Entry]:
    turns = turns_of(conv)
    out = []
    for i, t in enumerate(turns):
        ctx = [t["date"]] if t["date"] else []
        # nearest neighbours first: the model embeds only the start of the context
        for d in range(1, window + 1):
            for j in (i - d, i + d):
                if 0 <= j < len(turns) and turns[j]["session"] == t["session"]:
                    ctx.append(utterance(turns[j]))
        out.append(Entry(kind="turn", source=t["dia_id"], time=session_time(t["date"]),
                         text=utterance(t), context="\n".join(ctx), origin="locomo"))
    return out


def evidence_ids(qa: dict) -> set[str]:
    ids = set()
    for ev in qa.get("evidence") or ():
        for m in _DIA.finditer(str(ev).replace(":", ":", 1).replace("D:", "D")):
            ids.add(f"D{int(m.group(1))}:{int(m.group(2))}")
    return ids


class TimedCache:
    """Embeds each question once for both semantic and hybrid, and remembers what that cost so
    each mode's latency still includes embedding its query."""

    def __init__(self, inner) -> None:
        self.inner, self.identity = inner, inner.identity
        self.cache: dict[str, tuple[object, float]] = {}

    def embed(self, texts):
        if len(texts) != 1:
            return self.inner.embed(texts)
        if texts[0] not in self.cache:
            t0 = time.perf_counter()
            vec = self.inner.embed(texts)
            self.cache[texts[0]] = (vec, time.perf_counter() - t0)
        return self.cache[texts[0]][0]

    def cost_ms(self, text: str, fresh: bool) -> float:
        # the first mode paid it inside its measured time; the others get it added
        return 0.0 if fresh else self.cache[text][1] * 1000


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--modes", default="lexical,semantic,hybrid")
    ap.add_argument("--window", type=int, default=2, help="neighbouring turns kept as context")
    ap.add_argument("--categories", default="1,2,3,4,5",
                    help="QA categories to score (5 = adversarial; they do carry evidence)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N conversations")
    ap.add_argument("--rrf-k", type=int, default=Recall.rrf_k)
    ap.add_argument("--semantic-weight", type=float, default=Recall.semantic_weight)
    args = ap.parse_args(argv)
    if not args.data.exists():
        print(f"error: {args.data} not found (pass --data PATH to locomo10.json)", file=sys.stderr)
        return 2
    data = json.loads(args.data.read_text(encoding="utf-8"))
    if args.limit:
        data = data[: args.limit]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    cats = {int(c) for c in args.categories.split(",")}
    embedder = None
    if any(m in ("semantic", "hybrid") for m in modes):
        from slowloop.recall.semantic import load_embedder

        embedder = TimedCache(load_embedder("all-MiniLM-L6-v2"))

    results: dict[str, dict] = {m: {"r5": [], "r10": [], "lat": [], "cat": {}} for m in modes}
    n_questions = n_turns = skipped = 0
    t_index = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for ci, sample in enumerate(data):
            entries = entries_for(sample["conversation"], args.window)
            n_turns += len(entries)
            known = {e.source for e in entries}
            t0 = time.perf_counter()
            idx = RecallIndex(Path(tmp) / f"conv{ci}.db")
            idx.upsert(entries)
            if embedder is not None:
                from slowloop.recall.semantic import ensure_vectors

                ensure_vectors(idx, embedder)
            t_index += time.perf_counter() - t0
            print(f"conversation {ci + 1}/{len(data)} indexed ({time.perf_counter() - t0:.1f}s)",
                  file=sys.stderr, flush=True)
            for qa in sample["qa"]:
                if qa.get("category") not in cats:
                    continue
                rel = evidence_ids(qa) & known
                if not rel:
                    skipped += 1
                    continue
                n_questions += 1
                for m in modes:
                    fresh = embedder is None or qa["question"] not in embedder.cache
                    t1 = time.perf_counter()
                    hits = search_index(idx, qa["question"], k=10, mode=m, embedder=embedder,
                                        rrf_k=args.rrf_k, semantic_weight=args.semantic_weight)
                    ms = (time.perf_counter() - t1) * 1000
                    if m != "lexical" and embedder is not None:
                        ms += embedder.cost_ms(qa["question"], fresh)
                    results[m]["lat"].append(ms)
                    got = [h.source for h in hits]
                    r5 = len(rel & set(got[:5])) / len(rel)
                    r10 = len(rel & set(got[:10])) / len(rel)
                    results[m]["r5"].append(r5)
                    results[m]["r10"].append(r10)
                    results[m]["cat"].setdefault(qa["category"], []).append(r10)
            idx.close()

    print(f"LoCoMo: {len(data)} conversations, {n_turns} turns, {n_questions} questions "
          f"(categories {sorted(cats)}; {skipped} without usable evidence skipped), "
          f"context window ±{args.window}, rrf k={args.rrf_k}, semantic weight "
          f"{args.semantic_weight}, indexing {t_index:.1f}s\n")
    print("| mode | R@5 | R@10 | p50 ms | p95 ms |")
    print("|---|---|---|---|---|")
    for m in modes:
        r = results[m]
        print(f"| {m} | {statistics.mean(r['r5']):.3f} | {statistics.mean(r['r10']):.3f} | "
              f"{pct(r['lat'], 50):.1f} | {pct(r['lat'], 95):.1f} |")
    print("\nR@10 by category:\n")
    print("| mode | " + " | ".join(f"{c} {CATEGORY[c]}" for c in sorted(cats)) + " |")
    print("|---|" + "---|" * len(cats))
    for m in modes:
        r = results[m]
        print(f"| {m} | " + " | ".join(f"{statistics.mean(r['cat'].get(c, [0])):.3f}"
                                       for c in sorted(cats)) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
