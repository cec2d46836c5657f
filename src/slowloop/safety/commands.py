"""A matched command judged on its arguments: the rule finds the command, these say whether it is
the dangerous use of it.

- ``rm -r`` is dangerous on ``/``, ``~``, ``*`` or a system directory, not in a ``cd build &&``;
- ``git push --force`` is dangerous on main (or the current branch, when none is named);
- ``git reset --hard`` / ``git clean -f`` on one's own scratch branch discards nothing of others';
- a secret variable in ``Authorization: Bearer $KEY`` goes to the service it belongs to;
- ``curl -o f … && bash f`` runs the file just downloaded;
- ``sudo`` named after the install it is for ("`npm install -g` with `sudo`", "… sem `sudo`").
"""

from __future__ import annotations

import re

__all__ = ["PUSH", "RM", "RUN_FILE", "SECRET_VAR", "downloaded_then_run", "force_push_main",
           "install_with_sudo", "not_auth_header", "not_own_work", "rm_unscoped"]

SECRET_VAR = r"\$\{?[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)[A-Z0-9_]*\}?"

RM = re.compile(r"\brm\s+((?:-{1,2}[\w-]+\s+)+)([^\n;&|`'\")\u3000-\uffff]*)", re.I)
_DANGEROUS_TARGET = re.compile(
    r"^(?:/\*?|/+\.{0,2}|~/?\*?|\$\{?HOME(?::[?-][^}]*)?\}?/?\*?|\*|\.{1,2}/?\*?|/(?:bin|boot|dev|etc|home|lib|"
    r"lib64|opt|proc|root|sbin|srv|sys|usr|var|Users|System|Applications)/?\*?"
    # a glob over the home's top level (`~/.git*`), or the keys and settings kept there
    r"|/(?:usr|var|etc)/(?:lib|local|share|bin|log|lib64)/?|/var/lib/[\w.-]+/?|(?:~|\$\{?HOME\}?)/[^/\s]*\*[^/\s]*|(?:~|\$\{?HOME\}?)/\.(?:ssh|gnupg|aws|config|kube|docker|git[\w-]*)/?)$")
_CD_BEFORE = re.compile(r"\bcd\s+(\S+)\s*(?:&&|;)\s*(?:sudo\s+)?$")


def rm_unscoped(m: re.Match[str]) -> bool:
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


PUSH = re.compile(r"\bgit\s+push\b([^\n;&|`\u3000-\uffff]*)", re.I)


def force_push_main(m: re.Match[str]) -> bool:
    args = m.group(1).split()
    force = any(a in ("-f", "--force") or a.startswith("+") for a in args)
    if not force:
        return False
    refs = [a.lstrip("+").rstrip(".,;:!?)") for a in args if not a.startswith("-")]
    # "git push --force" with no branch pushes the current one, which may well be main.
    return len(refs) <= 1 or any(r.split(":")[-1] in ("main", "master") for r in refs[1:])


_OWN_WORK = re.compile(r"\b(?:your own|own (?:local )?(?:feature )?branch|scratch|throwaway)\b",
                       re.I)


# `git clean -n` (or `--dry-run`) shown before the real one: the careful way to clean
_PREVIEWED = re.compile(r"\bgit\s+clean\s+(?:-[a-z]*n[a-z]*|--dry-run)\b")
# "Before `git clean -fd`, run `git clean -n`", "`git clean -fdx` 之前先运行 `git clean -ndx`": the
# dry run named later in a sentence that says it comes first
_BEFORE = re.compile(r"\b(?:before|first|antes|avant|vor|bevor|zuerst|prima|primeiro|primero|d'abord)\b|之前|之前先|先运行|前に|まず",
                     re.I)
_SENTENCE = re.compile(r"[.!?](?:\s|$)|[\n。！？]")


def not_own_work(m: re.Match[str]) -> bool:
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    line_end = m.string.find("\n", m.end())
    if m.group(0).startswith("git") and "clean" in m.group(0) and _PREVIEWED.search(m.string, 0, m.start()):
        return False
    if m.group(0).startswith("git") and "clean" in m.group(0):
        starts = [e.end() for e in _SENTENCE.finditer(m.string, 0, m.start())]
        end = _SENTENCE.search(m.string, m.end())
        sentence = m.string[starts[-1] if starts else 0:end.start() if end else len(m.string)]
        if _BEFORE.search(sentence) and _PREVIEWED.search(m.string, m.end(), end.start() if end else len(m.string)):
            return False
    return not _OWN_WORK.search(m.string[line_start:line_end if line_end >= 0 else None])


_AUTH_CONTEXT = re.compile(r"(?:authorization|bearer|x-api-key|api-key|x-goog-api-key|"
                           r"private-token|x-auth-token)[\"']?\s*[:=]?\s*(?:bearer\s+|token\s+)?"
                           r"[\"']?$", re.I)


def not_auth_header(m: re.Match[str]) -> bool:
    """``curl -H "Authorization: Bearer $OPENAI_API_KEY" https://api.openai.com`` is how an API
    is called, not exfiltration: the key goes to the service it belongs to."""
    var = re.search(SECRET_VAR, m.group(0))
    before = m.group(0)[:var.start()] if var else ""
    return not _AUTH_CONTEXT.search(before)


RUN_FILE = re.compile(r"(?:&&|;|\|\||\n[^\n]{0,24}?|\bthen\b|\band\b|,)\s*(?:sudo\s+)?\b(?:(?:(?:ba|z|da|k)?sh|"
                       r"python[0-9.]*|perl|ruby|node|php|source|\.)\s+|chmod\s+[+\w]*x\s+)"
                       r"(?:\./)?(\S+)", re.I)
_OUT_FILE = re.compile(r"(?:-o|--output|-O|--output-document|>)\s*(?:\./)?([^\s|&;]+)")


def downloaded_then_run(m: re.Match[str]) -> bool:
    """``curl -o f https://… && bash f``: the file run is the file just downloaded."""
    seg = m.group(0)
    names = {n.rsplit("/", 1)[-1] for n in _OUT_FILE.findall(seg)}
    if re.search(r"\s-O\b|--remote-name", seg):  # -O: named after the URL
        names |= {u.rsplit("/", 1)[-1] for u in re.findall(r"https?://\S+", seg)}
    ran = {r.rsplit("/", 1)[-1].strip("`'\".,;") for r in RUN_FILE.findall(seg)}
    return bool({n.strip("`'\".,;") for n in names if n} & ran)


_INSTALL_WITH = re.compile(r"\b(?:npm|pnpm|yarn|pip[0-9.]*|gem|cargo)\s+(?:-g\s+|--global\s+)?(?:install|add|i)\b"
                           r"[^\n;.]{0,40}?\b(?:with|using|via|com|avec|con|mit|per|sem|without|sans|senza|sin|ohne)"
                           r"\s+[`'\"]?$", re.I)


def install_with_sudo(m: re.Match[str]) -> bool:
    """``sudo`` as what a package install runs with ("run `npm install -g` with `sudo`"); whether
    "without"/"sem" forbids it or, after a "never", demands it is the negation's to read."""
    line_start = m.string.rfind("\n", 0, m.start()) + 1
    return bool(_INSTALL_WITH.search(m.string, max(line_start, m.start() - 120), m.start()))
