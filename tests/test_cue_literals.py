"""The literal prefilter of the correction cues: current, sound, and without effect on any verdict."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from slowloop.observe import corrections as c
from slowloop.observe.literals import GENERATED, minimal, render, required, trie_pattern

DATA = Path(__file__).parent / "data"


def test_the_generated_table_is_made_from_the_cues_as_they_are():
    # After editing a cue: python -m slowloop.observe.literals
    assert GENERATED.read_text(encoding="utf-8") == render(c.cue_patterns()), \
        "stale: run python -m slowloop.observe.literals"
    assert c._LITERALS, "corrections.py did not accept the table"


@pytest.mark.parametrize(("pattern", "text", "matches"), [
    (r"^no\b", "now run it", False),
    (r"^no\b", "ok.\nno, use pnpm", True),
    (r"\bdon'?t (?!forget)\w+", "please dont touch", True),
    (r"\bdon'?t (?!forget)\w+", "do not touch", False),
    (r"(?:^|,\s*)deine[rs]? (?:löscht|bricht)", "gut, deiner bricht", True),
    (r"x\n^b", "x\nb", True),  # ^ right after a consumed newline
    (r"a$\nb", "a\nb", True),  # $ right before a consumed newline
    (r"\byou \w+ed\b.{0,60}\bagain\b", "you reverted it again", True),
    (r"(?:ab)+c|d{2,}", "xxdd", True),
])
def test_a_text_that_matches_holds_one_of_the_literals(pattern: str, text: str, matches: bool):
    lits = required(pattern)
    assert lits is not None
    padded = f"\n{text}\n"
    assert bool(re.search(pattern, text, re.MULTILINE)) is matches
    if matches:
        assert any(x in padded for x in lits), (pattern, sorted(lits))
    rx = re.compile(trie_pattern(minimal(lits)))
    assert bool(rx.search(padded)) is any(x in padded for x in lits)


def test_no_literal_is_claimed_for_patterns_that_need_none():
    assert required(r"\w+") is None
    assert required(r"(?:a|\d)") is None
    assert required(r"(?i)abc") is None


def _messages() -> list[str]:
    out = []
    for path in sorted(DATA.glob("blind*/corrections.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(json.loads(line)["text"])
    return out


def test_every_cue_match_in_the_blind_sets_holds_one_of_its_literals():
    checked = 0
    for text in _messages():
        low = "\n".join(c._sentences(c._clean(text))).lower()
        padded = f"\n{low}\n"
        for name, table in (("cues", c._CUES), ("forms", c._FORMS), ("work", c._WORK)):
            for lang, cues in table.items():
                quick, per_cue = c._LITERALS[name][lang]
                for cue, lits in zip(cues, per_cue, strict=True):
                    if cue.rx_low.search(low):
                        checked += 1
                        assert lits is None or any(x in padded for x in lits), (cue.pattern, text)
                        assert quick is None or re.search(quick, padded), (name, lang, text)
    assert checked > 300


def test_the_prefilter_gives_the_alternations_answer():
    for text in _messages():
        low = "\n".join(c._sentences(c._clean(text))).lower()
        padded = f"\n{low}\n"
        for admits, alternation, table in ((c._ADMITS_CUE, c._ANY_LOW, c._CUES),
                                           (c._ADMITS_FORM, c._ANY_FORM_LOW, c._FORMS),
                                           (c._ADMITS_WORK, c._ANY_WORK_LOW, c._WORK)):
            for lang in table:
                assert admits(lang, low, padded) is (alternation[lang].search(low) is not None), (lang, text)


def test_a_trie_finds_exactly_the_texts_holding_one_of_its_strings():
    import random

    words = ["a.b", "(x)", "\\z", "q?", "\nno", "a b", "#c", "[d]", "{2}", "^s", "$e", "p|q", "*+", "-x",
             "é", "\U0001f644", "no", "nope", "abc"]
    rx = re.compile(trie_pattern(words))
    rnd = random.Random(3)
    alphabet = "ab .()\\zq?\n#c[d]{2}^s$ep|*+-xéo\U0001f644n"
    for _ in range(3000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 12)))
        assert bool(rx.search(text)) is any(w in text for w in words), repr(text)


def test_a_stale_table_is_ignored_and_the_alternations_answer_instead(monkeypatch):
    from slowloop.observe import _cue_literals

    monkeypatch.setattr(_cue_literals, "SOURCE", "stale")
    assert c._load_literals() == {}
    monkeypatch.setattr(c, "_LITERALS", {})
    admits = c._Admits("cues", c._CUES, c._ANY_LOW)
    for text in ("no, use pnpm", "now run the tests", "that's wrong", "perfect, thanks"):
        low = text.lower()
        assert admits("en", low, f"\n{low}\n") is (c._ANY_LOW["en"].search(low) is not None)
