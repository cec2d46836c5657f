"""Secret redaction: every kind the bundle must never carry, and the look-alikes it must keep."""

from __future__ import annotations

import random

import pytest

from slowloop.safety.redact import is_secret_name, redact

OPENAI = "sk-proj-Abc123def456ghi789jkl012mno345pqr"
GITHUB = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.mark.parametrize("text,secret,kind", [
    (f"key {OPENAI} here", OPENAI, "openai_key"),
    ("sk-abcdefghij1234567890klmnopqrstuv", "sk-abcdefghij1234567890klmnopqrstuv", "openai_key"),
    ("sk-ant-api03-AbCdEf0123456789ghijklmnopqrstu", "sk-ant-api03-AbCdEf0123456789ghijklmnopqrstu",
     "anthropic_key"),
    ("maps AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIzaSyA1234567890abcdefghijklmnopqrstuv",
     "google_api_key"),
    ("id AKIAQ7RZ3WMXK2PLD4VN", "AKIAQ7RZ3WMXK2PLD4VN", "aws_access_key_id"),
    ("id ASIAY34FZKBOKMUTVV7A", "ASIAY34FZKBOKMUTVV7A", "aws_access_key_id"),
    ("aws_secret_access_key = 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",
     "q8Vd2Lm/Xr5TzN0pKw7+HbYc3FgJ9sAeRuQi1oWn", "aws_secret_key"),
    (f"token {GITHUB}", GITHUB, "github_token"),
    ("gho_abcdefghijklmnopqrstuvwxyz0123456789AB", "gho_abcdefghijklmnopqrstuvwxyz0123456789AB",
     "github_token"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
     "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_token"),
    ("slack xoxb-1234567890-abcdefghij", "xoxb-1234567890-abcdefghij", "slack_token"),
    ("stripe sk_live_abcdefghijklmnop1234", "sk_live_abcdefghijklmnop1234", "stripe_key"),
    ("rk_live_abcdefghijklmnop1234", "rk_live_abcdefghijklmnop1234", "stripe_key"),
    ("hf_AbCdEfGhIjKlMnOpQrStUvWxYz12345678", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz12345678",
     "huggingface_token"),
    ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9",
     "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9", "jwt"),
    ('curl -H "Authorization: Bearer abc.def-ghi_jkl123456" https://x', "abc.def-ghi_jkl123456",
     "bearer_token"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA==", "basic_auth"),
    ("export OPENAI_API_KEY=not-a-known-shape-1234", "not-a-known-shape-1234", "api_key"),
    ("API_KEY=abc123def456", "abc123def456", "api_key"),
    ("SECRET=topsecret", "topsecret", "secret"),
    ("export SLACK_TOKEN='t0k3n-value'", "t0k3n-value", "token"),
    ("DB_PASSWORD=hunter2", "hunter2", "password"),
    ("PASSWD=hunter2", "hunter2", "password"),
    ("PRIVATE_KEY=abcdef0123456789", "abcdef0123456789", "private_key"),
    ("WEBHOOK_SECRET=whsec_abc123", "whsec_abc123", "secret"),
    ('{"api_key": "abcd1234efgh5678"}', "abcd1234efgh5678", "api_key"),
    ('{"clientSecret":"s3cr3t-value"}', "s3cr3t-value", "secret"),
    ("password: hunter2", "hunter2", "password"),
    ("db:\n  password: 'p@ss w0rd'\n", "p@ss w0rd", "password"),
    ("client(api_key='abc123def456xyz')", "abc123def456xyz", "api_key"),
    ("mysql --password hunter2 -h db", "hunter2", "password"),
])
def test_each_kind_is_redacted(text, secret, kind):
    result = redact(text)
    assert secret not in result.text
    assert f"[REDACTED:{kind}]" in result.text
    assert result.count >= 1 and result.kinds.get(kind, 0) >= 1


def test_password_in_url_keeps_user_and_host():
    for text in ("postgres://admin:s3cr3t@db.example.com:5432/app",
                 "DATABASE_URL=postgres://admin:s3cr3t@db.example.com/app",
                 "git clone https://bob:tok3n@github.com/org/repo.git"):
        result = redact(text)
        assert "s3cr3t" not in result.text and "tok3n" not in result.text
        assert ":[REDACTED:url_password]@" in result.text
        assert ("admin" in result.text or "bob" in result.text)
        assert ("db.example.com" in result.text or "github.com" in result.text)
        assert result.count == 1


def test_pem_private_key_block_whole_and_truncated():
    block = ("before\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdef\n"
             "abcdefABCDEF0123==\n-----END RSA PRIVATE KEY-----\nafter the key")
    result = redact(block)
    assert result.text == "before\n[REDACTED:private_key]\nafter the key"
    cut = "x\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAABG5vbmU=\n"
    truncated = redact(cut + "Then the prose goes on.")
    assert "b3BlbnNzaC1rZXktdjEAAAAA" not in truncated.text
    assert truncated.text.endswith("Then the prose goes on.")
    escaped = redact('{"key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg\\n-----END PRIVATE KEY-----\\n"}')
    assert "MIIEvQIBADANBg" not in escaped.text


@pytest.mark.parametrize("text", [
    "The token budget is 12000 tokens; the user pressed the key.",
    "commit 3f1c2a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
    "request id 123e4567-e89b-12d3-a456-426614174000",
    "/home/user/.ssh/known_hosts and src/slowloop/safety/token_utils.py",
    "token_count: 42",
    '{"max_tokens": 100, "token_count": 5, "prompt_tokens": 9}',
    "max_tokens=100",
    "PASSWORD_MIN_LENGTH=8",
    "TOKEN_TTL=3600",
    'api_key_env = "OPENAI_API_KEY"',
    "api_key = os.environ['OPENAI_API_KEY']",
    "token = self.token",
    "password = getpass()",
    "def login(token: str, password: str | None = None):",
    "API_KEY=${OPENAI_API_KEY}",
    "API_KEY=$OPENAI_API_KEY",
    "password: <your-password>",
    "API_KEY=your-api-key-here",
    "sort_key=name; primary_key=id; keyboard layout",
    "the hf_hub_download function and sk-learn",
    "Token: see the vault for details.",
    "Basic usage of the Basic authentication scheme",
    "a task-runner-configuration-for-the-build-0123456789 slug",
    "https://example.com:8080/path?token_count=3",
    "git@github.com:org/repo.git",
    "Bearer tokens expire after an hour.",
])
def test_look_alikes_are_kept(text):
    result = redact(text)
    assert result.text == text, result.kinds
    assert result.count == 0 and result.kinds == {}


def test_counts_by_kind_and_idempotence():
    text = f"A={OPENAI}\nB {GITHUB} and {GITHUB}\npassword: hunter2\n"
    first = redact(text)
    assert first.kinds == {"openai_key": 1, "github_token": 2, "password": 1}
    assert first.count == 4
    again = redact(first.text)
    assert again.text == first.text and again.count == 0


@pytest.mark.parametrize("name,secret", [
    ("API_KEY", True), ("db_password", True), ("clientSecret", True), ("GITHUB_TOKEN", True),
    ("aws_secret_access_key", True), ("private_key", True), ("GH_PAT", True),
    ("max_tokens", False), ("token_count", False), ("PASSWORD_MIN_LENGTH", False),
    ("api_key_env", False), ("sort_key", False), ("keyboard", False), ("passthrough", False),
])
def test_secret_names(name, secret):
    assert is_secret_name(name) is secret


def test_one_megabyte_with_planted_keys_is_redacted_exactly():
    # How fast this runs is measured by bench/hot_paths.py, not asserted here.
    rng = random.Random(7)
    chunks = [
        "The user asked to run the tests again; max_tokens=100 and token_count: 42.\n",
        '{"role": "tool", "content": "commit 3f1c2a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a", "n": 2}\n',
        "def handler(token: str, password=None):\n    return post(url, headers=headers)\n",
        "export PATH=/usr/local/bin:$PATH\nDEBUG=true\nPORT=8080\n",
        "Error: connection reset by peer while fetching https://api.example.com/v1/items?id=7\n",
        "  - name: build\n    run: pnpm install --frozen-lockfile\n",
    ]
    parts, size, planted = [], 0, 0
    while size < 1_000_000:
        chunk = rng.choice(chunks)
        if rng.random() < 0.01:
            chunk, planted = f"export OPENAI_API_KEY={OPENAI}\n", planted + 1
        parts.append(chunk)
        size += len(chunk)
    text = "".join(parts)
    result = redact(text)
    assert planted > 0 and result.kinds == {"openai_key": planted}
    assert OPENAI not in result.text


@pytest.mark.parametrize("text,secret", [
    ("DB_PASS=Tr0ub4dor-x9q", "Tr0ub4dor-x9q"), ("export SMTP_PASS='hunter2-Qz'", "hunter2-Qz"),
    ('{"db_pass": "x7Hq-22b"}', "x7Hq-22b"), ("SMTP_PASS: s3cr3t-Value", "s3cr3t-Value"),
])
def test_a_name_ending_in_pass_is_a_password(text, secret):
    """What the MCP tool append_memory took and sync then pushed (issue 20): `*_PASS=`."""
    assert secret not in redact(text).text and "[REDACTED:password]" in redact(text).text


@pytest.mark.parametrize("text", ["PASS_THROUGH=1", "- use --pass-through mode", "BYPASS=1", "SKIP_PASS=true",
                                  "first_pass = compute()"])
def test_pass_in_other_places_is_no_password(text):
    assert redact(text).text == text


@pytest.mark.parametrize("text, secret", [
    ("$ redis-cli -h cache-1 -a Zq8pLm2VtR4x PING", "Zq8pLm2VtR4x"),
    ("$ ldapsearch -x -D 'cn=admin,dc=corp' -w Hn7tQ2pLx9Vb -b 'dc=corp'", "Hn7tQ2pLx9Vb"),
    ("keytool -list -keystore app.jks -storepass Kd82!mQpa7Lr", "Kd82!mQpa7Lr"),
    ("openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:Tr5Yq2xWm8Pz", "Tr5Yq2xWm8Pz"),
    ("htpasswd -bc /etc/nginx/.htpasswd ops Vb3Nq8sLt2Kx", "Vb3Nq8sLt2Kx"),
    ("zip -r -P Qm4Rt8Zx2Lp9 out.zip out/", "Qm4Rt8Zx2Lp9"),
    ('sqlcmd -S db.corp -U app -P "Wx7#pQ2rLm9t" -Q "SELECT 1"', "Wx7#pQ2rLm9t"),
    ("docker login registry.corp -u ci -p Gh5Tq9Lm2Xz8", "Gh5Tq9Lm2Xz8"),
    ("CREATE USER 'r'@'%' IDENTIFIED BY 'Lp3Qz8Xm5Rt2';", "Lp3Qz8Xm5Rt2"),
    ("<server><id>rel</id><password>Nb6Rx2Qp9Lt4</password></server>", "Nb6Rx2Qp9Lt4"),
    ("machine nexus.corp login ci password Mz7Qp3Lx8Rt2", "Mz7Qp3Lx8Rt2"),
    ("db.corp:5432:app:app_user:Qx5Lm9Rt2Pz7", "Qx5Lm9Rt2Pz7"),
    ("define( 'AUTH_KEY', 'Kx9Lm2Qp7Rt5Zb' );", "Kx9Lm2Qp7Rt5Zb"),
    ("spring.datasource.password=oQ.Lm7Xp.Z2rTq9", "oQ.Lm7Xp.Z2rTq9"),
    ("\x1b[2mToken:\x1b[0m \x1b[33mghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8" + "\x1b[0m",
     "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    ("export GOOGLE_TOKEN=ya29.a0AfB_byC3xLm9QpRt2Zw8", "ya29.a0AfB_byC3xLm9QpRt2Zw8"),
    ("curl -X POST 'https://chat.example.com/hooks/Zx9Lm2Qp7Rt5Zb8Kd3Nq6WvYu'", "Zx9Lm2Qp7Rt5Zb8Kd3Nq6WvYu"),
])
def test_a_credential_its_place_gives_away(text, secret):
    assert secret not in redact(text).text, redact(text).text


@pytest.mark.parametrize("text", [
    "settings.SECRET_KEY = os.environ['SECRET_KEY']",
    "$ git log --oneline -1\n\x1b[33mcf731a6\x1b[m (HEAD -> main) fix totals",
    "redis-cli -h cache-1 -a $REDIS_PASSWORD PING",
    "zip -r out.zip out/",
])
def test_what_only_looks_like_a_credential_stays(text):
    assert redact(text).text == text
