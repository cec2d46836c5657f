"""Is a tool result an error, and if so is it *transient* (the environment) or *real* (a lesson)?

Zero cost: no model call, a few precompiled regexes over the head and the tail of the output (a
failing command prints its verdict at the end, a failing tool its envelope at the start; the
middle of a 100 KB log says nothing the ends do not).

The order of evidence is the point of this module (SPEC §1.1):

1. *Is it an error at all?* The format's own flags decide first: ``is_error`` and the exit code.
   An explicit ``is_error=False`` or exit code 0 is trusted even when the output is full of the
   word "error" (a grep, a log, a file documenting errors) — with one exception: an output that
   *starts* with an HTTP 4xx/5xx status line (``curl -i``, httpie exit 0 on any response). Only when the format records neither
   do we look at the text, and then only at anchored envelopes (a ``Traceback`` header, an
   ``Error:`` first line, ``command not found``, a pytest ``FAILED`` line…), never at a bare word.
   A rejected tool use is not an error; ``grep``/``rg``/``diff`` exiting 1 with no output means
   "no match", not a failure.
2. *Real or transient?* Structured evidence weighs more than words: HTTP status codes, exception
   class names, test-runner verdicts. **Any real evidence makes the error real**, even next to a
   transient one: a real error read as transient hides a lesson, which is worse than a network
   hiccup read as real. So a pytest ``FAILED`` line is real whatever the test is called, an
   ``AssertionError`` mentioning "timeout" is real, and a ``401`` is real. Transient evidence wins
   only when nothing real is present. With no evidence either way the error is real.

Choices where the spec is silent:

- **Exit code 124** (``timeout(1)``) and Claude Code's "Command timed out after 2m" are *real*
  unless the output also shows network trouble: a command that outlived its own time limit is
  usually a hung test or a server started in the foreground — a lesson, not the network.
- **Connection refused** stays transient, as the spec says, even on localhost.
- **HTTP 520–524** (CDN ↔ origin failures) are transient like 502/504; **501/505** are real.
- **Quota exhausted** (``insufficient_quota``, billing) is real even when sent as a 429: waiting
  will not fix it. A **rate limit sent as 403** (GitHub) is transient.
- Node's ``TypeError: fetch failed`` is a network error wrapped in a TypeError: not real evidence.
- pip's "Could not find a version … (from versions: none)" after failed retries is a consequence
  of the network, so "(from versions: none)" is not real evidence on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from slowloop.observe.model import ErrorKind, ErrorObservation
from slowloop.transcripts.model import ToolCall, ToolResult, Turn

HEAD_CHARS = 2048
TAIL_CHARS = 4096
EXCERPT_CHARS = 200

TRANSIENT_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529})

# Speed matters (every tool result of every turn passes here), and Python's regex engine is slow
# on big alternations: it tries every branch at every position. Every pattern below therefore
# starts with a literal, which the engine finds with a fast substring scan, and the "words"
# patterns run on a lower-cased copy of the text instead of with IGNORECASE. Word boundaries on
# the left are checked by hand (a leading ``\b`` would cost the literal-prefix speed-up). Plain
# words are not regexes at all: ``str.find`` finds them faster, and nothing is compiled at import.


@dataclass(frozen=True)
class _Rule:
    rx: re.Pattern[str] | None  # None: a plain word, found with str.find (no regex to compile or run)
    label: str | None = None  # None: the matched text is the label
    boundary: bool = True  # the match must not continue a word on its left
    word: str = ""  # the plain word, when rx is None
    open_right: bool = False  # the word must not continue on its right ([A-Za-z0-9])


def _rules(*patterns: str, label: str | None = None, boundary: bool = True) -> tuple[_Rule, ...]:
    return tuple(_Rule(re.compile(p), label, boundary) for p in patterns)


def _lit(*words: str) -> tuple[_Rule, ...]:
    return tuple(_Rule(None, word=w) for w in words)


_ASCII_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def _find(rule: _Rule, text: str, start: int = 0) -> int:
    """Where a plain-word rule first matches from ``start`` as its regex would have (-1: nowhere)."""
    w = rule.word
    i = text.find(w, start)
    if rule.open_right:  # the regex's (?![A-Za-z0-9]): on failure it tries the next position
        while i != -1 and text[i + len(w):i + len(w) + 1] in _ASCII_ALNUM:
            i = text.find(w, i + 1)
    return i


# --- transient: environment trouble (matched on the lower-cased text) ----------------------------
_TRANSIENT_WORDS: tuple[_Rule, ...] = _lit(
    "etimedout", "esockettimedout", "econnreset", "econnrefused", "econnaborted", "ehostunreach",
    "enetunreach", "enetdown", "eai_again", "enotfound", "timed out", "deadline exceeded",
    "client.timeout exceeded", "reset by peer", "socket hang up", "broken pipe",
    "network is unreachable", "no route to host", "remote end closed", "server disconnected",
    "unexpected disconnect", "early eof", "was not closed cleanly", "eof occurred in violation",
    "unexpected_eof_while_reading", "ssl_error_syscall", "could not resolve host",
    "couldn't resolve host", "getaddrinfo", "name or service not known",
    "temporary failure in name resolution", "nodename nor servname", "no such host",
    "server misbehaving", "failed to connect to all addresses", "cannot connect to host", "failed to establish a new connection", "rate exceeded",
    "too many requests", "throttl", "overloaded", "service unavailable", "bad gateway",
    "temporarily unavailable", "try again later", "spurious network error",
    "trouble with your network", "und_err_connect_timeout", "und_err_socket",
    "failed to connect to", "couldn't connect to", "could not connect to", "cannot connect to",
    "can't connect to", "unable to connect to", "temporary failure",
    "upstream connect error", "disconnect/reset before headers",
) + _rules(
    r"epipe\b", r"time-?out (?:was reached|exceeded|expired|error|occurred)",
    r"read time-?out", r"connect(?:ion)? (?:time-?out|reset|refused|aborted|closed|timed out"
    r"|broken|lost)", r"request time-?out", r"socket time-?out", r"gateway time-?out",
    r"i/o time-?out", r"tls handshake time-?out", r"time-?out (?:awaiting|waiting|while|after)",
    r"timeout of \d+ ?m?s exceeded", r"rate[ -]?limit", r"network request to \S+ failed",
)
_TRANSIENT_CLASSES = (
    "TimeoutError", "ConnectTimeout", "ReadTimeout", "WriteTimeout", "PoolTimeout",
    "ConnectionError", "ConnectionResetError", "ConnectionRefusedError", "ConnectionAbortedError",
    "BrokenPipeError", "RemoteDisconnected", "IncompleteRead", "ProtocolError",
    "ChunkedEncodingError", "NewConnectionError", "MaxRetryError", "ServerDisconnectedError",
    "ClientConnectorError", "ClientOSError", "ServerTimeoutError", "RemoteProtocolError",
    "ConnectError", "APIConnectionError", "APITimeoutError", "RateLimitError",
    "InternalServerError", "OverloadedError", "ServiceUnavailable", "ThrottlingException",
    "TooManyRequests", "ProvisionedThroughputExceededException", "RequestLimitExceeded",
    "SSLEOFError", "SSLZeroReturnError", "socket.timeout", "gaierror", "DeadlineExceeded",
    "ConnectTimeoutError", "RequestTimeout", "SlowDown",  # the last two: AWS error codes
)
# No left boundary: a library's own subclass (botocore's EndpointConnectionError, httpx's
# ConnectTimeout) ends with the family name.
_TRANSIENT_CLASS: tuple[_Rule, ...] = tuple(
    _Rule(None, boundary=False, word=name, open_right=True) for name in _TRANSIENT_CLASSES)

# --- real: the agent's own mistakes and hard refusals (lower-cased text) -------------------------
_REAL_WORDS: tuple[_Rule, ...] = _lit(
    "<tool_use_error>", "command not found", "is not recognized as an internal",
    "no such file or directory", "enoent", "eacces", "eisdir", "eaddrinuse",
    "permission denied", "operation not permitted", "access denied", "authentication failed",
    "unauthorized", "unauthorised", "forbidden", "invalid api key", "incorrect api key",
    "context_length", "context length", "context window", "maximum context",
    "prompt is too long", "too many tokens", "insufficient_quota", "exceeded your current quota",
    "billing", "validation error", "invalid_request_error", "unrecognized argument",
    "required argument", "usage: ", "syntax error", "unexpected token", "parse error",
    "is not defined", "undefined: ", "is not a function", "cannot read propert",
    "has no attribute", "cannot find module", "no module named", "cannot import name",
    "module_not_found", "could not compile", "mismatched types", "declared and not used",
    "unable to resolve dependency", "eresolve", "e404", "externally-managed-environment",
    "no matching manifest", "merge conflict", "would be overwritten", "failed to push",
    "not a git repository", "no rule to make target", "already in use", "no such table",
    "has not been read yet", "string to replace not found", "does not exist",
    "haven't granted", "build error occurred", "out of memory",
) + _rules(
    r"eperm\b", r"denied\b", r"invalid (?:value|argument|option|input|syntax)",
    r"unknown (?:option|argument|flag|command)", r"missing (?:required|script)",
    r"error ts\d+", r"error\[e\d+\]", r"is not in (?:this|the) registry",
    r"from versions: (?!none\))", r"recipe .{1,40} failed", r"found \d+ errors?\b",
    r"process completed with exit code [1-9]", r"failed with exit code [1-9]",
    r"killed\b", r"oom\b", r": not found$", r"not found\b(?!.{0,40}\b(?:host|address))",
)
_REAL_CLASS_LINE = re.compile(
    r"(?:E\s+|Uncaught |Exception in thread \"[^\"]*\" |\S+: )?(?:[A-Za-z_]\w*\.)*"
    r"(AssertionError|SyntaxError|IndentationError|TabError|NameError|TypeError|AttributeError"
    r"|KeyError|IndexError|ValueError|ImportError|ModuleNotFoundError|FileNotFoundError"
    r"|FileExistsError|IsADirectoryError|NotADirectoryError|PermissionError|ZeroDivisionError"
    r"|RecursionError|NotImplementedError|UnicodeDecodeError|UnicodeEncodeError|JSONDecodeError"
    r"|ValidationError|InputValidationError|AuthenticationError|PermissionDeniedError"
    r"|NotFoundError|BadRequestError|UnprocessableEntityError|ReferenceError|RangeError"
    r"|NullPointerException|ClassNotFoundException|IllegalArgumentException"
    r"|IllegalStateException|NoSuchMethodError|UnboundLocalError|OverflowError)\b"
    r"(?!: (?:fetch failed|Failed to fetch|NetworkError))")
_ANY_EXCEPTION_LINE = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit)(?::|$)")
_CLASS_HIT = (re.compile("Error"), re.compile("Exception"))

# Test runners' verdicts: real whatever the test's name says. Searched in "\n" + text.
_TEST_LINES = re.compile(r"\n(?:FAILED \S|ERROR (?:tests?/|\S+\.py)|--- FAIL: |FAIL[\t ]\S)")
_TEST_ANYWHERE = _lit("test result: FAILED", "panicked at")
_FAILED_WORD = re.compile(" failed")
_FAILED_SUMMARY = re.compile(r"(?:=+ .*\b|\d+ passed, |Tests?:\s+)?\d+ failed\b")
_JEST_BULLET = re.compile("\u25cf .+ \u203a ")

# --- HTTP status codes, in the shapes clients print them (lower-cased text) ----------------------
_STATUS_BEFORE: tuple[re.Pattern[str], ...] = tuple(re.compile(p) for p in (
    r"http(?:/\d(?:\.\d)?)?[ :]\s*([45]\d\d)\b", r"status(?:[ _-]?code)?[\"']?\s*[:=]?\s*([45]\d\d)\b",
    r"error code:?\s*([45]\d\d)\b", r"response code:?\s*([45]\d\d)\b",
    r"returned(?: error)?:?\s*([45]\d\d)\b", r"code[\"']?\s*:\s*([45]\d\d)\b",
    r"npm (?:err!|error) ([45]\d\d)\b", r"error:?\s+([45]\d\d)\b", r"<title>([45]\d\d)\b",
    r"<h1>([45]\d\d)\b"))
_STATUS_AFTER = re.compile(
    r"([45]\d\d) (?:client error|server error|bad request|unauthorized|payment required|forbidden"
    r"|not found|method not allowed|request time-?out|conflict|gone|unprocessable (?:entity|content)"
    r"|too many requests|internal server error|not implemented|bad gateway|service unavailable"
    r"|gateway time-?out)\b")

# --- is there an error at all (used only when the format records neither flag nor exit code) ---
# Anchored so that a grep hit ("path:12: raise TimeoutError") or a numbered Read output
# ("    12→Traceback…") does not count. Searched in "\n" + text.
_ENVELOPE_LINES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Traceback", re.compile(r"\nTraceback \(most recent call last\):")),
    ("npm ERR!", re.compile(r"\nnpm (?:ERR!|error) ")),
    ("fatal:", re.compile(r"\n(?:fatal|panic): ")),
    ("HTTP status line", re.compile(r"\nHTTP/\d(?:\.\d)? [45]\d\d\b")),
    ("curl error", re.compile(r"\ncurl: \(\d+\)")),
    ("compiler error", re.compile(r"\nerror(?:\[E\d+\])?: ")),
)
_FIRST_LINE_ERROR = re.compile(
    r"\s*(?:(?:\w+ )?(?:Error|ERROR|error)(?:\[\w+\])?(?::| \d{3}\b)|Exit code [1-9]|API Error\b"
    r"|\{\s*\"error\"\s*:)")
# ``curl -i`` / httpie print the response head first and exit 0 on a 4xx/5xx: the status line
# says the request failed even though the command did not.
_HTTP_HEAD = re.compile(r"\s*HTTP/\d(?:\.\d)? ([45]\d\d)\b")
_FIRST_LINE_FS = re.compile(r"no such file or directory|enoent|permission denied")
_NOT_FOUND_LINE = re.compile(r"\n\S+: (?:\d+: )?\S+: not found\n")

# Tools whose output is file content: only tool-level envelopes count there, never content shapes.
_READER_TOOLS = frozenset({"read", "grep", "glob", "ls", "notebookread", "view", "search",
                           "websearch", "webfetch", "read_file", "list_dir", "glob_search"})
_READER_COMMAND = re.compile(r"\s*(?:sudo\s+)?(?:cat|bat|less|more|head|tail|grep|egrep|fgrep|rg"
                             r"|ag|ack|sed -n|awk|find|ls|tree|git (?:log|show|diff|blame|grep)|jq"
                             r"|wc|sort|uniq|cut|strings|zcat|xxd|od)\b")
# Commands whose exit status 1 with empty output means "no", not "failed".
_NO_MATCH_COMMAND = re.compile(r"(?:^|[|;&]\s*)(?:grep|egrep|fgrep|rg|ag|ack|diff|cmp|test|\[)\b"
                               r"[^|;&]*\s*$")
# Our own tool's time limit is not the network: neutralise it before the transient scan.
_OWN_TIMEOUT = re.compile(r"Command timed out after [^\n]*")
_LEADING_EXIT = re.compile(r"(?:Error: )?Exit code (\d+)")
_RATE_LIMIT = re.compile(r"rate[ -]?limit|rate exceeded")


@dataclass(frozen=True)
class _Evidence:
    kind: ErrorKind
    label: str
    start: int
    strength: int  # 2 = structured (status, class name, runner verdict), 1 = words


def _window(text: str) -> str:
    """The head and the tail of a long output, joined by a newline."""
    if len(text) <= HEAD_CHARS + TAIL_CHARS:
        return text
    return text[:HEAD_CHARS] + "\n" + text[-TAIL_CHARS:]


def _starts_word(text: str, at: int) -> bool:
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")


def _scan(rules: tuple[_Rule, ...], text: str, kind: ErrorKind, strength: int,
          out: list[_Evidence]) -> None:
    for rule in rules:
        if rule.rx is None:
            i = _find(rule, text) if rule.open_right else text.find(rule.word)
            while i != -1:
                if not rule.boundary or _starts_word(text, i):
                    out.append(_Evidence(kind, rule.label or rule.word.strip()[:40], i, strength))
                    break
                i = _find(rule, text, i + len(rule.word))  # finditer goes on after the match
            continue
        for m in rule.rx.finditer(text):
            if rule.boundary and not _starts_word(text, m.start()):
                continue
            out.append(_Evidence(kind, rule.label or m.group(0).strip()[:40], m.start(), strength))
            break  # the first hit of each rule is enough


def _line_at(text: str, at: int) -> tuple[int, str]:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return start, text[start:end if end != -1 else len(text)]


def _class_lines(text: str) -> list[tuple[int, str]]:
    """Lines holding an exception-looking name (at most a few dozen, deduplicated)."""
    seen: dict[int, str] = {}
    for rx in _CLASS_HIT:
        for n, m in enumerate(rx.finditer(text)):
            if n >= 40:
                break
            start, line = _line_at(text, m.start())
            seen.setdefault(start, line)
    return sorted(seen.items())


def _statuses(low: str, out: list[_Evidence]) -> None:
    rate_limited = _RATE_LIMIT.search(low) is not None
    found: dict[int, int] = {}
    for rx in (*_STATUS_BEFORE, _STATUS_AFTER):
        for m in rx.finditer(low):
            if _starts_word(low, m.start()) and not low[m.end(1):m.end(1) + 1].isdigit():
                found.setdefault(m.start(1), int(m.group(1)))
    for at, code in found.items():
        if code == 403 and rate_limited:
            out.append(_Evidence("transient", f"HTTP {code} rate limit", at, 2))
        elif code in TRANSIENT_STATUS:
            out.append(_Evidence("transient", f"HTTP {code}", at, 2))
        else:
            out.append(_Evidence("real", f"HTTP {code}", at, 2))


def _test_failure(text: str) -> _Evidence | None:
    nl = "\n" + text
    m = _TEST_LINES.search(nl)
    if m:
        line = m.group(0)[1:]
        label = ("pytest FAILED" if line.startswith("FAILED") else "pytest ERROR"
                 if line.startswith("ERROR") else "go test FAIL")
        return _Evidence("real", label, m.start(), 2)
    for rule in _TEST_ANYWHERE:
        i = _find(rule, text)
        if i != -1:
            return _Evidence("real", rule.word, i, 2)
    for m in _FAILED_WORD.finditer(text):
        start, line = _line_at(text, m.start())
        if _FAILED_SUMMARY.match(line.strip()):
            return _Evidence("real", "test summary: failed", start, 2)
    m = _JEST_BULLET.search(text)
    if m:
        return _Evidence("real", "jest failure", m.start(), 2)
    return None


def _decide(text: str) -> tuple[ErrorKind, _Evidence] | None:
    """Real evidence first (structured, then words); transient only when nothing real is there.

    Scanning stops as soon as the verdict is certain, which keeps the common case cheap.
    """
    low = text.lower()
    found: list[_Evidence] = []
    _statuses(low, found)
    failure = _test_failure(text)
    if failure:
        found.append(failure)
    for start, line in _class_lines(text):
        m = _REAL_CLASS_LINE.match(line)
        if m:
            found.append(_Evidence("real", m.group(1), start + m.start(1), 2))
    real = [e for e in found if e.kind == "real"]
    if not real:
        _scan(_REAL_WORDS, low, "real", 1, real)
    if real:
        return "real", max(real, key=lambda e: (e.strength, -e.start))
    transient = [e for e in found if e.kind == "transient"]
    _scan(_TRANSIENT_CLASS, text, "transient", 2, transient)
    _scan(_TRANSIENT_WORDS, low, "transient", 1, transient)
    if transient:
        return "transient", max(transient, key=lambda e: (e.strength, -e.start))
    return None


def _command_of(call: ToolCall | None) -> str:
    if call is None:
        return ""
    data: Any = call.input
    if isinstance(data, dict):
        data = data.get("command") or data.get("cmd") or data.get("args") or ""
    if isinstance(data, (list, tuple)):
        parts = [str(p) for p in data]
        # Codex writes ["bash", "-lc", "<script>"]: the script is what ran.
        if len(parts) >= 3 and parts[1] in ("-c", "-lc", "-ic"):
            return parts[2]
        return " ".join(parts)
    return data if isinstance(data, str) else ""


def _is_reader(tool: str | None, command: str) -> bool:
    if tool and tool.lower() in _READER_TOOLS:
        return True
    return bool(command) and bool(_READER_COMMAND.match(command))


def _envelope(window: str, reader: bool) -> str | None:
    """For outputs with no flag and no exit code: the anchored shape that says "error", or None."""
    nl = "\n" + window
    first = window.lstrip()[:300].split("\n", 1)[0]
    if "<tool_use_error>" in window:
        return "tool_use_error"
    if _FIRST_LINE_ERROR.match(first):
        return "Error header"
    if "command not found" in window or _NOT_FOUND_LINE.search(nl + "\n"):
        return "command not found"
    if _FIRST_LINE_FS.search(first.lower()):
        return "file system error"
    if reader:  # file content: a traceback in a log file is not this tool failing
        return None
    for label, rx in _ENVELOPE_LINES:
        if rx.search(nl):
            return label
    if _test_failure(window):
        return "test failure"
    for _, line in _class_lines(window):
        if _ANY_EXCEPTION_LINE.match(line):
            return "exception"
    return None


def _error_basis(result: ToolResult, window: str, command: str, tool: str | None,
                 ) -> tuple[str | None, int | None]:
    """Why this result is an error at all ("is_error flag", "exit code 2", "Traceback"), or None."""
    exit_code = result.exit_code
    if exit_code is None:
        m = _LEADING_EXIT.match(window)
        exit_code = int(m.group(1)) if m else None
    if result.is_error is True or (exit_code is not None and exit_code != 0):
        if (exit_code == 1 and result.output.strip() in ("", "0") and command
                and _NO_MATCH_COMMAND.search(command)):
            return None, exit_code  # grep/rg/diff found nothing ("grep -c" prints 0): an answer
        if result.is_error is True:
            return "is_error flag", exit_code
        return f"exit code {exit_code}", exit_code
    if result.is_error is False or exit_code == 0:
        head = _HTTP_HEAD.match(window)
        if head and not _is_reader(tool, command):
            return f"HTTP {head.group(1)} response", exit_code
        return None, exit_code
    return _envelope(window, _is_reader(tool, command)), exit_code


def _excerpt(text: str, at: int) -> str:
    start = max(0, at - 60)
    return " ".join(text[start:start + EXCERPT_CHARS + 60].split())[:EXCERPT_CHARS]


def classify_result(result: ToolResult, call: ToolCall | None = None) -> ErrorObservation | None:
    """Classify one tool result: None when it is not an error, else transient or real + evidence."""
    if result.rejected:
        return None
    tool = result.name or (call.name if call else None)
    command = _command_of(call)
    window = _window(result.output or "")
    basis, exit_code = _error_basis(result, window, command, tool)
    if basis is None:
        return None

    scan = _OWN_TIMEOUT.sub(" ", window)
    verdict = _decide(scan)
    kind: ErrorKind = "real"
    decisive: _Evidence | None = None
    if verdict is not None:
        kind, decisive = verdict
    elif exit_code == 127:
        decisive = _Evidence("real", "command not found (127)", 0, 2)
    elif exit_code == 124 or _OWN_TIMEOUT.search(window):
        decisive = _Evidence("real", "the command's own time limit", 0, 1)

    if decisive is None:
        return ErrorObservation(kind="real", evidence=basis, tool=tool, excerpt=_excerpt(window, 0))
    phrase = decisive.label if decisive.label == basis else f"{basis} + {decisive.label}"
    return ErrorObservation(kind=kind, evidence=phrase, tool=tool,
                            excerpt=_excerpt(scan, decisive.start))


def find_errors(turn: Turn) -> tuple[ErrorObservation, ...]:
    """Every error among a turn's tool results, each with ``step`` = its index in ``turn.steps``.

    Rejected tool uses are not errors (they are counted as rejections). A result is paired with
    its call by id, or, in formats without ids, with the call just before it.
    """
    calls: dict[str, ToolCall] = {}
    out: list[ErrorObservation] = []
    last_call: ToolCall | None = None
    for i, step in enumerate(turn.steps):
        if step.kind == "tool_call" and step.call is not None:
            last_call = step.call
            if step.call.id:
                calls[step.call.id] = step.call
        elif step.kind == "tool_result" and step.result is not None:
            res = step.result
            call = calls.get(res.call_id) if res.call_id else last_call
            obs = classify_result(res, call)
            if obs is not None:
                out.append(ErrorObservation(kind=obs.kind, evidence=obs.evidence, tool=obs.tool,
                                            excerpt=obs.excerpt, step=i))
    return tuple(out)
