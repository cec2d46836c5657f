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
from .lessons import person_text
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
# "ask me before/first": the agent may do it, but never without the person's go-ahead
_ASK_FIRST = re.compile(
    r"\bask (?:me )?(?:first|before)\b|\bcheck with me (?:first|before)\b|\bwithout asking\b"
    r"|\bdemande(?:-moi|z-moi)? (?:avant|d'abord)\b|\bsans (?:me )?demander\b"
    r"|\bchiedi(?:mi)? (?:prima|il permesso)\b|\bsenza chiedere\b"
    r"|\bfrag (?:mich )?(?:bevor|vorher|zuerst|erst)\b|\bohne (?:zu )?fragen\b"
    r"|\bpregunta(?:me)? antes\b|\bpide permiso\b|\bsin preguntar\b"
    r"|\bpergunt[ae](?:-me)? antes\b|\bme pergunt[ae] antes\b|\bpe[çd]a permiss[ãa]o\b|\bsem perguntar\b"
    r"|先问我|问我一声|先问一下|先跟我说|没问我"
    r"|先に(?:聞いて|確認して|相談して)|確認してから|聞いてから|確認なしで|勝手に", re.I)
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


def _tokens(command: str) -> list[str]:
    return [t for t in re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*|[A-Za-z][\w.+-]*)", command)]


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
    for sent in _SENT.split(text):
        if not sent or _QUESTION.search(sent) or _FOR_NOW.search(sent) or rerun_request(sent):
            continue  # a question, "not yet", "nochmal ohne -target": about this run
        lang = detect_language(sent)
        low = sent.lower()
        for command in commands:
            toks = {t.lower() for t in _tokens(command) if len(t.lstrip("-")) >= 3 or t.startswith("-")}
            toks |= set(re.findall(r"\|\s*(?:sudo\s+)?([a-z]{2,})\b", command))  # `… | sh`
            toks -= {"the", "and", "for", "with", "main", "master", "origin", "head"}
            # a long flag is also said as its word ("force-pushst", "no-verify")
            bare = {t.lstrip("-"): t for t in toks if t.startswith("--") and len(t) >= 6}
            # combined short flags are said one by one ("commit com -a" for `-am`)
            toks |= {f"-{c}" for t in toks if re.fullmatch(r"-[a-z]{2,4}", t) for c in t[1:]}
            toks |= set(bare)
            # (a name inside a longer one is another: `pnpm` in "pnpm-lock.yaml"; a flag's bare word
            # may run on: "force-pushst")
            named = {t for t in toks if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w{'' if t in bare else '-'}])", low)}
            named = {bare.get(t, t) for t in named}
            if not named:
                continue
            hit = None
            if _ASK_FIRST.search(low):
                hit = max(named, key=len)
                part = next((p for p in re.split(r"\s*(?:&&|\|\||;)\s*", command)
                             if re.search(rf"(?<![\w-]){re.escape(hit)}(?![\w])", p.lower())), command)
                return Forbidden(_pipe_form(part, named) or hit, command, _scope(part, hit), True, sent)
            cmd_words = {w.lower() for w in command.split()}
            best: tuple[tuple[bool, int, int], str] | None = None
            for t in named:
                said = t if t in low else t.lstrip("-")
                for m in re.finditer(rf"(?<![\w-]){re.escape(said)}(?![\w{'' if said in bare else '-'}])", low):
                    before = low[:m.start()]
                    skipped: int | None = None
                    if _NEG_ZH.search(before[-12:]) or _NEG_JA.match(low[m.end():]):
                        skipped = 0
                    words = before.replace("`", " ").split()
                    for k in range(0, 4):  # a few filler or command words between the negation and the thing
                        if skipped is not None:
                            break
                        # (a filler word, or another word of the same command: "non usare rm -rf")
                        if k and (len(words) < k or words[-k].strip(",;:!'\"") not in _FILLER | cmd_words):
                            break
                        prefix = " ".join(words[:len(words) - k])
                        neg = _NEG_END.search(prefix)
                        if neg and _WITHOUT.search(prefix) and not t.startswith("-"):
                            continue
                        if neg and prefix.endswith("dont") and (lang == "fr" or k == 0 and lang != "en"):
                            continue  # French "dont" ("les packages dont web dépend")
                        if neg:
                            skipped = sum(w.strip(",;:!'\"") in cmd_words - _FILLER for w in words[len(words) - k:])
                    if skipped is not None:
                        # a flag first ("commit com -a" forbids `-a`), then the thing nearest the
                        # negation ("dont use sudo to install": `sudo`, not `install`)
                        key = (not t.startswith("-"), skipped, -len(t))
                        if best is None or key < best[0]:
                            best = (key, t)
            if best is not None:
                hit = best[1]
                # the part of a compound command it is in (`pip install x && pip freeze > req.txt`),
                # the one holding the word said after it when there are several
                after = re.search(rf"(?<![\w-]){re.escape(hit)}\s+([a-z][\w-]*)", low)
                parts = [p for p in re.split(r"\s*(?:&&|\|\||;)\s*", command)
                         if re.search(rf"(?<![\w-]){re.escape(hit)}(?![\w])", p.lower())] or [command]
                part = next((p for p in parts if after and after.group(1) in p.lower().split()), parts[0])
                scope = _scope(part, hit)
                thing = _pipe_form(part, named) or hit
                if hit == scope.split()[0] and after and after.group(1) in {w.lower() for w in part.split()}:
                    # the program named with its subcommand ("pas de pip freeze", "别直接 kubectl edit")
                    thing, scope = f"{hit} {after.group(1)}", hit
                return Forbidden(thing, command, scope, False, sent)
    return None
