"""The offline distiller's rules, one kind of evidence at a time."""

from __future__ import annotations

from slowloop.reflect.distill import TurnEvidence, distill, rules_from_correction
from slowloop.safety.lint import lint_line
from slowloop.transcripts.model import Turn


def _ev(text: str, turn_id: int = 7) -> TurnEvidence:
    turn = Turn(source="<memory>", format="openai", index=1, user_text=text)
    return TurnEvidence(turn_id=turn_id, turn=turn, corrected=True, correction_evidence="cue",
                        previous=None, real_errors=(), transient_only=False)


def test_a_requirement_stated_as_the_fix_becomes_a_rule():
    rules = rules_from_correction(_ev("No, that's wrong: the dates must be in UTC"))
    assert [r.text for r in rules] == [
        "When working in this project, always make sure the dates are in UTC."]
    assert lint_line(rules[0].text).actionable


def test_use_instead_in_several_languages():
    for text in ("No, use pnpm instead of npm", "Non usare npm, usa pnpm", "不要用npm，用pnpm",
                 "npmではなくpnpmを使って", "verwende pnpm statt npm", "usa pnpm en lugar de npm"):
        rules = rules_from_correction(_ev(text))
        assert [r.text for r in rules] == [
            "When installing packages in this project, always use pnpm, never npm."], text


def test_a_correction_without_a_stated_fix_gives_nothing_and_says_so():
    out = distill([_ev("No, that's not what I asked for.")], memo={}, skills={})
    assert [a.type for a in out.actions] == ["nothing"]
    assert any("no rule kept" in n and "about this task only" in n for n in out.notes)
