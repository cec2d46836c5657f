"""What a reflection may do: one definition of an action, the JSON schema and the shape checks.

The model (or the offline distiller) proposes actions; nothing is written until each one has been
checked — here its shape (fields, names, caps; ``Action`` and ``RULES`` are the one place that
says it, the schema the model is given is derived from them), then in ``validate`` its content
(the imperative lint, no lesson drawn from a transient error, no dangerous instruction). An invalid
action is rejected with its reason and never blocks the valid ones — but a *dangerous* one marks
the whole answer as steered: its other changes wait for the person (``cycle._judge_results``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args, get_origin, get_type_hints

ActionType = Literal["create_skill", "patch_skill", "update_memo", "retire_skill", "merge_skills",
                     "update_state", "nothing"]
ACTION_TYPES: tuple[str, ...] = get_args(ActionType)

MAX_BODY_CHARS = 6000
MAX_DESCRIPTION_CHARS = 1024
MAX_ENTRY_CHARS = 400
MAX_REASON_CHARS = 600
MAX_ACTIONS = 12
MAX_HEADING_CHARS = 80
# A model's answer is untrusted input: bounded before it is parsed, so one deeply nested or huge
# answer is a rejection recorded for that reflection, never a RecursionError that stops the cycle.
MAX_ANSWER_CHARS = 200_000
MAX_JSON_DEPTH = 16
SKILL_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MEMO_SECTIONS = ("strengths", "plays")
MEMO_OPS = ("add", "replace", "remove")


@dataclass(frozen=True)
class Spec:
    """How one field of an action is sent to the model and checked when it comes back.

    The field's JSON type comes from its annotation on ``Action`` (``str`` → string, a
    ``tuple[str, ...]`` → array of strings, the ``ActionType`` literal → string enum). ``required``
    and ``enum`` go into the schema and are enforced; ``cap`` is enforced only — a length cap in the
    schema would become a grammar rule thousands of repetitions long on llama.cpp's server.
    """

    required: bool = False
    enum: tuple[str, ...] = ()
    enum_message: str = ""       # "{value!r}" is the value found
    cap: int = 0                 # longest accepted value, 0 for none
    cap_message: str = ""        # "{n}" is the length found
    clip: bool = False           # over the cap: cut to it rather than reject the action
    strip: bool = True           # surrounding whitespace removed (not for exact spans and bodies)
    number_ok: bool = False      # a JSON number is taken as its text (an entry number)


def _spec(**kw: Any) -> dict[str, Spec]:
    return {"spec": Spec(**kw)}


_TEXT_CAP = f"text is longer than {MAX_BODY_CHARS} chars; skills must stay short"


@dataclass(frozen=True)
class Action:
    """One proposed change — and the single definition of an action's shape.

    Every field's metadata (``Spec``) says how it is checked; ``ACTIONS_SCHEMA`` and the parser
    (``parse_output``) are both derived from these fields, and ``RULES`` says which fields each
    type needs. A key the model sends that is not a field here is ignored; a null is read as absent.
    """

    type: ActionType = field(metadata=_spec(required=True))
    reason: str = field(metadata=_spec(required=True, cap=MAX_REASON_CHARS, clip=True))
    name: str = ""
    description: str = field(default="", metadata=_spec(
        cap=MAX_DESCRIPTION_CHARS,
        cap_message="description is {n} chars; at most " + str(MAX_DESCRIPTION_CHARS)))
    body: str = field(default="", metadata=_spec(strip=False, cap=MAX_BODY_CHARS,
                                                 cap_message=_TEXT_CAP))
    old: str = field(default="", metadata=_spec(strip=False))
    new: str = field(default="", metadata=_spec(strip=False, cap=MAX_BODY_CHARS,
                                                cap_message=_TEXT_CAP))
    section: str = field(default="", metadata=_spec(
        enum=MEMO_SECTIONS, enum_message="memo section {value!r} is not 'strengths' or 'plays'"))
    op: str = field(default="", metadata=_spec(
        enum=MEMO_OPS, enum_message="memo op {value!r} is not add, replace or remove"))
    match: str = field(default="", metadata=_spec(number_ok=True))
    text: str = field(default="", metadata=_spec(
        cap=MAX_ENTRY_CHARS, cap_message="memo entry is {n} chars; at most " + str(MAX_ENTRY_CHARS)))
    names: tuple[str, ...] = ()
    into: str = ""
    # update_state: the section of the operational memory's system-state.md the text replaces
    heading: str = field(default="", metadata=_spec(
        cap=MAX_HEADING_CHARS, cap_message="state heading is {n} chars; at most " + str(MAX_HEADING_CHARS)))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type}
        for f in _WIRE_ORDER[1:-1]:
            v = getattr(self, f.name)
            if v:
                d[f.name] = list(v) if isinstance(v, tuple) else v
        d["reason"] = self.reason
        return d

    def texts(self) -> list[str]:
        """Every piece of text this action would put in front of the agent."""
        return [t for t in (self.description, self.body, self.new, self.text, self.heading) if t]

    def target(self) -> str:
        if self.type == "update_memo":
            return f"memo:{self.section}"
        if self.type == "update_state":
            return "state:system-state"  # one file: one state change per reflection
        if self.type == "merge_skills":
            return f"skill:{self.into}"
        return f"skill:{self.name}"


Check = Callable[[Action], "str | None"]


def _name_problem(n: str) -> str | None:
    if not n:
        return "a skill name is required"
    if len(n) > 64 or not SKILL_NAME.match(n):
        return (f"skill name {n[:80]!r} is not valid: use 1-64 lowercase letters, digits and "
                "single hyphens")
    return None


def _skill_names(*keys: str) -> Check:
    """Each named field (a name, or a list of names) holds valid skill names."""
    def check(a: Action) -> str | None:
        for key in keys:
            v = getattr(a, key)
            for n in (v if isinstance(v, tuple) else (v,)):
                if p := _name_problem(n):
                    return p
        return None
    return check


def _filled(*keys: str, why: str) -> Check:
    """Each named field holds more than whitespace."""
    return lambda a: why if any(not getattr(a, k).strip() for k in keys) else None


def _one_of(key: str) -> Check:
    """The field holds one of its allowed values (empty is not one of them)."""
    spec = _SPECS[key]
    return lambda a: (None if getattr(a, key) in spec.enum
                      else spec.enum_message.format(value=getattr(a, key)))


def _memo_op_needs(a: Action) -> str | None:
    if a.op in ("add", "replace") and not a.text:
        return f"update_memo {a.op} needs a 'text'"
    if a.op in ("replace", "remove") and not a.match:
        return f"update_memo {a.op} needs 'match' (the entry number or a unique part of it)"
    return None


_FIELDS = fields(Action)
_SPECS: dict[str, Spec] = {f.name: f.metadata.get("spec", Spec()) for f in _FIELDS}
_HINTS: dict[str, Any] = get_type_hints(Action)
# The order a record reads in (and the schema lists): the type first, the reason last.
_WIRE_ORDER = (_FIELDS[0], *_FIELDS[2:], _FIELDS[1])

# What each type needs beyond the fields' own checks, checked in this order.
RULES: dict[str, tuple[Check, ...]] = {
    "create_skill": (_skill_names("name"),
                     _filled("description", "body", why="create_skill needs a description and a body")),
    "patch_skill": (_skill_names("name"),
                    lambda a: None if a.old and a.old != a.new else
                    "patch_skill needs an exact 'old' span and a different 'new' text"),
    "update_memo": (_one_of("section"), _one_of("op"), _memo_op_needs),
    "retire_skill": (_skill_names("name"),),
    "merge_skills": (lambda a: "merge_skills needs at least two existing skills in 'names'"
                     if len(a.names) < 2 else None,
                     _skill_names("names", "into"),
                     _filled("description", "body",
                             why="merge_skills needs a description and a body for the merged skill")),
    "update_state": (_filled("heading", "text", why="update_state needs a 'heading' (the state section) and a "
                             "'text' (what is true today)"),
                     lambda a: "a state heading is a plain title" if a.heading.lstrip().startswith("#") else None),
    "nothing": (),
}


def _property(name: str) -> dict[str, Any]:
    hint, spec = _HINTS[name], _SPECS[name]
    if get_origin(hint) is tuple:
        return {"type": "array", "items": {"type": "string"}}
    enum = get_args(hint) if get_origin(hint) is Literal else spec.enum
    return {"type": "string", "enum": list(enum)} if enum else {"type": "string"}


def actions_schema() -> dict[str, Any]:
    """The JSON schema the model is given, derived from ``Action``'s fields.

    Only keywords llama.cpp's server turns into a grammar: type, properties, required, enum,
    items, maxItems. What depends on the action's type (``RULES``) is checked after parsing.
    """
    return {
        "type": "object",
        "properties": {
            "actions": {
                "type": "array",
                "maxItems": MAX_ACTIONS,
                "items": {
                    "type": "object",
                    "properties": {f.name: _property(f.name) for f in _WIRE_ORDER},
                    "required": [f.name for f in _WIRE_ORDER if _SPECS[f.name].required],
                },
            },
        },
        "required": ["actions"],
    }


ACTIONS_SCHEMA: dict[str, Any] = actions_schema()


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
    """One item of the model's answer as an ``Action``, or the reason it is not one."""
    if not isinstance(item, dict):
        return None, "an action must be a JSON object"
    kind = item.get("type")
    if kind not in ACTION_TYPES:
        return None, f"unknown action type {kind!r}; expected one of {', '.join(ACTION_TYPES)}"
    values: dict[str, Any] = {"type": kind}
    for f in _FIELDS[1:]:
        spec, value = _SPECS[f.name], item.get(f.name)
        if value is None:
            if spec.required:
                return None, f"field {f.name!r} is required"
            continue
        if get_origin(_HINTS[f.name]) is tuple:
            if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
                return None, f"field {f.name!r} must be a list of skill names"
            values[f.name] = tuple(n.strip() for n in value)
            continue
        if spec.number_ok and isinstance(value, (int, float)):
            value = str(value)
        if not isinstance(value, str):
            return None, f"field {f.name!r} must be a string, got {type(value).__name__}"
        value = value.strip() if spec.strip else value
        if spec.enum and value and value not in spec.enum:
            return None, spec.enum_message.format(value=value)
        if spec.clip and len(value) > spec.cap:
            value = value[:spec.cap]
        values[f.name] = value
    action = Action(**values)
    for check in RULES[action.type]:
        if problem := check(action):
            return None, problem
    for f in _FIELDS:
        spec = _SPECS[f.name]
        n = len(getattr(action, f.name))
        if spec.cap and not spec.clip and n > spec.cap:
            return None, spec.cap_message.format(n=n)
    return action, None
