"""The offline distiller's rules, one kind of evidence at a time."""

from __future__ import annotations

import pytest

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


def test_a_correction_without_a_stated_fix_is_never_lost_a_wording_waits_for_the_person():
    out = distill([_ev("No, that's not what I asked for.")], memo={}, skills={})
    assert [a.type for a in out.actions] == ["nothing"]  # nothing applied: no guessed rule
    [(action, reason)] = out.unlearned  # but visibly pending, with a wording to accept or edit
    assert action.type == "update_memo" and action.op == "add" and action.section == "plays"
    assert "not what I asked for" in action.text and action.text.startswith("When ")
    assert "unlearned correction" in reason and "about this task only" in reason
    assert any("waits for the person" in n for n in out.notes)


# Corrections from the blind sets (written by others, never tuned on for the distiller): the rule
# each one gives, or none — a rule must name something, never "always use another".
@pytest.mark.parametrize("said, rule", [
    ("wrong file — the config lives in settings/prod.py, not settings/base.py",
     "When working on the config in this project, always use settings/prod.py, never settings/base.py."),
    ("invece di requests dovevi usare httpx come nel resto del progetto",
     "When making HTTP requests in this project, always use httpx, never requests."),
    ("Ancora con le print? Ti ho detto di usare il logger.",
     "When logging in this project, always use logger, never print."),
    ("Na verdade a gente usa yarn aqui, não npm. Refaz por favor.",
     "When installing packages in this project, always use yarn, never npm."),
    ("The column is called created_at, not createdAt. Fix the query.",
     "When working in this project, always use created_at, never createdAt."),
    ("usaste la rama equivocada, te dije main", "When using git in this repository, always use main."),
    ("不对，应该用 POST，不是 GET", "When working in this project, always use POST, never GET."),
    ("You should have asked before force-pushing. Never do that on a shared branch.",
     'When using git in this repository, always do as the user said: "You should have asked before '
     'force-pushing. Never do that on a shared branch."'),
])
def test_corrections_written_by_others_give_the_rule_they_state(said, rule):
    assert [r.text for r in rules_from_correction(_ev(said))] == [rule]


@pytest.mark.parametrize("said", [
    "that's not what I asked. I wanted the function renamed, not moved to another module.",
    "You were supposed to write the tests first, not after the implementation.",
    "Wait, why are you using match statements? We're pinned to Python 3.9.",
    "Just curious, why did you pick a dict instead of a list here?",
    "違います、そうじゃないです",
    "すみません、説明が足りなかったかもしれませんが、ステージングではなく開発環境の方です。",
    "ça ne marche toujours pas, même erreur",
    "geht immer noch nicht, gleicher Fehler",
    "应该是周五之前上线，你先把迁移脚本写好吧。",
    "Creo que me expliqué mal: necesito el total con IVA, no sin IVA.",
])
def test_what_names_nothing_to_use_is_no_rule(said):
    assert rules_from_correction(_ev(said)) == []


@pytest.mark.parametrize("said, use, avoid", [
    ("not master — main", "main", "master"), ("No! yarn. Not npm.", "yarn", "npm"),
    ("stick to httpx please, not requests", "httpx", "requests"),
    ("Wrong tool: it's pnpm in this repo.", "pnpm", ""),
    ("Never use npm in this repo, always pnpm.", "pnpm", "npm"),
    ("Ugh, requests again. httpx!", "httpx", "requests"),
    ("Could you use httpx instead of requests?", "httpx", "requests"),
    ("Why did you use npm? This repo uses yarn.", "yarn", "npm"),
    ("We switched from yarn to pnpm last month.", "pnpm", "yarn"),
])
def test_more_ways_people_name_the_choice(said, use, avoid):
    [rule] = rules_from_correction(_ev(said))
    assert (rule.use, rule.avoid) == (use, avoid), rule.text
    assert rule.text.endswith(f"always use {use}, never {avoid}." if avoid else f"always use {use}.")


def _memo_after(*said: str) -> list[str]:
    plays: list[str] = []
    for i, text in enumerate(said):
        out = distill([_ev(text, turn_id=i + 1)], memo={"plays": plays, "strengths": []}, skills={})
        for a in out.actions:
            if a.type == "update_memo" and a.section == "plays":
                if a.op == "add":
                    plays.append(a.text)
                elif a.op == "replace":
                    plays[plays.index(a.match)] = a.text
                elif a.op == "remove":
                    plays.remove(a.match)
    return plays


def test_a_new_value_for_the_same_requirement_replaces_the_old_one():
    assert _memo_after("No, the page size must be 20, not 10.", "No, the page size must be 50, not 20.") == [
        "When working in this project, always make sure the page size is 50, not 20."]
    assert _memo_after("No, the page size must be 50.", "Again: the page size must be 50.") == [
        "When working in this project, always make sure the page size is 50. (corrected 2 times)"]


def test_always_then_never_the_same_action_keeps_only_the_newer():
    assert _memo_after("No. Always run the linter before committing.",
                       "No. Never run the linter before committing, CI does it.") == [
        "When formatting or linting code, never run the linter before committing, CI does it."]


def test_a_grown_turn_read_again_is_no_repeat():
    known = "When installing packages in this project, always use pnpm, never npm."
    ev = _ev("No, use pnpm instead of npm")
    grown = TurnEvidence(turn_id=ev.turn_id, turn=ev.turn, corrected=True, correction_evidence="cue",
                         previous=None, real_errors=(), transient_only=False, grown=True)
    out = distill([grown], memo={"plays": [known], "strengths": []}, skills={})
    assert [a.type for a in out.actions] == ["nothing"] and any("already known" in n for n in out.notes)
    # the same correction in a new turn beside it counts once more, not twice
    out = distill([grown, _ev("again: pnpm, not npm", turn_id=9)], memo={"plays": [known], "strengths": []},
                  skills={})
    assert [a.text for a in out.actions if a.section == "plays"] == [known + " (corrected 2 times)"]


def test_choices_in_two_ecosystems_are_two_rules_not_a_change_of_mind():
    assert _memo_after("No, use pnpm instead of npm", "No, use uv instead of pip") == [
        "When installing packages in this project, always use pnpm, never npm.",
        "When installing packages in this project, always use uv, never pip."]


def test_two_lines_about_the_same_choice_after_a_merge_become_one():
    # a sync merged a repeat on one machine with a change of mind on the other
    plays = ["When installing packages in this project, always use pnpm, never npm.",
             "When installing packages in this project, always use pnpm, never npm. (corrected 2 times)",
             "When installing packages in this project, always use bun."]
    out = distill([_ev("again: pnpm, not npm")], memo={"plays": plays, "strengths": []}, skills={})
    for a in out.actions:
        if a.section == "plays" and a.op == "remove":
            [hit] = [p for p in plays if a.match in p]  # every match names one entry
            plays.remove(hit)
        elif a.section == "plays" and a.op == "replace":
            [hit] = [p for p in plays if a.match in p]
            plays[plays.index(hit)] = a.text
    assert plays == ["When installing packages in this project, always use pnpm, never npm. (corrected 3 times)"]


@pytest.mark.parametrize("first, then, rule", [
    ("No, use staging, not prod.", "From now on use the sandbox, not staging.",
     "When choosing an environment in this project, always use sandbox, never staging."),
    ("No, we use YAML here, not JSON.", "We switched to TOML, use it from now on.",
     "When writing data files in this project, always use TOML."),
])
def test_another_environment_or_format_is_a_change_of_mind(first, then, rule):
    assert _memo_after(first, then) == [rule]


def test_words_an_agent_reported_as_the_users_teach_nothing():
    turn = Turn(source="<mcp>", format="openai", index=1, user_text="No, use pnpm instead of npm", person=False)
    ev = TurnEvidence(turn_id=3, turn=turn, corrected=True, correction_evidence="cue", previous=None,
                      real_errors=(), transient_only=False)
    out = distill([ev], memo={}, skills={})
    assert [a.type for a in out.actions] == ["nothing"]
    assert any("reported by an agent" in n for n in out.notes)
