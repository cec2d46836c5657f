""""Ask me before X" after the agent did X: a rule that waits for the person's go-ahead — never
"always use X" (the words name X, but to be asked about)."""

from __future__ import annotations

import pytest

from slowloop.observe.lessons import read_lesson, standing_statement
from slowloop.observe.observe import observe_turn
from slowloop.reflect.distill import TurnEvidence, rules_from_correction
from slowloop.transcripts.model import Step, ToolCall, ToolResult, Turn


def _t(index: int, user: str, cmd: str | None) -> Turn:
    steps = (Step("tool_call", call=ToolCall(f"c{index}", "Bash", {"command": cmd})),
             Step("tool_result", result=ToolResult(f"c{index}", "Bash", "ok"))) if cmd else ()
    return Turn(source="t", format="claude-code", index=index, user_text=user, session_id="s",
                steps=steps + (Step("text", text="Done."),))


def _rules(prev: Turn, turn: Turn) -> list[str]:
    obs = observe_turn(turn, prev)
    assert obs.corrected, turn.user_text
    ev = TurnEvidence(turn.index, turn, True, f"the user corrected the agent ('{obs.correction.evidence}')", prev,
                      (), False)
    return [r.text for r in rules_from_correction(ev)]


@pytest.mark.parametrize(("cmd", "said", "thing"), [
    ("sudo rm -rf /var/log/app", "la prossima volta chiedimi prima di usare sudo rm", "sudo"),
    ("psql -c 'TRUNCATE orders'", "frag mich vor jedem TRUNCATE, das war meine Testdatenbank", "TRUNCATE"),
    ("dropdb app", "antes de dropdb, sempre me pergunte", "dropdb"),
])
def test_ask_me_before_the_thing_asks_first_and_never_recommends_it(cmd, said, thing):
    rules = _rules(_t(0, "clean up", cmd), _t(1, said, None))
    assert rules and all("always use" not in r for r in rules), rules
    assert any("ask the person before" in r and thing in r for r in rules), rules


@pytest.mark.parametrize(("cmd", "said", "shown"), [
    ("git push origin --delete old", "删远程分支之前先问我", "git push --delete"),
    ("npm run migrate -- --env shared", "antes de rodar migração no banco compartilhado, me mostra o SQL gerado",
     "npm run"),
])
def test_ask_first_naming_no_word_of_the_one_command_keeps_that_command(cmd, said, shown):
    rules = _rules(_t(0, "go on", cmd), _t(1, said, None))
    assert any(f"ask the person before `{shown}" in r for r in rules), rules


def test_the_named_thing_is_no_choice_when_asked_about():
    assert read_lesson("chiedimi prima di usare sudo rm").kind == "none"
    assert standing_statement("la prossima volta chiedimi prima di usare sudo rm") is None
    # a real choice in the same message is still read
    assert read_lesson("use pnpm, not npm").x == "pnpm"


def test_something_that_happened_by_itself_asks_nothing_of_the_agent():
    """"Xcode が勝手に 16 に上がった" (Xcode went up *by itself*): no rule to ask before `xcodebuild`."""
    prev = _t(0, "fix the CI", "xcodebuild -scheme App test")
    turn = _t(1, "CI の Mac ランナーの Xcode が勝手に 16 に上がったせいですね", None)
    obs = observe_turn(turn, prev)
    ev = TurnEvidence(1, turn, obs.corrected, f"the user corrected the agent ('{obs.correction.evidence}')", prev, (), False)
    assert not any("ask the person before" in r.text for r in rules_from_correction(ev))
