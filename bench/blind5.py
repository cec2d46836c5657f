"""The fifth blind sets: corrections *with what the agent did around them*, and multi-session
scenarios — both written by people who read only the README and docs (tests/data/blind5/README.md).

    python bench/blind5.py                    # both sets: detection P/R, rules learned, junk, stale
    python bench/blind5.py --set corrections  # one set
    python bench/blind5.py --misses           # every miss and every junk rule, to read
    python bench/blind5.py --src /tmp/base/src  # measure another checkout's code (the first run)
    python bench/blind5.py --config model.toml  # reflect with the model a config names, not offline

Everything goes through what a user runs: each item is written as a transcript (OpenAI chat format,
the tool calls as Claude Code names them: Bash, Edit, Write, Read), ingested into a fresh home,
reflected on with no model (`reflect --now` offline, the default), and judged on the next
session's bootstrap (memo and the skills it lists).

corrections.jsonl — one item = a task turn (the agent's actions before) and the person's next
message (with the agent's actions after it). Detection: is the second turn recorded as corrected.
Learning: for items marked `standing`, does the next bootstrap hold a rule naming `use` (and
`avoid`, when given, as what not to use); for every other item, any new rule is junk.

scenarios.jsonl — sessions ingested one after another, a reflection after each; the final
bootstrap must hold each expected rule, no rule may still recommend a `stale` choice, no rule may
mention a `must_not_mention` literal, and `nothing` scenarios must teach nothing at all.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "blind5"


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=("corrections", "scenarios", "both"), default="both")
    ap.add_argument("--misses", action="store_true", help="print every miss and junk rule")
    ap.add_argument("--src", default=str(ROOT / "src"), help="the slowloop source tree to measure")
    ap.add_argument("--dir", default=str(DATA), help="the folder holding the two sets")
    ap.add_argument("--dump", default=None, help="write one JSON line per correction item (its rules, "
                    "what was held, the verdict) to this file, to study what the learner did")
    ap.add_argument("--config", default=None,
                    help="a config.toml copied into every home: reflect with the model it names ([provider]) "
                         "instead of the offline learner, to compare the two on the same set")
    return ap.parse_args()


ARGS = _args() if __name__ == "__main__" else None
# imported by another bench, the code it measures is the one that bench names (SLOWLOOP_BENCH_SRC)
sys.path.insert(0, ARGS.src if ARGS else os.environ.get("SLOWLOOP_BENCH_SRC", str(ROOT / "src")))

from slowloop.bootstrap import build_bootstrap  # noqa: E402
from slowloop.config import load_config  # noqa: E402
from slowloop.ingest import default_weakness, ingest_paths  # noqa: E402
from slowloop.reflect.cycle import reflect_agent  # noqa: E402
from slowloop.skills import SkillLibrary  # noqa: E402
from slowloop.store import open_store  # noqa: E402

# -- writing the transcripts -------------------------------------------------------------------

def _call(action: dict, n: int) -> tuple[dict, dict]:
    tool = action.get("tool")
    if tool == "bash":
        name, args = "Bash", {"command": action.get("command", "")}
        out = action.get("output", "") or ""
        code = action.get("exit_code", 0) or 0
        if code:
            out = f"Error: Exit code {code}\n{out}"
    elif tool == "edit":
        name, args = "Edit", {"file_path": action.get("path", ""), "old_string": action.get("old", ""),
                              "new_string": action.get("new", "")}
        out = f"The file {action.get('path', '')} has been updated."
    elif tool == "write":
        name, args = "Write", {"file_path": action.get("path", ""), "content": action.get("content", "")}
        out = f"File created successfully at: {action.get('path', '')}"
    else:
        name, args = "Read", {"file_path": action.get("path", "")}
        out = action.get("output", "") or "(file contents)"
    call = {"role": "assistant", "content": None, "tool_calls": [{
        "id": f"c{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}
    return call, {"role": "tool", "tool_call_id": f"c{n}", "content": out}


def write_session(path: Path, turns: list[dict]) -> Path:
    """turns: {"user", "actions", "reply"}."""
    msgs: list[dict] = []
    n = 0
    for t in turns:
        msgs.append({"role": "user", "content": t["user"]})
        for a in t.get("actions") or []:
            n += 1
            msgs.extend(_call(a, n))
        msgs.append({"role": "assistant", "content": t.get("reply") or "Done."})
    path.write_text("\n".join(json.dumps(m, ensure_ascii=False) for m in msgs) + "\n", encoding="utf-8")
    return path


# -- reading what was learned ------------------------------------------------------------------

def rules_in(home: Path) -> list[str]:
    """The rule lines of the next session's start: the memo's entries and the listed skills'
    rule lines."""
    boot = build_bootstrap("a", home=home, record_impressions=False)
    text = boot.text + "\n" + "\n".join(s.body for s in SkillLibrary("a", home=home).list()
                                        if s.name in boot.skills_shown)
    out = []
    for ln in text.splitlines():
        s = ln.strip()
        if s.startswith("- ") and re.search(r"\b(?:always|never|when|use|run|pitfall)\b", s, re.I):
            out.append(s[2:])
    return out


# a quote may open the name right after the negation or after a word or two ("never like `web204`",
# "never in `src/`"), and the name may end a longer one ("never `datetime.utcnow`" forbids utcnow)
_NEG_BEFORE = re.compile(r"(?:never|not|no|don't|do not|instead of|rather than|avoid)\s+(?:use\s+|run\s+|call\s+)?"
                         r"[`'\"(]{0,2}(?:[\w.-]+\s+){0,2}[`'\"(]{0,2}[\w.:/-]*$", re.I)


def _mentions(rule: str, lit: str) -> list[int]:
    low, lit = rule.lower(), lit.lower().strip("`")
    return [m.start() for m in re.finditer(re.escape(lit), low)] if lit else []


def recommends(rule: str, lit: str) -> bool:
    """``rule`` tells the agent to use ``lit`` (a mention not right after a negation)."""
    return any(not _NEG_BEFORE.search(rule[max(0, i - 30):i]) for i in _mentions(rule, lit))


def forbids(rule: str, lit: str) -> bool:
    return any(_NEG_BEFORE.search(rule[max(0, i - 30):i]) for i in _mentions(rule, lit))


def correct_rule(rules: list[str], use: str, avoid: str | None) -> bool:
    """A rule recommends ``use``; when it names ``avoid`` too, as what not to use ("always use
    dayjs" is a correct rule for "dayjs, not moment"; "always use moment and dayjs" is not)."""
    for r in rules:
        if recommends(r, use) and (not avoid or avoid.lower() not in r.lower() or forbids(r, avoid)):
            return True
    return False


FAILED: list[str] = []


def _reflect(home: Path):
    if ARGS is not None and ARGS.config:
        target = home / "config.toml"
        if not target.exists():
            target.write_text(Path(ARGS.config).read_text(encoding="utf-8"), encoding="utf-8")
        out = reflect_agent("a", home=home, provider="config", force=True)
    else:
        out = reflect_agent("a", home=home, provider=None, force=True)
    if out.status == "failed":  # a crash must show, never pass for "nothing learned"
        FAILED.append(out.reason)
    return out


def _ingest(home: Path, path: Path) -> None:
    cfg = load_config(home)
    with open_store(home=home) as store:
        ingest_paths([path], agent="a", store=store, cfg=cfg, weakness=default_weakness("a", home))


def _corrected_flags(home: Path) -> list[int]:
    import sqlite3

    db = sqlite3.connect(home / "slowloop.db")
    try:
        return [int(r[0]) for r in db.execute("SELECT corrected FROM turns ORDER BY idx")]
    finally:
        db.close()


def _why(home: Path) -> str:
    import sqlite3

    db = sqlite3.connect(home / "slowloop.db")
    try:
        rows = db.execute("SELECT s.why FROM signals s JOIN turns t ON t.id = s.turn_id "
                          "WHERE s.name = 'user_correction' ORDER BY t.idx DESC LIMIT 1").fetchall()
        return rows[0][0] if rows else ""
    finally:
        db.close()


# -- the corrections set -----------------------------------------------------------------------

def run_corrections(d: Path, tmp: Path, misses: bool) -> dict:
    rows = [json.loads(ln) for ln in (d / "corrections.jsonl").read_text(encoding="utf-8").splitlines()
            if ln.strip()]
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # tp fp fn tn
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # caught, total (corrections)
    learned = standing = junk = detected = visible = proposed = 0
    junk_rules: list[str] = []
    miss_lines: list[str] = []
    for k, row in enumerate(rows):
        home = tmp / f"c{k}"
        home.mkdir()
        path = write_session(tmp / f"c{k}.jsonl", [
            {"user": row.get("task") or "go ahead", "actions": row.get("before") or [], "reply": "Done."},
            {"user": row["text"], "actions": row.get("after") or [], "reply": "Done."}])
        _ingest(home, path)
        flags = _corrected_flags(home)
        got = bool(flags[-1]) if flags else False
        gold = bool(row["label"])
        s = stats[row["lang"]]
        s[0 if got and gold else 1 if got else 2 if gold else 3] += 1
        if gold:
            kinds[row.get("kind", "?")][0] += got
            kinds[row.get("kind", "?")][1] += 1
        if got != gold:
            miss_lines.append(f"  {'FN' if gold else 'FP'} [{row['lang']} {row.get('kind')}] {row['text'][:110]}"
                              + (f"\n       ← {_why(home)[:120]}" if got else ""))
        out = _reflect(home)
        rules = rules_in(home)
        rule = row.get("rule")
        if ARGS is not None and ARGS.dump:
            with open(ARGS.dump, "a", encoding="utf-8") as f:
                f.write(json.dumps({"id": row["id"], "detected": got, "rules": rules,
                                    "held": [str(h) for h in out.held], "notes": list(out.notes),
                                    "learned": bool(gold and row.get("standing") and rule
                                                    and correct_rule(rules, rule["use"], rule.get("avoid")))},
                                   ensure_ascii=False) + "\n")
        if got:  # a detected correction is learned, or waits visibly for the person, or is said to be a one-off
            detected += 1
            visible += bool(out.applied or out.held or any("no rule kept" in n for n in out.notes))
        if gold and row.get("standing") and rule:
            standing += 1
            if correct_rule(rules, rule["use"], rule.get("avoid")):
                learned += 1
                junk_rules += [f"  [{row['id']}] {r}" for r in rules if not recommends(r, rule["use"])]
                junk += sum(1 for r in rules if not recommends(r, rule["use"]))
            else:
                # not in the memo, but waiting in `slowloop review` with a wording that already names
                # the right way: one accept away (the person still decides)
                proposed += any(correct_rule([str((h.get("action") or {}).get("text", ""))], rule["use"], rule.get("avoid"))
                                for h in out.held if isinstance(h, dict))
                miss_lines.append(f"  NOT LEARNED [{row['lang']} {row.get('kind')}] {row['text'][:90]}"
                                  f" → {rules[:2]}")
                junk += len(rules)
                junk_rules += [f"  [{row['id']}] {r}" for r in rules]
        else:
            junk += len(rules)
            junk_rules += [f"  [{row['id']}] {r}   ← from: {row['text'][:70]}" for r in rules]
    print("corrections with context — detection (is the person's message recorded as a correction)")
    print("  group     n      P      R")
    tot = [0, 0, 0, 0]
    for lang in sorted(stats):
        tp, fp, fn, tn = stats[lang]
        tot = [a + b for a, b in zip(tot, stats[lang], strict=True)]
        print(f"  {lang:6} {tp + fp + fn + tn:4}  {tp / max(1, tp + fp):.3f}  {tp / max(1, tp + fn):.3f}"
              f"   tp={tp} fp={fp} fn={fn} tn={tn}")
    tp, fp, fn, tn = tot
    print(f"  ALL    {sum(tot):4}  {tp / max(1, tp + fp):.3f}  {tp / max(1, tp + fn):.3f}"
          f"   tp={tp} fp={fp} fn={fn} tn={tn}")
    print("  recall by kind: " + "  ".join(f"{k} {a}/{b}" for k, (a, b) in sorted(kinds.items())))
    print(f"  standing lessons learned as a correct rule: {learned}/{standing}")
    print(f"  … not learned, but waiting in review worded with the right way (one accept away): {proposed}/{standing}")
    print(f"  detected corrections learned, waiting in review, or said to be a one-off: {visible}/{detected}")
    print(f"  junk rules (a rule where none should be, or one that says something else): {junk}")
    if misses:
        print("\n".join(miss_lines))
        print("  junk:\n" + "\n".join(junk_rules))
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "learned": learned, "standing": standing, "junk": junk}


# -- the scenarios set -------------------------------------------------------------------------

def run_scenarios(d: Path, tmp: Path, misses: bool) -> dict:
    rows = [json.loads(ln) for ln in (d / "scenarios.jsonl").read_text(encoding="utf-8").splitlines()
            if ln.strip()]
    reached = teach = junk = stale = stale_n = nothing_ok = nothing_n = 0
    fam: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    lines: list[str] = []
    for k, sc in enumerate(rows):
        home = tmp / f"s{k}"
        home.mkdir()
        for j, sess in enumerate(sc["sessions"]):
            _ingest(home, write_session(tmp / f"s{k}-{j}.jsonl", sess["turns"]))
            _reflect(home)
        rules = rules_in(home)
        exp = sc.get("expect") or {}
        ok = True
        bad: list[str] = []
        for want in exp.get("rules") or []:
            teach += 1
            hit = correct_rule(rules, want["use"], want.get("avoid"))
            reached += hit
            ok &= hit
            if not hit:
                bad.append(f"missing rule: use {want['use']!r} avoid {want.get('avoid')!r}")
        wanted = [w["use"] for w in exp.get("rules") or []]
        for old in exp.get("stale") or []:
            stale_n += 1
            if any(recommends(r, old) and not any(recommends(r, w) for w in wanted) for r in rules):
                stale += 1
                ok = False
                bad.append(f"stale: still recommends {old!r}")
        for r in rules:
            if any(lit.lower() in r.lower() for lit in exp.get("must_not_mention") or []):
                junk += 1
                ok = False
                bad.append(f"junk (mentions a forbidden literal): {r}")
            elif wanted and not any(recommends(r, w) or w.lower() in r.lower() for w in wanted):
                junk += 1
                ok = False
                bad.append(f"junk (says something else): {r}")
        if exp.get("nothing"):
            nothing_n += 1
            if rules:
                ok = False
                junk += 0 if any("junk" in b for b in bad) else len(rules)
                bad.append(f"should teach nothing, has: {rules}")
            else:
                nothing_ok += 1
        fam[sc.get("family", "?")][0] += ok
        fam[sc.get("family", "?")][1] += 1
        if not ok:
            lines.append(f"  !! {sc['id']} ({sc.get('family')}): " + "; ".join(bad)[:400])
    print("multi-session scenarios — the next session's start")
    print(f"  expected lessons reached as a correct rule: {reached}/{teach}")
    print(f"  stale rules kept (changes of mind): {stale}/{stale_n}")
    print(f"  junk rules: {junk}    scenarios that must teach nothing and did not: {nothing_ok}/{nothing_n}")
    print("  scenarios right, by family: " + "  ".join(f"{k} {a}/{b}" for k, (a, b) in sorted(fam.items())))
    if misses:
        print("\n".join(lines))
    return {"reached": reached, "teach": teach, "stale": stale, "junk": junk}


def main() -> int:
    assert ARGS is not None
    d = Path(ARGS.dir)
    import slowloop
    print(f"code measured: {Path(slowloop.__file__).parent}")
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        if ARGS.set in ("corrections", "both"):
            (tmp / "c").mkdir()
            run_corrections(d, tmp / "c", ARGS.misses)
        if ARGS.set in ("scenarios", "both"):
            (tmp / "s").mkdir()
            run_scenarios(d, tmp / "s", ARGS.misses)
    if FAILED:
        print(f"!! {len(FAILED)} reflection(s) FAILED, first: {FAILED[0]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
