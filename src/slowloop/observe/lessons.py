"""What a person's correction says to do, read from their words alone (no model).

``read_lesson(text)`` turns one correcting message into a :class:`Lesson`:

- a **choice** — use X, never Y — from the forms people use in the eight languages the detector
  knows: "X, not Y", "use X instead of / rather than Y", "don't use Y, we use X", "stop using Y",
  "prefer X over Y", "we moved / migrated / switched to X", "Y again?? we use X", "wrong library.
  We use X", "I said X", "not Y — X", with or without spaces around Latin words in Chinese and
  Japanese ("不要用npm，用pnpm", "requestsではなくhttpxを使って");
- a **requirement** — "the page size must be 50, not 20, because the dashboard shows 50 rows";
- an **instruction** kept in the person's words when it is clearly meant to last ("from now on …",
  "in this project we …", "I told you …", "don't … again", "always / never …", a requirement in
  another language) but no clean imperative can be built;
- or nothing, when the correction is about this task only ("no, the other file", "make the title
  bigger", "put it in utils.py, not helpers.py"): that is not a standing rule, and the reason says so.

A rule must name something: the kept side X is a name — a known tool, or a word with a dot, slash,
digit or capital, or a plain word that is not a common one — never "another" or "write the tests
first". Questions do not choose ("why did you pick a dict instead of a list?"), except a request
phrased as one ("could you use httpx instead?"). In Chinese and Japanese the kept side is a Latin
name: "用中文回答" or "そう" is not a tool to use.

What comes from a tool's output never reaches here: the caller passes only what the person typed,
with pasted code blocks and ``>`` quoted lines removed by :func:`person_text`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..markdown import strip_fenced
from ..text import CHINESE_JAPANESE

# "ask me before/first": the agent may do it, but never without the person's go-ahead
_ASK_FORMS = (
    r"\bask (?:me )?(?:first|before)\b|\bcheck with me (?:first|before)\b"
    r"|\bask me\b[^.!?\n]{0,20}\bbefore\b|\bshow me\b[^.!?\n]{0,40}\b(?:before|first)\b"
    r"|\bdemande(?:-moi|z-moi)? (?:avant|d'abord)\b|\bmontre-moi\b[^.!?\n]{0,40}\bavant\b"
    r"|\bchiedi(?:mi)? (?:prima|il permesso)\b|\bfammi vedere\b[^.!?\n]{0,40}\bprima\b"
    r"|\bfrag (?:mich )?(?:bevor|vorher|zuerst|erst|vor (?:jedem|jeder|dem|der|einem|einer))\b"
    r"|\bvorher (?:fragen|nachfragen)\b|\bzeig mir\b[^.!?\n]{0,40}\b(?:bevor|vorher|und frag)"
    r"|\bpregunta(?:me)? antes\b|\bpreg[úu]ntame\b|\bpide permiso\b"
    r"|\bens[ée][ñn]ame\b[^.!?\n]{0,40}\bantes\b|\bmu[ée]strame\b[^.!?\n]{0,40}\bantes\b"
    r"|\bpergunt[ae](?:-me)? antes\b|\bme pergunt[ae]\b|\bpe[çd]a permiss[ãa]o\b"
    r"|\bme mostr[ae]\b[^.!?\n]{0,40}\bantes\b|\bantes de\b[^.!?\n]{0,60}\bme (?:mostr|pergunt)"
    r"|先问我|问我一声|先问一下|先跟我说|之前先(?:给我看|问我|让我看)"
    r"|先に(?:聞いて|確認して|相談して)|確認してから|聞いてから|前に[^。\n]{0,12}(?:見せて|確認させて|聞いて)")
# … and the forms that also describe what happened ("you deleted it without asking", "Xcode が勝手に
# 上がった": by itself): an ask-first about a thing the words name, never one read on its own
_WITHOUT_ASKING = (r"\bwithout asking\b|\bsans (?:me )?demander\b|\bsenza chiedere\b|\bohne (?:zu )?fragen\b"
                   r"|\bsin preguntar\b|\bsem perguntar\b|没问我|確認なしで|勝手に")
ASK_FIRST = re.compile(f"{_ASK_FORMS}|{_WITHOUT_ASKING}", re.I)
ASK_FIRST_STRICT = re.compile(_ASK_FORMS, re.I)

Kind = Literal["choice", "require", "convention", "quote", "none"]

_I = re.IGNORECASE

# An item is a name: a tool, a package, a file, a branch, a value ("30 seconds", "local time").
_L = "A-Za-z0-9_\u00c0-\u024f"
_TOKEN = rf"\.?[{_L}@](?:[{_L}@/+:#'-]|\.(?=[{_L}]))*"
_CJK_CHARS = CHINESE_JAPANESE
_HAS_CJK = re.compile(f"[{_CJK_CHARS}]")

# Words that end an item when reading to the right ("use httpx for HTTP calls" → httpx).
_STOP_RIGHT = (r"for|in|on|at|here|there|please|instead|rather|than|over|because|since|as|from|now"
               r"|when|if|not|and|or|but|so|which|this|that|anymore|again|too|also|only"
               r"|per|qui|qua|invece|anziché|al|nel|nella|perché|adesso|ora|sempre|e|o|ma|non|a"
               r"|por|para|aqui|aquí|em|no|na|porque|agora|sempre|ao|não|nao|y"
               r"|pour|ici|dans|au|plutôt|parce|maintenant|toujours|pas|et|ou|à"
               r"|en|aquí|ahora|siempre|de|del|porque|lugar|vez"
               r"|für|hier|statt|anstatt|weil|jetzt|immer|nicht|und|oder|bitte|ab|im|mit|zu")
_ART = (r"(?:the|a|an|il|lo|la|l'|o|os|as|um|uma|le|les|un|une|el|los|las|der|die|das|den|dem"
        r"|ein|eine|einen)")
_RIGHT_ITEM = re.compile(
    rf"^\s*[`'\"“‘«「]?(?P<item>{_ART}\s+{_TOKEN}(?:\s+(?!(?:{_STOP_RIGHT})\b){_TOKEN}){{0,2}}|{_TOKEN})", _I)
# after "not" the rejected alternative may be a short phrase ("local time", "docker compose directly")
_RIGHT_PHRASE = re.compile(
    rf"^\s*[`'\"“‘«「]?(?P<item>{_TOKEN}(?:\s+(?!(?:{_STOP_RIGHT})\b){_TOKEN}){{0,2}})", _I)
_CJK_RIGHT_ITEM = re.compile(rf"^\s*[`'\"“‘«「]?(?P<item>{_TOKEN}|[{_CJK_CHARS}]{{2,8}}?(?=[的了吧呢，。、,.!！?？；;\s]|$))")

_ARTICLES = re.compile(r"^(?:the|a|an|il|lo|la|i|gli|le|l'|o|os|as|um|uma|le|les|un|une|el|los|las"
                       r"|der|die|das|den|dem|ein|eine|einen)\s+|^l'", _I)
_PRONOUN = re.compile(r"^(?:that'?s|it'?s|what|which|how|why|who|where|ce|que|was|wie|lo que|o que"
                      r"|quello che|ce que|it|that|this|them|those|these|one|quello|quella|questo|lo|la|ele|ela"
                      r"|isso|esse|le|la|ça|celui-ci|lo|eso|ese|es|ihn|das|它|这个|那个|それ|これ"
                      # the agent or the person, not a thing ("c'est l'admin, pas toi"), a verb or
                      # nothing ("não é nada", "non è una critica", "non ti stupisci")
                      r"|you|me|us|toi|moi|tu|ti|te|mi|du|dich|dir|mich|você|voce|vc|seu|sua|teu|tua|eu|yo|io|je|ich"
                      r"|è|é|e'|est|ist|is|sono|são|sont|son|nada|niente|nulla|rien|nichts|nothing|so|così|cosi|assim|así)$", _I)
# Deictic items point at something in this task ("the other file", "this one"): a one-off.
_DEICTIC = re.compile(r"\b(?:other|this one|that one|altr[oa]|outr[oa]|autre|otr[oa]|andere[nrs]?)\b"
                      r"|另一个|那个|这个|もう一つ|別の|あっち|そっち", _I)
_COMPARATIVE = re.compile(r"^(?:bigger|smaller|shorter|longer|larger|higher|lower|more|less|faster"
                          r"|slower|darker|lighter|louder|wider|narrower|better|worse)$", _I)


# Words that open a correction and are never the thing to use ("Nein, nicht requests, …").
_FILLER = re.compile(r"^(?:no+|nope|nein|non|não|nao|yes|ok|okay|wrong|again|actually|sorry|please"
                     r"|ancora|encore|nochmal|bitte|falsch|errado|faux|mal|sbagliato|also|so)$", _I)


_GENERIC = re.compile(r"^(?:module|modulo|módulo|modul|modulet|library|libreria|biblioteca|bibliothèque"
                      r"|librería|bibliothek|package|paquete|pacote|tool|\S+-modul|モジュール|模块)$", _I)


def _display(item: str) -> str:
    """"o pnpm" → "pnpm"; "il modulo logging" → "logging": the name, without article or noun."""
    words = _ARTICLES.sub("", item).split()
    if len(words) == 2 and re.fullmatch(r"(?:en|in|de|di|da|dans|im|no|na|nel|nella)", words[0], _I):
        words = words[1:]
    if len(words) > 1:
        names = [w for w in words if not _GENERIC.match(w) and not re.match(_ART + "$", w, _I)]
        named = [w for w in names if category(w)]
        if named and len(names) == 1:
            return named[0]
        if len(words) == 2 and re.search(r"-modul$", words[1], _I):
            return words[1].split("-")[0]
    if len(words) == 1:
        return re.sub(r"-(?:modul|module)$", "", words[0], flags=_I)
    special = [w for w in words if re.search(r"[0-9._/@:#+]", w)]
    if len(special) == 1 and special[0] == words[-1]:
        return special[0]  # "die Datei config.toml" → config.toml
    return item if item.lower().startswith(("the ", "a ", "an ")) else " ".join(words)


def _item(raw: str | None) -> str:
    if not raw:
        return ""
    # a leading dot stays: `./gradlew`, `.env`, `.github/workflows` are names
    s = raw.strip().strip("`'\"“”‘’«»「」,;:!?。，、！？").rstrip(".").strip()
    s = s.lstrip(".") if s.startswith(".") and not re.match(r"\.{1,2}/|\.[\w-]", s) else s
    s = re.sub(r"\s+", " ", s)
    return s


def _bare(item: str) -> str:
    """An item as compared: lowercase, no leading article."""
    return _ARTICLES.sub("", item.strip()).lower().strip()


# -- categories: what two items are alternatives for, and how the rule is scoped ----------------

# One ecosystem per entry: "use pnpm, not npm" and "use uv, not pip" are two lessons that hold side by
# side (JavaScript and Python), not a change of mind.
CATEGORIES: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("http-client-python", "making HTTP requests in this project",
     frozenset("requests httpx aiohttp urllib urllib3".split())),
    ("http-client-js", "making HTTP requests in this project",
     frozenset("axios fetch got node-fetch superagent ky".split())),
    ("package-manager-js", "installing packages in this project",
     frozenset("npm pnpm yarn bun".split())),
    ("package-manager-python", "installing packages in this project",
     frozenset("pip pip3 uv poetry conda pipenv".split())),
    ("test-runner-python", "running the tests", frozenset("pytest unittest nose nose2".split())),
    ("test-runner-js", "running the tests", frozenset("jest vitest mocha".split())),
    ("linter-python", "formatting or linting code",
     frozenset("ruff flake8 black pylint isort autopep8 yapf".split())),
    ("linter-js", "formatting or linting code", frozenset("eslint prettier biome".split())),
    ("branch", "using git in this repository",
     frozenset("main master develop trunk".split())),
    ("time", "handling dates and times in this project",
     frozenset({"utc", "local time", "localtime", "gmt", "ora locale", "l'ora locale", "heure locale",
                "horário local", "hora local", "ortszeit", "本地时间", "ローカル時間"})),
    ("logging", "logging in this project",
     frozenset({"print", "logging", "logging module", "logger", "loguru", "structlog", "console.log"})),
    ("ci", "changing the CI configuration",
     frozenset({"github actions", "travis", ".travis.yml", "circleci", "jenkins", "gitlab ci"})),
    ("config-file", "changing the project configuration",
     frozenset("pyproject.toml setup.cfg setup.py tox.ini".split())),
    ("type-checker", "type-checking code", frozenset("mypy pyright pytype".split())),
    ("environment", "choosing an environment in this project",
     frozenset({"staging", "production", "prod", "preprod", "development", "dev", "qa", "sandbox",
                "produzione", "produção", "producción", "produktion", "生产", "测试环境", "本番", "ステージング"})),
    ("data-format", "writing data files in this project",
     frozenset("json yaml yml toml csv xml ini jsonl parquet".split())),
    ("container", "running containers", frozenset({"docker", "podman", "docker compose",
                                                    "docker-compose"})),
)


def category(*items: str) -> tuple[str, str] | None:
    """(slug, scope phrase) of the first item that names a known alternative."""
    for it in items:
        b = _bare(it)
        if not b:
            continue
        for slug, phrase, members in CATEGORIES:
            if b in members or any(w in members for w in b.split()):
                return slug, phrase
    return None


# -- the person's words, without what they pasted -----------------------------------------------

# A line of pasted output (a compiler's, a stack trace's), not words the person wrote.
_PASTED = re.compile(r"^\s*(?:(?:error|warning|note|help)(?:\[[A-Z]*\d+\])?:|-->|\d*\s*\||Traceback \(|at \S+\(|File \""
                     r"|[A-Za-z_.]*(?:Error|Exception)(?::|$)|\$ |npm ERR!|E\s{2,})")


def person_text(text: str) -> str:
    """What the person wrote themselves: fenced blocks, ``>`` quoted lines and pasted output
    (a compiler's error lines, a stack trace) are material from elsewhere, never a correction of
    theirs."""
    text = strip_fenced(text or "")
    return "\n".join(ln for ln in text.splitlines()
                     if not ln.lstrip().startswith(">") and not _PASTED.match(ln))


# -- the forms ----------------------------------------------------------------------------------

# "X, not Y": the negation that opens the rejected alternative, per language.
_NEG = (r"(?:,\s*|\s+|—\s*|-\s+)(?:and\s+|e\s+|et\s+|y\s+|und\s+)?(?:not|never|non|não|nao|pas|no"
        r"|nicht|kein|keine|keinen|nunca|jamais|mai|nie|niemals)\s+(?:with\s+|in\s+|con\s+|nel\s+|com\s+|no\s+|na\s+|dans\s+|avec\s+"
        r"|en\s+|mit\s+|im\s+|in\s+)?")
# What sits before the kept alternative and is not part of it ("I said httpx", "the config lives in
# pyproject.toml", "it should be UTC").
_ANCHOR = re.compile(
    r"^(?P<head>.*?\b(?P<verb>said|say|told you|is|are|be|use|using|uses|used|with|in|into|to|lives in"
    r"|goes in|go in|go|goes|it'?s|was|prefer|detto|dico|è|e'|essere|usa|usiamo|usare|con|in|nel|nella"
    r"|disse|falei|é|ser|estar|em|fica no|fica na|usamos|com|dit|est|c'est|être|utilise|on utilise|avec|dans"
    r"|dije|es|ser|está en|usamos|sagte|gesagt|ist|sein|nutzen|nutze|nehmen|mit|liegt in|sollte|soll"
    r"|muss|müssen|verwenden|verwende|benutzen|benutze|called|named|spelled|chiamat[oa]|chamad[oa]|appelée?|llamad[oa]|heißt)\s+)"
    r"(?P<rest>[^\s].*)$", _I)
_MODAL = re.compile(r"\b(?:must|should|needs? to|has to|have to)\s+(?:always\s+)?be\b", _I)

# "using" / "used" describe what the agent did ("why are you using match?"); they are not a choice.
_USE = (r"(?:(?:we|i|you|they)\s+(?:always\s+)?)?"
        r"(?:use|(?:this|the) (?:project|repo|repository|team|codebase|app|code) uses|go with|stick (?:to|with)"
        r"|switch(?:ed)? to|moved to|migrated to|prefer"
        r"|usa|usiamo|usare|usassi|utilizza|preferisco|preferiamo|passati ad?|passato ad?|migrati ad?"
        r"|use|usamos|usar|usasse|utilize|prefira|prefiro|mudamos para|migramos para|passamos para"
        r"|utilise|utilisez|utilisons|utiliser|on utilise|préfère|préférez|passés à|passé à|migré vers|migré à"
        r"|usa|usamos|usaras|usases|utiliza|prefiero|prefiere|pasamos a|cambiamos a|migramos a"
        r"|nutzen|nutze|nutzt|verwende|verwenden|benutze|benutzen|nimm|nehmen wir|nehmen|lieber)\s+")
_DONT = (r"(?:don'?t|do not|never|stop|quit|no more)\s+(?:use|using)\s+"
         r"|non usare\s+|smetti di usare\s+|basta (?:con\s+|de\s+)?"
         r"|não (?:use|usa|utilize)\s+|pare de usar\s+|chega de\s+"
         r"|n'utilise[sz]? (?:plus |pas )|arrête[sz]? d'utiliser\s+|plus de\s+"
         r"|no (?:uses|use|utilices)\s+|deja de usar\s+"
         r"|(?:benutze|verwende|nimm|nutze)\s+(?:kein(?:e|en)?|nicht)\s+|hör auf,?\s+(?=\S+ zu)"
         r"|^kein(?:e|en)?\s+(?=\S+\s+mehr\b)")
_INSTEAD = (r"(?:instead of|rather than|over|invece di|invece che|al posto di|anziché|piuttosto che"
            r"|em vez de|ao invés de|no lugar de|au lieu de|plutôt que|en vez de|en lugar de"
            r"|statt|anstatt|anstelle von|als)\s+")
_AGAIN_AFTER = (r"\s*(?:again|ancora|di nuovo|de novo|outra vez|encore|otra vez|de nuevo)\b\s*[?!.]")
_AGAIN_BEFORE = (r"(?:^|[.!?;:,¿]\s*)(?:ancora(?: con)?|encore(?: des| du| de la| le| la| les)?|schon wieder"
                 r"|wieder|de novo com|otra vez(?: con)?|¿otra vez(?: con)?)\s+"
                 r"(?:(?:le|i|il|la|les|o|a|os|as|el|los|las|die|der|das)\s+)?")

# (not a purpose: "add lodash so I can use debounce", "I want to use the new API")
_RX_USE = re.compile(r"(?:^|(?<=[\s,.;:!?(—'’-]))(?<!\bcan )(?<!\bto )(?<!\bcould )(?<!\bwe can )" + _USE, _I)
# "I said main" / "te dije main" / "main って言ったよね": a name alone after "I said" is the choice.
# "why did you use npm?": the question names what the agent should not have used
_RX_WHY_USED = re.compile(rf"\b(?:why (?:did|do|are|would) you (?:use|using|pick|choose|add|install)"
                          rf"|perché (?:hai usato|usi)|por que (?:você )?(?:usou|está usando)|pourquoi (?:tu as utilisé"
                          rf"|as-tu utilisé|utilises-tu)|por qué (?:usaste|usas)|warum (?:hast du|benutzt du|nimmst du"
                          rf"|verwendest du))\s+[`'\"]?(?P<y>{_TOKEN})", _I)
# "it's pnpm in this repo"
_RX_ITS = re.compile(rf"\bit(?:'s| is)\s+[`'\"]?(?P<x>{_TOKEN})[`'\"]?\s+(?:in this (?:repo|repository|project|codebase)"
                     rf"|here)\b", _I)
# "Not npm — pnpm" / "not master, main": the rejected side first, then the kept one alone
_RX_NOT_FIRST = re.compile(rf"(?:^|[.!?]\s+)(?:not|non|não|pas|nicht|no)\s+[`'\"]?(?P<y>{_TOKEN})[`'\"]?\s*[,—–:-]+\s*"
                           rf"[`'\"]?(?P<x>{_TOKEN})[`'\"]?\s*(?:[.!]|$)", _I)
# "non, pas include_directories global, target_include_directories sur la cible": the rejected one
# first after a "no,", a word of its own may follow it, then the kept one — both written as code
# (an underscore, a dot, a call, a path, camelCase, backticks), never a value of this task
_RX_NOT_FIRST_CODE = re.compile(
    rf"(?:^|[.!?]\s+)(?:(?:no|non|nein|não|nope|nee|non non),?\s+)?(?:not|non|não|pas|nicht|no|kein(?:e|en)?)\s+"
    rf"[`'\"]?(?P<y>{_TOKEN})[`'\"]?(?:\s+[a-zà-ÿ]+)?\s*[,—–;:-]+\s*(?:(?:mais|ma|but|sondern|pero|mas)\s+)?"
    rf"(?:(?:use|usa|utilise|nimm|usar|use)\s+)?[`'\"]?(?P<x>{_TOKEN})[`'\"]?", _I)
_CODEY = re.compile(r"[_.()/:]|[a-z][A-Z]")
_FILEISH = re.compile(r"\.(?:py|js|ts|tsx|jsx|go|rs|rb|java|kt|php|cs|md|json|ya?ml|toml|sql|sh|css|html?|vue|png|jpe?g|svg|csv)$", _I)
# "non gradle di sistema, sempre ./gradlew" / "nie schema:update --force, immer doctrine:migrations:migrate":
# the rejected one first, then what always to use
_RX_NOT_ALWAYS = re.compile(rf"(?:^|[.!?;]\s*)(?:not|never|non|nie|nicht|no|nunca|jamais|pas|mai)\s+[`'\"]?(?P<y>{_TOKEN})[`'\"]?"
                            rf"[^,.;!?]{{0,30}}[,;—–-]+\s*(?:but\s+|ma\s+|mais\s+|sondern\s+|pero\s+|mas\s+)?"
                            rf"(?:always|sempre|immer|siempre|toujours|stets)\s+[`'\"]?(?P<x>(?:\.{{1,2}}/)?{_TOKEN})", _I)
_RX_LONE = re.compile(rf"^[`'\"]?(?P<x>{_TOKEN})[`'\"]?\s*[.!]*$")
_RX_SAID = re.compile(rf"\b(?:i said|i told you|detto|dije|sagte|gesagt|disse|falei|dit)\s+[`'\"]?(?P<x>{_TOKEN})[`'\"]?"
                      r"\s*(?:[.!]|$)|(?P<x2>" + _TOKEN + r")\s*(?:って|と)言(?:った|いました)", _I)
_RX_DONT = re.compile(r"(?:^|(?<=[\s,.;:!?(—-]))" + _DONT, _I)
_RX_INSTEAD = re.compile(r"(?:^|(?<=[\s,.;:!?(—-]))" + _INSTEAD, _I)
_RX_NEG = re.compile(_NEG, _I)
_RX_AGAIN_AFTER = re.compile(rf"(?P<y>{_TOKEN}){_AGAIN_AFTER}", _I)
_RX_AGAIN_BEFORE = re.compile(_AGAIN_BEFORE + rf"(?P<y>{_TOKEN})\s*[?!？]", _I)
_RX_PREFER_A = re.compile(rf"\b(?:preferisco|preferiamo|prefiro|prefira|préfère[sz]?|prefiero|prefiere)\s+"
                          rf"(?P<x>{_TOKEN})\s+(?:a|à|al|ao|a la)\s+(?P<y>{_TOKEN})", _I)
_RX_FROM_TO = re.compile(rf"\b(?:switch|switched|change|changed|move|moved|migrate|migrated|go)\s+from\s+"
                         rf"[`'\"]?(?P<y>{_TOKEN})[`'\"]?\s+to\s+[`'\"]?(?P<x>{_TOKEN})", _I)
_RX_LIEBER = re.compile(rf"\blieber\s+(?P<x>{_TOKEN})\s+als\s+(?P<y>{_TOKEN})", _I)
_RX_DE_MOVED = re.compile(rf"\b(?:auf|zu)\s+(?P<x>{_TOKEN})\s+(?:umgestiegen|gewechselt|migriert|umgezogen)", _I)

# Chinese: 用X / 改用X / 换成X / 我们用X; 不要用Y / 别用Y / 别再用Y / 不是Y; 用X代替Y; X，不是Y.
# A Latin name is tried first: "httpx" in "我说了用httpx" is the item, not the characters around it.
def _zi(g: str, cjk: bool) -> str:
    alt = f"|[{_CJK_CHARS}]{{2,6}}?" if cjk and g == "y" else ""
    # the rejected side may be a few Latin words ("不用 docker compose"); the kept one is a name
    latin = rf"{_TOKEN}(?:[ ]{_TOKEN}){{0,2}}" if g == "y" else _TOKEN
    return rf"\s*[`'\"“「]?(?P<{g}>{latin}{alt})[`'\"”」]?\s*"


def _both(build) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The form with Latin names only, and with the rejected side (y) also in CJK characters. The
    kept side (x) is always a Latin name: "用中文回答" or "そう" is not a tool to use."""
    return re.compile(build(False)), re.compile(build(True))


_ZH_USE = _both(lambda c: r"(?:改用|换成|換成|切换到|迁移到|改成|还是用|我们用|我們用|都用|就用|优先用|優先用|要用|请用"
                r"|(?<![不别別])用(?![错錯])|使用)" + _zi("x", c) + r"(?=[，,。.！!；;、]|代替|替代|而不是|吧|了|$|\s)")
_ZH_CONTRAST = _both(lambda c: r"(?:是|在|用|^|[：:，,、])" + _zi("x", c) + r"[里裡中]?\s*[，,]\s*"
                     r"(?:不是|不在|而不是|不用)" + _zi("y", c) + r"(?=[，,。.！!；;、？?]|$|的|了)")
_ZH_DONT = _both(lambda c: r"(?:不要再用|不要用|别再用|別再用|别用|別用|不用|不是|不在|而不是|代替|替代|不要)"
                 + _zi("y", c) + r"(?=[，,。.！!；;、？?]|了|$|\s|模块|模組)")
_ZH_AGAIN = _both(lambda c: r"(?:又是|又用|怎么又是|怎么又用)" + _zi("y", c))
# Japanese: YではなくX / Yの代わりにX / YよりX / Xを使って / Xに移行 / うちはXです / Yはやめて.
_JA_Y_FIRST = _both(lambda c: _zi("y", c) + r"(?:ではなく|じゃなくて|でなく|の代わりに|より)[、,]?" + _zi("x", c))
_JA_X_FIRST = _both(lambda c: _zi("x", c) + r"[^、。,]{0,10}[、,]\s*" + _zi("y", c)
                    + r"(?:では|じゃ)(?:ない|ありません|なくて)")
_JA_USE = _both(lambda c: _zi("x", c) + r"(?:モジュール|ライブラリ|パッケージ)?(?:を使|に移行|に切り替え|を優先|を使用|です(?=[。!！、]|$))")
_JA_DONT = _both(lambda c: _zi("y", c) + r"(?:はやめて|を使わないで|は使わないで|はダメ)")
_JA_AGAIN = _both(lambda c: r"また" + _zi("y", c) + r"[？?]")
# A requirement ("must be", "deve essere", "必须是"…): kept in the person's words outside English.
_MODAL_ANY = re.compile(
    r"\b(?:must|should|needs? to|has to|have to|deve|devono|dovrebbe|tem que|têm que|deveria|doit"
    r"|doivent|devrait|tiene que|tienen que|debe|debería|muss|müssen|sollte|soll)\b"
    r"|必须|必須|应该|應該|でないと|べき|なければ", _I)

# Marks of a lesson meant to last, not of this task only.
# "for future reference", "next time", "à l'avenir", "次からは": a lesson for the sessions to come
_FUTURE = (r"for future reference|for the future|in (?:the )?future|next time|per il futuro|la prossima volta|d'ora in avanti"
           r"|à l'avenir|la prochaine fois|dorénavant|für die zukunft|nächstes mal|in zukunft|künftig"
           r"|pra próxima|para a próxima|da próxima vez|no futuro|daqui pra frente|para la próxima|la próxima vez"
           r"|en el futuro|de aquí en adelante")
_FUTURE_CJK = r"次から|次回から|今後は|以后|以後|下次|今后"
FUTURE = re.compile(r"\b(?:" + _FUTURE + r")\b|" + _FUTURE_CJK, re.I)
# A condition that is a kind of event, then what to do: "when a test fails, print …", "向任何远程仓库
# 推送之前先征求确认" — a rule in the memo's own form ("when you're done, push" is this task's).
_CONDITIONAL_RX = (
    r"(?:^|[.!?;:]\s+|^(?:no|nope|non|nein|não|不对|いいえ)[,，、]?\s*)(?:when(?:ever)?|before|after|each time|any ?time"
    r"|quando|ogni volta che|prima di|quand|lorsque|chaque fois que|avant de|wenn|bevor|nachdem|jedes mal wenn"
    r"|cuando|cada vez que|antes de|sempre que|depois de)\s+(?![^,.;:!?]*\b(?:done|ready|finish\w*|chance|free|back"
    r"|fertig|finito|fini|terminad\w|pronto|listo)\b)[^,.;:!?\n]{4,80}[,:]\s*\S"
    r"|[^\s，。]{2,20}\s?(?:之前|的时候|时)[，,]?\s*(?:先|都|要|必须|请|一定)|[^\s、。]{2,20}(?:前に|ときは|時は|場合は|たびに)")
CONDITIONAL = re.compile(_CONDITIONAL_RX, re.I)
_LASTING = re.compile(
    r"\b(?:" + _FUTURE + r")\b|" + _FUTURE_CJK + "|"
    r"\b(?:always|never|from now on|going forward|phasing out|on abandonne|stiamo dismettendo|estamos (?:abandonando|deprecando|descontinuando)|in (?:this|the) (?:project|repo|repository|codebase|team)"
    r"|we (?:use|do|deploy|build|run|write|keep|put|always)|i (?:said|told you)|every time"
    # "here" of a way of working ("we pin versions here", "here the docs are rst"), not of a place in
    # this task's code ("that's wrong here")
    r"|(?<!wrong )(?<!broken )(?<!fails )(?<!failing )(?<!error )(?<!bug )(?<!off )here\b(?! (?:in|on|at) (?:line|this (?:file|function|line)))"
    r"|each time|(?:must|should|has to|needs to) be)\b"
    r"|\b(?:sempre|mai|d'ora in poi|da (?:ora|adesso) in poi|in questo progetto|usiamo|ho detto|ti (?:avevo|ho) detto"
    r"|te l'ho detto|nunca|a partir de agora|neste projeto|usamos|eu disse|eu te disse|já (?:te )?(?:falei|disse)"
    r"|toujours|jamais|désormais|à partir de maintenant|dans ce projet|on utilise|j'ai dit|je t'(?:avais|ai) dit"
    r"|siempre|a partir de ahora|de ahora en adelante|en este proyecto|dije|te (?:lo )?dije|te había pedido"
    r"|immer|nie|niemals|ab jetzt|ab sofort|künftig|in diesem projekt|wir (?:nutzen|nehmen|verwenden)"
    r"|ich sagte|ich hab\w* (?:dir |doch |schon )*gesagt)\b"
    r"|\b(?:don'?t|do not|non|não|ne|no|nicht|kein\w*)\b[^.!?]{0,60}\b(?:again|di nuovo|de novo|encore"
    r"|otra vez|de nuevo|nochmal|wieder)\b"
    r"|以后|今后|從現在起|从现在起|我们用|我們用|这个项目|这个项目里|再说一遍|一直|总是|永远|不要再|别再|说了|說了|说过|說過"
    r"|今後|これからは|いつも|必ず|うちは|このプロジェクト|もう一度|言いました|言った"
    # the count of a repeat ("for the third time: …") says the lesson outlives the task
    r"|\b(?:(?:second|third|fourth|fifth) time|per la (?:seconda|terza|quarta|quinta) volta"
    r"|pour la (?:deuxième|troisième|quatrième|cinquième) fois|zum (?:zweiten|dritten|vierten|fünften) mal"
    r"|por (?:segunda|tercera|cuarta|quinta) vez|pela (?:segunda|terceira|quarta|quinta) vez)\b"
    r"|第[二三四五2-9]次了|[二三四五2-9]回目"
    r"|" + _CONDITIONAL_RX, _I)
LASTING = _LASTING  # a mark that the lesson is meant beyond this task
# Something in the message says the agent got it wrong or names what not to do: a requirement
# ("deve essere Europe/Rome") is kept only then; alone it may be a plain request ("应该是周五之前上线").
_WRONG_OR_NOT = re.compile(r"\b(?:not|non|não|pas|nicht|no|wrong|sbagliat\w*|errad\w*|incorrect\w*|faux|fausse"
                           r"|mauvaise?|falsch\w*|equivocad\w*|mal)\b|不是|不对|不對|错|錯|違|じゃな|ではな", _I)


@dataclass(frozen=True)
class Lesson:
    kind: Kind
    x: str = ""        # what to use / the required value
    y: str = ""        # what not to use ("" when not said)
    subject: str = ""  # requirement: what must be so ("the timeout")
    reason: str = ""   # "because the upstream API is slow"
    quote: str = ""    # the person's instruction, when kept in their words
    why_none: str = ""
    rule: str = ""     # convention: the imperative it states ("always follow Conventional Commits.")
    scope: str = ""    # convention: the trigger ("writing commit messages")


def _right_item(s: str, phrase: bool = False) -> str:
    rx = _CJK_RIGHT_ITEM if _HAS_CJK.match(s.lstrip()[:1] or " ") else (
        _RIGHT_PHRASE if phrase else _RIGHT_ITEM)
    m = rx.match(s)
    return _item(m.group("item")) if m else ""


def _left_item(left: str) -> tuple[str, str, str]:
    """The kept alternative ending ``left`` ("No — httpx" → httpx), with what precedes it: (item,
    head, verb). An unanchored run of several plain words is a description, not an item."""
    # (a colon or a comma inside code in backticks is the code's: "con `where:`, no con Enum.filter")
    left = re.sub(r"`[^`\n]+`", lambda m: m.group(0).replace(":", "\ue000").replace(",", "\ue001")
                  .replace("(", "\ue002"), left)
    seg = re.split(r"[,;:\n—–(]\s*|[.!?]+(?:\s+|$)|\s-\s", left.rstrip(" ,—–-"))[-1].strip()
    seg = seg.replace("\ue000", ":").replace("\ue001", ",").replace("\ue002", "(")
    seg = re.sub(r"\s+sein$", "", seg, flags=_I)  # German puts the verb last: "das sollte UTC sein"
    seg = re.sub(r"\s+(?:please|pls|thanks|per favore|por favor|s'il te plaît|bitte)$", "", seg, flags=_I)
    seg = re.sub(r"\s+(?:here|there|too|also|in this (?:repo|repository|project|codebase)|qui|qua|aqui|aquí|ici"
                 r"|hier|in questo progetto|neste projeto|dans ce projet|en este proyecto|in diesem projekt)$",
                 "", seg, flags=_I)
    if not seg:
        return "", "", ""
    m = _ANCHOR.match(seg)
    while m and _ANCHOR.match(m.group("rest")):  # the last anchor: "we said it is X" → X
        inner = _ANCHOR.match(m.group("rest"))
        m = inner if inner and len(inner.group("rest").split()) >= 1 else None
    if m:
        head, verb, rest = m.group("head")[: -len(m.group("verb")) - 1].strip(), m.group("verb"), m.group("rest")
        rest = re.sub(r"^(?:(?:wir|we|noi|nous|nós|nosotros|on)\s+)?(?:(?:here|hier|qui|qua|aqui|aquí|ici)\s+)?", "",
                      rest, flags=_I)
        words = rest.split()
        if 1 <= len(words) <= 4:
            return _item(rest), head, verb.lower()
        return "", "", ""
    words = seg.split()
    if len(words) == 1 and not _COMPARATIVE.match(_item(words[0])):
        return _item(words[0]), "", ""
    return "", seg, ""


def _last_word(left: str) -> str:
    """"Ab sofort ruff statt flake8": with no verb of use, the word before "instead of"."""
    words = left.strip().split()
    return _item(words[-1]) if words and re.fullmatch(_TOKEN, _item(words[-1]) or "-") else ""


_COMMON = frozenset("""
another other others same this that these those what which one ones it its thing things way stuff
write writing make making do doing done then first after before there here all some any none more
less also just only still again now very really called named new old existing whole rest part
di da del della dello dei degli delle che non per con su tra fra ne un una uno quello questo cosa
de do da dos das que não nao para por com sem um uma isso este esta esse essa aqui coisa
de du des le la les que qui pour avec sur dans pas plus en un une ce cette ça ici chose
de del el los las que para por con sin en un una eso esto esta este aquí cosa
und oder für mit auf von zu den dem der die das nicht kein keine ein eine es hier ding sache
""".split())


def _namey(item: str) -> bool:
    """Whether an item names something — a tool, a file, a branch, a value — rather than being an
    ordinary word or a description ("another", "write the tests first", "the existing helper")."""
    words = _ARTICLES.sub("", item.strip()).split()
    if not words or _HAS_CJK.search(item) or not re.search(r"[A-Za-z\u00c0-\u024f]", item):
        return False
    if category(item):
        return True
    special = [w for w in words if re.search(r"[0-9._/@:#+]|[a-z][A-Z]|^[A-Z][A-Za-z]*[A-Z]|^[A-Z]{2,}", w)]
    if special:
        return len(words) <= 3
    if len(words) > 1:
        return len(words) <= 3 and any(w[:1].isupper() and w.lower() not in _COMMON for w in words)
    w = words[0]
    return len(w) >= 3 and w.lower() not in _COMMON and not w.lower().endswith("ing")


def _distinct(x: str, y: str) -> bool:
    """Two alternatives, not one inside the other ("IVA" / "sin IVA")."""
    a, b = set(_bare(x).split()), set(_bare(y).split())
    return bool(a) and bool(b) and not (a & b)


def _good(item: str) -> bool:
    b = _bare(item)
    return bool(b) and not _PRONOUN.match(b) and not _PRONOUN.match(b.split()[0]) and not _DEICTIC.search(item) and len(b) <= 40 \
        and not _COMPARATIVE.match(b) and not _FILLER.match(b)


def _reason(text: str) -> str:
    # ("as" and German "da" only before a clause: "as it locks", "da es sonst…" — never "da noi", "as well")
    m = re.search(r"\b(?:because|since|perché|poiché|porque|parce que|car|weil"
                  r"|(?:as|da)(?=\s+(?:it|we|they|this|that|the|our|i|es|wir|ich|man|der|die|das|sonst|sie|er)\b))"
                  r"\s+([^.!?\n]{3,80})"
                  r"|因为([^。！？\n]{2,40})|(?:ので|から)", text, _I)
    if not m:
        return ""
    return _item(m.group(1) or m.group(2) or "")


_REQUEST = re.compile(r"^\W*(?:please|could you|can you|would you|will you|puoi|potresti|pode|poderia|peux-tu"
                      r"|pourrais-tu|tu peux|puedes|podrías|kannst du|könntest du|可以|能不能|请|請)\b|ください|てもらえ", _I)


def _statements(s: str) -> str:
    """The message without its questions: "why did you pick a dict instead of a list here?" asks,
    it does not choose ("could you use httpx instead?" is a request, and stays)."""
    parts = re.split(r"(?<=[.!?])\s+|(?<=[。！？])", s)
    return " . ".join(p for p in parts if p.strip() and (not p.rstrip().endswith(("?", "？"))
                                                         or _REQUEST.search(p)))


def _pair(x: str, y: str) -> bool:
    return _namey(x) and _good(x) and _good(y) and _distinct(x, y)


def _choice_latin(full: str) -> tuple[str, str, str, str] | None:
    """(x, y, head, verb) from the Latin-script forms, the most explicit first."""
    s = _statements(full)
    for rx in (_RX_FROM_TO, _RX_PREFER_A, _RX_LIEBER):
        m = rx.search(s)
        if m and _pair(m.group("x"), m.group("y")):
            return _item(m.group("x")), _item(m.group("y")), "", "prefer"
    # "use X instead of Y" / "prefer X over Y" / "X statt Y" / "invece di Y, usa X"
    for m in _RX_INSTEAD.finditer(s):
        y = _right_item(s[m.end():])
        left = s[: m.start()]
        uses = list(_RX_USE.finditer(left))
        um = uses[-1] if uses else None  # the verb nearest the "instead"
        x = _right_item(left[um.end():]) if um else (_left_item(left)[0] or _last_word(left))
        if not x and not left.strip(" .,;:") and m.group(0).strip().lower() not in ("over", "als"):
            after = _RX_USE.search(s[m.end():])
            x = _right_item(s[m.end() + after.end():]) if after else ""
            um = after
        if x and y and _pair(x, y) and (m.group(0).strip().lower() not in ("over", "als") or um is not None):
            return x, y, "", "use"
    # "don't use Y, (we/this project) use X" / "stop using Y; we use X" / "non usare Y, usiamo X"
    dm = _RX_DONT.search(s)
    if dm:
        y, rest, x = _right_item(s[dm.end():]), s[dm.end():], ""
        um = _RX_USE.search(rest)
        if um:
            x = _right_item(rest[um.end():])
        else:
            for um in _RX_USE.finditer(s[: dm.start()]):
                x = _right_item(s[um.end(): dm.start()])
        if not x:  # "Never use npm in this repo, always pnpm."
            am = re.search(rf"\balways\s+[`'\"]?(?P<x>{_TOKEN})", rest, _I)
            x = _item(am.group("x")) if am and category(am.group("x")) else ""
        if y and _good(y):
            return (x if _pair(x, y) else ""), y, "", "use"
    got = _contrast(s)
    if got is not None:
        return got
    # "requests again?? we use httpx" / "Wrong library. We use httpx." / "we moved to pnpm"
    am = _RX_AGAIN_AFTER.search(full) or _RX_AGAIN_BEFORE.search(full) or _RX_WHY_USED.search(full)
    y = _item(am.group("y")) if am and _good(am.group("y")) else ""
    im = _RX_ITS.search(s)
    if im and _namey(im.group("x")) and (not y or _distinct(im.group("x"), y)):
        return _item(im.group("x")), y, "", "use"
    for part in re.split(r"(?<=[.!?])\s+", full):  # "No! yarn. Not npm." / "requests again. httpx!"
        lm = _RX_LONE.match(part.strip())
        if lm and category(lm.group("x")) and (y or re.search(r"(?:^|[.!?]\s+)(?:not|non|não|pas|nicht)\s", full, _I)):
            nm = re.search(rf"(?:^|[.!?]\s+)(?:not|non|não|pas|nicht)\s+(?P<y>{_TOKEN})", full, _I)
            ny = y or _item(nm.group("y") if nm else "")
            if _distinct(lm.group("x"), ny or "-"):
                return _item(lm.group("x")), ny, "", "use"
    sm = _RX_SAID.search(s)
    if sm and _namey(sm.group("x") or "") and category(sm.group("x")):
        return _item(sm.group("x")), y, "", "use"
    dem = _RX_DE_MOVED.search(s)
    if dem and _namey(dem.group("x")):
        return _item(dem.group("x")), y, "", "use"
    for um in _RX_USE.finditer(s):
        x = _right_item(s[um.end():])
        if x and _namey(x) and _good(x) and (not y or _distinct(x, y)):
            return x, y, "", "use"
    return None


# What follows a negation without being the rejected alternative ("no changes needed", "not bad",
# "non è colpa tua"), and praise that stands where the kept one would ("Perfect, no changes").
_NOT_ALTERNATIVE = re.compile(r"(?:only|just|bad|male|mal|schlecht|problem\w*|serve|hay|need\w*|necessar\w*|changes?"
                              r"|colpa|culpa|faute|schuld|worries|idea|clue|sure|yet|ancora|encore|todavía|ainda|noch)\b", _I)
_PRAISE = re.compile(r"(?:perfect\w*|great|fine|ok|okay|good|nice|thanks|grazie|merci|gracias|danke|obrigad\w*|perfett\w*"
                     r"|parfait|perfekt|perfecto|ótimo|bene|bien|bom|gut|super|top|cool)$", _I)


def _contrast(s: str, names: bool = True) -> tuple[str, str, str, str] | None:
    """(x, y, head, verb) of "X, not Y" / "Not Y — X" / "Nein, nicht Y, wir nutzen X" in ``s`` (a
    message's statements). ``names``: the kept side must be a name (a tool, a file), not a value
    ("deve essere 50, non 20" states a requirement — a correction all the same)."""
    pair = _pair if names else (lambda x, y: _good(x) and _good(y) and _distinct(x, y))
    got = _contrast_form(s, pair)
    if got is None or _NOT_ALTERNATIVE.match(got[1]) or _PRAISE.match(got[0]):
        return None
    return got


def _contrast_form(s: str, pair) -> tuple[str, str, str, str] | None:
    nm = _RX_NOT_FIRST.search(s)
    if nm and pair(nm.group("x"), nm.group("y")):
        return _item(nm.group("x")), _item(nm.group("y")), "", "use"
    am = _RX_NOT_ALWAYS.search(s)
    if am and pair(am.group("x"), am.group("y")):
        return _item(am.group("x")), _item(am.group("y")), "", "use"
    cm = _RX_NOT_FIRST_CODE.search(s)
    if cm and _CODEY.search(cm.group("x")) and _CODEY.search(cm.group("y")) and not _FILEISH.search(cm.group("x")) \
            and cm.group("x").lower() != cm.group("y").lower():
        return _item(cm.group("x")), _item(cm.group("y")), "", "use"
    for m in _RX_NEG.finditer(s):
        y = _right_item(s[m.end():], phrase=True)
        x, head, verb = _left_item(s[: m.start()])
        if not _good(x) or pair is _pair and not _namey(x):
            x = ""
            um = _RX_USE.search(s[m.end():])
            if um:
                x, head, verb = _right_item(s[m.end() + um.end():]), "", "use"
        if not verb and not re.match(r"\s*[,—-]", m.group(0)):
            continue  # "that's not what I asked": with no comma and no verb, not an alternative
        if x and y and pair(x, y):
            return x, y, head, verb
    return None


def contrast(text: str) -> tuple[str, str] | None:
    """(kept, rejected) when a Latin-script message states "X, not Y" ("I said httpx, not requests",
    "il branch è main, non master", "not npm — pnpm"): the one reader of this form, asked by the
    correction detector whether a message states one and by the learner what it states."""
    s = " ".join(person_text(text).split())
    if not s or _HAS_CJK.search(s):
        return None
    got = _contrast(_statements(_USE_ADVERB.sub(r"\1", s)), names=False)
    return (got[0], got[1]) if got else None


def _choice_cjk(full: str) -> tuple[str, str] | None:
    s = _statements(full)
    for k in (0, 1):
        for rx in (_JA_Y_FIRST[k], _JA_X_FIRST[k], _ZH_CONTRAST[k]):
            m = rx.search(s)
            if m and _pair(m.group("x"), m.group("y")):
                return _item(m.group("x")), _item(m.group("y"))
    for k in (0, 1):
        ys = [_item(m.group("y")) for rx in (_ZH_DONT, _JA_DONT) for m in rx[k].finditer(s)]
        ys += [_item(m.group("y")) for rx in (_ZH_AGAIN, _JA_AGAIN) for m in rx[k].finditer(full)]
        ys = [y for y in ys if _good(y)]
        xs = [_item(m.group("x")) for rx in (_ZH_USE, _JA_USE) for m in rx[k].finditer(s)]
        xs += [_item(m.group("x2")) for m in _RX_SAID.finditer(s) if m.group("x2") and category(m.group("x2"))]
        xs = [x for x in xs if _namey(x) and _good(x) and all(_distinct(x, y) for y in ys)]
        if xs:
            return xs[0], ys[0] if ys else ""
        if ys:
            return "", ys[0]
    return None


def _requirement(s: str) -> tuple[str, str, str] | None:
    """(subject, value, rejected value) from "the timeout must be 30 seconds, not 5"."""
    m = re.search(r"\b(?P<subj>(?:the|all|every|each|our|my|its|their)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)"
                  r"\s+(?:must|should|need to|needs to|have to|has to)\s+(?:always\s+)?be\s+"
                  r"(?P<pred>[^,.!?;\n]{1,60})(?:,?\s+not\s+(?P<y>[^,.!?;\n]{1,40}))?", s, _I)
    if not m:
        return None
    return _item(m.group("subj")), _item(m.group("pred")), _item(m.group("y"))


# "you always forget the tests", "it never works", "never mind", "always the same error": a
# complaint or a filler, not an instruction meant to last.
_COMPLAINT = re.compile(r"\b(?:i|you|it|this|that|they|he|she)\s+(?:always|never)\b|\bnever\s+mind\b"
                        r"|\balways\s+the\s+same\b|\btoujours pas\b|\bimmer noch\b|\bsempre (?:lo )?stesso\b"
                        r"|\bsiempre (?:el )?mismo\b|\bsempre o mesmo\b", _I)


_POINTS_BACK = re.compile(r"\b(?:that|this|it|lo|questo|quello|isso|ça|cela|eso|esto|das|dies)\b|这样|那样|それ", _I)


def _instruction(text: str) -> str:
    """The sentence(s) holding the lasting instruction, in the person's words."""
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+|(?<=[。！？])|\n+", text) if p.strip()]
    parts = [p for p in parts if not p.endswith(("?", "？"))]  # a question is not an instruction
    wrong = bool(_WRONG_OR_NOT.search(text))
    keep = []
    for i, p in enumerate(parts):
        if _LASTING.search(_COMPLAINT.sub(" ", p)) or (wrong and _MODAL_ANY.search(p)):
            # "Never do that on a shared branch": what "that" is was said just before
            if i and _POINTS_BACK.search(p) and parts[i - 1] not in keep:
                keep.append(parts[i - 1])
            keep.append(p)
    if not keep:
        return ""
    # an opening "No," / "不对，" only says the agent was wrong; the instruction is what follows
    out = " ".join(keep)
    out = re.sub(r"^(?:no+|nope|nein|non|não|wrong|不对|違います)\s*[,，、!！.—-]+\s*", "", out, flags=_I)
    return out[:200].rstrip() + ("…" if len(out) > 200 else "")


# "put it in utils.py, not helpers.py": where *this* thing goes, an instruction for the task at hand
_TASK_OBJECT = re.compile(r"\b(?:put|move|place|save|write|add|call|name|rename|make|keep)\s+(?:it|this|that|them"
                          r"|those|these)\b|\b(?:mettil[oa]|spostal[oa]|chiamal[oa]|salval[oa]|coloque-o|mova-o"
                          r"|mets-le|déplace-le|ponlo|ponla|muévelo|leg es|verschieb es|nenn es)\b"
                          r"|(?:把它|把这个)|(?:それを|これを)", _I)


# -- conventions and facts stated outright --------------------------------------------------------

_Q = r"[`'\"“‘«「]?"
_QE = r"[`'\"”’»」]?"
_CODE = r"`(?P<code>[^`]{2,60})`"
# what a convention is about → the trigger of its rule
_SUBJECTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"branch|rama|ramo|branche|zweig|分支|ブランチ", _I), "creating branches"),
    (re.compile(r"(?<!pre-)commit|提交|コミット", _I), "writing commit messages"),
    (re.compile(r"\btests?\b|test suite|testes|tests|pruebas|prove|テスト|测试", _I), "running the tests"),
    (re.compile(r"\blint\w*|linter|format(?:ter|ting)?\b|フォーマット|静态检查", _I), "formatting or linting code"),
    (re.compile(r"\bbuild\w*|compil\w*|ビルド|构建|编译", _I), "building the project"),
    (re.compile(r"\bPRs?\b|pull request|merge request", _I), "opening pull requests"),
    (re.compile(r"migration|migrazion|migração|migración|マイグレーション|迁移", _I), "writing database migrations"),
    (re.compile(r"deploy|release|rilasci|implant|despliegue|デプロイ|部署", _I), "deploying"),
    (re.compile(r"\bdocs?\b|documentation|changelog", _I), "writing documentation"),
)
_FOLLOW = re.compile(r"(?:^|[.!;,:]\s*|\b(?:we|here|team|project|repo|messages?|commits?|code|branches|PRs?)\s+)"
                     r"(?:always\s+)?(?:follow|follows|do|seguiamo|seguimos|segue|suivons|on suit"
                     r"|respectons|folgen|befolgen|halten uns an)\s+(?!not\b|never\b|no\b|nicht\b|pas\b)" + _Q
                     + r"(?P<x>(?:conventional commits|semver|semantic versioning|gitflow|git flow|trunk-based development"
                     r"|keep a changelog|pep ?8|google style|airbnb style|the [a-z]+ style guide|[A-Z][\w-]+(?: [A-Z][\w-]+){1,2}))"
                     + _QE, _I)
_FOLLOW_ZH = re.compile(r"(?:遵循|遵守|按照)\s*(?P<x>Conventional Commits|[A-Za-z][\w -]{2,30}?)\s*(?:规范|格式|风格)?")
# "branches here are always <type>/<TICKET>-<slug>"; "commit messages are in English"
_ALWAYS_ARE = re.compile(r"^(?:(?:all|our|the)\s+)?(?P<subj>[a-z][\w -]{2,30}?)\s+(?:here\s+|in this (?:repo|project)\s+)?"
                         r"(?:are|is|must be|should be|have to be|need to be)\s+(?:always\s+)?(?:named\s+|called\s+|written\s+)?"
                         + _Q + r"(?P<x>[^\s,;.!?`'\"]{3,60}|in [A-Z][a-z]+)" + _QE + r"(?:\s|[.,;!]|$)", _I)
# "tests run with `make test`, don't call pytest directly"
_RUN_WITH = re.compile(r"(?P<subj>[a-z][\w ]{2,25}?)\s+(?:run|runs|are run|is run|get run|build|builds|deploy|deploys"
                       r"|go through|are done|is done|girano|rodam|correm|tournent|se lancent|laufen|werden)\s+"
                       r"(?:with|via|through|using|by|con|com|avec|par|mit|über|tramite)\s+" + _Q
                       + r"(?P<x>[^`'\",;.!?]{2,40}?)" + _QE + r"(?=\s*(?:[,;.!—–-]|$|\s+(?:not|never|don|instead|and)))", _I)
_DONT_CALL = re.compile(r"\b(?:don'?t|do not|never|no|not)\s+(?:call|run|use|invoke)?\s*" + _Q
                        + r"(?P<y>[\w.-]{2,30})" + _QE, _I)
# a change of mind: "we're back on docker compose", "migramos pro pnpm", "esquece o yarn"
# what the project uses now, said in passing after "forget Y" ("todo va con ky", "now it's bun")
_NOW_X = re.compile(r"\b(?:(?:everything|all|now)\s+(?:goes|is|runs)\s+(?:through|with|on)|now (?:we use|it'?s|we'?re on)"
                    r"|todo va con|ahora (?:usamos|va con|es)|adesso (?:usiamo|si usa|è)|ora (?:usiamo|è)|agora (?:usamos|é)"
                    r"|tudo (?:vai|roda) (?:com|no|na)|maintenant (?:on utilise|c'est)|tout passe par|jetzt (?:nutzen wir|ist es|nehmen wir)"
                    r"|alles läuft (?:über|mit))\s+" + _Q + r"(?P<x>[A-Za-z][\w.+/-]*)" + _QE, _I)
_BACK_TO = re.compile(r"\b(?:(?:we'?re|we are|we'?ve gone|going|go|went)\s+back\s+(?:on|to)|back to|torniamo a|siamo tornati a"
                      r"|tornati a|voltamos (?:para|pro|pra|ao|a)|voltamos|volta(?:r|mos)? (?:pro|pra|para o|para a)|(?:on a |on est )?(?:migré|passés?|passé) sur|on revient à|on est revenus à|retour à"
                      r"|volvemos a|migramos a|nos pasamos a|pasamos a|cambiamos a|siamo passati ad?|passati ad?|migrati ad?|zurück zu|zurück auf|wieder auf|migramos (?:tudo |todo )?(?:pro|pra|para o|para a|para)|mudamos (?:tudo )?(?:pro|pra)"
                      r"|passamos (?:tudo )?(?:pro|pra))\s+" + _Q
                      + r"(?:the\s+|o\s+|a\s+|le\s+|la\s+|el\s+)?(?P<x>[A-Za-z][\w.+-]*(?:\s+compose)?)" + _QE, _I)
_FORGET = re.compile(r"\b(?P<y2>[A-Za-z][\w.+-]*)\s+(?:c'est fini|is gone|is dead|is out|ist raus|ist tot|è finito|acabou|se acabó|no more"
                     r"|(?:lo |la )?(?:stiamo dismettendo|stiamo abbandonando|è deprecat[oa]|va in pensione)|is (?:being )?(?:deprecated|retired|phased out|sunset)"
                     r"|wird (?:abgelöst|abgeschafft)|ist deprecated|est (?:déprécié|en fin de vie)|on l'abandonne|est(?:á|a) (?:deprecad[oa]|siendo retirad[oa])"
                     r"|t(?:á|a) (?:deprecad[oa]|sendo descontinuad[oa])|está sendo descontinuad[oa])\b"
                     r"|\b(?:forget(?: about)?|drop|ditch|dimentica(?:te)?|lascia perdere|esquece(?:r)?(?: o| a)?"
                     r"|esqueça(?:m)?(?: o| a)?|oublie[zs]?|olvida(?:te de)?|olvídate de|olvidaos de|vergiss|schluss mit"
                     r"|(?:we'?re |we are )?(?:phasing out|retiring|sunsetting)|stiamo dismettendo|dismettiamo|on abandonne"
                     r"|estamos (?:abandonando|deprecando|descontinuando)|wir lösen)\s+"
                     + _Q
                     + r"(?:the\s+|il\s+|lo\s+|le\s+|el\s+|den\s+|die\s+|das\s+)?(?P<y>[A-Za-z][\w.+-]*(?:\s+compose)?)" + _QE, _I)
# "we replaced flake8 with ruff", "the jest -> vitest migration landed", "remplacé X par Y" …
_NAME = r"[A-Za-z][\w.+/-]*(?:\s+compose)?"
_REPLACED = (
    re.compile(r"\b(?:replaced|swapped|switched(?: out)?|changed|moved|migrated)\s+(?:from\s+)?" + _Q + r"(?P<y>" + _NAME + r")"
               + _QE + r"\s+(?:with|for|to|by)\s+" + _Q + r"(?P<x>" + _NAME + r")" + _QE, _I),
    re.compile(r"\b" + _Q + r"(?P<y>" + _NAME + r")" + _QE + r"\s*(?:->|→|=>|to)\s*" + _Q + r"(?P<x>" + _NAME + r")" + _QE
               + r"\s+(?:migration|switch|move|change|migrazione|migração|migration|migración|Migration|Umstellung|Wechsel)", _I),
    re.compile(r"\b(?:remplacé|sostituito|substituímos|substituiu|trocamos|reemplazamos|reemplazado|cambiamos|sustituimos)\s+"
               + _Q + r"(?:le\s+|la\s+|il\s+|lo\s+|o\s+|a\s+|el\s+)?(?P<y>" + _NAME + r")" + _QE
               + r"\s+(?:par|con|por|pelo|pela|com)\s+" + _Q + r"(?:le\s+|la\s+|il\s+|lo\s+|o\s+|a\s+|el\s+)?(?P<x>"
               + _NAME + r")" + _QE, _I),
    re.compile(r"\b(?:von\s+)?" + _Q + r"(?P<y>" + _NAME + r")" + _QE + r"\s+(?:durch|auf)\s+" + _Q + r"(?P<x>" + _NAME + r")"
               + _QE + r"\s+(?:ersetzt|umgestellt|gewechselt|migriert)", _I),
    re.compile(r"(?:把|将)?\s*(?P<y>" + _NAME + r")[^，。,.!！?？A-Za-z]{0,10}?(?:换成了?|替换成|替换为|改成了?|迁移到了?)\s*(?P<x>"
               + _NAME + r")"),
    re.compile(r"(?P<y>" + _NAME + r")\s*(?:を|から)\s*(?P<x>" + _NAME + r")\s*(?:に置き換え|に移行|に切り替え|へ移行)"),
)
_ZH_BACK = re.compile(r"(?:换回|改回|回到|还是用回|又用回|迁到|迁移到|统一用|统一迁到|改用|换成)[^A-Za-z，。]{0,6}"
                      r"(?P<x>[A-Za-z][\w.+/-]*(?: compose)?)")
_JA_BACK = re.compile(r"(?P<x>[A-Za-z][\w.+/-]*(?: compose)?)\s*(?:に戻|に移行|に切り替え|に乗り換え)")
# what is no longer used: "ya no usamos poetry", "we no longer use yarn", "zap 以后别再用", "Cypress はもう使わない"
_NO_LONGER = re.compile(
    r"\b(?:ya no (?:usamos|se usa|usa)|no longer (?:use|using)|we don'?t use|non usiamo più|non si usa più"
    r"|não usamos mais|não se usa mais|on n'utilise plus|nous n'utilisons plus|plus de)\s+(?:el |il |o |le |la |the )?"
    r"(?P<y>[A-Za-z][\w.+/-]*)"
    r"|\bwir (?:nutzen|verwenden|nehmen) (?:kein(?:e|en)?|nicht mehr) (?P<y2>[A-Za-z][\w.+/-]*)"
    r"|(?P<y3>[A-Za-z][\w.+/-]*)\s*(?:以后|今后)?\s*(?:别再用|不要再用|不再用|弃用|はもう使わない|は使わない|はもう使いません)", _I)
_NOW_IS = re.compile(r"\b(?:agora é|now it'?s|it'?s now|ora è|adesso è|maintenant c'est|ahora es|jetzt ist es|jetzt)\s+"
                     + _Q + r"(?P<x>[\w-]+/)" + _QE + r"|(?:现在是|今は)\s*(?P<x2>[\w-]+/)", _I)
_NOT_ANYMORE = re.compile(r"\b(?:não mais|no longer|not|no more|non più|plus|nicht mehr|ya no)\s+" + _Q + r"(?P<y>[\w-]+/)" + _QE
                          + r"|不再是\s*(?P<y2>[\w-]+/)", _I)
_BRANCH_START = re.compile(r"(?:start|begin|prefix)\w*\s+(?:with|by)\s+" + _Q + r"(?P<x>[\w-]+/)" + _QE
                           + r"|" + _Q + r"(?P<x2>[\w-]+/)" + _QE + r"\s*(?:から始め|で始め|开头|開頭)", _I)
_BRANCH_NAME = re.compile(r"(?:ブランチ|分支|branch\w*|rama|ramo|zweig)", _I)


# "the integration tests are started with `make test-int`", "o deploy é `make deploy-web`",
# "lint は `pre-commit run --all-files` を使ってください": a subject and the command that does it
_CMD_WORD = (r"(?:make|just|task|npm|pnpm|yarn|bun|npx|tox|nox|cargo|go|uv|poetry|pip|python3?|pytest|ruff"
             r"|pre-commit|docker|podman|kubectl|helm|terraform|gradle|\./gradlew|mvn|\./mvnw|bin/\S+|\./\S+"
             r"|scripts/\S+|bundle|rake|rails|mix|dotnet|deno|gh|git|alembic|flyway)")
_CODE_CMD = re.compile(r"`(?P<x>" + _CMD_WORD + r"(?:\s[^`]{0,50})?)`")
_NOT_NOW = re.compile(r"^\W*(?:please|pls|could you|can you|now|then|next|first|puoi|pode|peux|kannst|puedes|请|先)\b"
                      r"|\?\s*$|？\s*$", _I)


def _scope_of(*texts: str) -> str:
    joined = " ".join(texts)
    for rx, phrase in _SUBJECTS:
        if rx.search(joined):
            return phrase
    return ""


def _convention(s: str) -> Lesson | None:
    """A convention or project fact stated outright, with or without a correction around it."""
    m = _FOLLOW.search(s)
    if m and not s.rstrip().endswith("?"):
        x = _item(m.group("x"))
        if _namey(x) or x.lower() in ("conventional commits", "semver", "gitflow", "pep 8", "pep8"):
            scope = _scope_of(s, x) or ("writing commit messages" if "commit" in x.lower() else "working in this project")
            return Lesson("convention", x=x, rule=f"always follow {x}.", scope=scope)
    m = _FOLLOW_ZH.search(s) if _HAS_CJK.search(s) else None
    if m and _namey(_item(m.group("x"))):
        x = _item(m.group("x"))
        return Lesson("convention", x=x, rule=f"always follow {x}.", scope=_scope_of(s, x) or "working in this project")
    if _BRANCH_NAME.search(s):
        m = _BRANCH_START.search(s) or _NOW_IS.search(s)
        if m:
            x = m.group("x") or m.group("x2")
            n = _NOT_ANYMORE.search(s)
            y = (n.group("y") or n.group("y2")) if n else ""
            if y and y != x:
                return Lesson("convention", x=x, y=y, rule=f"always start branch names with `{x}`, never `{y}`.",
                              scope="creating branches")
            return Lesson("convention", x=x, rule=f"always start branch names with `{x}`.", scope="creating branches")
    m = _RUN_WITH.search(s)
    if m and _scope_of(m.group("subj")):
        x = _item(m.group("x"))
        rest = s[m.end():]
        d = _DONT_CALL.search(rest)
        y = _item(d.group("y")) if d else ""
        if x and len(x.split()) <= 4 and y.lower() not in ("", x.lower()):
            return Lesson("convention", x=x, y=y, rule=f"always use `{x}`, never `{y}` directly.",
                          scope=_scope_of(m.group("subj")))
        if x and len(x.split()) <= 4:
            return Lesson("convention", x=x, rule=f"always use `{x}`.", scope=_scope_of(m.group("subj")))
    for sentence in re.split(r"(?<=[.!?;。！？])\s+", s):
        m = _CODE_CMD.search(sentence)
        scope = _scope_of(sentence[:m.start()] + " " + sentence[m.end():]) if m else ""
        if m and scope and not _NOT_NOW.search(sentence) and scope != "writing commit messages":
            x = m.group("x").strip()
            d = _DONT_CALL.search(sentence[m.end():])
            y = _item(d.group("y")) if d else ""
            if y and y.lower() != x.lower() and y.lower() not in x.lower():
                return Lesson("convention", x=x, y=y, rule=f"always use `{x}`, never `{y}` directly.", scope=scope)
            return Lesson("convention", x=x, rule=f"always use `{x}`.", scope=scope)
    m = _ALWAYS_ARE.search(s)
    if m and _scope_of(m.group("subj")) and (re.search(r"[<>/_{}-]|^in ", m.group("x")) or "`" in s):
        subj, x = m.group("subj").strip(), m.group("x")
        scope = _scope_of(subj)
        noun = {"creating branches": "branch names", "writing commit messages": "commit messages"}.get(scope, subj)
        return Lesson("convention", x=x, rule=f"always make sure {noun} are `{x}`." if not x.startswith("in ")
                      else f"always write {noun} {x}.", scope=scope)
    # a change of mind, as people say it
    for rx in _REPLACED:
        m = rx.search(s)
        if m:
            x, y = _display(_item(m.group("x"))), _display(_item(m.group("y")))
            if _namey(x) and _namey(y) and _distinct(x, y) and (category(x, y) or re.search(r"[.\-/]|^[a-z]+$", x)):
                return Lesson("choice", x=x, y=y, reason=_reason(s))
    back = _BACK_TO.search(s) or (_ZH_BACK.search(s) or _JA_BACK.search(s) if _HAS_CJK.search(s) else None)
    forget = _FORGET.search(s) or _NO_LONGER.search(s)
    if back is None and forget is not None:
        back = _NOW_X.search(s[forget.end():])
    if back and _namey(_item(back.group("x"))) and (
            category(_item(back.group("x"))) or forget or _HAS_CJK.search(s) or re.search(
                r"\b(?:we|we'?re|our|us|nós|noi|nous|on|wir|volvemos|voltamos|migramos|mudamos|passamos|torniamo"
                r"|siamo|revient|revenus)\b", s, _I)):
        x = _display(_item(back.group("x")))
        y = _display(_item(next((g for g in forget.groups() if g), "")))[:40] if forget else ""
        if y and not _distinct(x, y):
            y = ""
        return Lesson("choice", x=x, y=y, reason=_reason(s))
    return None


# A retraction: the person takes back what they just asked ("never mind, your way was fine, put it
# back"). Not a lesson, and the rule the previous correction taught goes with it.
RETRACTION = re.compile(
    r"\b(?:never ?mind|forget (?:it|that|what i said)|(?:your|the) (?:way|version|original|first one) was (?:fine|right|better|ok)"
    r"|(?:your|the) (?:\w+ ){0,2}(?:way|version|one|approach|code|solution|attempt)\b[^.!?]{0,60}\bwas (?:fine|ok|okay|right|better|good)"
    r"|(?:ta|la|votre) (?:première |1re )?(?:version|solution|approche)\b[^.!?]{0,60}\b(?:était|allait) (?:bien|bonne|mieux|correcte)"
    r"|(?:la tua|la) (?:prima )?(?:versione|soluzione)\b[^.!?]{0,60}\b(?:andava|era) (?:bene|meglio|giusta)"
    r"|(?:sua|a|tua) (?:primeira )?(?:versão|solução)\b[^.!?]{0,60}\b(?:estava|era) (?:boa|certa|melhor|ok)"
    r"|(?:tu|la) (?:primera )?(?:versión|solución)\b[^.!?]{0,60}\b(?:estaba|era) (?:bien|buena|mejor|correcta)"
    r"|(?:deine|die) (?:erste )?(?:Version|Lösung|Variante)\b[^.!?]{0,60}\bwar (?:doch )?(?:gut|richtig|okay|ok|besser|in Ordnung)"
    r"|you were right|it was fine (?:before|as it was)|keep it as it was|scratch that|scratch the \w+(?:[ -]\w+)? (?:thing|idea|change|part)\b|ignore what i said"
    r"|lascia(?: stare| perdere)|andava bene (?:prima|com'era)|avevi ragione|rimetti (?:com'era|come prima)"
    r"|deixa (?:pra|para) lá|esquece o que eu disse|estava (?:certo|bom) (?:antes|como estava)|você tinha razão|volta como estava"
    r"|laisse tomber|oublie ce que j'ai dit|c'était bien (?:avant|comme ça)|tu avais raison|remets comme avant"
    r"|olvídalo|olvida lo que dije|estaba bien (?:antes|como estaba)|tenías razón|déjalo como estaba"
    r"|vergiss (?:es|das)|war (?:doch )?(?:richtig|gut so|in ordnung)|du hattest recht|mach(?: das)? rückgängig, war"
    r"|lass es wie es war"
    # "do it the way you had it": the agent's own first way, asked back
    r"|(?:the way|like|as) you (?:had (?:it|done it)|did it (?:at first|before|the first time))"
    r"|come (?:avevi fatto|l'avevi fatto|lo avevi fatto)|comme tu (?:avais fait|l'avais fait)|como (?:vc|você|tu) (?:tinha|tinhas) feito"
    r"|como (?:lo )?(?:habías hecho|tenías)|wie du es (?:hattest|gemacht hattest|zuerst hattest)"
    r"|esquece isso|oublie ça|lascia stare quello|olvida eso|vergiss das wieder"
    # "your rebase was ok after all" / "dein rebase war ok" / "il tuo merge andava bene": the agent's
    # first move, said to be fine
    r"|your (?:first |original )?[\w-]+ was (?:fine|ok|okay|right|good)|dein(?:e|en)? [\w-]+ war (?:doch )?(?:ok|okay|gut|richtig|in ordnung)"
    r"|il tuo [\w-]+ (?:andava|era) (?:bene|giusto)|ton [\w-]+ (?:était|allait) (?:bien|bon)|tu [\w-]+ (?:estaba|era) bien"
    r"|(?:seu|teu) [\w-]+ (?:estava|tava) (?:certo|bom|ok))\b"
    r"|撤回|恢复原样|当我没说|那句不算|算了|还是原来的|原来的就好|改回去吧|你是对的|你(?:之前|原来|第一版)的[^。！？]{0,30}(?:就挺好|挺好的|没问题|更好)"
    r"|やっぱり(?:元|前|最初)|元のままで|前のままでいい|そのままでよかった|最初の[^。！？]{0,30}で(?:よかった|いい|大丈夫)"
    # second thoughts: "on second thought, back to yarn", "pensando melhor", "finalement non", "さっきの取り消し"
    r"|\b(?:on second thought|on reflection|pensando melhor|pensándolo (?:mejor|bien)|pensandoci (?:meglio|bene)|ripensandoci"
    r"|à la réflexion|finalement non|en fait non|doch nicht|bei näherer betrachtung)\b"
    r"|さっきの(?:は)?取り消し|(?:の|のまま)ままでいい。?元に戻|のままでいい[^。]{0,10}元に戻|仔细想想|想了想还是", re.I)


# For the learner: a lesson that says it lasts, and the imperative forms of a choice.
LASTING = _LASTING
USE_FORM = re.compile(
    _RX_USE.pattern + "|" + _RX_DONT.pattern + "|" + _RX_INSTEAD.pattern
    # a fact about where things live or what they are called: it holds beyond this task
    + r"|\b(?:lives? in|is called|are called|is named|goes in|belongs in|si chiama|si trova in|se llama|está en"
      r"|s'appelle|se trouve dans|heißt|liegt in|chama-se|se chama|fica em)\b"
    + r"|应该用|要用|改用|请用|使用|を使|で行い|にして", _I)


_USE_ADVERB = re.compile(r"\b(use|usa|usate|usare|utilise|utilisez|utiliza|usad|verwende|nimm|benutze|nutze|usem|use)\s+"
                         r"(?:always|sempre|toujours|siempre|immer|solo|only)\s+", _I)


_ALWAYS_NEVER = re.compile(r"\b(?:always|never|sempre|mai|toujours|jamais|immer|nie|niemals|siempre|nunca|stets)\b"
                           r"|一律|总是|永远|从不|絶対|必ず|常に", _I)
# A name only code has: a path, a flag, a dotted or scoped name, a command with a colon, backticks.
_CODE_NAME = re.compile(r"`[^`]+`|(?<![\w])(?:\.{0,2}/[\w.-]+|--?[a-z][\w-]+|[A-Za-z_]\w*(?:[.:/][A-Za-z_][\w-]*)+)")


def standing_statement(text: str) -> str | None:
    """What a message states for good, when it states a convention or a choice meant to last
    ("we follow Conventional Commits", "use bun from now on", "use pnpm instead of npm") — the
    person teaching the agent whether or not they also said it was wrong. None otherwise."""
    s = " ".join(person_text(text).split())
    if not s or len(s) > 600:
        return None
    said = _standing(s)
    if said and said.startswith("use ") and _asked_about(s, said.split()[-1]):
        return None  # ("chiedimi prima di usare sudo rm" states the person's go-ahead, not "use sudo")
    return said


def _standing(s: str) -> str | None:
    s = _statements(s)  # a question asks, it does not state ("why BTreeMap over HashMap here?")
    if not s.strip():
        return None
    lesson = read_lesson(s)
    if lesson.kind == "convention":
        return lesson.rule
    if lesson.kind == "quote" and FUTURE.search(s):
        return lesson.quote[:100]  # "for next time: always show me the plan first" — meant to last
    if lesson.kind == "quote" and _ALWAYS_NEVER.search(_COMPLAINT.sub(" ", s)) and _CODE_NAME.search(lesson.quote):
        # "non gradle di sistema, sempre ./gradlew", "nie schema:update --force, immer
        # doctrine:migrations:migrate": always / never said of something an action can use
        return lesson.quote[:100]
    if lesson.kind == "choice" and lesson.x and (
            category(lesson.x, lesson.y) or _LASTING.search(s) or _RX_USE.search(s) or _RX_INSTEAD.search(s)
            or _RX_DONT.search(s)):
        return f"use {lesson.x}" + (f", not {lesson.y}" if lesson.y else "")
    return None


def read_lesson(text: str) -> Lesson:
    """The lesson one correcting message states (``text``: the person's own words)."""
    s = " ".join(person_text(text).split())
    if not s:
        return Lesson("none", why_none="the message is empty once pasted material is left out")
    lesson = _read(s)
    if lesson.kind in ("choice", "convention") and lesson.x and _asked_about(s, lesson.x):
        # "ask me before you use sudo rm": what it names is what needs the person's go-ahead — the
        # action the agent ran says which (observe.forbid), never "always use sudo rm"
        return Lesson("none", why_none="the person asks to be asked first: read from the action, not as a choice")
    return lesson


def _asked_about(s: str, item: str) -> bool:
    """``item`` is named in a clause that asks for the person's go-ahead ("chiedimi prima di usare sudo rm")."""
    low, it = s.lower(), item.lower().strip("`")
    for m in ASK_FIRST.finditer(s):
        start = max(0, low.rfind(",", 0, m.start()) + 1, low.rfind(".", 0, m.start()) + 1)
        end = min([i for i in (low.find(",", m.end()), low.find(".", m.end()), low.find(";", m.end())) if i >= 0]
                  or [len(low)])
        if it and it in low[start:end]:
            return True
    return False


def _read(s: str) -> Lesson:
    conv = _convention(s)
    if conv is not None:
        return conv
    # "usa sempre il wrapper ./gradlew": the adverb is no part of what to use
    s = _USE_ADVERB.sub(r"\1", s)
    reason = _reason(s)
    req = _requirement(s)
    if req and not (category(req[1]) and len(req[1].split()) == 1):
        subj, pred, y = req
        return Lesson("require", x=pred, y=y, subject=subj, reason=reason)
    found: tuple[str, str] | None
    if _HAS_CJK.search(s):
        found = _choice_cjk(s)
        head = verb = ""
    else:
        got = _choice_latin(s)
        found = (got[0], got[1]) if got else None
        head, verb = (got[2], got[3]) if got else ("", "")
    if found and found[0] and _MODAL_ANY.search(s) and not category(found[0], found[1]) \
            and not (_namey(found[1]) and len(found[0].split()) == 1) \
            and not re.search(r"\b(?:must|should|needs? to|has to|have to)\b", s, _I):
        found = None  # "il timeout deve essere 30 secondi, non 5": kept in the person's words
    if found and found[0] and not category(found[0], found[1]) and _TASK_OBJECT.search(s) \
            and not _LASTING.search(_COMPLAINT.sub(" ", s)):
        return Lesson("none", why_none=f"it says where to put this one thing ({found[0]}, not "
                      f"{found[1] or 'elsewhere'}) and nothing marks it as meant beyond this task")
    if found and found[0]:
        x, y = found
        subj = head if verb not in ("said", "say", "told you", "use", "using", "prefer", "") else ""
        if _MODAL.search(head + " " + verb) and subj and not category(x, y) and \
                re.match(r"(?:the|all|every|each|our|my)\b", subj, _I):
            return Lesson("require", x=x, y=y, subject=re.sub(r"\s+(?:must|should|needs?|has|have)\b.*$", "",
                                                                 subj, flags=_I), reason=reason)
        return Lesson("choice", x=_display(x), y=_display(y), subject=subj, reason=reason)
    quote = _instruction(s)
    if quote:
        return Lesson("quote", y=found[1] if found else "", quote=quote, reason=reason)
    if found and found[1]:
        return Lesson("none", y=found[1], why_none=f"it says not to use {found[1]} but not what to use "
                      "instead, and nothing marks it as meant beyond this task")
    return Lesson("none", why_none="it reads as about this task only (no \"always/never\", "
                                  "\"from now on\", \"we use …\", \"again\"), so it is not a standing rule")
