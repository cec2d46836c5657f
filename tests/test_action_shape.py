"""The JSON schema the model is given and the checks its answer meets are one definition.

Both come from ``reflect.actions.Action`` (its fields and their specs) and ``RULES`` (what each
type needs); these tests hold them to each other, from the schema's side.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest

from slowloop.reflect.actions import (
    ACTION_TYPES,
    ACTIONS_SCHEMA,
    MAX_REASON_CHARS,
    RULES,
    Action,
    parse_output,
)

ITEM = ACTIONS_SCHEMA["properties"]["actions"]["items"]
PROPS: dict[str, Any] = ITEM["properties"]
# What llama.cpp's server turns into a grammar (response_format json_object + schema).
LLAMA_KEYWORDS = {"type", "properties", "required", "enum", "items", "maxItems"}


def _keywords(node: dict[str, Any]) -> set[str]:
    """Every schema keyword used anywhere under ``node`` (property names are not keywords)."""
    out = set(node)
    for k, v in node.items():
        for sub in (v.values() if k == "properties" else [v] if isinstance(v, dict) else []):
            out |= _keywords(sub)
    return out


def _example(kind: str) -> dict[str, Any]:
    """An item with every property the schema lists, filled from the schema alone."""
    item: dict[str, Any] = {}
    for key, prop in PROPS.items():
        if key == "type":
            item[key] = kind
        elif "enum" in prop:
            item[key] = prop["enum"][0]
        elif prop["type"] == "array":
            item[key] = [f"first-{key}", f"second-{key}"]
        else:
            item[key] = f"{key}-value"
    return item


def _parse_one(item: Any) -> tuple[Action | None, str | None]:
    out = parse_output(json.dumps({"actions": [item]}))
    assert len(out.actions) + len(out.rejections) == 1, out
    return (out.actions[0], None) if out.actions else (None, out.rejections[0].reason)


def test_the_schema_is_one_llama_cpp_accepts_and_lists_exactly_the_actions_fields():
    assert _keywords(ACTIONS_SCHEMA) <= LLAMA_KEYWORDS
    assert set(PROPS) == {f.name for f in fields(Action)}
    assert PROPS["type"]["enum"] == list(ACTION_TYPES) == list(RULES)
    assert list(PROPS)[0] == "type" and list(PROPS)[-1] == "reason"
    assert set(ITEM["required"]) <= set(PROPS)


@pytest.mark.parametrize("kind", ACTION_TYPES)
def test_an_item_built_from_the_schema_validates_and_round_trips(kind):
    action, problem = _parse_one(_example(kind))
    assert problem is None and action is not None and action.type == kind
    assert _parse_one(action.to_dict()) == (action, None)


@pytest.mark.parametrize("key", ITEM["required"])
def test_every_field_the_schema_requires_is_enforced(key):
    item = {"type": "nothing", "reason": "no lesson"}
    assert _parse_one(item)[1] is None
    for missing in ({k: v for k, v in item.items() if k != key}, {**item, key: None}):
        action, problem = _parse_one(missing)
        assert action is None and problem and repr(key if key != "type" else None) in problem


@pytest.mark.parametrize("key", [k for k in PROPS if k != "type"])
def test_a_value_of_the_wrong_json_type_is_rejected(key):
    wrong: Any = "a-string" if PROPS[key]["type"] == "array" else ["a", "list"]
    action, problem = _parse_one({**_example("nothing"), key: wrong})
    assert action is None and problem and repr(key) in problem


@pytest.mark.parametrize("key", [k for k, p in PROPS.items() if "enum" in p])
def test_a_value_outside_the_schemas_enum_is_rejected(key):
    action, problem = _parse_one({**_example("update_memo"), key: "not-in-the-enum"})
    assert action is None and problem and "not-in-the-enum" in problem


def test_a_key_the_schema_does_not_list_is_ignored_as_documented():
    assert "ignored" in (Action.__doc__ or "")
    action, problem = _parse_one({**_example("update_memo"), "colour": "blue"})
    assert problem is None and action is not None and "colour" not in action.to_dict()


@pytest.mark.parametrize("kind", [k for k in ACTION_TYPES if k != "nothing"])
def test_what_a_type_needs_beyond_the_schema_is_enforced_with_a_reason(kind):
    # The schema is one flat object for every type; RULES say which fields each type needs.
    action, problem = _parse_one({"type": kind, "reason": "r"})
    assert action is None and problem
    assert any(word in problem for word in ("name", "needs", "section"))


def test_caps_are_enforced_by_the_validator_and_the_reason_is_clipped():
    for f in fields(Action):
        spec = f.metadata.get("spec")
        if spec is None or not spec.cap or spec.clip:
            continue
        item = {**_example("update_memo"), f.name: "x" * (spec.cap + 1)}
        action, problem = _parse_one(item)
        assert action is None and problem and (str(spec.cap) in problem), f.name
        assert _parse_one({**item, f.name: "x" * spec.cap})[1] is None, f.name
    action, _ = _parse_one({"type": "nothing", "reason": "r" * (MAX_REASON_CHARS + 50)})
    assert action is not None and len(action.reason) == MAX_REASON_CHARS


def test_an_entry_number_may_come_as_a_json_number():
    action, problem = _parse_one({"type": "update_memo", "section": "plays", "op": "remove",
                                  "match": 2, "reason": "r"})
    assert problem is None and action is not None and action.match == "2"
