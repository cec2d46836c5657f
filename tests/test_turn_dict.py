"""Turn.to_dict copies each frozen dataclass's __dict__: it must hold exactly the fields."""

from __future__ import annotations

from dataclasses import fields

from slowloop.transcripts.model import Step, ToolCall, ToolResult, Turn


def test_the_instance_dict_of_each_serialised_dataclass_is_exactly_its_fields():
    result = ToolResult("c1", "Bash", "out", is_error=True, exit_code=2)
    call = ToolCall("c1", "Bash", {"command": "ls"})
    steps = (Step("tool_call", call=call), Step("tool_result", result=result), Step("text", text="hi"))
    turn = Turn(source="s", format="claude-code", index=0, user_text="u", steps=steps)
    for obj in (result, call, *steps, turn):
        assert list(obj.__dict__) == [f.name for f in fields(obj)], type(obj).__name__


def test_to_dict_has_every_field_and_round_trips():
    result = ToolResult("c1", "Bash", "out", is_error=True, exit_code=2)
    steps = (Step("tool_call", call=ToolCall("c1", "Bash", {"b": 1, "a": [1]})), Step("tool_result", result=result))
    turn = Turn(source="s", format="claude-code", index=3, user_text="u", steps=steps, person=False)
    d = turn.to_dict()
    assert set(d) == {f.name for f in fields(Turn)}
    assert d["steps"][1]["result"] == {f.name: getattr(result, f.name) for f in fields(ToolResult)}
    assert set(d["steps"][0]) == {f.name for f in fields(Step)}
    assert Turn.from_dict(d) == turn
    assert Turn(source="s", format="x", index=0, user_text="u").to_dict().get("person", "absent") == "absent"
