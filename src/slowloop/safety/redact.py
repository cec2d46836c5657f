"""Replace secrets with ``[REDACTED:<kind>]`` before any text reaches a model or a learned file.

Two families of patterns:
- **shaped tokens** whose prefix says what they are (``sk-ant-``, ``ghp_``, ``AKIA``, ``xoxb-``,
  JWTs, PEM private-key blocks, ``Authorization: Bearer …``, ``scheme://user:pass@host``);
- **assignments whose name says "secret"** (``API_KEY=…``, ``"password": "…"``,
  ``client_secret: …``) in shell, ``.env``, JSON, YAML and Python keyword form;
plus the contexts of :mod:`.credentials` and, from :mod:`.secret_forms`, prose naming a secret,
a secret continued on the next line and one inside a base64 blob or a URL-encoded run.

False positives cost real context (a redacted git SHA or ``max_tokens=100`` makes a transcript
harder to learn from), so names are split into parts and judged whole: ``token`` is secret,
``token_count``, ``max_tokens`` and ``PASSWORD_MIN_LENGTH`` are settings; values that are
references (``$VAR``, ``os.environ[...]``, ``OPENAI_API_KEY``), placeholders or type names are
kept. Every regex is compiled once; the whole pass is linear in the text.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from .bare import bare_spans, structured_spans
from .credentials import CHECKED_CONTEXTUAL, CONTEXTUAL, LINE_CONTEXTUAL, NAMED_CONTEXTUAL, RANDOM_CONTEXTUAL
from .printed import printed_spans, table_spans
from .secret_forms import (
    CALL_ARGS,
    block_scalar_span,
    call_literals,
    continue_markers,
    decode_encoded,
    is_dummy,
    is_reference,
    join_concatenated,
    looks_random,
    prose_spans,
    rebuilt_literals,
)

__all__ = ["RedactResult", "redact", "find_secrets", "is_secret_name"]


@dataclass(frozen=True)
class RedactResult:
    text: str
    count: int
    # kind -> how many of that kind were replaced, e.g. {"github_token": 2}
    kinds: dict[str, int] = field(default_factory=dict)


def _marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


# --- shaped tokens ------------------------------------------------------------------------------

# (kind, pattern). Every pattern starts with a literal so the regex engine can jump between
# candidates (a leading look-behind or alternation makes it try every position: 100x slower on a
# megabyte); "not the tail of a longer identifier" is checked on the character before the match.
_SHAPED: list[tuple[str, str]] = [
    # A PEM block; a block cut short by truncation is still redacted up to its last base64 line.
    ("private_key", r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
                    r"(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
                    r"|(?:[ \t]*\r?\n(?:[A-Za-z0-9+/=]{8,}|[A-Z][\w-]+: [^\n]*|)[ \t]*(?=\r?\n|$))*)"
                    # a key written as string literals, one line each: "-----BEGIN …-----\n" "MIIE…\n"
                    r"(?:\\n[\"']?(?:[ \t]*\+?[ \t]*\r?\n[ \t]*[\"'][A-Za-z0-9+/=]{8,}(?:\\n)?[\"'])+)?"),
    # Anthropic before OpenAI: both start with "sk-".
    ("anthropic_key", r"sk-ant-(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}"),
    ("openai_key", r"sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}"),
    ("stripe_key", r"sk_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("stripe_key", r"rk_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("google_api_key", r"AIza[0-9A-Za-z_-]{35}"),
    ("aws_access_key_id", r"AKIA[A-Z0-9]{16}(?![A-Z0-9])"),
    ("aws_access_key_id", r"ASIA[A-Z0-9]{16}(?![A-Z0-9])"),
    ("github_token", r"gh[pousr]_[A-Za-z0-9]{30,}"),  # 36 when GitHub makes it; a token off by a few is one too
    ("github_token", r"github_pat_[A-Za-z0-9_]{22,}"),
    ("slack_token", r"xox[abposre]-[A-Za-z0-9-]{10,}"),
    ("slack_token", r"xapp-\d-[A-Za-z0-9-]{10,}"),
    ("slack_webhook", r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}"),
    ("fly_token", r"FlyV1 fm[12][ar]?_[A-Za-z0-9_+/=-]{20,}"),
    # Hugging Face tokens mix case and digits; the lookahead keeps "hf_hub_download" and friends.
    ("huggingface_token", r"hf_(?=[A-Za-z0-9]*[0-9A-Z])[A-Za-z0-9]{30,}"),
    ("huggingface_token", r"api_org_[A-Za-z0-9]{30,}"),
    # The token shapes of gitleaks' and detect-secrets' rule lists, by service.
    ("gitlab_token", r"gl(?:pat|dt|ptt|rt|cbt|imt|oas|soat|ffct|agent)-[A-Za-z0-9_-]{20,}"),
    ("gitlab_token", r"GR1348941[A-Za-z0-9_-]{20,}"),
    ("stripe_key", r"whsec_[A-Za-z0-9]{24,}"),
    ("npm_token", r"npm_[A-Za-z0-9]{36}"),
    ("pypi_token", r"pypi-AgE[A-Za-z0-9_-]{50,}"),
    ("sendgrid_key", r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}"),
    ("sendinblue_key", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    ("mailgun_key", r"key-[0-9a-zA-Z]{32}(?![A-Za-z0-9])"),
    ("mailgun_key", r"pubkey-[0-9a-zA-Z]{32}(?![A-Za-z0-9])"),
    ("digitalocean_token", r"do[opr]_v1_[a-f0-9]{64}"),
    ("vault_token", r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
    ("terraform_token", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}"),
    ("twilio_key", r"SK[0-9a-fA-F]{32}(?![0-9a-fA-F])"),
    ("shopify_token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("databricks_token", r"dapi[a-f0-9]{32}(?:-\d)?"),
    ("linear_key", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}"),
    ("grafana_token", r"glc_[A-Za-z0-9+/]{32,400}={0,2}"),
    ("grafana_token", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    ("grafana_token", r"eyJrIjoi[A-Za-z0-9]{60,400}={0,2}"),
    ("square_token", r"EAAA[A-Za-z0-9_-]{50,80}"),
    ("square_token", r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,60}"),
    ("atlassian_token", r"ATATT3[A-Za-z0-9_=-]{50,}"),
    ("atlassian_token", r"ATCTT3[A-Za-z0-9_=-]{50,}"),
    ("age_secret_key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    ("discord_webhook", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}"),
    ("teams_webhook", r"https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{40,}"),
    ("doppler_token", r"dp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{2,35}\.)?[A-Za-z0-9]{40,44}"),
    ("dropbox_token", r"sl\.[A-Za-z0-9_-]{130,}"),
    ("dynatrace_token", r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}"),
    ("easypost_key", r"EZ[AT]K[a-zA-Z0-9]{54}"),
    ("flutterwave_key", r"FLW(?:SECK|PUBK)_TEST-[a-h0-9]{32}-X"),
    ("frameio_token", r"fio-u-[A-Za-z0-9_=-]{64}"),
    ("infracost_key", r"ico-[a-zA-Z0-9]{32}"),
    ("mapbox_token", r"sk\.eyJ[A-Za-z0-9_.-]{50,}"),
    ("newrelic_key", r"NR(?:AK|JS|II)-[A-Za-z0-9]{19,32}"),
    ("planetscale_token", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}"),
    ("postman_key", r"PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}"),
    ("prefect_key", r"pnu_[a-zA-Z0-9]{36}"),
    ("pulumi_token", r"pul-[a-f0-9]{40}"),
    ("readme_key", r"rdme_[a-z0-9]{70}"),
    ("rubygems_key", r"rubygems_[a-f0-9]{48}"),
    ("scalingo_token", r"tk-us-[A-Za-z0-9_-]{48}"),
    ("sentry_token", r"sntry[su]_[A-Za-z0-9+/=_]{40,}"),
    ("shippo_token", r"shippo_(?:live|test)_[a-f0-9]{40}"),
    ("typeform_token", r"tfp_[A-Za-z0-9_.=-]{59}"),
    ("onepassword_token", r"ops_eyJ[A-Za-z0-9+/=_-]{100,}"),
    ("alibaba_key", r"LTAI[a-zA-Z0-9]{20}(?![A-Za-z0-9])"),
    ("artifactory_key", r"AKCp[A-Za-z0-9]{60,}"),
    ("heroku_key", r"HRKU-[A-Za-z0-9_-]{60}"),
    ("clojars_token", r"CLOJARS_[a-z0-9]{60}"),
    ("contentful_token", r"CFPAT-[A-Za-z0-9_-]{43}"),
    ("duffel_token", r"duffel_(?:test|live)_[A-Za-z0-9_=-]{43}"),
    ("gocardless_token", r"live_[A-Za-z0-9_=-]{40}(?![A-Za-z0-9_=-])"),
    ("azure_storage_key", r"AccountKey=[A-Za-z0-9+/]{80,90}={0,2}"),
    ("supabase_token", r"sbp_[a-f0-9]{40}(?![a-f0-9])"),
    ("jwt", r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    # more vendors by prefix and alphabet
    ("xai_key", r"xai-[A-Za-z0-9]{60,100}"),
    ("bitwarden_token", r"0\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[A-Za-z0-9]{20,}:[A-Za-z0-9+/]{16,}={0,2}"),
    ("cloudflare_origin_ca_key", r"v1\.0-[0-9a-f]{24}-[0-9a-f]{100,}"),
    ("backblaze_key", r"K00\d[A-Za-z0-9+/]{27}(?![A-Za-z0-9+/])"),
    ("lob_key", r"(?:live|test)_(?:pub_)?[0-9a-f]{35}(?![0-9a-f])"),
    ("openvpn_key", r"-----BEGIN OpenVPN Static key V1-----(?:[\s\S]*?-----END OpenVPN Static key V1-----"
                    r"|(?:[ \t]*\r?\n[0-9a-f]{16,}[ \t]*(?=\r?\n|$))*)"),
]
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

# "Authorization: Bearer <token>" keeps the header and the scheme so the transcript still reads.
_AUTH_HEADER = re.compile(
    r"(uthorization[\"']?\s*[:=]\s*[\"']?\s*)"
    r"([Bb]earer|BEARER|[Bb]asic|BASIC|[Tt]oken|[Bb]ot)\s+([A-Za-z0-9._~+/=-]{6,})")
_BEARER = re.compile(r"(Bearer(?<![A-Za-z]Bearer)\s+)([A-Za-z0-9._~+/-]{16,}=*)")
_BASIC = re.compile(r"(Basic(?<![A-Za-z]Basic)\s+)([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])")
# Starts with the literal "://" so the scan is fast; user and host are kept.
# the user may be a marker, or hold one "@" (administrator@vsphere.local)
_URL_PASSWORD = re.compile(r"://(\[REDACTED:\w+\]|[^\s:/@\"'<>]*(?:@[^\s:/@\"'<>]+)?):([^\s@/\"'<>]+)@")


def _contextual(kind: str):
    def sub(m: re.Match[str], counts: Counter) -> str:
        value = m.group(2)
        if "[REDACTED:" in value or _PLACEHOLDER.match(value) or is_dummy(value):
            return m.group(0)
        if kind == "docker_auth" and not _basic_is_credential(value):
            return m.group(0)
        if kind == "aws_secret_key" and not _AWS_NEAR.search(
                m.string, max(0, m.start() - 160), min(len(m.string), m.end() + 160)):
            return m.group(0)
        counts[kind] += 1
        return m.group(1) + _marker(kind)
    return sub


_AWS_NEAR = re.compile(r"(?i)aws|secret[ _-]?access|AKIA|ASIA|\bsecret\b")


def _basic_is_credential(token: str) -> bool:
    """``Basic`` is an English word: only base64 of ``user:pass`` counts outside a header."""
    try:
        decoded = base64.b64decode(token + "=" * (-len(token) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded and all(32 <= c < 127 for c in decoded)


# --- secret-named assignments -------------------------------------------------------------------

_SECRET_PARTS = {"password", "passwd", "passphrase", "pwd", "secret", "secrets", "token",
                 "apikey", "credential", "credentials", "pat", "authtok", "bearer"}
# one word glued to a secret word: clientsecret, corpsecret, appsecret, rootpassword, authtoken
_GLUED_ENDS = ("secret", "password", "passwd", "token")
# "*_KEY" is a secret only with a qualifier in front ("api_key", "private_key"), not "sort_key".
_KEY_QUALIFIERS = {"api", "private", "access", "secret", "auth", "encryption", "signing",
                   "client", "master", "service", "account", "openai", "anthropic", "license",
                   "app", "application", "session", "jwt", "hmac", "webhook", "storage", "shared"}
# A name ending in one of these describes a setting about the secret, not the secret itself.
_SETTING_SUFFIXES = {"count", "counts", "length", "len", "size", "limit", "limits", "min", "max",
                     "ttl", "timeout", "expiry", "expires", "expiration", "lifetime", "env", "var",
                     "name", "names", "id", "type", "kind", "enabled", "disabled", "required",
                     "header", "prefix", "format", "usage", "budget", "estimate", "path", "file",
                     "dir", "url", "uri", "endpoint", "policy", "rules", "regex", "pattern",
                     "field", "hint", "label", "placeholder", "mode", "source", "rotation",
                     "version", "strength", "algorithm", "hash", "salt", "rounds", "ids",
                     "tokens", "used", "left", "remaining", "per", "rate", "price", "cost",
                     "in", "at",  # token_expires_in, secret_rotated_at
                     "method", "stdin", "encrypted"}  # token_endpoint_auth_method, --password-stdin, DB_PASSWORD_ENCRYPTED
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_PLACEHOLDER = re.compile(
    r"(?i)^(?:|x+|\*+|\.+|-+|<[^>]*>|\{\{.*\}\}|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%\(.*\)s?|"
    r"your[-_ ].*|my[-_ ].*|example.*|placeholder|changeme|redacted|\[redacted[^\]]*\]|"
    r"null|none|nil|true|false|undefined|str|string|int|bool|bytes|float|number|boolean|any|"
    r"object|optional|secretstr|required|\?)$")
_ENV_REF = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")  # OPENAI_API_KEY: names a variable
# os.environ[...], self.token, getpass(): code that fetches the secret, not the secret.
_CODE_REF = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_]|\[|\()|\(")

# Assignments are found from their name: a cheap scan for the telltale words, then the
# identifier around each hit is judged, and only then the separator and the value are parsed.
# One literal regex per word over the lowercased text: far faster than one case-insensitive
# alternation.
_KEYWORDS = [re.compile(w) for w in ("pass", "pwd", "secret", "token", "key", "credential", "_pat", "-pat", ".pat", "psk",
                                                "authtok", "bearer", "encrypt")]
_IDENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_IDENT_RIGHT = re.compile(r"[A-Za-z0-9_.-]*")
_LOOKBACK = 120
# Lower-case letters that stay one character (Latin, Greek, Cyrillic: "Пароль", "Lösenord"), so
# the lowered text lines up with the text; "İ" (two characters lowered) is left as it is.
_ASCII_LOWER = {c: ord(chr(c).lower()) for c in range(0x41, 0x530)
                if chr(c).lower() != chr(c) and len(chr(c).lower()) == 1}
_SEP = re.compile(r"[ \t]*(:=|\?=|=>|=|:(?![:/\\]))[ \t]*")  # => : a Ruby hash; ?= : make
# (a framework's mask first: "[hidden]" is one value, not "[hidden" and a "]")
_VALUE = re.compile(r"\[[A-Za-z_ -]{1,20}\](?![^\s,;])|\\\"(?:[^\"\\\n]|\\[^\"])*\\\"|\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|"
                    r"[^\s,;'\"}\])#\\]+")
_HASH_VALUE = re.compile(r"#[^\s,;'\"}\])\\]{5,}")
_TOKEN_LIKE = re.compile(r"^(?=[^\s]*[0-9])(?=[^\s]*[A-Za-z])[A-Za-z0-9_.+/=~-]{12,}$")
_FLAG_VALUE = re.compile(r"[ \t]+([^\s\-'\"][^\s'\"]*|\"[^\"\n]*\"|'[^'\n]*')")


@lru_cache(maxsize=4096)
def is_secret_name(name: str) -> bool:
    """``API_KEY``, ``db_password``, ``clientSecret``, ``GITHUB_TOKEN`` yes; ``max_tokens``,
    ``token_count``, ``PASSWORD_MIN_LENGTH``, ``api_key_env``, ``sort_key`` no."""
    parts = [p for p in re.split(r"[_.\-]+", _CAMEL.sub("_", name).lower()) if p]
    if not parts or parts[-1] in _SETTING_SUFFIXES:
        return False
    if name in ("PWD", "OLDPWD"):  # the shell's working directory: a password only by its value
        return False
    for i, part in enumerate(parts):
        if part in _SECRET_PARTS:
            return True
        if part.endswith(_GLUED_ENDS) and len(part) > 6:  # clientsecret, corpsecret, rootpassword
            return True
        if part == "pass" and i + 1 < len(parts) and parts[i + 1] == "phrase":  # pass_phrase
            return True
        if part in ("key", "keys") and i > 0 and parts[i - 1] in _KEY_QUALIFIERS:
            return True
        if part == "pass" and 0 < i == len(parts) - 1:  # DB_PASS, SMTP_PASS; not PASS_THROUGH
            return True
        if part == "psk" and i == len(parts) - 1:  # psk, wpa_psk; not HAS_PSK_TLSv1_3
            return True
        if part in ("apikey", "privatekey", "secretkey", "accesskey", "authtoken"):
            return True
    return False


# Names that hold a secret only when the value looks like one: ``pass = …`` (TOML, rclone),
# ``PWD = …`` (ODBC; the shell's PWD is a path), ``encrypt = …`` (Consul's gossip key), and any
# ``*_key`` or ``*-key`` (``fernet_key``, ``routing_key: <32 hex>``, ``api-v3-key``, ``key=…``):
# ``sort_key = "created_at"`` and ``cache_key: node-modules-v2`` are kept.
_WEAK_ENDS = {"pass", "pwd", "encrypt", "key", "authkey", "keyfile"}


def _weak_secret_name(name: str) -> bool:
    parts = [p for p in re.split(r"[_.\-]+", _CAMEL.sub("_", name).lower()) if p]
    return bool(parts) and parts[-1] in _WEAK_ENDS and not _PUBLIC_PARTS.intersection(parts)


_PUBLIC_PARTS = {"public", "publishable", "pub", "host", "known", "gpg", "pgp", "ssh", "kms", "foreign",
                 "primary", "partition", "sort", "cache", "idempotency", "object"}


# a type between a name and its value (Rust, TypeScript, Kotlin, annotated Python)
_TYPED = re.compile(r"[ \t]*&?(?:'static[ \t]+)?[A-Za-z_][\w.<>\[\], ]{0,40}?[ \t]*=(?!=)[ \t]*(?=[\"'bru])")
# Claude Code's line-number prefix on a file read ("    12→"): not part of the line's text
_LINE_NUMBER = re.compile(r"^[ \t]*\d+→")


def _secret_kind(name: str) -> str:
    low = name.lower()
    if "aws" in low and "secret" in low:
        return "aws_secret_key"
    if any(w in low for w in ("password", "passwd", "passphrase", "pwd")) or low.endswith("pass"):
        return "password"
    if "token" in low or low.endswith("pat"):
        return "token"
    if "private" in low:
        return "private_key"
    if "key" in low:
        return "api_key"
    return "secret"


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _value_is_secret(raw: str, name: str) -> bool:
    quoted = raw[:1] in "\"'" and raw[-1:] == raw[:1] and len(raw) >= 2
    value = raw[1:-1] if quoted else raw
    if "[REDACTED:" in value or _PLACEHOLDER.match(value.strip()) or is_dummy(value) or is_reference(value):
        return False
    if _ENV_REF.match(value):
        return False
    if name.lower().endswith("pat") and not looks_random(value, 12):
        return False  # IPV4_PAT, URL_PAT: a pattern, unless the value is a token
    if not quoted and ((_CODE_REF.search(value) and not looks_random(value, 10)) or value.lower() in name.lower()):
        return False
    return True


def _assignments(text: str, lowered: str) -> list[tuple[int, int, str]]:
    """Spans (start, end, kind) of values assigned to secret-named keys, quotes excluded.

    Forms: ``NAME=value`` / ``export NAME=value`` / ``name = "value"`` / ``name := value``
    anywhere; ``"name": "value"`` (JSON, quoted key) anywhere; ``name: value`` (YAML) only at the
    start of a line, so prose like "Token: see below" is left alone; ``--password value`` flags.
    """
    spans: list[tuple[int, int, str]] = []
    n = len(text)
    # ``lowered`` lines up with ``text``: str.lower() can lengthen non-ASCII text ("İ").
    hits = sorted({m.start() for rx in _KEYWORDS for m in rx.finditer(lowered)})
    seen_start = skip_to = -1
    for h in hits:
        if h < skip_to:
            continue  # inside a reference already read: arn:aws:secretsmanager:…:secret:prod/db
        s = h
        floor = max(0, h - _LOOKBACK)
        while s > floor and text[s - 1] in _IDENT_CHARS:
            s -= 1
        if s < h and text[s] in "nrt" and text[s - 1:s] == "\\":
            s += 1  # "\ntoken = …" in a JSON string: the escape of a newline, then the name
        if s == seen_start:
            continue
        seen_start = s
        m = _IDENT_RIGHT.match(text, h)
        e = m.end() if m else h  # the pattern matches the empty string, so m is never None
        flag = text.startswith("--", s)
        quoted_key = s > 0 and text[s - 1] in "\"'"
        pos = e
        if quoted_key:
            escaped = s > 1 and text[s - 2] == "\\"  # \"password\": inside a JSON string
            close = "\\" + text[s - 1] if escaped else text[s - 1]
            if text.startswith(close, e):
                pos = e + len(close)
            else:  # the quote opens an outer string: "command": "PASSWORD=… ./deploy.sh"
                quoted_key = False
        # The cheap syntactic test before judging the name: most hits are prose or code.
        sep = _SEP.match(text, pos)
        if sep is None and not flag:
            continue
        name = text[s:e].lstrip("-.")
        weak = False
        if not name or not is_secret_name(name):
            if not (sep and _weak_secret_name(name)):
                continue
            weak = True  # a value judged by its looks: pass = …, fernet_key = …, routing_key: …
        if sep:
            mid_line = False
            kind_sep, sep_end = sep.group(1), sep.end()
            typed = _TYPED.match(text, sep_end) if kind_sep == ":" else None
            if typed:  # const API_KEY: &str = "…", val token: String = "…"
                kind_sep, sep_end = "=", typed.end()
            elif kind_sep == ":" and not quoted_key:
                line_start = text.rfind("\n", 0, s) + 1
                mid_line = _LINE_NUMBER.sub("", text[line_start:s], count=1).strip(" \t-") != ""
            vstart = sep_end + (text[sep_end:sep_end + 1] in "bru" and text[sep_end + 1:sep_end + 2] in "\"'")
            value = _VALUE.match(text, vstart)  # b'…', r"…", u"…": the literal after its prefix
            if not value and text.startswith("#", sep_end) and kind_sep.endswith("="):
                value = _HASH_VALUE.match(text, sep_end)  # DB_PASSWORD=#x… (not " # comment")
            if not value:
                continue
            vs, ve = value.span()
            # "Token: see below" mid-line is prose; "client_secret: 8f3kQ…" mid-line is a secret,
            # and so is "password: '8uD4z.f^Tc'" (quoted, random-looking, symbols and all)
            bare = text[vs:ve].strip("\"'")
            token_like = bool(_TOKEN_LIKE.match(bare)) or (bare != text[vs:ve] and looks_random(bare))
            if mid_line and (weak or not token_like):
                continue  # "restored from key: Linux-pnpm-…", "public key: …": prose or a listing
            block = block_scalar_span(text, text.rfind("\n", 0, s) + 1, vs, ve) \
                if kind_sep == ":" else None
            if block:  # "secret_access_key: >-" then the indented lines: those are the value
                spans.append((*block, _secret_kind(name)))
                continue
            if kind_sep == ":" and not quoted_key and not token_like:
                line_end = text.find("\n", ve)
                rest = text[ve:line_end if line_end >= 0 else n]
                if rest.split("#")[0].strip():
                    continue  # "Token: see the vault for details" is prose, not YAML
        else:
            value = _FLAG_VALUE.match(text, e)
            if not value:
                continue
            vs, ve = value.span(1)
        raw = text[vs:ve]
        if raw.startswith('\\"') and raw.endswith('\\"') and len(raw) >= 4:  # \"value\"
            raw, vs, ve = raw[1:-1], vs + 1, ve - 1
        if is_reference(raw):
            skip_to = ve
            continue
        if not _value_is_secret(raw, name) or (weak and not looks_random(raw.strip("\"'"), 12)):
            continue
        if raw[:1] in "\"'" and raw[-1:] == raw[:1] and len(raw) >= 2:
            vs, ve = vs + 1, ve - 1
        spans.append((vs, ve, _secret_kind(name)))
    return spans


# --- the pass -----------------------------------------------------------------------------------

_KEBAB = re.compile(r"^sk-(?:[a-z0-9]{1,15}-)+[a-z0-9]{1,15}$")


def _shaped(m: re.Match[str], counts: Counter) -> str:
    kind = m.lastgroup or "secret"
    start = m.start()
    if kind != "private_key" and start > 0 and m.string[start - 1] in _TOKEN_CHARS:
        return m.group(0)  # the tail of a longer identifier, not a token
    if kind in ("openai_key", "anthropic_key") and _KEBAB.match(m.group(0)):
        return m.group(0)  # sk-my-component-v2: a kebab-case name, not a key
    if is_dummy(m.group(0)):
        return m.group(0)  # ghp_xxxx…, AKIA…EXAMPLE: a placeholder or the docs' example
    counts[kind] += 1
    return _marker(kind)


def _auth_header(m: re.Match[str], counts: Counter) -> str:
    if m.string[m.start() - 1:m.start()] not in ("A", "a"):
        return m.group(0)
    scheme = m.group(2)
    if is_dummy(m.group(3)):
        return m.group(0)  # "Bearer test-token" in a test
    kind = "basic_auth" if scheme.lower() == "basic" else "bearer_token"
    counts[kind] += 1
    return f"{m.group(1)}{scheme} {_marker(kind)}"


def _bearer(m: re.Match[str], counts: Counter) -> str:
    if is_dummy(m.group(2)):
        return m.group(0)
    counts["bearer_token"] += 1
    return m.group(1) + _marker("bearer_token")


def _basic(m: re.Match[str], counts: Counter) -> str:
    if not _basic_is_credential(m.group(2)):
        return m.group(0)
    counts["basic_auth"] += 1
    return m.group(1) + _marker("basic_auth")


def _url_password(m: re.Match[str], counts: Counter) -> str:
    if _PLACEHOLDER.match(m.group(2)) or is_dummy(m.group(2)) or m.group(1) == m.group(2):
        return m.group(0)  # user:password@localhost, admin:admin@: the docs' placeholders
    counts["url_password"] += 1
    return f"://{m.group(1)}:{_marker('url_password')}@"


def _literal_prefix(pattern: str) -> str:
    """The literal text every match of ``pattern`` starts with ("gh" for ``gh[pousr]_…``)."""
    m = re.match(r"(?:[^\\\[\](){}?*+|.^$]|\\[./-])+", pattern)
    return (m.group(0) if m else "").replace("\\", "")


def _inner_literal(pattern: str) -> str:
    """The longest literal a pattern with no literal prefix must contain ("atlasv1" for the
    Terraform token), so it too runs only where that is in the text."""
    bare = re.sub(r"\[[^\]]*\]|\{[^}]*\}|\(\?[^)]*\)|\\[.]", " ", pattern)
    return max(re.findall(r"[A-Za-z0-9_-]+", bare), key=len, default="")


Replacer = Callable[[re.Match[str], Counter], str]
_PERCENT_VAR = re.compile(r"%\w+%|%\(")  # %DB_PASSWORD% (cmd.exe), %(password)s: a reference


def _in_place(kind: str, before: re.Pattern[str] | None = None, random: bool = False) -> Replacer:
    """The match with only its secret (the last group that matched) replaced: quotes, flags and
    the rest of the line stay as they were. ``before`` must match the text ending where the match
    starts; with ``random`` the secret must look random."""
    def sub(m: re.Match[str], counts: Counter) -> str:
        if before is not None and not before.search(m.string, max(0, m.start() - 80), m.start()):
            return m.group(0)
        g = max((i for i in range(1, (m.re.groups or 0) + 1) if m.group(i)), default=0)
        value = m.group(g) if g else ""
        if not value or "[REDACTED:" in value or _PLACEHOLDER.match(value) or _ENV_REF.match(value) \
                or value.startswith(("$", "{{", "<")) or _PERCENT_VAR.match(value) or is_dummy(value) \
                or (random and not looks_random(value)):
            return m.group(0)
        counts[kind] += 1
        s, e = m.start(g) - m.start(), m.end(g) - m.start()
        return m.group(0)[:s] + _marker(kind) + m.group(0)[e:]
    return sub


def _named(m: re.Match[str], counts: Counter) -> str:
    """A value whose name sits beside it in the match (``"name": "X-Vault-Token", "value": …``),
    redacted when the name is a secret's, as an assignment's would be."""
    name, value = m.group("name"), m.group("v")
    if not (is_secret_name(name) or (_weak_secret_name(name) and looks_random(value, 12))) \
            or not _value_is_secret(value, name):
        return m.group(0)
    kind = _secret_kind(name)
    counts[kind] += 1
    s, e = m.start("v") - m.start(), m.end("v") - m.start()
    return m.group(0)[:s] + _marker(kind) + m.group(0)[e:]


# Each regex runs only when one of its telltale substrings is in the text.
_STEPS: list[tuple[tuple[str, ...], re.Pattern[str], Replacer]] = [
    *[((_literal_prefix(body) or _inner_literal(body),), re.compile(f"(?P<{kind}>{body})"), _shaped)
      for kind, body in _SHAPED],
    (("uthorization",), _AUTH_HEADER, _auth_header),
    (("Bearer",), _BEARER, _bearer),
    (("Basic",), _BASIC, _basic),
    (("://",), _URL_PASSWORD, _url_password),
    *[(hints, pattern, _contextual(kind)) for kind, hints, pattern in CHECKED_CONTEXTUAL],
    *[(hints, pattern, _in_place(kind)) for kind, hints, pattern in CONTEXTUAL],
    *[(hints, pattern, _in_place(kind, before, random=True))
      for kind, hints, pattern, before in RANDOM_CONTEXTUAL],
    *[(hints, pattern, _named) for hints, pattern in NAMED_CONTEXTUAL],
    (("(",), CALL_ARGS, call_literals),
]
# run only on the lines that hold a hint
_LINE_STEPS: list[tuple[tuple[str, ...], re.Pattern[str], Replacer]] = [
    (hints, pattern, _in_place(kind)) for kind, hints, pattern in LINE_CONTEXTUAL]


def _hint_lines(text: str, hints: tuple[str, ...]) -> list[tuple[int, int]]:
    """The (start, end) of every line holding one of ``hints``, in order, each once."""
    starts: set[int] = set()
    for h in hints:
        at = text.find(h)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            starts.add(start)
            end = text.find("\n", at)
            at = text.find(h, len(text) if end < 0 else end)
    return [(s, e if (e := text.find("\n", s)) >= 0 else len(text)) for s in sorted(starts)]


def _sub_lines(text: str, hints: tuple[str, ...], pattern: re.Pattern[str], fn: Replacer, counts: Counter) -> str:
    pieces, last = [], 0
    for s, e in _hint_lines(text, hints):
        line = text[s:e]
        new = pattern.sub(lambda m: fn(m, counts), line)
        if new != line:
            pieces += [text[last:s], new]
            last = e
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def redact(text: str) -> RedactResult:
    """Replace every secret in ``text`` with ``[REDACTED:<kind>]``; count them by kind."""
    if "\x1b[" in text:
        # colours can split a token from what names it: read without them when that finds more
        plain, coloured = _redact(_ANSI.sub("", text)), _redact(text)
        # (a tie that found something: the plain reading, whose value no colour code cut short)
        return plain if plain.count > coloured.count or plain.count == coloured.count > 0 else coloured
    return _redact(text)


def _redact(text: str, depth: int = 0) -> RedactResult:
    counts: Counter = Counter()
    for hints, pattern, fn in _STEPS:
        if any(h in text for h in hints):
            # B023: the lambda runs inside this sub() call, before the loop rebinds fn.
            text = pattern.sub(lambda m: fn(m, counts), text)  # noqa: B023
    for hints, pattern, fn in _LINE_STEPS:
        if any(h in text for h in hints):
            text = _sub_lines(text, hints, pattern, fn, counts)
    lowered = text.lower() if text.isascii() else text.translate(_ASCII_LOWER)
    # the longest first where two finders agree on a start (a YAML key that is also prose)
    found = _assignments(text, lowered) + prose_spans(text, lowered) + printed_spans(text, is_secret_name) \
        + table_spans(text, lowered)
    # last: a random value nothing names (what the finders above took is not taken twice)
    taken = [(a, b) for a, b, _k in found]
    found += [sp for sp in structured_spans(text, is_secret_name) + bare_spans(text)
              if not any(a < sp[1] and sp[0] < b for a, b in taken)]
    spans = sorted(found, key=lambda sp: (sp[0], -sp[1]))
    if spans:
        pieces, last = [], 0
        for start, end, kind in spans:
            if start < last:
                continue  # the same value found twice
            pieces.append(text[last:start])
            pieces.append(_marker(kind))
            counts[kind] += 1
            last = end
        pieces.append(text[last:])
        text = "".join(pieces)
    def inner(decoded: str) -> tuple[str, Counter]:
        r = _redact(decoded, depth + 1)
        return r.text, Counter(r.kinds)
    if depth <= 1:  # pieces joined: in the text, and in what a JSON string or a blob decodes to
        text = rebuilt_literals(join_concatenated(text, counts, inner), counts, inner)
    if depth == 0:  # what a decoded blob holds is read once, not decoded again
        text = decode_encoded(text, counts, inner)
    text = continue_markers(text)
    return RedactResult(text=text, count=sum(counts.values()), kinds=dict(counts))


def find_secrets(text: str) -> list[str]:
    """The kinds of secret present in ``text`` (one entry per occurrence), without the values."""
    result = redact(text)
    return [kind for kind, n in sorted(result.kinds.items()) for _ in range(n)]
