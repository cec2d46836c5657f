"""Scan text a model proposed to learn for instructions an agent must never carry.

A learned rule is injected into every future conversation, so one bad line does lasting harm.
Four kinds are looked for:
- ``exfiltration``: sending keys, credentials, ``~/.ssh`` or environment variables somewhere;
- ``destructive``: unscoped ``rm -rf``, force-pushing main, ``DROP TABLE``, ``mkfs``, ``dd`` to a
  device, ``chmod -R 777 /``, fork bombs, and switching safety off (``--no-verify``, the sandbox);
- ``injection``: text aimed at the agent itself ("ignore previous instructions" in eight
  languages, "you are now…", "do not tell the user", hidden characters, ``curl … | sh``);
- ``secret``: anything :func:`slowloop.safety.redact.redact` would redact.

Rules that *forbid* the dangerous thing are what a good reflection writes ("Never run ``rm -rf``
outside the build directory"), so a match governed by a negation in its own clause ("never",
"don't", "avoid", "mai", "nunca", "nie", "不要", "しないこと"…) is not a danger — except for
the rules whose dangerous form is itself a negation ("do not tell the user").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Literal

from .redact import redact

__all__ = ["Danger", "DangerKind", "scan"]

DangerKind = Literal["exfiltration", "destructive", "injection", "secret"]


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
    check: Callable[[re.Match[str]], bool] | None = None  # extra judgement on the match


def _rx(pattern: str, flags: int = re.I) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# --- destructive shell: judged on the target, not on the command name ---------------------------

_RM = _rx(r"\brm\s+((?:-{1,2}[\w-]+\s+)+)([^\n;&|`'\")]*)")
_DANGEROUS_TARGET = re.compile(
    r"^(?:/\*?|/+\.{0,2}|~/?\*?|\$\{?HOME\}?/?\*?|\*|\.{1,2}/?\*?|/(?:bin|boot|dev|etc|home|lib|"
    r"lib64|opt|proc|root|sbin|srv|sys|usr|var|Users|System|Applications)/?\*?)$")
_CD_BEFORE = re.compile(r"\bcd\s+(\S+)\s*(?:&&|;)\s*(?:sudo\s+)?$")


def _rm_unscoped(m: re.Match[str]) -> bool:
    flags = m.group(1).lower()
    recursive = "recursive" in flags or any(
        f.startswith("-") and not f.startswith("--") and "r" in f for f in flags.split())
    if not recursive:
        return False
    if "--no-preserve-root" in flags:
        return True
    targets = [t.strip("\"'") for t in m.group(2).split()]
    if not any(_DANGEROUS_TARGET.match(t) for t in targets):
        return False
    # "cd build && rm -rf *" is scoped by the cd (unless the cd itself goes somewhere dangerous).
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    cd = _CD_BEFORE.search(m.string, line_start, m.start())
    if cd and not _DANGEROUS_TARGET.match(cd.group(1).strip("\"'")) and not any(
            t.startswith(("/", "~", "$HOME")) and _DANGEROUS_TARGET.match(t) for t in targets):
        return False
    return True


_PUSH = _rx(r"\bgit\s+push\b([^\n;&|`]*)")


def _force_push_main(m: re.Match[str]) -> bool:
    args = m.group(1).split()
    force = any(a in ("-f", "--force") or a.startswith("+") for a in args)
    if not force:
        return False
    refs = [a.lstrip("+") for a in args if not a.startswith("-")]
    # "git push --force" with no branch pushes the current one, which may well be main.
    return len(refs) <= 1 or any(r.split(":")[-1] in ("main", "master") for r in refs[1:])


_OWN_WORK = re.compile(r"\b(?:your own|own (?:local )?(?:feature )?branch|scratch|throwaway)\b",
                       re.I)


def _not_own_work(m: re.Match[str]) -> bool:
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    line_end = m.string.find("\n", m.end())
    return not _OWN_WORK.search(m.string[line_start:line_end if line_end >= 0 else None])


_AUTH_CONTEXT = re.compile(r"(?:authorization|bearer|x-api-key|api-key|x-goog-api-key|"
                           r"private-token|x-auth-token)[\"']?\s*[:=]?\s*(?:bearer\s+|token\s+)?"
                           r"[\"']?$", re.I)


def _not_auth_header(m: re.Match[str]) -> bool:
    """``curl -H "Authorization: Bearer $OPENAI_API_KEY" https://api.openai.com`` is how an API
    is called, not exfiltration: the key goes to the service it belongs to."""
    var = re.search(_SECRET_VAR, m.group(0))
    before = m.group(0)[:var.start()] if var else ""
    return not _AUTH_CONTEXT.search(before)


# --- the rules ----------------------------------------------------------------------------------

_SENSITIVE_PATH = (r"(?:~|\$\{?HOME\}?|/home/[\w.-]+|/root|/Users/[\w.-]+)?/?"
                   r"\.(?:ssh|aws|gnupg|netrc|env\b|docker/config|kube/config|config/gcloud|"
                   r"git-credentials|npmrc|pypirc|pgpass)")
_SECRET_VAR = r"\$\{?[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)[A-Z0-9_]*\}?"
_SECRET_WORDS = (r"(?<![\w/])(?:~/\.ssh\S*|~/\.aws\S*|id_rsa|id_ed25519|api[ _-]?keys?|access keys?|"
                 r"(?:auth |access |bearer |github |api )?tokens?|"
                 r"credentials?|passwords?|secrets?|env(?:ironment)?\s+var(?:iable)?s|\.env\b|"
                 r"ssh keys?|private keys?|cookies|session cookies?)")

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
          _rx(rf"\b(?:curl|wget|http|nc|ncat)\b[^\n]*?{_SECRET_VAR}", 0), check=_not_auth_header),
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
    _Rule("destructive", "rm -r on /, ~, * or a system directory", _RM, check=_rm_unscoped),
    _Rule("destructive", "force-pushes main (or the current branch)", _PUSH,
          check=_force_push_main),
    _Rule("destructive", "force-pushes main",
          _rx(r"\bforce[- ]push(?:es|ing)?\s+(?:to\s+)?(?:the\s+)?(?:main|master|origin/main)\b")),
    _Rule("destructive", "discards work with git reset --hard / git clean",
          _rx(r"\bgit\s+(?:reset\s+--hard|clean\s+-[a-z]*f[a-z]*|checkout\s+--\s+\.|"
              r"stash\s+clear)"), check=_not_own_work),
    _Rule("destructive", "drops or truncates a database table",
          _rx(r"\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA)|TRUNCATE\s+TABLE)\b|\bDELETE\s+FROM\s+\w+"
              r"\s*(?:;|$)")),
    _Rule("destructive", "formats or overwrites a disk",
          _rx(r"\bmkfs(?:\.\w+)?\b|\bdd\b[^\n]*\bof=/dev/(?!null\b)|>\s*/dev/(?:sd|nvme|hd|disk)"
              r"|\bshred\b[^\n]*/dev/|\bwipefs\b")),
    _Rule("destructive", "opens permissions on a whole tree",
          _rx(r"\bch(?:mod|own)\s+(?:-R\s+[\w:.]+|[\w:.]+\s+-R)\s+(?:/|~|\$HOME)(?:\s|$|`|\*)")),
    _Rule("destructive", "fork bomb", _rx(r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:")),
    _Rule("destructive", "skips verification hooks", _rx(r"--no-verify\b")),
    _Rule("destructive", "switches a safety mechanism off",
          _rx(r"\b(?:disable|turn\s+off|bypass|skip|deactivate)\s+(?:the\s+|all\s+|any\s+)?"
              r"(?:sandbox(?:ing)?|safety\s+(?:checks?|filters?)|guardrails?|permission\s+"
              r"(?:checks?|prompts?)|approvals?|pre-commit\s+hooks?|ssl\s+verification|"
              r"certificate\s+verification)|--dangerously-[\w-]+|--yolo\b|"
              r"--no-sandbox\b|--insecure\b|\bverify\s*=\s*False\b")),
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
              r"let)\s+the\s+user\b|\bwithout\s+(?:telling|informing|asking)\s+the\s+user\b|"
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
    _Rule("injection", "runs a downloaded script without reading it",
          _rx(r"\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^\n|]*\|\s*(?:sudo\s+)?"
              r"(?:ba|z|da|k|fi)?sh\b"
              r"|\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+)?python[0-9.]*\b"
              r"|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b|\biex\s*\(|\bInvoke-Expression\b")),
]

# --- negation: "Never run rm -rf /" forbids the danger ------------------------------------------

_NEGATION_BEFORE = re.compile(
    r"(?<![\w'])(?:never|don't|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|avoid(?:ing)?|"
    r"refuse\s+to|forbid(?:den)?|prohibited|is\s+not\s+allowed|not\s+allowed|instead\s+of|"
    r"rather\s+than|non|mai|nunca|n[ãa]o|jamais|ne|n'|nie|niemals|nicht|kein|keine|"
    r"no|evita|evite|[ée]vite[rz]?|vermeide)(?![\w'])|不要|别|禁止|切勿|决不|绝不|不得|不能|不可",
    re.I)
# Affirmative idioms built from negation words: "never hesitate to", "don't forget to".
_NOT_REALLY = re.compile(
    r"\b(?:never|don't|do\s+not)\s+(?:hesitate|forget|fail|skip|wait|ask|bother)\b|"
    r"\bnot\s+only\b", re.I)
_NEGATION_AFTER = re.compile(r"[^。！？.!?\n]{0,30}?(?:しない|しないこと|しないで|禁止|してはいけない|"
                             r"してはならない|は不要|ではいけない)")
_CLAUSE_START = re.compile(r"[.!?;,:\n。！？；，：]|\s[-–—]\s|\b(?:but|then|and then|otherwise)\b", re.I)


def _negated(text: str, start: int, end: int) -> bool:
    floor = max(0, start - 160)
    window = text[floor:start]
    cut = 0
    for m in _CLAUSE_START.finditer(window):
        cut = m.end()
    clause = window[cut:]
    neg = _NEGATION_BEFORE.search(clause)
    if neg and not _NOT_REALLY.search(clause[neg.start():]):
        return True
    return bool(_NEGATION_AFTER.match(text, end))


def _evidence(text: str, start: int, end: int) -> str:
    snippet = " ".join(text[start:end].split())
    if not snippet.strip():  # invisible characters: say where and what instead
        codepoints = ", ".join(f"U+{ord(c):04X}" for c in text[start:end][:5])
        context = " ".join(text[max(0, start - 30):start].split())
        return f"{codepoints} after {context!r}"
    if len(snippet) > 120:
        snippet = snippet[:117] + "…"
    return redact(snippet).text


def scan(text: str) -> list[Danger]:
    """Every dangerous instruction in ``text``, in order of appearance (secrets last)."""
    found: list[tuple[int, Danger]] = []
    seen: set[tuple[str, int]] = set()
    for rule in _RULES:
        for m in rule.pattern.finditer(text):
            if rule.check is not None and not rule.check(m):
                continue
            if rule.negatable and _negated(text, m.start(), m.end()):
                continue
            if (rule.kind, m.start()) in seen:
                continue
            seen.add((rule.kind, m.start()))
            found.append((m.start(), Danger(rule.kind, _evidence(text, m.start(), m.end()),
                                            rule.reason)))
    found.sort(key=lambda pair: pair[0])
    dangers = [d for _, d in found]
    for kind, count in sorted(redact(text).kinds.items()):
        dangers.extend(Danger("secret", f"[REDACTED:{kind}]", f"contains a {kind}")
                       for _ in range(count))
    return dangers
