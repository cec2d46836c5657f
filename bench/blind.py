"""Blind measurement of the three zero-cost detectors on sets written without seeing their rules.

    python bench/blind.py            # tables + every misclassified example
    python bench/blind.py --quiet    # tables only
    python bench/blind.py --dir tests/data/blind2   # another set with the same three files
    python bench/blind.py --dir tests/data/blind3   # corrections only: the forms that state a lesson (BLIND3.md)

Data: tests/data/blind/{corrections,errors,lint}.jsonl, written and committed (ac7f524) by someone
who had not read corrections.py, errors.py, lint.py or their test data. corrections: 246 user
messages in 8 languages, ~half corrections, hard negatives tagged in "note". errors: 148 tool
outputs (37 none / 47 transient / 64 real). lint: 136 rule lines, 8 languages, half actionable.

FIRST BLIND RUN, 2026-11-29 (detectors as of 0c8c3ad, untouched; these are the honest figures):
    corrections — detect_correction(text).corrected
      group     n      P      R   (of 'corrected')
      de       29  0.818  0.600   tp=9 fp=2 fn=6 tn=12
      en       42  0.842  0.800   tp=16 fp=3 fn=4 tn=19
      es       29  0.769  0.667   tp=10 fp=3 fn=5 tn=11
      fr       29  0.733  0.733   tp=11 fp=4 fn=4 tn=10
      it       29  0.800  0.800   tp=12 fp=3 fn=3 tn=11
      ja       29  0.909  0.667   tp=10 fp=1 fn=5 tn=13
      pt       29  0.750  0.600   tp=9 fp=3 fn=6 tn=11
      zh       30  0.750  0.600   tp=9 fp=3 fn=6 tn=12
      ALL     246  0.796  0.688   tp=86 fp=22 fn=39 tn=99

    errors — classify_result(result, call): is it an error?
      group     n      P      R   (of 'error')
      ALL     148  1.000  0.937   tp=104 fp=0 fn=7 tn=37
      transient vs real, among true errors that were detected: accuracy 102/104 = 0.981
        predicted transient: precision 1.000 (41/41)
        predicted real     : precision 0.968 (61/63)

    lint — lint_line(text).actionable
      group     n      P      R   (of 'actionable')
      de       16  1.000  0.875   tp=7 fp=0 fn=1 tn=8
      en       24  1.000  1.000   tp=12 fp=0 fn=0 tn=12
      es       16  1.000  0.875   tp=7 fp=0 fn=1 tn=8
      fr       16  1.000  0.625   tp=5 fp=0 fn=3 tn=8
      it       16  1.000  0.875   tp=7 fp=0 fn=1 tn=8
      ja       16  1.000  0.750   tp=6 fp=0 fn=2 tn=8
      pt       16  1.000  1.000   tp=8 fp=0 fn=0 tn=8
      zh       16  1.000  1.000   tp=8 fp=0 fn=0 tn=8
      ALL     136  1.000  0.882   tp=60 fp=0 fn=8 tn=68

    The first-run misses, by family: corrections FP — "no, that's all" / "nein, das ist alles" in
    six languages, "why did you use X here?" questions, "redo the build" (rifai/refaz/refais/rehaz),
    不对称 and 应该是…吧？; FN — "I told you"/"still the same error"/"put it back as it was" in
    several languages, "wrong file" in fr/de/zh, sarcasm, a correction after a pasted log, polite
    "there is a misunderstanding", Chinese 改错/搞坏/撤回. errors — `curl -i` status lines with
    exit 0 (503/429/500/408 and 401/404/422) not seen as errors; Claude Code "Command timed out"
    and "Cannot connect to the Docker daemon" called real. lint — negative imperatives scoped by
    "without asking" read as trigger-less; fr/es/ja imperative forms (réessaie, ne dépasse,
    no superes, してはいけない, しないこと) not recognised.

AFTER TUNING ON THE BLIND SET, 2026-11-29 (no longer blind: the misses above were read and
generalised into cue families in 9d7703e, a3b7111, 2da1fb3; the existing sets stay at 1.000):
    corrections — detect_correction(text).corrected
      group     n      P      R   (of 'corrected')
      de       29  1.000  1.000   tp=15 fp=0 fn=0 tn=14
      en       42  0.950  0.950   tp=19 fp=1 fn=1 tn=21
      es       29  1.000  1.000   tp=15 fp=0 fn=0 tn=14
      fr       29  1.000  1.000   tp=15 fp=0 fn=0 tn=14
      it       29  1.000  1.000   tp=15 fp=0 fn=0 tn=14
      ja       29  1.000  0.933   tp=14 fp=0 fn=1 tn=14
      pt       29  1.000  1.000   tp=15 fp=0 fn=0 tn=14
      zh       30  1.000  1.000   tp=15 fp=0 fn=0 tn=15
      ALL     246  0.992  0.984   tp=123 fp=1 fn=2 tn=120

    errors — classify_result(result, call): is it an error?
      group     n      P      R   (of 'error')
      ALL     148  1.000  1.000   tp=111 fp=0 fn=0 tn=37
      transient vs real, among true errors that were detected: accuracy 110/111 = 0.991
        predicted transient: precision 1.000 (46/46)
        predicted real     : precision 0.985 (64/65)

    lint — lint_line(text).actionable
      group     n      P      R   (of 'actionable')
      de       16  1.000  1.000   tp=8 fp=0 fn=0 tn=8
      en       24  1.000  1.000   tp=12 fp=0 fn=0 tn=12
      es       16  1.000  1.000   tp=8 fp=0 fn=0 tn=8
      fr       16  1.000  1.000   tp=8 fp=0 fn=0 tn=8
      it       16  1.000  1.000   tp=8 fp=0 fn=0 tn=8
      ja       16  1.000  1.000   tp=8 fp=0 fn=0 tn=8
      pt       16  1.000  1.000   tp=8 fp=0 fn=0 tn=8
      zh       16  1.000  1.000   tp=8 fp=0 fn=0 tn=8
      ALL     136  1.000  1.000   tp=68 fp=0 fn=0 tn=68

    Left as misses on purpose: "hold on, you're editing the generated file" (no cue, only meaning),
    Japanese sarcasm "さすがですね、全部のテストが落ちました" and the bug report "the user picks the
    wrong answer" (a domain noun phrase). Claude Code's "Command timed out after 2m" stays real:
    errors.py documents that choice (a command outliving its own limit is usually a hung test or
    a foreground server), while this set labelled it transient after SPEC's "timeouts". Read
    these figures as an upper bound; a new unseen set is the way to measure again.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from slowloop.observe.corrections import detect_correction  # noqa: E402
from slowloop.observe.errors import classify_result  # noqa: E402
from slowloop.safety.lint import lint_line  # noqa: E402
from slowloop.transcripts.model import ToolCall, ToolResult  # noqa: E402

DATA = ROOT / "tests" / "data" / "blind"


def load(name: str) -> list[dict]:
    path = DATA / name
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def pr(tp: int, fp: int, fn: int) -> tuple[float, float]:
    # An empty denominator means there was nothing to get wrong: report 1.0 rather than divide.
    return (tp / (tp + fp) if tp + fp else 1.0, tp / (tp + fn) if tp + fn else 1.0)


class Tally:
    """Binary confusion counts, overall and per group (language)."""

    def __init__(self) -> None:
        self.c: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # tp fp fn tn

    def add(self, group: str | None, truth: bool, pred: bool) -> None:
        i = 0 if truth and pred else 1 if pred else 2 if truth else 3
        if group is not None:
            self.c[group][i] += 1
        self.c["ALL"][i] += 1

    def lines(self, what: str) -> list[str]:
        out = [f"  {'group':6} {'n':>4} {'P':>6} {'R':>6}   ({what})"]
        for g in sorted(self.c, key=lambda k: (k == "ALL", k)):
            tp, fp, fn, tn = self.c[g]
            p, r = pr(tp, fp, fn)
            out.append(f"  {g:6} {tp + fp + fn + tn:4d} {p:6.3f} {r:6.3f}   tp={tp} fp={fp} fn={fn} tn={tn}")
        return out


def short(text: str, n: int = 110) -> str:
    t = " ".join(text.split())
    return t if len(t) <= n else t[: n - 1] + "…"


def bench_corrections(misses: list[str]) -> list[str]:
    t = Tally()
    for row in load("corrections.jsonl"):
        c = detect_correction(row["text"])
        t.add(row["lang"], row["label"], c.corrected)
        if c.corrected != row["label"]:
            kind = "FN" if row["label"] else "FP"
            misses.append(f"  corr {kind} [{row['lang']}] {short(row['text'])!r}  "
                          f"evidence={c.evidence!r}  ({row['note']})")
    return ["corrections — detect_correction(text).corrected"] + t.lines("of 'corrected'")


def error_case(row: dict) -> tuple[ToolResult, ToolCall]:
    name = row.get("tool") or "Bash"
    call = ToolCall(id="c", name=name, input=row.get("input"))
    result = ToolResult(call_id="c", name=name, output=row["output"], is_error=row.get("is_error"),
                        exit_code=row.get("exit_code"))
    return result, call


def bench_errors(misses: list[str]) -> list[str]:
    det = Tally()
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # predicted kind -> [right, wrong]
    right = total = 0
    for row in load("errors.jsonl"):
        result, call = error_case(row)
        obs = classify_result(result, call)
        pred = obs.kind if obs is not None else "none"
        truth = row["label"]
        det.add(None, truth != "none", pred != "none")
        if truth != "none" and pred != "none":
            total += 1
            right += pred == truth
            kinds[pred][0 if pred == truth else 1] += 1
        if pred != truth:
            ev = obs.evidence if obs is not None else None
            misses.append(f"  err  {truth}->{pred} [{row['tool']}] {short(row['output'])!r}  "
                          f"evidence={ev!r}  ({row['note']})")
    out = ["errors — classify_result(result, call): is it an error?"] + det.lines("of 'error'")
    acc = right / total if total else 1.0
    out.append(f"  transient vs real, among true errors that were detected: accuracy {right}/{total} = {acc:.3f}")
    for k in ("transient", "real"):
        ok, bad = kinds[k]
        p = ok / (ok + bad) if ok + bad else 1.0
        out.append(f"    predicted {k:9}: precision {p:.3f} ({ok}/{ok + bad})")
    return out


def bench_lint(misses: list[str]) -> list[str]:
    t = Tally()
    for row in load("lint.jsonl"):
        res = lint_line(row["text"])
        t.add(row["lang"], row["actionable"], res.actionable)
        if res.actionable != row["actionable"]:
            kind = "FN" if row["actionable"] else "FP"
            misses.append(f"  lint {kind} [{row['lang']}] {short(row['text'])!r}  reason={res.reason!r}")
    return ["lint — lint_line(text).actionable"] + t.lines("of 'actionable'")


def main(argv: list[str]) -> int:
    global DATA
    if "--dir" in argv:
        # Another blind set in the same three-file layout (e.g. tests/data/blind2); relative paths
        # are taken from the current directory, as a user typing them would expect.
        i = argv.index("--dir")
        if i + 1 >= len(argv):
            print("error: --dir needs a directory, e.g. --dir tests/data/blind2", file=sys.stderr)
            return 2
        DATA = Path(argv[i + 1]).resolve()
        if not any((DATA / n).is_file() for n in ("corrections.jsonl", "errors.jsonl", "lint.jsonl")):
            print(f"error: {DATA} holds none of corrections.jsonl, errors.jsonl, lint.jsonl; point "
                  "--dir at a directory holding at least one of them", file=sys.stderr)
            return 2
    misses: list[str] = []
    # A set may measure one detector only (tests/data/blind3 holds corrections alone).
    report: list[str] = []
    for name, bench in (("corrections.jsonl", bench_corrections), ("errors.jsonl", bench_errors),
                        ("lint.jsonl", bench_lint)):
        if (DATA / name).is_file():
            report += ([""] if report else []) + bench(misses)
    print("\n".join(report))
    if "--quiet" not in argv:
        print(f"\nmisclassified ({len(misses)}):")
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
