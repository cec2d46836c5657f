"""Whether a turn followed or broke a rule, read from the agent's actions alone: no model, a few
string operations per tool call.

``read_rule(text)`` reads what a rule can be checked on: its trigger (the kind of action its
"When …," names: installing packages, running the tests, writing commit messages, creating
branches, naming Python functions, adding files), what it says to use and what not to (its
literals, written as the learner and people write them: "always use `pnpm`, never `npm`", "never
add a `Co-authored-by:` trailer", "always pass `--no-cov` to `pytest`", "always use snake_case
(`cart_total`), never camelCase (`cartTotal`)", "When `python x.py` fails …, run `python3 x.py`
instead"). A rule without either — "always do as the user said: …", "always make sure the page
size is 50" — is **not checkable**, and says why, rather than being guessed at.

``judge(check, acts, failed)`` is the verdict on one turn: ``relevant`` (the situation came up),
``followed`` (it did what the rule says), ``violated`` (it did what the rule forbids), and the
action that shows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..observe.lessons import category
from ..observe.redo import Act, Cmd, case_style, commit_message, conventional, parse_cmd

# words of a trigger phrase → the activities of observe.redo it names
_TRIGGERS: tuple[tuple[str, frozenset[str]], ...] = (
    (r"\binstall|\bdependenc|\bpackages?\b", frozenset({"install"})),
    (r"\bcommit", frozenset({"commit"})),
    (r"\bbranch", frozenset({"branch"})),
    (r"\bpush", frozenset({"push"})),
    (r"\btests?\b", frozenset({"test"})),
    (r"\blint|\bformat", frozenset({"lint"})),
    (r"\bbuild", frozenset({"build"})),
    (r"\bcontainer|\bdocker", frozenset({"container"})),
    (r"\bmigration", frozenset({"migrate"})),
    (r"\busing git\b", frozenset({"commit", "branch", "push", "sync"})),
    (r"\brunning python\b", frozenset({"python", "test"})),
    (r"\bnode scripts\b", frozenset({"node"})),
    (r"\bdevelopment server\b", frozenset({"serve"})),
)
_LANG_EXT = {"python": (".py",), "typescript": (".ts", ".tsx"), "javascript": (".js", ".jsx", ".mjs"),
             "go": (".go",), "rust": (".rs",), "ruby": (".rb",), "java": (".java",), "kotlin": (".kt",)}
_DEFS = {"functions": r"(?:\bdef|\bfunction|\bfunc|\bfn)\s+([A-Za-z_]\w*)|\b(?:const|let)\s+([A-Za-z_]\w*)\s*=\s*(?:async\s*)?\(",
         "classes": r"\b(?:class|struct|interface|type|enum|trait)\s+([A-Za-z_]\w*)",
         "types": r"\b(?:class|struct|interface|type|enum|trait)\s+([A-Za-z_]\w*)",
         "variables": r"\b(?:const|let|var)\s+([A-Za-z_]\w*)|^\s*([A-Za-z_]\w*)\s*=(?!=)"}

_WHEN = re.compile(r"^(?:pitfall:\s*)?when\s+(?P<phrase>.+?),\s*(?P<body>.*)$", re.I | re.S)
_RECOVER = re.compile(r"^When `(?P<x>[^`]+)` fails with [^,]+, (?:run `(?P<y>[^`]+)` instead"
                      r"|[^(]*\(`(?P<z>[^`]+)`\), then run)")
_STYLE = re.compile(r"always use (?P<u>[A-Za-z_-]+[cC]ase|[A-Z_]+CASE) \(`[^`]+`\), never (?P<a>[A-Za-z_-]+[cC]ase|[A-Z_]+CASE)")
_TRAILER = re.compile(r"\b(?P<w>never|always) add an? `(?P<t>[^`]+:)` trailer")
_GENERATED = re.compile(r"never add a \"Generated with")
_FLAG = re.compile(r"\b(?P<w>always|never) pass `(?P<f>-[^`]+)` to `(?P<tool>[^`]+)`(?:, never `(?P<g>-[^`]+)`)?")
_BRANCH_SHAPE = re.compile(r"always name branches `<type>/<TICKET>-<slug>`|branch names (?:are|is) `<type>/<TICKET>-<slug>`")
_BRANCH_PREFIX = re.compile(r"always start branch names with `(?P<p>[^`]+)`(?:, never `(?P<q>[^`]+)`)?")
_PUT = re.compile(r"always put them in `(?P<d>[^`]+)`(?:, never in `(?P<e>[^`]+)`)?")
# (never after "never": "never use `sudo`" names what not to use — _NEVER_LIT reads it)
_USE = re.compile(r"(?<!never )(?<!don't )(?<!do not )\b(?:always )?use (?P<x>`[^`]+`|[^,.;()\s]+(?: (?!(?:for|to|in|with|when|and|or|instead|on|as|of|"
                  r"if|everywhere|here|only)\b)[^,.;()\s]+)?)"
                  r"(?: \(`[^`]+`\))?(?:,? (?:never|not|instead of) (?:use )?(?P<y>`[^`]+`|[^,.;()\s]+))?")
_NEVER_LIT = re.compile(r"\bnever\b[^.;:]*?`(?P<y>[^`]+)`")
_TICKET_BRANCH = re.compile(r"^[a-z]+/[A-Z][A-Z0-9]+-\d+[-_].+$")


@dataclass(frozen=True)
class Check:
    mode: str  # tool | literal | trailer | conventional | flag | naming | branch | path | recovery | ""
    trigger: frozenset[str] = frozenset()  # activities; empty: any action naming a literal
    use: str = ""
    avoid: str = ""
    tool: str = ""   # flag: the program; naming: "<language> <what>"
    why_not: str = ""  # not checkable: why
    family: str = ""  # the kind of tool its literals are (package-manager-js …): a pip install is no npm situation

    @property
    def checkable(self) -> bool:
        return bool(self.mode)

    @property
    def literals(self) -> tuple[str, ...]:
        """The files, tools and commands the rule names (what "stale" looks for)."""
        if self.mode in ("naming", "conventional"):
            return ()
        return tuple(x for x in (self.use, self.avoid, self.tool) if x and not x.startswith("<"))

    def to_dict(self) -> dict:
        if not self.checkable:
            return {"checkable": False, "why": self.why_not}
        return {"checkable": True, "mode": self.mode, "trigger": sorted(self.trigger), "use": self.use,
                "avoid": self.avoid, **({"tool": self.tool} if self.tool else {})}


@dataclass(frozen=True)
class Verdict:
    relevant: bool = False
    followed: bool = False
    violated: bool = False
    detail: str = ""  # the action that shows it


def _bare(item: str | None) -> str:
    return (item or "").strip().strip("`'\"“”").strip()


def _trigger(phrase: str) -> frozenset[str]:
    low = phrase.lower()
    for pattern, acts in _TRIGGERS:
        if re.search(pattern, low):
            return acts
    return frozenset()


def read_rule(text: str) -> Check:
    """What ``text`` can be checked on (see the module docstring)."""
    t = " ".join(text.split())
    m = _RECOVER.match(t)
    if m:
        return Check("recovery", use=m.group("y") or m.group("z") or "", avoid=m.group("x"))
    w = _WHEN.match(t)
    phrase, body = (w.group("phrase"), w.group("body")) if w else ("", t)
    # the person's sentence a rule carries as its reason is no part of what it asks
    body = re.sub(r"\s*\(the person said: (?:\"[^\"]*\"|`[^`]*`)\)\.?$", ".", body)
    trigger = _trigger(phrase)
    if "do as the user said" in body:
        return Check("", why_not="it keeps the person's own words; no action or literal to check it on")
    n = re.match(r"naming (?P<lang>\w+) (?P<what>\w+)", phrase, re.I)
    s = _STYLE.search(body)
    if n and s and n.group("what").lower() in _DEFS:
        return Check("naming", frozenset({"naming"}), s.group("u"), s.group("a"),
                     f"{n.group('lang').lower()} {n.group('what').lower()}")
    if (m := _TRAILER.search(body)) or _GENERATED.search(body):
        lit = m.group("t") if m else "Generated with"
        use = lit if m and m.group("w") == "always" else ""
        return Check("trailer", frozenset({"commit"}), use, "" if use else lit)
    if "Conventional Commits" in body:
        return Check("conventional", frozenset({"commit"}), "Conventional Commits")
    if m := _FLAG.search(body):
        use, avoid = (m.group("f"), m.group("g") or "") if m.group("w") == "always" else ("", m.group("f"))
        return Check("flag", trigger, use, avoid, m.group("tool"))
    if _BRANCH_SHAPE.search(body):
        return Check("branch", frozenset({"branch"}), "<type>/<TICKET>-<slug>")
    if m := _BRANCH_PREFIX.search(body):
        return Check("branch", frozenset({"branch"}), m.group("p"), m.group("q") or "")
    if m := _PUT.search(body):
        return Check("path", frozenset({"files"}), m.group("d"), m.group("e") or "")
    if m := _USE.search(body):
        use, avoid = _bare(m.group("x")), _bare(m.group("y"))
        if use and not re.search(r"\b(?:the|a|an|it|this|that)\b", use, re.I):
            fam = category(use, avoid) if trigger else None
            return Check("tool" if trigger else "literal", trigger, use, avoid, family=fam[0] if fam else "")
    if m := _NEVER_LIT.search(body):
        return Check("tool" if trigger else "literal", trigger, "", _bare(m.group("y")))
    return Check("", why_not="it names no tool, file, command or name style an action could be checked against")


def has(literal: str, text: str) -> bool:
    """``literal`` in ``text`` as a whole word (``npm`` is not in ``pnpm add``)."""
    lit = _bare(literal)
    if not lit:
        return False
    return re.search(rf"(?<![\w.-]){re.escape(lit)}(?![\w-])", text, re.I) is not None


def _short(s: str, n: int = 100) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _cmds(acts: list[Act]) -> list[Cmd]:
    return [c for a in acts if a.kind == "run" for c in [parse_cmd(a.command)] if c]


def _tool_of(c: Cmd, lit: str) -> bool:
    """The command is run with ``lit`` (its program, its tool, or its words start with it)."""
    lit = _bare(lit).lower()
    return lit in (c.prog.lower(), c.tool.lower()) or " ".join(c.words).lower().startswith(lit + " ")


def judge(check: Check, acts: list[Act], failed: frozenset[str] = frozenset()) -> Verdict:
    """The verdict on one turn's actions (``failed``: the commands that ended in a real error)."""
    if not check.checkable or not acts:
        return Verdict()
    return _JUDGES[check.mode](check, acts, failed)


def _uses(c: Cmd, lit: str) -> bool:
    """The command runs ``lit``, or names it among its arguments (`git push origin master`)."""
    return _tool_of(c, lit) or has(lit, " ".join(c.words[1:]))


def _same_family(check: Check, c: Cmd) -> bool:
    if not check.family:
        return True
    fam = category(c.prog)
    return fam is None or fam[0] == check.family


def _judge_tool(check: Check, acts: list[Act], _failed: frozenset[str]) -> Verdict:
    hits = [c for c in _cmds(acts) if c.activity in check.trigger and _same_family(check, c)]
    if not hits:
        return Verdict()
    bad = next((c for c in hits if check.avoid and _uses(c, check.avoid)
                and not (check.use and _tool_of(c, check.use))), None)
    if bad is not None:
        return Verdict(True, False, True, _short(bad.text))
    good = next((c for c in hits if check.use and _uses(c, check.use)), None)
    if good is not None or not check.use:
        return Verdict(True, True, False, _short((good or hits[0]).text))
    if not check.avoid and " " not in check.use:
        # "always use bun" and the packages went in with another program: that is what it forbids
        return Verdict(True, False, True, _short(hits[0].text))
    return Verdict(True, False, False, _short(hits[0].text))


def _texts(acts: list[Act]) -> list[str]:
    """What the agent wrote or ran (an edit's removed text is left out: taking it out is no use)."""
    return [a.command if a.kind == "run" else f"{a.path}\n{a.new}" for a in acts]


def _judge_literal(check: Check, acts: list[Act], _failed: frozenset[str]) -> Verdict:
    texts = _texts(acts)
    bad = next((t for t in texts if check.avoid and has(check.avoid, t)), None)
    if bad is not None:
        return Verdict(True, False, True, _short(bad))
    good = next((t for t in texts if check.use and has(check.use, t)), None)
    if good is not None:
        return Verdict(True, True, False, _short(good))
    return Verdict()


def _commits(acts: list[Act]) -> list[Cmd]:
    return [c for c in _cmds(acts) if c.activity == "commit"]


def _judge_trailer(check: Check, acts: list[Act], _failed: frozenset[str]) -> Verdict:
    commits = _commits(acts)
    if not commits:
        return Verdict()
    lit = (check.use or check.avoid).lower()
    with_it = next((c for c in commits if lit in c.text.lower()), None)
    without = next((c for c in commits if lit not in c.text.lower()), None)
    if check.avoid:
        return (Verdict(True, False, True, _short(with_it.text)) if with_it is not None
                else Verdict(True, True, False, _short(commits[0].text)))
    return (Verdict(True, False, True, _short(without.text)) if without is not None
            else Verdict(True, True, False, _short(commits[0].text)))


def _judge_conventional(check: Check, acts: list[Act], _failed: frozenset[str]) -> Verdict:
    msgs = [(c, m) for c in _commits(acts) for m in [commit_message(c)] if m]
    if not msgs:
        return Verdict()
    bad = next((c for c, m in msgs if not conventional(m)), None)
    if bad is not None:
        return Verdict(True, False, True, _short(bad.text))
    return Verdict(True, True, False, _short(msgs[0][0].text))


def _judge_flag(check: Check, acts: list[Act], _failed: frozenset[str]) -> Verdict:
    runs = [c for c in _cmds(acts) if _tool_of(c, check.tool) and (not check.trigger or c.activity in check.trigger)]
    if not runs:
        return Verdict()
    for c in runs:
        if (check.avoid and check.avoid in c.flags) or (check.use and check.use not in c.flags):
            return Verdict(True, False, True, _short(c.text))
    return Verdict(True, True, False, _short(runs[0].text))


def _judge_naming(check: Check, acts: list[Act], _failed: frozenset[str]) -> Verdict:
    lang, what = check.tool.split(" ", 1)
    exts = _LANG_EXT.get(lang, ())
    names: list[tuple[str, str]] = []
    for a in acts:
        if a.kind in ("edit", "write") and (not exts or a.path.endswith(exts)):
            old = {g for m in re.finditer(_DEFS[what], a.old, re.M) for g in m.groups() if g}
            names += [(g, a.path) for m in re.finditer(_DEFS[what], a.new, re.M)
                      for g in m.groups() if g and g not in old and case_style(g)]
    if not names:
        return Verdict()
    bad = next(((n, p) for n, p in names if case_style(n) == check.avoid), None)
    if bad is not None:
        return Verdict(True, False, True, f"{bad[0]} in {bad[1]}")
    good = next(((n, p) for n, p in names if case_style(n) == check.use), None)
    if good is not None:
        return Verdict(True, True, False, f"{good[0]} in {good[1]}")
    return Verdict(True, False, False, f"{names[0][0]} in {names[0][1]}")


def _judge_branch(check: Check, acts: list[Act], _failed: frozenset[str]) -> Verdict:
    made = [(c, w) for c in _cmds(acts) if c.activity == "branch"
            for w in [next((x for x in reversed(c.words[2:]) if not x.startswith("-")), "")] if w]
    if not made:
        return Verdict()
    for c, name in made:
        ok = bool(_TICKET_BRANCH.match(name)) if check.use.startswith("<") else name.startswith(check.use)
        if not ok or (check.avoid and name.startswith(check.avoid)):
            return Verdict(True, False, True, _short(c.text))
    return Verdict(True, True, False, _short(made[0][0].text))


def _judge_path(check: Check, acts: list[Act], _failed: frozenset[str]) -> Verdict:
    written = [a.path for a in acts if a.kind == "write" and a.path]
    seg = lambda d, p: ("/" + _bare(d).strip("/") + "/") in ("/" + p.lstrip("./"))  # noqa: E731
    bad = next((p for p in written if check.avoid and seg(check.avoid, p)), None)
    if bad is not None:
        return Verdict(True, False, True, bad)
    good = next((p for p in written if seg(check.use, p)), None)
    return Verdict(True, True, False, good) if good else Verdict()


def _judge_recovery(check: Check, acts: list[Act], failed: frozenset[str]) -> Verdict:
    runs = [a.command for a in acts if a.kind == "run"]
    tried = [r for r in runs if r.strip().startswith(check.avoid)]
    if not tried or not any(r in failed for r in tried):
        return Verdict()  # the situation is the failure: it did not come up
    fixed = next((r for r in runs if check.use and r.strip().startswith(check.use)), None)
    if fixed is not None:
        return Verdict(True, True, False, _short(fixed))
    return Verdict(True, False, True, _short(tried[-1]))


_JUDGES = {"tool": _judge_tool, "literal": _judge_literal, "trailer": _judge_trailer,
           "conventional": _judge_conventional, "flag": _judge_flag, "naming": _judge_naming,
           "branch": _judge_branch, "path": _judge_path, "recovery": _judge_recovery}


def mentions(check: Check, acts: list[Act]) -> bool:
    """Whether the turn's work names a file, tool or command the rule names (its ground)."""
    lits = check.literals
    return bool(lits) and any(has(lit, t) or lit in t for t in _texts(acts) for lit in lits)
