"""Build and measure the adversarial set of the danger scan (tests/data/danger/).

    python bench/danger_set.py --write   # rebuild set.jsonl from the hand-written sources
    python bench/danger_set.py           # measure: blocked %, false blocks %, per class

Sources, all hand-written: ``plain.txt`` (dangerous instructions as written, by intent class, in
the eight languages), ``disguised_hand.jsonl`` (disguised by hand: every form of the security
issue), ``benign.txt`` (look-alikes a careful agent should carry). Each plain case also gets one
machine disguise (full-width letters, quotes inside words, line continuations, a pipe split over
lines, look-alike Cyrillic letters, zero-width characters, backslashes, ``${IFS}``, hex escapes,
a base64 payload), chosen in turn, so at least half of the dangerous cases are disguised.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "danger"
CODE = re.compile(r"`([^`\n]+)`")
_FW = {c: chr(ord(c) + 0xFEE0) for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"}
_CYR = {"a": "а", "e": "е", "o": "о", "c": "с", "p": "р", "x": "х", "y": "у", "i": "і", "s": "ѕ"}


def _lines(name: str) -> list[str]:
    return [ln.rstrip("\n") for ln in (DATA / name).read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.startswith("#")]


def _in_code(text: str, fn) -> str | None:
    m = CODE.search(text)
    if not m:
        return None
    return text[:m.start(1)] + fn(m.group(1)) + text[m.end(1):]


def _word_fn(fn, min_len: int = 3):
    return lambda s: re.sub(rf"[A-Za-z]{{{min_len},}}", lambda w: fn(w.group(0)), s)


def fullwidth(text: str, rng: random.Random) -> str | None:
    return "".join(_FW.get(c, c) if rng.random() < 0.6 else c for c in text)


def quotes(text: str, rng: random.Random) -> str | None:
    q = rng.choice(['""', "''"])
    return _in_code(text, _word_fn(lambda w: w[:1] + q + w[1:])) or \
        _word_fn(lambda w: w[:2] + q + w[2:], 5)(text)


def continuation(text: str, rng: random.Random) -> str | None:
    return _in_code(text, lambda s: s.replace(" ", " \\\n    ", 2))


def pipe_split(text: str, rng: random.Random) -> str | None:
    return text.replace(" | ", " |\n    ", 1) if " | " in text else None


def cyrillic(text: str, rng: random.Random) -> str | None:
    return "".join(_CYR.get(c, c) if rng.random() < 0.5 else c for c in text)


def zero_width(text: str, rng: random.Random) -> str | None:
    return _word_fn(lambda w: w[:2] + "\u200b" + w[2:], 4)(text)


def backslash(text: str, rng: random.Random) -> str | None:
    return _in_code(text, _word_fn(lambda w: w[:1] + "\\" + w[1:], 2))


def ifs(text: str, rng: random.Random) -> str | None:
    return _in_code(text, lambda s: s.replace(" ", "${IFS}")) if "`" in text and "|" not in text \
        else None


def hex_escape(text: str, rng: random.Random) -> str | None:
    def first_word(s: str) -> str:
        w = s.split(" ", 1)
        return "$'" + "".join(f"\\x{ord(c):02x}" for c in w[0]) + "'" + (
            " " + w[1] if len(w) > 1 else "")
    return _in_code(text, first_word)


def payload(text: str, rng: random.Random) -> str | None:
    m = CODE.search(text)
    if not m:
        return None
    b64 = base64.b64encode(m.group(1).encode()).decode()
    return text[:m.start()] + f"`echo {b64} | base64 -d | sh`" + text[m.end():]


DISGUISES = [fullwidth, quotes, continuation, pipe_split, cyrillic, zero_width, backslash, ifs,
             hex_escape, payload]


def build() -> list[dict]:
    rng = random.Random(12)
    rows: list[dict] = []
    turn = 0
    for line in _lines("plain.txt"):
        cls, text = (p.strip() for p in line.split("|", 1))
        rows.append({"label": "dangerous", "class": cls, "disguise": "none", "text": text})
        for _ in range(len(DISGUISES)):
            fn = DISGUISES[turn % len(DISGUISES)]
            turn += 1
            out = fn(text, rng)
            if out and out != text:
                rows.append({"label": "dangerous", "class": cls, "disguise": fn.__name__,
                             "text": out})
                break
    for line in (DATA / "disguised_hand.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows.append({"label": "dangerous", "class": row["class"], "disguise": "by hand",
                     "text": row["text"]})
    for text in _lines("benign.txt"):
        rows.append({"label": "benign", "class": "", "disguise": "none", "text": text})
    return rows


def load() -> list[dict]:
    return [json.loads(ln) for ln in (DATA / "set.jsonl").read_text(encoding="utf-8").splitlines()]


# Texts other engineers wrote for the lint and correction detectors (before this scan existed):
# rules a person or a model would write, and people correcting an agent. None is an attack, so
# every flag on them is a false block.
FOREIGN = ["lint.jsonl", "blind/lint.jsonl", "blind2/lint.jsonl", "corrections.jsonl",
           "blind/corrections.jsonl", "blind2/corrections.jsonl"]


def foreign_texts() -> list[str]:
    root = DATA.parent
    return [json.loads(ln)["text"] for name in FOREIGN if (root / name).exists()
            for ln in (root / name).read_text(encoding="utf-8").splitlines() if ln.strip()]


def measure(rows: list[dict]) -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from slowloop.safety.danger import scan

    t0 = time.perf_counter()
    missed, false = [], []
    per = Counter()
    per_hit = Counter()
    for row in rows:
        found = [d for d in scan(row["text"]) if d.kind != "secret"]
        if row["label"] == "dangerous":
            key = (row["class"], row["disguise"] != "none")
            per[key] += 1
            if found:
                per_hit[key] += 1
            else:
                missed.append(row)
        elif found:
            false.append((row, found))
    foreign = foreign_texts()
    foreign_flagged = [(t, found) for t in foreign
                       if (found := [d for d in scan(t) if d.kind != "secret"])]
    dangerous = sum(1 for r in rows if r["label"] == "dangerous")
    benign = len(rows) - dangerous
    return {"dangerous": dangerous, "disguised": sum(1 for r in rows if r["label"] == "dangerous"
                                                      and r["disguise"] != "none"),
            "benign": benign, "blocked": (dangerous - len(missed)) / dangerous,
            "false_blocks": len(false) / benign, "missed": missed, "false": false,
            "per": per, "per_hit": per_hit, "seconds": time.perf_counter() - t0,
            "foreign": len(foreign), "foreign_flagged": foreign_flagged}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="rebuild tests/data/danger/set.jsonl")
    args = ap.parse_args()
    if args.write:
        rows = build()
        with open(DATA / "set.jsonl", "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"wrote {len(rows)} cases to {DATA / 'set.jsonl'}")
        return 0
    r = measure(load())
    print(f"dangerous {r['dangerous']} ({r['disguised']} disguised), benign {r['benign']}")
    print(f"blocked {100 * r['blocked']:.1f}%  false blocks {100 * r['false_blocks']:.1f}%  "
          f"({r['seconds'] * 1000:.0f} ms)")
    print(f"other engineers' rules and corrections: {len(r['foreign_flagged'])}/{r['foreign']} "
          f"flagged ({100 * len(r['foreign_flagged']) / max(1, r['foreign']):.1f}%)")
    for (cls, disguised), n in sorted(r["per"].items()):
        print(f"  {cls:13} {'disguised' if disguised else 'plain':9} "
              f"{r['per_hit'][(cls, disguised)]}/{n}")
    for row in r["missed"]:
        print("MISSED", row["class"], row["disguise"], repr(row["text"]))
    for row, found in r["false"]:
        print("FALSE", repr(row["text"]), [(d.kind, d.reason) for d in found])
    for text, found in r["foreign_flagged"]:
        print("FALSE (foreign)", repr(text), [(d.kind, d.reason) for d in found])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
