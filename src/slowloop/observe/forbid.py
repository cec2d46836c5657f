"""The person forbids what the agent just did: "no --no-verify here!!", "pls dont pipe curl into sh",
"non usare sudo", "不要 --force", "reset --hard は使わないで", "frag mich bevor du force-pushst".

Two pieces of evidence must agree, as in a reproach:

- **the action**: a thing of the agent's last command — a flag (`--no-verify`, `--force`), the
  program (`curl`, `sudo`), a subcommand word (`reset --hard`) — named in the person's words;
- **the prohibition**: a negation right before it (at most two filler words between: "don't *use*
  sudo", "pas *de* --no-verify", "non *usare* sudo"), or the Chinese/Japanese forms around it, or
  "ask me before/first" in the same sentence.

The lesson is then the action's own words, language-free: what the agent ran is what not to do
again (`git commit --no-verify`), and the person's sentence is the reason. Nothing is read when the
words say it is for now ("not yet", "for now", "this time"), when the person asks a question, or
when a word of the command is only mentioned in passing far from the negation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..transcripts.model import Turn
from .corrections import detect_language
from .lessons import ASK_FIRST as _ASK_FIRST, person_text
from .redo import rerun_request, self_blame, turn_acts
from .reproach import someone_else

# a negation that forbids, opening the words it applies to (latin scripts)
_NEG_WORDS = (
    # (no bare "not": "it's billing-worker, not billing-api" contrasts two things of this task)
    r"don['’]t|dont|do not|never|no more|stop|quit|avoid|no|without"    # en
    r"|pas de|pas d'|jamais|sans|arrête(?:z)? de|évite(?:z)?(?: de)?|ne (?:fais|fait|faites|mets|lance|utilise)(?:s)? (?:pas|jamais)(?: de| d')?"  # fr
    r"|non|mai|niente|senza|evita|basta"                                      # it
    r"|kein(?:e|en|er)?|nie(?:mals)?|nicht|ohne|lass (?:das|den|die)?"      # de
    r"|nunca|sin|nada de|deja de|evita"                                       # es
    r"|não|nao|sem|para de|pare de|evite"                                     # pt
)
# a few words may stand between the negation and the thing: "don't use sudo", "non usare sudo"
_FILLER = {
    "use", "using", "run", "running", "do", "pipe", "piping", "call", "add", "the", "a", "any", "me", "to",
    "with", "that", "this", "those", "these", "again", "ever", "ever,", "more", "just", "plain",
    "utilise", "utiliser", "utilisez", "lance", "lancer", "de", "d'", "le", "la", "les", "du", "plus",
    "usare", "usa", "lanciare", "il", "lo", "più", "fare", "fa", "con", "un", "una", "mi", "fai", "benutze", "benutzen", "nutze", "verwende", "verwenden", "mit", "den", "die", "das", "mehr", "mach", "machen",
    "uses", "usar", "hagas", "ejecutes", "corras", "el", "los", "las", "más",
    "rode", "rodar", "faça", "faz", "o", "os", "as", "com", "mais",
}
# Chinese: 不要/别/不准/禁止/不许/不能 (+ 用/使用/再/直接) then the thing
_NEG_ZH = re.compile(r"(?:不要|别|不准|禁止|不许|不能|不可以|不用)\s*(?:再|直接|随便)?\s*(?:用|使用|跑|执行|加)?\s*$")
# Japanese: the thing, then (は|を|で)? then 使わないで/しないで/禁止/やめて/ダメ/だめ/厳禁
_NEG_JA = re.compile(r"^\s*[`'\"」]?\s*(?:は|を|で|の)?\s*(?:使わないで|使用しないで|しないで|禁止|厳禁|やめて|止めて|ダメ|だめ|絶対に?しない)")
# for now, not yet, this time: a prohibition about this moment, not a rule
_FOR_NOW = re.compile(
    r"\b(?:yet|for now|right now|this time|today|until|per ora|ancora|adesso|per adesso|pour l'instant|encore"
    r"|maintenant|noch nicht|jetzt|vorerst|todavía|aún|por ahora|ahora|ainda|agora|por enquanto)\b"
    r"|还|先别|暂时|今は|まだ|今回", re.I)
# "without", "ohne", "sans"…: a flag left off ("ohne -v bitte"), never a thing described ("merged
# without the pnpm-lock.yaml")
_WITHOUT = re.compile(r"(?:without|sans|senza|ohne|sin|sem)[,;:!]*$", re.I)
# the negation ends the words before the thing (the filler words taken off)
_NEG_END = re.compile(r"(?:^|[\s,;:!(])(?:" + _NEG_WORDS + r")[,;:!]*$", re.I)
_QUESTION = re.compile(r"\?\s*$|？\s*$")
_SENT = re.compile(r"(?<=[.!?。！？\n])\s*")


@dataclass(frozen=True)
class Forbidden:
    thing: str     # the word of the command the person forbids: `--no-verify`, `sudo`, `curl … | sh`
    command: str   # the agent's command it comes from
    scope: str     # `git commit`, `pip install`, `curl`: what the agent was running
    ask: bool      # "ask me first": the person's go-ahead, not a plain never
    said: str      # the sentence that says it


_PARTS = re.compile(r"\s*(?:&&|\|\||;)\s*")
_NOT_A_THING = {"the", "and", "for", "with", "main", "master", "origin", "head"}


@dataclass(frozen=True)
class _Said:
    """The words of one command the person may name: its tokens, and how each may be said."""

    command: str
    tokens: frozenset[str]
    bare: dict[str, str]  # a long flag's word ("no-verify") → the flag (`--no-verify`)
    words: frozenset[str]

    @staticmethod
    def of(command: str) -> _Said:
        toks = {t.lower() for t in re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*|[A-Za-z][\w.+-]*)", command)
                if len(t.lstrip("-")) >= 3 or t.startswith("-")}
        toks |= set(re.findall(r"\|\s*(?:sudo\s+)?([a-z]{2,})\b", command))  # `… | sh`
        toks -= _NOT_A_THING
        # a long flag is also said as its word ("force-pushst", "no-verify")
        bare = {t.lstrip("-"): t for t in toks if t.startswith("--") and len(t) >= 6}
        # combined short flags are said one by one ("commit com -a" for `-am`)
        toks |= {f"-{c}" for t in toks if re.fullmatch(r"-[a-z]{2,4}", t) for c in t[1:]}
        return _Said(command, frozenset(toks | set(bare)), bare, frozenset(w.lower() for w in command.split()))

    def spots(self, t: str, low: str):
        """Where ``t`` is said in ``low`` (a name inside a longer one is another: `pnpm` in
        "pnpm-lock.yaml"; a flag's bare word may run on: "force-pushst")."""
        return re.finditer(rf"(?<![\w-]){re.escape(t)}(?![\w{'' if t in self.bare else '-'}])", low)

    def named(self, low: str) -> set[str]:
        return {self.bare.get(t, t) for t in self.tokens if next(self.spots(t, low), None)}


def _gap(words: list[str], t: str, cmd_words: frozenset[str], lang: str | None) -> int | None:
    """How many of the command's own words stand between a negation ending ``words`` (filler and
    command words taken off, at most three) and the thing ``t`` — None when no negation does."""
    for k in range(0, 4):
        # (a filler word, or another word of the same command: "non usare rm -rf")
        if k and (len(words) < k or words[-k].strip(",;:!'\"") not in _FILLER | cmd_words):
            return None
        prefix = " ".join(words[:len(words) - k])
        if not _NEG_END.search(prefix):
            continue
        if _WITHOUT.search(prefix) and not t.startswith("-"):
            continue  # "merged without the pnpm-lock.yaml" describes; "ohne -v" leaves a flag off
        if prefix.endswith("dont") and (lang == "fr" or k == 0 and lang != "en"):
            continue  # French "dont" ("les packages dont web dépend")
        return sum(w.strip(",;:!'\"") in cmd_words - _FILLER for w in words[len(words) - k:])
    return None


def _part(command: str, hit: str, then: str | None) -> str:
    """The part of a compound command ``hit`` is in (`pip install x && pip freeze > req.txt`), the
    one holding the word said after it when there are several."""
    parts = [p for p in _PARTS.split(command)
             if re.search(rf"(?<![\w-]){re.escape(hit)}(?![\w])", p.lower())] or [command]
    return next((p for p in parts if then and then in p.lower().split()), parts[0])


_GROUPS = {"compose", "container", "image", "volume", "network", "buildx", "stash", "remote", "worktree",
           "submodule", "mod", "workspace", "cache"}


def _scope(command: str, thing: str) -> str:
    """The program and its subcommand the agent ran (`git commit`, `pip install`): the rule's scope."""
    words = command.split("|")[0].split()
    while words and (words[0] in ("sudo", "env", "time", "nohup", "exec") or re.match(r"^\w+=", words[0])):
        words = words[1:]
    if not words:
        return thing
    head = [words[0].rsplit("/", 1)[-1]]
    if len(words) > 1 and re.fullmatch(r"[a-z][a-z-]*", words[1]) and words[1] != thing:
        head.append(words[1])
        # a group's own subcommand: `docker compose down`, `git stash drop`
        if words[1] in _GROUPS and len(words) > 2 and re.fullmatch(r"[a-z][a-z-]*", words[2]) and words[2] != thing:
            head.append(words[2])
    return " ".join(head)


def _commands(turn: Turn | None) -> list[str]:
    """The agent's commands as it wrote them (a pipeline whole: `curl … | sh`)."""
    if turn is None:
        return []
    out = []
    for call in turn.tool_calls:
        inp = call.input if isinstance(call.input, dict) else {}
        v = inp.get("command") or inp.get("cmd")
        if isinstance(v, list):
            v = " ".join(str(p) for p in v)
        if isinstance(v, str) and v.strip():
            out.append(v.strip())
    return out or [a.command for a in turn_acts(turn, rejected=None)]


def _pipe_form(command: str, named: set[str]) -> str | None:
    """`curl … | sh` when the words name both sides of a pipe into a shell."""
    m = re.search(r"\b(curl|wget)\b[^|]*\|\s*(?:sudo\s+)?(sh|bash|zsh|python3?)\b", command)
    if m and m.group(1) in named and m.group(2) in named:
        return f"{m.group(1)} … | {m.group(2)}"
    return None


def forbidden(turn: Turn, previous: Turn | None) -> Forbidden | None:
    """What of the agent's last command the person's words forbid, if they do."""
    if not turn.person or not turn.user_text or previous is None:
        return None
    commands = [c for c in _commands(previous) if c.strip()]
    if not commands:
        return None
    text = " ".join(person_text(turn.user_text).split())
    if someone_else(text) or self_blame(text):
        return None  # a teammate's doing, or the person's own slip
    said_in = [_Said.of(c) for c in commands]
    for sent in _SENT.split(text):
        if not sent or _QUESTION.search(sent) or _FOR_NOW.search(sent) or rerun_request(sent):
            continue  # a question, "not yet", "nochmal ohne -target": about this run
        lang = detect_language(sent)
        low = sent.lower()
        for cmd in said_in:
            named = cmd.named(low)
            if not named:
                continue
            if _ASK_FIRST.search(low):
                hit = max(named, key=len)
                part = _part(cmd.command, hit, None)
                return Forbidden(_as_written(_pipe_form(part, named) or hit, part), cmd.command, _scope(part, hit),
                                 True, sent)
            best: tuple[tuple[bool, int, int], str] | None = None
            for t in named:
                for m in cmd.spots(t if t in low else t.lstrip("-"), low):
                    before = low[:m.start()]
                    gap = 0 if _NEG_ZH.search(before[-12:]) or _NEG_JA.match(low[m.end():]) else \
                        _gap(before.replace("`", " ").split(), t, cmd.words, lang)
                    # a flag first ("commit com -a" forbids `-a`), then the thing nearest the
                    # negation ("dont use sudo to install": `sudo`, not `install`)
                    if gap is not None and (best is None or (not t.startswith("-"), gap, -len(t)) < best[0]):
                        best = ((not t.startswith("-"), gap, -len(t)), t)
            if best is not None:
                hit = best[1]
                after = re.search(rf"(?<![\w-]){re.escape(hit)}\s+([a-z][\w-]*)", low)
                then = after.group(1) if after else None
                part = _part(cmd.command, hit, then)
                scope = _scope(part, hit)
                thing = _pipe_form(part, named) or hit
                if hit == scope.split()[0] and then and then in {w.lower() for w in part.split()}:
                    # the program named with its subcommand ("pas de pip freeze", "别直接 kubectl edit")
                    thing, scope = f"{hit} {then}", hit
                return Forbidden(_as_written(thing, part), cmd.command, scope, False, sent)
    return None


def _as_written(thing: str, command: str) -> str:
    """The thing as the command writes it (`TRUNCATE`, not the lower case it was matched in)."""
    m = re.search(rf"(?<![\w-]){re.escape(thing)}(?![\w-])", command, re.I)
    return m.group(0) if m else thing
