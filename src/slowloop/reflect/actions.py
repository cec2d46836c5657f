"""What a reflection may do, as a JSON schema, and the checks every proposed action must pass.

The model (or the offline distiller) proposes actions; nothing is written until each one has been
checked — schema, names, caps, the imperative lint, no lesson drawn from a transient error, no
dangerous instruction. An invalid action is rejected with its reason and never blocks the valid
ones.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

ActionType = Literal["create_skill", "patch_skill", "update_memo", "retire_skill", "merge_skills",
                     "nothing"]
ACTION_TYPES: tuple[str, ...] = ("create_skill", "patch_skill", "update_memo", "retire_skill",
                                 "merge_skills", "nothing")

MAX_BODY_CHARS = 6000
MAX_DESCRIPTION_CHARS = 1024
MAX_ENTRY_CHARS = 400
MAX_REASON_CHARS = 600
MAX_ACTIONS = 12
# A model's answer is untrusted input: bounded before it is parsed, so one deeply nested or huge
# answer is a rejection recorded for that reflection, never a RecursionError that stops the cycle.
MAX_ANSWER_CHARS = 200_000
MAX_JSON_DEPTH = 16
SKILL_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

_str = {"type": "string"}
ACTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "actions": {
            "type": "array",
            "maxItems": MAX_ACTIONS,
            "items": {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": list(ACTION_TYPES)},
                    "name": _str,
                    "description": _str,
                    "body": _str,
                    "old": _str,
                    "new": _str,
                    "section": {"type": "string", "enum": ["strengths", "plays"]},
                    "op": {"type": "string", "enum": ["add", "replace", "remove"]},
                    "match": _str,
                    "text": _str,
                    "names": {"type": "array", "items": _str},
                    "into": _str,
                    "reason": _str,
                },
                "required": ["type", "reason"],
            },
        },
    },
    "required": ["actions"],
}


@dataclass(frozen=True)
class Action:
    type: ActionType
    reason: str
    name: str = ""
    description: str = ""
    body: str = ""
    old: str = ""
    new: str = ""
    section: str = ""
    op: str = ""
    match: str = ""
    text: str = ""
    names: tuple[str, ...] = ()
    into: str = ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type}
        for k in ("name", "description", "body", "old", "new", "section", "op", "match", "text",
                  "into"):
            v = getattr(self, k)
            if v:
                d[k] = v
        if self.names:
            d["names"] = list(self.names)
        d["reason"] = self.reason
        return d

    def texts(self) -> list[str]:
        """Every piece of text this action would put in front of the agent."""
        return [t for t in (self.description, self.body, self.new, self.text) if t]

    def target(self) -> str:
        if self.type == "update_memo":
            return f"memo:{self.section}"
        if self.type == "merge_skills":
            return f"skill:{self.into}"
        return f"skill:{self.name}"


@dataclass(frozen=True)
class Rejection:
    action: dict[str, Any] | str
    reason: str


@dataclass
class Parsed:
    actions: list[Action] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)


def parse_output(raw: str) -> Parsed:
    """Turn a model's text into actions. Junk becomes recorded rejections, never an exception."""
    out = Parsed()
    if len(raw) > MAX_ANSWER_CHARS:
        out.rejections.append(Rejection(_clip(raw), f"the output is {len(raw)} chars; at most "
                                                    f"{MAX_ANSWER_CHARS}"))
        return out
    depth = json_depth(raw)
    if depth > MAX_JSON_DEPTH:
        out.rejections.append(Rejection(_clip(raw), f"the output nests {depth} levels deep; at "
                                                    f"most {MAX_JSON_DEPTH}"))
        return out
    data = _load_json(raw)
    if data is None:
        out.rejections.append(Rejection(_clip(raw), "the output is not valid JSON"))
        return out
    if isinstance(data, list):
        data = {"actions": data}
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        out.rejections.append(Rejection(_clip(json.dumps(data, ensure_ascii=False)),
                                        "the output has no \"actions\" list"))
        return out
    items = data["actions"]
    if len(items) > MAX_ACTIONS:
        out.rejections.append(Rejection(f"{len(items) - MAX_ACTIONS} more actions",
                                        f"more than {MAX_ACTIONS} actions in one reflection; "
                                        "the extra ones were dropped"))
        items = items[:MAX_ACTIONS]
    for item in items:
        action, problem = _to_action(item)
        if problem:
            out.rejections.append(Rejection(item if isinstance(item, dict) else _clip(str(item)), problem))
        elif action is not None:
            out.actions.append(action)
    return out


def json_depth(text: str) -> int:
    """The deepest bracket nesting in ``text``, strings skipped: one linear pass, no recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth = max(0, depth - 1)
    return deepest


def _clip(text: str, n: int = 2000) -> str:
    return text if len(text) <= n else text[:n] + f"… [{len(text) - n} chars more]"


def _load_json(raw: str) -> Any:
    text = raw.strip()
    fence = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    if fence:
        text = fence.group(1).strip()
    try:
        return json.loads(text)
    except (json.JSONDecodeError, ValueError, RecursionError):
        pass
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        try:
            return json.loads(text[start:end + 1])
        except (json.JSONDecodeError, ValueError, RecursionError):
            return None
    return None


def _to_action(item: Any) -> tuple[Action | None, str | None]:
    if not isinstance(item, dict):
        return None, "an action must be a JSON object"
    kind = item.get("type")
    if kind not in ACTION_TYPES:
        return None, f"unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}"
    fields: dict[str, Any] = {"type": kind}
    for key in ("reason", "name", "description", "body", "old", "new", "section", "op", "match",
                "text", "into"):
        value = item.get(key, "")
        if value is None:
            value = ""
        if isinstance(value, (int, float)) and key == "match":
            value = str(value)
        if not isinstance(value, str):
            return None, f"field {key!r} must be a string, got {type(value).__name__}"
        fields[key] = value.strip() if key not in ("old", "new", "body") else value
    names = item.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None, "field 'names' must be a list of skill names"
    fields["names"] = tuple(n.strip() for n in names)
    if len(fields["reason"]) > MAX_REASON_CHARS:
        fields["reason"] = fields["reason"][:MAX_REASON_CHARS]
    action = Action(**fields)
    problem = _check_shape(action)
    return (None, problem) if problem else (action, None)


def _check_shape(a: Action) -> str | None:
    def name_ok(n: str) -> str | None:
        if not n:
            return "a skill name is required"
        if len(n) > 64 or not SKILL_NAME.match(n):
            return (f"skill name {n[:80]!r} is not valid: use 1-64 lowercase letters, digits and "
                    "single hyphens")
        return None

    if a.type == "nothing":
        return None
    if a.type == "create_skill":
        if p := name_ok(a.name):
            return p
        if not a.description or not a.body.strip():
            return "create_skill needs a description and a body"
    elif a.type == "patch_skill":
        if p := name_ok(a.name):
            return p
        if not a.old or a.old == a.new:
            return "patch_skill needs an exact 'old' span and a different 'new' text"
    elif a.type == "retire_skill":
        if p := name_ok(a.name):
            return p
    elif a.type == "merge_skills":
        if len(a.names) < 2:
            return "merge_skills needs at least two existing skills in 'names'"
        for n in (*a.names, a.into):
            if p := name_ok(n):
                return p
        if not a.description or not a.body.strip():
            return "merge_skills needs a description and a body for the merged skill"
    elif a.type == "update_memo":
        if a.section not in ("strengths", "plays"):
            return f"memo section {a.section!r} is not 'strengths' or 'plays'"
        if a.op not in ("add", "replace", "remove"):
            return f"memo op {a.op!r} is not add, replace or remove"
        if a.op in ("add", "replace") and not a.text:
            return f"update_memo {a.op} needs a 'text'"
        if a.op in ("replace", "remove") and not a.match:
            return f"update_memo {a.op} needs 'match' (the entry number or a unique part of it)"
        if len(a.text) > MAX_ENTRY_CHARS:
            return f"memo entry is {len(a.text)} chars; at most {MAX_ENTRY_CHARS}"
    if len(a.description) > MAX_DESCRIPTION_CHARS:
        return f"description is {len(a.description)} chars; at most {MAX_DESCRIPTION_CHARS}"
    if len(a.body) > MAX_BODY_CHARS or len(a.new) > MAX_BODY_CHARS:
        return f"text is longer than {MAX_BODY_CHARS} chars; skills must stay short"
    return None
