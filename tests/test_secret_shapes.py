"""Secrets by shape and by context (issue #20, item 5): names that hold a secret only when the
value looks like one, program flags, what secret managers print, vendor prefixes, prose in more
languages, and the escaped or split forms. Every value is drawn here; each family is paired with the
benign look-alike it must keep."""

from __future__ import annotations

import random
import string

import pytest

from slowloop.safety.redact import redact

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
SEEDS = [5, 17, 2027]


def _draw(rng: random.Random, alphabet: str, n: int) -> str:
    while True:
        v = "".join(rng.choice(alphabet) for _ in range(n))
        need = [cls for cls in (string.digits, string.ascii_uppercase, string.ascii_lowercase)
                if any(c in alphabet for c in cls)]
        if all(any(c in cls for c in v) for cls in need):
            return v


def _password(rng: random.Random, n: int = 16) -> str:
    """A generated password: letters, digits and the symbols password managers use."""
    return _draw(rng, ALNUM, n - 3) + rng.choice("!#%^*~") + rng.choice(string.digits) + rng.choice("=+.-_")


def _gone(text: str, secret: str) -> str:
    out = redact(text).text
    assert secret not in out, out
    return out


# --- names judged with their value ------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_names_whose_value_decides(seed: int) -> None:
    rng = random.Random(seed)
    pw, key = _password(rng), _draw(rng, ALNUM + "+/", 43) + "="
    hexkey, token = _draw(rng, HEX, 32), _draw(rng, ALNUM, 40)
    for text, secret in (
            (f'[db.credentials]\nuser = "app"\npass = "{pw}"', pw),  # TOML, rclone
            (f"[Warehouse]\nDriver = Snowflake\nUID = ETL\nPWD = {pw}", pw),  # odbc.ini
            (f"fernet_key = {key}", key),
            (f"receivers:\n  - pagerduty_configs:\n      - routing_key: {hexkey}\n", hexkey),
            (f"wechat.pay.api-v3-key={token}", token),
            (f'encrypt    = "{key}"', key),  # Consul's gossip key
            (f"BW_CLIENTSECRET={token}", token),  # a word glued to "secret"
            (f"pass_phrase={pw}", pw),
            (f"ldap_default_authtok = {pw}", pw),
            (f"REGISTRY_PASS ?= {pw}", pw),  # make's conditional assignment
            (f'const API_KEY: &str = "{token}";', token),  # a type between the name and the value
            (f"     5→    bindPassword: {pw}", pw)):  # a file read's line number is not prose
        _gone(text, secret)


@pytest.mark.parametrize("text, keep", [
    ('sort_key = "created_at"', "created_at"),
    ("cache_key: node-modules-v2", "node-modules-v2"),
    ("Cache restored from key: Linux-pnpm-store-4f2a9c81d7e3b60a", "Linux-pnpm-store-4f2a9c81d7e3b60a"),
    ("  public key: Qm9vTGlrZUFXaXJlR3VhcmRLZXlPZjMyQnl0ZXM5PQ=", "Qm9vTGlrZUFXaXJlR3VhcmRLZXlPZjMyQnl0ZXM5PQ="),
    ("PublicKey = Qm9vTGlrZUFXaXJlR3VhcmRLZXlPZjMyQnl0ZXM5PQ=", "Qm9vTGlrZUFXaXJlR3VhcmRLZXlPZjMyQnl0ZXM5PQ="),
    ("NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_51Hx9Qa2bC3dE4fG5hJ6kL7", "pk_live_51Hx9Qa2bC3dE4fG5hJ6kL7"),
    ("routing_key: orders.created", "orders.created"),
    ("PWD=/home/ci/build", "/home/ci/build"),
    ("encrypt = true", "encrypt = true"),
])
def test_names_whose_value_decides_keep(text: str, keep: str) -> None:
    assert keep in redact(text).text


@pytest.mark.parametrize("text, keep", [
    ("DB_PASSWORD=op://Infra/Prod DB/password", "op://Infra/Prod"),
    ("DB_SECRET_ARN=arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-Ab12Cd",
     "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-Ab12Cd"),
    ('export DB_PASSWORD="$(cat /run/secrets/db_password)"', "$(cat /run/secrets/db_password)"),
    ("STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"),
    ("SLACK_BOT_TOKEN=xoxb-your-bot-token", "xoxb-your-bot-token"),
    ('headers={"Authorization": "Bearer test-token"}', "Bearer test-token"),
])
def test_references_and_placeholders_are_kept(text: str, keep: str) -> None:
    assert keep in redact(text).text
