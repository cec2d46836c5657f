"""A convention or a change of mind stated outright, read from what the words name *and* what the
agent did with it — not from a list of phrasings.

"heads up we migrated off fly last week, everything goes out with kamal now", "da questo sprint le
api interne sono tutte su /api/v2/", "MLflow はやめて Weights & Biases に移行しました": the person
names things; the agent's actions show which of them is the way now (it ran `kamal deploy`, wrote
`/api/v2/`, swapped `mlflow.log_metric` for `wandb.log`) and which one it left (a removal, the code
it took out, the name the words set aside). Words that mark a name as left ("off", "forget",
"deprecated", "weg", "不用了", "はやめて" …) or as the way ("now", "always", "統一" …) only decide
between names the actions already confirm; a name the agent never touched makes no rule.

A statement teaches only when something marks it as lasting — a convention ("here", "we", "always",
"bei uns", "うちは", "统一"), a change of mind (what is left, and what replaces it) — and never when
the words make it this task's ("this time", "for now"). The agent's last action approved as the way
("ok. per le api interne usiamo sempre /api/v1/, ricordatelo") is a convention too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .lessons import ASK_FIRST, LASTING, RETRACTION, person_text
from .redo import _LANG_OF, ACTIVITIES, COMMON_WORDS, Act, parse_cmd as _parse_cmd, rerun_request

_I = re.IGNORECASE
# a long turn names the same commands and texts many times over: each parsed and matched once
parse_cmd = lru_cache(maxsize=4096)(_parse_cmd)


@dataclass(frozen=True)
class Stated:
    use: str  # what to use, as the agent used it (`kamal deploy`, `/api/v2/`, `wandb`)
    avoid: str  # what not to ('' when the words leave nothing)
    scope: str  # the activity, as a trigger phrase ("deploying")
    change: bool  # a change of mind (something is left for it), not only a convention
    strong: bool = False  # the words themselves say something is left ("forget X", "X is gone")


# -- the names the words hold ------------------------------------------------------------------

_QUOTED = re.compile(r"`([^`\n]{2,80})`")
# a path, a file, a flag, a dotted or joined name, a version, a name with a capital inside
_NAMEY = re.compile(r"(?<![\w/.@-])(?:--?[A-Za-z][\w-]*|[./]?[A-Za-z0-9_@$][\w@$+-]*(?:[./:][\w@$+-]+)*/?)")
# two or three capitalised words one product ("Secrets Manager", "GitHub Actions", "Weights & Biases")
_PRODUCT = re.compile(r"(?<![\w])[A-Z][\w-]+(?:\s+(?:&\s+)?[A-Z][\w-]+){1,2}(?![\w])")
_PLAIN = frozenset("""the and but not was were are this that with your you our all any now off for from
into onto over than then there here they them what when which while who why will would should could
can must need use used using uses run runs ran its it's his her one two new old last next week month
day days year sprint since ago just only also still every each everything nothing thing things way
yes yeah yep okay fine good great thanks please pls fix fixed make made goes going gone live lives
tests test code file files repo project team today monday tuesday friday january february september
october november december il lo la le gli una uno per con che non più mai sempre tutto tutti tutte
ora adesso qui questo questa sono siamo della delle dei del nel nella les des une est sont pour avec
dans sur pas plus tout tous toutes toujours jamais maintenant ici ce cette der die das den dem ein eine
und ist sind mit von für nicht mehr alle alles immer jetzt hier wir uns los las el en es son para con
por sin todo todos todas siempre ahora aquí acá nos os as um uma com sem tudo sempre agora aqui nós
dos das pra não mais seu sua""".split())

# a name is left — said just before it ("forget X", "off X", "不用 X") …
_ART_AFTER = (r"(?:\s+(?:the|il|lo|la|le|les|l'|el|los|las|o|a|os|as|der|die|das|den|dem|du|des|de|do|da|usare"
              r"|use|using))?\s*[`'\"]?$")
_AWAY_BEFORE = re.compile(
    r"(?:(?<![-\w])(?:forget(?:\s+about)?|forgot|drop(?:ped)?|ditch(?:ed)?|ripped(?:\s+out)?|rip\s+out|no\s+more|no\s+longer"
    r"(?:\s+use)?|stop(?:\s+using)?|(?<!%\s)(?<!\d\s)(?<!%)off(?:\s+of)?|away\s+from|(?:moved|migrated|switched|changed|went)\s+"
    r"(?:off|away\s+from|from)|instead\s+of|rather\s+than|replac\w+|dimentica(?:te)?|lascia\s+(?:perdere|stare)"
    r"|niente\s+più|basta(?:\s+con)?|non\s+più|invece\s+di|al\s+posto\s+d[ie]\w*|abbandonat\w*|oublie[rz]?"
    r"|laisse\s+tomber|plus\s+de|au\s+lieu\s+d[eu]|vergiss|statt|anstatt|weg\s+von|von\s+(?:der|dem|den)"
    r"|olvídate\s+de(?:l)?|olvida(?:te)?|nada\s+de|en\s+vez\s+de|en\s+lugar\s+de|ya\s+no|dejamos|esquece|esqueça"
    r"|largamos|abandonamos|em\s+vez\s+d[eoa]|ao\s+invés\s+d[eoa]|chega\s+de|basta\s+de|genug\s+mit|assez\s+de"
    r"|enough\s+(?:of|with)|fini\s+(?:le|la|les))" + _ART_AFTER +
    r"|(?:弃用|废弃|淘汰|换掉|而不是|代替|不再用|别再用)\s*$)", _I)
# … or only denied ("not X", "mai X", "不要 X"): left only when the agent had used it
_NOT_BEFORE = re.compile(
    r"(?:\b(?:not|never|no|don'?t(?:\s+use)?|do\s+not(?:\s+use)?|mai|non(?:\s+usare)?|jamais|pas(?:\s+de)?|kein\w*"
    r"|nicht|nie|nunca|no\s+uses?|não(?:\s+use)?)" + _ART_AFTER + r"|(?:不用|不要用|不要|别用|別用)\s*$)", _I)
# … or just after it ("X is gone", "X è deprecata", "X ist raus", "X はやめて", "X 那套不用了")
_AWAY_AFTER = re.compile(
    r"^[`'\"]?\s*(?:(?:is|was|are)\s+(?:gone|out|dead|deprecated|retired|removed|history)|deprecated|no\s+longer"
    r"|(?:is\s+)?not\s+any\s*more|any\s*more|anymore|non\s+(?:più|c'è più|esiste più)|(?:è|sono)\s+(?:deprecat\w*"
    r"|mort\w*|sparit\w*|andat\w*)|n'existe\s+plus|c'est\s+fini|est\s+(?:mort|déprécié\w*|abandonné\w*|fini)"
    r"|(?:on\s+)?l'a\s+viré|viré|(?:ist|sind)\s+(?:raus|weg|tot|abgelöst|veraltet)|raus|weg|nicht\s+mehr"
    r"|(?:está|están)\s+(?:deprecad\w*|muert\w*)|ya\s+no|se\s+(?:eliminó|fue|murió)|já\s+era|saiu|foi\s+(?:removid\w*"
    r"|descontinuad\w*)|não\s+existe\s+mais|(?:está|estão)\s+deprecad\w*"
    r"|(?:那套|这套|那个)?\s*(?:不用了|不再用|已经弃用|弃用了|废弃了|别再动|别再用|不要再用|下线了|不要了)"
    r"|(?:la|lo|li|le)?\s*spegn\w*|(?:la|lo|li|le)?\s*spengono|(?:is|are)\s+(?:being\s+)?(?:shut\s+down|sunset\w*"
    r"|switched\s+off|turned\s+off)|wird\s+abgeschaltet|est\s+éteint\w*|se\s+apaga\w*|(?:será|vai\s+ser)\s+desligad\w*"
    r"|(?:ist|sind)\s+(?:\S+\s+){0,4}?(?:raus|weg|tot)\b|(?:is|are|was)\s+(?:\S+\s+){0,3}?(?:gone|out|dead)\b"
    # "buildah nutzen wir nicht mehr", "altair lasciamolo perdere", "zustand lo dejamos", "o yarn a gente largou"
    r"|(?:nutzen|benutzen|verwenden|brauchen|nehmen)\s+wir\s+(?:\S+\s+){0,2}?(?:nicht\s+mehr|kaum\s+noch)\b"
    r"|lasciam\w*\s+perdere|(?:lo|la)\s+lasciamo\s+(?:perdere|stare)|(?:lo|la)\s+(?:dejamos|abandonamos)\b"
    r"|(?:we\s+)?(?:don'?t|no\s+longer)\s+use\s+(?:it|that)\s+any\s*more"
    r"|(?:要)?下线|停用|\s*(?:は|を|の方は)?[^。、,]{0,8}?(?:やめ|廃止|解約|もう使わ|使わない|使いません|ではなく|じゃなくて|はダメ))(?![A-Za-z])", _I)
# … a verb after it that sets it aside ("buildah nutzen wir nicht mehr", "altair lasciamolo perdere"):
# as good as one before it — never "that rule is gone", which names no tool
_LEFT_AFTER_VERB = re.compile(
    r"^[`'\"]?\s*(?:(?:nutzen|benutzen|verwenden|brauchen|nehmen)\s+wir\s+(?:\S+\s+){0,2}?(?:nicht\s+mehr|kaum\s+noch)\b"
    r"|lasciam\w*\s+perdere|(?:lo|la)\s+lasciamo\s+(?:perdere|stare)|(?:lo|la)\s+(?:dejamos|abandonamos)\b"
    r"|(?:we\s+)?(?:don'?t|no\s+longer)\s+use\s+(?:it|that)\s+any\s*more)", _I)
# … a name is the way: said just before it ("everything goes out with X now", "tutte su X", "改用 X")
_TOWARD_BEFORE = re.compile(
    r"(?:\b(?:use|uses|using|with|via|through|thru|is|are|on|to|in|into|now|always|only|everything\s+is"
    r"|(?:moved|migrated|switched|changed|went|upgraded)\s+to|usiamo|usa|usare|con|su|tramite|passati\s+ad?|via"
    # "migramos el estado a jotai", "migrei os testes pro vitest", "abbiamo migrato tutto su X"
    r"|migr\w*\s+(?:\S+\s+){0,3}?(?:a|al|ad|à|au|para|pro|pra|auf|zu|to|su|sur)"
    r"|utilise[rz]?|avec|par|sur|passés?\s+(?:sur|à)|c'est|nutzen|nehmen|mit|über|auf|in|nur\s+noch|usamos"
    r"|usa[rn]?|en|sale\s+de|desde|por|com|no|na|é|agora\s+é|da|dal|dalla|per|durch|pelo|pela|através\s+de|sous|under|unter|bajo|sotto|dentro(?:\s+d[ie])?|inside|within|dans|aus|from|vengono\s+da|viennent\s+de|vienen\s+de|vêm\s+d[eoa]|vai\s+(?:no|na|pro|pra)|ora|adesso|maintenant"
    r"|désormais|jetzt|nun|ahora|agora)(?:\s+(?:the|il|lo|la|le|les|l'|el|los|las|o|a|os|as|der|die|das|den|dem"
    r"|du|des|de|do|da|tutto|tutte|tout|alles|todo|tudo))?(?:\s+(?:always|sempre|toujours|immer|siempre|only|solo|nur))?"
    r"\s*[`'\"]?$"
    r"|(?:改用|换成|換成|切换到|迁移到|升级到|统一用|统一到|写到|放到|都在|都用|只用|现在是|现在用|用|走|通过|は|で)\s*$)", _I)
_TOWARD_AFTER = re.compile(
    r"^[`'\"]?\s*(?:now|from\s+now\s+on|only|ora|adesso|d'ora\s+in\s+poi|maintenant|désormais|jetzt|ab\s+jetzt"
    r"|ahora|agora|a\s+partir\s+de\s+agora|\s*(?:に移行|を使|に統一|で統一|に切り替え|へ移行|です|にしました))", _I)

# a convention: words that say the way of this place, of this team, of every time
_CONVENTION = re.compile(
    r"\b(?:here|we|we're|our|ours|in\s+this\s+(?:repo|repository|project|codebase|team|monorepo)|always|never"
    r"|every|everything|all|only|live|lives|belongs?|goes\s+(?:in|out|to|through)|go\s+(?:in|through)"
    r"|da\s+noi|qui|noi|usiamo|sempre|mai|tutt[ie]|ogni|vanno|va\s+(?:in|su)|chez\s+nous|ici|on\s+(?:utilise|passe|fait|met|écrit|est)|toujours|jamais"
    r"|tou[ts]|toutes|chaque|bei\s+uns|hier|wir|immer|nie|alle|alles|jede[rsnm]?|gehören|kommen\s+aus"
    r"|aquí|acá|nosotros|usamos|siempre|nunca|todos|todas|cada|van\s+(?:en|a)|aqui|a\s+gente|sempre|todo|toda"
    r"|vão|vai|desde|since|from\s+now\s+on|d'ora\s+in\s+poi|désormais|ab\s+jetzt|a\s+partir\s+de)\b"
    r"|我们|我們|这里|這裡|统一|統一|一律|所有|每个|每個|都|以后|今后"
    r"|うちは|うちの|このリポジトリ|全部|必ず|いつも|常に|すべて|今は|今後", _I)
# this task only: never a standing rule, whatever the actions show
_THIS_TIME = re.compile(
    r"\b(?:this\s+time|for\s+now|just\s+(?:this\s+once|here|for\s+this)|only\s+for\s+this|per\s+(?:ora|questa\s+volta)"
    r"|questa\s+volta|stavolta|pour\s+l'instant|cette\s+fois|por\s+ahora|esta\s+vez|por\s+enquanto|desta\s+vez"
    r"|dessa\s+vez|diesmal|vorerst|fürs\s+erste|só\s+(?:n(?:esse|essa|este|esta)|aqui|pra\s+(?:esse|essa))"
    r"|only\s+(?:in|on|for)\s+(?:this|that)|solo\s+(?:en|para|in|per)\s+(?:est[eoa]|quest[oa])|nur\s+(?:in|für)\s+diese[mnrs]?"
    r"|seulement\s+(?:dans|pour)\s+(?:ce|cette)|not\s+(?:that|this)\s+one|the\s+other\s+one|non\s+quell[oa]|pas\s+celui-là"
    r"|nicht\s+(?:die|der|das)\s+(?:da|hier)|no\s+ese|não\s+esse|temporar\w*|temporane\w*|temporári\w*|temporaire\w*|vorübergehend)\b"
    r"|这次|這次|今回|とりあえず|暂时|先这样", _I)
_AND = re.compile(r"[`'\"]?\s*(?:,|and|or|y|e|et|und|oder|o|ou|和|与|跟|や|と|、|/)\s*(?:de|del|di|of|du|des|do|da|von|the|il|la|le|el|o|a)?\s*[`'\"]?", _I)
_PORTUGUESE = re.compile(r"\b(?:não|você|isso|aqui|agora|pra|está|também|então|essa|esse|tudo|mão|seção|gente)\b", _I)
# a clause with its closing mark ("为啥这里用 Select 比 Omit 好？" stays a question)
_SENTENCE = re.compile(r"(?:[^.;!?:。；！？\n]|[.;!?:](?!\s|$))+(?:[.;!?:]+(?=\s|$)|[。；！？]+)?")
_ERRORISH = re.compile(r"\b(?:error|errno|cannot|can't|failed|fatal|exception|traceback|denied|refused|panic)\b", _I)
_QUESTION = re.compile(r"[?？]\s*$")


def _names(text: str) -> list[tuple[str, int]]:
    """The names the words hold, with where each starts: quoted spans first, then products of
    several capitalised words, then single names (a longer name wins over a name inside it)."""
    out: list[tuple[str, int]] = []
    taken: list[tuple[int, int]] = []

    def add(name: str, start: int) -> None:
        end = start + len(name)
        if any(s <= start and end <= e for s, e in taken):
            return
        out.append((name, start))
        taken.append((start, end))

    quoted = [(m.group(1).strip(), m.start(1)) for m in _QUOTED.finditer(text)]
    out.extend(quoted)  # a quoted span, and the names inside it when the span is more than one
    for m in _PRODUCT.finditer(text):
        if m.group(0).split()[0].lower() not in _PLAIN:
            add(m.group(0), m.start())
    for m in _NAMEY.finditer(text):
        w = m.group(0).rstrip(".:,")
        if len(w) < 2 or w.lower() in _PLAIN or w.isdigit() or (len(w) < 3 and not re.search(r"[\d/.-]", w)):
            continue
        add(w, m.start())
    return sorted(out, key=lambda p: p[1])


# "trocou dayjs por date-fns", "replaced moment with luxon", "把 yarn 换成 pnpm": one name for the other
_SWAP = re.compile(
    r"\b(?:replac\w*|swapp?\w*|switch\w*|chang\w*|trocamos|trocou|troquei|troca(?:mos)?|substitu\w*|sostituit\w*"
    r"|cambiat\w*|remplac\w*|changé|cambiamos|cambió|reemplaz\w*|ersetzt|getauscht|ausgetauscht)"
    r"\s+(?:\w+\s+){0,2}?[`'\"]?(?P<x>[\w@./:+-]+)[`'\"]?\s+(?:with|for|by|por|pelo|pela|con|col|par|durch|mit|gegen)\s+"
    r"(?:the\s+|o\s+|a\s+|il\s+|le\s+|el\s+|den\s+|das\s+)?[`'\"]?(?P<y>[\w@./:+-]+)"
    r"|(?:把|从|從)\s*(?P<x2>[\w@./:+-]+)\s*(?:换成|改成|替换成|换为|迁移到|迁到|切换到|換成|改用)\s*(?P<y2>[\w@./:+-]+)"
    r"|(?P<x3>[\w@./:+-]+)\s*(?:を|から)\s*(?P<y3>[\w@./:+-]+)\s*(?:に置き換え|に変え|に移行|へ移行|に切り替え)", _I)
# a time reference: "seit dem rails-8-upgrade", "since the october refactor", "depuis la 3.0"
# "oublie le bucket", "forget the dashboard": a noun, not the name of a tool ("off fly", "oublie kubectl")
_ARTICLE_BEFORE = re.compile(r"\b(?:the|a|an|il|lo|la|le|les|l'|el|los|las|o|os|as|der|die|das|den|dem|du|des)\s*$", _I)
_WHEN_BEFORE = re.compile(r"\b(?:seit\s+(?:dem|der)|since\s+the|depuis\s+(?:le|la|l')|desde\s+(?:el|la|o|a)"
                          r"|dal(?:la)?|da\s+quando|after\s+the|nach\s+dem)\s*$", _I)


def _swapped(clause: str) -> dict[int, str]:
    """Where a swap said in words puts its two names: {start: "away" | "toward"}."""
    out: dict[int, str] = {}
    for m in _SWAP.finditer(clause):
        for x, y in (("x", "y"), ("x2", "y2"), ("x3", "y3")):
            if m.group(x) and m.group(y):
                out[m.start(x)] = "away"
                out[m.start(y)] = "toward"
    return out


def _codeish(name: str, clause: str, at: int, then: _Done, now: _Done) -> bool:
    """A name written as code: quoted, a path, a flag, dotted, joined, versioned, with a capital
    inside — or a program the agent ran."""
    if clause[max(0, at - 1):at] == "`" or re.search(r"[/._@:$-]|\d|[a-z][A-Z]", name) or _PRODUCT.fullmatch(name):
        return True
    progs = {c.prog.lower() for c in map(parse_cmd, then.cmds + now.cmds) if c is not None}
    return name.lower() in progs


def _a_library(name: str, *done: _Done) -> bool:
    """A lowercase word the agent's code imports or its commands install or run (`pino`, `dio`)."""
    n = re.escape(name.lower())
    text = "\n".join(d.used for d in done).lower()
    return re.search(rf"(?:^|\n)\s*(?:import|from|require|use|using|@import)\b[^\n]*?\b{n}\b"
                     rf"|require\(\s*['\"]@?{n}\b|['\"]@?{n}[-'\"/]", text) is not None or any(
        c is not None and (c.prog.lower() == name.lower() or c.activity == "install" and name.lower() in (a.lower() for a in c.args)
                           or any(w == name.lower() or w.startswith(name.lower() + "-")
                                  for w in c.tool.lower().split()[1:2]))  # `npx changeset`, `npx drizzle-kit`
        for c in map(parse_cmd, [x for d in done for x in d.cmds]))


def _programs(cmds: tuple[str, ...]) -> frozenset[str]:
    """The programs the commands run, and the tool an `npx`-like runner runs."""
    progs = set()
    for text in cmds:
        w = text.split()
        if w:
            progs.add(w[0].rsplit("/", 1)[-1].lower())
            if w[0] in ("npx", "bunx", "pnpx", "uvx") and len(w) > 1:
                progs.add(w[1].lower())
    return frozenset(progs)


def _short_programs(clause: str, progs: frozenset[str]) -> list[tuple[str, int]]:
    """Two-letter names the words hold that are programs the agent ran (`nx`, `uv`, `gh`): too short
    to be a name by their shape alone."""
    return [(m.group(0), m.start()) for m in re.finditer(r"(?<![\w./-])[a-z]{2}(?![\w./-])", clause)
            if m.group(0) in progs and m.group(0) not in _PLAIN]


def _as_run(clause: str, at: int, name: str, cmds: tuple[str, ...]) -> str:
    """"alembic revision --autogenerate" said unquoted, as the agent ran it: the words from the name
    on that match the command word for word (two at least), not the program alone."""
    said = clause[at:].split()
    best = name
    for text in cmds:
        ran = text.split()
        for start in range(len(ran)):
            if ran[start].lower().strip("`") != said[0].lower().strip("`,"):
                continue
            k = 0
            while k < len(said) and start + k < len(ran) and said[k].strip("`,.;:").lower() == ran[start + k].lower():
                k += 1
            if k >= 2 and len(" ".join(said[:k])) > len(best):
                best = " ".join(w.strip("`,.;:") for w in said[:k])
    return best


def _specific(name: str) -> int:
    """0 for a path, a file or a command line (`api/openapi.yaml`), 1 for a bare name (OpenAPI)."""
    return 0 if re.search(r"/|\.\w{1,5}$|\s", name) else 1


def _only_a_path(name: str, acts: list[Act]) -> bool:
    return not any(_in(name, a.command if a.kind == "run" else a.new) for a in acts)


@lru_cache(maxsize=8192)
def _fold(s: str) -> str:
    return re.sub(r"[\s&_-]+", "", s.lower())


# -- what the agent did with them --------------------------------------------------------------

@dataclass(frozen=True)
class _Done:
    used: str  # what the agent's actions brought in: commands run, names written, files created
    left: str  # what they took out: removals, code replaced, files deleted or moved away
    cmds: tuple[str, ...]  # the commands that brought something in


def _done(acts: list[Act]) -> _Done:
    used: list[str] = []
    left: list[str] = []
    cmds: list[str] = []
    for a in acts:
        if a.kind == "run":
            c = parse_cmd(a.command)
            if c is None:
                continue
            if c.activity == "remove" or c.prog in ("rm", "git") and c.sub in ("rm", "") or c.prog == "rm" or (
                    c.prog == "git" and (c.sub == "restore" or c.sub == "checkout" and "--" in c.words)):
                # (`git checkout -- prisma/schema.prisma`: the agent's change taken back, not a way used)
                left.append(a.command)
            elif c.prog == "git" and c.sub == "mv" or c.prog == "mv":
                ops = [w for w in c.words[1:] if not w.startswith("-") and w != "mv"]
                left.extend(ops[:-1])
                used.extend(ops[-1:])
            else:
                used.append(a.command)
                cmds.append(a.command)
        elif a.kind == "edit":
            old_lines = set(a.old.splitlines())
            new_lines = set(a.new.splitlines())
            used.append(a.path)
            used.extend(ln for ln in a.new.splitlines() if ln not in old_lines)
            left.extend(ln for ln in a.old.splitlines() if ln not in new_lines)
        elif a.kind == "write":
            used.extend((a.path, a.new))
    return _Done("\n".join(used), "\n".join(left), tuple(cmds))


@lru_cache(maxsize=8192)
def _in(name: str, text: str) -> bool:
    if not name or not text:
        return False
    low = text.lower()
    n = name.lower().strip("`'\"")
    if len(n) >= 3 and n in low:
        return re.search(rf"(?<![\w]){re.escape(n)}", low) is not None or "/" in n
    if len(n) == 2 and re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", low):
        return True
    words = n.split()
    if len(words) >= 3 and re.fullmatch(r"[a-z][\w.-]*", words[0]) and re.search(
            rf"(?:^|\n|&&\s*|;\s*){re.escape(words[0])}\s+{re.escape(words[1])}\b", low):
        return True  # `kubectl apply -k overlays/prod` for the agent's `kubectl apply -k deploy/overlays/prod`
    f, folded = _fold(n), _fold(low)
    if len(f) >= 6 and f in folded:
        return True
    # "AWS Secrets Manager" for `boto3.client("secretsmanager")`: the product by its last words
    parts = n.split()
    return len(parts) >= 3 and len(_fold(" ".join(parts[1:]))) >= 6 and _fold(" ".join(parts[1:])) in folded


def _replacement(avoid: str, acts: list[Act]) -> str:
    """The library the agent's edit put where the left name was (`mlflow.log_metric(…)` rewritten as
    `wandb.log(…)`: wandb) — when the words name what is left and not what replaces it as written."""
    heads: dict[str, int] = {}
    for a in acts:
        if a.kind != "edit" or not _in(avoid, a.old):
            continue
        old = a.old.lower()
        for ln in a.new.splitlines():
            if ln in a.old:
                continue
            for m in re.finditer(r"(?<![\w.])([A-Za-z_][\w]{1,30})\.[A-Za-z_]\w*\s*\(|^\s*import\s+([A-Za-z_]\w*)", ln):
                h = (m.group(1) or m.group(2) or "")
                if h and h.lower() not in old and h.lower() not in ("self", "this", "os", "sys", "json", "re"):
                    heads[h] = heads.get(h, 0) + 1
    return max(heads, key=lambda h: heads[h]) if heads else ""


# an away word negated: "don't turn off strict-ssl", "nie das Flag weglassen" — the name is kept
_NEGATED_AWAY = re.compile(r"\b(?:don'?t|do\s+not|never|nunca|jamais|mai|nie|nicht|não|no|non)\s+(?:\w+\s+){0,2}?"
                           r"(?:turn(?:ing)?\s+off|switch(?:ing)?\s+off|off|drop|stop(?:\s+using)?|forget|ditch|remove|disable)"
                           r"\s*(?:the\s+)?[`'\"]?$|(?:不要|别)(?:关|关掉|去掉|删掉)\s*$", re.I)


# "we're back on docker", "wieder zurück bei docker", "di nuovo su", "on revient à", "de volta ao":
# the way named is a change of mind by itself — whatever was used since is left
_BACK_TO = re.compile(r"(?:\b(?:back (?:on|to)|(?:wieder )?zurück (?:bei|zu[mr]?|auf)|di nuovo (?:su|a|con)|torniamo (?:a|su)"
                      r"|on revient (?:à|au|sur)|retour (?:à|au|sur)|de volta (?:ao?|pro|pra)|voltamos (?:ao?|pro|pra)"
                      r"|volvemos a|de vuelta a)\s+(?:the |il |lo |la |le |el |o |a |der |die |das |dem |den )?`?$)"
                      r"|(?:また|再び)$|又回到$|回到$", re.I)


# a task runner said just before a target's name: `make db-migrate`, `npm run lint`, `just seed`
_RUNNER_BEFORE = re.compile(r"(?<![\w-])(make|just|task|rake|mage|npm run|yarn(?: run)?|pnpm(?: run)?|bun run|poetry run"
                            r"|uv run|bundle exec|tox -e|nox -s|invoke)\s+`?$")


def _command_form(name: str, cmds: tuple[str, ...], said: str = "") -> str:
    """"kamal" named, `kamal deploy -d staging` run: `kamal deploy` — the program with its subcommand;
    a flag with the subcommand it was given to (`plan -out` of `terraform plan -out=tfplan`)."""
    if name.startswith("-"):
        for text in cmds:
            parts = text.split()
            for i, part in enumerate(parts[1:], 1):
                if part.split("=", 1)[0] == name and re.fullmatch(r"[a-z][a-z-]{1,14}", parts[i - 1]):
                    return f"{parts[i - 1]} {name}"
        return name
    for text in cmds:
        w = text.split()
        if len(w) > 2 and w[0] in ("npx", "bunx", "pnpx", "uvx") and w[1].lower() == name.lower().strip("`") \
                and re.fullmatch(r"[a-z][a-z-]{1,14}", w[2]) and f"{w[1]} {w[2]}".lower() in said.lower():
            return f"{w[1]} {w[2]}"  # `npx nx run ui:test` and "nx run" said: the tool with its subcommand
        c = parse_cmd(text)
        if c is None or c.prog.lower() != name.lower().strip("`"):
            continue
        w = list(c.words)
        if len(w) > 1 and re.fullmatch(r"[a-z][a-z-]{1,14}", w[1]):
            return f"{c.prog} {w[1]}"
        return c.prog
    return name


def _scope(use: str, done: _Done, acts: list[Act]) -> str:
    for text in done.cmds:
        c = parse_cmd(text)
        if c is not None and _in(use.split()[0], text):
            if c.activity in ACTIVITIES:
                return ACTIVITIES[c.activity]
            if c.prog in ("terraform", "tofu", "terragrunt", "pulumi", "cdk"):
                return "changing infrastructure"
            if c.sub in ("deploy", "sync", "apply", "upgrade", "release", "rollout") or c.prog in ("kamal", "argocd", "fly", "flyctl"):
                return "deploying"
    for a in acts:
        if a.kind in ("edit", "write") and (_in(use, a.new) or _in(use, a.path)):
            lang = next(  # the file's language names what was being written
                (v for k, v in _LANG_OF.items() if a.path.endswith(k)), "")
            if lang:
                return f"writing {lang} code"
            if re.search(r"\.(?:ya?ml|json|toml|ini|cfg|conf|env)$", a.path):
                return "editing configuration"
            if re.search(r"\.(?:md|rst|adoc|txt)$", a.path):
                return "writing docs"
            return "adding files to this project"
    return "working in this project"


def stated(text: str, before: list[Act], after: list[Act]) -> Stated | None:
    """The rule a message states for good, as the agent's actions confirm it; None when the words
    mark nothing as lasting, make it this task's, ask a question, or name nothing the agent did."""
    s = " ".join(person_text(text or "").split())
    if not s or len(s) > 600 or _THIS_TIME.search(s) or RETRACTION.search(s):
        return None  # this task's, or the person taking back what they said (the retraction's to read)
    if ASK_FIRST.search(s):
        return None  # "chiedimi prima di usare sudo rm": the person's go-ahead first, never "always use sudo rm"
    clauses = [m.group(0) for m in _SENTENCE.finditer(s) if m.group(0).strip()]
    if clauses and all(_QUESTION.search(c) for c in clauses):
        return None
    if any(_ERRORISH.search(q) for q in _QUOTED.findall(s)) and not _AWAY_BEFORE.search(s):
        return None  # an error pasted for the agent to look at ("kommt bei mir das hier: `Cannot connect …`")
    now, then = _done(after), _done(before)
    away: list[tuple[int, str]] = []  # (rank, name): what the agent had used first
    strong = False
    versions: list[str] = []
    portuguese = bool(_PORTUGUESE.search(s))
    toward: list[tuple[int, int, str]] = []  # (rank, specificity, name): marked as the way first
    maybe_away: list[str] = []  # a plain word said as left after an article ("esquece o argocd")
    back = False  # "we're back on X": a change of mind toward X
    ran = _programs(now.cmds + then.cmds)
    for clause in clauses:
        if _QUESTION.search(clause):
            continue
        last_away = -1
        swaps = _swapped(clause)
        for name, at in _names(clause) + _short_programs(clause, ran):
            pre, post = clause[max(0, at - 40):at], clause[at + len(name):at + len(name) + 30]
            had = _in(name, then.used + "\n" + then.left + "\n" + now.left)
            code = _codeish(name, clause, at, then, now)
            if re.fullmatch(r"v?[\d.]+", name):
                if _AWAY_BEFORE.search(pre) or _AWAY_AFTER.search(post):
                    versions.append(name)  # "la v1 è deprecata": a version left, named by itself
                continue  # a bare version ("2.0", "v1") is no way of working by itself
            gap = clause[last_away:at] if last_away >= 0 else ""
            if _WHEN_BEFORE.search(pre):
                continue  # "seit dem rails-8-upgrade", "since the october refactor": when, not what
            swapped = swaps.get(at)
            if _BACK_TO.search(pre) and (_in(name, now.used) or _in(name, then.used)):
                back = True
                toward.append((0, _specific(name), _as_run(clause, at, name, now.cmds or then.cmds)))
                continue
            if swapped == "toward":
                toward.append((0, _specific(name), _as_run(clause, at, name, now.cmds)))
                continue
            if _NEGATED_AWAY.search(pre):
                continue  # "don't turn off strict-ssl", "never drop the index": kept, not left
            said_left = bool(swapped == "away" or _AWAY_BEFORE.search(pre))
            if said_left or _AWAY_AFTER.search(post) or gap and _AND.fullmatch(gap):
                last_away = at + len(name)  # "olvídate del .env y de dotenv": both are left
                if had or code or name[:1].isupper() or swapped == "away" or said_left and not _ARTICLE_BEFORE.search(pre):
                    away.append((0 if had else 1, name))  # the words say it is left, whatever the actions
                elif (said_left or _LEFT_AFTER_VERB.match(post)) and re.fullmatch(r"[a-z][a-z0-9-]{2,15}", name) \
                        and name not in COMMON_WORDS:
                    # (said left before it — "esquece o argocd" — or after — "buildah nutzen wir nicht mehr")
                    maybe_away.append(name)  # "esquece o argocd": left if the way named is a program too
                # (a plain word the agent never used is left only when a verb says so before it — "off
                # fly", "oublie kubectl"; "spec/ gibts nicht mehr" names nothing left)
                strong = True
                continue
            if _NOT_BEFORE.search(pre) and not (portuguese and re.search(r"\bn[oa]s?\s*[`'\"]?$", pre, _I)):
                # (Portuguese "no CHANGELOG.md", "na pasta": in the, never a "no")
                if had:
                    away.append((0, name))  # "not npm": left only when the agent had used it
                continue
            marked = bool(_TOWARD_BEFORE.search(pre) or _TOWARD_AFTER.search(post))
            if not code and not (marked and (name[:1].isupper() or _a_library(name, now, then))):
                continue  # a plain word the agent happened to write ("sur main", "en root"): no name of a way
            if _in(name, now.left) and not _in(name, "\n".join(now.cmds)):
                continue  # on the line the agent rewrote, kept: the context of the change, not the change
            if _in(name, now.used) and (not _in(name, then.used) or not now.left or (
                    (said_run := _as_run(clause, at, name, now.cmds)) != name and not _in(said_run, then.used))):
                # (`bin/rails db:migrate` ran before, `bin/rails generate migration` only now: the way said)
                if not marked and _only_a_path(name, after):
                    continue  # the file the person asks to fix, not a way of working
                name = _as_run(clause, at, name, now.cmds)
                toward.append(((0 if marked else 2) + (0 if code else 1), _specific(name), name))
            elif not after and _in(name, then.used) and marked:
                name = _as_run(clause, at, name, then.cmds)
                toward.append((4 + (0 if code else 1), _specific(name), name))  # the agent's last action, approved
    progs = {c.prog.lower() for c in map(parse_cmd, now.cmds) if c is not None}
    if maybe_away and any(t[2].split()[0].strip("`").lower() in progs or _a_library(t[2], now) for t in toward):
        # (… or the way named is a library the agent then brought in: "altair lasciamolo perdere" and
        # `from plotnine import …`)
        # "esquece o argocd, migramos pro flux" and the agent ran `flux reconcile`: one program for another
        away += [(1, n) for n in maybe_away if n.lower() not in progs]
    away.sort(key=lambda p: p[0])
    left_names = [a for _r, a in away]
    # "largamos o prisma … o schema.prisma é só lixo": a name of what is left is no way to use
    toward = [t for t in toward if not any(len(_fold(a)) >= 4 and _fold(a) in _fold(t[2]) for a in left_names)]
    change = bool(away) or back
    strong = strong or back
    if not toward and away:
        # the words name what is left; the edit shows what took its place
        rep = next((r for r in (_replacement(a, after) for a in left_names) if r), "")
        if rep:
            toward.append((1, 0, rep))
    if not toward:
        return None
    # "sur argocd … puis `argocd app sync`": the longer name said for the same thing, at the better rank
    for i, (r, _sp, n) in enumerate(toward):
        longer = [m for _r, _s, m in toward if len(m) > len(n) and _fold(m).startswith(_fold(n))]
        if longer:
            m = max(longer, key=len)
            toward[i] = (r, 0, m)
    said_order = list(toward)
    toward.sort(key=lambda p: (p[0], p[1]))
    use = toward[0][2].strip("`'\"")
    if toward[0][0] in (2, 3) and not change and len(toward) > 1:
        if not _CONVENTION.search(s):
            return None  # several names brought in, none marked as the way: more work, not a rule
        # "todas las llamadas … acá llevan el header X-GitHub-Api-Version: 2022-11-28 y Accept …": a
        # convention that names several things the agent then wrote — the first said is its subject
        use = next(t for t in said_order if t[0] == toward[0][0])[2].strip("`'\"")
    for v in versions:
        # "/api/v2/ … la v1 è deprecata": what is left is the same name at the older version
        at_v = re.search(rf"(?<![A-Za-z0-9]){re.escape(v[0])}\d[\d.]*" if v[0] == "v" else r"(?<![\w.])\d+(?:\.\d+)*", use)
        if at_v and at_v.group(0) != v:
            left_names.append(use[:at_v.start()] + v + use[at_v.end():])
            strong = change = True
    if not strong and not (_CONVENTION.search(s) or LASTING.search(s)) or not change and rerun_request(s):
        return None  # a name the agent used, said with nothing that makes it last, or a rerun asked: this task's
    avoid = next((a.strip("`'\"") for a in left_names if _fold(a) not in _fold(use) and _fold(use) not in _fold(a)), "")
    cmds = now.cmds or then.cmds
    use = _command_form(use, cmds, s)
    if (runner := _RUNNER_BEFORE.search(s[:max(0, s.find(use))])) and not use.startswith(runner.group(1)):
        use = f"{runner.group(1)} {use}"  # "über make db-migrate": the target with the program that runs it
    if avoid:
        avoid = _command_form(avoid, then.cmds)
    scope = _scope(use, now if after else then, after or before)
    if back and not avoid:
        return Stated(use, "", scope, True, True)  # what it replaces is the older rule's to say
    return Stated(use, avoid, scope, bool(avoid), strong and bool(avoid))
