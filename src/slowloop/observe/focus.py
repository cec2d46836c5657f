"""What of a code change the person's words name, and how they name it (observe/redo.py finds the
change; this narrows it).

An edit that swaps one API for another takes out and puts in many names; the lesson is the part the
person points at: the tokens they say, as written ("use IDENTITY"), as a part of a package path
("no logrus" for `github.com/sirupsen/logrus`), as a vendor's first word ("guzzle" for
`GuzzleHttp`), as a call written as code ("utcnow() is deprecated"), or as an import ("con polars,
no pandas"). When the person names one library for another, the rule names each as they did
("always use `log/slog`, never `logrus`", not `slog.String`); one substitution made on several names
(`checkout@main` → `checkout@v4`, `setup-node@main` → `setup-node@v5`) is a way of writing them.
"""

from __future__ import annotations

import re

from .redo import COMMON_WORDS, Redo, case_style, points_at


def focus(redo: Redo, text: str) -> Redo:
    """A code change narrowed to what the person's words name: of everything an edit took out and
    put in, the tokens they mention are the lesson ("use IDENTITY, we don't use serial")."""
    if redo.kind != "api":
        return redo
    low = text.lower()

    quoted = {q.strip().lower() for q in re.findall(r"`([^`]{1,60})`", text)}

    def named(tok: str) -> bool:
        if tok.lower() in quoted:
            return True
        # a word of code the agent just wrote, said as it is ("todas las fechas van en timestamptz")
        if len(tok) >= 5 and tok.lower() not in COMMON_WORDS and re.search(
                rf"(?<![\w.-]){re.escape(tok)}(?![\w-])", text, re.I) and not re.fullmatch(r"[a-z]+(?:ing|ed|ly|s)?", tok) \
                or len(tok) >= 5 and tok.lower() not in COMMON_WORDS and tok.lower() in _code_words(text):
            return True
        # an API's name, not a word of the language ("format"): dotted, %-verb, CAPS, snake, digits
        # a vendor's namespace by its first word: `GuzzleHttp` for "no guzzle", `@reduxjs/toolkit` for "redux"
        if any(len(w) >= 4 and w not in COMMON_WORDS and _vendor(tok, w) for w in said_parts):
            return True
        # a piece of it written as code: "@main" for `actions/checkout@main`, "utcnow()" for `datetime.utcnow`
        if any(w in tok.lower() and (w.startswith("@") or re.search(r"[/:.]", w)) for w in code_said) \
                or _in_code((tok,), text):
            return True
        if not re.search(r"[._%0-9:]|^[A-Z]{3,}$|[a-z][A-Z]", tok):
            return False
        t = tok.lower()
        tail = t.rsplit(".", 1)[-1]
        head = t.split(".", 1)[0] if "." in t else ""
        if len(head) >= 3 and re.search(rf"(?<![\w]){re.escape(head)}(?![\w])", low):
            return True  # `slog.Info` when the person said "log/slog", `logrus.Info` for "no logrus"
        if t in low or (len(tail) >= 4 and re.search(r"[_0-9]|[a-z][A-Z]", tok.rsplit(".", 1)[-1]) is not None
                        and tail in low):
            return True
        # a package path named by one of its parts: `org.jetbrains.kotlinx` for "kotlinx.serialization",
        # `com.google.code.gson` for "drop that gson"
        return any(len(p) >= 4 and p not in COMMON_WORDS and p not in _PATH_PARTS and _said_part(p, said_parts)
                   for p in re.split(r"\.|::|\\|/", t))  # `github.com/sirupsen/logrus` for "no logrus"

    code_said = {w for w in re.findall(r"[\w@][\w@./:-]*[\w]|@[\w.-]+", low)
                 if len(w) >= 3 and re.search(r"[@:/._0-9-]", w) and w not in COMMON_WORDS}
    said_parts = {p for w in re.findall(r"[\w@][\w./:@\\-]*", low) for p in re.split(r"[./:\\-]+", w) if p}
    # (`tscv.split` after `tscv = TimeSeriesSplit(…)`: a method of the code's own variable is no API
    # to name, even when a word of it is said — "random split")
    came = [t for t in redo.came if (named(t) or _import_said(t, redo, low)) and not (
        "." in t and t.lower() not in quoted and re.search(_DEFINES.format(re.escape(t.split(".")[0])), redo.code[1]))]
    gone = [t for t in redo.gone if named(t) or _import_said(t, redo, low)]
    # what the person wrote as it is comes first (`System.Text.Json`, before `JsonSerializer.Deserialize`)
    came.sort(key=lambda t: t.lower() not in low)
    gone.sort(key=lambda t: t.lower() not in low)
    if came and re.fullmatch(r"[a-z]+", came[0]) and not _import_said(came[0], redo, low) and redo.came \
            and _LIB_NAME.match(redo.came[0]):
        came = [redo.came[0], *came[1:]]  # "comme format" names the call, `Intl.NumberFormat` the API
    # `log` is no alternative to `log/slog`: a part of what came is not what went
    gone = [g for g in gone if not any(c.lower().startswith(g.lower() + "/") for c in came)]
    if not came and gone and redo.came and (_LIB_NAME.match(redo.came[0]) and (_LIB_NAME.match(gone[0]) or _CLASS.match(gone[0]))
                                            and _root(redo.came[0]) != _root(gone[0]) or _in_code(gone, text)
                                            or _repeated(redo) or redo.came[0].lower().startswith(gone[0].lower())):
        # (`TIMESTAMP` → `TIMESTAMPTZ`, `SimpleDateFormat` → `LocalDate.parse`: the one named, replaced)
        # "requests.get inside an async def", "utcnow() is deprecated", "@main in the actions": the
        # person named what was wrong, the agent put another API (or version) in its place
        came = list(redo.came[:2]) if _repeated(redo) or _in_code(gone, text) and len(redo.came) <= 3 else [redo.came[0]]
    if not came and (redo.dropped or redo.scope == "writing Dockerfiles" and _IMAGE.match(redo.use.strip("`"))
                     and _IMAGE.match(redo.avoid.strip("`"))):
        # a package the agent took out, or the base image it swapped, right after the person spoke:
        # the redo itself says what to use instead, whatever the words named
        said = [w for w in re.findall(r"\b[a-z][a-z0-9]*(?:[-.][a-z0-9]+)+\b", text)
                if redo.dropped and redo.dropped.lower() not in w and not re.search(r"\.(?:json|lock|ya?ml|toml|md|txt)$", w)]
        came = said[:1] or ([redo.came[0]] if redo.came else [])  # "date-fns has been in package.json"
        gone = gone or [redo.dropped or redo.avoid]
    if not came:
        # nothing the person named: the change may be the fix or other work; no rule from it
        return Redo("api", redo.scope, redo.before, redo.after, standing=False, words=redo.words,
                    gone=redo.gone, came=redo.came)
    lib = bool(gone) and _library_like(came[0], redo) and _library_like(gone[0], redo) \
        and (_lib_root(came[0]) != _lib_root(gone[0]) or _in_code(gone[:1], text) and _root(gone[0]) not in _OWN)
    # one library for another: the rule names each as the person wrote it ("log/slog", not
    # `slog.String`) — only when both sides are named so ("tokio" said of `tokio::time::sleep` is
    # the runtime, not the API to use)
    said_came = [_as_said(t, text) for t in came]
    said_gone = [_as_said(t, text) for t in gone]
    if gone and _lib_root(came[0]) != _lib_root(gone[0]) and all(
            a != t or t.lower() in text.lower() or _library_like(t, redo) and "." not in t and "::" not in t
            for a, t in zip(said_came[:1] + said_gone[:1], came[:1] + gone[:1], strict=True)) \
            and said_came[0].lower() != said_gone[0].lower():
        # (never the same words for both: "start_date=datetime.now()" said of `pendulum.datetime`)
        came, gone = list(dict.fromkeys(said_came)), list(dict.fromkeys(said_gone))
    use = " with ".join(f"`{t}`" for t in came[:2])
    avoid = gone[0] if gone else (redo.dropped or (redo.gone[0] if len(redo.gone) == 1 else ""))
    rule = f"always use {use}" + (f", never `{avoid}`." if avoid else ".")
    return Redo("api", redo.scope, redo.before, redo.after, came[0], avoid, rule, standing=True,
                words=redo.words, gone=tuple(gone), came=tuple(came), dropped=redo.dropped, library=lib or redo.library,
                modules=redo.modules, code=redo.code)


def _lib_root(name: str) -> str:
    """The part of a library's name that tells libraries apart (`org.slf4j.Logger` → slf4j)."""
    parts = [p.lower().lstrip("@") for p in re.split(r"\.|::|\\|/", name.strip("`")) if p]
    return next((p for p in parts if p not in _PATH_PARTS), parts[0] if parts else "")


def _library_like(tok: str, redo: Redo) -> bool:
    """A library's API (`slog.String`, `org.jetbrains.kotlinx`) or a module the change imports or
    stops importing (`polars`)."""
    return bool(_LIB_NAME.match(tok)) or tok in redo.came[-3:] + redo.gone[-3:] and re.fullmatch(r"@?[a-z][\w/-]+", tok) is not None


# Parts of a package path that name no library (`org.`, `com.github.`, `internal`).
_PATH_PARTS = frozenset("org com net io dev github gitlab google apache internal common core util utils main java "
                        "javax kotlin android test tests api pkg cmd libs".split())


_OWN = frozenset({"self", "this", "cls", "super", "me"})  # the task's own object, not a library
_CLASS = re.compile(r"^[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+$")  # `SimpleDateFormat`: a library's class


def _in_code(tokens, text: str) -> bool:
    """The method of a dotted name written as a call in the message ("utcnow() is deprecated")."""
    return any("." in t and re.search(rf"(?<![\w.]){re.escape(t.rsplit('.', 1)[1])}\(\)?", text) is not None
               for t in tokens)


def _repeated(redo: Redo) -> bool:
    """One substitution made on several names (`checkout@main` → `checkout@v4`, `setup-node@main` →
    `setup-node@v5`): a way of writing them, not one value of this task."""
    pairs = list(zip(redo.gone, redo.came, strict=False))
    if len(pairs) < 2:
        return False

    def change(a: str, b: str) -> tuple[str, str]:
        i = 0
        while i < min(len(a), len(b)) and a[i] == b[i]:
            i += 1
        return a[i:], b[i:]
    first = change(*pairs[0])[0]  # what was taken out of each (`master` of `@master`), whatever came
    return bool(first) and all(change(a, b)[0] == first for a, b in pairs[1:])


def _said_part(part: str, said: set[str]) -> bool:
    """``part`` among the parts of the person's words, or with a version after it (`log4j` in "log4j2")."""
    return part in said or any(w.startswith(part) and w[len(part):].isdigit() for w in said)


def _vendor(tok: str, word: str) -> bool:
    """``word`` names the vendor of ``tok``: `GuzzleHttp` / "guzzle", `@reduxjs/toolkit` / "redux"."""
    base = tok.lstrip("@").split("/")[0]
    low = base.lower()
    # (a vendor's name begins a namespace or a package — `GuzzleHttp`, `@reduxjs/…` — never a camelCase
    # variable: "viewmodel" does not name `viewModelScope`)
    return len(base) > len(word) and low.startswith(word) and (
        base[len(word)].isupper() and base[len(word) - 1].islower() and (base[0].isupper() or tok.startswith("@"))
        or low[len(word):] == "js")  # not `TIMESTAMPTZ`


def _import_said(tok: str, redo: Redo, low: str) -> bool:
    """A library the rewritten code imports, or no longer imports, said by its bare name ("con
    polars, no pandas"): plain words, so only the imports of the change count, never any word."""
    return tok in redo.came[-3:] + redo.gone[-3:] and re.fullmatch(r"@?[a-z][a-z0-9_/-]+", tok) is not None \
        and tok not in COMMON_WORDS and re.search(rf"(?<![\w.-]){re.escape(tok)}(?![\w-])", low) is not None


def _as_said(tok: str, text: str) -> str:
    """``tok`` as the person named its library: `slog.String` → "log/slog", `GuzzleHttp` → "guzzle",
    `org.jetbrains.kotlinx` → "kotlinx.serialization"; ``tok`` itself when they did not."""
    parts = [p.lower() for p in re.split(r"\.|::|\\|/", tok.strip("`")) if p]
    head = parts[0] if parts else ""
    best, rank = "", (len(parts) + 1, 0)
    for w in re.findall(r"[A-Za-z_@][\w./:@-]*[\w]", text):
        wl = w.lower()
        wparts = [p for p in re.split(r"[./:-]+", wl) if p]
        if wl == tok.lower():
            return tok
        # (a part said as the head of the word, or the word said of this head: "pickle.load" does
        # not name `json.load` by their shared `load`)
        at = [i for i, p in enumerate(parts) if len(p) >= 4 and p not in COMMON_WORDS and p not in _PATH_PARTS
              and _said_part(p, set(wparts)) and (i == 0 or _said_part(p, set(wparts[:1])))]
        hit = (head and len(head) >= 3 and (wl == head or head in wparts)) or bool(at) or (
            len(wl) >= 4 and wl not in COMMON_WORDS and len(parts) <= 2 and _vendor(tok, wl))
        # the library before its modules: "coil" of `libs.coil.compose`, not "compose"
        r = (min(at) if at else 0, -len(w))
        if hit and r < rank:
            best, rank = w, r
    return best or tok


# A library's API, not this task's value: a dotted name (`requests.get`, `org.junit.Test`), a
# scoped path (`std::sync::LazyLock`), an image reference (`python:3.12-slim`).
_LIB_NAME = re.compile(r"^[A-Za-z_][\w-]*(?:(?:\.|::)[A-Za-z_]\w*)+$")
_IMAGE = re.compile(r"^[a-z0-9][\w./-]*:[\w.-]+$")


def _root(name: str) -> str:
    return re.split(r"\.|::", name.strip("`"), maxsplit=1)[0].lower()


def _module_call(use: str, avoid: str, code: str) -> bool:
    """`yaml.load(…)` → `yaml.safe_load(…)` where the code never defines `yaml`: two functions of a
    module called, not two fields or methods of the code's own object (`order.total`, `self.save()`)."""
    root = _root(use)
    if root in _LITERAL or not code:
        return False
    called = all(re.search(re.escape(n) + r"\s*\(", code) for n in (use, avoid))
    own = re.search(_DEFINES.format(re.escape(root)), code, re.I) or re.search(
        rf"\b(?:def|fn|func|function)\s+\w+\s*\([^)]*\b{re.escape(root)}\b|\bfor\s+{re.escape(root)}\s+in\b"
        rf"|\(\s*{re.escape(root)}\s*(?:[,:)]|=>)|,\s*{re.escape(root)}\s*[,:)]", code, re.I)
    return called and not own


def library_swap(redo: Redo) -> bool:
    """The code change puts one library's API, or one base image, in place of another — a way of
    working, like a package swapped, never a value of this task (a table name, a number, a colour)."""
    if redo.kind != "api":
        return False
    if redo.dropped or redo.library or _repeated(redo):
        return True
    use, avoid = redo.use.strip("`"), redo.avoid.strip("`")
    if not use or not avoid:
        return False
    if _IMAGE.match(use) and _IMAGE.match(avoid) and redo.scope == "writing Dockerfiles":
        return True
    if _LIB_NAME.match(use) and _LIB_NAME.match(avoid):
        # another module (`requests.get` → `httpx.AsyncClient`), a package path (`org.junit.Test`),
        # or another function of a module the code imports (`yaml.load` → `yaml.safe_load`) — never
        # another field of the code's own object (`order.total` → `order.subtotal`)
        return _root(use) != _root(avoid) or max(use.count("."), avoid.count(".")) >= 2 or (
            _root(use) in {m.lower() for m in redo.modules}) or _module_call(use, avoid, "\n".join(redo.code))
    if _LIB_NAME.match(use) and _root(use) in {m.lower() for m in redo.modules} and re.fullmatch(r"[A-Za-z_]\w*", avoid):
        return True  # a module's API for a bare builtin (`Exception` → `httpx.HTTPStatusError`)
    return False


def _code_words(text: str) -> set[str]:
    """Words written as code in a message: in backticks, or with a digit or an underscore inside."""
    out = {q.lower() for q in re.findall(r"`([^`]{1,60})`", text)}
    out |= {w.lower() for w in re.findall(r"\b[A-Za-z]+(?:[_0-9][A-Za-z0-9_]*)+\b|\b[a-z]+tz\b", text)}
    return out


# What a rewrite takes out or puts in that is no API: SQL's keywords, literals, the code's own names.
_KEYWORD = re.compile(r"^[A-Z]{2,}$")
_LITERAL = frozenset("null none nil true false undefined this self it".split())
_DEFINES = r"(?:\b(?:def|func|fn|function|class|struct|interface|type|const|let|var|val)\s+{0}\b|\b{0}\s*(?::=|=(?!=)))"
_SECRET_MOVED = re.compile(r"env|environ|getenv|secret|password|token|vault|config", re.I)


def whole_swap(redo: Redo, text: str, *, shown: bool = False) -> Redo | None:
    """The agent's rewrite as the lesson when the person's words point at it without naming what to
    use ("with float the cents drift, 19.99 becomes 19.989999" before `float` → `decimal:2`): one API
    out, one in — never a value of this task, a name the new code defines, a rename, or a secret
    moved out of the code. None when the change says less than that.

    ``shown``: the correction was told by the rewrite itself — the person said only what went wrong
    ("that freezes every other request on the worker") and the agent at once replaced the code it had
    just written — so the words need not name it; the swap must then be one API for one."""
    if redo.kind != "api" or not redo.standing or not (shown or points_at(redo, text)):
        return None
    old, new = redo.code
    gone = [t for t in redo.gone if _api_like(t) and t.lower() not in _LITERAL]
    came = [t for t in redo.came if _api_like(t) and t.lower() not in _LITERAL
            and not re.search(_DEFINES.format(re.escape(t)), new)
            and not (case_style(t.split(".")[0]) == "camelCase" and "." in t)]  # `smsExecutor.execute`: the code's own field
    if not gone or not came:
        return None
    x, y = gone[0], came[0]
    if shown and not points_at(redo, text):
        # told by the rewrite alone, the swap must say it all: a call on a module or an object (or a
        # builtin: `print`, `eval`) in place of another (`time.sleep` → `asyncio.sleep`, `Math.random`
        # → `crypto.randomUUID` with the `.toString().slice()` it needed), never a name grown or cut
        # (`self.tick` → `tick`), a bare word (`div` → `button`) or a path
        xs = [t for t in gone if _DOTTED.fullmatch(t) or t in _BUILTIN_CALLS]
        ys = [t for t in came if _DOTTED.fullmatch(t)]
        if not xs or not ys or len(gone) > 3 or len(redo.came) > 3:
            return None
        x, y = xs[0], ys[0]
        if x.lower() in y.lower() or y.lower() in x.lower():
            return None
    elif len(gone) > 2 or len(redo.came) > 4:
        return None
    if x.lower() == y.lower() or case_style(x) and case_style(y) and case_style(x) != case_style(y) and "." not in x + y:
        return None  # `calcul_remise` → `computeDiscount`: a name restyled, not an API swapped
    if re.search(rf"[\"']{re.escape(x)}", old) and _SECRET_MOVED.search(y):
        return None  # a value taken out of the code into the environment: not a way to write code
    return Redo("api", redo.scope, redo.before, redo.after, y, x, f"always use `{y}`, never `{x}`.", standing=True,
                words=redo.words, gone=(x,), came=(y,), dropped=redo.dropped, modules=redo.modules, code=redo.code)


_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+")
# calls of a language's own that a rewrite takes out for an API (`print` → `logger.debug`)
_BUILTIN_CALLS = frozenset({"print", "println", "printf", "puts", "eval", "exec", "input", "alert", "confirm", "prompt",
                            "setTimeout", "setInterval", "panic", "var_dump", "die", "md5", "sha1", "rand", "pickle"})


def _api_like(tok: str) -> bool:
    return len(tok) >= 3 and not _KEYWORD.match(tok) and not tok.isdigit() and tok.lower() not in COMMON_WORDS \
        and not re.fullmatch(r"[\d.,:%-]+", tok)
