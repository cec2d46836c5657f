"""Secrets nothing names (safety/bare.py): a random value alone, or a structure that says what it is.

Written alongside the code: these show that each form works, not how often (the blind adv9 set in
SECURITY.md says that)."""

from __future__ import annotations

import pytest

from slowloop.safety.redact import redact

SECRETS = [
    # a password pasted on its own, in the person's words
    ("oops wrong one, the right pass is Vq7#mLp2xT9!", "Vq7#mLp2xT9!"),
    ("scusa, quella giusta è Kd8%wQ2+rT5z", "Kd8%wQ2+rT5z"),
    ("la wifi del taller ahora es Zp4~nR8=vB2q, actualiza el script", "Zp4~nR8=vB2q"),
    ("正确的是 Hq3^xW7*kM1p，刚才打错了", "Hq3^xW7*kM1p"),
    # a token a command printed on its own line
    ("$ ./bin/issue-token --ttl 1h\nbH7kQ2mX9pL4vR8tZ3nW6yC1", "bH7kQ2mX9pL4vR8tZ3nW6yC1"),
    # in code, under a name that says nothing
    ('const Q: &str = "aZ9kP2mQ7xL4vB8nR3tY6wC1";', "aZ9kP2mQ7xL4vB8nR3tY6wC1"),
    ('r = httpx.get(u, auth=("svc", "mK3#pQ8xZ2vL7nB4"))', "mK3#pQ8xZ2vL7nB4"),
    ('{"creds": ["tp_Hn4kQ8mZ2xV7pL3bR9wT6yC"]}', "tp_Hn4kQ8mZ2xV7pL3bR9wT6yC"),
    ('$ kubectl create secret generic x --from-literal=value=Qm8kZ2xV7pL3bR9wT6yCnH4k', "Qm8kZ2xV7pL3bR9wT6yCnH4k"),
    # one case and digits, a vendor's prefix and a hex body
    ("export const K = ['zq4m8x2v7p3l9b6w1t5y0c8n4k2h7r3d'];", "zq4m8x2v7p3l9b6w1t5y0c8n4k2h7r3d"),
    ('token: "abc_4f8e2a9c1b7d3e6f0a5c8b2d9e1f7a3c4b6d"', "abc_4f8e2a9c1b7d3e6f0a5c8b2d9e1f7a3c4b6d"),
    # hex and base32 when the sentence says what they are
    ("9f2c4e8a1b7d3f6e0c5a9b2d8e4f1a7c3b6d9e2f8a4c1b7d this is the signing key, add it", "9f2c4e8a1b7d3f6e0c5a9b2d8e4f1a7c"),
    ("2fa seed for the ops account: KRUGS4ZANFZSAYJAMF2XI3DMN5WQ", "KRUGS4ZANFZSAYJAMF2XI3DMN5WQ"),
    # structures
    ("name,endpoint,token,rotated\nacme,https://a.test,Xk29fLq8vBn3mZ7wPc4r,2026-01-02", "Xk29fLq8vBn3mZ7wPc4r"),
    ('# client  server  secret  IP\n"ops"  *  "Lm4:xTr8Qw2z"  *', "Lm4:xTr8Qw2z"),
    ("admin:$apr1$Gk3b9Xq2$Vn7dLp4TzR8wQm2sYc6Bh1", "$apr1$Gk3b9Xq2$Vn7dLp4TzR8wQm2sYc6Bh1"),
    ("PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5AAAAIPub\nPrivate-Lines: 1\n"
     "AAAAIHk2Lq9Zx7Vb3Nm8Pw4Rt6Yc1Ks5Dj0Fg2Hh3Jj4Kk=\nPrivate-MAC: 00", "AAAAIHk2Lq9Zx7Vb3Nm8Pw4Rt6Yc1Ks5Dj0Fg2Hh3Jj4Kk="),
    ('<Server><User>up</User><Pass encoding="base64">cXdlcnR5MTIzNDU2Nzg=</Pass></Server>', "cXdlcnR5MTIzNDU2Nzg="),
    ('KafkaServer {\n  org.apache.kafka.common.security.plain.PlainLoginModule required\n'
     '  user_reports="Rb7%kQ2xLm9vZ4";\n};', "Rb7%kQ2xLm9vZ4"),
    ("static const uint8_t k_hmac[16] = { 0x1F, 0xA2, 0x3C, 0x44, 0x9B, 0x07, 0xE1, 0x5D, 0x66, 0x2A, 0xC3, 0x18, "
     "0x7E, 0x90, 0x0B, 0xD4 };", "0x1F, 0xA2, 0x3C, 0x44"),
]

KEPT = [
    "revert 3f9a2c7e1b8d4f6a0c5e9b2d7f1a4c8e6b3d9f2a please, it broke the login page",
    "$ git log --format='%H %s' -2\n8c1e4a7f2b9d3e6c0a5f8b1d4e7a2c9f6b3d0e8a fix: the token refresh\n",
    "pin the image to sha256:5b8e2c9f1a4d7e0b3c6f9a2d5e8b1c4f7a0d3e6b9c2f5a8d1e4b7c0f3a6d9e2b instead of latest",
    "customer says request 4a7c9e2f-1b3d-4f6a-8c0e-2d4f6a8c0e1b failed with a 500",
    "$ ls dist\nmain.4f8a2c9e1b7d3f6a0c5e.js  vendor.9b2d7f1a4c8e6b3d9f2a.js",
    "$ ./app --version\napp v2.14.1-rc.3+build.7f3a9c2",
    "$ echo SGVsbG8gZnJvbSB0aGUgYnVpbGQgYm90IGFnYWlu | base64 -d\nHello from the build bot again",
    "stripe: created PaymentIntent pi_3Qk8LmN2pX7vZ4wB9c for customer cus_Rt5Kq8Lm2Zx9Vb",
    "[Peer]\nPublicKey = 8Kq2mZ7xV4pL9bR3wT6yCnH1kJ5sD0fG2aE4uI7oP8c=\nAllowedIPs = 10.0.0.2/32",
    '{"keys": [{"kty": "RSA", "kid": "2026-11", "n": "xK9mQ2pZ7vL4bN8rT3wY6cH1jK5sD0fG2aE4uI7oP8", "e": "AQAB"}]}',
    '"Cryptography_HAS_PSK_TLSv1_3": cryptography_has_psk_tlsv13,',
    "def test_parse_video_id_dQw4w9WgXcQ(): ...",
    "slack: posted to channel=C07QZ4K8M2P ts=1796263812.004211",
    "INFO flags: evaluated ff_checkout_v2_rollout_k3x9 for user 8812",
    "$ pip install numpy\nSuccessfully installed numpy-2.1.3-cp312-cp312-manylinux_2_17_x86_64",
    "## Project Structure\n```\ntodo-app/\n├── src/\n```",
    "PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]",
    "var pngMagic = []byte{0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a}",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_secret_nothing_names_is_redacted(text, secret):
    out = redact(text).text
    assert secret not in out, out
    assert "[REDACTED:" in out


@pytest.mark.parametrize("text", KEPT)
def test_public_random_looking_values_are_kept(text):
    assert redact(text).text == text


def test_a_long_record_costs_no_more_than_its_length():
    """The context of a value is a window around it: a 2 MB JSONL line is read once, not per value."""
    import time

    line = " ".join(f"item{i} tok_{i:06d}Ab" for i in range(60000))
    t = time.perf_counter()
    redact(line)
    assert time.perf_counter() - t < 20
