"""Secrets in the forms beyond one token on one line (issue #20, item 5), each with fresh values
drawn here from the right alphabet, and the benign look-alikes each form must keep."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from urllib.parse import quote

import pytest

from slowloop.safety.redact import redact
from slowloop.safety.secret_forms import is_dummy, looks_random

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
SYMBOLS = "!#%*^.-_~"
SEEDS = [3, 11, 2026]


def _draw(rng: random.Random, alphabet: str, n: int) -> str:
    """A value from ``alphabet`` with at least one digit, one upper and one lower letter where the
    alphabet has them (a real key has all three; a draw of letters only would be a word)."""
    while True:
        v = "".join(rng.choice(alphabet) for _ in range(n))
        need = [cls for cls in (string.digits, string.ascii_uppercase, string.ascii_lowercase)
                if any(c in alphabet for c in cls)]
        if all(any(c in cls for c in v) for cls in need):
            return v


def _password(rng: random.Random, n: int = 16) -> str:
    return _draw(rng, ALNUM, n - 2) + rng.choice(SYMBOLS[:4]) + rng.choice(string.digits)


def _leaks(text: str, *secrets: str) -> list[str]:
    out = redact(text).text
    return [s for s in secrets if s in out]


# --- continuations ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_a_secret_split_over_lines_is_redacted_where_the_syntax_continues_it(seed):
    rng = random.Random(seed)
    head, tail = "ghp_" + _draw(rng, ALNUM, 36), _draw(rng, ALNUM, 30)
    assert not _leaks(f"export GH_TOKEN={head}\\\n{tail}\nnext command", head, tail)
    sk1, sk2 = "sk-ant-api03-" + _draw(rng, ALNUM + "_-", 40), _draw(rng, ALNUM + "_-", 40)
    assert not _leaks(f'KEY = (\n    "{sk1}"\n    "{sk2}"\n)', sk1, sk2)  # implicit concatenation
    assert not _leaks(f'const key = "{sk1}" +\n  "{sk2}";', sk1, sk2)  # with +
    assert not _leaks(f'OPENAI_API_KEY="sk-proj-{tail}{head[4:]}\n{sk2}"', sk2)  # an unclosed quote
    a, b = _draw(rng, ALNUM, 20), _draw(rng, ALNUM, 20)
    assert not _leaks(f"aws:\n  secret_access_key: >-\n    {a}\n    {b}\nregion: eu\n", a, b)
    out = redact(f"aws:\n  secret_access_key: |\n    {a}\n    {b}\n  region: eu-west-1\n").text
    assert a not in out and b not in out and "region: eu-west-1" in out and "|" in out


def test_the_next_line_is_kept_when_the_syntax_does_not_continue_the_secret():
    key = "ghp_" + _draw(random.Random(5), ALNUM, 36)
    for text, kept in [
        (f"export GH_TOKEN={key} \\\n  --verbose-mode-flag", "--verbose-mode-flag"),  # a new word
        (f'KEY = "{key}"\nNAME = "release-candidate"', "release-candidate"),
        (f'tokens = ["{key}",\n  "kebab-case-name"]', "kebab-case-name"),
        (f"password: >-\n  {key}\nhost: db-primary-01\n", "host: db-primary-01"),
        (f'"token": "{key}"\n"region": "eu-west-1"', '"region": "eu-west-1"'),
    ]:
        out = redact(text).text
        assert key not in out and kept in out, out


# --- encoded forms ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_a_base64_blob_holding_a_secret_is_redacted(seed):
    rng = random.Random(seed)
    pw = _password(rng)
    dotenv = f"NODE_ENV=production\nDB_HOST=db.internal\nDB_PASSWORD={pw}\n"
    blob = base64.b64encode(dotenv.encode()).decode()
    assert not _leaks(f"$ echo $DOTENV_B64\n{blob}\n", blob, pw)
    docker = json.dumps({"auths": {"registry.example.io": {"username": "ci", "password": pw}}})
    blob = base64.b64encode(docker.encode()).decode()
    out = redact(f"data:\n  .dockerconfigjson: {blob}\n").text
    assert blob not in out and ".dockerconfigjson:" in out
    yaml = f"slack:\n  token: xoxb-{rng.randrange(10**11, 10**12)}-{_draw(rng, ALNUM, 24)}\n"
    assert not _leaks("CONFIG_B64=" + base64.b64encode(yaml.encode()).decode(),
                      base64.b64encode(yaml.encode()).decode())


def test_base64_that_holds_no_secret_is_kept():
    rng = random.Random(9)
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(120))).decode()
    prose = base64.b64encode(b"hello world, this is just a readme line about the build").decode()
    sha = hashlib.sha256(b"x").digest()
    for text in (f"![logo](data:image/png;base64,{png})", f"README_B64={prose}",
                 f"integrity: sha256-{base64.b64encode(sha).decode()}",
                 f"checksum {hashlib.sha256(b'y').hexdigest()}"):
        assert redact(text).text == text


@pytest.mark.parametrize("seed", SEEDS)
def test_a_url_encoded_run_is_decoded_redacted_and_left_readable(seed):
    rng = random.Random(seed)
    token = "ghp_" + _draw(rng, ALNUM, 36)
    url = f"https://x-access-token:{token}@github.com/acme/api"
    out = redact(f"GET /callback?redirect={quote(url, safe='')} HTTP/1.1").text
    assert token not in out and quote(token) not in out
    assert "github.com/acme/api" in out and "x-access-token:" in out
    plain = f"GET /search?q={quote('how to rotate a github token', safe='')}&page=2"
    assert redact(plain).text == plain


# --- prose --------------------------------------------------------------------------------------

@pytest.mark.parametrize("template", [
    "the staging db password is {v} — can you check the migration?",
    "Your access token is {v}",
    "das Passwort ist {v}, bitte nicht weitergeben",
    "le mot de passe est {v}.",
    "la contraseña es {v}",
    "a senha é {v} para o servidor",
    "数据库密码是 {v}",
    "パスワードは {v} です",
    "la password del server è {v}",
    "het wachtwoord is {v}",
    "пароль: {v}",
    "the api key is `{v}`",
    "secret: {v}",
])
@pytest.mark.parametrize("seed", SEEDS)
def test_prose_naming_a_random_looking_value_is_redacted(template, seed):
    v = _password(random.Random(seed), 14)
    assert not _leaks(template.format(v=v), v)


@pytest.mark.parametrize("text", [
    "the password is stored in the vault, not in the repo",
    "your access token is expired; run gh auth login again",
    "the secret is in ~/.config/app/credentials.toml",
    "the token is release-candidate-two",
    "the password is 12345678 according to the ticket",  # digits only: an example, not a key
    "das Passwort ist falsch",
    "the api key is OPENAI_API_KEY in the environment",
    "token budget is 12000 tokens per request",
    "the token is v1.4.2-rc1 compatible",
])
def test_prose_about_a_secret_that_names_none_is_kept(text):
    assert redact(text).text == text


# --- code ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_literal_handed_to_a_client_or_auth_call_is_redacted(seed):
    rng = random.Random(seed)
    b64key = _draw(rng, B64, 86) + "=="
    hexkey = _draw(rng, HEX, 32)
    pw = _password(rng)
    cases = [
        (f'var client = new CosmosClient("https://acme.documents.azure.com:443/", "{b64key}");', b64key),
        (f'rollbar.init("{hexkey}", environment="production")', hexkey),
        (f"const client = algoliasearch('APP{rng.randrange(10**6)}', '{hexkey}');", hexkey),
        (f"$pw = ConvertTo-SecureString '{pw}' -AsPlainText -Force", pw),
        (f"establish_connection(adapter: 'postgresql', username: 'app', password: '{pw}')", pw),
        (f'"Jwt": {{ "Issuer": "acme", "Key": "{pw}" }}', pw),
        (f'network={{\n    ssid="office"\n    psk="{pw}"\n}}', pw),
        (f"DB_PASSWORD=#{pw}", pw),
    ]
    for text, secret in cases:
        assert not _leaks(text, secret), text


@pytest.mark.parametrize("text", [
    'client = Client("https://api.example.com/v1", timeout=30)',
    'sentry_sdk.init("production-environment-name")',
    "conn = connect('postgresql://localhost/app_development')",
    'auth.login("alice@example.com")',
    f'client = Client(request_id="{uuid.UUID(int=7)}")',
    "DB_PASSWORD= # set in the vault",
    "COLOR=#ff8800",
    '"Key": "ConnectionStrings"',
    'FAKE_TOKEN = "test-token"\nclient = Client(token=FAKE_TOKEN)',
    "$s = ConvertTo-SecureString $env:PW -AsPlainText -Force",
    '{"embeddings.token_type_embeddings.weight": rng.normal(size=(2, hidden))}',
    '{"type": "started", "key": "v2:stage0key", "agentId": "agent_s1"}',
    '>>> client = AsyncInferenceClient("meta-llama/Meta-Llama-3-70B-Instruct")',
    '"Cryptography_HAS_PSK_TLSv1_3": cryptography_has_psk_tlsv13,',
    'UNRESERVED_PAT = r"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-~"',
    'IPV4_PAT = r"(?:[0-9]{1,3}\\.){3}[0-9]{1,3}"',
    'verify_token="eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...",',
    'Parameters: {"authenticity_token"=>"[FILTERED]", "password"=>"[FILTERED]"}',
])
def test_code_look_alikes_are_kept(text):
    assert redact(text).text == text


# --- shapes -------------------------------------------------------------------------------------

def _discord(rng: random.Random) -> str:
    bot_id = str(rng.randrange(10**17, 10**19))
    head = base64.b64encode(bot_id.encode()).decode().rstrip("=")
    return f"{head}.{_draw(rng, ALNUM + '_-', 6)}.{_draw(rng, ALNUM + '_-', 38)}"


@pytest.mark.parametrize("seed", SEEDS)
def test_shapes_without_their_vendor_named(seed):
    rng = random.Random(seed)
    discord, aio, hexkey = _discord(rng), "aio_" + _draw(rng, ALNUM, 28), _draw(rng, HEX, 32)
    sig, zap, ifttt = _draw(rng, HEX, 64), _draw(rng, string.ascii_lowercase + string.digits, 6), \
        _draw(rng, ALNUM + "-", 22)
    team, sess = _draw(rng, ALNUM, 22), _draw(rng, HEX, 32)
    cases = [
        (f"bot.run('{discord}')", discord),
        (f'IO_KEY = "{aio}"', aio),
        (f"SENTRY_DSN=https://{hexkey}@o{rng.randrange(10**6)}.ingest.sentry.io/{rng.randrange(10**7)}", hexkey),
        (f"https://b.s3.amazonaws.com/r.csv?X-Amz-Date=20261201T101500Z&X-Amz-Signature={sig}", sig),
        (f"https://hooks.zapier.com/hooks/catch/{rng.randrange(10**7)}/{zap}/", zap),
        (f"curl -X POST https://maker.ifttt.com/trigger/door/with/key/{ifttt}", ifttt),
        (f"Authorization: api-{uuid.UUID(int=rng.getrandbits(128))}", "api-"),
        (f"curl -b 'PHPSESSID={sess}; lang=en' https://intranet.example.io", sess),
        (f"JSESSIONID={sess.upper()}", sess.upper()),
    ]
    for header in ("x-honeycomb-team", "x-vault-token", "x-figma-token", "x-shopify-access-token",
                   "dd-api-key", "dd-application-key", "x-rapidapi-key", "ocp-apim-subscription-key",
                   "x-functions-key", "x-postmark-server-token", "x-algolia-api-key", "apikey", "X-Auth-Token"):
        cases.append((f"{header}: {team}", team))
        cases.append((f'{{"{header}": "{team}"}}', team))
    for text, secret in cases:
        out = redact(text).text
        assert secret not in out if secret != "api-" else "[REDACTED:" in out, (text, out)


def test_a_putty_key_keeps_its_public_lines():
    rng = random.Random(4)
    pub, priv, mac = _draw(rng, B64, 64), _draw(rng, B64, 64), _draw(rng, HEX, 64)
    ppk = (f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 1\n{pub}\n"
           f"Private-Lines: 2\n{priv}\n{priv[::-1]}\nPrivate-MAC: {mac}\n")
    out = redact(ppk).text
    assert priv not in out and priv[::-1] not in out and mac not in out
    assert pub in out and "Private-Lines: 2" in out


@pytest.mark.parametrize("text", [
    "ssh://git@github.com/acme/api.git",
    "https://alice@example.com/repo",
    f"https://{'a' * 6}@example.com",
    "Authorization: Bearer",
    "Authorization: required for every request",
    "x-request-id: 7f3a9c2e",
    "x-api-version: 2024-10-01",
    "the MTU is 1500 and NTP.org is used",
    "sessionid=short",
    "https://example.com/?X-Amz-Algorithm=AWS4-HMAC-SHA256",
])
def test_shape_look_alikes_are_kept(text):
    assert redact(text).text == text


# --- benign look-alikes that used to be lost ----------------------------------------------------

@pytest.mark.parametrize("text,kept", [
    ("github:\n  token: ghp_" + "x" * 36 + "  # replace me", "ghp_" + "x" * 36),
    ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("DATABASE_URL=postgresql://user:password@localhost:5432/mydb", "user:password@localhost"),
    ("For example: `curl -u alice:secret https://example.com/api`", "alice:secret"),
    ("OPENAI_API_KEY=sk-proj-" + "*" * 28 + "abcd", "sk-proj-****"),
    ('FAKE_TOKEN = "test-token"', '"test-token"'),
    ("admin:admin is the default: mongodb://admin:admin@localhost", "admin:admin@localhost"),
    (f"commit {hashlib.sha1(b'z').hexdigest()} and id {uuid.UUID(int=99)}", hashlib.sha1(b"z").hexdigest()),
    ("md5 " + hashlib.md5(b"q").hexdigest(), hashlib.md5(b"q").hexdigest()),  # noqa: S324 - a look-alike
])
def test_benign_look_alikes_survive(text, kept):
    assert kept in redact(text).text


def test_a_key_as_url_user_and_a_password_are_both_redacted_and_the_marker_stays_whole():
    rng = random.Random(8)
    key_id, pw = "AKIA" + _draw(rng, string.ascii_uppercase + string.digits, 16), _draw(rng, B64, 44)
    out = redact(f"SMTP_URL=smtp://{key_id}:{quote(pw, safe='')}@email-smtp.eu-west-1.amazonaws.com:587").text
    assert out == "SMTP_URL=smtp://[REDACTED:aws_access_key_id]:[REDACTED:url_password]@email-smtp.eu-west-1.amazonaws.com:587"
    assert redact('{"refresh_token_expires_in":15811200}').text == '{"refresh_token_expires_in":15811200}'


def test_a_real_value_next_to_those_words_is_still_redacted():
    rng = random.Random(21)
    pw, key = _password(rng), "ghp_" + _draw(rng, ALNUM, 36)
    out = redact(f"DATABASE_URL=postgresql://user:{pw}@db:5432/app\ntoken: {key}\n"
                 f"DB_PASSWORD=correct-horse-battery-staple").text
    assert pw not in out and key not in out and "correct-horse-battery-staple" not in out


@pytest.mark.parametrize("value,random_", [
    ("x2DvV.RsiE^S01fj5B", True), ("zIcijZFYfJr8o3IhcR05uk", True), ("96638e0c2204460598dcb6b3d2d2f884", True),
    ("stored", False), ("my-service-v2", False), ("/etc/app.conf", False), ("1.4.2-rc1", False),
    ("user@example.com", False), ("deploy.yaml", False), ("release_2024_candidate", False),
    ("12345678", False), ("deadbeef", False), ("rng.normal(size=(2,", False), ("v2:stage0key", False),
])
def test_looks_random(value, random_):
    assert looks_random(value) is random_


@pytest.mark.parametrize("value,dummy", [
    ("AKIAIOSFODNN7EXAMPLE", True), ("ghp_" + "0" * 36, True), ("sk-proj-****abcd", True),
    ("test-token", True), ("password", True), ("correct-horse-battery", False), ("s3cr3t-value", False),
])
def test_is_dummy(value, dummy):
    assert is_dummy(value) is dummy


@pytest.mark.parametrize("seed", SEEDS)
def test_the_second_round_of_forms(seed):
    """Every literal of a call, a vendor's constructor, prose with no verb, an Authorization scheme
    slowloop does not know, two literals that make one key, a framework's session cookie, an
    HTML-escaped line, a Ruby hash, a bytes literal, a quoted curl -u password."""
    rng = random.Random(seed)
    sid, token, key = "AC" + _draw(rng, HEX, 32), _draw(rng, HEX, 32), "re_" + _draw(rng, ALNUM, 30)
    pw, uid = _password(rng), str(uuid.UUID(int=rng.getrandbits(128)))
    g1, g2 = "AIzaSy" + _draw(rng, ALNUM + "-", 14), _draw(rng, ALNUM + "-", 19)
    a1, a2 = "LTAI" + _draw(rng, ALNUM, 8), _draw(rng, ALNUM, 12)
    cookie = _draw(rng, ALNUM, 40).replace("a", "%2B")
    cases = [
        (f'client = Client("{sid}", "{token}")', token),
        (f"export const resend = new Resend('{key}');", key),
        (f"staging box 10.0.7.21, user ops, password {pw} — same for sudo", pw),
        (f"Der VPN-Zugang: Benutzer dana, Kennwort {pw} – bitte nicht speichern.", pw),
        (f"Key         Value\n---         -----\npassword    {pw}\nusername    billing", pw),
        (f"-H 'Authorization: GenieKey {uid}'", uid),
        (f"Authorization: Api-Key {_draw(rng, ALNUM, 40)}", "Api-Key [REDACTED:"),
        (f'private static final String KEY = "{g1}"\n        + "{g2}";', g2),
        (f'\tAccessKeyID:     "{a1}" +\n\t\t"{a2}",', a2),
        (f'{{"HTTP_COOKIE"=>"_shop_session={cookie}"}}', cookie),
        (f"<td>{{&quot;DB_USER&quot;: &quot;ci&quot;, &quot;DB_PASSWORD&quot;: &quot;{pw}&quot;}}</td>", pw),
        (f'params = {{"user" => "dana", "password" => "{pw}"}}', pw),
        (f"app.secret_key = b'{token}'", token),
        (f"curl -fsS -u ci-bot:'{pw}' https://nexus.example.dev/", pw),
    ]
    for text, secret in cases:
        out = redact(text).text
        assert (secret in out) if secret.endswith("[REDACTED:") else (secret not in out), (text, out)


@pytest.mark.parametrize("text", [
    'logger = logging.getLogger("slowloop.recall.encoder.hot")',
    "raise Error(new ValueError('the-value-was-not-found-in-the-index'))",
    'KEY = "first-part"\n    "second-part"',
    'name = "release"\n"notes": "x"',
    "the password field is required",
    "Authorization: Digest username=\"Mufasa\", realm=\"x\"",
    "Authorization header missing on the request",
    "<p>She said &quot;hello world&quot; twice</p>",
    '{"apiKey": "AIzaSy...", "authDomain": "your-app.firebaseapp.com"}',
])
def test_the_second_round_of_look_alikes(text):
    assert redact(text).text == text


def test_many_encoded_pieces_are_read_in_one_pass_and_only_the_secret_changes():
    rng = random.Random(12)
    pw = _password(rng)
    lines = [f"GET /s?q={quote(f'rotate the key {i}', safe='')}&r={quote('https://example.com/a', safe='')}"
             for i in range(300)]
    lines.insert(150, f"GET /cb?next={quote(f'https://ci:{pw}@nexus.example.dev/x', safe='')}")
    key = _draw(rng, ALNUM, 24)
    lines.append(f"<td>{{&quot;api_key&quot;: &quot;{key}&quot;}}</td>")
    text = "\n".join(lines)
    out = redact(text).text.split("\n")
    assert pw not in out[150] and "nexus.example.dev/x" in out[150]
    assert "[REDACTED:" in out[-1] and "&quot;" not in out[-1]
    assert out[:150] + out[151:-1] == lines[:150] + lines[151:-1]
