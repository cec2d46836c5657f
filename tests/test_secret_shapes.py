"""Secrets by shape and by context (issue #20, item 5): names that hold a secret only when the
value looks like one, program flags, what secret managers print, vendor prefixes, prose in more
languages, and the escaped or split forms. Every value is drawn here; each family is paired with the
benign look-alike it must keep."""

from __future__ import annotations

import random
import string

import pytest
from test_secret_forms import _draw

from slowloop.safety.redact import redact

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
SEEDS = [5, 17, 2027]


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


# --- passwords given as program flags -----------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_program_flags(seed: int) -> None:
    rng = random.Random(seed)
    for template in ("$ cqlsh cass-0 9042 -u app -p '{pw}' -e 'DESCRIBE KEYSPACES'",
                     "$ mongosh --host rs0/m0:27017 -u admin -p '{pw}' --eval 'rs.status().ok'",
                     "$ ipmitool -I lanplus -H 10.9.8.7 -U ADMIN -P '{pw}' chassis power status",
                     "$ snmpget -v3 -l authPriv -u mon -a SHA -A 'x{pw}' -x AES -X '{pw}' sw-01 sysUpTime.0",
                     "$ unrar x -p{pw} data.rar", "$ xfreerdp /u:Administrator /p:'{pw}' /v:10.1.2.3",
                     "$ ssh-keygen -t ed25519 -N '{pw}' -f ~/.ssh/k", "$ openssl enc -aes-256-cbc -k '{pw}' -in a -out b",
                     "$ db2 connect to SAMPLE user db2inst1 using '{pw}'", "$ 7z a -p'{pw}' out.7z in/",
                     "$ htpasswd -B -b -c /etc/nginx/.htpasswd ops '{pw}'", "$ sqlcmd -S db -U sa -P '%{pw}' -Q 'SELECT 1'",
                     "$ rabbitmqctl add_user orders '{pw}'", "$ sqlplus -S system/{pw}@//ora:1521/PDB1 @x.sql",
                     "$ lftp -u deploy,'{pw}' sftp://files.example.net", "$ http -a ops:'{pw}' GET https://ci.example.lan/api",
                     "$ etcdctl --user root:'{pw}' get /registry --prefix", "$ echo 'deploy:{pw}' | sudo chpasswd",
                     "$ echo '{pw}' | docker login reg.example.lan -u 'robot$ci' --password-stdin",
                     "PS> net use Z: \\\\fs01\\share /user:CORP\\svc {pw} /persistent:no", "$ export SSHPASS='{pw}'",
                     "$ snmpwalk -v2c -c {pw} 10.0.0.1", "$ curl -s --oauth2-bearer {pw} https://mail.example.io"):
        pw = _password(rng)
        _gone(template.format(pw=pw), pw)


@pytest.mark.parametrize("text, keep", [
    ("$ snmpwalk -v2c -c public 10.0.0.1 system", "-c public"),
    ("$ mongosh -p 27018 --quiet", "-p 27018"),
    ("$ unrar x -o+ archive.rar", "-o+ archive.rar"),
    ("$ sqlcmd -S db -U sa -P %DB_PASSWORD% -Q 'SELECT 1'", "%DB_PASSWORD%"),
])
def test_program_flags_keep(text: str, keep: str) -> None:
    assert keep in redact(text).text


# --- bare values printed by a secret manager, an environment lookup or a secrets file -----------

@pytest.mark.parametrize("seed", SEEDS)
def test_printed_by_their_command(seed: int) -> None:
    rng = random.Random(seed)
    for command in ("op read 'op://Infra/DB/password'", "vault kv get -field=password secret/app",
                    "gcloud secrets versions access latest --secret=db", "doppler secrets get DB_PW --plain",
                    "bw get password 'Grafana admin'", "printenv SMTP_PASSWORD", "echo $PARTNER_API_KEY",
                    "kubectl -n sso get secret admin -o jsonpath='{.data.password}' | base64 -d",
                    "sudo cat /etc/mongo/keyfile", "cat ~/.vault_pass", "cat config/master.key"):
        pw = _password(rng, 20)
        _gone(f"$ {command}\n{pw}\n$ ls\nREADME.md", pw)
    pw = _password(rng)
    _gone(f"$ cat /etc/rsyncd.secrets\nbackup:{pw}\n", pw)
    _gone(f'$ az keyvault secret show --vault-name kv -n sql-admin\n{{\n  "name": "sql-admin",\n  "value": "{pw}"\n}}', pw)


@pytest.mark.parametrize("text, keep", [
    ("$ printenv HOME\n/home/ci", "/home/ci"),
    ("$ echo $GIT_COMMIT\n3f9a1c2b7d4e8f6a0b1c2d3e4f5a6b7c8d9e0f1a", "3f9a1c2b7d4e8f6a0b1c2d3e4f5a6b7c8d9e0f1a"),
    ("$ cat ~/.ssh/id_ed25519.pub\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk2b3c4d5e6f7g8h9i0j1k2l3m4 ci@box",
     "AAAAC3NzaC1lZDI1NTE5AAAAIHk2b3c4d5e6f7g8h9i0j1k2l3m4"),
    ("$ kubectl get secret tls -o jsonpath='{.data.tls\\.crt}' | base64 -d\n-----BEGIN CERTIFICATE-----\n"
     "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----",
     "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ"),
    ("$ op read 'op://Infra/DB/username'\nsvc-app", "svc-app"),
])
def test_printed_keep(text: str, keep: str) -> None:
    assert keep in redact(text).text


@pytest.mark.parametrize("seed", SEEDS)
def test_a_column_named_password(seed: int) -> None:
    rng = random.Random(seed)
    a, b = _password(rng), _password(rng)
    out = _gone(f"| env | user | password |\n|-----|------|----------|\n| stg | qa | {a} |\n| dev | qa | {b} |", a)
    assert b not in out and "| stg | qa |" in out
    out = _gone(f"name,login,password,owner\nbackup,svc-backup,{a},ops\nmon,svc-mon,{b},sre", a)
    assert b not in out and "backup,svc-backup," in out
    assert "| sha256 | 9f86d081884c7d659a2feaa0c55ad015 |" in redact(
        "| file | sha256 |\n|---|---|\n| sha256 | 9f86d081884c7d659a2feaa0c55ad015 |").text


# --- vendor prefixes, vendor headers, cookies, config forms -------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_vendor_shapes_and_places(seed: int) -> None:
    rng = random.Random(seed)
    uuid = "-".join(_draw(rng, HEX, n) for n in (8, 4, 4, 4, 12))
    for text, secret in (
            (f"the key is xai-{(t := _draw(rng, ALNUM, 80))}", t),
            (f"BWS_ACCESS_TOKEN is 0.{uuid}.{(t := _draw(rng, ALNUM, 30))}:{_draw(rng, ALNUM, 22)}==", t),
            (f"CF_ORIGIN_CA_KEY v1.0-{_draw(rng, HEX, 24)}-{(t := _draw(rng, HEX, 146))}", t),
            (f"$ b2 account authorize 005f90c8a1a7 K005{(t := _draw(rng, ALNUM + '+/', 27))}", t),
            (f"curl -u 'live_{(t := _draw(rng, HEX, 35))}:' https://api.example.com/v1", t),
            (f"    URI    /receiver/v1/http/{(t := _draw(rng, ALNUM, 60))}==", t),
            (f"  -H 'Fastly-Key: {(t := _draw(rng, ALNUM, 32))}'", t),
            (f"headers: map[Accept:[*/*] X-Nomad-Token:[{uuid}]]", uuid),
            (f"Authorization: SharedKey acct:{(t := _draw(rng, ALNUM + '+/', 43))}=", t),
            (f'Hawk id="dh37", ts="1764500000", nonce="Q9x", mac="{(t := _draw(rng, ALNUM + "+/", 43))}="', t),
            (f"Sec-WebSocket-Protocol: access_token, {(t := _draw(rng, ALNUM, 40))}", t),
            (f"https://storage.example.com/o?x-goog-signature={(t := _draw(rng, HEX, 64))}", t),
            (f"gettoken?corpid=ww10f9&corpsecret={(t := _draw(rng, ALNUM, 43))}", t),
            (f"$ ./codecov upload-process -t {uuid} -f coverage.xml", uuid),
            (f"curl -b '.AspNetCore.Af=x1; .AspNetCore.Cookies={(t := _draw(rng, ALNUM, 50))}' https://p.example.io", t),
            (f"here's the cookie: user_session={(t := _draw(rng, ALNUM, 40))}; __Host-user_session_same_site={t}", t),
            (f"blog.example.io\tFALSE\t/\tTRUE\t1796036000\twordpress_logged_in_1\t{(t := _draw(rng, ALNUM, 40))}", t),
            (f"requirepass {(t := _password(rng))}", t),
            (f"username netops privilege 15 password 0 {(t := _password(rng))}", t),
            (f'    <add key="ClearTextPassword" value="{(t := _password(rng))}" />', t),
            (f'<property name="hibernate.connection.password">{(t := _password(rng))}</property>', t),
            (f'<wsse:Password Type="http://x#PasswordText">{(t := _password(rng))}</wsse:Password>', t),
            (f"CREATE USER grafana IDENTIFIED WITH sha256_password BY '{(t := _password(rng))}' HOST IP '10/8';", t),
            (f"EXEC sp_addlinkedsrvlogin @rmtsrvname = N'L', @rmtpassword = N'{(t := _password(rng))}';", t),
            (f"SET PASSWORD FOR 'app'@'%' = '{(t := _password(rng))}'", t),
            (f"15 3 * * * mysqldump -uroot -p'{(t := _password(rng))}' --all-databases", t),
            (f"'key' => env('MANDRILL_KEY', '{(t := _draw(rng, ALNUM, 22))}'),", t),
            (f"-----BEGIN OpenVPN Static key V1-----\n{_draw(rng, HEX, 32)}\n{(t := _draw(rng, HEX, 32))}", t),
            (f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{_draw(rng, ALNUM, 64)}\n{(t := _draw(rng, ALNUM, 64))}", t),
            (f'KEY = (\n    "-----BEGIN RSA PRIVATE KEY-----\\n"\n    "{_draw(rng, ALNUM, 64)}\\n"\n'
             f'    "{(t := _draw(rng, ALNUM, 64))}\\n"\n)', t),
            (f'     1→export OPENAI_API_KEY="sk-proj-{_draw(rng, ALNUM, 40)}\\\n     2→{(t := _draw(rng, ALNUM, 40))}"', t),
            (f"     3→  password: >-\n     4→    {_password(rng)}\n     5→    {(t := _password(rng))}\n", t)):
        _gone(text, secret)


@pytest.mark.parametrize("text, keep", [
    ("Cookie: theme=dark; lang=en-US", "lang=en-US"),
    ("blog.example.io\tFALSE\t/\tTRUE\t1796036000\tconsent\tyes", "consent\tyes"),
    ("snmp-server community public RO", "public RO"),
    ('<add key="Username" value="build" />', 'value="build"'),
    ("ETag: v1.0-release", "v1.0-release"),
])
def test_vendor_shapes_and_places_keep(text: str, keep: str) -> None:
    assert keep in redact(text).text


# --- prose in more languages ----------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_prose_in_more_languages(seed: int) -> None:
    rng = random.Random(seed)
    for template in ("Mật khẩu tài khoản quản trị là {pw} nhé.", "Kata sandi database staging: {pw}",
                     "Heslo k databázi je {pw}, uživatel app.", "Hasło do serwera backupów to {pw}, login: b.",
                     "Sunucunun root şifresi {pw}, kimseyle paylaşma.", "관리자 비밀번호는 {pw} 입니다.",
                     "सर्वर का पासवर्ड {pw} है।", "كلمة المرور لخادم الإنتاج هي {pw}",
                     "Lösenordet till routern är {pw} om du behöver.", "Пароль от базы на проде: {pw} — логин app.",
                     "Пароль до адмінки: {pw}, логін — admin.", "APIキーは {pw} を使ってください。",
                     "new root pw for the bastion is {pw} , rotating now"):
        pw = _password(rng)
        _gone(template.format(pw=pw), pw)


@pytest.mark.parametrize("text", [
    "Пароль должен быть не короче 12 символов.", "비밀번호는 관리자에게 문의하세요.",
    "Lösenordet är sparat i valvet.", "the pw is in the vault, ask ops",
])
def test_prose_in_more_languages_keep(text: str) -> None:
    assert redact(text).text == text
