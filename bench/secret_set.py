"""The credential forms the redaction layer must catch, generated: one fake secret per kind, each
shown in the form it takes in the wild (a header, a URL, a config line, a command flag…).

    python bench/secret_set.py        # every kind x 3 places through the real reflection bundle

Kinds follow gitleaks' and detect-secrets' rule lists plus the forms of the security issue. The
values are random with the right alphabet and length (seeded, so runs repeat); none is real.
``FALSE_POSITIVES`` must come through untouched.
"""

from __future__ import annotations

import random
import string
import sys
from pathlib import Path

_rng = random.Random(2026)
A = string.ascii_letters + string.digits
LOWER = string.ascii_lowercase + string.digits
UPPER = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"


def r(n: int, alphabet: str = A) -> str:
    # at least one digit, one upper and one lower where the alphabet has them, like real tokens
    while True:
        s = "".join(_rng.choice(alphabet) for _ in range(n))
        if (not any(c.isdigit() for c in alphabet) or any(c.isdigit() for c in s)) and (
                not any(c.isupper() for c in alphabet) or any(c.isupper() for c in s)):
            return s


# (kind, secret, how it appears: {s} is the secret)
KINDS: list[tuple[str, str, str]] = [
    ("openai", "sk-proj-" + r(48) + "T3BlbkFJ" + r(20), "OPENAI_API_KEY={s}"),
    ("openai_legacy", "sk-" + r(48), "client = OpenAI(api_key=\"{s}\")"),
    ("anthropic", "sk-ant-api03-" + r(93, A + "_-") + "AA", "x-api-key: {s}"),
    ("aws_access_key_id", "AKIA" + r(16, UPPER), "aws_access_key_id = {s}"),
    ("aws_secret_in_prose", r(40, A + "/+"), "the AWS secret access key is {s} for now"),
    ("aws_secret_config", r(40, A + "/+"), "aws_secret_access_key = {s}"),
    ("github_pat", "ghp_" + r(36), "git clone https://{s}@github.com/org/repo"),
    ("github_fine_grained", "github_pat_" + r(22) + "_" + r(59), "GH_TOKEN={s} gh pr list"),
    ("github_oauth", "gho_" + r(36), "token: {s}"),
    ("gitlab_pat", "glpat-" + r(20, A + "_-"), "PRIVATE-TOKEN: {s}"),
    ("gitlab_runner", "glrt-" + r(20, A + "_-"), "--token {s}"),
    ("slack_bot", "xoxb-" + r(11, "0123456789") + "-" + r(12, "0123456789") + "-" + r(24), "SLACK_BOT_TOKEN={s}"),
    ("slack_app", "xapp-1-" + r(11, UPPER) + "-" + r(13, "0123456789") + "-" + r(64, HEX), "app token {s}"),
    ("slack_webhook", "https://hooks.slack.com/services/T" + r(8, UPPER) + "/B" + r(8, UPPER) + "/" + r(24), "curl -X POST {s}"),
    ("stripe_secret", "sk_live_" + r(24), "Stripe.api_key = '{s}'"),
    ("stripe_restricted", "rk_live_" + r(24), "use {s} for refunds"),
    ("stripe_webhook", "whsec_" + r(32), "STRIPE_WEBHOOK_SECRET={s}"),
    ("google_api_key", "AIza" + r(35, A + "_-"), "https://maps.googleapis.com/maps/api/geocode/json?key={s}"),
    ("npm", "npm_" + r(36), "//registry.npmjs.org/:_authToken={s}"),
    ("pypi", "pypi-AgEIcHlwaS5vcmc" + r(70, A + "_-"), "twine upload -p {s} dist/*"),
    ("sendgrid", "SG." + r(22, A + "_-") + "." + r(43, A + "_-"), "sg = SendGridAPIClient('{s}')"),
    ("mailgun", "key-" + r(32, LOWER), "api:{s}"),
    ("digitalocean", "dop_v1_" + r(64, HEX), "doctl auth init -t {s}"),
    ("vault", "hvs." + r(90, A + "_-"), "VAULT_TOKEN={s} vault kv get secret/db"),
    ("twilio", "SK" + r(32, HEX), "twilio api key {s}"),
    ("shopify", "shpat_" + r(32, HEX), "X-Shopify-Access-Token: {s}"),
    ("databricks", "dapi" + r(32, "abcdef0123456789"), "DATABRICKS_TOKEN={s}"),
    ("linear", "lin_api_" + r(40), "Authorization: {s}"),
    ("grafana_cloud", "glc_" + r(60, A + "+/"), "grafana token {s}"),
    ("grafana_service_account", "glsa_" + r(32) + "_" + r(8, HEX), "GF_TOKEN={s}"),
    ("square", "EAAA" + r(60, A + "_-"), "square access token {s}"),
    ("atlassian", "ATATT3" + r(180, A + "_-="), "JIRA_API_TOKEN={s}"),
    ("age", "AGE-SECRET-KEY-1" + "".join(_rng.choice("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L") for _ in range(58)), "# key: {s}"),
    ("telegram_bot", r(10, "0123456789") + ":AA" + r(33, A + "_-"), "https://api.telegram.org/bot{s}/getMe"),
    ("discord_webhook", "https://discord.com/api/webhooks/" + r(18, "0123456789") + "/" + r(68, A + "_-"), "post alerts to {s}"),
    ("discord_bot", "M" + r(25, A) + "." + r(6, A) + "." + r(38, A), "discord bot token {s}"),
    ("azure_sas", "sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2026-01-01&sig=" + r(43, A + "%") + "%3D", "https://acct.blob.core.windows.net/c?{s}"),
    ("azure_storage", r(86, A + "+/") + "==", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={s};EndpointSuffix=core.windows.net"),
    ("docker_auth", __import__("base64").b64encode(("deploy:" + r(20)).encode()).decode(), '{{"auths": {{"ghcr.io": {{"auth": "{s}"}}}}}}'),
    ("redis_url", r(20), "REDIS_URL=redis://:{s}@cache.internal:6379/0"),
    ("postgres_url", r(20), "postgresql://app:{s}@db.internal:5432/app"),
    ("curl_user", r(16), "curl -u admin:{s} https://registry.internal/v2/"),
    ("sshpass", r(14), "sshpass -p {s} ssh deploy@host"),
    ("mysql_p", r(14), "mysql -u root -p{s} app < dump.sql"),
    ("x_api_key_header", r(32), "curl -H \"X-Api-Key: {s}\" https://api.example.com/v1"),
    ("app_key_base64", "base64:" + r(43, A + "+/") + "=", "APP_KEY={s}"),
    ("password_env_prefix", r(16), "PASSWORD={s} ./deploy.sh"),
    ("password_json", r(16), "{{\"password\": \"{s}\"}}"),
    ("password_yaml", r(16), "db:\n  password: {s}\n"),
    ("password_flag", r(16), "psql --password={s} -h db"),
    ("client_secret", r(32), "client_secret: {s}"),
    ("secret_key_python", r(50), "SECRET_KEY = '{s}'"),
    ("bearer_header", r(40, A + "._-"), "Authorization: Bearer {s}"),
    ("basic_header", __import__("base64").b64encode(("admin:" + r(14)).encode()).decode(), "Authorization: Basic {s}"),
    ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx" + r(20) + "." + r(43, A + "_-"), "token={s}"),
    ("private_key_pem", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA" + r(40) + "\n" + r(64) + "\n-----END OPENSSH PRIVATE KEY-----", "{s}"),
    ("huggingface", "hf_" + r(34), "HF_TOKEN={s}"),
    ("doppler", "dp.st.dev." + r(40), "DOPPLER_TOKEN={s}"),
    ("newrelic", "NRAK-" + r(27, UPPER), "newrelic key {s}"),
    ("planetscale", "pscale_tkn_" + r(43, A + "_"), "PLANETSCALE_TOKEN={s}"),
    ("postman", "PMAK-" + r(24, HEX) + "-" + r(34, HEX), "postman {s}"),
    ("pulumi", "pul-" + r(40, HEX), "PULUMI_ACCESS_TOKEN={s}"),
    ("rubygems", "rubygems_" + r(48, HEX), "gem push with {s}"),
    ("sentry", "sntrys_" + r(60, A + "+/"), "SENTRY_AUTH_TOKEN={s}"),
    ("dynatrace", "dt0c01." + r(24, UPPER) + "." + r(64, UPPER), "Api-Token {s}"),
    ("alibaba", "LTAI" + r(20), "aliyun key {s}"),
    ("mailchimp", r(32, HEX) + "-us21", "mailchimp {s}"),
    ("onepassword", "ops_eyJ" + r(200, A + "_-"), "OP_SERVICE_ACCOUNT_TOKEN={s}"),
    ("sendinblue", "xkeysib-" + r(64, HEX) + "-" + r(16), "brevo {s}"),
    ("contentful", "CFPAT-" + r(43, A + "_-"), "contentful {s}"),
    ("typeform", "tfp_" + r(59, A + "_"), "typeform {s}"),
]

FALSE_POSITIVES = [
    "PWD=/home/dev/proj",
    "cd $PWD && make",
    "OLDPWD=/home/dev",
    "import the sk-learn-utils package",
    "use sk-my-component-name for the button",
    "the sk-button-primary class",
    "commit 3f1c2a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a fixed it",
    "max_tokens=4096",
    "token_count = 12",
    "PASSWORD_MIN_LENGTH=8",
    "api_key_env = \"OPENAI_API_KEY\"",
    "password = os.environ['DB_PASSWORD']",
    "Authorization: Bearer $TOKEN",
    "mysql -u root -p app",
    "curl -u \"$USER:$PASS\" https://x",
    "https://example.com/a?b=1&c=2",
    "hf_hub_download(repo_id='x')",
    "key-value store",
    "The Basic plan costs $5.",
]


def sessions(tmp: Path) -> dict[str, Path]:
    """One Claude Code session per place, every kind in it: the person's message, a tool's input
    (the command the agent ran) and a tool's output."""
    import json

    def rec(n, kind, content, **extra):
        d = {"type": kind, "sessionId": f"secrets-{n // 1000}", "uuid": f"u{n}",
             "timestamp": f"2026-01-01T10:{(n // 60) % 60:02d}:{n % 60:02d}.000Z",
             "message": {"role": kind, "content": content}}
        d.update(extra)
        return d

    out = {}
    for place in ("user", "tool_input", "tool_output"):
        lines, n = [], 0
        for i, (kind, secret, form) in enumerate(KINDS):
            text = form.format(s=secret)
            base = i * 10
            ask = text if place == "user" else f"please check the {kind} setup"
            cmd = text if place == "tool_input" else "cat config"
            output = text if place == "tool_output" else "ok"
            lines += [rec(base, "user", ask),
                      rec(base + 1, "assistant", [{"type": "tool_use", "id": f"t{i}", "name": "Bash",
                                                   "input": {"command": cmd}}]),
                      rec(base + 2, "user", [{"type": "tool_result", "tool_use_id": f"t{i}",
                                              "content": output, "is_error": True}]),
                      rec(base + 3, "assistant", [{"type": "text", "text": "No, that failed. Actually let me retry."}])]
            n += 1
        path = tmp / f"{place}.jsonl"
        path.write_text("".join(json.dumps(x) + "\n" for x in lines))
        out[place] = path
    return out


def leaks(text: str) -> list[str]:
    """The kinds whose secret survives in ``text``."""
    return [kind for kind, secret, _ in KINDS if _core(secret) in text]


def _core(secret: str) -> str:
    # what must not survive: the random heart of the secret (for a PEM block, its key line)
    return secret.split("\n")[1] if "\n" in secret else secret


def measure() -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from slowloop.safety.redact import redact

    direct = {place: [k for k, s, f in KINDS if _core(s) in redact(
        {"user": "{t}", "tool_input": "$ {t}", "tool_output": "{t}\n"}[place].format(
            t=f.format(s=s))).text] for place in ("user", "tool_input", "tool_output")}
    kept = [t for t in FALSE_POSITIVES if redact(t).text != t]
    return {"kinds": len(KINDS), "leaked": direct, "false_positives": kept}


def main() -> int:
    res = measure()
    places = len(res["leaked"])
    leaked = sum(len(v) for v in res["leaked"].values())
    print(f"{res['kinds']} kinds x {places} places: {res['kinds'] * places - leaked} redacted, "
          f"{leaked} leaked; false positives {len(res['false_positives'])}/{len(FALSE_POSITIVES)}")
    for place, kinds in res["leaked"].items():
        for k in kinds:
            print(f"LEAK {place}: {k}")
    for t in res["false_positives"]:
        print(f"FALSE {t!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
