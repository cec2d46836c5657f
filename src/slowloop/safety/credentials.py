"""Credentials that only their place gives away: a password after a program's password flag, in
a config file's password field, in ``.netrc`` or ``.pgpass``, in SQL; and vendor tokens whose
shape alone is not distinctive enough for :mod:`.redact`'s shaped list.

Each rule is ``(kind, hints, pattern)``: the secret is the pattern's last group, and the rule runs
only when one of its hints is in the text (the redaction pass stays linear and cheap). The program
and its other arguments are kept, so a transcript still says what was run.

Why not detect-secrets' plugins as they are: measured on the adv1 blind secrets set, its vendor and
keyword plugins found 1 of the 71 secrets slowloop missed, and its entropy plugins, which found 55,
also fired on 93 of the 104 benign look-alikes (git SHAs, checksums, UUIDs) — they would turn every
transcript into markers. So slowloop keeps gitleaks'/detect-secrets' *shapes* (in :mod:`.redact`)
and judges high-entropy strings only where a credential's context says one sits (this module).
"""

from __future__ import annotations

import re

__all__ = ["CONTEXTUAL"]

_V = r"[\"']?([^\s\"']{4,})[\"']?"  # a value, quotes kept outside the secret
_Q = r"(?:\"([^\"\n]{4,})\"|'([^'\n]{4,})'|([^\s\"']{4,}))"

CONTEXTUAL: list[tuple[str, tuple[str, ...], re.Pattern[str]]] = [
    # password flags of common programs (the program is named: "-p" alone means many things)
    ("password", ("redis-cli",), re.compile(r"(\bredis-cli\b[^\n]*?\s(?:-a|--pass)\s+)" + _V)),
    ("password", ("ldap",), re.compile(r"(\bldap\w+\b[^\n]*?\s-w\s+)" + _V)),
    ("password", ("pass",), re.compile(r"(\s-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass)\s+)" + _V)),
    ("password", ("pass:",), re.compile(r"(\s-pass(?:out|in)\s+pass:)([^\s\"']{4,})")),
    ("password", ("htpasswd",), re.compile(r"(\bhtpasswd\s+-\w*b\w*\s+(?:-\w+\s+)*\S+\s+\S+\s+)" + _V)),
    ("password", ("zip",), re.compile(r"(\b(?:zip|7z|7za)\b[^\n]*?\s-(?:P\s+|p))" + _V)),
    ("password", ("sqlcmd", "bcp", "isql"), re.compile(r"(\b(?:sqlcmd|bcp|isql)\b[^\n]*?\s-P\s*)" + _Q)),
    ("password", ("login",), re.compile(r"(\b(?:docker|podman|helm\s+registry|oras|buildah)\s+login\b[^\n]*?\s(?:-p|--password)[ =])" + _V)),
    ("password", ("smbclient", "mount"), re.compile(r"(\s-U\s+[^\s%]+%)([^\s\"']{4,})")),
    ("password", ("net use",), re.compile(r"(\bnet\s+use\s+\S+\s+)([^\s/\"']{4,})(?=\s+/user:)", re.I)),
    ("password", ("alias set",), re.compile(r"(\bmc\s+alias\s+set\s+\S+\s+\S+\s+\S+\s+)" + _V)),
    ("password", ("az login", "az ad"), re.compile(r"(\baz\s+(?:login|ad\s+\S+)\b[^\n]*?\s(?:-p|--password)[ =])" + _V)),
    ("password", ("--password", "--passwd", "--pass="), re.compile(r"(--pass(?:word|wd)?[= ])" + _V)),
    ("password", ("echo",), re.compile(r"(\becho\s+)" + r"[\"']?([^\s\"'|]{6,})[\"']?(?=\s*\|\s*sudo\s+-S\b)")),
    ("password", ("PGPASSWORD", "MYSQL_PWD", "REDISCLI_AUTH"), re.compile(
        r"(\b(?:PGPASSWORD|MYSQL_PWD|REDISCLI_AUTH)=)" + _V)),
    # SQL: CREATE USER … IDENTIFIED BY '…', ALTER ROLE … PASSWORD '…'
    ("password", ("IDENTIFIED", "identified"), re.compile(r"(\bidentified\s+by\s+(?:password\s+)?)'([^'\n]{4,})'", re.I)),
    ("password", ("PASSWORD", "password"), re.compile(r"(\b(?:role|user)\b[^\n;]*?\bpassword\s+)'([^'\n]{4,})'", re.I)),
    # config files
    ("password", ("<",), re.compile(
        r"(<(?:password|passwd|secret|token|apiKey|api_key|apitoken|accessKey|secretKey|privateKey|clientSecret|"
        r"storePassword|keyPassword)>)([^<\s]{4,})(?=</)", re.I)),
    ("password", ("machine",), re.compile(r"(\bmachine\s+\S+\s+(?:login\s+\S+\s+)?password\s+)([^\s]{4,})")),
    ("password", (":",), re.compile(r"(?m)(^[^\s:#]+:(?:\d+|\*):[^\s:]+:[^\s:]+:)([^\s]{4,})$")),  # .pgpass
    ("password", ("define",), re.compile(
        r"(\bdefine\s*\(\s*['\"]\w*(?:PASSWORD|PASS|SECRET|KEY|SALT|TOKEN)\w*['\"]\s*,\s*['\"])([^'\"\n]{4,})(?=['\"])")),
    ("password", ("ENV.fetch", "getenv", "environ.get"), re.compile(
        r"((?:ENV\.fetch|getenv|environ\.get)\(\s*['\"]\w*(?:PASS|SECRET|TOKEN|KEY)\w*['\"]\s*,\s*['\"])([^'\"\n]{6,})(?=['\"])")),
    ("api_key", ('"Key"', '"key"', '"Secret"', '"secret"'), re.compile(
        r"(\"(?:Key|key|Secret|secret|SigningKey|ApiKey)\"\s*:\s*\")([A-Za-z0-9+/=_.~-]{16,})(?=\")")),
    ("npm_auth", ("_auth",), re.compile(r"(\b_auth(?:Token)?\s*=\s*)([A-Za-z0-9+/=._-]{12,})")),
    ("cookie", ("ookie",), re.compile(
        r"((?:sessionid|session|sid|connect\.sid|_session|csrftoken|auth_token|remember_token|JSESSIONID|PHPSESSID)"
        r"=)([A-Za-z0-9%._~+/=-]{16,})")),
    # a token in a URL's query or a webhook's path
    ("url_token", ("=",), re.compile(
        r"([?&](?:key|token|access_token|auth|secret|signature|sig|X-Goog-Signature|Signature|code|apikey|api_key|k)=)"
        r"([A-Za-z0-9%._~+/=-]{16,})")),
    ("webhook_key", ("hook",), re.compile(
        r"(\bhooks?/[\w/-]*?)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9]{24,})(?![\w-])")),
    ("splunk_hec", ("Splunk",), re.compile(r"(\bSplunk\s+)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")),
    # vendor shapes the shaped list does not carry
    ("google_oauth_token", ("ya29.",), re.compile(r"()(ya29\.[A-Za-z0-9_-]{20,})")),
    ("tailscale_key", ("tskey-",), re.compile(r"()(tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9_-]{10,})")),
    ("docker_pat", ("dckr_pat_",), re.compile(r"()(dckr_pat_[A-Za-z0-9_-]{20,})")),
    ("tencent_secret_id", ("AKID",), re.compile(r"()(AKID[A-Za-z0-9]{32})(?![A-Za-z0-9])")),
    ("render_key", ("rnd_",), re.compile(r"()(rnd_[A-Za-z0-9]{24,})")),
    ("mollie_key", ("live_", "test_"), re.compile(r"((?:mollie|Mollie|MOLLIE)[^\n]{0,60}?)((?:live|test)_[A-Za-z0-9]{30,})")),
    ("launchdarkly_key", ("sdk-", "api-", "mob-"), re.compile(
        r"()((?:sdk|mob)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")),
    ("fernet_token", ("gAAAAA",), re.compile(r"()(gAAAAA[A-Za-z0-9_=-]{40,})")),
    ("salesforce_session", ("00D",), re.compile(r"()(00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{40,})")),
    ("okta_token", ("00",), re.compile(r"((?:SSWS\s+|okta[^\n]{0,40}?))(00[A-Za-z0-9_-]{40})(?![A-Za-z0-9_-])", re.I)),
    ("fcm_server_key", (":APA91b",), re.compile(r"()(AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,})")),
    ("elastic_api_key", ("ApiKey",), re.compile(r"(\bApiKey\s+)([A-Za-z0-9+/]{20,}={0,2})")),
    ("heroku_key", ("heroku",), re.compile(
        r"(heroku[^\n]{0,80}?)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", re.I)),
]
