"""Secret shapes, second round (issue #20): a name beside its value (HAR headers, k8s env entries,
Android strings, subscripts, ``#define``), positional and glued forms (Go DSN, ``net user``,
``vault operator unseal``, ``-auth user:token``, ``AUTH PLAIN``), SQL and config corners, and
masks or settings that only look like secrets. Every value is made up here; each family is
paired with the benign look-alike it must keep."""

from __future__ import annotations

import pytest

from slowloop.safety.redact import redact


def _gone(text: str, secret: str) -> str:
    out = redact(text).text
    assert secret not in out, out
    return out


def _kept(text: str, keep: str) -> str:
    out = redact(text).text
    assert keep in out, out
    return out


# --- a name beside its value ------------------------------------------------------------------

@pytest.mark.parametrize("text, secret", [
    # a HAR header, the pair split over numbered lines of a file read
    ('    7→      {\n    8→        "name": "X-Auth-Token",\n    9→        "value": "q8Ryb2TnV4xLw0PzK3sJ"\n', "q8Ryb2TnV4xLw0PzK3sJ"),
    # a k8s env entry in an audit event
    ('"env": [{"name": "SENTRY_AUTH_TOKEN", "value": "d94be1c07a3f5e28b6d01c9e4f7a2b35"}]',
     "d94be1c07a3f5e28b6d01c9e4f7a2b35"),
    ("env:\n  - name: SMTP_PASSWORD\n    value: Vq3zLm8Tr1xNp6Ws\n", "Vq3zLm8Tr1xNp6Ws"),
    ('<resources>\n    <string name="stripe_client_secret">Hx4kQ9wZr2Lm7Tv0PbNc5Ys8</string>\n</resources>',
     "Hx4kQ9wZr2Lm7Tv0PbNc5Ys8"),
    ("os.environ['FASTLY_TOKEN'] = 'Wd7pXq2mZr9Kt4LnVb6Hs1Jc'", "Wd7pXq2mZr9Kt4LnVb6Hs1Jc"),
    ("chef_server['admin_password'] = '+Yt3.Rw8qZm!Lp5x'", "+Yt3.Rw8qZm!Lp5x"),
    ('#define MQTT_PASS "Tz8_qLw3vNm6Rk1"', "Tz8_qLw3vNm6Rk1"),
    ('os.environ.setdefault("ACME_API_KEY", "acm-7Hq2Lw9Zt4Rx1Vm6Kp3N")', "acm-7Hq2Lw9Zt4Rx1Vm6Kp3N"),
])
def test_a_value_whose_name_sits_beside_it(text: str, secret: str) -> None:
    _gone(text, secret)


@pytest.mark.parametrize("text, keep", [
    ('{"name": "accept", "value": "application/json"}', "application/json"),
    ('{"name": "X-Request-Id", "value": "7d1f0c2a-91b3-4e55-8c6a-3f2e9b0d4a17"}', "7d1f0c2a-91b3-4e55-8c6a-3f2e9b0d4a17"),
    ("env:\n  - name: LOG_LEVEL\n    value: debug-verbose\n", "debug-verbose"),
    ('<string name="app_name">FieldNotes2</string>', "FieldNotes2"),
    ('<string name="password_hint">Enter_your_password</string>', "Enter_your_password"),
    ("os.environ['AWS_REGION'] = 'eu-central-1'", "eu-central-1"),
    ('#define WIFI_SSID "plant-floor-3"', "plant-floor-3"),
    ('os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site.settings")', "site.settings"),
])
def test_a_name_that_is_no_secret_keeps_its_value(text: str, keep: str) -> None:
    _kept(text, keep)


# --- positional and glued ---------------------------------------------------------------------

@pytest.mark.parametrize("text, secret", [
    ('panic: dial failed (dsn="orders:Kq8+wZ3rLm-x@tcp(db-1.corp:3306)/orders")', "Kq8+wZ3rLm-x"),
    ("C:\\> net user svc_backup Rt5!kWq2zL9x /add", "Rt5!kWq2zL9x"),
    ("$ vault operator unseal Zq7Lm2Rt8Kx4Vn1Wp6Hs3Jc9Bd5Fg0Ty=", "Zq7Lm2Rt8Kx4Vn1Wp6Hs3Jc9Bd5Fg0Ty="),
    ("java -jar jenkins-cli.jar -s https://ci.corp/ -auth deployer:11d8f03b2c94e7a15f60 build app",
     "11d8f03b2c94e7a15f60"),
    ("send: 'AUTH PLAIN AHVzZXIAUXc4ekxtM1J0\\r\\n'", "AHVzZXIAUXc4ekxtM1J0"),
    ("beeline -u 'jdbc:hive2://hive:10000/default' -n etl -p 'Wq4,zLm8=Rt2' -e 'show tables;'", "Wq4,zLm8=Rt2"),
])
def test_positional_and_glued_passwords(text: str, secret: str) -> None:
    _gone(text, secret)


@pytest.mark.parametrize("text, keep", [
    ("dsn=tcp(db-1.corp:3306)/orders", "db-1.corp:3306"),
    ("C:\\> net user svc_backup /domain", "svc_backup /domain"),
    ("C:\\> net user svc_backup * /add", "svc_backup * /add"),
    ("$ vault operator unseal -reset", "-reset"),
    ("java -jar jenkins-cli.jar -auth @creds.txt build app", "@creds.txt"),
])
def test_positional_look_alikes_stay(text: str, keep: str) -> None:
    _kept(text, keep)


# --- SQL, config and key corners --------------------------------------------------------------

@pytest.mark.parametrize("text, secret", [
    ("CREATE LOGIN [svc_etl] WITH PASSWORD = N'Lp7~qRz3=Wm8x', CHECK_POLICY = ON;", "Lp7~qRz3=Wm8x"),
    ("CREATE USER 'r'@'%' IDENTIFIED BY UNHEX('4c7a39715277326d');", "4c7a39715277326d"),
    ('  password: <%= ENV.fetch("DB_PASSWORD") { "Zr4+kLq9^Wm2xT" } %>', "Zr4+kLq9^Wm2xT"),
    ('{"kty": "EC", "crv": "P-256", "x": "pub0x", "d": "Vb3_Nq8sLt2Kx-Wm5Rz7Hp1Jc4Fg"}', "Vb3_Nq8sLt2Kx-Wm5Rz7Hp1Jc4Fg"),
    ('"type": "random_password",\n  "instances": [{"attributes": {"result": "Hq2#kLw9-Zr4Tm"}}]', "Hq2#kLw9-Zr4Tm"),
    ("COLD_WALLET_WIF=KyaBa4mkzXBzfa5KNyAmGrFg78aBPeAzy12cHCPKoJqXx6Aeff3m", "KyaBa4mkzXBzfa5KNyAmGrFg78aBPeAzy12cHCPKoJqXx6Aeff3m"),
    ("app.ops.azure-devops-ext-pat=k3q7zr5mwx2tp9vl4ny8hs6bdc1fj0ga3q7zr5mwx2tp9vl4ny8", "k3q7zr5mwx2tp9vl4ny8hs6bdc1fj0ga"),
    ('     2→  <AdminPassword>\n     3→    <Value>QW7ZL2RT9KX4VN1WP6</Value>', "QW7ZL2RT9KX4VN1WP6"),
    ('{"content": "[registry]\\ntoken = \\"Kq9zLw3rTm7xVn2pBs5Hc8Jd\\"\\n"}', "Kq9zLw3rTm7xVn2pBs5Hc8Jd"),
    ("  client_secret = \x1b[1;31mWz4qLm8Rt2Kx7Vn1Ps6Hc3J\x1b[0m", "Wz4qLm8Rt2Kx7Vn1Ps6Hc3J"),
])
def test_sql_config_and_key_corners(text: str, secret: str) -> None:
    _gone(text, secret)


@pytest.mark.parametrize("text, keep", [
    ('{"kty": "EC", "crv": "P-256", "x": "T9wQl-hfYI0Grv7KsKYr-53RtKT9Ejhc"}', "T9wQl-hfYI0Grv7KsKYr-53RtKT9Ejhc"),
    ('"type": "random_pet",\n  "result": "brave-otter"', "brave-otter"),
    ("NETWORK_WIF_VERSION=mainnet", "mainnet"),
    # masks and settings: a framework's [hidden], an auth method, --password-stdin, a ciphertext's name
    ("\tssl.keystore.password = [hidden]\n\tssl.keystore.type = JKS", "ssl.keystore.password = [hidden]"),
    ('"token_endpoint_auth_method": "client_secret_basic"', "client_secret_basic"),
    ("docker login --username AWS --password-stdin 1234.dkr.ecr.eu-west-1.amazonaws.com",
     "--password-stdin 1234.dkr.ecr.eu-west-1.amazonaws.com"),
    ("DB_PASSWORD_ENCRYPTED=AQICAHhNGdDKIeoYjBjj+4hB8GT/f1Z0aljrwJTcwf5Qiq2S", "AQICAHhNGdDKIeoYjBjj+4hB8GT/f1Z0aljrwJTcwf5Qiq2S"),
    ("$ git log --oneline -1\n\x1b[33mcf731a6\x1b[m (HEAD -> main) fix totals", "\x1b[33mcf731a6"),
])
def test_corner_look_alikes_stay(text: str, keep: str) -> None:
    _kept(text, keep)


# --- strings the code rebuilds, and JSON-escaped code -----------------------------------------

_GH = "ghp_" + "Vq8LzK2mRt5Xw9Pb3Nc7Hs1Jd4Fg6Ty0Ua"  # a made-up token of GitHub's shape


@pytest.mark.parametrize("text, secret", [
    # reversed literals: JS, Python, PHP
    (f"const k = '{_GH[::-1]}'.split('').reverse().join('');", _GH[::-1]),
    ('key = "Qz8rLw2Tm5Xk9Vb3Nc7Hp1Js4Fd"[::-1]', "Qz8rLw2Tm5Xk9Vb3Nc7Hp1Js4Fd"),
    ("$t = strrev('Wm3Kq9zLr2Tx7Vn5Bp1Hc8Js');", "Wm3Kq9zLr2Tx7Vn5Bp1Hc8Js"),
    # an array of pieces joined
    ("const SLACK = ['xoxb', '481726350912', '7730194628551', 'Rk2Lq8Zw4Tm9Xv3Bn7Hc1Jp'].join('-');",
     "Rk2Lq8Zw4Tm9Xv3Bn7Hc1Jp"),
    (f"TOKEN = ''.join(['{_GH[:12]}', '{_GH[12:]}'])", _GH[12:]),
    # pieces in variables, joined where used
    (f'a = "{_GH[:14]}"\nb = "{_GH[14:]}"\nheaders = {{"Authorization": "token " + a + b}}', _GH[14:]),
    (f'P1="{_GH[:10]}"\nP2="{_GH[10:]}"\ncurl -H "Authorization: token $P1$P2" https://api.github.com', _GH[10:]),
    # a concatenation over numbered lines of a file read
    ('     1→String secret = "Tq7Lm2Zr9Kx4Wv1B"\n     2→        + "Np6Hs3Jc8Fd5Gy0U";', "Np6Hs3Jc8Fd5Gy0U"),
    # code inside a JSON string: a constructor's literal, an implicit concatenation
    ('{"new_string": "var c = new PagerClient(\\"e3b9a41f07c28d56b1a09e4f7c3d2b68\\");\\nawait c.Ping();"}',
     "e3b9a41f07c28d56b1a09e4f7c3d2b68"),
    ('{"content": "GITHUB_TOKEN = (\\n    \\"' + _GH[:12] + '\\"\\n    \\"' + _GH[12:] + '\\"\\n)\\n"}', _GH[12:]),
])
def test_a_secret_the_code_rebuilds(text: str, secret: str) -> None:
    _gone(text, secret)


@pytest.mark.parametrize("text, keep", [
    ("const s = 'dlrow olleh'.split('').reverse().join('');", "dlrow olleh"),
    ("print('stressed_desserts'[::-1])", "stressed_desserts"),
    ("const path = ['src', 'app', 'main.ts'].join('/');", "'main.ts'"),
    ("classes = ' '.join(['btn', 'btn-primary', 'rounded-lg'])", "btn-primary"),
    ('a = "hello"\nb = "world"\nprint(a + b)', '"world"'),
    ('{"new_string": "var c = new HttpClient(\\"https://api.corp/v1\\");\\nawait c.Get();"}', "https://api.corp/v1"),
    ('{"content": "import os\\nprint(\\"done\\")\\n"}', 'print(\\"done\\")'),
])
def test_rebuilt_look_alikes_stay(text: str, keep: str) -> None:
    _kept(text, keep)


def _escaped(s: str, style: str) -> str:
    return "".join(f"\\x{ord(c):02x}" if style == "x" else f"\\u{ord(c):04x}" for c in s)


@pytest.mark.parametrize("style", ["x", "u"])
def test_a_secret_spelled_in_escapes(style: str) -> None:
    _gone(f'password = "{_escaped("Lq9#zRw2Tm5x", style)}"', _escaped("Lq9#zRw2Tm5x", style))
    _gone(f'tok = "{_escaped(_GH, style)}"', _escaped(_GH, style))
    _kept(f'greeting = "{_escaped("hello there", style)}"', _escaped("hello there", style))


def test_a_gzipped_env_in_base64() -> None:
    import base64
    import gzip

    blob = base64.b64encode(gzip.compress(b"DB_PASSWORD=Wz4!qLm8Rt2Kx7\nLOG_LEVEL=info\n", mtime=0)).decode()
    _gone(f"$ gzip -c .env | base64 -w0\n{blob}", blob)
    plain = base64.b64encode(gzip.compress(b"LOG_LEVEL=info\nWORKERS=4\nREGION=eu-west-1\n", mtime=0)).decode()
    _kept(f"$ gzip -c .env | base64 -w0\n{plain}", plain)


# --- prose: more languages, inflected words, sentences and passphrases ------------------------

@pytest.mark.parametrize("text, secret", [
    ("a staging adatbázis jelszava Hq7!zLw2Rt9x", "Hq7!zLw2Rt9x"),
    ("adgangskoden til staging er Tm4+qZr8Lw1k", "Tm4+qZr8Lw1k"),
    ("passordet til databasen er Wk2^rLq7Zm5t", "Wk2^rLq7Zm5t"),
    ("la contrasenya de la base és Zr8*Lq3wTm6x", "Zr8*Lq3wTm6x"),
    ("la clave del wifi es Lp5~qRz2Wm8k", "Lp5~qRz2Wm8k"),
    ("ο κωδικός για τη βάση είναι Xq3.kLw9Rz2m", "Xq3.kLw9Rz2m"),
    ("הסיסמה לשרת היא Rz4%Lq8wTm2k", "Rz4%Lq8wTm2k"),
    ("รหัสผ่านของฐานข้อมูลคือ Kw7#zLq2Rt5m", "Kw7#zLq2Rt5m"),
    ("parola pentru baza de date este Tq2!mZr7Lw4k", "Tq2!mZr7Lw4k"),
    ("正式環境的 API 金鑰是 Zq8LmR2tWx7Kv4Np1Hs6Jc3Bd", "Zq8LmR2tWx7Kv4Np1Hs6Jc3Bd"),
    ("вот токен для деплоя: Lw9Rz2TqX7mK4vN1pH6sJ3cB", "Lw9Rz2TqX7mK4vN1pH6sJ3cB"),
    ("la clé d'API du fournisseur : Qm7Zr2Lw9Tx4Kv1Np6Hs3Jc8", "Qm7Zr2Lw9Tx4Kv1Np6Hs3Jc8"),
    ("la chiave API di staging è Rt4Lq9Zw2Mx7Kv1Np6Hs3Jc8B", "Rt4Lq9Zw2Mx7Kv1Np6Hs3Jc8B"),
    ("le mot de passe est .kQ7zLw2^Rt9x — garde-le", ".kQ7zLw2^Rt9x"),  # a password may start with a dot
    ("I rotated the deploy token. It's Zr7Lq2Wm9Tx4Kv1Np6Hs3Jc8B.", "Zr7Lq2Wm9Tx4Kv1Np6Hs3Jc8B"),
    ("vpn creds (user ops-ext, pass Lq8%zRw3Tm6x) expire Friday", "Lq8%zRw3Tm6x"),
    ("my two-step recovery code is Q7ZLW-2RT9K-X4VN1-WP6HS-3JC8B", "Q7ZLW-2RT9K-X4VN1-WP6HS-3JC8B"),
    ("the unseal passphrase for the drill: maple-rocket-velvet-lagoon", "maple-rocket-velvet-lagoon"),
    ("seed phrase for the test wallet: orbit candle maple rocket velvet lagoon tiger ember quartz meadow "
     "falcon harbor", "orbit candle maple rocket velvet lagoon tiger ember quartz meadow falcon harbor"),
])
def test_prose_naming_a_secret(text: str, secret: str) -> None:
    _gone(text, secret)


@pytest.mark.parametrize("text, keep", [
    ("all tests pass 4f2a9c81d7e3b60a on main", "4f2a9c81d7e3b60a"),
    ("the config lives in .eslintrc.json and .env.local", ".eslintrc.json"),
    ('{"msg": "token refresh failed", "trace_id": "c65d07f3c89a1db435f3c15f4a07d3a6"}', "c65d07f3c89a1db435f3c15f4a07d3a6"),
    ("the passphrase is kept under lock somewhere", "kept under lock somewhere"),
    ("the passphrase: see-the-team-vault", "see-the-team-vault"),  # words of a sentence, not diceware
    ("la clave del éxito es la constancia", "la constancia"),
    ("I rotated the deploy token. It's done now.", "It's done now."),
])
def test_prose_look_alikes_stay(text: str, keep: str) -> None:
    _kept(text, keep)


# --- printed values, columns, headers and prompts ---------------------------------------------

@pytest.mark.parametrize("text, secret", [
    # a CI log: every line behind a timestamp
    ("2026-05-04T09:12:01.1234567Z $ op read 'op://Infra/db/password'\n2026-05-04T09:12:02.7654321Z Kq8*zLw3Rt5xVm1\n",
     "Kq8*zLw3Rt5xVm1"),
    ("2026-05-04T09:12:01.1Z $ pass show infra/ipmi/rack7\n2026-05-04T09:12:02.2Z Zr4^Lq9wTm2kXv\n", "Zr4^Lq9wTm2kXv"),
    ("$ terraform output -raw db_admin_password\nWq7~Lz2Rt9Km4x\n", "Wq7~Lz2Rt9Km4x"),
    ('$ printf %s "$STRIPE_SECRET_KEY" | xxd -p -c 80\n4c7a3971527732\n', "4c7a3971527732"),
    ("id,email,api_token,created\n7,ops@corp.test,Tq9Lw2Zr7Mx4Kv1Np6Hs3Jc,2026-01-02\n", "Tq9Lw2Zr7Mx4Kv1Np6Hs3Jc"),
    ('HEADERS = {"X-Partner-Auth": "Rk7Lq2Zw9Tm4Xv1Bn6Hc3Jp8"}', "Rk7Lq2Zw9Tm4Xv1Bn6Hc3Jp8"),
    ("cache-3:6379> AUTH default Lq7%zRw2Tm9x\nOK", "Lq7%zRw2Tm9x"),
    ("cache-3:6379> AUTH Zw4+qLm8Rt2k\nOK", "Zw4+qLm8Rt2k"),
    ("using sbp_3f9a1c7e2b8d4f6a0c5e9b1d7f3a2c8e6b4d0f1a", "sbp_3f9a1c7e2b8d4f6a0c5e9b1d7f3a2c8e6b4d0f1a"),
])
def test_printed_columns_headers_and_prompts(text: str, secret: str) -> None:
    _gone(text, secret)


@pytest.mark.parametrize("text, keep", [
    ("2026-05-04T09:12:01.1Z $ git rev-parse HEAD\n2026-05-04T09:12:02.2Z 4f2a9c81d7e3b60a9c1d\n", "4f2a9c81d7e3b60a9c1d"),
    ("$ terraform output -raw cluster_endpoint\nhttps://k8s.corp.test:6443\n", "https://k8s.corp.test:6443"),
    ('$ printf %s "$BUILD_ID" | xxd -p\n3132333435\n', "3132333435"),
    ("id,sort_key,token_count\n7,created_at7,1200\n", "created_at7"),
    ('HEADERS = {"X-Request-Id": "7d1f0c2a91b34e55"}', "7d1f0c2a91b34e55"),
    ("> AUTH failed for user deploy, retrying", "AUTH failed for user deploy"),
])
def test_printed_look_alikes_stay(text: str, keep: str) -> None:
    _kept(text, keep)


@pytest.mark.parametrize("text, secret", [
    # webhook paths by their shape, whatever the host
    ("curl -X POST https://hooks.chat.internal/services/T0AB12CD3/B9ZY87XW6/q8Lm2Nx7Pw4Rt6Vy1Ka3Sd5F", "q8Lm2Nx7Pw4Rt6Vy1Ka3Sd5F"),
    ("posting to https://discord.mirror.lan/api/webhooks/1183302211093338112/Zq3_x8Lk2Pw9-Nm4Rt7Vy1Ka3Sd5Fg6Hj8Kl0Qw2Er4Ty",
     "Zq3_x8Lk2Pw9-Nm4Rt7Vy1Ka3Sd5Fg6Hj8Kl0Qw2Er4Ty"),
    # a password in prose, the forms people type
    ("wifi 密码改成 Qx7vLm2Pw9Rt 了", "Qx7vLm2Pw9Rt"),
    ("秘密鍵のパスフレーズは Kd8#mQ2!vL9x", "Kd8#mQ2!vL9x"),
    ("le mot de passe de la préprod c'est Hq4~pL8=xN2w", "Hq4~pL8=xN2w"),
    ("senha do keystore .jks: Vb6%%tY3nM8q", "Vb6%%tY3nM8q"),
    ("a senha da vpn mudou pra Rw5TyU8iOp2L", "Rw5TyU8iOp2L"),
    ("das passwort vom nas lautet jetzt Zt9Kp3Lm7Qw2", "Zt9Kp3Lm7Qw2"),
    ("le mdp du compte smtp: Np7_c4Xq%vL2", "Np7_c4Xq%vL2"),
    # a sign-in named, then user / password
    ("login do grafana: ops / Tg8*Lw2!pQ9z. ve o painel", "Tg8*Lw2!pQ9z"),
    ("ログイン情報: root / Mk3*Qp8!Lw2x", "Mk3*Qp8!Lw2x"),
    # positional passwords, an SDK client's literal key, a bare bearer, Fly.io tokens
    ("$ wpa_passphrase HomeLab Pq8vLm2Rt6Yw3Xz", "Pq8vLm2Rt6Yw3Xz"),
    (r"C:\> net use Y: \\nas.lan\share Wq4Er7Ty1Ui9 /user:LAN\ci", "Wq4Er7Ty1Ui9"),
    ("$ poetry config http-basic.internal deployer Lk9-Jh6Gf3Ds1Az", "Lk9-Jh6Gf3Ds1Az"),
    ('client = acme.ClientV3("Zx8Cv5Bn2Mq7Wl4Er1Ty6Ui3Op9As0")', "Zx8Cv5Bn2Mq7Wl4Er1Ty6Ui3Op9As0"),
    ("try this bearer Hj7Kl2Mn9Pq4Rs8Tu3Vw6Xy1Za5Bc0 on /admin", "Hj7Kl2Mn9Pq4Rs8Tu3Vw6Xy1Za5Bc0"),
    ("FlyV1 fm2_Qw8Er5Ty2Ui9Op6As3Df0Gh7Jk4Lz1Xc", "fm2_Qw8Er5Ty2Ui9Op6As3Df0Gh7Jk4Lz1Xc"),
])
def test_webhooks_prose_passwords_positional_and_sdk_keys_are_redacted(text: str, secret: str) -> None:
    _gone(text, secret)


@pytest.mark.parametrize("text, keep", [
    ("the services/ folder holds the API; see services/README.md", "services/README.md"),
    ("login page: see docs / README-auth.md for the flow", "README-auth.md"),
    ("le mot de passe est dans le coffre, section prod", "dans le coffre"),
    # an SDK client built from a variable or a word, the Bearer scheme named
    ('client = acme.ClientV3(os.environ["ACME_KEY"])', 'os.environ["ACME_KEY"]'),
    ('api = Api("production-environment-name")', "production-environment-name"),
    ("the Bearer scheme is described in RFC 6750 section 2.1", "Bearer scheme is described"),
])
def test_their_look_alikes_are_kept(text: str, keep: str) -> None:
    _kept(text, keep)
