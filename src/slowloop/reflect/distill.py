"""The embedded default: an offline distiller — no network, no model.

It turns two kinds of evidence into imperative when–then rules:
- an explicit user correction that names what to do ("use pnpm instead of npm", "不要用 npm，用
  pnpm", "usa pnpm invece di npm" …) → a rule in the memo's "plays" section, scoped by what the
  agent was doing when it was corrected ("When installing packages in this project, always use
  pnpm, never npm.");
- a real error the agent recovered from within the turn (`python` not found → `python3` worked) →
  a rule in a skill named after the activity ("When `python` fails with exit code 127, run
  `python3 …` instead.").
Repeats are merged: a rule already present is not added again; a rule that contradicts an older
one about the same thing replaces it.

What it cannot do, and says so: generalise across different situations, infer preferences the user
never stated, write procedures longer than one rule, judge whether an old rule is still right, or
retire skills. Configure a model (``[provider]``) for that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from ..transcripts.model import ToolCall, Turn
from .actions import Action

LIMITS = ("The offline distiller only turns explicit corrections (\"use X instead of Y\", \"never X\", "
          "\"always X\") and recovered real errors into rules. It cannot generalise across "
          "situations, infer unstated preferences, write multi-step procedures, or judge whether an "
          "older rule still holds; configure a model in [provider] for that.")

_Q = r"[`'\"“”‘’«»「」]?"
_END = r"(?=[.!?;,:\n。！？；，：]|\s+(?:for|in|on|when|because|please|per|pls)\b|$)"
_ITEM = r"([\w@./+#=-][\w@./+#=\- ]{0,40}?)"

# (language, pattern with named groups x = what to use, y = what not to use)
_USE_INSTEAD: list[tuple[str, re.Pattern[str]]] = [
    ("en", re.compile(rf"\buse\s+{_Q}{_ITEM}{_Q}\s*(?:,\s*)?(?:instead of|rather than|not)\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}", re.I)),
    ("en", re.compile(rf"\b(?:don'?t|do not|never)\s+use\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}\s*[,;.!-]*\s*(?:use|try|go with)\s+{_Q}{_ITEM}{_Q}{_END}", re.I)),
    ("en", re.compile(rf"\b(?:switch|change)\s+(?:from\s+)?{_Q}(?P<y>[\w@./+:#=-]+){_Q}\s+to\s+{_Q}{_ITEM}{_Q}{_END}", re.I)),
    ("it", re.compile(rf"\busa(?:re)?\s+{_Q}{_ITEM}{_Q}\s+(?:invece di|anziché|al posto di)\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}", re.I)),
    ("it", re.compile(rf"\bnon usare\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}\s*[,;.]*\s*usa\s+{_Q}{_ITEM}{_Q}{_END}", re.I)),
    ("pt", re.compile(rf"\b(?:use|usa|utilize)\s+{_Q}{_ITEM}{_Q}\s+(?:em vez de|ao invés de|no lugar de)\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}", re.I)),
    ("pt", re.compile(rf"\bnão (?:use|usa|utilize)\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}\s*[,;.]*\s*(?:use|usa)\s+{_Q}{_ITEM}{_Q}{_END}", re.I)),
    ("fr", re.compile(rf"\butilise[sz]?\s+{_Q}{_ITEM}{_Q}\s+(?:au lieu de|plutôt que)\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}", re.I)),
    ("fr", re.compile(rf"\bn'utilise[sz]? pas\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}\s*[,;.]*\s*utilise[sz]?\s+{_Q}{_ITEM}{_Q}{_END}", re.I)),
    ("es", re.compile(rf"\b(?:usa|use|utiliza)\s+{_Q}{_ITEM}{_Q}\s+(?:en lugar de|en vez de)\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}", re.I)),
    ("es", re.compile(rf"\bno (?:uses|use|utilices)\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}\s*[,;.]*\s*(?:usa|use|utiliza)\s+{_Q}{_ITEM}{_Q}{_END}", re.I)),
    ("de", re.compile(rf"\b(?:verwende|benutze|nimm|nutze)\s+{_Q}{_ITEM}{_Q}\s+(?:statt|anstatt|anstelle von)\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}", re.I)),
    ("de", re.compile(rf"\b(?:nicht|kein)\s+{_Q}(?P<y>[\w@./+:#=-]+){_Q}\s*[,;.]*\s*(?:sondern|verwende|nimm|benutze)\s+{_Q}{_ITEM}{_Q}{_END}", re.I)),
    ("zh", re.compile(rf"(?:用|使用){_Q}(?P<x>[A-Za-z0-9_@./+:#=-]+){_Q}\s*(?:而不是|不要用|别用)\s*{_Q}(?P<y>[A-Za-z0-9_@./+:#=-]+){_Q}")),
    ("zh", re.compile(rf"(?:不要|别|不能)(?:用|使用){_Q}(?P<y>[A-Za-z0-9_@./+:#=-]+){_Q}\s*[，,。；;]?\s*(?:要|应该|请)?(?:用|使用|改用){_Q}(?P<x>[A-Za-z0-9_@./+:#=-]+){_Q}")),
    ("ja", re.compile(rf"{_Q}(?P<y>[A-Za-z0-9_@./+:#=-]+){_Q}\s*(?:ではなく|じゃなくて|でなく)\s*[、,]?\s*{_Q}(?P<x>[A-Za-z0-9_@./+:#=-]+){_Q}\s*(?:を)?(?:使|で)")),
]
for _i, (_lang, _p) in enumerate(_USE_INSTEAD):  # the generic item group is the "x" group
    if "(?P<x>" not in _p.pattern:
        _USE_INSTEAD[_i] = (_lang, re.compile(_p.pattern.replace(_ITEM, "(?P<x>" + _ITEM[1:], 1), _p.flags))

# Only a cue that opens an instruction to the agent: at the start of a sentence or clause, or
# after "please"/"you must"/"make sure to". "you always forget the tests" or "it always fails" are
# complaints, not rules — read as rules they would teach the opposite ("always forget the tests").
# "stop" is not a cue: "stop the server first" is an order for now, not "never the server".
_CLAUSE = r"(?:^|(?<=[.!?;:,\n])\s*|\b(?:please|pls|and|so|you must|you should|make sure to)\s+)"
_NEVER = re.compile(_CLAUSE + r"(?:never|don'?t ever|do not ever|you must not)\s+(?P<z>[a-z](?:[^.!?\n]|[.!?](?=\S)){3,100})", re.I)
_ALWAYS = re.compile(_CLAUSE + r"(?:always|from now on,?|every time,?)\s+(?P<z>[a-z](?:[^.!?\n]|[.!?](?=\S)){3,100})", re.I)
# what follows the cue must be an action, not "never mind", "always the same error"
_NOT_ACTION = re.compile(r"^(?:mind|the|a|an|this|that|these|those|it|its|my|your|same|so|again)\b", re.I)

# activity → how the trigger reads; matched against the corrected tool call and the user's words
_TOPICS: list[tuple[str, str, re.Pattern[str]]] = [
    ("installing-packages", "installing packages in this project",
     re.compile(r"\b(npm|pnpm|yarn|bun|pip3?|uv|poetry|conda|cargo add|apt(?:-get)?|brew|gem|go get)\b.*\b(install|add|i)\b|\b(install|add)\b.*\b(package|dependenc|librar)", re.I)),
    ("running-tests", "running the tests",
     re.compile(r"\b(pytest|unittest|npm (?:run )?test|pnpm test|yarn test|jest|vitest|go test|cargo test|mvn test|rspec|tox|nox)\b|\btests?\b", re.I)),
    ("git-workflow", "using git in this repository",
     re.compile(r"\bgit\s+(commit|push|rebase|merge|checkout|branch|reset|tag)\b|\b(commit|branch|rebase)\b", re.I)),
    ("building", "building the project",
     re.compile(r"\b(make|cmake|gradle|webpack|vite build|tsc|cargo build|go build|npm run build|docker build)\b|\bbuild\b", re.I)),
    ("formatting-code", "formatting or linting code",
     re.compile(r"\b(black|ruff|prettier|eslint|gofmt|rustfmt|isort|flake8|clang-format)\b|\b(format|lint)", re.I)),
    ("running-python", "running Python",
     re.compile(r"\bpython3?\b|\bpip3?\b|\bvenv\b", re.I)),
    ("writing-answers", "answering this user",
     re.compile(r"\b(answer|reply|respond|summar|bullet|explain|tone|concise|shorter|longer)\w*\b", re.I)),
]
_PKG_MANAGERS = {"npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv", "poetry", "conda"}


@dataclass(frozen=True)
class TurnEvidence:
    """What the distiller needs to know about one recorded turn."""

    turn_id: int
    turn: Turn
    corrected: bool
    correction_evidence: str | None
    previous: Turn | None
    real_errors: tuple[dict[str, Any], ...]  # {"step", "tool", "evidence", "excerpt"}
    transient_only: bool


@dataclass(frozen=True)
class Rule:
    text: str
    kind: str  # correction | recovery
    topic: str
    topic_phrase: str
    key: tuple[str, ...]  # what makes two rules "the same thing" (e.g. ("use", "npm"))
    turn_id: int
    why: str


@dataclass
class Distilled:
    actions: list[Action] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    limits: str = LIMITS


def _clean(item: str) -> str:
    return item.strip().strip("`'\"“”‘’«»「」.,;:!?。，").strip()


def _command(call: ToolCall | None) -> str:
    if call is None:
        return ""
    inp = call.input
    if isinstance(inp, dict):
        for key in ("command", "cmd", "script", "code"):
            v = inp.get(key)
            if isinstance(v, list):
                v = " ".join(str(p) for p in v)
            if isinstance(v, str) and v.strip():
                return v.strip()
        for key in ("file_path", "path", "pattern", "query", "url"):
            v = inp.get(key)
            if isinstance(v, str) and v.strip():
                return f"{call.name} {v.strip()}"
        return call.name
    if isinstance(inp, str):
        return inp.strip()
    return call.name


def _topic(*texts: str) -> tuple[str, str]:
    joined = "\n".join(t for t in texts if t)
    for slug, phrase, pattern in _TOPICS:
        if pattern.search(joined):
            return slug, phrase
    return "working-in-this-project", "working in this project"


def rules_from_correction(ev: TurnEvidence) -> list[Rule]:
    text = _strip_code(ev.turn.user_text)
    for r in ev.turn.rejected_calls:  # a refused tool use with a reason is a correction too
        i = r.output.lower().find("the user said:")
        if i >= 0:
            text += "\n" + r.output[i + len("the user said:"):].strip()
    context_cmds = [_command(c) for c in (ev.previous.tool_calls if ev.previous else ())]
    context_cmds += [_command(c) for c in ev.turn.tool_calls if any(
        r.rejected and r.call_id == c.id for r in ev.turn.tool_results)]
    rules: list[Rule] = []
    for _lang, pattern in _USE_INSTEAD:
        for m in pattern.finditer(text):
            x, y = _clean(m.group("x")), _clean(m.group("y"))
            if not x or not y or x.lower() == y.lower() or len(x) > 40:
                continue
            if y.lower() in _PKG_MANAGERS or x.lower() in _PKG_MANAGERS:
                slug, phrase = _TOPICS[0][0], _TOPICS[0][1]
            else:
                slug, phrase = _topic(*context_cmds, text)
            rule = f"When {phrase}, always use {x}, never {y}."
            rules.append(Rule(rule, "correction", slug, phrase, ("use", y.lower()), ev.turn_id,
                              f"turn {ev.turn_id}: the user said {ev.turn.user_text.strip()[:120]!r}"))
        if rules:
            return rules
    for pattern, word in ((_NEVER, "never"), (_ALWAYS, "always")):
        for m in pattern.finditer(text):
            z = _clean(m.group("z"))
            z = re.split(r"\s+(?:but|because|since|so that)\b", z)[0].strip()
            if len(z.split()) < 2 or _NOT_ACTION.match(z):
                continue
            slug, phrase = _topic(*context_cmds, z)
            rules.append(Rule(f"When {phrase}, {word} {z}.", "correction", slug, phrase,
                              (word, " ".join(z.lower().split()[:4])), ev.turn_id,
                              f"turn {ev.turn_id}: the user said {ev.turn.user_text.strip()[:120]!r}"))
    if rules:
        return rules
    # "No, that's wrong: the dates must be in UTC" states the fix as a requirement.
    for m in _MUST_BE.finditer(text):
        subj, pred = _clean(m.group("subj")), _clean(m.group("pred"))
        if not subj or not pred or len(pred.split()) > 10:
            continue
        subj = subj[0].lower() + subj[1:]
        verb = "are" if subj.split()[-1].lower().endswith("s") else "is"
        slug, phrase = _topic(*context_cmds, subj, pred)
        rules.append(Rule(f"When {phrase}, always make sure {subj} {verb} {pred}.", "correction",
                          slug, phrase, ("must", subj.lower()), ev.turn_id,
                          f"turn {ev.turn_id}: the user said {ev.turn.user_text.strip()[:120]!r}"))
    return rules


_MUST_BE = re.compile(
    r"\b(?P<subj>(?:the|all|every|each|our|my|its|their)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)\s+"
    r"(?:must|should|need to|needs to|have to|has to)\s+(?:always\s+)?be\s+"
    r"(?P<pred>[^.!?;\n]{2,60})", re.I)


# Tools whose failure is fixed by reading the file first (Claude Code refuses to edit a file it has
# not read in the session); a fix by any *other* tool says nothing certain about the failure.
_NEEDS_READ_FIRST = {"Edit", "Write", "MultiEdit", "NotebookEdit", "str_replace_editor", "apply_patch"}
_READERS = {"Read", "View", "read_file", "view"}


def rules_from_recovery(ev: TurnEvidence) -> list[Rule]:
    """One rule from the first real error the agent got past in this turn.

    The fix must be plainly related to the failure: the same tool run again with a different
    command ("`python` not found" → `python3`), or reading a file before editing it. Any other
    later success may be unrelated work, and the distiller says nothing rather than guess.
    """
    steps = ev.turn.steps
    calls = {s.call.id: s.call for s in steps if s.kind == "tool_call" and s.call and s.call.id}
    called_at = {s.call.id: k for k, s in enumerate(steps)
                 if s.kind == "tool_call" and s.call and s.call.id}
    error_steps = {int(e["step"]): e for e in ev.real_errors if e.get("step") is not None}
    for i, err in sorted(error_steps.items()):
        if i >= len(steps):
            continue
        failed = steps[i].result
        failed_call = calls.get(failed.call_id) if failed and failed.call_id else None
        if failed is None or failed_call is None:
            continue
        fix_call = None
        for j in range(i + 1, len(steps)):
            s = steps[j]
            if s.kind == "tool_result" and s.result and not s.result.rejected and j not in error_steps:
                cid = s.result.call_id
                # a call made before the failure was seen (parallel calls) cannot be its fix
                fix_call = calls.get(cid) if cid and called_at.get(cid, -1) > i else None
                break
        if fix_call is None:
            continue
        before, after = _command(failed_call), _command(fix_call)
        if not before or not after or before == after:
            continue
        before_s, after_s = _short(before), _short(after)
        evidence = _error_phrase(err, failed.output)
        slug, phrase = _topic(before, after)
        if fix_call.name == failed_call.name and _same_attempt(before, after):
            text = f"When `{before_s}` fails with {evidence}, run `{after_s}` instead."
        elif (failed_call.name in _NEEDS_READ_FIRST and fix_call.name in _READERS
              and _same_file(failed_call, fix_call)):
            text = (f"When {failed_call.name} fails with {evidence}, read the file with "
                    f"{fix_call.name} first, then retry the {failed_call.name}.")
        else:
            continue
        first = before_s.split()[0].lower() if before_s.split() else before_s
        return [Rule(text, "recovery", slug, phrase, ("recover", first, evidence.lower()),
                     ev.turn_id, f"turn {ev.turn_id}: {evidence} then `{after_s}` worked")]
    return []


def _same_attempt(before: str, after: str) -> bool:
    """Whether ``after`` is another try at what ``before`` did, not unrelated next work.

    Another program on the same arguments (`python x.py` → `python3 x.py`, `npm i` → `pnpm i`), or
    a command sharing at least half its words with the failed one (`pytest -x` → `python3 -m
    pytest -x`). `tree /proj -L 3` failing and then `ls -la /proj/src` working is not a fix for
    it: a rule drawn from that would be wrong, and the distiller rather says nothing.
    """
    a, b = before.split(), after.split()
    if not a or not b:
        return False
    if a[1:] == b[1:]:
        return bool(a[1:]) or a[0].startswith(b[0]) or b[0].startswith(a[0])
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) >= 0.5


def _same_file(edit: ToolCall, read: ToolCall) -> bool:
    """The read is of the file the edit was refused on (when both name one)."""
    def target(call: ToolCall) -> str | None:
        inp = call.input if isinstance(call.input, dict) else {}
        for key in ("file_path", "path", "notebook_path"):
            if isinstance(inp.get(key), str) and inp[key].strip():
                return inp[key].strip()
        return None
    a, b = target(edit), target(read)
    return a is None or b is None or a == b


def _error_phrase(err: dict[str, Any], output: str = "") -> str:
    """The error as the agent will meet it again: the first meaningful line of the failed output
    (whole words, no exit-code trailer), else the classifier's evidence."""
    line = ""
    for raw in output.splitlines():
        cand = re.sub(r"^\s*(?:Error:\s*)?Exit code \d+\s*$", "", raw).strip()
        cand = re.sub(r"</?tool_use_error>", "", cand).strip()
        if cand:
            line = cand
            break
    if not line:
        line = " ".join(str(err.get("excerpt") or "").split())
    line = line.replace("`", "'").replace('"', "'")
    if not line:
        return str(err.get("evidence") or "an error")
    if len(line) > 80:
        line = line[:80].rsplit(" ", 1)[0] + "…"
    return f"\"{line}\""


def _short(cmd: str, n: int = 80) -> str:
    first = cmd.strip().splitlines()[0] if cmd.strip() else ""
    first = first.replace("`", "'")
    return first if len(first) <= n else first[: n - 1] + "…"


def _strip_code(text: str) -> str:
    return re.sub(r"```.*?```", " ", text, flags=re.S)


def _norm(text: str) -> set[str]:
    return set(re.findall(r"[\w@./+-]+", text.lower())) - {"when", "always", "never", "the", "a", "in",
                                                            "this", "use", "run", "with", "fails"}


def _similar(a: str, b: str) -> float:
    sa, sb = _norm(a), _norm(b)
    return len(sa & sb) / max(1, len(sa | sb))


def distill(evidence: Iterable[TurnEvidence], *, memo: dict[str, list[str]],
            skills: dict[str, str]) -> Distilled:
    """Propose actions from recorded turns. ``memo``: section → entries; ``skills``: name → body."""
    out = Distilled()
    rules: list[Rule] = []
    for ev in evidence:
        if ev.corrected:
            found = rules_from_correction(ev)
            if not found:
                out.notes.append(f"turn {ev.turn_id}: the user corrected the agent "
                                 f"({ev.correction_evidence or 'cue'}) but did not say what to do "
                                 "instead; the offline distiller cannot infer the rule")
            rules.extend(found)
        if ev.real_errors and not ev.transient_only:
            rules.extend(rules_from_recovery(ev))
    # merge repeats within this reflection: the latest rule about the same thing wins
    latest: dict[tuple[str, ...], Rule] = {}
    for r in rules:
        latest[r.key] = r
    plays = list(memo.get("plays", []))
    skill_lines: dict[str, str] = dict(skills)
    created: dict[str, int] = {}  # skill name -> index of its create_skill action in this run
    patched: dict[str, int] = {}  # skill name -> index of its patch_skill action in this run
    for rule in latest.values():
        out.rules.append(rule)
        if rule.kind == "correction":
            same = [e for e in plays if _similar(e, rule.text) >= 0.999 or e.strip() == rule.text]
            if same:
                out.notes.append(f"already known: {rule.text}")
                continue
            clash = [e for e in plays if rule.key[0] == "use" and re.search(
                rf"\bnever {re.escape(rule.key[1])}\b|\buse {re.escape(rule.key[1])}\b", e, re.I)]
            if clash:
                out.actions.append(Action("update_memo", rule.why, section="plays", op="replace",
                                          match=clash[0], text=rule.text))
                plays[plays.index(clash[0])] = rule.text
            else:
                out.actions.append(Action("update_memo", rule.why, section="plays", op="add",
                                          text=rule.text))
                plays.append(rule.text)
        else:
            name = rule.topic
            body = skill_lines.get(name)
            if body is not None:
                if any(_similar(line, rule.text) >= 0.8 for line in body.splitlines()):
                    out.notes.append(f"already known in skill {name}: {rule.text}")
                    continue
                if name in created:
                    # created by this same reflection: the skill does not exist yet, so a patch
                    # would be rejected; the rule goes into the body being created instead
                    i = created[name]
                    body = body.rstrip("\n") + f"\n- {rule.text}\n"
                    out.actions[i] = replace(out.actions[i], body=body,
                                             reason=f"{out.actions[i].reason}; {rule.why}")
                    skill_lines[name] = body
                    continue
                if name in patched:
                    # patched by this same reflection: one skill takes one patch per reflection
                    # (a second is rejected), so the rule extends the patch already proposed
                    i = patched[name]
                    out.actions[i] = replace(out.actions[i], new=f"{out.actions[i].new}\n- {rule.text}",
                                             reason=f"{out.actions[i].reason}; {rule.why}")
                    skill_lines[name] = body.rstrip("\n") + f"\n- {rule.text}\n"
                    continue
                lines = [ln for ln in body.rstrip("\n").splitlines() if ln.strip()]
                anchor = lines[-1] if lines else ""
                if anchor and body.count(anchor) == 1:
                    patched[name] = len(out.actions)
                    out.actions.append(Action("patch_skill", rule.why, name=name, old=anchor,
                                              new=f"{anchor}\n- {rule.text}"))
                    skill_lines[name] = body.replace(anchor, f"{anchor}\n- {rule.text}")
                    continue
                out.notes.append(f"skill {name} has no unique last line to patch after; skipped")
                continue
            description = (f"Recoveries learned while {rule.topic_phrase}: what to do when a command "
                           f"fails. Use when {rule.topic_phrase} and something fails.")
            body = f"# {name.replace('-', ' ').capitalize()}\n\n## Rules\n- {rule.text}\n"
            created[name] = len(out.actions)
            out.actions.append(Action("create_skill", rule.why, name=name, description=description,
                                      body=body))
            skill_lines[name] = body
    if not out.actions:
        out.actions.append(Action("nothing", "no explicit correction with a stated fix and no "
                                             "recovered real error in the new turns"))
    return out
