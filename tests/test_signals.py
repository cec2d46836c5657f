"""Scoring: the five signals, their weights, the threshold, and the transient exemption."""

from __future__ import annotations

from slowloop.config import load_config
from slowloop.observe.observe import observe_and_score, observe_turn
from slowloop.transcripts.model import Step, ToolCall, ToolResult, Turn


def _turn(user: str, results: list[tuple[str, str, bool | None]], *, skills=(), aborted=False,
          extra_calls: int = 0) -> Turn:
    steps = []
    for i, (name, output, is_error) in enumerate(results):
        steps.append(Step("tool_call", call=ToolCall(f"c{i}", name, {"command": f"cmd {i}"})))
        steps.append(Step("tool_result", result=ToolResult(f"c{i}", name, output, is_error=is_error)))
    for j in range(extra_calls):
        steps.append(Step("tool_call", call=ToolCall(f"x{j}", "Read", {"file_path": f"/f{j}"})))
        steps.append(Step("tool_result", result=ToolResult(f"x{j}", "Read", "ok", is_error=False)))
    steps.append(Step("text", text="done"))
    return Turn(source="t.jsonl", format="claude-code", index=1, user_text=user, steps=tuple(steps),
                skills_read=tuple(skills), aborted=aborted)


def names(ot) -> list[str]:
    return [s.name for s in ot.score.signals]


def test_correction_plus_complexity_reflects_complexity_alone_passes():
    cfg = load_config()
    corrected = observe_and_score(_turn("No, that's wrong: use pnpm instead of npm.", [], extra_calls=11), cfg)
    assert names(corrected) == ["user_correction", "complex_task"]
    assert corrected.score.score == 1.4 and corrected.score.reflect
    busy = observe_and_score(_turn("Rename the cart constants.", [], extra_calls=11), cfg)
    assert names(busy) == ["complex_task"] and busy.score.score == 0.5 and not busy.score.reflect


def test_recovered_real_error_fires_error_recovery():
    cfg = load_config()
    ot = observe_and_score(_turn("Run the tests.", [
        ("Bash", "/bin/sh: 1: python: not found\nExit code 127", True),
        ("Bash", "40 passed in 2.31s", False)]), cfg)
    assert names(ot) == ["error_recovery"]
    assert ot.observation.recovered and not ot.observation.ended_in_real_error
    assert ot.score.reflect


def test_transient_errors_never_count():
    cfg = load_config()
    ot = observe_and_score(_turn("Check the health endpoint.", [
        ("Bash", "curl: (28) Connection timed out after 10001 milliseconds", True),
        ("Bash", '{"status":"ok"}', False)], skills=("health-checks",)), cfg,
        weakness=lambda task: "Pitfall: when checking endpoints, the agent forgets TLS")
    assert [e.kind for e in ot.observation.errors] == ["transient"]
    assert ot.score.signals == () and not ot.score.reflect


def test_skill_loaded_and_turn_ended_in_real_error_is_ineffective():
    cfg = load_config()
    ot = observe_and_score(_turn("Deploy the site.", [
        ("Bash", "Error: 401 Unauthorized: bad credentials\nExit code 1", True)],
        skills=("deploy-site",)), cfg)
    assert "skill_ineffective" in names(ot)
    assert ot.observation.ended_in_real_error


def test_known_weakness_seam_with_a_memo_fixture(tmp_path, slowloop_home):
    from slowloop.memo import Memo, weakness_matcher

    Memo("default").add("strengths", "Pitfall: when writing SQL migrations, always add a down migration.")
    matcher = weakness_matcher("default")
    cfg = load_config()
    hit = observe_and_score(_turn("Write the SQL migration for the orders table.", []), cfg, weakness=matcher)
    assert names(hit) == ["known_weakness"] and hit.score.score == 0.7 and hit.score.reflect
    miss = observe_and_score(_turn("Draw a picture of a cat.", []), cfg, weakness=matcher)
    assert names(miss) == []


def test_weights_threshold_and_count_are_configuration(monkeypatch):
    monkeypatch.setenv("SLOWLOOP_SIGNALS__THRESHOLD", "1.5")
    monkeypatch.setenv("SLOWLOOP_SIGNALS__COMPLEX_TASK_TOOL_CALLS", "3")
    monkeypatch.setenv("SLOWLOOP_SIGNALS__USER_CORRECTION", "1.2")
    cfg = load_config()
    ot = observe_and_score(_turn("No, that's wrong — use tabs.", [], extra_calls=4), cfg)
    assert names(ot) == ["user_correction", "complex_task"]
    assert ot.score.score == 1.7 and ot.score.threshold == 1.5 and ot.score.reflect


def test_rejected_tool_use_with_a_reason_is_a_correction():
    steps = (
        Step("tool_call", call=ToolCall("c1", "Edit", {"file_path": "db.py"})),
        Step("tool_result", result=ToolResult(
            "c1", "Edit", "The user doesn't want to proceed with this tool use. The tool use was "
            "rejected. To tell you how to proceed, the user said: no, don't add pooling, use "
            "parameterized queries instead", is_error=True, rejected=True)),
    )
    turn = Turn(source="t", format="claude-code", index=0, user_text="Refactor the db module",
                steps=steps)
    obs = observe_turn(turn)
    assert obs.rejected == 1
    assert obs.corrected
    assert obs.errors == ()  # a refusal is not an error
