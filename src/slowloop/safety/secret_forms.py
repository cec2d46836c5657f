"""The forms a secret takes beyond one token on one line, for :mod:`.redact`'s pass.

- **judging a value**: :func:`looks_random` (a password or key, not a word, a path, a version or a
  kebab-case name) and :func:`is_dummy` (``…EXAMPLE`` keys, masked ``****`` values, one repeated
  character, a kebab word pair, a placeholder word such as ``password``);
- **prose**: "the staging db password is X", "das Passwort ist X", "la password è X", "密码是 X",
  "パスワードは X", "user ops, password X" — only when X looks random;
- **continuations**: a redacted secret that the syntax continues on the next line (``abc\\``
  then the rest, an unclosed quote, ``"…"`` newline ``"…"`` or ``"…" +``), and YAML block scalars
  (``secret: >-`` then indented lines);
- **string literals**: a random-looking literal handed to a client, init, auth or connect call;
  two literals joined by concatenation read as the one string they make;
- **encoded forms**: a base64 blob whose decoding is text holding a secret, a URL-encoded run or
  an HTML-escaped line holding one (decoded, redacted and left readable).

Every scan starts from a literal (a marker, a keyword, ``%``) or is one linear character-class
run, so the pass stays linear.
"""

from __future__ import annotations

import base64
import binascii
import html
import json
import re
import zlib
from collections import Counter
from collections.abc import Callable
from urllib.parse import unquote

__all__ = ["looks_random", "is_dummy", "is_reference", "prose_spans", "block_scalar_span", "continue_markers",
           "decode_encoded", "call_literals", "CALL_ARGS", "join_concatenated", "rebuilt_literals"]

MARK = "[REDACTED:"

# --- judging a value ----------------------------------------------------------------------------

_DUMMY_WORDS = frozenset({"password", "passwd", "pass", "pwd", "pw", "secret", "changeme",
                          "example", "test", "dummy", "token", "apikey", "letmein"})
_KEBAB_PAIR = re.compile(r"[a-z]+-[a-z]+")
_VERSION = re.compile(r"v?\d+(?:\.\d+)+(?:[-+.][A-Za-z0-9.]+)?")
_FILENAME = re.compile(r"[\w.-]+\.(?:[a-z]{1,5})")
_SEGMENTS = re.compile(r"[-_./:]")
_ALPHABET_RUN = re.compile(r"(?i)abcdef|012345|qwerty")
_STRONG_SYMBOLS = frozenset("!#$%^&*+=~?|")  # what a password has and a name does not


def is_dummy(value: str) -> bool:
    """A value that stands for a secret without being one: AWS's documented ``…EXAMPLE`` keys,
    an already masked ``sk-proj-****…``, ``ghp_xxxx…`` (one repeated character), ``test-token``
    (a kebab word pair), ``password`` or ``secret`` as a placeholder word."""
    v = value.strip("\"'")
    if "EXAMPLE" in v or "****" in v or "•••" in v or v.endswith(("...", "…")):
        return True  # the docs' example, a masked value, "AIzaSy..." cut short on purpose
    if v[:1] == "[" and v[-1:] == "]" and v[1:-1].isalpha():
        return True  # [FILTERED], [HIDDEN]: a framework's own mask
    if len(v) >= 12 and len(set(v[4:])) <= 1:
        return True
    tail = _SEGMENTS.split(v)[-1]
    if len(tail) >= 8 and len(set(tail.lower())) <= 1:
        return True  # sk_live_xxxxxxxx…: a vendor prefix then one repeated character
    if _YOUR.search(v):
        return True  # xoxb-your-bot-token, <your-api-key>
    return bool(_KEBAB_PAIR.fullmatch(v)) or v.lower() in _DUMMY_WORDS


_YOUR = re.compile(r"(?i)(?:^|[-_])your[-_]")
# a reference to where a secret is kept, not the secret: op://vault/item/field, an ARN,
# vault:secret/data/app#password, $(cat /run/secrets/db_password)
_REFERENCE = re.compile(r"^(?:[a-z][a-z0-9+.-]{1,15}://[^\s]*/|arn:[a-z-]+:|vault:[\w/-]+|\$\((?!\s*(?:echo|printf)\b))")


def is_reference(value: str) -> bool:
    return bool(_REFERENCE.match(value.strip("\"'")))


# user@example.com, git@github.com:org/repo, deploy@web1, ci-bot@build-03.int: an address, not a secret
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+(?::[\w./~-]*)?|[a-z0-9][\w.-]*@[a-z0-9][a-z0-9.-]*(?::[\w./~-]*)?")


def looks_random(value: str, min_len: int = 8) -> bool:
    """``x2DvV.RsiE^S01fj5B``, ``zIcijZFYfJr8o3IhcR05uk``, 32 hex digits: yes. ``stored``,
    ``my-service-v2``, ``/etc/app.conf``, ``1.4.2-rc1``, ``user@example.com``, ``deploy.yaml``,
    ``rng.normal(size=(2``: no."""
    if len(value) < min_len or is_dummy(value) or MARK in value:
        return False
    if value[:1] == "." and value[1:2] not in ("/", ".") and "/" not in value and len(value) > min_len:
        return looks_random(value[1:], min_len)  # ".lWvLyez8C7WUE~F#m": a password may start with a dot
    if value.startswith(("/", "~", ".", "$", "%", "{", "<", "http", "@")) or "://" in value \
            or "@" in value and _ADDRESS.fullmatch(value.strip("\"'`,;")) \
            or "(" in value or "[" in value:  # a path, a URL, an address, a call or an index
        # (an `@` inside a password — `DKC@7POXW1xQtiU`, `i@Sg^ErhG$8T5jO` — is no address)
        return False
    if _VERSION.fullmatch(value) or (_FILENAME.fullmatch(value) and not any(c.isupper() for c in value)):
        return False
    lower = any(c.islower() for c in value)
    upper = any(c.isupper() for c in value)
    digit = any(c.isdigit() for c in value)
    strong = any(c in _STRONG_SYMBOLS for c in value)
    if not (lower or upper) or not (digit or strong):
        return False
    # every part a word or a number ("release-2024-candidate", "api_v2") is a name, not a secret
    parts = [p for p in _SEGMENTS.split(value) if p]
    if all(p.isalpha() or p.isdigit() or len(p) <= 3 for p in parts):  # "Llama-3-70B-Instruct" too
        return False
    if _ALPHABET_RUN.search(value):
        return False  # "ABCDEFGHIJ…0123456789": an alphabet spelled out, not a key
    if (upper and lower and digit) or (digit and strong) or (upper and lower and strong and len(value) >= 10):
        return True
    # one case and digits (hex, upper-case ids): long and mixed all along, not "v2:stage0key"
    flips = sum(1 for a, b in zip(value, value[1:], strict=False)
                if a.isalnum() and b.isalnum() and a.isdigit() != b.isdigit())
    return len(value) >= 12 and flips >= 4


# --- prose --------------------------------------------------------------------------------------

# The word, a few words of gap ("the staging db password for the replica") and a copula in one of
# ten languages, or the word right before the value ("user ops, password X"). Found from literal
# hits in the lower-cased text.
_PROSE_WORDS = {"password": "password", "passwort": "password", "kennwort": "password",
                "mot de passe": "password", "contraseña": "password", "senha": "password",
                "wachtwoord": "password", "пароль": "password",
                "密码": "password", "口令": "password", "パスワード": "password",
                "token": "token", "トークン": "token", "令牌": "token",
                "secret": "secret", "密钥": "secret", "api key": "api_key", "api-key": "api_key",
                "access key": "api_key",
                "mật khẩu": "password", "kata sandi": "password", "heslo": "password", "hasło": "password",
                "şifre": "password", "şifresi": "password", "비밀번호": "password", "암호": "password",
                "पासवर्ड": "password", "كلمة المرور": "password", "كلمة السر": "password", "lösenord": "password",
                "lösenordet": "password", "passord": "password", "adgangskode": "password", "salasana": "password",
                "jelszó": "password", "parola": "password", "pw": "password", "キー": "api_key", "비밀 키": "secret",
                # the inflected and definite forms (jelszava, adgangskoden, passordet), and more languages
                "jelszava": "password", "adgangskoden": "password", "passordet": "password", "contrasenya": "password",
                "clave": "password", "palavra-passe": "password", "κωδικός": "password", "סיסמה": "password",
                "รหัสผ่าน": "password", "密碼": "password", "金鑰": "secret", "токен": "token", "ключ": "api_key",
                "clé": "api_key", "chiave": "api_key", "passphrase": "password", "recovery code": "password",
                "pass": "password", "mdp": "password", "passwd": "password", "pwd": "password",
                "パスフレーズ": "password", "暗証番号": "password", "口令码": "password",
                "chave": "api_key", "chave da api": "api_key", "clave de la api": "api_key", "schlüssel": "api_key"}
# (a dot inside a word is no sentence end: "senha do certificado .pfx: …"; a copula may take an
# adverb: "lautet jetzt", "c'est maintenant"; a value changed to: "mudou pra", "改成")
_PROSE_TAIL = (r"(?:(?:[^\n.:=()\[\]{}\"]|\.(?=\w)){0,40}?(?:\s(?:is|was|ist|lautet|est|c['’]est|es|era|é|è|és|sera|will be|"
               r"là|je|to|jest|är|er|on|adalah|este|είναι|היא|הוא|quedó en|هي|هو|mudou pra|mudou para|passou a ser|"
               r"changed to|now is|ist jetzt|è ora|es ahora|é agora|est maintenant)"
               r"(?:\s+(?:now|jetzt|maintenant|ora|ahora|agora|adesso|desormais|désormais))?\s+|\s?[:：]\s*|"
               r"\s?(?:是|为|は|：|는|은|คือ|改成|改为|换成|变成|改成了)\s*)|[^\n.:=()\[\]{}\"]{0,40}?\.\s+it(?:'s|’s|\s+is)\s+|[ \t]+)[\"'`«“]?([^\s\"'`»”。、，\[\]{}()<>,;]{8,})(?=[\s\"'`»”。、，,;)]|$)")
# one pattern per word, each starting with its literal (run over the lower-cased text: fast)
_PROSE = [(kind, re.compile(re.escape(word) + (r"s?(?![a-z])" if word.isascii() else "") + _PROSE_TAIL), word == "pass")
          for word, kind in _PROSE_WORDS.items()]
_TRAILING = ".,;:!?)]}>"


def prose_spans(text: str, lowered: str) -> list[tuple[int, int, str]]:
    """Spans (start, end, kind) of random-looking values a sentence names as a password, token,
    secret or key: "your access token is zIcijZFYfJr8o3IhcR05uk"."""
    spans: list[tuple[int, int, str]] = []
    for kind, rx, common in _PROSE:
        for m in rx.finditer(lowered):
            at = m.start()
            if at and (lowered[at - 1].isalnum() or lowered[at - 1] in ":/.") and lowered[at].isascii():
                continue  # the tail of another word, or a piece of an identifier (arn:…:secret:…)
            vs, ve = m.span(1)
            while ve > vs and text[ve - 1] in _TRAILING:
                ve -= 1
            value = text[vs:ve]
            # "pass" is a common word ("tests pass 4f2a9c81d7e3"): only a value no digest or id could be
            if looks_random(value) and (not common or any(c in _STRONG_SYMBOLS for c in value)
                                        or (value.lower() != value and value.upper() != value)):
                spans.append((vs, ve, kind))
    spans += _phrase_spans(text, lowered)
    spans += _user_pass_spans(text, lowered)
    return spans


# "login do painel: admin / X", "zugang zum jenkins: admin / X", "ログイン情報: admin / X": a
# sign-in named, then user / password
_USER_PASS = re.compile(
    r"(?:login|log-?in|sign-?in|credentials|creds|zugang|zugangsdaten|anmeldung|identifiants|connexion|accesso|credenziali|"
    r"acesso|credenciais|acceso|credenciales|登录|登陆|账号|ログイン|認証情報|アカウント)"
    r"[^\n]{0,40}?(?<![\w/])[\w.@+-]{2,40}\s+/\s+([^\s\"'`,;]{8,})")


def _user_pass_spans(text: str, lowered: str) -> list[tuple[int, int, str]]:
    if " / " not in text:
        return []
    out = []
    for m in _USER_PASS.finditer(lowered):
        vs, ve = m.span(1)
        while ve > vs and text[ve - 1] in _TRAILING:
            ve -= 1
        if looks_random(text[vs:ve]):
            out.append((vs, ve, "password"))
    return out


# a passphrase of words: diceware (four or more joined by "-" or "."), or a wallet's seed phrase
# (twelve to twenty-four words), where the sentence names it so
_PHRASE = re.compile(r"(?:passphrase|pass phrase|seed phrase|recovery phrase|mnemonic|seed words)s?\b"
                     r"[^\n.:=\"]{0,60}?(?:\s(?:is|was)\s+|\s?[:：]\s*)[\"'`]?"
                     r"([a-z]{3,10}(?:(?:[-.][a-z]{3,10}){3,9}|(?: [a-z]{3,10}){11,23}))(?![\w-])")


def _phrase_spans(text: str, lowered: str) -> list[tuple[int, int, str]]:
    if "phrase" not in lowered and "mnemonic" not in lowered and "seed words" not in lowered:
        return []
    return [(*m.span(1), "password") for m in _PHRASE.finditer(lowered)
            if not _PHRASE_STOPWORDS.intersection(re.split(r"[-. ]", m.group(1)))]


# words of a sentence, not of a passphrase: "see-the-team-vault" points somewhere
_PHRASE_STOPWORDS = frozenset({"the", "and", "for", "see", "use", "our", "your", "from", "with", "this", "that",
                               "are", "was", "not", "its", "has", "have", "here", "there", "where"})


# --- continuations ------------------------------------------------------------------------------

_BLOCK_INDICATOR = re.compile(r"[|>][+-]?[1-9]?[+-]?")
_LINE_NO = re.compile(r"^[ \t]*\d+→")  # Claude Code's line number on a file read


def block_scalar_span(text: str, key_line_start: int, value_start: int, value_end: int
                      ) -> tuple[int, int] | None:
    """``secret_access_key: >-`` then lines indented deeper than the key: the span of those lines
    (the YAML block scalar is the value, not ``>-``). None when the value is not a block indicator."""
    if not _BLOCK_INDICATOR.fullmatch(text[value_start:value_end]):
        return None
    nl = text.find("\n", value_end)
    if nl < 0 or text[value_end:nl].strip(" \t\r"):
        return None
    line = _LINE_NO.sub("", text[key_line_start:value_start], count=1)
    indent = len(line) - len(line.lstrip(" -"))
    start = end = -1
    pos = nl + 1
    while pos < len(text):
        stop = text.find("\n", pos)
        stop = len(text) if stop < 0 else stop
        numbered = text[pos:stop]
        row = _LINE_NO.sub("", numbered, count=1)
        pos += len(numbered) - len(row)  # a file read's "    4→" is not the value's indentation
        if row.strip() and len(row) - len(row.lstrip(" ")) <= indent:
            break
        if row.strip():
            if start < 0:
                start = pos + len(row) - len(row.lstrip(" "))
            end = pos + len(row.rstrip(" \r"))
        pos = stop + 1
    if start < 0 or MARK in text[start:end]:
        return None
    return start, end


_TAIL = r"[A-Za-z0-9+/=_.~-]{4,}"
_CONTINUED = re.compile(
    r"\[REDACTED:(\w+)\](?:"
    r"(\\\r?\n(?:[ \t]*\d+→)?)(" + _TAIL + r")(?![^\s\"'])"  # shell: TOKEN=abc\ newline rest
    r"|([\"'])([ \t]*\+?[ \t]*\\?\r?\n(?:[ \t]*\d+→)?[ \t]*\+?[ \t]*)([\"'])(" + _TAIL + r")"
    r"(?=[\"'](?![ \t]*:))"  # "a" "b", "a" + "b" (not a quoted key on the next line)
    r"|(\r?\n[ \t]*)(" + _TAIL + r")(?=[\"'])"  # an unclosed quote runs on to the next line
    r")")


def _continued(m: re.Match[str]) -> str:
    kind = m.group(1)
    marker = f"{MARK}{kind}]"
    if m.group(2):
        return marker + m.group(2) + marker
    if m.group(4):
        if m.group(4) != m.group(6):
            return m.group(0)
        return marker + m.group(4) + m.group(5) + m.group(6) + marker
    quote_line = m.string[m.string.rfind("\n", 0, m.start()) + 1:m.start()]
    if not any(quote_line.count(q) % 2 for q in "\"'") or m.string[m.end()] not in quote_line:
        return m.group(0)
    return marker + m.group(8) + marker


def continue_markers(text: str) -> str:
    """Redact the lines that the syntax says continue a redacted secret. The continuation is the
    same secret, so it is not counted again."""
    if MARK not in text:
        return text
    for _ in range(4):  # a secret cut into three or four pieces
        new = _CONTINUED.sub(_continued, text)
        if new == text:
            break
        text = new
    return text


# --- string literals: handed to a call, or split by concatenation -----------------------------

CALL_ARGS = re.compile(r"\(([^()\n]{16,400})\)")
_CALL_SUFFIXES = ("client", "init", "login", "connect", "credential", "credentials", "algoliasearch", "sdk")
_LITERAL = re.compile(r"([\"'])([A-Za-z0-9+/=_-]{16,200})\1")


def call_literals(m: re.Match[str], counts: Counter) -> str:
    """In the arguments of a client, init, auth, login or connect call (or ``new Vendor(…)``),
    the string literals that look random: ``rollbar.init("<32 hex>")``, ``new CosmosClient(url,
    "…==")``, ``algoliasearch('APPID', '<32 hex>')``."""
    text, pos = m.string, m.start()
    s = pos
    while s > 0 and pos - s < 60 and (text[s - 1].isalnum() or text[s - 1] in "_$"):
        s -= 1
    name = text[s:pos].lower()
    if not (name.endswith(_CALL_SUFFIXES) or "auth" in name or "connect" in name
            or text[max(0, s - 4):s] == "new "):
        return m.group(0)

    def literal(lit: re.Match[str]) -> str:
        if not looks_random(lit.group(2), 16):
            return lit.group(0)
        counts["api_key"] += 1
        return f"{lit.group(1)}{MARK}api_key]{lit.group(1)}"
    return _LITERAL.sub(literal, m.group(0))


_CONCAT = re.compile(r"([\"'])([A-Za-z0-9+/=_.~-]{4,})\1([ \t]*\+?[ \t]*\\?\r?\n(?:[ \t]*\d+→)?[ \t]*\+?[ \t]*)"
                     r"([\"'])([A-Za-z0-9+/=_.~-]{4,})\4(?![ \t]*:)")


def join_concatenated(text: str, counts: Counter, inner: Inner) -> str:
    """``"AIzaSy…" +`` newline ``"…"``, ``"LTAI5t…"`` newline ``"…"``: read the two pieces as the
    one string they make (with the line's name in front); redact both when that is a secret."""
    def pair(m: re.Match[str]) -> str:
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        found = inner(f"{line}{m.group(1)}{m.group(2)}{m.group(5)}{m.group(1)}")[1]
        if not found:
            return m.group(0)
        kind = next(iter(found))
        counts[kind] += 1
        marker = f"{MARK}{kind}]"
        return f"{m.group(1)}{marker}{m.group(1)}{m.group(3)}{m.group(4)}{marker}{m.group(4)}"
    return _CONCAT.sub(pair, text)


# Strings the code itself rebuilds, so no piece as written is the secret:
# a literal reversed ('…'.split('').reverse().join(''), "…"[::-1], strrev('…'), "…".reverse)
_REVERSED = re.compile(r"\b(?:strrev|reverse|Reverse)\(\s*(?P<q>[\"'])(?P<v>[^\"'\s\\]{12,200})(?P=q)(?=\s*\))|"
                       r"(?P<q2>[\"'])(?P<v2>[^\"'\s\\]{12,200})(?P=q2)(?=\s*(?:\.split\(\s*([\"'])\5\s*\)\s*"
                       r"\.reverse\(\)|\[::-1\]|\.reverse\b))")
# an array of pieces joined: ['xoxb', '7667…', …].join('-'), "-".join(["…", "…"])
_ARRAY_JOIN = re.compile(r"\[\s*((?:([\"'])[^\"'\n\\]{1,80}\2\s*,\s*){1,12}([\"'])[^\"'\n\\]{1,80}\3)\s*,?\s*\]"
                         r"\s*\.join\(\s*(?:([\"'])([^\"'\n]{0,3})\4)?\s*\)")
_JOIN_ARRAY = re.compile(r"([\"'])([^\"'\n]{0,3})\1\s*\.join\(\s*\[\s*((?:([\"'])[^\"'\n\\]{1,80}\4\s*,\s*){1,12}"
                         r"([\"'])[^\"'\n\\]{1,80}\5)\s*,?\s*\]\s*\)")
_PIECE = re.compile(r"([\"'])([^\"'\n\\]{1,80})\1")
# pieces in variables, then used together: a = "ghp_…"; b = "…"; token = a + b (or f"{a}{b}", "$A$B")
_PIECE_DEF = re.compile(r"(?m)^[ \t]*(?:(?:const|let|var|final|String|export|local)[ \t]+)?([A-Za-z_]\w{0,40})"
                        r"[ \t]*(?::[ \t]*\w+[ \t]*)?:?=[ \t]*([\"'])([A-Za-z0-9+/=_.~-]{3,120})\2[ \t]*;?[ \t]*$")
_PIECE_LIKE = re.compile(r"[0-9_-]|[a-z][A-Z]|[A-Z]{2}[a-z]")
_PIECE_USE = re.compile(r"\$?\{?([A-Za-z_]\w{0,40})\}?")


def rebuilt_literals(text: str, counts: Counter, inner: Inner) -> str:
    """Redact the literals of a string the code rebuilds when what it rebuilds is a secret: a
    reversed literal (read reversed: a token, or anything random), pieces of an array joined, and
    pieces held in variables and then joined (``a + b``, ``f"{a}{b}"``, ``"$A$B"``)."""
    if "reverse" in text or "[::-1]" in text or "strrev" in text or "Reverse" in text:
        def reversed_(m: re.Match[str]) -> str:
            q, v = (m.group("q"), m.group("v")) if m.group("q") else (m.group("q2"), m.group("v2"))
            line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
            found = inner(f"{line}{q}{v[::-1]}{q}")[1]
            if not found and not looks_random(v[::-1], 16):
                return m.group(0)
            kind = next(iter(found), "secret")
            counts[kind] += 1
            return m.group(0).replace(q + v + q, f"{q}{MARK}{kind}]{q}", 1)
        text = _REVERSED.sub(reversed_, text)
    if ".join(" in text:
        def joined(m: re.Match[str], pieces_at: int, sep_at: int) -> str:
            pieces = [p.group(2) for p in _PIECE.finditer(m.group(pieces_at))]
            line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
            found = inner(f"{line}\"{(m.group(sep_at) or '').join(pieces)}\"")[1]
            if not found:
                return m.group(0)
            kind = next(iter(found))
            counts[kind] += 1
            body = _PIECE.sub(lambda p: f"{p.group(1)}{MARK}{kind}]{p.group(1)}", m.group(pieces_at))
            return m.group(0).replace(m.group(pieces_at), body, 1)
        text = _ARRAY_JOIN.sub(lambda m: joined(m, 1, 5), text)
        text = _JOIN_ARRAY.sub(lambda m: joined(m, 3, 2), text)
    return _joined_variables(text, counts, inner)


def _joined_variables(text: str, counts: Counter, inner: Inner) -> str:
    # a piece of a key has a digit, mixed case or a "_"/"-" in it; "hello" and "world" are words
    defs = {m.group(1): m for m in _PIECE_DEF.finditer(text) if _PIECE_LIKE.search(m.group(3))}
    if len(defs) < 2:
        return text
    hits: dict[str, str] = {}
    tried: set[str] = set()
    for line in text.splitlines():
        used = [u.group(1) for u in _PIECE_USE.finditer(line) if u.group(1) in defs]
        if len(set(used)) < 2 or any(line.count(defs[u].group(3)) for u in used):
            continue  # fewer than two pieces, or the line that defines one
        whole = "".join(defs[u].group(3) for u in used)
        if len(whole) < 16 or whole in tried:
            continue  # too short for a secret, or read already (the same pieces joined again)
        tried.add(whole)
        target = line.split("=", 1)[0].strip() if "=" in line else "value"
        found = inner(f"{target} = \"{whole}\"")[1]
        if found:
            kind = next(iter(found))
            counts[kind] += 1
            hits.update({u: kind for u in used})
    if not hits:
        return text
    pieces, last = [], 0
    for name, m in sorted(((n, defs[n]) for n in hits), key=lambda nm: nm[1].start(3)):
        pieces += [text[last:m.start(3)], f"{MARK}{hits[name]}]"]
        last = m.end(3)
    pieces.append(text[last:])
    return "".join(pieces)


# --- encoded forms ------------------------------------------------------------------------------

_B64_RUN = re.compile(r"[A-Za-z0-9+/]{32,}={0,2}")
_URL_ESCAPE = re.compile(r"%[2-7][0-9A-Fa-f]")
_URL_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%._~+-")

Inner = Callable[[str], tuple[str, Counter]]


def _printable(raw: bytes) -> str | None:
    try:
        s = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return s if all(c.isprintable() or c in "\n\r\t" for c in s) else None


def _base64_text(blob: str) -> str | None:
    try:
        raw = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    if raw[:2] == b"\x1f\x8b":  # gzip -c .env | base64: the text inside
        try:
            raw = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, 1 << 20)
        except zlib.error:
            return None
    return _printable(raw) if len(raw) >= 16 else None


_JOIN = "\n\x00\n"  # between decoded pieces read in one pass; no rule matches across it
_HTML_QUOTES = ("&quot;", "&#34;", "&#39;", "&apos;")


def _read_all(pieces: list[str], inner: Inner) -> tuple[list[str], Counter]:
    """Redact many decoded pieces with one pass of ``inner`` (a page of thousands of URL-encoded
    runs costs one pass, not thousands): each piece redacted, and what was found."""
    if not pieces:
        return pieces, Counter()
    out, found = inner(_JOIN.join(pieces))
    if not found:
        return pieces, found
    parts = out.split(_JOIN)
    if len(parts) != len(pieces):  # a rule ran across the joins after all: one by one
        parts = [inner(p)[0] for p in pieces]
    return parts, found


_SECRET_WORDS = ("pass", "pwd", "secret", "token", "key", "credential", "auth", "psk", "sess", "sig")


def _names_a_secret(plain: str) -> bool:
    """What escaping can hide is the structure around a secret (quotes, ``:``, ``@``, ``=``), not a
    token's own shape, which the outer pass already saw: so only a decoded piece that names a
    secret or carries a URL's user is read again."""
    low = plain.lower()
    return any(w in low for w in _SECRET_WORDS) or ("://" in plain and "@" in plain)


def _splice(text: str, spans: list[tuple[int, int]], new: list[str]) -> str:
    pieces, last = [], 0
    for (s, e), piece in zip(spans, new, strict=True):
        pieces.append(text[last:s])
        pieces.append(piece)
        last = e
    pieces.append(text[last:])
    return "".join(pieces)


def decode_encoded(text: str, counts: Counter, inner: Inner) -> str:
    """Redact a base64 blob whose decoding holds a secret (a base64'd ``.env``, a
    ``.dockerconfigjson``), and decode a URL-encoded run or an HTML-escaped line holding one,
    redacted in place. ``inner`` is the redaction pass for the decoded text."""
    spans, decoded = _base64_blobs(text)
    parts, _found = _read_all(decoded, inner)
    hits = [i for i, (a, b) in enumerate(zip(decoded, parts, strict=True)) if a != b]
    if hits:
        counts["base64_secret"] += len(hits)
        text = _splice(text, [spans[i] for i in hits], [f"{MARK}base64_secret]"] * len(hits))
    for finder, encode in ((_json_strings, _json_encode), (_url_runs, None), (_html_lines, None),
                           (_escaped_lines, None)):
        spans, decoded = finder(text)
        parts, found = _read_all(decoded, inner)
        hits = [i for i, (a, b) in enumerate(zip(decoded, parts, strict=True)) if a != b]
        if hits:
            counts.update(found)
            text = _splice(text, [spans[i] for i in hits], [encode(parts[i]) if encode else parts[i] for i in hits])
    return text


# a JSON string holding code or a file (a tool's "content", "new_string"): its escapes (\n, \")
# hide the lines and quotes every other rule reads; read decoded, put back encoded
_JSON_STRING = re.compile(r'"((?:[^"\\\n]|\\.){24,})"')


def _json_strings(text: str) -> tuple[list[tuple[int, int]], list[str]]:
    spans: list[tuple[int, int]] = []
    decoded: list[str] = []
    if '\\"' not in text and "\\n" not in text:
        return spans, decoded
    for m in _JSON_STRING.finditer(text):
        body = m.group(1)
        if '\\"' not in body and "\\n" not in body:
            continue
        try:
            plain = json.loads(m.group(0))
        except ValueError:
            continue
        if isinstance(plain, str):
            spans.append(m.span(1))
            decoded.append(plain)
    return spans, decoded


def _json_encode(plain: str) -> str:
    return json.dumps(plain, ensure_ascii=False)[1:-1]


# a line spelling characters as escapes ("\x73\x6b\x2d…", "\u0070\u0061…"): four or more of them
_ESCAPE = re.compile(r"\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})")


def _escaped_lines(text: str) -> tuple[list[tuple[int, int]], list[str]]:
    spans: list[tuple[int, int]] = []
    decoded: list[str] = []
    if "\\x" not in text and "\\u" not in text:
        return spans, decoded
    pos = 0
    for line in text.split("\n"):
        if len(_ESCAPE.findall(line)) >= 4:
            plain = _ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), line)
            if plain.isprintable():
                spans.append((pos, pos + len(line)))
                decoded.append(plain)
        pos += len(line) + 1
    return spans, decoded


def _base64_blobs(text: str) -> tuple[list[tuple[int, int]], list[str]]:
    spans: list[tuple[int, int]] = []
    decoded: list[str] = []
    for m in _B64_RUN.finditer(text):
        s, e = m.span()
        if (s and text[s - 1] in "-_.") or text[e:e + 1] in ("-", "_", "."):
            continue  # part of a longer url-safe token or a JWT
        plain = _base64_text(m.group(0))
        if plain is not None:  # not an image, a checksum or a key's binary
            spans.append((s, e))
            decoded.append(plain)
    return spans, decoded


def _url_runs(text: str) -> tuple[list[tuple[int, int]], list[str]]:
    spans: list[tuple[int, int]] = []
    decoded: list[str] = []
    if "%" not in text:
        return spans, decoded
    done = 0
    for m in _URL_ESCAPE.finditer(text):
        if m.start() < done:
            continue  # inside a run already read
        s, e = m.start(), m.end()
        while s > done and text[s - 1] in _URL_RUN_CHARS:
            s -= 1
        while e < len(text) and text[e] in _URL_RUN_CHARS:
            e += 1
        done = e
        plain = unquote(text[s:e])
        if _names_a_secret(plain):
            spans.append((s, e))
            decoded.append(plain)
    return spans, decoded


def _html_lines(text: str) -> tuple[list[tuple[int, int]], list[str]]:
    """Lines of HTML-escaped JSON or code (``{&quot;DB_PASSWORD&quot;: &quot;…&quot;}``)."""
    spans: list[tuple[int, int]] = []
    decoded: list[str] = []
    if not any(q in text for q in _HTML_QUOTES):
        return spans, decoded
    pos = 0
    for line in text.split("\n"):
        if any(q in line for q in _HTML_QUOTES) and _names_a_secret(plain := html.unescape(line)):
            spans.append((pos, pos + len(line)))
            decoded.append(plain)
        pos += len(line) + 1
    return spans, decoded
