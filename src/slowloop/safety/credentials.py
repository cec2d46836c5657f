"""Credentials that only their place gives away: a password after a program's password flag, in
a config file's password field, in ``.netrc`` or ``.pgpass``, in SQL; and vendor tokens whose
shape alone is not distinctive enough for :mod:`.redact`'s shaped list.

Each rule is ``(kind, hints, pattern)``: the secret is the pattern's last group, and the rule runs
only when one of its hints is in the text (the redaction pass stays linear and cheap). The program
and its other arguments are kept, so a transcript still says what was run. Three tables:
``CONTEXTUAL`` (the place is enough), ``RANDOM_CONTEXTUAL`` (the value must also look random:
a string handed to a client call, a vendor header, a key as a URL's user) and ``CHECKED_CONTEXTUAL``
(redact checks each kind its own way: a docker ``auth`` must decode to ``user:password``).

Why not detect-secrets' plugins as they are: measured on the adv1 blind secrets set, its vendor and
keyword plugins found 1 of the 71 secrets slowloop missed, and its entropy plugins, which found 55,
also fired on 93 of the 104 benign look-alikes (git SHAs, checksums, UUIDs) — they would turn every
transcript into markers. So slowloop keeps gitleaks'/detect-secrets' *shapes* (in :mod:`.redact`)
and judges high-entropy strings only where a credential's context says one sits (this module).
"""

from __future__ import annotations

import re

__all__ = ["CHECKED_CONTEXTUAL", "CONTEXTUAL", "LINE_CONTEXTUAL", "NAMED_CONTEXTUAL", "PASSWORD_FLAGS",
           "RANDOM_CONTEXTUAL"]

_V = r"[\"']?([^\s\"']{4,})[\"']?"  # a value, quotes kept outside the secret
_Q = r"(?:\"([^\"\n]{4,})\"|'([^'\n]{4,})'|([^\s\"']{4,}))"

# Programs and the flag that takes their password (or token), as data: (programs, flags, glued).
# "-p" alone means many things, so the program is named; ``glued`` flags take the value stuck to
# them (``unrar x -pSECRET``, ``xfreerdp /p:SECRET``), the others after a space or "=".
PASSWORD_FLAGS: list[tuple[tuple[str, ...], str, bool]] = [
    (("cqlsh", "mongosh", "mongo", "mongodump", "mongorestore", "mongoexport", "mongoimport", "oc",
      "rdesktop", "psexec", "PsExec", "PsExec64", "psexec64", "racadm", "hdbsql", "influx", "vsql",
      "clickhouse-client", "nzsql", "cockroach", "neo4j-admin", "cypher-shell", "arangosh", "rabbitmqadmin",
      "keytool", "winrm", "evil-winrm", "smbmap", "crackmapexec", "impacket-psexec", "wmic", "ncat",
      "beeline"), r"-p|--password", False),
    (("mosquitto_pub", "mosquitto_sub", "ipmitool", "sqlcmd", "bcp", "sybase", "isql", "ftp-upload"), r"-P", False),
    (("snmpget", "snmpwalk", "snmpset", "snmpbulkwalk", "snmpbulkget", "snmptrap", "snmptable"), r"-[AX]", False),
    (("openssl",), r"-k|-kfile", False),
    (("ssh-keygen",), r"-[NP]", False),
    (("codecov", "codecovcli"), r"-t|--token", False),
    (("curl",), r"--oauth2-bearer", False),
    (("unrar", "rar"), r"-p", True),
    (("xfreerdp", "wlfreerdp", "sdl-freerdp"), r"/p:", True),
    (("db2",), r"using", False),
    (("cadaver", "wget", "aria2c", "lftp", "svn", "hg"), r"--(?:http-|ftp-)?passw(?:or)?d", False),
    (("vncviewer", "x11vnc"), r"-passwd|-passwdfile", False),
    (("pure-pw", "rabbitmqctl"), r"(?:add_user|change_password|useradd|passwd)\s+\S+", False),
]


def _flag_rules(programs: tuple[str, ...], flags: str, glued: bool) -> list[tuple[str, tuple[str, ...], re.Pattern[str]]]:
    """The first and the last such flag on the line (``snmpget -A auth … -X priv``)."""
    names = "|".join(re.escape(p) for p in programs)
    gap = r"" if glued else r"(?:[ \t]+|=)"
    value = r"(?:\"([^\"\n]{4,})\"|'([^'\n]{4,})'|((?!\d+(?:\s|$))[^\s\"'-][^\s\"']{3,}))"  # not a port
    hints = tuple(p if len(p) > 3 else f" {p} " for p in programs)  # " oc ", not "doc"
    return [("password", hints, re.compile(
        rf"((?<![\w-])(?:{names})(?:\.exe)?\b[^\n|;&]*{lazy}\s(?:{flags}){gap})" + value)) for lazy in ("?", "")]


# Rules whose match never leaves one line: redact runs each only on the lines holding one of its
# hints (program names are short and common substrings, so a whole-text scan would cost more).
LINE_CONTEXTUAL: list[tuple[str, tuple[str, ...], re.Pattern[str]]] = [
    ("password", ("redis-cli",), re.compile(r"(\bredis-cli\b[^\n]*?\s(?:-a|--pass)\s+)" + _V)),
    ("password", ("ldap",), re.compile(r"(\bldap\w+\b[^\n]*?\s-w\s+)" + _V)),
    ("password", ("htpasswd",), re.compile(r"(\bhtpasswd\s+(?:-\w+\s+)*-\w*b\w*\s+(?:-\w+\s+)*\S+\s+\S+\s+)" + _V)),
    ("password", ("zip", "7z"), re.compile(r"(\b(?:zip|7z|7za)\b[^\n]*?\s-(?:P\s+|p))" + _V)),
    ("password", ("sqlcmd", "bcp", "isql"), re.compile(r"(\b(?:sqlcmd|bcp|isql)\b[^\n]*?\s-P\s*)" + _Q)),
    ("password", ("login",), re.compile(r"(\b(?:docker|podman|helm\s+registry|oras|buildah)\s+login\b[^\n]*?\s(?:-p|--password)[ =])" + _V)),
    ("password", ("az login", "az ad"), re.compile(r"(\baz\s+(?:login|ad\s+\S+)\b[^\n]*?\s(?:-p|--password)[ =])" + _V)),
    ("password", ("sudo -S",), re.compile(r"(\becho\s+)" + r"[\"']?([^\s\"'|]{6,})[\"']?(?=\s*\|\s*sudo\s+-S\b)")),
    ("password", ("define",), re.compile(
        r"(\bdefine\s*\(\s*['\"]\w*(?:PASSWORD|PASS|SECRET|KEY|SALT|TOKEN)\w*['\"]\s*,\s*['\"])([^'\"\n]{4,})(?=['\"])")),
    # curl -u user:pw / --user user:pw (the user is kept); sshpass -p pw; mysql -ppw (glued) or -p pw
    ("password", ("curl",), re.compile(
        r"(\bcurl\b[^\n]*?\s(?:-u|--user)[ =]?[\"']?[^\s:\"']+:[\"']?)([^\s\"'@]{3,})")),
    ("password", ("sshpass",), re.compile(r"(\bsshpass\s+-p\s*[\"']?)([^\s\"']+)")),
    ("password", ("mysql", "mariadb"), re.compile(
        r"(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]*?\s-p[\"']?)([^\s\"'-][^\s\"']*)")),
    *[rule for row in PASSWORD_FLAGS for rule in _flag_rules(*row)],
    # config directives whose argument is a password: redis.conf, slapd.conf, keepalived, Cisco, ftp
    ("password", ("requirepass", "masterauth", "rootpw", "bindpw", "auth_pass", "PASS "), re.compile(
        r"(^(?:[ \t]*\d+[:→])?[ \t]*(?:requirepass|masterauth|rootpw|bindpw|auth_pass|(?:quote[ \t]+)?PASS)[ \t]+)"
        r"[\"']?([^\s\"']{4,})")),
    ("password", ("password 0", "secret 0", "password 7"), re.compile(r"(\b(?:password|secret)[ \t]+[07][ \t]+)(\S{4,})")),
    ("password", ("basicauth.users=",), re.compile(r"(basicauth\.users=[^:\s,]+:)([^\s,\"'$]{4,})")),
    # an expect script's answer to a password prompt
    ("password", ("send ",), re.compile(r"(\bsend[ \t]+\")([^\"\s\\]{6,})(?=\\r\")")),
    # Hawk's mac, a WebSocket subprotocol carrying a token
    ("hawk_mac", ("Hawk ",), re.compile(r"(\bHawk\s[^\n]*?\bmac=\")([A-Za-z0-9+/=]{20,})")),
    ("bearer_token", ("Sec-WebSocket-Protocol",), re.compile(
        r"(Sec-WebSocket-Protocol:[^\n]*?(?:access_token|token|bearer|auth)[^\n,]*,\s*)([A-Za-z0-9._~+/=-]{20,})", re.I)),
    # SQL the IDENTIFIED BY rule does not reach: WITH <plugin> BY, double quotes, T-SQL and MySQL forms
    ("password", ("IDENTIFIED", "identified"), re.compile(
        r"(\bidentified\s+(?:with\s+\w+\s+)?by\s+(?:password\s+)?)[\"']([^'\"\n]{4,})(?=[\"'])", re.I)),
    ("password", ("password =", "password=", "PASSWORD =", "PASSWORD=", "PASSWORD FOR"), re.compile(
        r"((?:@\w*password\s*=\s*N?|\bWITH\s+PASSWORD\s*=\s*N?|"  # T-SQL: CREATE LOGIN … WITH PASSWORD = N'…'
        r"\bSET\s+PASSWORD\s+FOR\s+[^=\n]+=\s*(?:PASSWORD\s*\(\s*)?)')([^'\n]{4,})(?=')", re.I)),
    # a Cookie header or curl -b: the first and the last cookie of the line
    *[("cookie", ("ookie", " -b "), re.compile(
        rf"((?:[Cc]ookie:|\s-b|--cookie)[ \t]*[\"']?(?:[^\n\"']*{lazy};\s*)?[\w.-]+=)([^\s;\"'|]{{20,}})"))
      for lazy in ("?", "")],
    # a Netscape cookie jar line: domain, flag, path, secure, expiry, name, value
    ("cookie", ("\tTRUE\t", "\tFALSE\t"), re.compile(
        r"(\t(?:TRUE|FALSE)\t\d+\t[^\t\n]+\t)([^\t\n]{16,})")),
    # SNMP communities: any but the defaults everybody knows
    ("password", ("snmp",), re.compile(r"(\bsnmp\w*\b[^\n|;&]*?\s-c[ \t]+)[\"']?(?!(?:public|private)\b)([^\s\"'-][^\s\"']{5,})")),
    # a password on stdin: echo 'pw' | docker login --password-stdin, | chpasswd (user:pw), | vncpasswd
    ("password", ("chpasswd", "vncpasswd", "pure-pw", "passwd", "kinit", "password-stdin"), re.compile(
        r"(\b(?:echo|printf)\s+(?:-\w+\s+)?[\"']?(?:[\w.@-]+:(?=[^\s\"']{4,}[\"']?\s*\|\s*(?:sudo\s+)?chpasswd))?)"
        r"([^\s\"'|;]{4,})(?=[\"']?\s*(?:;\s*echo\s[^|]*)?\)?\s*\|\s*(?:sudo\s+)?"
        r"(?:chpasswd|vncpasswd|pure-pw|passwd|smbpasswd|kinit|[\w./ -]*?\b(?:login|auth)\b[^\n]*--password-stdin))")),
    # user/password@db (Oracle tools), user,password (lftp -u), user:password (httpie -a, etcdctl --user)
    ("password", ("sqlplus", "expdp", "impdp", "rman", "sqlldr", "exp ", "imp ", "dgmgrl", "sql "), re.compile(
        r"(\b(?:sqlplus|expdp|impdp|rman|sqlldr|exp|imp|dgmgrl|sql)\s+(?:-\w+\s+)*[\w$#]+/)[\"']?([^\s@/\"']{4,})(?=[\"']?@)")),
    ("password", ("lftp",), re.compile(r"(\blftp\b[^\n|;&]*?\s-u\s+[\"']?[^\s,\"']+,)[\"']?([^\s\"']{4,})")),
    ("password", ("http ", "https ", "xh ", "etcdctl", "influx", "nats"), re.compile(
        r"(\b(?:http|https|xh|xhs|etcdctl|nats)\b[^\n|;&]*?\s(?:-a|--auth|--user|--creds)[ =][\"']?[^\s:\"']+:)[\"']?([^\s\"']{4,})")),
    ("password", ("/user:",), re.compile(r"(/user:\S+\s+)[\"']?([^\s/\"']{4,})(?=[\"']?(?:\s|$))", re.I)),
    ("password", ("SSHPASS", "SNOWSQL_PWD", "ISQL_PASSWORD"), re.compile(r"(\b(?:SSHPASS|SNOWSQL_PWD)=)" + _V)),
    # password flags of common programs (the program is named: "-p" alone means many things)
]


CONTEXTUAL: list[tuple[str, tuple[str, ...], re.Pattern[str]]] = [
    ("password", ("pass",), re.compile(r"(\s-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass)\s+)" + _V)),
    ("password", ("pass:",), re.compile(r"(\s-pass(?:out|in)\s+pass:)([^\s\"']{4,})")),
    ("password", ("smbclient", "mount"), re.compile(r"(\s-U\s+[^\s%]+%)([^\s\"']{4,})")),
    ("password", ("net use",), re.compile(r"(\bnet\s+use\s+\S+\s+)([^\s/\"']{4,})(?=\s+/user:)", re.I)),
    ("password", ("alias set",), re.compile(r"(\bmc\s+alias\s+set\s+\S+\s+\S+\s+\S+\s+)" + _V)),
    ("password", ("--password", "--passwd", "--pass="), re.compile(r"(--pass(?:word|wd)?[= ])" + _V)),
    ("password", ("PGPASSWORD", "MYSQL_PWD", "REDISCLI_AUTH"), re.compile(
        r"(\b(?:PGPASSWORD|MYSQL_PWD|REDISCLI_AUTH)=)" + _V)),
    # SQL: CREATE USER … IDENTIFIED BY '…', ALTER ROLE … PASSWORD '…'
    ("password", ("IDENTIFIED", "identified"), re.compile(
        r"(\bidentified\s+by\s+(?:password\s+)?(?:unhex\(\s*)?)'([^'\n]{4,})'", re.I)),  # UNHEX('…'): hex of it
    ("password", ("PASSWORD '", "password '", "Password '", "PASSWORD  '", "password  '"), re.compile(
        r"(\b(?:role|user)\b[^\n;]*?\bpassword\s+)'([^'\n]{4,})'", re.I)),
    # config files
    ("password", ("<",), re.compile(
        r"(<(?:\w+:)?(?:password|passwd|secret|token|apiKey|api_key|apitoken|accessKey|secretKey|privateKey|clientSecret|"
        r"storePassword|keyPassword|\w*Password)(?:\s[^<>]*)?>(?:\s*(?:\d+→\s*)?<Value>)?)([^<\s]{4,})(?=</)", re.I)),
    ("password", ("value=",), re.compile(
        r"(\b(?:key|name)=\"[^\"\n]*(?:password|passwd|secret|token|apikey|api_key)\"\s+value=\")([^\"\n]{4,})(?=\")", re.I)),
    ("password", ("<property",), re.compile(
        r"(<property\s+name=\"[^\"\n]*(?:password|passwd|secret|token)\"[^>]*>)([^<\s]{4,})(?=</)", re.I)),
    ("password", ("machine",), re.compile(r"(\bmachine\s+\S+\s+(?:login\s+\S+\s+)?password\s+)([^\s]{4,})")),
    ("password", (":",), re.compile(r"(?m)(^[^\s:#]+:(?:\d+|\*):[^\s:]+:[^\s:]+:)([^\s]{4,})$")),  # .pgpass
    ("password", ("ENV.fetch", "getenv", "environ.get", "env("), re.compile(
        r"((?:ENV\.fetch|getenv|environ\.get|\benv)\(\s*['\"]\w*(?:PASS|SECRET|TOKEN|KEY)\w*['\"]\s*,\s*['\"])([^'\"\n]{6,})(?=['\"])")),
    ("npm_auth", ("_auth",), re.compile(r"(\b_auth(?:Token)?\s*=\s*)([A-Za-z0-9+/=._-]{12,})")),
    ("cookie", ("ookie",), re.compile(
        r"((?:sessionid|session|sid|connect\.sid|_session|csrftoken|auth_token|remember_token|JSESSIONID|PHPSESSID)"
        r"=)([A-Za-z0-9%._~+/=-]{16,})")),
    # a session cookie by its name alone (curl -b 'PHPSESSID=…', a Cookie header): the name is
    # the framework's, so no "cookie" word is needed
    ("cookie", ("SESSID", "SESSIONID", "sessionid", "connect.sid", "_session=", "_session_id"), re.compile(
        r"(\b(?:PHPSESSID|JSESSIONID|ASPSESSIONID\w*|sessionid|connect\.sid|\w+_session|_session_id)=)"
        r"([A-Za-z0-9%._~+/=-]{16,})")),
    # a token in a URL's query or a webhook's path
    ("url_token", ("=",), re.compile(
        r"([?&](?i:key|token|access_token|auth|\w*secret|signature|sig|X-Goog-Signature|code|apikey|api_key|k|"
        r"X-Amz-Signature|X-Amz-Security-Token|X-Amz-Credential|X-Goog-Credential)=)"
        r"([A-Za-z0-9%._~+/=-]{16,})")),
    ("webhook_key", ("hook",), re.compile(
        r"(\bhooks?/[\w/-]*?)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9]{24,})(?![\w-])")),
    # webhook paths by their shape, whatever the host (a proxy, a self-hosted mirror): Slack's
    # /services/T…/B…/<key>, Discord's /api/webhooks/<id>/<token>, Teams' …/IncomingWebhook/…/<key>
    ("webhook_key", ("/services/",), re.compile(r"(/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/)([A-Za-z0-9]{16,})")),
    ("webhook_key", ("/webhooks/",), re.compile(r"(/webhooks/\d{15,20}/)([A-Za-z0-9_-]{30,})")),
    ("webhook_key", ("/IncomingWebhook/",), re.compile(r"(/IncomingWebhook/[0-9a-f]{32}/[0-9a-f-]{36}/)([A-Za-z0-9_-]{16,})")),
    # webhook paths whose key is short: Zapier's catch hooks, IFTTT's maker key
    ("webhook_key", ("/hooks/catch/",), re.compile(r"(/hooks/catch/)(\d+/[A-Za-z0-9]{4,})")),
    ("webhook_key", ("/receiver/v1/",), re.compile(r"(/receiver/v1/(?:http|otlp)/)([A-Za-z0-9_=-]{20,})")),
    ("webhook_key", ("/with/key/",), re.compile(r"(/with/key/)([A-Za-z0-9_-]{10,})")),
    # PowerShell: a password given as plain text
    ("password", ("SecureString", "securestring"), re.compile(
        r"(ConvertTo-SecureString\s+(?:-String\s+)?[\"'])([^\"'\n]{4,})(?=[\"'][^\n]*-AsPlainText)", re.I)),
    # a PuTTY .ppk: the private lines and their MAC
    # (a file read shows each line after its number: "     8→AAAAIqUk…")
    ("private_key", ("Private-Lines",), re.compile(
        r"(Private-Lines:[ \t]*\d+\r?\n(?:[ \t]*\d+→)?)([A-Za-z0-9+/=]{4,}(?:\r?\n(?:[ \t]*\d+→)?[A-Za-z0-9+/=]{4,}"
        r"(?=\r?\n|$))*)")),
    ("private_key", ("Private-MAC",), re.compile(r"(Private-MAC:[ \t]*)([0-9a-fA-F]{16,})")),
    # Discord bot tokens by shape alone: the first part is the base64 of the bot's numeric id, so
    # it is quartets of base64-of-digits ("MjYy", "NzYz"): no identifier or hash looks like that
    ("discord_bot_token", ("MT", "Mj", "Mz", "MD", "NT", "Nj", "Nz", "ND", "OT", "Oj", "Oz", "OD"), re.compile(
        r"(?<![\w.-])()((?:[MNO][DTjz][AEIMQUYcgk][w-z0-5]){5,6}(?:[MNO][AQgw]|[MNO][DTjz][AEIMQUYcgk])?"
        r"\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?![\w-])")),
    ("adafruit_key", ("aio_",), re.compile(r"(?<![\w-])()(aio_(?=[A-Za-z]*[0-9])[A-Za-z0-9]{28,32})(?![A-Za-z0-9])")),
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
    ("okta_token", ("SSWS", "ssws", "okta", "Okta", "OKTA"), re.compile(r"((?:SSWS\s+|okta[^\n]{0,40}?))(00[A-Za-z0-9_-]{40})(?![A-Za-z0-9_-])", re.I)),
    ("fcm_server_key", (":APA91b",), re.compile(r"()(AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,})")),
    ("elastic_api_key", ("ApiKey",), re.compile(r"(\bApiKey\s+)([A-Za-z0-9+/]{20,}={0,2})")),
    ("heroku_key", ("heroku",), re.compile(
        r"(heroku[^\n]{0,80}?)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", re.I)),
    # a Go DSN: user:password@tcp(host:port)/db (the user is kept; no "://" for the URL rule)
    ("url_password", ("@tcp(", "@unix(", "@udp("), re.compile(
        r"(?<![\w.-])([\w.-]{1,64}:)([^\s@/\"'()]{4,})(?=@(?:tcp|unix|udp)\()")),
    # positional passwords: net user NAME PASSWORD /add, vault operator unseal KEY
    ("password", ("net user", "NET USER", "Net user"), re.compile(
        r"(\bnet\s+user\s+[^\s/]+\s+)[\"']?([^\s/\"'*][^\s\"']{3,})(?=[\"']?(?:[ \t]+/|[ \t]*(?:\r?\n|$)))", re.I)),
    ("vault_unseal_key", ("operator unseal",), re.compile(
        r"(\bvault\s+operator\s+unseal\s+(?:-[\w-]+(?:=\S+)?\s+)*)([A-Za-z0-9+/]{20,}={0,2})(?![\w+/=])")),
    # jenkins-cli -auth user:token; SMTP AUTH PLAIN <base64 of \0user\0password>
    ("password", ("-auth ",), re.compile(r"(\s-auth[ \t]+[^\s:@\"']+:)([^\s\"']{4,})")),
    ("smtp_auth", ("AUTH PLAIN",), re.compile(r"(\bAUTH\s+PLAIN\s+)([A-Za-z0-9+/]{8,}={0,2})")),
    # a Rails default: ENV.fetch("DB_PASSWORD") { "…" }
    ("password", ("ENV.fetch",), re.compile(
        r"(\bENV\.fetch\(\s*['\"]\w*(?:PASS|SECRET|TOKEN|KEY)\w*['\"]\s*\)\s*\{\s*['\"])([^'\"\n]{4,})(?=['\"])")),
    # a JSON Web Key's private members (d; an RSA key's p, q, dp, dq, qi; a symmetric key's k)
    ("private_key", ('"kty"',), re.compile(r"(\"(?:d|p|q|dp|dq|qi|k)\"\s*:\s*\")([A-Za-z0-9_-]{16,})(?=\")")),
    # a Terraform state's random_password: its "result" is the password
    ("password", ('"random_password"',), re.compile(r"(\"result\"\s*:\s*\")([^\"\n]{4,})(?=\")")),
    # a Bitcoin private key in wallet import format, where a name says WIF
    ("crypto_private_key", ("WIF", "wif", "Wif"), re.compile(
        r"((?i:wif)\w*[\"']?\s*[:=]\s*[\"']?)([5KL][1-9A-HJ-NP-Za-km-z]{50,51})(?![1-9A-Za-z])")),
]

# Rules whose secret must also *look* random (redact checks it with ``looks_random``): their context
# is suggestive but not conclusive, so a word, a path or a URL in the same place is kept. The fourth
# field, when set, must match the text just before the match (ending there): each pattern starts
# with a literal so the scan stays fast, and the name in front is checked only at its candidates.
RANDOM_CONTEXTUAL: list[tuple[str, tuple[str, ...], re.Pattern[str], re.Pattern[str] | None]] = [
    # Authorization with no scheme ("Authorization: api-<uuid>") or one slowloop does not know
    # ("GenieKey <uuid>", "Api-Key <key>")
    ("bearer_token", ("uthorization",), re.compile(
        r"(uthorization[\"']?\s*[:=]\s*[\"']?"
        r"(?:(?!(?:Bearer|BEARER|bearer|Basic|BASIC|basic|Digest)\b)[A-Za-z][A-Za-z0-9_-]{1,30}[ \t]+"
        r"(?:[A-Za-z0-9_-]{3,40}:(?=[A-Za-z0-9+/]{20,}))?)?)"
        r"(?!(?:Bearer|BEARER|bearer|Basic|BASIC|basic|Token|token|Bot|Digest|Negotiate|NTLM|AWS4-HMAC-SHA256|"
        r"SSWS|ApiKey|Splunk|OAuth|\[REDACTED)\b)([A-Za-z0-9._~+/=-]{12,})"), re.compile(r"[Aa]\Z")),
    # a URL whose user is a key and that has no password: a Sentry DSN
    ("url_key", ("://",), re.compile(r"(https?://)([A-Za-z0-9_-]{20,})(?=@[A-Za-z0-9.-]+\.[a-z]{2,})"), None),
    # vendor API headers, given as a header or as data: x-honeycomb-team, dd-api-key, x-vault-token
    ("api_key", ("-team", "-token", "-Token", "-TOKEN", "-key", "-Key", "-KEY", "-secret", "-Secret", "-Auth", "-auth"),
     re.compile(
        r"(-(?:team|token|key|secret|auth|Team|Token|Key|Secret|Auth|TEAM|TOKEN|KEY|SECRET|AUTH)[\"']?[ \t]*[:=][ \t]*[\"'\[]?)"
        r"([A-Za-z0-9._~+/=-]{8,})"),
     re.compile(r"(?i)(?<![\w-])(?:x-[a-z0-9-]+|dd-(?:api|application)|ocp-apim-subscription|fastly|circle|"
                r"[a-z]+-(?:api|auth|access|client))\Z")),
    # redis-cli's prompt, then AUTH [user] password
    ("password", ("AUTH ", "auth "), re.compile(r"(>[ \t]*(?:AUTH|auth)[ \t]+(?:[\w.@-]+[ \t]+)?)([^\s\"']{6,})"),
     re.compile(r"[\w.-]+:\d+\Z")),
    # commands whose password is positional: wpa_passphrase SSID PASS, net use DRIVE SHARE PASS,
    # poetry config http-basic.REPO USER PASS
    ("password", ("wpa_passphrase",), re.compile(r"(\bwpa_passphrase[ \t]+\S+[ \t]+)([^\s\"']{8,63})"), None),
    ("password", ("net use", "NET USE"), re.compile(r"((?i:\bnet use)[ \t]+(?:[A-Za-z]:[ \t]+)?\S+[ \t]+)([^\s\"'/]{6,})"), None),
    ("password", ("http-basic.",), re.compile(r"(\bhttp-basic\.[\w.-]+[ \t]+[\w.@-]+[ \t]+)([^\s\"']{6,})"), None),
    # an SDK client built with its key as a literal: cohere.ClientV2("…"), new Ably.Realtime('…'),
    # new Api('key_id', 'key_secret')
    ("api_key", ("Client", "Realtime", "Api(", "API(", "Rest(", "SDK("), re.compile(
        r"((?:Client\w*|Realtime|Rest|Api|API|SDK)\(\s*(?:[\"'][^\"'\n]{4,80}[\"']\s*,\s*)?[\"'])([^\"'\s]{20,200})(?=[\"'])"),
     None),
    # "bearer X" in prose: the word, then the value
    ("bearer_token", ("bearer ", "Bearer "), re.compile(r"((?<![\w-])[Bb]earer[ \t]+)([A-Za-z0-9._~+/=-]{24,})"), None),
    # "Key": "…" (appsettings.json and friends), symbols and all: "7!HgeR%5J5V2HAOh"
    ("api_key", ('"Key"', '"key"', '"Secret"', '"secret"'), re.compile(
        r"(\"(?:Key|key|Secret|secret|SigningKey|ApiKey)\"\s*:\s*\")([^\"\\\s]{12,200})(?=\")"), None),
]


# Rules that redact checks further before redacting (a docker "auth" must decode to user:password,
# an AWS secret key must have AWS or a secret named near it, and so on).
CHECKED_CONTEXTUAL: list[tuple[str, tuple[str, ...], re.Pattern[str]]] = [
    # header-style keys anywhere on a line: -H "X-Api-Key: …", {"x-api-key": "…"}
    ("api_key", ("pi-key", "pi-Key", "PI-KEY", "uth-token", "uth-Token", "ccess-token",
                 "rivate-token", "RIVATE-TOKEN", "pikey", "piKey"), re.compile(
        r"(?i)(\b(?:x-)?(?:api-?key|auth-token|access-token|private-token|goog-api-key)[\"']?"
        r"\s*[:=]\s*[\"']?)([A-Za-z0-9._~+/=-]{8,})")),
    # Azure SAS signatures in a URL query
    ("azure_sas", ("sig=",), re.compile(r"([?&]sig=)([A-Za-z0-9%+/=]{20,})")),
    # Docker's config.json: "auth": base64 of user:password
    ("docker_auth", ('"auth',), re.compile(
        r'(\\?"auth\\?"\s*:\s*\\?")([A-Za-z0-9+/]{8,}={0,2})(?=\\?")')),
    # Telegram bot tokens: <bot id>:<35 chars starting AA>
    ("telegram_bot_token", (":AA",), re.compile(r"(?:(?<=bot)|(?<![\w:]))()(\d{8,10}:AA[A-Za-z0-9_-]{33})(?![\w-])")),
    # Discord bot tokens, only where Discord is named
    ("discord_bot_token", ("iscord", "DISCORD"), re.compile(
        r"(?<![\w.-])()([MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?![\w-])")),
    # Twilio auth tokens and Mailchimp keys
    ("mailchimp_key", ("-us",), re.compile(r"(?<![\w-])()([0-9a-f]{32}-us\d{1,2})(?![\w-])")),
    # An AWS secret access key in prose: 40 base64 characters where AWS or a secret is named
    ("aws_secret_key", ("aws", "AWS", "Aws", "secret", "Secret", "SECRET", "AKIA"), re.compile(
        r"(?<![A-Za-z0-9/+=])()((?=[A-Za-z0-9/+]*[0-9])(?=[A-Za-z0-9/+]*[A-Z])(?=[A-Za-z0-9/+]*[a-z])"
        r"[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])")),
]


# Rules whose secret a *name* in the match owns (group ``name``; the value is group ``v``): redact
# judges the name as it judges an assignment's (``X-Vault-Token`` and ``DB_PASSWORD`` yes,
# ``accept`` and ``SSID`` no) and names the marker after it.
_GAP = r"\s*(?:\d+→\s*)?"  # a newline, and a file read's line number
NAMED_CONTEXTUAL: list[tuple[tuple[str, ...], re.Pattern[str]]] = [
    # a name/value pair: a HAR header, a k8s env entry, a Helm set, {"name": …, "value": …}
    (('"name"',), re.compile(
        r"\"name\"\s*:\s*\"(?P<name>[\w.-]{2,80})\"\s*," + _GAP + r"\"value\"\s*:\s*\"(?P<v>[^\"\n]{4,})\"")),
    (("name:",), re.compile(
        r"\bname:[ \t]*[\"']?(?P<name>[\w.-]{2,80})[\"']?[ \t]*\r?\n" + r"(?:[ \t]*\d+→)?[ \t]*value:[ \t]*"
        r"[\"']?(?P<v>[^\s\"']{4,})")),
    # an XML element named by an attribute: Android's <string name="client_secret">…</string>
    (('name="', 'key="'), re.compile(
        r"<(?:string|item|entry|setting|param|parameter|env|variable|add)\s+(?:name|key)=\"(?P<name>[\w.-]{2,80})\""
        r"[^<>]*>(?P<v>[^<\s]{4,})(?=</)")),
    # a subscript assigned: os.environ['LINODE_TOKEN'] = '…', gitlab_rails['initial_root_password'] = '…'
    (("'] =", "']=", '"] =', '"]='), re.compile(
        r"\[[ \t]*(?P<q>['\"])(?P<name>[\w.-]{2,80})(?P=q)[ \t]*\][ \t]*=[ \t]*(?P<o>['\"])(?P<v>[^'\"\n]{4,})(?P=o)")),
    # C and C++: #define WIFI_PASS "…"
    (("#define",), re.compile(r"#define[ \t]+(?P<name>\w{2,80})[ \t]+\"(?P<v>[^\"\n]{4,})\"")),
    # an environment variable set in code: os.environ.setdefault("X_API_KEY", "…"), os.Setenv, putenv
    (("setdefault", "Setenv", "putenv", "set_var", "SetEnvironmentVariable"), re.compile(
        r"\b(?:setdefault|Setenv|putenv|set_var|SetEnvironmentVariable)\(\s*(?P<q>['\"])(?P<name>\w{2,80})(?P=q)\s*,\s*"
        r"(?P<o>['\"])(?P<v>[^'\"\n]{4,})(?P=o)")),
]
