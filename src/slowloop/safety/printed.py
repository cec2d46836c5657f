"""Secrets no name or shape gives away, found by what printed them or by the column they sit in.

- **printed by a command**: the output of ``op read``, ``vault kv get -field=…``, ``aws
  secretsmanager get-secret-value``, ``gcloud secrets versions access``, ``doppler secrets get
  --plain``, ``bw get password``, ``kubectl get secret … | base64 -d``, ``printenv DB_PASSWORD``,
  ``echo $API_KEY``, ``cat ~/.vault_pass`` (a file whose name says it holds one) is the bare value,
  on its own line under the command (``$ …``, ``PS …>``). A table of such commands, not code: each
  row says which output is the secret.
- **a column named as a secret**: a Markdown or CSV table whose header names a password, token or
  secret column: that column's cells.

A value is still judged: at least 8 characters, a letter and a digit or symbol, not a path, URL,
placeholder or reference, so ``printenv HOME`` and a listing of names stay readable.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .secret_forms import MARK, is_dummy, is_reference, looks_random

__all__ = ["printed_spans", "table_spans", "SECRET_COMMANDS"]

# (hint, pattern on the command line): the command prints a secret as its output. The hint is a
# literal the pass looks for first, so a text with none of them costs one substring test each.
SECRET_COMMANDS: list[tuple[str, re.Pattern[str]]] = [(h, re.compile(p)) for h, p in [
    ("op ", r"\bop\s+(?:read|item\s+get\b.*--(?:fields?|reveal))\b"),  # 1Password
    ("vault ", r"\bvault\s+(?:kv\s+get|read|write)\b.*-field[= ]"),  # HashiCorp Vault
    ("vault ", r"\bvault\s+operator\s+(?:init|generate-root)\b"),
    ("secretsmanager", r"\bsecretsmanager\s+get-secret-value\b"),
    ("ssm ", r"\bssm\s+get-parameters?\b.*--with-decryption"),
    ("secrets versions access", r"\bsecrets\s+versions\s+access\b"),  # gcloud
    ("keyvault secret show", r"\bkeyvault\s+secret\s+show\b"),  # az
    ("--plain", r"\b(?:doppler|infisical)\s+secrets\s+get\b.*--plain"),
    ("bw get", r"\bbw\s+get\s+(?:password|totp|notes|item)\b"),  # Bitwarden
    ("lpass show", r"\blpass\s+show\b"),
    ("pass", r"^(?:gopass|pass)\s+(?:show\s+)?[\w.@/-]+\s*$"),  # pass, gopass
    ("find-", r"\bsecurity\s+find-(?:generic|internet)-password\b.*\s-w\b"),  # macOS keychain
    ("config:get", r"\bheroku\s+config:get\b"),
    ("sops", r"\bsops\s+(?:-d|--decrypt)\b.*--extract"),
    ("chamber read", r"\bchamber\s+read\b"),
    ("secret", r"\bkubectl\b.*\bsecrets?\b.*(?:base64\s+(?:-d|--decode|-D)|\{\.data\.)"),
    ("ase64", r"FromBase64String|\bbase64\s+(?:-d|--decode|-D)\b"),  # a decoded value printed
    ("openssl rand", r"\bopenssl\s+rand\b"),  # a secret made for the occasion
    ("pwgen", r"\bpwgen\b"),
    ("token_", r"\bsecrets\.token_(?:hex|urlsafe|bytes)\b"),
    ("terraform output", r"\bterraform\s+output\s+-raw\s+\S*(?i:pass|secret|token|key|pwd|credential)"),
]]
# printenv NAME / echo $NAME / cat FILE: the name or the file says it holds a secret
_PRINTENV = re.compile(r"\b(?:printenv|echo)\s+[\"']?\$?\{?([A-Za-z_][A-Za-z0-9_]*)\}?[\"']?\s*$")
# printf %s "$AWS_SECRET_ACCESS_KEY" | xxd -p: a secret variable printed encoded
_ENCODED = re.compile(r"\b(?:printf\s+(?:['\"]?%s['\"]?\s+)?|echo\s+(?:-n\s+)?)[\"']?\$\{?([A-Za-z_]\w*)\}?[\"']?\s*"
                      r"\|\s*(?:xxd|base64|od|hexdump|basenc|base32)\b[^|;&\n]*$")
_CAT = re.compile(r"\b(?:cat|type|Get-Content|gc|more|less|head|tail)\s+([^|;&\n]+)$")
_SECRET_FILE = re.compile(
    r"(?i)(?:pass|pwd|secret|token|cred|recovery|master\.key|keyfile|\.key$|userlist|sasl|psk|\.netrc|auth|"
    r"apikey|api_key|cookie)")
_PUBLIC_FILE = re.compile(r"(?i)\.(?:pub|crt|cer|pem\.pub|asc|sig|lock|sum|sha\d*|md5)$|known_hosts|authorized_keys|"
                          r"SUMS|public|cert|passwd$|/etc/group|\.log$|\.(?:py|js|ts|go|rb|java|md|html|ya?ml|json|toml|ini|conf|cfg|env|xml)$")
# the prompt a command line starts with in a transcript or a pasted terminal
# a CI log's timestamp before each line (GitHub Actions: "2026-11-30T10:24:26.8839144Z ")
_CI_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z[ \t]")
_PROMPT = re.compile(r"^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z[ \t])?[ \t]*(?:\$|%|#|>|❯|➜|PS[^>\n]{0,80}>|[\w.@-]+[:@][^\n$#>]{0,60}[$#>])[ \t]*(?:sudo\s+(?:-\S+\s+)*)?")
_JSON_VALUE = re.compile(r"\"(?:SecretString|value|Value|SecretBinary|password|secret)\"\s*:\s*\"([^\"\s]{8,})\"")
_FIELD_VALUE = re.compile(r"^[ \t]*(?:[\w .-]+?\s*[:=]\s*)?([^\s\"']{8,}|\"[^\"\s]{8,}\"|'[^'\s]{8,}')[ \t]*\r?$")


def _value_ok(value: str, loose: bool) -> bool:
    v = value.strip("\"'")
    if len(v) < 8 or MARK in v or is_dummy(v) or is_reference(v) or v.startswith("H4sI"):  # H4sI: gzip
        return False
    if looks_random(v):
        return True
    # a recovery code or a hex key (de6fe-b8695, 32 hex digits): a letter and a digit, no word
    return loose and any(c.isdigit() for c in v) and any(c.isalpha() for c in v) \
        and not v.startswith(("/", "~", ".", "http")) and "://" not in v and " " not in v \
        and not re.fullmatch(r"[A-Za-z]+[-_.]?\d{1,4}", v)


def _command_kind(line: str, is_secret_name: Callable[[str], bool]) -> tuple[bool, bool]:
    """(prints a secret, the secret file's lines may hold ``user:password``)."""
    for hint, rx in SECRET_COMMANDS:
        if hint in line and rx.search(line):
            return True, False
    encoded = _ENCODED.search(line)
    if encoded:
        return is_secret_name(encoded.group(1)), False
    env = _PRINTENV.search(line)
    if env:
        return is_secret_name(env.group(1)), False
    cat = _CAT.search(line)
    if cat:
        files = cat.group(1).split()
        return any(_SECRET_FILE.search(f.rsplit("/", 1)[-1]) and not _PUBLIC_FILE.search(f) for f in files), True
    return False, False


_HINTS = tuple({h for h, _ in SECRET_COMMANDS} | {"printenv", "echo", "cat ", "type ", "Get-Content", "head ", "tail ",
                                           "printf"})


def printed_spans(text: str, is_secret_name: Callable[[str], bool]) -> list[tuple[int, int, str]]:
    """Spans (start, end, kind) of the bare values a secret-printing command left on its lines;
    ``is_secret_name`` judges the variable of ``printenv NAME`` / ``echo $NAME``."""
    spans: list[tuple[int, int, str]] = []
    if "\n" not in text or not any(h in text for h in _HINTS):
        return spans
    done = 0
    for start, end in _lines_with(text, _HINTS):
        if start < done:
            continue  # an output line already read
        line = text[start:end]
        prompt = _PROMPT.match(line)
        if prompt:
            secret, pairs = _command_kind(line[prompt.end():], is_secret_name)
            if secret:
                done = _output_spans(text, end + 1, pairs, spans)
    return spans


def _lines_with(text: str, hints: tuple[str, ...]) -> list[tuple[int, int]]:
    """The (start, end) of every line holding one of ``hints``, in order, each once."""
    starts: set[int] = set()
    n = len(text)
    for h in hints:
        at = text.find(h)
        while at >= 0:
            starts.add(text.rfind("\n", 0, at) + 1)
            end = text.find("\n", at)
            at = text.find(h, n if end < 0 else end)
    return [(s, e if (e := text.find("\n", s)) >= 0 else n) for s in sorted(starts)]


def _output_spans(text: str, pos: int, pairs: bool, spans: list[tuple[int, int, str]]) -> int:
    """The output lines from ``pos`` to the next prompt (at most 40): their bare values."""
    n = len(text)
    armored = False
    for _ in range(40):
        if pos >= n:
            break
        end = text.find("\n", pos)
        end = n if end < 0 else end
        line = text[pos:end]
        if _PROMPT.match(line) and _CI_STAMP.sub("", line, count=1).lstrip()[:1] in "$%>❯➜P":
            return pos
        stamp = _CI_STAMP.match(line)
        if stamp:  # read the line without its timestamp; spans stay where they are in the text
            pos, line = pos + stamp.end(), line[stamp.end():]
        if line.startswith("-----BEGIN") or line.startswith("-----END"):
            # a certificate or public key is no secret; a private key's block is redacted whole
            armored = line.startswith("-----BEGIN")
        if armored or line.startswith("-----"):
            pos = end + 1
            continue
        for m in _JSON_VALUE.finditer(line):
            if _value_ok(m.group(1), True):
                spans.append((pos + m.start(1), pos + m.end(1), "printed_secret"))
        words = line.split()
        if words and not _JSON_VALUE.search(line):
            last = words[-1]
            at = line.rfind(last)
            bare = last.strip("\"'")
            at += last.find(bare)
            if pairs and ":" in bare and not bare.startswith("[") and "://" not in bare:
                cut = bare.index(":") + 1  # user:password in a secrets file
                at, bare = at + cut, bare[cut:]
            field = _FIELD_VALUE.match(line)
            if (len(words) == 1 or pairs or (field and field.start(1) == line.rfind(last))) \
                    and _value_ok(bare, True):
                spans.append((pos + at, pos + at + len(bare), "printed_secret"))
        pos = end + 1
    return pos


# --- tables -------------------------------------------------------------------------------------

_COLUMN = re.compile(r"(?i)^(?:(?:[a-z]+[ _-])?(?:password|passwd|token|secret|passphrase)|pass|pwd|api[ _-]?key|access[ _-]?key|"
                     r"secret[ _-]?key|client[ _-]?secret|pin|passphrase|kennwort|passwort|mot de passe|"
                     r"contraseña|senha|密码|パスワード)$")


_HEADER_WORDS = ("pass", "secret", "token", "key", "pwd", "pin", "密码", "パスワード", "senha", "contraseña", "kennwort",
                 "passwort", "mot de passe")


def table_spans(text: str, lowered: str) -> list[tuple[int, int, str]]:
    """Cells of a Markdown table's or a CSV's column whose header names a secret."""
    spans: list[tuple[int, int, str]] = []
    if "\n" not in text or ("|" not in text and "," not in text):
        return spans
    done = 0
    for start, end in _lines_with(lowered, _HEADER_WORDS):
        if start < done:
            continue
        done = _table_at(text, start, end, spans)
    return spans


def _table_at(text: str, start: int, end: int, spans: list[tuple[int, int, str]]) -> int:
    """Read the table whose header is the line ``text[start:end]``; return where it ends."""
    line = text[start:end]
    sep = "|" if line.count("|") >= 2 else "," if "," in line else ""
    cells = [c.strip() for c in line.strip().strip("|").split(sep)] if sep else []
    cols = [k for k, c in enumerate(cells) if _COLUMN.match(c.strip("\"'`*"))]
    if not cols or len(cells) > 30:
        return end
    pos = end + 1
    while pos < len(text):
        stop = text.find("\n", pos)
        stop = len(text) if stop < 0 else stop
        row = text[pos:stop]
        if sep == "|" and row.count("|") >= 2 and set(row.replace("|", "").strip()) <= set("-: "):
            pos = stop + 1
            continue  # the Markdown header rule
        parts = row.strip().strip("|").split(sep) if sep == "|" else row.split(sep)
        if len(parts) != len(cells):
            break
        at = row.index("|") + 1 if sep == "|" and row.lstrip().startswith("|") else 0
        for k, part in enumerate(parts):
            cell = part.strip().strip("\"'`")
            if k in cols and _value_ok(cell, True):
                s = pos + at + part.find(cell)
                spans.append((s, s + len(cell), "password"))
            at += len(part) + 1
        pos = stop + 1
    return pos
