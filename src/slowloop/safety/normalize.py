"""Undo the disguises a dangerous instruction wears before it is judged.

A rule is judged on several *views* of the same text, so ``c""url … | s""h`` reads as
``curl … | sh``:

- **canonical**: NFKC (full-width ``ｃｕｒｌ`` → ``curl``), look-alike letters from Cyrillic and
  Greek mapped to Latin, invisible characters dropped, inline escapes decoded (``\\x63``,
  ``\\u0063``, ``\\143``), shell quoting removed inside words (``c""url``, ``'cu'rl``, ``c\\url``,
  ``cu$@rl``, ``${IFS}``), line continuations joined and a pipe or ``&&`` split over lines put back
  on one line. Apostrophes of contractions and French elisions are kept, so "don't" and
  "n'exécute" still read as negations.
- **decoded payloads**: every base64, base32, hex or uuencoded run that decodes to text is judged
  on its own.

Nothing here decides anything; :mod:`slowloop.safety.danger` does.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import unicodedata
from urllib.parse import unquote

__all__ = ["canonical", "decoded_payloads", "expanded", "views"]

# Latin look-alikes that NFKC leaves alone (Cyrillic and Greek letters with a Latin twin).
_CONFUSABLES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d",
    "ӏ": "l", "ԛ": "q", "ԝ": "w", "һ": "h", "ь": "b", "г": "r", "п": "n",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "γ": "y", "η": "n", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I",
    "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    "ı": "i", "ȷ": "j", "ʟ": "L", "ɡ": "g", "ᴄ": "c", "ᴜ": "u", "ʀ": "r", "ʜ": "h", "ꜱ": "s",
    "\u2044": "/", "\u2215": "/", "\u29f8": "/", "\uff5c": "|", "\u2223": "|", "\u01c0": "|",
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ",
})
_INVISIBLE = re.compile("[\u00ad\u034f\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069"
                        "\ufeff\U000e0000-\U000e007f\ufe00-\ufe0f\U000e0100-\U000e01ef\u3164\uffa0\u115f\u1160]")
# Dashes and hyphens that stand in for "-" (`‑‑insecure`, `—no-verify`): a long dash glued to a
# word is the two hyphens a word processor made of "--".
_DASH_FLAG = re.compile("(?<![\\w-])[\u2014\u2015](?=[A-Za-z])")
_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d\u2043"})
_FOLD: dict[int, str] | None = None


def _fold_table() -> dict[int, str]:
    """Unicode's confusables (the ``confusable_homoglyphs`` package's copy of the Unicode
    Consortium's table): every letter of another script that looks like an ASCII one, mapped to it.
    Loaded once, only when a text has a character outside ASCII. Accented Latin letters (é, ñ, ü)
    and CJK are words of the eight languages, not disguises: never folded."""
    global _FOLD
    if _FOLD is None:
        table: dict[int, str] = {}
        try:
            from importlib import resources

            raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
            import json

            for ch, alts in json.loads(raw).items():
                if len(ch) != 1 or ord(ch) < 0x250 or _is_cjk(ord(ch)):
                    continue
                ascii_alts = [a["c"] for a in alts if len(a.get("c", "")) == 1 and 0x21 <= ord(a["c"]) < 0x7F]
                if ascii_alts:
                    table[ord(ch)] = ascii_alts[0]
        except (ImportError, OSError, ValueError):  # the package missing: the hand table still runs
            table = {}
        table.update(_by_name())
        _FOLD = table
    return _FOLD


# The scripts of the eight languages' own writing (Han, kana, Hangul, their punctuation and
# half-width forms) are words, never folded; Lisu or Coptic capitals that look like Latin are.
_CJK_BLOCKS = ((0x2E80, 0xA4CF), (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF), (0xFE10, 0xFE1F),
               (0xFE30, 0xFE4F), (0xFF5F, 0xFFEF))


def _is_cjk(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _CJK_BLOCKS)


# Coptic letters are Greek capitals drawn small (ⲁ, ⲏ): read as the Greek capital, then as Latin.
_COPTIC_GREEK = {"ALFA": "ALPHA", "VIDA": "BETA", "EIE": "EPSILON", "ZATA": "ZETA", "HATE": "ETA",
                 "IAUDA": "IOTA", "KAPA": "KAPPA", "MI": "MU", "NI": "NU", "O": "OMICRON", "RO": "RHO",
                 "TAU": "TAU", "UA": "UPSILON", "KHI": "CHI"}


def _by_name() -> dict[int, str]:
    """Letters Unicode's confusables table leaves out, read from their Unicode names: the Latin
    small capitals (``ʙᴀꜱʜ``) and the Coptic letters drawn like Greek capitals (``bⲁsⲏ``)."""
    out: dict[int, str] = {}
    for cp in (*range(0x0250, 0x02B0), *range(0x1D00, 0x1D80), *range(0x2C80, 0x2D00), *range(0xA720, 0xA800)):
        name = unicodedata.name(chr(cp), "")
        m = re.fullmatch(r"LATIN LETTER SMALL CAPITAL ([A-Z])", name)
        if m:
            out[cp] = m.group(1).lower()
            continue
        m = re.fullmatch(r"COPTIC (SMALL|CAPITAL) LETTER ([A-Z]+)", name)
        greek = _COPTIC_GREEK.get(m.group(2)) if m else None
        if m and greek:
            latin = chr(ord(unicodedata.lookup(f"GREEK CAPITAL LETTER {greek}"))).translate(_CONFUSABLES)
            if latin.isascii():
                out[cp] = latin.lower() if m.group(1) == "SMALL" else latin
    return out


def _fold(text: str) -> str:
    if text.isascii():
        return text
    t = text.translate(_DASHES)
    t = _DASH_FLAG.sub("--", t)
    # a word strewn with marks no language of ours writes (f́ïṇi̇s̱h̀: dots below, marks on
    # consonants, a mark on a letter NFKC cannot compose) is read without any of them; a word
    # accented as French or German is (déploie, über) keeps its accents
    t = _STREWN.sub(lambda m: _bare(m.group(0)) if _strewn(m.group(0)) else m.group(0), t)
    # combining marks on an ASCII letter (c̶u̶r̶l̶): the letter is what is read
    t = "".join(c for i, c in enumerate(t) if not (unicodedata.combining(c) and i and t[i - 1].isascii()))
    return t.translate(_fold_table())


_STREWN = re.compile(r"[^\W\d_][\w\u0300-\u036f]*", re.U)
# the marks French, Spanish, Portuguese, Italian and German put on a letter: on a vowel any of
# acute, grave, circumflex, tilde, diaeresis, ring; on c a cedilla, on n a tilde
_PLAIN_MARKS = {"\u0301", "\u0300", "\u0302", "\u0303", "\u0308", "\u030a"}


def _strewn(word: str) -> bool:
    if word.isascii():
        return False
    base = ""
    odd = 0
    for c in unicodedata.normalize("NFD", word):
        if not unicodedata.combining(c):
            base = c
            continue
        if not base.isascii():
            return False  # a mark on a letter of another script is that script's business
        if (base.lower() in "aeiouy" and c in _PLAIN_MARKS) or (base.lower() == "c" and c == "\u0327") \
                or (base.lower() == "n" and c == "\u0303"):
            continue
        odd += 1
    return odd > 0


def _bare(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
_ESCAPES = re.compile(r"\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\([0-3][0-7]{2})")
_CONTINUATION = re.compile(r"\\\r?\n[ \t]*")
_SPLIT_OPERATOR = re.compile(r"[ \t]*(\||&&|\|\|)[ \t]*\r?\n[ \t]*|\r?\n[ \t]*(\||&&)[ \t]*")
_EMPTY_QUOTES = re.compile(r"(?<=\S)(?:\"\"|''|\$''|\$\"\")|(?:\"\"|'')(?=\S)")
# A quote or backslash inside a word: c"ur"l, 'cu'rl, c\url. Contractions (don't, it's) and
# French elisions (n'exécute, l'utilisateur) are words, not quoting.
_CONTRACTION = re.compile(r"(?i)(?<=[a-z])'(?=(?:t|s|re|ll|ve|d|m)\b)|(?<=\b[nldjcmst])'(?=\w)|"
                          r"(?<=\bqu)'(?=\w)")
# strings joined by the language: "cu" "rl" (awk, C), 'cu' + 'rl' (Python, JS), "cu" . "rl" (Perl, PHP)
_JOINED = re.compile(r"(?<=\w)([\"'])\s*[+.]?\s*\1(?=\w)")
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


_PRINTF_WORD = re.compile(r"\$\((?:printf|echo)\s+(?:-e\s+|-n\s+)*['\"]?([\w./-]{1,24})['\"]?\s*\)")
# a run of escapes (`%63%75%72%6c`), or a word holding three or more among its letters
# (`echo%20%24TOKEN%20%7C%20curl`: what `urllib.parse.unquote` hands a shell)
_URL_ENCODED = re.compile(r"(?:%[0-9A-Fa-f]{2}){3,}|[^\s'\"`%]*(?:%[0-9A-Fa-f]{2}[^\s'\"`%]*){3,}")
_ENTITY = re.compile(r"&(?:#\d{2,6}|#x[0-9A-Fa-f]{2,6}|[a-z]{2,8});")


def canonical(text: str) -> str:
    """The text with its disguises undone (see the module docstring)."""
    if _ENTITY.search(text):
        text = html.unescape(text)  # `&#105;&#109;…` and `&lt;` are what they stand for
    if _URL_ENCODED.search(text):
        text = _URL_ENCODED.sub(lambda m: unquote(m.group(0)), text)
    t = unicodedata.normalize("NFKC", text).translate(_CONFUSABLES)
    t = _INVISIBLE.sub("", t)
    t = _fold(t)
    t = t.replace("$'", "'")  # ANSI-C quoting: $'\x63url' is 'curl'
    t = _ESCAPES.sub(_escape, t)
    t = _PRINTF_WORD.sub(lambda m: m.group(1), t)  # `$(printf 'bash') -c …` runs bash
    t = _CONTINUATION.sub("", t)
    t = _SPLIT_OPERATOR.sub(lambda m: f" {m.group(1) or m.group(2)} ", t)
    t = _IFS.sub(" ", t)
    t = _SHELL_NOISE.sub("", t)
    t = _EMPTY_QUOTES.sub("", t)
    t = _JOINED.sub("", t)
    t = _WORD_ESCAPE.sub("", t)
    t = _unquote(t)
    return t


def _printable(raw: bytes) -> str | None:
    # PowerShell's -EncodedCommand is base64 of UTF-16LE: every other byte a NUL
    utf16 = len(raw) >= 8 and raw[1::2].count(0) >= len(raw) // 2 * 0.9
    try:
        s = raw.decode("utf-16-le" if utf16 else "utf-8")
    except UnicodeDecodeError:
        return None
    if len(s) < 6:
        return None
    good = sum(1 for c in s if c.isprintable() or c in "\n\t")
    letters = sum(1 for c in s if c.isalpha())
    # (Chinese and Japanese prose has no spaces: four of its letters make it prose)
    words = " " in s.strip() or sum(1 for c in s if "\u3040" <= c <= "\u9fff") >= 4
    return s if good / len(s) > 0.95 and letters >= 3 and words or (
        good == len(s) and any(w in s for w in ("/", "|", "$", ".sh", "http"))) else None


def _b64(run: str) -> bytes:
    return base64.b64decode(run + "=" * (-len(run) % 4), validate=True)


def _b32(run: str) -> bytes:
    return base64.b32decode(run.rstrip("=") + "=" * (-len(run.rstrip("=")) % 8))


def _b85(run: str) -> bytes:
    try:
        return base64.b85decode(run)
    except ValueError:
        return base64.a85decode(run, adobe=run.startswith("<~"))


_B32_RUN = re.compile(r"(?<![A-Za-z0-9+/=])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9+/=])")
# base85 has no shape of its own: judged only where the text names it, on its quoted runs
_B85_HINT = re.compile(r"\b(?:b85|a85|base85|ascii85|z85)", re.I)
_QUOTED_RUN = re.compile(r"(['\"`])([!-~]{16,}?)\1")
# character codes: chr(99)+chr(117)…, bytes([99, 117, …]), String.fromCharCode(99, 117, …)
_CHR_RUN = re.compile(r"(?:chr\(\s*\d{1,3}\s*\)\s*[+.,]?\s*){4,}", re.I)
_CODE_LIST = re.compile(r"(?<![\d.])\d{2,3}(?:\s*,\s*\d{2,3}){5,}(?![\d.])")
_MORSE_RUN = re.compile(r"(?<![\w.-])[.-]{1,6}(?:(?: | / )[.-]{1,7}){5,}(?![\w.-])")
_MORSE = dict(zip(
    ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- .-- -..- -.-- --.. "
    "----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----. .-.-.- --..-- ---... -..-. -....- ..--.- "
    "-.--. -.--.- .-..-. -...- .--.-.".split(),
    "abcdefghijklmnopqrstuvwxyz0123456789.,:/-_()\"=@", strict=True))


def _codes(run: str) -> str | None:
    nums = [int(n) for n in re.findall(r"\d+", run)]
    return "".join(map(chr, nums)) if all(9 <= n < 127 for n in nums) else None


def _morse(run: str) -> str:
    return " ".join("".join(_MORSE.get(c, "?") for c in w.split()) for w in run.split(" / "))


# a uuencoded block (`uudecode <<'E'` … `begin 755 w` … `end`): each line decodes on its own
_UU_BLOCK = re.compile(r"^begin(?:-base64)?\s+[0-7]{3,4}\s+\S+[ \t]*\n((?:.*\n){1,200}?)end\b", re.M)


def _uudecoded(text: str) -> list[str]:
    out = []
    for m in _UU_BLOCK.finditer(text):
        try:
            raw = b"".join(binascii.a2b_uu(line) for line in m.group(1).splitlines() if line.strip())
        except binascii.Error:
            continue
        s = _printable(raw)
        if s:
            out.append(s)
    return out


def decoded_payloads(text: str, raw: str | None = None) -> list[str]:
    """Text hidden in base64, base32, hex, uuencoded or (where named) base85 runs (``echo Y3VybCB… | base64 -d
    | sh``, ``powershell -EncodedCommand …``), character codes (``chr(99)+chr(117)…``) and Morse."""
    out: list[str] = []
    runs: list[tuple[object, str]] = [(_b64, m.group(0)) for m in _B64_RUN.finditer(text)]
    runs += [(_b32, m.group(0)) for m in _B32_RUN.finditer(text)]
    runs += [(bytes.fromhex, m.group(0)) for m in _HEX_RUN.finditer(text)]
    if _B85_HINT.search(text):  # its runs are quoted in the text as written (``raw``)
        runs += [(_b85, m.group(2)) for m in _QUOTED_RUN.finditer(raw or text)]
    for decode, run in runs:
        try:
            s = _printable(decode(run))  # type: ignore[operator]
        except (binascii.Error, ValueError):
            continue
        if s and s not in out:
            out.append(s)
        if len(out) >= _MAX_PAYLOADS:
            return out
    for m in (*_CHR_RUN.finditer(text), *_CODE_LIST.finditer(text)):
        s = _codes(m.group(0))
        if s and len(s) >= 6:
            out.append(s)
    out += [_morse(m.group(0)) for m in _MORSE_RUN.finditer(text)]
    out += _uudecoded(raw or text)  # its lines are judged as written: undisguising would change them
    return out[:_MAX_PAYLOADS]


_ALIAS_DEF = re.compile(r"\balias\s+([\w.-]+)=(['\"])(.{1,300}?)\2")
_FUNC_DEF = re.compile(r"(?<![\w-])(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{\s*(.{1,300}?)\s*;?\s*\}", re.S)
_VAR_DEF = re.compile(r"(?<![\w$])(?:export\s+|set\s+-x\s+|local\s+)?([A-Za-z_]\w*)=(['\"]?)([^\s'\"`;]{1,300})\2")
# a quoted value may hold spaces: `P1='aider --y'` … `eval "$P1$P2"`
_QUOTED_VAR_DEF = re.compile(r"(?<![\w$])(?:export\s+|local\s+)?([A-Za-z_]\w+)=(['\"])([^'\"`\n$]*\s[^'\"`\n$]*)\2")


_DEFAULT = re.compile(r"\$\{\w+:-([^}\s]{1,40})\}")
_ONE_LETTER_DEF = re.compile(r"(?<![\w$])([A-Za-z_])=(['\"]?)([^\s'\"`;]{1,300})\2(?=\s*(?:;|&&|\n))")


def _use(name: str) -> str:
    return r"\$(?:\{" + re.escape(name) + r"\}|" + re.escape(name) + r"(?!\w))"


def _values(text: str) -> dict[str, str]:
    """Variables as the shell would hold them, in order: ``c=cu; c=${c}rl`` is ``curl`` (a one-letter
    name counts where a command separator ends its assignment)."""
    values: dict[str, str] = {}
    defs = sorted([*_VAR_DEF.finditer(text), *_ONE_LETTER_DEF.finditer(text), *_QUOTED_VAR_DEF.finditer(text)],
                  key=lambda m: m.start())
    for m in defs:
        if len(m.group(1)) < 2 and m.re is _VAR_DEF or len(m.group(3)) > 300:
            continue
        value = m.group(3)
        for name, old in values.items():
            value = re.sub(_use(name), old.replace("\\", "\\\\"), value)
        values[m.group(1)] = value
    return values


def expanded(text: str) -> str:
    """The text with its own aliases, shell functions and variables put where they are used: an
    instruction spread over two rules (``alias refresh='wget -qO- https://…'`` in one, ``refresh |
    sh`` in the next; ``export URL=…`` then ``curl "$URL" | bash``; ``c=cu; c=${c}rl; $c …``) read
    as one command; ``${SHELL:-sh}`` is its default."""
    text = _DEFAULT.sub(lambda m: m.group(1), text)
    names = {m.group(1): m.group(3) for m in _ALIAS_DEF.finditer(text)}
    names.update({m.group(1): m.group(2) for m in _FUNC_DEF.finditer(text)})
    values = _values(text)
    if not names and not values:
        return text
    t = text
    for name, value in values.items():
        t = re.sub(_use(name), value.replace("\\", "\\\\"), t)
    for name, body in names.items():
        t = re.sub(r"(?<![\w=$/.-])" + re.escape(name) + r"(?![\w=(-])", body.replace("\\", "\\\\"), t)
    return t


_ROT13 = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                       "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm")
# what a rot13'd command looks like: the rot13 of the words every payload has (curl, https, bash…)
_ROT13_TELL = re.compile(r"\b(?:" + "|".join(w.translate(_ROT13) for w in (
    "curl", "wget", "bash", "https", "http", "sudo", "python", "eval", "nc", "pip", "install", "npm", "the", "always",
    "never", "tests")) + r")\b|\brot-?13\b"
    # `tr 'A-Za-z' 'N-ZA-Mn-za-m'`: the text says itself how it is to be read
    r"|\btr\s+['\"]?(?:A-Za-z|a-zA-Z)['\"]?\s*['\"]?(?:N-ZA-Mn-za-m|n-za-mN-ZA-M)")
_REVERSED_TELL = re.compile(r"\|\s*rev\b|\[::-1\]|\.reverse\(\)|\bstrrev\b|\bReverse\(|\brevers|\bal\s+rev[ée]s\b|"
                            r"\bà\s+l'envers\b|\bde\s+tr[áa]s\s+para\s+(?:a\s+)?frente\b|\bal\s+contrario\b|\bal\s+rovescio\b|"
                            r"\brückwärts\b|\bvon\s+hinten\b|\bbackwards?\b|倒过来|倒着|反过来读|逆から|逆さ", re.I)
_TR_DELETE = re.compile(r"\btr\s+-d\s+['\"]?([^\s'\"]{1,4})['\"]?")


def _rearranged(canon: str) -> list[str]:
    """The text as a reader told how to decode it would rebuild it: rot13'd (``phey … | onfu``),
    reversed (``'hs | …' | rev``), with the filler ``tr -d`` removes taken out (``c#u#r#l``)."""
    out = []
    if _ROT13_TELL.search(canon):
        out.append(canon.translate(_ROT13))
    if _REVERSED_TELL.search(canon):
        out.append(canon[::-1])
    for m in _TR_DELETE.finditer(canon):
        chars = m.group(1).replace("\\", "")
        if chars and not chars.isalnum():
            out.append(canon[:m.start()].translate({ord(c): None for c in chars}) + canon[m.start():])
    return out


def views(text: str) -> list[str]:
    """The text as written, undisguised, with its own definitions expanded, rebuilt as its decoding
    hint says (rot13, reversed, filler deleted), and every payload it hides (each undisguised too)."""
    seen = [text]
    canon = canonical(text)
    if canon != text:
        seen.append(canon)
    wide = canonical(expanded(text))
    if wide not in seen:
        seen.append(wide)
    for v in _rearranged(canon):
        if v not in seen:
            seen.append(v)
    for payload in decoded_payloads(canon, raw=text):
        for v in (payload, canonical(payload)):
            if v not in seen:
                seen.append(v)
    return seen
