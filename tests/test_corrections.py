"""Multilingual correction detection: measured on labelled user messages, hard negatives included."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from slowloop.observe.corrections import LANGUAGES, detect_correction

DATA = Path(__file__).parent / "data" / "corrections.jsonl"


def _rows() -> list[dict]:
    with DATA.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_labelled_set_covers_eight_languages_and_both_classes():
    rows = _rows()
    assert len(rows) >= 240
    per = Counter(r["lang"] for r in rows)
    assert set(per) == set(LANGUAGES) and min(per.values()) >= 20, per
    positives = sum(1 for r in rows if r["corrected"])
    assert 0.4 <= positives / len(rows) <= 0.6


def test_precision_and_recall_floors_overall_and_per_language():
    counts: dict[str, Counter] = defaultdict(Counter)
    for row in _rows():
        got = detect_correction(row["text"]).corrected
        key = ("tp" if row["corrected"] else "fp") if got else ("fn" if row["corrected"] else "tn")
        counts[row["lang"]][key] += 1
        counts["ALL"][key] += 1
    total = counts["ALL"]
    assert total["tp"] / (total["tp"] + total["fp"]) >= 0.9, total
    assert total["tp"] / (total["tp"] + total["fn"]) >= 0.85, total
    for lang in LANGUAGES:
        c = counts[lang]
        assert c["tp"] / (c["tp"] + c["fn"]) >= 0.7, (lang, c)


def test_every_hard_negative_is_left_alone():
    wrong = [(r["text"], detect_correction(r["text"]).evidence)
             for r in _rows() if r.get("tag") == "hard" and detect_correction(r["text"]).corrected]
    assert wrong == []


@pytest.mark.parametrize("text", [
    "actually, that works now, thanks", "re-run the benchmarks", "re-run the tests",
    "actually can you also add a README?", "no worries", "no problem", "thanks, that's right",
    "The error says `KeyError: 'id'` when I open the page",
    "What does 'wrong number of arguments' mean?", "重新运行测试",
    # Decision (see the module docstring): "instead" inside a request is not a correction.
    "use a list instead of a dict for the output format",
])
def test_briefs_hard_negatives(text: str):
    assert not detect_correction(text).corrected


@pytest.mark.parametrize("text,lang", [
    ("no, use pnpm not npm", "en"), ("that's wrong", "en"), ("I said X, not Y", "en"),
    ("don't add type hints everywhere", "en"), ("Instead of mocking it, use the real DB.", "en"),
    ("不对，应该是 UTC", "zh"), ("不是 npm，而是 pnpm", "zh"), ("重新写这个函数", "zh"),
    ("non è corretto, la porta è 8080", "it"), ("não, use o pnpm", "pt"),
    ("c'est faux, le port est 8080", "fr"), ("eso no es lo que pedí", "es"),
    ("nein, das ist falsch", "de"), ("違います、ポートは 8080 です", "ja"),
    ("そうじゃなくて、降順です", "ja"),
])
def test_briefs_positive_cues(text: str, lang: str):
    got = detect_correction(text)
    assert got.corrected and got.evidence
    assert got.language == lang


def test_pasted_code_and_quotes_are_not_the_users_voice():
    pasted = "Here is the log:\n```\nERROR: wrong password for user bob\nthat's wrong\n```\nAdd a retry."
    assert not detect_correction(pasted).corrected
    quoted = "> No, that's wrong, it returns cents\nA reviewer wrote this on the PR; please address it."
    assert not detect_correction(quoted).corrected
    after_log = "```\nFAILED tests/test_a.py::test_x\n```\nNo, you only fixed half of it."
    assert detect_correction(after_log).corrected


def test_long_message_is_read_at_its_start_and_end():
    middle = "\n".join(f"line {i}: everything is wrong in this log" for i in range(2000))
    quiet = "worker started\n" * 60
    text = "Please summarise the log below.\n" + quiet + middle + "\n" + quiet + "Thanks."
    assert not detect_correction(text).corrected  # the middle of a pasted log is not read
    text = "No, that's not what I asked.\n" + "The build prints many lines here. " * 500
    assert detect_correction(text).corrected


def test_the_user_owning_a_mistake_is_not_a_correction():
    assert not detect_correction("Sorry, I gave you the wrong path — it's /srv/app.").corrected


def test_empty_message():
    got = detect_correction("   ")
    assert not got.corrected and got.evidence is None


def test_cue_patterns_hold_no_uppercase_letter_so_the_lowercase_prefilter_never_misses():
    # detect_correction scans the lowercased message with the cues compiled without IGNORECASE
    # (cheaper); an uppercase letter in a cue would make that scan miss a message it should see.
    import re

    from slowloop.observe import corrections as c

    for lang, rx in list(c._ANY.items()) + list(c._ANY_FORM.items()):
        bare = re.sub(r"\\[A-Za-z]|A-Z|\\u[0-9a-fA-F]{4}", "", rx.pattern)
        assert not re.findall(r"[A-Z]", bare), (lang, sorted(set(re.findall(r"[A-Z]", bare))))


def test_the_forms_that_state_a_lesson_are_corrections_and_their_look_alikes_are_not():
    for text in ("again: httpx, not requests", "requests again?? we use httpx", "We moved to pnpm, use it from now on.",
                 "Il branch è main, non master.", "Désormais, utilise ruff au lieu de flake8.",
                 "Nein, nicht requests, wir nutzen httpx", "不要用requests，我们用httpx", "printはやめて、loggingを使って"):
        assert detect_correction(text).corrected, text
    for text in ("Again, thanks for the quick fix.", "We moved the meeting to Thursday, can you update the agenda?",
                 "Perfect, no changes needed.", "¿Puedes intentarlo otra vez? La red estaba inestable.",
                 "No está mal, maneja también el caso del timeout.", "Ab jetzt arbeiten wir an der Login-Seite.",
                 "il server di CI va in timeout da stamattina, non è colpa tua, riprova"):
        assert not detect_correction(text).corrected, text
