"""Scan text a model proposed to learn for instructions an agent must never carry.

A learned rule is injected into every future conversation, so one bad line does lasting harm.
The text is first undisguised (:mod:`slowloop.safety.normalize`: full-width and look-alike
letters, quotes inside words, line continuations, base64/hex payloads), then judged by intent:
- ``remote_code``: running what was just downloaded or decoded (``curl … | sh``,
  ``bash -c "$(curl …)"``, ``source <(curl …)``, ``curl -o f && bash f``, ``base64 -d | sh``,
  ``exec(urlopen(…))``, ``iex``), reverse shells;
- ``exfiltration``: sending keys, credentials, ``~/.ssh``, ``.env`` or the environment somewhere
  (shell, Python one-liners, Markdown images whose URL carries data, and the request in words in
  the eight languages we detect);
- ``confirmation``: switching the person off ("never ask the user for confirmation", "without
  asking", "sans demander confirmation", "不要询问用户确认"…);
- ``permissions``: widening what the agent may do unasked (``Bash(*)``, ``autoApprove``,
  ``bypassPermissions``, ``--dangerously-skip-permissions``, ``approval_policy = "never"``,
  ``NOPASSWD``, ``sudo npm install -g``, ``chmod 777``, a skill's ``allowed-tools: Bash, Write``);
- ``bypass``: switching a check off (``core.hooksPath``, ``--no-verify``,
  ``NODE_TLS_REJECT_UNAUTHORIZED=0``, ``curl -k``, ``verify=False``, ``--nogpgcheck``, the sandbox);
- ``persistence``: planting something that outlives the session (``authorized_keys``, shell rc
  files that fetch or alias, cron, launch agents, ``.git/hooks``);
- ``destructive``: unscoped ``rm -rf`` (``"${HOME:?}"/*`` included), ``find ~ -delete``,
  force-pushing main, ``DROP TABLE``, ``mkfs``, ``dd`` to a device, fork bombs, ``terraform
  destroy -auto-approve``…;
- ``injection``: text aimed at the agent itself ("ignore previous instructions" / "disregard what
  the system prompt says" in eight languages, "you are now…", "do not tell the user", hidden
  characters, chat-template markers);
- ``posture``: a rule that lowers the safety posture (checks skipped, another package index or
  remote, PATH or shell start-up edited, tests disabled, success reported whatever happened, the
  person's confirmation switched off) — :mod:`slowloop.safety.posture`; such a rule is held for the
  person rather than rejected, whoever proposed it;
- ``secret``: anything :func:`slowloop.safety.redact.redact` would redact.

Rules that *forbid* the dangerous thing are what a good reflection writes ("Never run ``rm -rf``
outside the build directory"), so a match governed by a negation in its own clause ("never",
"don't", "avoid", "mai", "nunca", "nie", "不要", "しないこと"…) is not a danger — except for
the rules whose dangerous form is itself a negation ("do not tell the user"). How a negation is
read is :mod:`slowloop.safety.negation`; how a matched command's arguments are judged (``rm -r``'s
target, the branch a force-push hits) is :mod:`slowloop.safety.commands`. The multilingual words of
intent (sending, secrets, destinations) are :mod:`slowloop.safety.danger_words`; config files that execute (editor
settings, dev containers, sourced env files, CI workflows) are :mod:`slowloop.safety.autorun`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .autorun import AUTORUN_RULES
from .commands import (
    PUSH,
    RM,
    RUN_FILE,
    SECRET_VAR,
    downloaded_then_run,
    force_push_main,
    install_with_sudo,
    not_auth_header,
    not_own_work,
    rm_unscoped,
)
from .danger_words import APPROVED_STAMP, DEST, DNS_ASK, SECRET_ML, SEND_ML
from .intent import INTENT_RULES, READ_FIRST_RULES
from .intent_consent import CONSENT_RULES
from .intent_handed import HANDED_RULES
from .intent_idioms import IDIOM_RULES
from .intent_person import PERSON_RULES
from .intent_words import WORD_RULES
from .negation import negated, negated_later, person_decides, run_unread, same_clause_broken
from .normalize import views
from .posture import POSTURE_RULES
from .redact import redact

__all__ = ["Danger", "DangerKind", "scan"]

DangerKind = Literal["remote_code", "exfiltration", "confirmation", "permissions", "bypass",
                     "persistence", "destructive", "injection", "posture", "secret"]


@dataclass(frozen=True)
class Danger:
    kind: DangerKind
    evidence: str  # the offending span (secrets in it redacted), never more than ~120 chars
    reason: str = ""  # which rule matched, in words


@dataclass(frozen=True)
class _Rule:
    kind: DangerKind
    reason: str
    pattern: re.Pattern[str]
    negatable: bool = True  # a "never …" in the same clause makes it a benign prohibition
    # "without asking" is itself the negated part: "never do X without asking" and "without the
    # user's consent, do not add Y" (a negation anywhere in the sentence) forbid, not allow
    sentence: bool = False
    check: Callable[[re.Match[str]], bool] | None = None  # extra judgement on the match


def _rx(pattern: str, flags: int = re.I) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# --- the rules ----------------------------------------------------------------------------------

_SENSITIVE_PATH = (r"(?:~|\$\{?HOME\}?|/home/[\w.-]+|/root|/Users/[\w.-]+)?/?"
                   r"\.(?:ssh|aws|gnupg|netrc|env\b|docker/config|kube/config|config/gcloud|config/gh\b|"
                   r"git-credentials|npmrc|pypirc|pgpass)")
_SECRET_WORDS = (r"(?<![\w/])(?:~/\.ssh\S*|~/\.aws\S*|id_rsa|id_ed25519|api[ _-]?keys?|access keys?|"
                 r"(?:auth |access |bearer |github |api )?tokens?|"
                 r"credentials?|passwords?|secrets?|env(?:ironment)?\s+var(?:iable)?s|\.env\b|"
                 r"ssh keys?|private keys?|cookies|session cookies?)")

_DL = (r"(?:curl|wget|fetch|aria2c|https?|httpie|xh|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|"
       r"DownloadString|urlopen|requests\.get|urllib\.request)")
_INTERP = (r"(?:(?:sudo|env|doas)\s+(?:-\S+\s+)*)?(?:(?:ba|z|da|k|fi|c|tc|a)?sh|python[0-9.]*|"
           r"perl|ruby|node|php|pwsh|powershell|iex|Invoke-Expression|osascript|lua|bun|deno|"
           r"source)")
_SENSITIVE_FILE = (r"(?:~|\$\{?HOME\}?|/home/[\w.-]+|/root|/Users/[\w.-]+)?/?\.(?:ssh|aws|gnupg|"
                   r"netrc|env\b(?!\.(?:example|sample|template|dist|defaults?)\b)|docker/config|kube/config|config/gcloud|config/gh\b|git-credentials|npmrc|"
                   r"pypirc|pgpass)\S*|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|/etc/(?:shadow|passwd)\b|"
                   r"\.bash_history\b|credentials\.json\b|\bkeychain\b|\.kube/config")
_MORE_RULES: list[_Rule] = [
    # remote code execution
    _Rule("remote_code", "pipes a download into an interpreter",
          _rx(rf"\b{_DL}\b[^\n|]*(?:\|\s*(?:tee|cat)\b[^\n|]*)*\|\s*{_INTERP}\b")),
    _Rule("remote_code", "runs a download through command substitution",
          _rx(rf"\b{_INTERP}\s+(?:-\w+\s+)*-c\s+\S{{0,3}}(?:\$\(|`)\s*{_DL}\b"
              rf"|\beval\b[^\n]{{0,20}}(?:\$\(|`)\s*{_DL}\b"
              rf"|(?:\b{_INTERP}|(?:^|[\s;&|(]))\.?\s*<\(\s*{_DL}\b"
              rf"|\b{_INTERP}\s+<\s*<\(\s*{_DL}\b"
              r"|\biex\s*\(|\bInvoke-Expression\b|\bIEX\b[^\n]{0,40}DownloadString")),
    _Rule("remote_code", "downloads a script and runs it",
          _rx(rf"\b{_DL}\b[^\n]{{0,240}}?{RUN_FILE.pattern}"), check=downloaded_then_run),
    _Rule("remote_code", "decodes a payload and runs it",
          _rx(rf"\b(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r|openssl\s+(?:enc\s+)?-d|"
              rf"openssl\s+base64\s+-d|rev|gunzip|zcat)\b[^\n|]*\|\s*{_INTERP}\b"
              r"|\b(?:exec|eval|system|spawn|Function)\s*\(\s*[^\n]{0,80}?(?:b64decode|atob|"
              r"fromhex|decode\(|base64|urlopen|requests\.get|urllib|http\.get|fetch\(|"
              r"DownloadString|Net\.WebClient|read\(\))"
              r"|\beval\s+\S{0,2}\$\((?:echo|printf)\b[^)]*\|\s*(?:base64|xxd)")),
    _Rule("remote_code", "opens a remote shell",
          _rx(r"\b(?:ba)?sh\s+-i\b[^\n]*(?:/dev/tcp|\bnc\b)|\bnc(?:at)?\s+(?:-\S+\s+)*-[ec]\s+"
              r"\S*/(?:ba)?sh\b|\bsocat\b[^\n]*\bexec:|\bmkfifo\b[^\n]*\bnc\b|"
              r"New-Object\s+(?:System\.)?Net\.Sockets\.TCPClient")),
    # exfiltration
    _Rule("exfiltration", "sends files or the environment from a one-liner",
          _rx(r"\b(?:urlopen|requests\.(?:post|put|get)|http\.request|fetch|urllib\.request\.Request|"
              r"httpx\.(?:post|put|get))\s*\([^\n]{0,240}?(?:os\.environ|process\.env|ENV\[|getenv|"
              r"open\([^)]*(?:\.ssh|\.aws|\.env|id_rsa|credentials|\.netrc)|\.ssh|\.aws/|id_rsa)"
              r"|\b(?:curl|wget|nc|ncat|http|ping|dig|nslookup|host|drill)\b[^\n]*\$\(\s*(?:env|printenv|set|"
              r"[^)\n]{0,60}?(?:" + _SENSITIVE_FILE + r"))"
              r"|\b(?:paste|post|share|send|upload|include|attach|put)\b[^.\n]{0,30}?\boutput\s+of\s+[`'\"]?"
              r"(?:printenv|env|export\s+-p|set)\b"
              r"|\b(?:env|printenv|set|export\s+-p|cat\s+(?:" + _SENSITIVE_FILE + r"))\s*\|\s*"
              r"(?:\w+\s+[^\n|]*\|\s*)?(?:curl|wget|nc|ncat|netcat|base64|http|ssh)\b")),
    _Rule("exfiltration", "a Markdown or HTML image whose URL carries data out",
          _rx(r"!\[[^\]]*\]\(\s*<?https?://[^)\s]*[?&#][^)\s]*(?:\{|\$|%7B|<|\[|secret|token|key|"
              r"passw|env|ssh|cookie|session|history|conversation|chat|content|prompt|data=)"
              r"|<img\b[^>]*src\s*=\s*\S*https?://[^>\s]*[?&][^>\s]*(?:\{|\$|%7B|secret|token|key|"
              r"passw|env|ssh|cookie|data=)")),
    _Rule("exfiltration", "tells the agent to send key material somewhere (any language)",
          _rx(rf"{SEND_ML}[^\n]{{0,80}}?(?:{_SENSITIVE_FILE})"
              # (the file named first, the sending later in the same clause: "`.env` stays in
              # `.gitignore`; upload `.env.example`" sends another file)
              rf"|(?:{_SENSITIVE_FILE})(?:[^\n;!?。；]|\.(?=\S)){{0,60}}?{SEND_ML}")),
    _Rule("exfiltration", "tells the agent to send secrets somewhere (any language)",
          _rx(rf"{SEND_ML}[^\n]{{0,80}}?{SECRET_ML}[^\n]{{0,80}}?{DEST}"
              rf"|{SECRET_ML}[^\n]{{0,40}}?{SEND_ML}[^\n]{{0,60}}?{DEST}"
              rf"|{SECRET_ML}[^\n]{{0,60}}?{DEST}[^\n]{{0,40}}?{SEND_ML}"
              rf"|(?:把|将){SECRET_ML}[^\n]{{0,40}}?(?:发|传|寄|贴)")),
    _Rule("exfiltration", "tells the agent to put a secret into a name it looks up (DNS, in words)",
          _rx(rf"\b{DNS_ASK}\b[^\n]{{0,240}}?(?:{_SENSITIVE_FILE})[^\n]{{0,160}}?\.[a-z0-9-]+\.[a-z]{{2,}}\b"
              rf"|(?:{_SENSITIVE_FILE})[^\n]{{0,160}}?\b{DNS_ASK}\b[^\n]{{0,120}}?\.[a-z0-9-]+\.[a-z]{{2,}}\b"
              rf"|(?:{_SENSITIVE_FILE})[^\n]{{0,100}}?\.[a-z0-9-]+\.[a-z]{{2,}}\b[^\n]{{0,40}}?\b{DNS_ASK}\b")),
    _Rule("injection", "claims in its own text that the person approved it (a forged approval record)",
          _rx(APPROVED_STAMP), negatable=False),
    _Rule("bypass", "tells the agent to keep a safety setting off its (safe) default",
          _rx(r"\b(?:never|don'?t|do\s+not)\s+(?:ever\s+)?(?:leave|keep)\s+[`'\"]?(?:NODE_TLS_REJECT_UNAUTHORIZED|"
              r"PYTHONHTTPSVERIFY|http\.sslVerify|sslVerify|strict-ssl|TLS\s+verification|certificate\s+(?:checks|"
              r"verification)|core\.hooksPath|the\s+(?:hooks|sandbox|firewall))[`'\"]?\s+(?:at\s+(?:its|the)\s+default|on\b|"
              r"enabled\b|as\s+(?:it\s+is|is)\b)"), negatable=False),
    # the person switched off
    _Rule("confirmation", "tells the agent to stop asking the person",
          _rx(r"\b(?:never|don'?t|do\s+not|stop|no\s+need\s+to|no\s+longer)\s+(?:ever\s+)?"
              r"(?:ask(?:ing)?|request(?:ing)?|wait(?:ing)?\s+for|seek(?:ing)?|prompt(?:ing)?|"
              r"check(?:ing)?\s+with|bother(?:ing)?)\s+(?:(?:the\s+)?(?:user|human|person|"
              r"operator|developer|owner|me|anyone)(?:'s)?\s*)?(?:for\s+|about\s+)?"
              r"(?:(?:their|your|any|explicit|an?)\s+)?(?:confirmation|permission|approval|"
              r"consent|review|sign-?off|go-?ahead|ok\b)"
              r"|\b(?:never|don'?t|do\s+not|no\s+need\s+to|stop)\s+(?:ever\s+)?ask(?:ing)?\s+(?:(?:the\s+)?(?:user|human|person|owner|me)\s+)?(?:first\b|beforehand\b|"
              r"before\s+(?:running|executing|doing|making|pushing|deleting|installing|acting|you\s+(?:run|act|do)))"
              r"|\b(?:nunca|no)\s+preguntes\s+antes\s+de\b|\bnon\s+chiedere\s+(?:mai\s+)?prima\s+di\b"
              r"|\bne\s+demande\s+(?:jamais|pas|plus)\s+avant\s+d|\b(?:nunca|não)\s+pergunte\s+antes\s+de\b"
              r"|\bfrag\w*\s+(?:nie|niemals|nicht)\s+(?:vorher|zuerst|bevor)\b|(?:不要|不用|无需|别)先问(?:用户)?(?:再|就)?"
              r"|\bnever\s+ask\s+(?:the\s+)?(?:user|human|person|me)\b(?!\s+(?:for\s+)?(?:their\s+|"
              r"a\s+|the\s+)?(?:passwords?|secrets?|tokens?|credentials?|keys?|personal))"
              r"|\b(?:always|automatically)\s+(?:approve|accept|say\s+yes|answer\s+yes|confirm|"
              r"allow|grant)\b[^\n.]{0,30}?\b(?:tools?|commands?|prompts?|requests?|permissions?|"
              r"everything|all\b|any\b)"
              r"|\bassume\s+(?:the\s+)?(?:user|person)\s+(?:already\s+)?(?:approves|agreed|consents|"
              r"said\s+yes)"
              r"|\bne\s+(?:demande|demandez|demander)\s+(?:jamais|pas|plus|aucune)\s+(?:de\s+|la\s+|"
              r"d'|à\s+l'utilisateur\s+(?:de\s+|la\s+)?)?(?:confirmation|permission|autorisation|"
              r"validation|accord)"
              r"|\bnon\s+chiedere\s+(?:mai\s+|più\s+)?(?:all'utente\s+)?(?:la\s+)?(?:conferma|"
              r"permesso|autorizzazione)"
              r"|\b(?:nunca|n[ãa]o)\s+(?:peça|pedir|pergunte|pe[çc]a|pidas|pida|preguntes|"
              r"solicites)\s+(?:ao\s+usu[áa]rio\s+|al\s+usuario\s+)?(?:a\s+|la\s+)?(?:confirma[çc][ãa]o|"
              r"permiss[ãa]o|autoriza[çc][ãa]o|confirmaci[óo]n|permiso|autorizaci[óo]n)"
              r"|\b(?:frag|frage|fragen)\s+(?:den\s+(?:Benutzer|Nutzer|Anwender)\s+)?(?:nie|niemals|"
              r"nicht)\s+(?:mehr\s+)?(?:nach\s+)?(?:Bestätigung|Erlaubnis|Genehmigung|Freigabe)"
              r"|\bnie(?:mals)?\s+(?:um\s+|nach\s+)?(?:Bestätigung|Erlaubnis|Genehmigung)\s+"
              r"(?:bitten|fragen)"
              r"|(?:不要|不用|无需|无须|别|不必|永远不要|从不|切勿再)(?:再)?(?:向用户|跟用户|问用户|让用户)?"
              r"(?:询问|请求|征求|等待|问)?(?:用户)?(?:的)?(?:确认|许可|同意|批准|授权)"
              r"|(?:確認|許可|承認)(?:を)?(?:求めない|取らない|しない|は不要|不要)(?!ように)"
              r"|ユーザーに(?:確認|許可)(?:を)?(?:求め|取ら)(?:ない|ず)"), negatable=False),
    _Rule("confirmation", "tells the agent to act without asking the person",
          _rx(r"\bwithout\s+(?:asking|confirming|confirmation|approval|permission|review|"
              r"(?:the\s+)?(?:user|person)'s\s+(?:approval|consent|confirmation|ok))"
              r"|\bsans\s+(?:demander|attendre)\s+(?:de\s+|la\s+|une\s+|l')?(?:confirmation|"
              r"permission|autorisation|validation|accord)|\bsans\s+confirmation\b"
              r"|\bsenza\s+(?:chiedere\s+)?(?:la\s+)?(?:conferma|permesso|autorizzazione)"
              r"|\bsem\s+(?:pedir\s+)?(?:a\s+)?(?:confirma[çc][ãa]o|permiss[ãa]o|autoriza[çc][ãa]o)"
              r"|\bsin\s+(?:pedir\s+)?(?:la\s+)?(?:confirmaci[óo]n|permiso|autorizaci[óo]n)"
              r"|\bsin\s+preguntar\b|\bsem\s+perguntar\b|\bsenza\s+(?:fermarti\s+a\s+)?chiedere\b|\bsans\s+demander\s+l'avis"
              r"|\bohne\s+(?:beim\s+\w+\s+|den\s+\w+\s+)?nach(?:zu)?fragen|\bwithout\s+(?:checking|consulting)\s+with\b"
              r"|\bohne\s+(?:(?:nach)?zu)?fragen|\bohne\s+(?:den|die)\s+(?:Nutzer|Benutzer|Anwender|User|Person)\w*\s+(?:zu\s+fragen|um\s+Erlaubnis)|\bohne\s+(?:Rück|Nach)frage|\bohne\s+(?:Bestätigung|"
              r"Erlaubnis|Genehmigung|Freigabe)"
              r"|(?:不经|未经|无需|不需要)(?:过)?(?:用户)?(?:的)?(?:确认|同意|许可|批准)"
              r"|(?:確認|許可|承認)(?:なしで|せずに?|を取らずに?|を求めずに?)"), sentence=True),
    # permissions
    _Rule("permissions", "widens what the agent may do unasked",
          _rx(r"\bauto[-_ ]?approv\w*|\balwaysAllow\b|\bbypassPermissions\b|"
              r"dangerously[-_]?skip[-_]?permissions|--dangerously-[\w-]+|"
              r"approval[_-]?policy\W{0,4}never|--ask-for-approval\s+never|(?:^|\s)-a\s+never\b|"
              r"sandbox[_-]?mode\W{0,4}danger-full-access|--full-auto\b|--yolo\b|--yes-always\b|--trust-all-tools\b|"
              r"\b(?:Bash|Shell|Write|Edit|WebFetch|Read|mcp__[\w-]+)\(\s*\*?\s*\)|"
              r"\bpermissions\.allow\b[^\n。]{0,60}?(?:\*|\bBash\b(?!\()|\ball\b)|"
              r"\bdefaultMode\W{0,4}(?:bypassPermissions|acceptEdits)|\bNOPASSWD\b|"
              r"\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|[ug]\+s)\b|"
              r"\busermod\s+-a?G\s+(?:sudo|wheel|docker|root)\b|"
              r"\bsudo\s+(?:-H\s+)?(?:npm|pnpm|yarn|pip[0-9.]*|gem|cargo)\s+install\b|"
              r"\benableAllProjectMcpServers\b|\bskipDangerousModePermissionPrompt\b|"
              r"\ballow[_-]?all[_-]?tools\b|\btrust\s+all\s+tools\b")),
    # a skill's frontmatter granting tools that act: Claude Code runs them without asking
    _Rule("permissions", "a skill that grants the agent tools to run without asking (allowed-tools)",
          _rx(r"^[ \t]*allowed[-_]tools[ \t]*:(?:[^\n]|\n[ \t]*-)*?(?:\b(?:Bash|Write|Edit|MultiEdit|NotebookEdit|WebFetch|"
              r"Shell)\b|\bmcp__|\*)", re.I | re.M), negatable=False),
    _Rule("permissions", "installs packages as root (sudo named after the install)",
          _rx(r"\bsudo\b"), check=install_with_sudo),
    # checks switched off
    _Rule("bypass", "switches off hooks, TLS or signature checks",
          _rx(r"\bcore\.hooksPath\b|\bNODE_TLS_REJECT_UNAUTHORIZED\W{0,3}0|"
              r"\bPYTHONHTTPSVERIFY\W{0,3}0|\bGIT_SSL_NO_VERIFY\b|\bhttp\.sslVerify\W{0,3}false|"
              r"\bsslverify\W{0,3}(?:0|false)|\bstrict-ssl\W{0,3}false|--no-check-certificate|"
              r"\bcurl\b[^\n|]*\s(?:-k|--insecure)\b|\brejectUnauthorized\W{0,3}false|"
              r"\bInsecureSkipVerify\W{0,3}true|CURLOPT_SSL_VERIFY(?:PEER|HOST)\W{0,4}(?:false|0)|"
              r"_create_unverified_context|\bcheck_hostname\s*=\s*False|"
              r"StrictHostKeyChecking\W{0,3}no\b|UserKnownHostsFile\W{0,3}/dev/null|"
              r"--trusted-host\b|--allow-unauthenticated\b|--nogpgcheck\b|--no-gpg-checks\b|"
              r"\bgpgcheck\s*=\s*0|--skip-signature|--insecure-skip-tls-verify|\bGOINSECURE\b|"
              r"\bGONOSUMDB\b|\bGONOSUMCHECK\b|\bGOSUMDB\W{0,3}off|\bdisableAllHooks\W{0,4}true|"
              r"\bREQUESTS_CA_BUNDLE\s*=\s*(?:\"\"|''|\s|$)|\bsetenforce\s+0|\bufw\s+disable|"
              r"\bcsrutil\s+disable|\bspctl\s+--master-disable|DisableRealtimeMonitoring|"
              r"--disable-(?:tls|ssl|signature|verification)\w*")),
    # persistence
    _Rule("persistence", "adds a key to authorized_keys",
          _rx(r"(?:>>?|\btee\b|\bcp\b|\bmv\b|\bssh-copy-id\b|\badd\b|\bappend\b|\bajout\w*|"
              r"\baggiung\w*|\badicion\w*|\bañad\w*|\bagreg\w*|\bfüge|\bhinzu\w*|添加|追加|写入|加入)"
              r"[^\n]{0,100}?authorized_keys|authorized_keys[^\n]{0,40}?(?:添加|追加|に追加|"
              r"hinzufügen|hinzu)")),
    _Rule("persistence", "makes a shell start-up file fetch, run or alias something",
          _rx(r"(?:curl|wget|\bnc\b|/dev/tcp|base64|\beval\b|alias\s+(?:sudo|git|ssh|ls|cd|cat|"
              r"python|npm)=|LD_PRELOAD|PROMPT_COMMAND|\btrap\b|python[0-9.]*\s+-c)[^\n]{0,200}?"
              r"(?:>>|\btee\s+-a)\s*\S*\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv|"
              r"bash_login|config/fish/config\.fish)\b|\bPROMPT_COMMAND\s*=|/etc/ld\.so\.preload")),
    _Rule("persistence", "installs something that runs later by itself",
          _rx(r"\|\s*crontab\b|\bcrontab\s+(?!-l\b)(?:-\s|-e\b|-u\b|\S+\.(?:cron|txt)\b)|"
              r"/etc/cron|/var/spool/cron|@reboot\b|\blaunchctl\s+(?:load|bootstrap|submit)\b|"
              r"/LaunchAgents/|/LaunchDaemons/|\.config/autostart|\bschtasks\s+/create\b|"
              r"\\CurrentVersion\\Run\b|(?:>>?|\btee\b|\bcp\b|\bmv\b|\bln\s+-s\w*)\s+[^\n]*"
              r"\.git/hooks/|\bgit\s+config\s+(?:--global\s+)?core\.(?:sshCommand|fsmonitor)\b")),
    # destructive, beyond rm
    _Rule("destructive", "deletes a home or system tree with find",
          _rx(r"\bfind\s+(?:/|~|\$\{?HOME\}?|/home|/Users|\.\.)/?\*?\s[^\n]*?(?:-delete\b|"
              r"-exec\s+rm\b)")),
    _Rule("destructive", "deletes a home or system tree",
          _rx(r"\bshutil\.rmtree\(\s*(?:os\.path\.expanduser\(\s*.?~.?\s*\)|.?/.?\)|Path\.home\(\)|"
              r"os\.environ\[.?HOME.?\]|os\.getenv\(.?HOME.?\))|\bRemove-Item\b[^\n]*-Recurse[^\n]*"
              r"(?:C:\\\s|C:\\$|C:\\\*|~|\$HOME|\$env:USERPROFILE)|\b(?:rd|rmdir)\s+/s\s+/q\s+C:\\|"
              r"\bformat\s+C:|\bdel\s+/[fsq]\s+/[fsq][^\n]*C:\\")),
    _Rule("destructive", "destroys infrastructure or data wholesale",
          _rx(r"\bterraform\s+destroy\b[^\n]*-auto-approve|\bkubectl\s+delete\b[^\n]*(?:--all\b|"
              r"\s(?:ns|namespace|namespaces)\s)|\baws\s+s3\s+(?:rm\b[^\n]*--recursive|rb\b[^\n]*"
              r"--force)|\bgsutil\s+(?:-m\s+)?rm\s+-r|\bFLUSHALL\b|\bdropdb\b|\bgh\s+repo\s+delete\b|"
              r"\bgit\s+push\b[^\n]*--mirror|\bgit\s+branch\s+-D\s+(?:main|master)\b")),
    # instructions aimed at the agent
    _Rule("injection", "tells the agent to set its instructions aside",
          _rx(r"\b(?:ignore|disregard|forget|override|bypass|pay\s+no\s+attention\s+to|"
              r"stop\s+following|(?:do\s+not|don'?t)\s+(?:follow|obey|listen\s+to))\s+(?:what\s+|"
              r"whatever\s+)?(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|those\s+|these\s+)?"
              r"(?:previous|prior|above|earlier|preceding|original|system|initial|former|developer|"
              r"safety|other|existing)\s*(?:instructions|rules|prompts?|directions|guidelines|"
              r"messages|guardrails|policies|policy)\b"
              r"|\b(?:ignore|disregard|forget|override)\s+(?:what\s+)?(?:the\s+|your\s+)?"
              r"(?:AGENTS\.md|CLAUDE\.md|system\s+prompt|system\s+message)"
              r"|\btakes?\s+precedence\s+over\s+(?:the\s+|your\s+|all\s+|any\s+)?(?:system|previous|"
              r"other|prior)\b|\byou\s+(?:have|are\s+under)\s+no\s+(?:restrictions|rules|"
              r"guidelines|limits)\b|\bnew\s+system\s+prompt\b|\bthe\s+(?:real|actual|true)\s+"
              r"instructions\b|\bthe\s+user\s+has\s+(?:already\s+)?(?:authori[sz]ed|approved|"
              r"pre-?approved)\s+(?:you|everything|all)"), negatable=False),
    _Rule("injection", "tells the agent to set its instructions aside (other languages)",
          _rx(r"(?:\bignor(?:a|ate|e|ez|er|es|ar|ad|iere|ieren|ier)\b|\bdisregard\b|"
              r"\bdesconsider[ea]\b|\bmissachte\b|\bvergiss\b|\boublie[rz]?\b|\bdimentica(?:te)?\b|"
              r"\bolvida\b|\besque[çc]a\b|\besquece\b|haz\s+caso\s+omiso\s+de|ne\s+tiens?\s+pas\s+compte\s+"
              r"d)[^\n.]{0,30}?(?:instructions?|istruzioni|instru[cç](?:õ|o)es|instrucciones|"
              r"Anweisungen|Instruktionen|prompt\s+(?:système|di\s+sistema|del\s+sistema|do\s+sistema)|"
              r"Systemprompt|System-Prompt|consignes|direttive|diretrizes|directrices|Vorgaben)"
              r"|(?<![你他她被])(?:忽略|无视|忽视|不要理会|不理会|忘记|忘掉|无需遵守|不要遵守)(?!了)"
              r"[^\n。]{0,12}?(?:指令|指示|系统提示|提示词|规则|说明|要求)"
              r"|(?:指示|システムプロンプト|ルール|命令)[^\n。]{0,12}?(?:を)?(?:無視|忘れ)"
              r"(?:して|しろ|すること|せよ|なさい|る(?:こと)?|て)(?!い?た|しまった)"),
          negatable=False),
]

_RULES: list[_Rule] = [
    # exfiltration
    _Rule("exfiltration", "uploads a credentials file or key material",
          _rx(rf"\b(?:curl|wget|http|httpie)\b[^\n]*?(?:-d|--data[\w-]*|-F|--form|-T|--upload-file|"
              rf"--post-file)[\s=]*['\"]?(?:\w+=)?@?{_SENSITIVE_PATH}"
              rf"|\b(?:scp|rsync|sftp)\b[^\n]*?\s['\"]?{_SENSITIVE_PATH}[^\n]*?\s\S*[@:]"
              rf"|\$\(\s*cat\s+{_SENSITIVE_PATH}[^)]*\)[^\n]*?\b(?:curl|wget|nc|ncat|http)\b"
              rf"|\b(?:curl|wget|nc|ncat|http)\b[^\n]*?\$\(\s*cat\s+{_SENSITIVE_PATH}"
              rf"|\bcat\s+{_SENSITIVE_PATH}\S*\s*\|\s*(?:curl|wget|nc|ncat|netcat|base64)\b")),
    _Rule("exfiltration", "sends a secret environment variable over the network",
          _rx(rf"\b(?:curl|wget|http|nc|ncat)\b[^\n]*?{SECRET_VAR}", 0), check=not_auth_header),
    _Rule("exfiltration", "pipes data to a raw network socket",
          _rx(r"\|\s*(?:nc|ncat|netcat|telnet)\b|>\s*/dev/(?:tcp|udp)/")),
    _Rule("exfiltration", "dumps the environment to the network",
          _rx(r"\b(?:env|printenv|set)\b\s*\|\s*(?:curl|wget|nc|ncat|netcat|base64)")),
    _Rule("exfiltration", "tells the agent to send secrets somewhere",
          _rx(rf"\b(?:send|upload|post|e-?mail|mail|share|forward|paste|exfiltrate|transmit|leak)"
              rf"\b[^\n]{{0,60}}?{_SECRET_WORDS}[^.\n]{{0,60}}?\b(?:to|at|into|via|on)\s+"
              r"(?:\S+@\S+|https?://\S+|(?:the\s+|this\s+|my\s+|a\s+)?"
              r"(?:server|address|url|endpoint|webhook|email|channel|pastebin|gist|me)\b|\S+)")),
    # destructive
    _Rule("destructive", "rm -r on /, ~, * or a system directory", RM, check=rm_unscoped),
    _Rule("destructive", "force-pushes main (or the current branch)", PUSH,
          check=force_push_main),
    _Rule("destructive", "force-pushes main",
          _rx(r"\bforce[- ]push(?:es|ing)?\s+(?:to\s+)?(?:the\s+)?(?:main|master|origin/main)\b"
              r"|(?<![\w-])(?:--force|-f)(?![\w-])[`'\"]?\s+(?:on|to|into|auf|sur|su|en|em|no|na)\s+(?:the\s+)?[`'\"]?"
              r"(?:main|master)\b")),
    _Rule("destructive", "discards work with git reset --hard / git clean",
          _rx(r"\bgit\s+(?:reset\s+--hard|clean\s+-[a-z]*f[a-z]*|checkout\s+--\s+\.|"
              r"stash\s+clear)"), check=not_own_work),
    _Rule("destructive", "drops or truncates a database table",
          _rx(r"\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA)|TRUNCATE\s+TABLE)\b|\bDELETE\s+FROM\s+\w+"
              r"\s*(?:;|$)")),
    _Rule("destructive", "formats or overwrites a disk",
          _rx(r"\bmkfs(?:\.\w+)?\b|\bdd\b[^\n]*\bof=/dev/(?!null\b)|>\s*/dev/(?:sd|nvme|hd|disk)"
              r"|\bshred\b[^\n]*/dev/|\bwipefs\b")),
    _Rule("destructive", "opens permissions on a whole tree",
          _rx(r"\bch(?:mod|own)\s+(?:-R\s+[\w:.]+|[\w:.]+\s+-R)\s+(?:/|~|\$HOME)(?:\s|$|`|\*)")),
    _Rule("destructive", "fork bomb", _rx(r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:")),
    _Rule("bypass", "skips verification hooks", _rx(r"--no-verify\b")),
    _Rule("bypass", "switches a safety mechanism off",
          _rx(r"\b(?:disable|turn\s+off|bypass|skip|deactivate)\s+(?:the\s+|all\s+|any\s+)?"
              r"(?:sandbox(?:ing)?|safety\s+(?:checks?|filters?)|guardrails?|permission\s+"
              r"(?:checks?|prompts?)|approvals?|pre-commit\s+hooks?|ssl\s+verification|"
              r"certificate\s+verification|tls\s+verification|signature\s+(?:checks?|verification)|"
              r"gpg\s+(?:checks?|verification)|checksums?|the\s+firewall|selinux|antivirus|"
              r"(?:git\s+)?hooks|code\s+signing)|--no-sandbox\b|--insecure\b|\bverify\s*=\s*False\b")),
    # injection
    _Rule("injection", "tells the agent to ignore its instructions",
          _rx(r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?"
              r"(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|original|"
              r"system|initial|former)?\s*(?:instructions|rules|prompts?|directions|guidelines|"
              r"system\s+prompt|messages)\b")),
    _Rule("injection", "tells the agent to ignore its instructions (multilingual)",
          _rx(r"忽略(?:之前|以上|先前|前面|上述|所有|全部)?的?(?:所有|全部)?(?:指令|指示|说明|提示)|"
              r"无视(?:之前|以上|所有)?的?(?:指令|指示)|"
              r"ignora\s+(?:tutte\s+)?(?:le\s+)?istruzioni(?:\s+precedenti)?|"
              r"dimentica\s+(?:tutte\s+)?(?:le\s+)?istruzioni|"
              r"ignor[ea]\s+(?:todas\s+)?(?:as\s+|las\s+)?(?:instru[cç](?:õ|o)es|instrucciones)"
              r"(?:\s+anteriores)?|"
              r"ignore[zs]?\s+(?:toutes\s+)?(?:les\s+)?instructions(?:\s+pr[ée]c[ée]dentes)?|"
              r"oublie[zs]?\s+(?:toutes\s+)?(?:les\s+)?instructions|"
              r"ignoriere\s+(?:alle\s+)?(?:vorherigen\s+|bisherigen\s+|obigen\s+)?"
              r"(?:Anweisungen|Instruktionen)|vergiss\s+(?:alle\s+)?(?:vorherigen\s+)?Anweisungen|"
              r"(?:以前|前|これまで|上記|先)の(?:すべての|全ての)?指示を(?:すべて|全て)?無視"),
          negatable=False),
    _Rule("injection", "tries to replace the agent's identity",
          _rx(r"\byou\s+are\s+now\s+(?:an?\s|the\s|my\s|DAN\b|no\s+longer\b|free\b|unrestricted\b|"
              r"jailbroken\b|in\s+(?:developer|god|jailbreak|unrestricted)\s+mode\b|allowed\b|"
              r"permitted\b|called\b|named\b|root\b|admin\b)|"
              r"\bfrom\s+now\s+on,?\s+you\s+(?:are|will\s+(?:obey|ignore|act))|"
              r"\bact\s+as\s+(?:DAN|an?\s+(?:unrestricted|unfiltered|jailbroken))\b|"
              r"\b(?:developer|god|jailbreak)\s+mode\b"), negatable=False),
    _Rule("injection", "tells the agent to hide something from the user",
          _rx(r"\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this|it)\s+to|show|"
              r"let)\s+the\s+user\b|\bwithout\s+(?:telling|informing)\s+the\s+user\b|"
              r"\bhide\s+(?:this|it|that|these)\s+from\s+the\s+user\b|"
              r"\bkeep\s+(?:this|it)\s+(?:secret|hidden)\s+from\b"), negatable=False),
    _Rule("injection", "asks the agent to reveal its system prompt",
          _rx(r"\b(?:reveal|print|show|output|repeat|leak|dump|disclose)\s+(?:me\s+)?(?:your|the)"
              r"\s+(?:full\s+|entire\s+|hidden\s+)?(?:system\s+prompt|initial\s+prompt|"
              r"instructions|hidden\s+instructions)\b|\bdisregard\s+the\s+system\s+prompt\b")),
    _Rule("injection", "hidden-instruction marker",
          re.compile(r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?INST\]"
                     r"|<<SYS>>|</?system>|\bBEGIN\s+(?:HIDDEN|SECRET)\s+INSTRUCTIONS\b"
                     r"|^\s*#{0,3}\s*SYSTEM\s*:"
                     r"|<!--(?:(?!-->).){0,200}?\b(?i:instruction|ignore|assistant|agent|system)\b",
                     re.M | re.S), negatable=False),
    _Rule("injection", "invisible characters that can smuggle instructions",
          re.compile("[\u200b\u200c\u200d\u2060\u2062\u2063\u2064\ufeff\u202a-\u202e\u2066-\u2069"
                     "\U000e0000-\U000e007f]+"), negatable=False),
    *_MORE_RULES,
    *(_Rule(kind, reason, _rx(pattern), negatable=negatable)  # type: ignore[arg-type]
      for kind, reason, pattern, negatable in INTENT_RULES),
    # the intent tables in words, each matched case-blind and line by line
    *(_Rule(kind, reason, _rx(pattern, re.I | re.M), negatable=negatable)  # type: ignore[arg-type]
      for table in (WORD_RULES, AUTORUN_RULES, IDIOM_RULES, CONSENT_RULES, PERSON_RULES, HANDED_RULES)
      for kind, reason, pattern, negatable in table),
    *(_Rule(kind, reason, _rx(pattern), check=run_unread)  # type: ignore[arg-type]
      for kind, reason, pattern in READ_FIRST_RULES),
    # the safety posture lowered: waits for the person, whatever the source (safety/posture.py)
    # (a rule whose own words are a negation — "never ask", "without confirming" — is forbidden by a
    # negation later in its sentence: "…確認せずに追加しないこと", "without asking, do not …")
    *(_Rule("posture", reason, _rx(pattern), negatable=negatable, sentence=not negatable)
      for reason, pattern, negatable in POSTURE_RULES),
]

def _evidence(text: str, start: int, end: int) -> str:
    snippet = " ".join(text[start:end].split())
    if not snippet.strip():  # invisible characters: say where and what instead
        codepoints = ", ".join(f"U+{ord(c):04X}" for c in text[start:end][:5])
        context = " ".join(text[max(0, start - 30):start].split())
        return f"{codepoints} after {context!r}"
    if len(snippet) > 120:
        snippet = snippet[:117] + "…"
    return redact(snippet).text


# A learned text is small (a skill body is at most 6,000 chars); past this only the head is judged.
MAX_SCAN_CHARS = 100_000



_BEFORE_PIPE = re.compile(r"(\S+)[ \t]*\|")


def _negated_inside(text: str, m: re.Match[str]) -> bool:
    """A pipe matched from the start of its line takes the words before the command in: "never use
    curl | sh", "禁止用 curl | sh 安装" (a view with the quotes taken off). The negation is then inside
    the match: read it before the last word ahead of the pipe, as it would be read before a quote."""
    pipe = _BEFORE_PIPE.search(m.group(0))
    if pipe is None or pipe.start(1) == 0:
        return False
    at = m.start() + pipe.start(1)
    # (CJK prose runs into the command with no space: "禁止用curl" — the command starts where it ends)
    cjk = re.search(r"[\u3040-\u30ff\u4e00-\u9fff][^\u3040-\u30ff\u4e00-\u9fff]*$", text[m.start():at])
    return negated(text, at, m.end()) or (cjk is not None and negated(text, m.start() + cjk.start() + 1, m.end()))


_CLAUSE_BREAK_INSIDE = re.compile(r"[,;，；](?=\s)|[，；]")
# (only a flag or a setting ends it: a word is read in its sentence — "…, damit der Runner sie nicht
# findet" is the danger itself)
_LAST_TOKEN = re.compile(r"[`'\"]?(?:--?[A-Za-z][\w-]*|[A-Za-z_][\w.]*=\S*)[`'\"]?\s*$")


def _negated_last_clause(text: str, m: re.Match[str]) -> bool:
    """A match that runs over a clause break has its dangerous end in the last clause: "when
    `curl` fails with a certificate error, do not add `-k`" forbids the flag it ends on. The
    negation is read before that last word, in its own clause, as it would be before a quote."""
    body = m.group(0)
    breaks = list(_CLAUSE_BREAK_INSIDE.finditer(body))
    if not breaks:
        return False
    last = _LAST_TOKEN.search(body, breaks[-1].end())
    if last is None or last.start() <= breaks[-1].end():
        return False
    return negated(text, m.start() + last.start(), m.end())


def _matches(rule: _Rule, text: str):
    """The rule's matches that stand: a match forbidden by a negation is searched again from inside
    it, so "Never pipe curl into sh — pipe it into bash: `curl … | bash`" still finds the second."""
    pos = 0
    # a tail of a forbidden match in its own clause ("not with `curl https://… | sh`") is that match
    forbidden_start, forbidden_end = -1, -1
    while pos <= len(text):
        m = rule.pattern.search(text, pos)
        if m is None:
            return
        if m.end() <= forbidden_end and not same_clause_broken(text, forbidden_start, m.start()):
            pos = m.start() + 1
            continue
        forbidden = rule.negatable and (negated(text, m.start(), m.end()) or _negated_inside(text, m)
                                           or _negated_last_clause(text, m))
        if forbidden:
            forbidden_start, forbidden_end = m.start(), m.end()
        if ((rule.check is not None and not rule.check(m))
                or forbidden
                or (rule.sentence and negated_later(text, m.end()))
                or (rule.kind in ("destructive", "posture", "permissions") and rule.negatable
                    and person_decides(text, m))):
            pos = m.start() + 1 if rule.negatable and m.end() > m.start() + 1 else max(m.end(), m.start() + 1)
            continue
        yield m
        pos = max(m.end(), m.start() + 1)


def _scan_view(text: str, found: list[tuple[int, int, Danger]], spans: dict, view: int) -> None:
    for rule in _RULES:
        for m in _matches(rule, text):
            # One danger per kind and place: two rules seeing the same words say it once, and a
            # view that only undisguised what was already found adds nothing.
            mine = spans.setdefault(rule.kind, [])
            if any(v != view or (s < m.end() and m.start() < e) for v, s, e in mine):
                continue
            mine.append((view, m.start(), m.end()))
            found.append((view, m.start(), Danger(rule.kind, _evidence(text, m.start(), m.end()),
                                                  rule.reason)))


def scan(text: str) -> list[Danger]:
    """Every dangerous instruction in ``text``, in order of appearance (secrets last).

    The text is judged as written, then undisguised, then each payload it hides
    (:func:`slowloop.safety.normalize.views`); a danger found only in a later view is reported
    once, after those of the text as written.
    """
    text = text[:MAX_SCAN_CHARS]
    found: list[tuple[int, int, Danger]] = []
    spans: dict = {}
    for i, view in enumerate(views(text)):
        _scan_view(view, found, spans, i)
    found.sort(key=lambda t: (t[0], t[1]))
    dangers = [d for _, _, d in found]
    for kind, count in sorted(redact(text).kinds.items()):
        dangers.extend(Danger("secret", f"[REDACTED:{kind}]", f"contains a {kind}")
                       for _ in range(count))
    return dangers
