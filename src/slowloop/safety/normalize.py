"""Undo the disguises a dangerous instruction wears before it is judged.

A rule is judged on several *views* of the same text, so ``c""url … | s""h`` reads as
``curl … | sh``:

- **canonical**: NFKC (full-width ``ｃｕｒｌ`` → ``curl``), look-alike letters from Cyrillic and
  Greek mapped to Latin, invisible characters dropped, inline escapes decoded (``\\x63``,
  ``\\u0063``, ``\\143``), shell quoting removed inside words (``c""url``, ``'cu'rl``, ``c\\url``,
  ``cu$@rl``, ``${IFS}``), line continuations joined and a pipe or ``&&`` split over lines put back
  on one line. Apostrophes of contractions and French elisions are kept, so "don't" and
  "n'exécute" still read as negations.
- **decoded payloads**: every base64 or hex run that decodes to text is judged on its own.

Nothing here decides anything; :mod:`slowloop.safety.danger` does.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata

__all__ = ["canonical", "decoded_payloads", "views"]

# Latin look-alikes that NFKC leaves alone (Cyrillic and Greek letters with a Latin twin).
_CONFUSABLES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d",
    "ӏ": "l", "ԛ": "q", "ԝ": "w", "һ": "h", "ь": "b", "г": "r", "п": "n",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "γ": "y", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I",
    "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    "ı": "i", "ȷ": "j", "ʟ": "L", "ɡ": "g", "ᴄ": "c", "ᴜ": "u", "ʀ": "r", "ʜ": "h", "ꜱ": "s",
    "\u2044": "/", "\u2215": "/", "\u29f8": "/", "\uff5c": "|", "\u2223": "|", "\u01c0": "|",
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ",
})
_INVISIBLE = re.compile("[\u00ad\u034f\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069"
                        "\ufeff\U000e0000-\U000e007f]")
_ESCAPES = re.compile(r"\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\([0-3][0-7]{2})")
_CONTINUATION = re.compile(r"\\\r?\n[ \t]*")
_SPLIT_OPERATOR = re.compile(r"[ \t]*(\||&&|\|\|)[ \t]*\r?\n[ \t]*|\r?\n[ \t]*(\||&&)[ \t]*")
_EMPTY_QUOTES = re.compile(r"(?<=\S)(?:\"\"|''|\$''|\$\"\")|(?:\"\"|'')(?=\S)")
# A quote or backslash inside a word: c"ur"l, 'cu'rl, c\url. Contractions (don't, it's) and
# French elisions (n'exécute, l'utilisateur) are words, not quoting.
_CONTRACTION = re.compile(r"(?i)(?<=[a-z])'(?=(?:t|s|re|ll|ve|d|m)\b)|(?<=\b[nldjcmst])'(?=\w)|"
                          r"(?<=\bqu)'(?=\w)")
_IFS = re.compile(r"\$\{IFS\}|\$IFS\b")
_SHELL_NOISE = re.compile(r"(?<=\w)\$[@*](?=\w)|(?<=\w)\$\{[^}]{0,3}\}(?=\w)")
_WORD_ESCAPE = re.compile(r"\\(?=[A-Za-z0-9|&;<>()$/.-])")

_B64_RUN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX_RUN = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])")
_MAX_PAYLOADS = 20


def _escape(m: re.Match[str]) -> str:
    hex2, hex4, octal = m.groups()
    code = int(hex2 or hex4, 16) if (hex2 or hex4) else int(octal, 8)
    return chr(code)


def _unquote(text: str) -> str:
    keep = {m.start() for m in _CONTRACTION.finditer(text)}
    return "".join(c for i, c in enumerate(text)
                   if not ((c == '"' or c == "`") or (c == "'" and i not in keep)))


def canonical(text: str) -> str:
    """The text with its disguises undone (see the module docstring)."""
    t = unicodedata.normalize("NFKC", text).translate(_CONFUSABLES)
    t = _INVISIBLE.sub("", t)
    t = t.replace("$'", "'")  # ANSI-C quoting: $'\x63url' is 'curl'
    t = _ESCAPES.sub(_escape, t)
    t = _CONTINUATION.sub("", t)
    t = _SPLIT_OPERATOR.sub(lambda m: f" {m.group(1) or m.group(2)} ", t)
    t = _IFS.sub(" ", t)
    t = _SHELL_NOISE.sub("", t)
    t = _EMPTY_QUOTES.sub("", t)
    t = _WORD_ESCAPE.sub("", t)
    t = _unquote(t)
    return t


def _printable(raw: bytes) -> str | None:
    try:
        s = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(s) < 6:
        return None
    good = sum(1 for c in s if c.isprintable() or c in "\n\t")
    letters = sum(1 for c in s if c.isalpha())
    return s if good / len(s) > 0.95 and letters >= 3 and " " in s.strip() or (
        good == len(s) and any(w in s for w in ("/", "|", "$", ".sh", "http"))) else None


def decoded_payloads(text: str) -> list[str]:
    """Text hidden in base64 or hex runs (``echo Y3VybCB… | base64 -d | sh``)."""
    out: list[str] = []
    for m in _B64_RUN.finditer(text):
        run = m.group(0)
        try:
            raw = base64.b64decode(run + "=" * (-len(run) % 4), validate=True)
        except (binascii.Error, ValueError):
            continue
        s = _printable(raw)
        if s:
            out.append(s)
        if len(out) >= _MAX_PAYLOADS:
            return out
    for m in _HEX_RUN.finditer(text):
        s = _printable(bytes.fromhex(m.group(0)))
        if s:
            out.append(s)
        if len(out) >= _MAX_PAYLOADS:
            break
    return out


def views(text: str) -> list[str]:
    """The text as written, undisguised, and every payload it hides (each undisguised too)."""
    seen = [text]
    canon = canonical(text)
    if canon != text:
        seen.append(canon)
    for payload in decoded_payloads(canon):
        for v in (payload, canonical(payload)):
            if v not in seen:
                seen.append(v)
    return seen
