"""Secrets that nothing names: a random-looking value standing alone.

A password pasted into a chat ("sorry typo, it's RKKL05iNSGq%uzu"), a token a command printed on its
own line, a key in a one-letter constant, a tuple argument, a JSON array, a CSV cell or a markdown
table: no name says "secret", and no vendor prefix says whose. What does is the value's shape — the
reason detect-secrets has its entropy plugins — judged more strictly than a named value is:

- **mixed** — 16 characters or more with upper case, lower case and digits, high entropy, and many
  switches between them (``tzT271gbROHh8f0nl4tawg5TGSn3XH``; never ``HTTP2ServerConfig``, a name);
- **password** — 12 to 15 characters with all four of upper case, lower case, digits and a symbol
  a name never has (``rm8=J9JuD~Brx``);
- **hex** (32 digits or more) and **base32** (upper case and digits, a TOTP seed) only when the
  sentence says what it is: a key, a secret, a seed, in eight languages — a hex run alone is a
  commit, a digest, a trace id.

What is public by its shape or its context is kept: digests and integrity hashes (``sha256:``,
``sha512-``, ``h1:``), fingerprints, nonces, public keys and certificates, ciphertext meant to be
committed (SOPS, Ansible Vault, SealedSecret), UUIDs, paths and URLs, versions, and any value an
assignment names as an id, a hash or a version.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections import Counter

from .secret_forms import is_dummy, looks_random

__all__ = ["bare_spans"]

_CH = r"A-Za-z0-9_+/=~!*%^.:#$&?|\-"
_RUN = re.compile(rf"(?<![{_CH}@\\])[{_CH}]{{12,}}")
_TRAIL = ".,:;!?|"
_WINDOW = 240
_FLAG_PREFIX = re.compile(r"(?:--?[A-Za-z][\w-]*=|/[a-z]{1,12}:)")
_BINARY_DATA = re.compile(r"(?m)^\s*(?:\d+→)?\s*binaryData:\s*$")
_DIGIT = re.compile(r"\d")  # every shape below has a digit: a run without one is a word, a name
_STRONG = frozenset("!#$%^&*+=~?|")
_HEX = re.compile(r"[0-9a-fA-F]{32,}")
_B32 = re.compile(r"[A-Z2-7]{16,}=*")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# a value's public prefix: what it is said by its own first characters
_PUBLIC_PREFIX = re.compile(r"(?i)^(?:sha(?:1|224|256|384|512)[-:]|md5[-:]|blake[23]b?[-:]|h1:|nonce-|sri-|sha-|"
                            r"H4sI|age1|bc1|tb1|0x|pk[_.]|pub|ca-app-pub|ENC\[|AAAA[A-Z0-9]|ey[JK]|bafy|Qm[1-9A-HJ-NP-Za-km-z]{40}"
                            # ids of a record, not keys: Stripe's objects, Vercel's deployments, OpenAI's files
                            r"|(?:cus|pi|pm|evt|ch|in|ii|sub|si|prod|price|txn|acct|seti|src|po|py|re|dp|du|cs|dpl|file"
                            r"|req|msg|batch|run|asst|thread|org|proj)[_-](?=[A-Za-z0-9]{8,}))"
                            # Twilio's resource sids (the account, a message, a call): public ids
                            r"|^(?:SM|AC|MG|MM|CA|PN|CH|IS|US|FW|QU|CF|RE)[0-9a-f]{32}$")
# words on the line that say the value is public, or a digest
_PUBLIC_LINE = re.compile(
    r"(?i)\b(?:integrity|checksum|sha\d*sum|sha(?:1|256|384|512)?|digest|fingerprint|empreinte|fingerabdruck"
    r"|impronta|huella|impressão|hash(?:es)?|etag|nonce|lineage|commit|revert\w*|rollback|cherry-pick\w*|changeset"
    r"|trace(?:parent|_id|-id)?|span|request[_-]?id|correlation|idempotency|public|publishable|client[_-]?id"
    r"|app[_-]?id|zone[_-]?id|account[_-]?id|tenant[_-]?id|cache|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2|encrypteddata"
    r"|ansible_vault|sops|sealedsecret|data:image|base64,|\w*md5\w*|kty|jwks?|dkim1?|domainkey|site-verification"
    r"|verification|magnet|btih|torrent|ipfs|cid|pinned|gpg|pgp)\b|ENC\[|公開|公开|指纹|フィンガープリント|回滚|コミット")
# words that say a value is a key, a secret, a seed — in the sentence around a hex or base32 run
_KEYISH = re.compile(
    r"(?i)(?<![\w/.-])(?:key|keys|secret|signing|seed|totp|2fa|mfa|otp|hmac|psk|password|passwd|\w*schlüssel"
    r"|clé|cle|clef|chiave|schlüssel|schluessel|clave|chave|semilla|semente|graine|seme|segreto|secreto|segredo"
    r"|geheimnis|passwort|senha|contraseña|mot de passe)\b|鍵|密钥|秘钥|密码|密碼|种子|シード|パスワード|秘密")
# an assignment's name before the value that says what it is not: an id, a hash, a version
_PUBLIC_NAME = re.compile(
    r"(?i)(?:^|[^a-z])(?:(?:id|ids|uuid|guid|hash|digest|sha|checksum|integrity|version|ver|rev|revision|etag|nonce"
    r"|lineage|sum|url|uri|host|path|name|image|ref|public[ _-]?key|publickey|peer|kid|modulus|sid|site[_-]?key|sitekey"
    r"|client[_-]?(?:id|token)|clienttoken|\w*encrypted\w*|ciphertext|cipher|iv|tag|auth_tag|salt|build[_-]?id|cursor"
    r"|page[_-]?token|next[_-]?page[_-]?token|signature|sig)[\"']?\s*(?:[:=]\s*[\"']?|\s{2,})"
    # said before the value with a space: only a word that is clearly a label ("trace id 48cc…", "peer kp/2E…")
    r"|(?:id|uuid|sid|kid|hash|digest|checksum|version|etag|peer|nonce)\s"
    # a JSON Web Key's public parts: only as keys (`"n": "…"`, `"e": "AQAB"`)
    r"|[\"'](?:n|e|x|y)[\"']\s*:\s*[\"']?)$")
_BLOCK = re.compile(r"-----BEGIN ([A-Z0-9 ]+)-----(.*?)(?:-----END \1-----|\Z)", re.S)
_PUBLIC_BLOCK = ("PUBLIC KEY", "CERTIFICATE", "PGP PUBLIC KEY BLOCK", "SSH2 PUBLIC KEY", "PGP SIGNATURE",
                 "CERTIFICATE REQUEST", "X509 CRL", "PGP MESSAGE", "AGE ENCRYPTED FILE", "RSA PUBLIC KEY")
_VERSIONISH = re.compile(r"v?\d+\.\d+[\w.+-]*")
# the command a printed value answers: an id, a version, a digest — or git, whose hex is commits
_ID_COMMAND = re.compile(r"(?i)^\s*\$\s.*(?:\bid\b|_id\b|build_id|--version|\bversion\b|digest|sha|hash|\bgit\b"
                         r"|\bhg\b|\bgpg\b|fingerprint|signature|cosign)")
# a file or a package named with a hash or a version in it (`main.27b14c75….js`, `numpy-2.1.3-cp312-…`)
_ARTIFACT = re.compile(r"(?i)\.(?:js|mjs|cjs|css|map|wasm|png|svg|jpe?g|gif|webp|woff2?|ttf|html?|whl|tar|gz|tgz|zip"
                       r"|jar|so|dll)$|\d+\.\d+\.\d+|&(?:amp|lt|gt|quot);|&\w+=")
_EXAMPLES = frozenset({"JBSWY3DPEHPK3PXP", "GEZDGNBVGY3TQOJQ"})  # the RFC's TOTP seeds


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def _classes(s: str) -> tuple[bool, bool, bool, bool]:
    return (any(c.isupper() for c in s), any(c.islower() for c in s), any(c.isdigit() for c in s),
            any(c in _STRONG for c in s))


def _switches(s: str) -> int:
    def cls(c: str) -> int:
        return 0 if c.isupper() else 1 if c.islower() else 2 if c.isdigit() else 3
    return sum(1 for a, b in zip(s, s[1:], strict=False) if cls(a) != cls(b))


def _mixed(v: str) -> bool:
    """A token no person or program would name a thing: long, several kinds of character, mixed."""
    up, low, dig, sym = _classes(v)
    other = any(not c.isalnum() for c in v)
    n = len(v)
    if re.fullmatch(r"[a-z]{2,6}_[0-9a-f_]{32,}", v) and v.count("_") <= 3:
        return _entropy(v) >= 3.4  # a vendor's prefix and a hex body (`squ_d841…`, `sk_ef3f…`)
    if n >= 16 and up and low and dig:
        return _entropy(v) >= (3.7 if n >= 20 else 3.2 if sym else 3.4) and _switches(v) >= n // 3 and looks_random(v, 16)
    if 12 <= n < 16 and up and low and dig and other:
        return _entropy(v) >= 3.3 and _switches(v) >= n // 3 and looks_random(v, 10)
    if 10 <= n < 12 and up and low and dig and sym:
        return _entropy(v) >= 3.2 and looks_random(v, 10)
    if n >= 16 and (up or low) and dig and sym and "/" not in v:
        return _entropy(v) >= 3.5 and _switches(v) >= n // 3 and looks_random(v, 16)
    if n >= 28 and low and dig and not up and not _HEX.fullmatch(v):
        # `napi_l0lxom44td6dz9fich7ha4fm20rzkol…`: one case and digits, long and mixed all along
        core = re.sub(r"^[a-z]{2,6}_", "", v)
        return _entropy(core) >= 4.0 and _switches(core) >= len(core) // 3
    return False


def _names(v: str) -> bool:
    """``test_parse_video_id_dQw4w9WgXcQ``, ``BooLikeAWireGuardKeyOf32Bytes``: words joined into a
    name, with one odd part."""
    if sum(len(w) for w in re.findall(r"[A-Z][a-z]{2,}|(?<![a-z])[a-z]{4,}", v)) >= 0.6 * len(v):
        return True
    parts = [p for p in re.split(r"[_.-]", v) if p]
    words = [p for p in parts if p.isalpha() and len(p) >= 3 and (p.islower() or p.isupper() or p.istitle())]
    return len(words) >= 2 and (len(words) * 2 >= len(parts) or sum(len(w) >= 4 for w in words) >= 2)


def _plain_base64(v: str) -> bool:
    """Base64 of text (a greeting, a script, a certificate): what it says is read where it is decoded."""
    if not re.fullmatch(r"[A-Za-z0-9+/]{16,}={0,2}", v):
        return False
    try:
        raw = base64.b64decode(v + "=" * (-len(v) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    if not raw:
        return False
    printable = sum(1 for b in raw if 32 <= b < 127 or b in (9, 10, 13))
    return printable / len(raw) >= 0.95


_PPK_PUBLIC = re.compile(r"Public-Lines:\s*(\d{1,3})[ \t]*\n")


def _public_blocks(text: str) -> list[tuple[int, int]]:
    out = [m.span() for m in _BLOCK.finditer(text) if m.group(1) in _PUBLIC_BLOCK] if "-----BEGIN" in text else []
    for m in _PPK_PUBLIC.finditer(text) if "Public-Lines:" in text else ():
        end = m.end()
        for _ in range(int(m.group(1))):  # a PuTTY key's public lines
            nxt = text.find("\n", end)
            end = len(text) if nxt < 0 else nxt + 1
        out.append((m.end(), end))
    return out


def bare_spans(text: str) -> list[tuple[int, int, str]]:
    """Spans (start, end, kind) of random-looking values that nothing around them names."""
    spans: list[tuple[int, int, str]] = []
    blocks = _public_blocks(text)
    for m in _RUN.finditer(text):
        s, e = m.span()
        while e > s and text[e - 1] in _TRAIL:
            e -= 1
        raw = text[s:e]
        ent = re.search(r"&(?:[a-z]{2,6}|#\d{2,5});?", raw)
        if ent:  # `…&quot;`: an HTML entity ends the value (the escaped text is read again unescaped)
            raw = raw[:ent.start()]
        # a flag and its value: `--from-literal=value=…`, `/p:…` (xfreerdp), `-password:…`
        f = _FLAG_PREFIX.match(raw)
        if f:
            s, raw = s + f.end(), raw[f.end():]
        if len(raw) < 10 or not _DIGIT.search(raw) or "://" in raw or raw.startswith(("/", "~/", "./")) \
                or re.fullmatch(r"\$\{?\w+\}?|%\w+%|#[\w-]+|--?[A-Za-z][\w-]*", raw) \
                or any(a <= s < b for a, b in blocks):
            continue
        if _PUBLIC_PREFIX.match(raw) or _VERSIONISH.fullmatch(raw) or raw in _EXAMPLES:
            continue
        # the line around the value — a window of it, so a long line (a JSONL record) costs no more
        line_start = max(text.rfind("\n", max(0, s - _WINDOW), s) + 1, s - _WINDOW)
        line_end = text.find("\n", e, e + _WINDOW)
        line_end = line_end if line_end >= 0 else min(len(text), e + _WINDOW)
        line = text[line_start:line_end]
        before = text[line_start:s]
        if re.search(r"&(?:quot|apos|#\d{2,5}|#x[0-9a-fA-F]{2,4});", line):
            continue  # HTML-escaped: the decoding pass reads the line unescaped, and redacts it there
        if _UUID.search(raw) or is_dummy(raw) or _PUBLIC_NAME.search(before[-40:]) or _PUBLIC_LINE.search(line):
            continue
        prev_end = line_start - 1
        prev = text[max(text.rfind("\n", max(0, prev_end - _WINDOW), max(0, prev_end)) + 1, prev_end - _WINDOW):
                    max(0, prev_end)] if prev_end > 0 and text[prev_end] == "\n" else ""
        if _ID_COMMAND.search(prev) or line.lstrip().startswith("$") and _ID_COMMAND.search(line):
            continue
        if _BINARY_DATA.search(text, max(0, s - 300), s):
            continue  # a ConfigMap's binary files: data, not credentials (a Secret's `data:` is read elsewhere)
        # `value=live_5zwo…`, `k:dG9r…`: the value after a name and its sign — or the whole, when
        # the sign is the password's own (`rm8=J9JuD~Brx`, `NY54Xr:D_LKpFkA`)
        kv = re.match(r"([A-Za-z_][\w.-]{0,40}?)(?:=|:)(?!=)(.+)$", raw)
        cands = [(s, raw)]
        if kv and not re.fullmatch(r"[A-Za-z0-9+/]+={1,2}", raw):
            if _PUBLIC_NAME.search(kv.group(1) + "="):
                continue
            cands.insert(0, (s + kv.end(1) + 1, kv.group(2)))
            if re.fullmatch(r"[A-Za-z_][A-Za-z_.-]*", kv.group(1)):
                cands = cands[:1]  # `channel=C0JPS653X4J`: a name and its value, never one password
        for at, v in cands:
            if _VERSIONISH.fullmatch(v) or _names(v) or _plain_base64(v) or _PUBLIC_PREFIX.match(v) \
                    or _ARTIFACT.search(v):
                break  # what the value is says it is public: the name before it is no secret's either
            if _HEX.fullmatch(v) or _B32.fullmatch(v) and not any(c.islower() for c in v):
                # a hex or base32 run is a secret only when the sentence (or the lines above) says so
                if re.search(r"(?i)\b(?:git|gpg|hg)\b", text[max(0, at - 400):at]):
                    break  # a commit, a fingerprint: what git and gpg print
                near = text[max(0, line_start - 2 * _WINDOW):line_end]
                if _KEYISH.search(line) or _KEYISH.search(near) and not _PUBLIC_LINE.search(near):
                    if _HEX.fullmatch(v) or _switches(v) >= len(v) // 4:
                        spans.append((at, at + len(v), "key_named_in_prose"))
                break
            if "/" in v and not re.fullmatch(r"[A-Za-z0-9+/]{16,}={0,2}", v) and not v.startswith("1//0"):
                continue  # a path with a random-looking part, not a base64 value (a Google refresh token is one)
            if _mixed(v) or v.startswith("1//0") and len(v) > 30:
                spans.append((at, at + len(v), "random_secret"))
                break
    return spans


# --- values a structure names: an array a key is spelled in, a column headed "secret" ---------------

_ELEM = r"(?:0x[0-9a-fA-F]{1,2}|'(?:\\.|[^'\\])'|\d{1,3})"
_ARRAY = re.compile(rf"[{{(\[]\s*({_ELEM}(?:\s*,\s*{_ELEM}){{9,}})\s*,?\s*[}})\]]")
_BYTES = re.compile(r"b\"((?:\\x[0-9a-fA-F]{2}){12,})\"")
_ARRAY_NAME = re.compile(r"(?i)key|secret|pass|pwd|token|aes|hmac|cred|sign|cipher|seed|psk|\bpw\b|\biv\b")
_CRYPT = re.compile(r"\$(?:apr1|1|5|6|y|2[abxy]?)\$(?:\d{2}\$[./A-Za-z0-9]{53}|(?:rounds=\d+\$)?[./A-Za-z0-9]{1,22}"
                    r"\$[./A-Za-z0-9]{8,})")
_XML_ELEM = re.compile(r"<(?P<tag>[A-Za-z_][\w:.-]*)(?:\s[^<>]*)?>(?P<v>[^<>\s]{6,})</(?P=tag)>")
_JAAS_USER = re.compile(r"\buser_\w+\s*=\s*\"([^\"\n]{6,})\"")
_ROW_PREFIX = re.compile(r"^[ \t]*(?:\d+→)?[ \t]*")
_SECRET_COLUMNS = frozenset({"cred", "creds", "credential", "credentials", "secret", "secrets", "password", "passwd",
                             "pass", "pwd", "token", "key", "apikey", "api_key", "psk", "passphrase"})


def _lines(text: str):
    at = 0
    for ln in text.split("\n"):
        yield at, ln
        at += len(ln) + 1


def _cells(line: str, csv: bool) -> list[tuple[int, int]]:
    """(start, end) of each cell of a row, in the line."""
    if csv:
        out, at = [], 0
        for part in line.split(","):
            out.append((at, at + len(part)))
            at += len(part) + 1
        return out
    return [m.span() for m in re.finditer(r"\"[^\"]*\"|'[^']*'|\S+", line)]


def _table_spans(text: str, secret_name) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    rows = list(_lines(text))
    for k, (_at, ln) in enumerate(rows):
        pre = _ROW_PREFIX.match(ln)
        body = ln[pre.end():] if pre else ln
        csv = body.count(",") >= 2 and " " not in body.strip() and not body.lstrip().startswith("#")
        head = body.lstrip("# \t") if body.lstrip().startswith("#") else body if csv else ""
        if not head:
            continue
        raw_cols = [c.strip().strip("\"'") for c in (head.split(",") if csv else head.split())]
        cols = [c.lower() for c in raw_cols]
        if len(cols) < 3 or not all(re.fullmatch(r"[a-z_][\w-]{0,20}", c) for c in cols) or not csv and (
                body.lstrip().startswith("##") or not all(c.islower() or c.isupper() for c in raw_cols)):
            continue  # a config file's column comment (`# client server secret IP`), never a Markdown heading
        idx = [i for i, c in enumerate(cols) if c in _SECRET_COLUMNS or secret_name(c)]
        if not idx:
            continue
        for at2, ln2 in rows[k + 1:k + 60]:
            pre2 = _ROW_PREFIX.match(ln2)
            body2 = ln2[pre2.end():] if pre2 else ln2
            if not body2.strip() or body2.lstrip().startswith("#"):
                continue
            if csv and body2.count(",") != body.count(","):
                break
            cells = _cells(body2, csv)
            if not csv and len(cells) != len(cols):
                break
            base = at2 + (pre2.end() if pre2 else 0)
            for i in idx:
                if i < len(cells):
                    a, b = cells[i]
                    v = body2[a:b].strip().strip("\"'")
                    if len(v) >= 6 and not is_dummy(v) and v not in ("*", "-") and not v.startswith(("$", "%")):
                        vs = base + body2.index(v, a)
                        spans.append((vs, vs + len(v), "secret_in_table"))
    return spans


def structured_spans(text: str, secret_name) -> list[tuple[int, int, str]]:
    """Spans of secrets a structure shows without a name beside the value: a key spelled as an array
    of bytes or characters under a key's name, a password hash in an htpasswd line, an XML element named for a password, a Kafka JAAS user, a column headed secret."""
    spans: list[tuple[int, int, str]] = []
    for rx in (_ARRAY, _BYTES):
        for m in rx.finditer(text):
            ls = text.rfind("\n", 0, text.rfind("\n", 0, m.start()) if m.start() else 0) + 1
            le = text.find("\n", m.end())
            le = text.find("\n", le + 1) if le >= 0 else -1
            around = text[ls:le if le >= 0 else len(text)]
            if _ARRAY_NAME.search(around) or "fromCharCode" in text[max(0, m.start() - 20):m.start()] and re.search(
                    r"(?i)pass|secret|token|key", around):
                spans.append((m.start(1), m.end(1), "secret_bytes"))
    spans += [(m.start(), m.end(), "password_hash") for m in _CRYPT.finditer(text)] if "$" in text else []
    for m in _XML_ELEM.finditer(text):
        tag = m.group("tag").split(":")[-1]
        if tag.lower() in _SECRET_COLUMNS or secret_name(tag):
            spans.append((m.start("v"), m.end("v"), "xml_secret"))
    if "LoginModule" in text:
        spans += [(m.start(1), m.end(1), "password") for m in _JAAS_USER.finditer(text)]
    if "," in text or "#" in text:
        spans += _table_spans(text, secret_name)
    return spans
