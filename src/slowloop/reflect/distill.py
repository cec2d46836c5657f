"""The embedded default: an offline distiller — no network, no model.

It turns two kinds of evidence into imperative when–then rules:
- a person's correction (``lessons.read_lesson`` reads what it says to do, in the eight languages
  the detector knows) → a rule in the memo's "plays" section, scoped by what it is about or by what
  the agent was doing ("When making HTTP requests in this project, always use httpx, never
  requests."); where no clean imperative can be built, the rule keeps the person's instruction in
  their own words; a one-off about this task only is no rule, and the notes say why;
- a real error the agent recovered from within the turn (`python` not found → `python3` worked;
  a missing module → installed → the tests pass) → a rule in a skill named after the activity,
  built from the commands only (what the failing tool printed is never quoted into a rule).
A repeat strengthens the rule it repeats (a visible count, and a pitfall in the memo's strengths
section once it was needed twice); a newer choice about the same thing replaces the older rule (in
the history, undoable); no two contradicting rules stay side by side.

What it cannot do, and says so: generalise across different situations, infer preferences the user
never stated, write procedures longer than one rule, or retire skills. Configure a model
(``[provider]``) for that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..observe.focus import focus, library_swap, whole_swap
from ..observe.forbid import Forbidden, forbidden
from ..observe.lessons import (
    ASK_FIRST_STRICT,
    CONDITIONAL,
    FUTURE,
    LASTING,
    LASTING as _STANDING_MARK,
    RETRACTION,
    USE_FORM as _USE_FORM,
    Lesson,
    category,
    person_text,
    read_lesson,
)
from ..observe.named import code_spans, mentions, spaced, widen
from ..observe.observe import asks_more, named_by
from ..observe.redo import (
    COMPARE,
    HOW_ASKED,
    Redo,
    asked_for,
    command_head,
    find_redo,
    follow_up,
    install_words,
    masked,
    parse_cmd,
    points_at,
    rerun_request,
    self_blame,
    turn_acts,
)
from ..observe.said import clause_of, said_redo
from ..observe.stated import Stated, stated
from ..safety.posture import COMMAND_FORMS
from ..safety.redact import redact
from ..text import CHINESE_JAPANESE, similar
from ..transcripts.anthropic import refusal_reason
from ..transcripts.model import ToolCall, Turn
from .actions import Action
from .marks import UNLEARNED

LIMITS = ("The offline distiller turns what a person says when correcting the agent (\"X, not Y\", "
          "\"use X instead of Y\", \"don't use Y, we use X\", \"we moved to X\", \"from now on …\", "
          "\"must be …\", in 8 languages) and recovered real errors into rules. It cannot generalise "
          "across situations, infer unstated preferences, write multi-step procedures, or judge whether "
          "an older rule still holds unless a newer correction contradicts it; configure a model in "
          "[provider] for that.")

# Only a cue that opens an instruction to the agent: at the start of a sentence or clause, or
# after "please"/"you must"/"make sure to". "you always forget the tests" or "it always fails" are
# complaints, not rules — read as rules they would teach the opposite ("always forget the tests").
# "stop" is not a cue: "stop the server first" is an order for now, not "never the server".
_CLAUSE = r"(?:^|(?<=[.!?;:,\n])\s*|\b(?:please|pls|and|so|you must|you should|make sure to)\s+)"
_NEVER = re.compile(_CLAUSE + r"(?:never|don'?t ever|do not ever|you must not)\s+(?P<z>[a-z](?:[^.!?\n]|[.!?](?=\S)){3,100})", re.I)
_ALWAYS = re.compile(_CLAUSE + r"(?:always|from now on,?|every time,?)\s+(?P<z>[a-z](?:[^.!?\n]|[.!?](?=\S)){3,100})", re.I)
# what follows the cue must be an action, not "never mind", "always the same error"
_NOT_ACTION = re.compile(r"^(?:mind|the|a|an|this|that|these|those|it|its|my|your|same|so|again"
                         r"|do (?:that|this|it|so))\b", re.I)

# activity → how the trigger reads; matched against the corrected tool call and the user's words
_TOPICS: list[tuple[str, str, re.Pattern[str]]] = [
    ("installing-packages", "installing packages in this project",
     re.compile(r"\b(npm|pnpm|yarn|bun|pip3?|uv|poetry|conda|cargo add|apt(?:-get)?|brew|gem|go get)\b.*\b(install|add|i)\b|\b(install|add)\b.*\b(package|dependenc|librar)", re.I)),
    ("running-tests", "running the tests",
     re.compile(r"\b(pytest|unittest|npm (?:run )?test|pnpm test|yarn test|jest|vitest|go test|cargo test|mvn test|rspec|tox|nox)\b|\btests?\b", re.I)),
    ("git-workflow", "using git in this repository",
     re.compile(r"\bgit\s+(commit|push|rebase|merge|checkout|branch|reset|tag)\b|\b(commit|branch|rebase)\b", re.I)),
    ("building", "building the project",
     re.compile(r"\b(make|cmake|gradle|webpack|vite build|tsc|cargo build|go build|npm run build|docker build)\b|\bbuild\b", re.I)),
    ("formatting-code", "formatting or linting code",
     re.compile(r"\b(black|ruff|prettier|eslint|gofmt|rustfmt|isort|flake8|clang-format)\b|\b(format|lint)", re.I)),
    ("running-python", "running Python",
     re.compile(r"\bpython3?\b|\bpip3?\b|\bvenv\b", re.I)),
    ("writing-answers", "answering this user",
     re.compile(r"\b(answer|reply|respond|summar|bullet|explain|tone|concise|shorter|longer)\w*\b", re.I)),
]


@dataclass(frozen=True)
class TurnEvidence:
    """What the distiller needs to know about one recorded turn."""

    turn_id: int
    turn: Turn
    corrected: bool
    correction_evidence: str | None
    previous: Turn | None
    real_errors: tuple[dict[str, Any], ...]  # {"step", "tool", "evidence", "excerpt"}
    transient_only: bool
    # a turn an earlier reflection already read, pending again because it grew: its correction
    # was counted then, and is no repeat now
    grown: bool = False


@dataclass(frozen=True)
class Rule:
    text: str
    kind: str  # correction | recovery
    topic: str
    topic_phrase: str
    key: tuple[str, ...]  # what makes two rules "the same thing" (("choice", "package-manager-js"))
    turn_id: int
    why: str
    grown: bool = False  # from a turn an earlier reflection already read
    use: str = ""    # a choice: what to use …
    avoid: str = ""  # … and what not to
    count: int = 1   # times the person said it in the new turns (a repeat strengthens the rule)


@dataclass
class Distilled:
    actions: list[Action] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    limits: str = LIMITS
    # corrections that yielded no rule: a proposed wording each, held for the person (review)
    unlearned: list[tuple[Action, str]] = field(default_factory=list)


def redo_of(ev: TurnEvidence) -> Redo | None:
    """What the agent undid or redid right after the person spoke (see :mod:`..observe.redo`)."""
    before = (turn_acts(ev.previous, rejected=False) if ev.previous is not None else []) \
        + turn_acts(ev.turn, rejected=True)
    after = turn_acts(ev.turn, rejected=False)
    found = find_redo(before, after)
    if found is None and ev.turn.person and not any(a.kind == "run" for a in after):
        # not redone yet: the way the person's own words name for what the agent just ran (a turn
        # with no person — a sub-agent, a harness prompt — names none)
        found = said_redo(before, person_text(ev.turn.user_text or ""))
    return found


_BARE_PLEASE = re.compile(r"^\W*(?:use\s+)?(?P<x>`?[A-Za-z][\w.+/-]{2,30}`?)\s*,?\s+(?:please|pls|plz|por favor|per favore|bitte"
                          r"|s'il te plaît|s'il vous plaît|stp|svp)\b", re.I)
# The person's words ask for something that lasts (a modal, "always", "never" …), not only state a fact.
_INSTRUCTS = re.compile(
    r"\b(?:must|should|need to|needs to|has to|have to|always|never|don'?t|do not|from now on"
    r"|deve|devono|sempre|mai|non\s+\w+re\b|d'ora in poi|tem que|têm que|deve|nunca|não\s+\w+|a partir de agora"
    r"|doit|doivent|toujours|jamais|ne\s+\w+\s+pas|désormais|tiene que|tienen que|debe|siempre|no\s+\w+s\b"
    r"|muss|müssen|soll|sollte|immer|nie|niemals|nicht|kein\w*|ab jetzt)\b"
    r"|必须|必須|应该|應該|不要|别|別|以后|总是|永远|一定|でないと|べき|なければ|必ず|いつも|ないで|これからは", re.I)
# The count of a repeat ("for the fourth time: logs in English!"): the person has asked before.
_REPEATED = re.compile(r"\b(?:(?:second|third|fourth|fifth) time|per la (?:seconda|terza|quarta|quinta) volta"
                       r"|pour la (?:deuxième|troisième|quatrième|cinquième) fois|zum (?:zweiten|dritten|vierten|fünften) mal"
                       r"|por (?:segunda|tercera|cuarta|quinta) vez|pela (?:segunda|terceira|quarta|quinta) vez|again|i told you"
                       r"|ancora|di nuovo|de novo|encore|otra vez|schon wieder|nochmal)\b|第[二三四五2-9]次|[二三四五2-9]回目|又|また", re.I)
# "no, the other file": this task's target, never a standing rule
_DEICTIC_ONE_OFF = re.compile(r"\b(?:the other (?:file|one|function|component|page|test)|l'altro file"
                              r"|o outro arquivo|l'autre fichier|el otro archivo|die andere datei"
                              # "for this one", "this time", "just here": this task's value, not a rule
                              r"|(?:for|in) this one|this time|just this once|for now|per questa volta|per ora|questa volta"
                              r"|nessa aqui|nesse aqui|desta vez|dessa vez|por enquanto|cette fois|pour l'instant"
                              r"|esta vez|por ahora|diesmal|dieses mal|vorerst|fürs erste"
                              # "per questa landing", "nesse tema aí", "solo para esta semana", "it's a temporary campaign"
                              r"|per quest[oa] \w+|nesse \w+ aí|nessa \w+ aí|solo para est[ea]|só (?:pra|para) (?:a |o )?\w+"
                              r"|just for (?:this|the) \w+|only for (?:this|the) \w+|pour cette \w+|nur für diese\w*"
                              r"|temporar\w*|temporane\w*|temporári\w*|temporal(?:mente)?|temporaire\w*|vorübergehend"
                              # "pour celle-là", "just for that one", "tonight only", "nur für den hier"
                              r"|pour (?:celle|celui|ceux|celles)-(?:là|ci)|(?:ce soir|aujourd'hui) uniquement|uniquement pour"
                              # "non, celle-là part sur release/2.4, c'est un hotfix": this one, said by pointing
                              r"|(?:celle|celui)-(?:là|ci) (?:part|va|doit)|c'est un hotfix|it'?s a hotfix|è un hotfix"
                              r"|é um hotfix|es un hotfix|ist ein hotfix"
                              r"|just (?:for )?(?:this|that) one|only (?:this|that) one|for that one|(?:tonight|today) only"
                              r"|solo per quest[oa]|per quell[oa]|solo stavolta|solo para (?:esta|este|esa|ese)|por esta vez"
                              r"|nur (?:für )?(?:diese[nrsm]?|den hier|das hier)|nur heute|só (?:esse|essa|este|esta|hoje)"
                              r"|pra esse|pra essa)\b"
                              r"|另一个文件|別のファイル|这次|這次|只有这个|就这一个|只这一次|今回は|今回だけ|とりあえず"
                              r"|この[^\s、。]{1,8}だけ|これだけは|今日だけ", re.I)
# "die tabelle heißt customer_legacy": the name of this task's thing, not a way of working (unless
# something marks it as lasting: "bei uns heißen branches …")
_CALLED = re.compile(r"\b(?:the \w+ is (?:called|named)|(?:heißt|heisst)|si chiama|s'appelle|se llama|se chama"
                     # "laut ticket soll die kunden_alt heißen", "should be named", "per the ticket": this one's name
                     r"|(?:soll|sollte|muss) [\w\s]{0,30}(?:heißen|heissen)|should be (?:called|named)|deve chiamarsi"
                     r"|doit s'appeler|debe llamarse|deve se chamar|laut (?:ticket|jira|spec)|per the (?:ticket|spec|jira)"
                     r"|secondo il ticket|selon le ticket|según el ticket|segundo o ticket)\b"
                     r"|(?:表|文件|函数)叫|という名前", re.I)
_FILE = re.compile(r"^[\w./-]+\.[A-Za-z0-9]{1,5}$")
_ARTICLE_PHRASE = re.compile(r"^(?:the|a|an|il|la|le|les|el|los|las|o|os|der|die|das)\s", re.I)


_PLAIN = frozenset("""the and but not was were are this that with your you our version first way fine right
back put please put again just here there from what which they them okay""".split())


def _recommends(entry: str, name: str) -> bool:
    """The memo entry tells the agent to use ``name`` (not merely to avoid it)."""
    # (a tool run through another one names it too: "use `npx serverless deploy`" recommends serverless)
    m = re.search(rf"\b(?:always use|use|always follow|always run)\s+`?(?:(?:npx|pnpx|bunx|pnpm exec|npm exec|yarn dlx"
                  rf"|uv run|uvx|poetry run|pipx run|bundle exec|go run)\s+)?{re.escape(name)}\b", entry, re.I)
    return m is not None


# "no more X", "kein SERIAL mehr", "non più", "plus de …": the person ends a way of working
_NO_MORE = re.compile(r"(?:^|[.!;:]\s*)(?:no|niente|nada de|pas de|kein\w*|nessun\w*|never|nunca|jamais|mai)\s+`?[\w.-]+`?"
                      r"(?:\s+(?:please|per favore|por favor|bitte|stp|svp))?\s*[.!,:]"
                      r"|\b(?:no more|not anymore|any ?more|no longer|kein\w*\b[^.!?]{0,40}\bmehr|nicht mehr|non più"
                      r"|mai più|não \w+ mais|nunca mais|plus jamais|ne \w+ plus|plus de|ya no|nunca más|ni uno más)\b"
                      r"|不再|别再|もう\S{0,6}(?:ない|ません)", re.I)


# "all the other handlers log structured", "en esta base todas las fechas van en timestamptz",
# "il resto del codice usa timezone.now": the words say how it is everywhere, not in this one place
_EVERYWHERE = re.compile(
    r"\b(?:all (?:the |our )?(?:other )?\w+s\b|every\w*|the whole|the rest of|the other \w+s|in this (?:repo|codebase|"
    r"project|database|db|service|team)|everywhere|we (?:always|use|do|write|log|keep)"
    r"|tutt[ieao]\b|ogni|il resto|gli altri|le altre|in questo (?:repo|progetto|codice)|da noi|qui da noi"
    r"|tous|toutes|tout le|chaque|le reste|les autres|chez nous|dans ce (?:repo|projet|code)"
    r"|todos|todas|todo el|cada|el resto|los demás|las demás|en este (?:repo|proyecto|código)|en esta base"
    r"|todo o|o resto|os outros|as outras|neste (?:repo|projeto|código)|aqui (?:a gente|usamos|é)"
    r"|alle(?:n)?\b|jede[rsn]?\b|überall|der Rest|die anderen|bei uns|in diesem (?:Repo|Projekt|Code))"
    r"|所有|全部|一律|其他|其余|我们这|整个项目|すべて|全て|他の|ほかの|うちは|このリポジトリ", re.I)


def _lasts(text: str, redo: Redo) -> bool:
    """Something says a code change is a way of working, not this task's value."""
    return bool(_STANDING_MARK.search(text) or _USE_FORM.search(text) or _NO_MORE.search(text)
                or category(redo.use, redo.avoid) or library_swap(redo) or _EVERYWHERE.search(text))


def _library_brought_in(ev: TurnEvidence, redo: Redo) -> bool:
    """The added call is a library's the agent installed or imported right then (`npm install
    dompurify`, `import DOMPurify from 'dompurify'`, then `DOMPurify.sanitize(…)`): a way of
    working brought in, not a value of this task."""
    if redo.kind != "add" or not re.fullmatch(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+", redo.use.strip("`")):
        return False
    root = redo.use.strip("`").split(".")[0]
    for a in turn_acts(ev.turn, rejected=False):
        if a.kind == "run" and re.search(rf"\b(?:install|add|require|get)\b.*\b{re.escape(root)}\b", a.command, re.I):
            return True
        if a.kind in ("edit", "write") and re.search(
                rf"^\s*(?:import\s+(?:\*\s+as\s+)?{re.escape(root)}\b|from\s+{re.escape(root)}\s+import\b"
                rf"|(?:const|let|var)\s+{re.escape(root)}\s*=\s*require\()", a.new.replace(a.old, ""), re.M):
            return True
    return False


# An API's shape: a call on a module or an object (`np.int64`, `hmac.compare_digest`, `df.to_parquet`),
# a keyword argument (`acks_late=True`), a flag — not a bare value of this task (a table, a column, an id)
_API_SHAPE = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\(?|[A-Za-z_]\w*=|--?[A-Za-z][\w-]*")


_FILE_END = re.compile(r"\.(?:parquet|csv|tsv|json|ya?ml|toml|ini|txt|md|html?|xml|py|js|ts|tsx|jsx|go|rs|rb|java|kt|sql"
                       r"|sh|log|lock|cfg|conf|env|png|jpe?g|svg|pdf|zip|gz|tar)$", re.I)


def _api_shaped(redo: Redo) -> bool:
    """The redo puts an API in place of another (or adds one): a way of writing code, not a value — a
    module's or a class's name (`np.int64`, `hmac.compare_digest`, `LocalDate.parse`), a keyword
    argument or a method the line calls (`stratify=y`, `.iterator()`), a flag. Not a variable's field
    (`pedido.pk`, `user.id`), a file (`ventas_limpias.parquet`) or a value."""
    use = redo.use.strip("`")
    if redo.kind == "add" and re.fullmatch(r"[A-Za-z_]\w*\s*=\s*[^,\s]+(?:\s*,\s*[A-Za-z_]\w*\s*=\s*[^,\s]+)*", use):
        return True  # keyword arguments put into a call (`httponly=True, secure=True`)
    if redo.kind not in ("api", "add") or re.search(r"[\"'/]|\d{3,}", use) or _FILE_END.search(use):
        return False
    if re.fullmatch(r"--?[A-Za-z][\w-]*|[A-Za-z_]\w*=", use):
        return True
    m = re.fullmatch(r"([A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*)+\(?", use)
    if m:
        root = m.group(1)
        return root[:1].isupper() or any(root == mod.rsplit(".", 1)[-1] or root == mod for mod in redo.modules)
    after = redo.after
    return bool(re.fullmatch(r"[A-Za-z_]\w{2,}", use) and re.search(
        rf"(?<![\w.]){re.escape(use)}\s*=(?!=)|\.{re.escape(use)}\(", after))


_SHOWN_BY_REDO = re.compile(r"^the user corrected the agent \(.the agent (?:rewrote|redid) ")


def _shown(ev: TurnEvidence, redo: Redo, text: str) -> bool:
    """The correction was shown by the redo itself: right after the person spoke — not asking for more,
    not a question, not a one-off — the agent replaced (or added to) the code it had just written, and
    the words need not name it ("the page now runs 201 queries" → `select_related`)."""
    return bool(ev.correction_evidence and _SHOWN_BY_REDO.search(ev.correction_evidence)
                and redo.standing and _api_shaped(redo) and not asks_more(text)
                and not text.rstrip().endswith(("?", "？")) and not _DEICTIC_ONE_OFF.search(text))


def _called_in_words(name: str, text: str) -> bool:
    """The person's words write the thing as a call ("直接用 helmet()", "use `slugify()`"): a function to
    use, named as code, not a value of this task."""
    n = name.strip("`").rstrip("()").strip()
    return len(n) >= 3 and re.fullmatch(r"[A-Za-z_$][\w$.]*", n) is not None and not _DEICTIC_ONE_OFF.search(text) \
        and _called(n, text)


def _called(name: str, code: str) -> bool:
    n = name.strip("`").rstrip("()").strip()
    return bool(n) and re.search(rf"(?<![\w$.]){re.escape(n)}\s*\(|\.{re.escape(n)}\s*\(", code) is not None


def _api_choice(ev: TurnEvidence, x: str, y: str) -> bool:
    """"non, pas include_directories global, target_include_directories": both sides are calls in the
    agent's code (a function, a method, a directive) — a way of writing code, not a value of this task
    (a table, a file, an id: never called)."""
    acts = (turn_acts(ev.previous, rejected=False) if ev.previous is not None else []) + turn_acts(ev.turn, rejected=False)
    code = "\n".join(f"{a.command}\n{a.old}\n{a.new}" for a in acts)
    xs = x.strip("`")
    return _called(y, code) and (_called(x, code) or "(" in xs or re.search(r"[_.]|[a-z][A-Z]", xs) is not None) \
        and not _FILE.match(xs) and " " not in xs


def _objected(ev: TurnEvidence, evidence: list[TurnEvidence]) -> bool:
    """The person's next turn in the same session corrected this one (a "recovery" they did not want:
    a deleted test, a tool installed against their setup)."""
    for nxt in evidence:
        if nxt.corrected and nxt.previous is not None and nxt.previous.index == ev.turn.index \
                and (nxt.turn.session_id or "") == (ev.turn.session_id or "") and nxt.turn.source == ev.turn.source:
            return True
    return False


def _a_name(item: str, seen: str) -> bool:
    """A tool, file, value or name — not a word of the sentence ("so firm", "è ancora andata",
    "wieder"): a known alternative, a shape only names have, or something the agent itself used."""
    it = re.sub(r"^(?:the|a|an|il|la|le|el|o|der|die|das)\s+", "", item.strip("`'\""), flags=re.I)
    if len(it.split()) > 1 and any(_a_name(w, seen) for w in it.split() if len(w) > 2):
        return True
    if not it or re.search(r"\b(?:\w+ing|[a-zà-ÿ]+'[a-z]+)$", it, re.I) and not category(it):
        return False
    if category(it) or re.search(r"[._/@:#+0-9]|[a-z][A-Z]|^[A-Z]{2,}\b|^[A-Z][a-z]{2,}$", it):
        return True  # a known alternative, a name's shape, a proper name ("Makefile", "Drizzle")
    return len(it.split()) <= 2 and it.lower() in seen


# Words that mean the opposite of what they say ("super, `except: pass` 👍", "牛，…以后永远不会挂了 👍").
_SARCASM = re.compile(r"👍|👏|🙃|🙄|😒|\b(?:great|nice|brilliant|genius|super|bravo|génial|parfait|ottimo|perfeito|genial"
                      r"|toll|klasse|sure)\b[,!.]|^\s*(?:oh|ah)\s+(?:great|nice|sure)|牛[，,]|さすが|素晴らしい", re.I)


def _one_off_files(lesson: Lesson, text: str) -> bool:
    """"the other file — Login.tsx, not Signup.tsx": two of this task's files, not a standing choice."""
    return (lesson.kind == "choice" and bool(_FILE.match(lesson.x)) and (not lesson.y or bool(_FILE.match(lesson.y)))
            and category(lesson.x, lesson.y) is None and bool(_DEICTIC_ONE_OFF.search(text)))


def _agrees(lesson: Lesson, redo: Redo) -> bool:
    """The person's choice is the one the agent's redo made."""
    x = lesson.x.lower().strip("`")
    return bool(x) and (x in redo.after.lower() or x == redo.use.lower().strip("`"))


def _code(item: str) -> str:
    return f"`{item}`" if " " in item.strip() and not item.startswith("`") else item


def _redo_rule(ev: TurnEvidence, redo: Redo, why: str, lesson: Lesson) -> Rule:
    slug = re.sub(r"[^a-z0-9]+", "-", redo.scope.lower().replace(" in this project", "")).strip("-")[:60]
    key: tuple[str, ...]
    if redo.kind == "swap" and redo.rule.endswith("by hand."):
        key, body = ("generated", redo.scope), redo.rule  # a generator in place of a file written by hand
    elif redo.kind == "swap":
        cat = category(redo.use.split()[0], redo.avoid.split()[0]) or category(redo.use, redo.avoid)
        key = ("choice", cat[0] if cat else redo.avoid.lower())
        how = install_words(redo.after) or _how_run(redo.after, redo.use.strip("`"))
        example = f" (`{how}`)" if how and how != redo.use.strip("`") else ""
        body = f"always use {_code(redo.use)}{example}, never {_code(redo.avoid)}."
    elif redo.kind == "rename":
        key, body = ("naming", redo.scope), redo.rule
    elif redo.kind in ("branch", "move"):
        key, body = (redo.kind, redo.scope), redo.rule
    else:
        key, body = (redo.kind, redo.scope, redo.use or redo.avoid), redo.rule
        line = " ".join(redo.after.split())
        for a in turn_acts(ev.turn, rejected=False):  # the whole line, not the redo's 60 characters
            full = next((ln.strip() for ln in a.new.splitlines() if line and ln.strip().startswith(line)), "")
            if full:
                line = full if len(full) <= 120 else full[:120].rsplit(" ", 1)[0] + " …"
                break
        line = line.replace("`", "'")
        shown = _flag_form(line, redo.use.strip("`")) if redo.kind == "flag" and "`" not in line else ""
        if shown and shown not in body:
            # the flag as the agent then ran it, with its value and the program's form (`go test -race`,
            # `docker compose -f deploy/local/compose.yaml`), not the rest of that one command line
            body = body.rstrip(".") + f" (`{shown}`)."
        elif redo.kind == "add" and line and line != redo.use.strip("`") and redo.use.strip("`") in line:
            # the line as the agent wrote it shows how (`stratify=y` in its call, `.loc[` on its frame)
            body = body.rstrip(".") + f" (as in `{line}`)."
    if lesson.reason and "because" not in body:
        body = body.rstrip(".") + f" (because {lesson.reason})."
    return Rule(f"When {redo.scope}, {body}", "correction", slug or "working-in-this-project", redo.scope,
                key, ev.turn_id, why + f"; the agent then redid it: {redo.before[:60]} → {redo.after[:60]}",
                ev.grown, redo.use, redo.avoid, 0 if ev.grown else 1)


def _how_run(command: str, use: str) -> str:
    """The redo's command up to its first operand, when it says more than the tool chosen
    (`docker buildx build --platform` for `docker buildx`), or ""."""
    c = parse_cmd(command)
    head = " ".join(command_head(c)) if c is not None else ""
    return head if use and head.startswith(use + " ") and len(head) <= 60 else ""


def _flag_form(command: str, flag: str) -> str:
    """The program and its subcommand with ``flag`` and the flag's value, from one command line."""
    words = command.split()
    if flag not in words:
        return ""
    i = words.index(flag)
    head = [words[0]] + [w for w in words[1:2] if re.fullmatch(r"[a-z][a-z0-9-]*", w)]
    if i < len(head):
        return ""
    value = words[i + 1:i + 2] if "=" not in flag and i + 1 < len(words) and not words[i + 1].startswith("-") \
        and re.search(r"[/.=:]", words[i + 1]) and len(words[i + 1]) <= 60 else []
    return " ".join(head + [flag] + value)


def _clean(item: str) -> str:
    return item.strip().strip("`'\"“”‘’«»「」.,;:!?。，").strip()


def _command(call: ToolCall | None) -> str:
    if call is None:
        return ""
    inp = call.input
    if isinstance(inp, dict):
        for key in ("command", "cmd", "script", "code"):
            v = inp.get(key)
            if isinstance(v, list):
                v = " ".join(str(p) for p in v)
            if isinstance(v, str) and v.strip():
                return v.strip()
        for key in ("file_path", "path", "pattern", "query", "url"):
            v = inp.get(key)
            if isinstance(v, str) and v.strip():
                return f"{call.name} {v.strip()}"
        return call.name
    if isinstance(inp, str):
        return inp.strip()
    return call.name


def _topic(*texts: str) -> tuple[str, str]:
    joined = "\n".join(t for t in texts if t)
    for slug, phrase, pattern in _TOPICS:
        if pattern.search(joined):
            return slug, phrase
    return "working-in-this-project", "working in this project"


def _scope(lesson: Lesson, context_cmds: list[str], text: str) -> tuple[str, str]:
    """(skill/topic slug, trigger phrase) for a lesson: what the person's own words name first
    ("we deploy with …" → deploying), then the kind of thing chosen (httpx → making HTTP requests),
    then what the agent was doing when it was corrected."""
    head = lesson.subject
    m = re.match(r"^we\s+(?:always\s+)?([a-z]{3,})$", head, re.I)
    if m:
        verb = m.group(1).lower()
        gerund = (verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb) + "ing"
        return gerund, gerund
    cat = category(lesson.x, lesson.y)
    if cat:
        return cat
    if re.match(r"^(?:the|our|all)\s+[a-z]", head, re.I):
        noun = head[0].lower() + head[1:]
        return "working-in-this-project", f"working on {noun} in this project"
    return _topic(*context_cmds, lesson.x, lesson.y, text)


def rules_from_correction(ev: TurnEvidence) -> list[Rule]:
    """The rule a correcting message states, scoped by the turn; [] when it states none (a one-off
    about this task: ``_correction`` also returns the lesson, whose ``why_none`` says why)."""
    return _correction(ev)[0]


def _correction(ev: TurnEvidence) -> tuple[list[Rule], Lesson]:
    rules, lesson = _correction_read(ev)
    if len(rules) == 1 and rules[0].use and rules[0].key[0] not in ("done", "quote"):
        # "use aws s3 sync instead of aws s3 cp --recursive" read as "use aws": what the person named
        # and the agent then did says the whole of it (`aws s3 sync`, `pluck(:id)`, `r.Context()`)
        done = _named_and_done(ev, person_text(ev.turn.user_text or ""))
        short = rules[0].use.strip("`").lower()
        said_words = spaced(person_text(ev.turn.user_text or ""))
        prog = short.split(" ")[0]
        if done is None and re.fullmatch(r"[a-z][\w.-]*(?: [a-z][\w.-]*){0,3}", short):
            wide = widen(said_words, short, [
                a.command for a in (turn_acts(ev.previous, rejected=False) if ev.previous is not None else [])
                + turn_acts(ev.turn, rejected=False) if a.kind == "run"])
            if not wide.lower().startswith(short):
                wide = ""  # "cargo clippy -- -D warnings" widens `cargo clippy`, never another cargo command
            words = said_words.lower().split(" ")
            n = len(words[:[w.rstrip(".,;:!?") for w in words].index(prog)]) + len(wide.split()) if wide else 0
            other = widen(said_words, short, [
                a.command for a in (turn_acts(ev.previous, rejected=False) if ev.previous is not None else [])
                if a.kind == "run"], start=n) if wide else ""
            done = _Done(wide, other if other and other.lower() != wide.lower() else "", "") if wide else None
        said = " ".join(person_text(ev.turn.user_text or "").split()).lower()
        if done is not None and done.use.lower() not in rules[0].text.lower() and (
                short in done.use.lower() and len(done.use) > len(short) + 1
                or short not in said and done.use.lower() in said
                and bool(set(short.split()) & set(done.use.lower().split()))):  # `rsync -r` the words never said
            r = rules[0]
            avoid = done.avoid or r.avoid.strip("`")
            body = f"always use `{done.use}`" + (f", never `{avoid}`" if avoid else "")
            m = re.search(r" \(because .*\)\.$", r.text)
            rules = [replace(r, text=f"When {r.topic_phrase}, {body}{m.group(0) if m else '.'}", use=done.use,
                             avoid=avoid)]
    # never "always use `process.env`, never `process.env`": a rule that names one thing both ways
    # (`created_at`, never `createdAt` is a naming rule: the same name in another style is another name)
    rules = [r for r in rules if not (r.use and r.avoid and r.use.strip("`").lower() == r.avoid.strip("`").lower())]
    for r in rules:
        doubt = _doubt(ev, r)
        if doubt:
            # the evidence contradicts the rule, or the rule is about this task's data: the person
            # decides (review, with the rule as the proposed wording), never a guess in the memo
            return [], Lesson("none", x=r.use, y=r.avoid, why_none=doubt, rule=r.text)
    return rules, lesson


# a value of this task, not a way of working: a URL, a host, a port, an address, a cloud region, a
# data file, a release line, a number
_DATA_VALUE = re.compile(r"""(?:[a-z][a-z0-9+.-]*://\S+
  |(?:[\w-]+\.)+(?:com|net|org|io|dev|app|es|br|de|fr|it|pt|jp|cn|uk|co|eu|us|cloud|local|internal|lan|corp
     |nl|ch|at|be|cz|pl|mx|ar|in)(?::\d+)?(?:/\S*)?
  |[\w.-]*:\d{2,5}
  |\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?
  |[a-z]{2}(?:-gov)?-[a-z]+-\d
  |[\w./-]+\.(?:csv|tsv|xlsx?|parquet|jsonl|ndjson|log|txt|dump|bak)
  |\d+(?:\.\d+)*\.x
  |\d+)""", re.X | re.I)


_CONFIRMS = re.compile(r"^\W*(?:yes|yep|yeah|right|exactly|correct|sì|si|esatto|giusto|oui|exact(?:ement)?|ja|genau"
                       r"|richtig|sí|exacto|sim|isso|exato|对|是的|没错|はい|そう)(?![\w'])", re.I)


def _doubt(ev: TurnEvidence, rule: Rule) -> str:
    """Why a correction's rule should wait for the person rather than stand ("" when nothing
    speaks against it). Language-free: what the agent had done before the person spoke, the
    shape of what the rule recommends, and whether the rule says anything at all."""
    use = rule.use.strip("`").strip()
    if not use or rule.key[0] in ("quote",):
        return ""
    text = person_text(ev.turn.user_text or "")
    # the person spoke against what the agent had just done: a rule recommending a thing the
    # agent's own commands or code had already used there ("sudo pip. klar." → "always use
    # `pip install`"; "SELECT * … 再用 stream 过滤" → "always use stream") teaches the mistake
    done = " ".join(a.command + " " + a.new for a in (turn_acts(ev.previous, rejected=False)
                                                      if ev.previous is not None else [])).lower()
    def used(name: str) -> bool:
        return bool(re.search(rf"(?<![\w./-]){re.escape(name.lower())}(?![\w-])", done))

    # (when it had used both, choosing one is the lesson: `npm install zustand mobx` → "zustand, not mobx";
    # "sì, qui i log passano sempre da `logrus`" says the agent did it right: a confirmation)
    if used(use) and not (rule.avoid and used(rule.avoid.strip("`").strip())) and not _CONFIRMS.match(text):
        return (f"the rule would recommend `{use}`, which the agent had already used right before the "
                "person spoke")
    # "uy, te pasé el puerto viejo, es 9443": a host, a port, a region, a data file of this task
    # (an example the rule gives — "pin the tag (like `registry.acme.de/api:1.42.0`)" — is no choice)
    if _DATA_VALUE.fullmatch(use) and re.search(rf"always use `?{re.escape(use)}", rule.text) \
            and not _STANDING_MARK.search(text):
        return f"`{use}` is a value of this task, and nothing in the words says it lasts"
    # "When using git in this repository, always use git.": the rule names only what it is about
    if not rule.avoid and " " not in use and re.search(rf"\b{re.escape(use.lower())}\b", rule.topic_phrase.lower()):
        return f"the rule names nothing beyond what it is about (`{use}`)"
    return ""


def _correction_read(ev: TurnEvidence) -> tuple[list[Rule], Lesson]:
    # Words an agent reported as the user's (MCP record_turn) are not the person's.
    if not ev.turn.person:
        return [], Lesson("none", why_none="the words were reported by an agent, not typed by the person")
    text = person_text(ev.turn.user_text)
    for r in ev.turn.rejected_calls:  # a refused tool use with a reason is a correction too
        reason = refusal_reason(r.output)
        if reason:
            text += "\n" + reason
    context_cmds = [_command(c) for c in (ev.previous.tool_calls if ev.previous else ())]
    context_cmds += [_command(c) for c in ev.turn.tool_calls if any(
        r.rejected and r.call_id == c.id for r in ev.turn.tool_results)]
    said = " ".join(ev.turn.user_text.split())
    why = f"turn {ev.turn_id}: the user said {said[:120]!r}"
    lesson = read_lesson(text)
    redo = redo_of(ev)

    def rule(body: str, key: tuple[str, ...], slug: str, phrase: str) -> Rule:
        return Rule(f"When {phrase}, {body}", "correction", slug, phrase, key, ev.turn_id, why,
                    ev.grown, lesson.x, lesson.y, 0 if ev.grown else 1)

    called = _CALLED.search(text) and not LASTING.search(text) and not (
        lesson.x and lesson.y and re.sub(r"[\W_]", "", lesson.x.lower()) == re.sub(r"[\W_]", "", lesson.y.lower()))
    # ("the column is called created_at, not createdAt": the same name in another style is how names are written)
    if (_DEICTIC_ONE_OFF.search(text) or called) and lesson.kind != "convention":
        # "this time only tenants 42 and 57": whatever the agent redid, it is about this task
        return [], Lesson("none", why_none="a one-off: the words say it is for this time, this one")
    if re.match(r"the user corrected the agent \(.a way named: ", ev.correction_evidence or "") \
            and not _DEICTIC_ONE_OFF.search(text) and not _CALLED.search(text):
        # what the detector saw is the lesson: the thing the words named, not another change the
        # agent happened to make in the same turn (`cargo test` after "用 .context() 往上抛")
        way_named = named_by(ev.turn, ev.previous)
        if way_named is not None:
            return [_done_rule(ev, _Done(way_named[0], way_named[1], ""), why, lesson, context_cmds, text)], lesson
    if lesson.kind == "quote" and not _DEICTIC_ONE_OFF.search(text) and not _CALLED.search(text):
        # a convention the reader could only quote ("chez nous toujours gh pr create --web, on relit …")
        # that names, in code form, a way the agent had not used: that way, not the whole sentence
        way_named = named_by(ev.turn, ev.previous)
        if way_named is not None and re.fullmatch(r"#!\S+(?: \w+)?|[a-z][\w.-]+(?: [a-z][\w.-]*)* --?[a-z][\w=.-]*", way_named[0]):
            return [_done_rule(ev, _Done(way_named[0], way_named[1], ""), why, lesson, context_cmds, text)], lesson
    way = _way(ev)
    if way is not None and way.strong and not self_blame(text):
        # a change of mind said outright and acted on: "forget kubectl apply, we're on argocd now"
        return [_stated_rule(ev, way, why, lesson)], lesson
    if lesson.kind == "convention":
        phrase = lesson.scope or _topic(*context_cmds, text)[1]
        slug = re.sub(r"[^a-z0-9]+", "-", phrase.replace(" in this project", "")).strip("-")
        cat = category(lesson.x, lesson.y) if lesson.y else None
        key = ("choice", cat[0]) if cat else ("convention", phrase, lesson.x.lower())
        return [rule(lesson.rule, key, slug, phrase)], lesson
    if redo is not None and redo.kind == "target" and lesson.kind in ("choice", "quote", "none"):
        return [], Lesson("none", why_none=f"a one-off about this task's files: the agent redid the same "
                          f"work on {redo.after} instead of {redo.before}")
    edited = {a.path.rsplit("/", 1)[-1] for a in turn_acts(ev.turn, rejected=False) if a.kind in ("edit", "write")}
    if _one_off_files(lesson, text) or (lesson.kind == "choice" and _FILE.match(lesson.x) and lesson.x.rsplit("/", 1)[-1]
                                        in edited and category(lesson.x, lesson.y) is None):
        return [], Lesson("none", why_none=f"a one-off about this task's files ({lesson.x}, not "
                          f"{lesson.y or 'another'}), not a standing rule")
    if lesson.kind == "none":
        # "pathlib please", "bun bitte": a bare name the agent's reply then used
        m = _BARE_PLEASE.match(" ".join(text.split()))
        done = " ".join(a.new + " " + a.command for a in turn_acts(ev.turn, rejected=False)).lower()
        if m and len(m.group("x").strip("`")) >= 2 and m.group("x").lower().strip("`") in done:
            avoid = redo.avoid if redo is not None and redo.kind == "swap" else ""
            lesson = Lesson("choice", x=m.group("x").strip("`"), y=avoid, reason=lesson.reason)
            redo = redo if redo is not None and redo.kind == "swap" else None
    whole = None
    if redo is not None and redo.kind == "api":
        narrowed = focus(redo, text)
        # the words point at the rewrite without naming what to use: the rewrite's one swap, if clean
        # a complaint about what the code does, and the agent at once swapped one API for another:
        # the swap is the lesson even when the words name neither side ("that freezes the worker")
        told = bool(ev.correction_evidence and _SHOWN_BY_REDO.search(ev.correction_evidence)) and not asks_more(text) \
            and not text.rstrip().endswith(("?", "？")) and not _DEICTIC_ONE_OFF.search(text) and not self_blame(text)
        whole = whole_swap(redo, text, shown=told) if not narrowed.standing and lesson.kind in ("none", "quote") else None
        if whole is not None and told and not lesson.reason and not points_at(redo, text):
            # the person's complaint is the rule's reason, in their words ("that freezes the worker")
            said = " ".join(text.split()).rstrip(".!…")
            lesson = replace(lesson, reason=said if len(said) <= 120 else said[:120].rsplit(" ", 1)[0] + " …")
        gone_named = [g for g in redo.gone if len(g) >= 3 and re.search(rf"(?<![\w./-]){re.escape(g)}(?![\w/-])", text, re.I)]
        redo = whole or narrowed
        if redo.standing and redo.use and not redo.avoid and gone_named and gone_named[0].lower() not in redo.use.lower():
            # the code change took out what the words name ("… wget も使えなくなります"): what not to use
            redo = replace(redo, avoid=gone_named[0], rule=redo.rule.rstrip(".") + f", never `{gone_named[0]}`.")
        if redo.use and f"/{redo.use.strip('`')}" in text and not redo.use.startswith(("/", "`/")):
            # the path as the words and the code write it (`/app/healthcheck`, not `app/healthcheck`)
            redo = replace(redo, use=f"/{redo.use.strip('`')}", rule=redo.rule.replace(f"`{redo.use.strip('`')}`",
                                                                                        f"`/{redo.use.strip('`')}`"))
    if redo is not None and redo.kind == "replace" and (HOW_ASKED.search(text) or rerun_request(text)):
        redo = None  # "how do I look at one process only?" and the agent shows: an answer, no way to keep
    if redo is not None and redo.kind in ("flag", "add") and (rerun_request(text) or follow_up(clause_of(text, redo.use))):
        redo = None  # "redo it with --no-cache": this run's request, not a standing rule
    if self_blame(text):
        return [], Lesson("none", why_none="the person corrected their own mistake, not the agent's")
    if _SARCASM.search(text) and lesson.kind == "quote":
        return [], Lesson("quote", quote=lesson.quote, why_none="sarcasm: the words say the opposite of the lesson")
    if redo is not None and redo.kind == "keep" and RETRACTION.search(text):
        redo = None  # "scratch that, put requests back": the person takes back their own correction
    if redo is not None and redo.kind in ("keep", "undo", "swap", "api") and _asked_for(redo.avoid, ev.previous) \
            and (redo.kind in ("keep", "undo") or _restores(redo.use, ev.previous)):
        # "switch the client to httpx" … "put requests back": what goes is what the person had asked
        # for — they take back their own request, which teaches nothing about the agent's choices
        return [], Lesson("none", why_none=f"the person took back their own request ({redo.avoid})")
    if redo is not None and redo.kind in ("api", "add", "keep", "value") and not points_at(redo, text) and not (
            redo.kind == "add" and any(n.lower() in text.lower() for n in redo.context)) and not _shown(ev, redo, text) \
            and whole is None:
        # a code change the person's words do not name: maybe the fix, maybe other work (an addition
        # inside the line they name is the fix: `DOMPurify.sanitize` in `dangerouslySetInnerHTML`)
        redo = None
    if redo is not None and redo.standing and (_UNSAFE_FIX.search(redo.after) or masked(redo.after)):
        # a redo that skips a check or changes the safety posture (another index, a registry, a
        # remote…) is the person's to confirm, never a rule by itself
        return [], Lesson("none", why_none=f"the agent's redo `{redo.after[:60]}` changes the safety posture")
    if lesson.kind == "choice" and _SARCASM.search(text) and not (redo is not None and redo.standing):
        return [], Lesson("none", why_none="sarcasm: the words name what went wrong, not what to use")
    if redo is not None and redo.kind in ("api", "add", "value") and redo.standing and whole is None and not _lasts(text, redo) \
            and not _library_brought_in(ev, redo) and not (_api_shaped(redo) and not _DEICTIC_ONE_OFF.search(text)) \
            and not (redo.kind in ("api", "add") and _called_in_words(redo.use, text)):
        # a value, a table, an endpoint of this task swapped in code ("I meant bestellungen_archiv"):
        # nothing says it lasts, so the person decides (review) — never an always-rule by guess
        if way is not None:
            return [_stated_rule(ev, way, why, lesson)], lesson  # … unless the words state the way
        return [], Lesson("none", x=redo.use, y=redo.avoid,
                          why_none=f"{redo.use!r} instead of {redo.avoid!r} in this code may be about this task only")
    if redo is not None and redo.rule and redo.standing and lesson.kind != "require" and not (
            lesson.kind == "choice" and _agrees(lesson, redo) and redo.kind not in ("swap", "api")):
        # The agent's redo names exactly what to use and what not to (`docker compose`, not the
        # "docker" a sentence cut it to); the person's words confirmed it and may give the reason.
        return [_redo_rule(ev, redo, why, lesson)], lesson

    if lesson.kind == "choice":
        seen = " ".join(a.command + " " + a.path + " " + a.new for a in
                        (turn_acts(ev.previous) if ev.previous is not None else []) + turn_acts(ev.turn)).lower()
        if not _a_name(lesson.x, seen) or way is not None and " " in lesson.x.strip() and not way.change \
                and _ARTICLE_PHRASE.match(lesson.x):
            # ("always `fly deploy` with the per-env toml": the command the agent ran, not "the per-env toml")
            if way is not None:
                return [_stated_rule(ev, way, why, lesson)], lesson
            return [], Lesson("none", why_none=f"{lesson.x!r} does not name a tool, file or value the agent used")
        cat_now = category(lesson.x, lesson.y) if lesson.y else None
        if lesson.y and (not cat_now or cat_now[0] == "environment") and not _STANDING_MARK.search(text) \
                and not _USE_FORM.search(text) and not _api_choice(ev, lesson.x, lesson.y):
            # (an environment named in place of another — "not staging — prod" — is this task's
            # target unless the words make it last: "always deploy to staging first")
            # "X, not Y" about a value of this task ("#FF6A00, not #FF6600", "the archive table,
            # not this one"): nothing says it lasts; the person decides (review), never a guess
            return [], Lesson("none", x=lesson.x, y=lesson.y,
                              why_none=f"{lesson.x!r} instead of {lesson.y!r} may be about this task only")
        if lesson.y and not _a_name(lesson.y, seen):
            lesson = replace(lesson, y="")
        slug, phrase = _scope(lesson, context_cmds, text)
        if redo is not None and redo.standing and redo.scope and phrase == "working in this project":
            slug, phrase = re.sub(r"[^a-z0-9]+", "-", redo.scope.replace(" in this project", "")).strip("-"), redo.scope
        cat = category(lesson.x, lesson.y)
        key = ("choice", cat[0] if cat else (lesson.y or lesson.x).lower())
        body = f"always use {lesson.x}, never {lesson.y}." if lesson.y else f"always use {lesson.x}."
        return [rule(body, key, slug, phrase)], lesson
    if lesson.kind == "require":
        subj = lesson.subject[0].lower() + lesson.subject[1:]
        verb = "are" if subj.split()[-1].lower().endswith("s") else "is"
        slug, phrase = _topic(*context_cmds, subj, lesson.x)
        body = f"always make sure {subj} {verb} {lesson.x}"
        body += f", not {lesson.y}" if lesson.y else ""
        body += f" ({'because ' if not lesson.reason.lower().startswith('because') else ''}{lesson.reason})" \
            if lesson.reason else ""
        return [rule(body + ".", ("must", subj.lower()), slug, phrase)], lesson
    nope = forbidden(ev.turn, ev.previous) if not _DEICTIC_ONE_OFF.search(text) else None
    if nope is not None and (_named_and_done(ev, text) is not None or named_by(ev.turn, ev.previous) is not None):
        nope = None  # the words name what to use instead, and the way named is the better rule
    if nope is None and "asks to be asked before" in (ev.correction_evidence or "") and ASK_FIRST_STRICT.search(text) \
            and not _DEICTIC_ONE_OFF.search(text) and ev.previous is not None:
        nope = _ask_first_of(ev)  # (only what the detector saw: no other reading of the words)
    if nope is not None:
        # the words forbid a thing of the agent's last command: that thing is the rule, in the
        # command's own words (any language), scoped by what the agent ran; the person's sentence
        # is its reason
        return [_forbidden_rule(ev, nope, why, lesson)], lesson
    rules: list[Rule] = []
    for pattern, word in ((_NEVER, "never"), (_ALWAYS, "always")):
        for m in pattern.finditer(text):
            z = _clean(m.group("z"))
            z = re.split(r"\s+(?:but|because|since|so that)\b", z)[0].strip()
            z = re.sub(r"^(?:always|never)\s+", "", z, flags=re.I)  # "from now on always send …"
            if len(z.split()) < 2 or _NOT_ACTION.match(z):
                continue
            slug, phrase = _topic(z)  # what the rule is about, not what the agent happened to run
            rules.append(rule(f"{word} {z}.", (word, " ".join(z.lower().split()[:4])), slug, phrase))
    if rules:
        return rules, lesson
    if way is not None:
        # the words name the way and the agent's actions confirm it ("qui si logga solo con
        # structlog", and it wrote structlog): a rule by the name, not the person's whole sentence
        return [_stated_rule(ev, way, why, lesson)], lesson
    if lesson.kind == "quote":
        if not (_INSTRUCTS.search(lesson.quote) or _REPEATED.search(text) or CONDITIONAL.search(lesson.quote)):
            # No clean imperative, and the words state a fact rather than ask for something: a
            # wording is proposed to the person (review), never applied as a guess — a reason
            # taken for an instruction ("it takes ten minutes each time") is junk.
            return [], lesson
        fixed = redo_of(ev)
        if not _instructs_strongly(lesson.quote) and not _REPEATED.search(text) and (
                not _names_a_thing(lesson.quote, ev) or fixed is not None and fixed.after.strip()
                and (fixed.standing or fixed.kind == "rewrite")):
            # "en anglais l'appli affiche toujours du français sur ce bouton": the "always" says what
            # the bug does, not what to do — the words name nothing the agent could use or avoid, so
            # the rule would be the person's complaint as an instruction. Proposed in review instead —
            # with what the agent's fix did, when it redid the work ("at -O2 the main loop never sees
            # the press" → the fix wrote `static volatile`)
            return [], lesson
        wording = proposed_wording(ev, lesson, fix=False)
        phrase = wording[len("When "):wording.index(", always do as the user said: ")]
        slug = next((sl for sl, ph, _rx in _TOPICS if ph == phrase), "working-in-this-project")
        quote = wording.split("always do as the user said: ", 1)[1]
        return [rule(f"always do as the user said: {quote}",
                     ("quote", " ".join(quote.lower().split())[:60]), slug, phrase)], lesson
    named = _named_and_done(ev, text)
    if named is None and ev.corrected and not _DEICTIC_ONE_OFF.search(text) and not _CALLED.search(text):
        # nothing redone yet: a thing in code form the agent had not used, named as the way that lasts
        way_named = named_by(ev.turn, ev.previous)
        named = _Done(way_named[0], way_named[1], "") if way_named is not None else None
    if named is not None:
        return [_done_rule(ev, named, why, lesson, context_cmds, text)], lesson
    return [], lesson


# -- what the person named and the agent then did ---------------------------------------------------
#
# Whatever the words around it, a correction names a thing in code form ("aws s3 sync",
# `pluck(:id)`, `r.Context()`, "jq -r", "timeout-minutes") that the agent had not used and then used
# right after — and often the thing it had used ("aws s3 cp --recursive", `map(&:id)`). The rule is
# that difference: language-free, confirmed by the agent's own actions.

@dataclass(frozen=True)
class _Done:
    use: str
    avoid: str
    scope: str


def _named_and_done(ev: TurnEvidence, text: str) -> _Done | None:
    """What the person named in code form that the agent had not used and used right after (and what
    it had used that the words also name and it then dropped) — or None."""
    if not ev.corrected or self_blame(text) or follow_up(text) or rerun_request(text) or COMPARE.search(text) \
            or _DEICTIC_ONE_OFF.search(text) or _CALLED.search(text) or text.rstrip().endswith(("?", "？")):
        return None
    before = turn_acts(ev.previous, rejected=False) if ev.previous is not None else []
    after = turn_acts(ev.turn, rejected=False)
    if not after or not before:
        return None
    def body(acts: list) -> str:
        return "\n".join(f"{a.command}\n{a.new}" for a in acts).lower()
    had = body(before) + "\n" + "\n".join(a.old for a in after).lower()
    did = "\n".join(f"{a.command}\n{a.new.replace(a.old, '') if a.old and a.old in a.new else a.new}" for a in after).lower()
    spans = code_spans(person_text(text), [a.command for a in before + after if a.kind == "run"])
    uses = [sp for _i, sp in spans if mentions(sp, did) and not mentions(sp, had)]
    if not uses:
        return None
    use = max(uses, key=lambda sp: (len(sp), -spans.index(next(x for x in spans if x[1] == sp))))
    gone = [sp for _i, sp in spans if mentions(sp, had) and not mentions(sp, did) and sp.lower() not in use.lower()]
    scope = ""
    redo = redo_of(ev)
    if redo is not None and redo.scope:
        scope = redo.scope
    return _Done(use.strip("`"), gone[0].strip("`") if gone else "", scope)


def _done_rule(ev: TurnEvidence, done: _Done, why: str, lesson: Lesson, context_cmds: list[str], text: str) -> Rule:
    slug, phrase = (re.sub(r"[^a-z0-9]+", "-", done.scope.lower().replace(" in this project", "")).strip("-"), done.scope) \
        if done.scope else _topic(*context_cmds, done.use, text)
    body = f"always use `{done.use}`" + (f", never `{done.avoid}`" if done.avoid else "")
    if lesson.reason and "because" not in body:
        body += f" (because {lesson.reason})"
    return Rule(f"When {phrase}, {body}.", "correction", slug or "working-in-this-project", phrase,
                ("done", phrase, done.use.lower()), ev.turn_id,
                why + f"; the agent then used {done.use[:60]}", ev.grown, done.use, done.avoid, 0 if ev.grown else 1)


# A thing a rule can name: code in backticks, a flag, a path, a dotted or snake_case name, a
# `#<issue>` or `:tag` — or, in Chinese or Japanese text, any Latin word (`version を固定`).
_THING = re.compile(r"`[^`]+`|(?<![\w-])--?[A-Za-z][\w-]*|\b\w+[/._:#][\w<>{}-]+|[#:][\w<>-]{2,}")


_FREQUENCY = re.compile(r"always|never|sempre|mai|toujours|jamais|siempre|nunca|immer|nie|niemals|总是|永远|いつも|必ず", re.I)


def _instructs_strongly(words: str) -> bool:
    """An instruction word that asks (must, don't, from now on), or "always"/"never" opening its
    clause ("whoa never kubectl apply", "per favore sempre git pull") — not one that says what a bug
    does ("l'appli affiche toujours du français", "wird nie mehr freigegeben")."""
    for m in _INSTRUCTS.finditer(words):
        if not _FREQUENCY.fullmatch(m.group(0)):
            return True
        head = re.split(r"[,.;:!?—–()\n、。，！？]", words[:m.start()])[-1]
        if len(head.split()) <= 2:
            return True
    return False


def _names_a_thing(words: str, ev: TurnEvidence) -> bool:
    """Whether ``words`` name something the agent could use or avoid: code-like text, or a program
    the agent ran in this turn or the one before (``kubectl``, ``gh``)."""
    if _THING.search(words) or (re.search(f"[{CHINESE_JAPANESE}]", words) and re.search(r"[A-Za-z]{2,}", words)):
        return True
    acts = (turn_acts(ev.previous) if ev.previous is not None else []) + turn_acts(ev.turn)
    programs = {a.command.split()[0].lower() for a in acts if a.kind == "run" and a.command.split()}
    return any(w.lower() in programs for w in re.findall(r"[A-Za-z][\w-]+", words))


def _way(ev: TurnEvidence) -> Stated | None:
    """The convention or change of mind the words state and the agent's actions confirm (a
    session's first message only when the words say what is left: a first request states none)."""
    if not ev.turn.person or not ev.turn.user_text or _SARCASM.search(ev.turn.user_text):
        return None  # ("sudo pip. klar. immer eine gute idee": the words say the opposite)
    way = stated(ev.turn.user_text, turn_acts(ev.previous, rejected=False) if ev.previous is not None else [],
                 turn_acts(ev.turn, rejected=False))
    return way if way is not None and (ev.previous is not None or way.strong) else None


def _stated_rule(ev: TurnEvidence, way: Stated, why: str, lesson: Lesson) -> Rule:
    cat = category(way.use, way.avoid) if way.avoid else None
    key: tuple[str, ...] = ("choice", cat[0]) if cat else (
        ("choice", way.avoid.lower()) if way.avoid else ("convention", way.scope, way.use.lower()))
    body = f"always use `{way.use}`" + (f", never `{way.avoid}`" if way.avoid else "")
    if lesson.reason and len(lesson.reason) <= 120:
        body += f" ({'because ' if not lesson.reason.lower().startswith('because') else ''}{lesson.reason})"
    slug = re.sub(r"[^a-z0-9]+", "-", way.scope.lower().replace(" in this project", "")).strip("-")[:60]
    how = "a change of mind" if way.change else "a convention"
    return Rule(f"When {way.scope}, {body}.", "correction", slug or "working-in-this-project", way.scope, key,
                ev.turn_id, why + f"; {how} the agent's actions confirm", ev.grown, way.use, way.avoid,
                0 if ev.grown else 1)


def _ask_first_of(ev: TurnEvidence) -> Forbidden | None:
    """"la próxima vez enséñame la lista antes de borrar ramas" after one command: that command (its
    program, subcommand and first flag) waits for the person's go-ahead. None when the agent's last
    turn ran no command, or several — the words name none of them, so which one is the person's."""
    runs = [a for a in turn_acts(ev.previous, rejected=False) if a.kind == "run"] if ev.previous is not None else []
    if len(runs) != 1:
        return None
    words = runs[0].command.split()
    if not words or not re.fullmatch(r"[A-Za-z][\w.+-]*", words[0]):
        return None
    head = [words[0]]
    if len(words) > 1 and re.fullmatch(r"[a-z][a-z-]{1,15}", words[1]):
        head.append(words[1])
    rest = words[len(head):]
    rest = rest[:rest.index("--")] if "--" in rest else rest  # (what follows `--` is the script's own)
    flag = next((w for w in rest if re.fullmatch(r"--?[A-Za-z][\w-]*", w)), "")
    thing = " ".join(head + ([flag] if flag else []))
    return Forbidden(thing, runs[0].command, " ".join(head), True, person_text(ev.turn.user_text or ""))


def _forbidden_rule(ev: TurnEvidence, nope: Forbidden, why: str, lesson: Lesson) -> Rule:
    said = " ".join(person_text(ev.turn.user_text or "").split())
    said = (said if len(said) <= 200 else said[:199] + "…").replace('"', "'")
    pipe = re.fullmatch(r"(\S+) … \| (\S+)", nope.thing)
    shown = f"{nope.scope} {nope.thing}" if nope.thing.startswith("-") else nope.thing
    if nope.ask:
        body = f"ask the person before `{shown}`"
    elif pipe:
        body = f"never pipe `{pipe.group(1)}` into `{pipe.group(2)}`"
    elif nope.thing == nope.scope.split()[0] or " " in nope.thing:
        body = f"never run `{nope.scope if nope.thing == nope.scope.split()[0] else nope.thing}`"
    elif nope.thing.startswith("-") and " " not in nope.scope:
        body = f"never run `{nope.scope} {nope.thing}`"
    elif nope.thing.startswith("-"):
        body = f"never pass `{nope.thing}` to `{nope.scope}`"  # the form the rule's check reads as a flag
    else:
        body = f"never use `{nope.thing}`"
    # (a pipe into a shell is how a tool gets installed; "When running `curl`, never pipe" would read,
    # to the gate, as the thing it forbids)
    phrase = "installing a tool" if pipe else f"running `{nope.scope}`"
    slug = re.sub(r"[^a-z0-9]+", "-", nope.scope.lower()).strip("-")[:60] or "working-in-this-project"
    # (in Chinese or Japanese the words are set as code, as in a proposed wording: the imperative
    # lint would read the whole line as that language)
    quoted = "`" + said.replace("`", "'") + "`" if re.search(f"[{CHINESE_JAPANESE}]", said) else f'"{said}"'
    return Rule(f"When {phrase}, {body} (the person said: {quoted}).", "correction", slug, phrase,
                ("never", nope.thing.lower()), ev.turn_id, why + "; it forbids a thing of the agent's last command",
                ev.grown, "", nope.thing, 0 if ev.grown else 1)


def proposed_wording(ev: TurnEvidence, lesson: Lesson, *, fix: bool = True) -> str:
    """A wording for a correction no rule could be built from, for the person to accept, edit or
    dismiss in review: the rule held back, or what the agent's fix did with the person's words as
    its reason, or (``fix=False``, or nothing redone) the person's instruction in their words,
    scoped by what the agent was doing."""
    text = person_text(ev.turn.user_text)
    if lesson.kind == "none" and lesson.rule and fix:
        return lesson.rule  # a rule built, then held back (``_doubt``): the person sees it as it would read
    redo = redo_of(ev) if fix else None
    said = " ".join(text.split())[:160].replace('"', "'")
    if redo is not None and redo.after.strip() and (
            redo.kind == "rewrite" and not lesson.quote
            or redo.kind in ("api", "add", "swap", "value", "flag") and redo.standing
            and not _instructs_strongly(lesson.quote or text)):
        # the agent's fix is the proposal, the person's words its reason — never their complaint
        # made an instruction ("always do as the user said: 'that rewrites the whole table'",
        # "… 'ScrollView with 5000 orders, smooth'" when the fix wrote `<FlatList`)
        if redo.rule and redo.kind != "rewrite":
            return f"When {redo.scope}, {redo.rule.rstrip('.')} (the person said: \"{said}\")."
        before = f", not as `{redo.before.replace('`', chr(39))}`" if redo.before.strip() else ""
        return (f"When {redo.scope}, write it as the fix did (`{redo.after.replace('`', chr(39))}`){before}"
                f" (the person said: \"{said}\").")
    words = lesson.quote or " ".join(text.split())[:200]
    # "ok thanks. for next time: …" — the lesson is what follows the marker
    m = FUTURE.search(words)
    if m and m.start() < len(words) // 2:
        rest = re.sub(r"^[\s:,，、：—–-]+", "", words[m.end():])
        words = rest if len(rest) >= 12 else words
    # scoped by what the words are about; the task's commands say what the agent was doing then,
    # not what a lesson about dates or logs is about ("When running the tests, … datetime …")
    _slug, phrase = _topic(words)
    # The person's words are data inside an English imperative. In CJK they are set as code (`…`):
    # the imperative lint would otherwise read the whole line as Japanese or Chinese and find no
    # imperative verb in it.
    if re.search(f"[{CHINESE_JAPANESE}]", words):
        quoted = "`" + words.replace("`", "'") + "`"
    else:
        quoted = '"' + words.replace('"', "'") + '"'
    return f"When {phrase}, always do as the user said: {quoted}"


# Tools whose failure is fixed by reading the file first (Claude Code refuses to edit a file it has
# not read in the session); a fix by any *other* tool says nothing certain about the failure.
_NEEDS_READ_FIRST = {"Edit", "Write", "MultiEdit", "NotebookEdit", "str_replace_editor", "apply_patch"}
_READERS = {"Read", "View", "read_file", "view"}


def rules_from_recovery(ev: TurnEvidence) -> list[Rule]:
    """One rule from the first real error the agent got past in this turn (see ``_recovery``)."""
    return _recovery(ev)[0]


# What a fixing action does, read from the command alone.
_INSTALL = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:sudo\s+)?(?:uv\s+pip|pip3?|python3?\s+-m\s+pip|uv|poetry|pipenv|npm|pnpm"
                      r"|yarn|bun|cargo|go|gem|brew|apt(?:-get)?|conda)\s+(?:install|add|get|i)\b", re.I)
_CREATE = re.compile(r"^(?:touch|mkdir|cp|install -d)\b|^(?:Write|create_file)\b", re.I)
_SETVAR = re.compile(r"^(?:export\s+[A-Z_][A-Z0-9_]*=|[A-Z_][A-Z0-9_]*=\S*\s*$|set\s+-x\s+[A-Z_]"
                     r"|setenv\b|direnv allow)", re.I)
# A "fix" that switches off a check, a signature or a confirmation is never written as a rule.
# A recovery or a redo that lowers the safety posture (hooks skipped, another package index, a
# remote, PATH… — safety/posture.py, the one definition the gate uses too), or runs what is
# dangerous on its face: the person's to confirm, never a rule by itself.
_UNSAFE_FIX = re.compile(r"\bsudo\b|--force(?![\w-])|\|\s*(?:ba|z)?sh\b|\brm\s+-[rf]{1,2}\s+[~/]|--insecure|"
                         r"\bcurl\b[^|]*\s-k\b|--no-verify|REJECT_UNAUTHORIZED\s*=\s*0|PYTHONHTTPSVERIFY\s*=\s*0|"
                         r"--allow-unauthenticated|" + COMMAND_FORMS, re.I)
# The kind of failure, from a fixed vocabulary: what failed is never quoted into a rule (a tool's
# output is anyone's text; only the commands are the agent's own).
_ERROR_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a missing module", re.compile(r"ModuleNotFoundError|No module named|Cannot find module|ImportError"
                                    r"|cannot find package|could not resolve dependency|Can't locate \S+ in @INC", re.I)),
    ("command not found", re.compile(r"command not found|: not found\b|is not recognized as", re.I)),
    ("a missing file", re.compile(r"No such file or directory|FileNotFoundError|ENOENT|does not exist"
                                  r"|not found: \S+\.\w+", re.I)),
    ("a missing environment variable", re.compile(r"environment variable|env var|is not set|must be set"
                                                  r"|KeyError: '[A-Z_]{3,}'|missing required (?:config|setting)", re.I)),
    ("permission denied", re.compile(r"permission denied|EACCES|Operation not permitted", re.I)),
    ("a failing test", re.compile(r"\bFAILED\b|\d+ failed|AssertionError|Tests?:\s+\d+ failed", re.I)),
    ("a syntax error", re.compile(r"SyntaxError|syntax error|ParseError|unexpected token", re.I)),
)


def _error_kind(output: str, err: dict[str, Any]) -> str:
    text = f"{output}\n{err.get('excerpt') or ''}\n{err.get('evidence') or ''}"
    for label, rx in _ERROR_KINDS:
        if rx.search(text):
            return label
    m = re.search(r"exit (?:code|status)\s*(\d+)", text, re.I)
    return f"exit code {m.group(1)}" if m else "an error"


def _fix_kind(call: ToolCall, cmd: str) -> str | None:
    if _INSTALL.search(cmd):
        return "install"
    if call.name in ("Write", "create_file") or _CREATE.search(cmd):
        return "create"
    if _SETVAR.search(cmd):
        return "setvar"
    return None


def _recovery(ev: TurnEvidence) -> tuple[list[Rule], list[str]]:
    """(rules, notes) from the first real error the agent got past in this turn.

    The fix must be plainly related to the failure: the same tool run again with a different
    command ("`python` not found" → `python3`); reading a file before editing it; or a different
    fixing action — installing a package, creating a file, setting a variable — followed by the
    failed command passing on its retry. Any other later success may be unrelated work, and the
    distiller says nothing rather than guess. The rule is built from the commands and a fixed name
    for the kind of failure; nothing of the failing output is quoted.
    """
    steps = ev.turn.steps
    calls = {s.call.id: s.call for s in steps if s.kind == "tool_call" and s.call and s.call.id}
    called_at = {s.call.id: k for k, s in enumerate(steps)
                 if s.kind == "tool_call" and s.call and s.call.id}
    error_steps = {int(e["step"]): e for e in ev.real_errors if e.get("step") is not None}
    notes: list[str] = []
    for i, err in sorted(error_steps.items()):
        if i >= len(steps):
            continue
        failed = steps[i].result
        failed_call = calls.get(failed.call_id) if failed and failed.call_id else None
        if failed is None or failed_call is None:
            continue
        # the successful calls after the failure, in order (a parallel call made before the failure
        # was seen cannot be its fix)
        later: list[ToolCall] = []
        for j in range(i + 1, len(steps)):
            st = steps[j]
            if st.kind == "tool_result" and st.result and not st.result.rejected and j not in error_steps:
                cid = st.result.call_id
                if cid and called_at.get(cid, -1) > i and cid in calls:
                    if masked(_command(calls[cid])):
                        notes.append(f"turn {ev.turn_id}: `{_short(_command(calls[cid]))}` passed only with its exit "
                                     "code masked or a check skipped; it is no recovery")
                        break  # what follows a masked step proves nothing either
                    later.append(calls[cid])
        if not later:
            continue
        before = _command(failed_call)
        kind = _error_kind(failed.output, err)
        before_s = _short(before)
        first = before_s.split()[0].lower() if before_s.split() else before_s
        fix_call, after = later[0], _command(later[0])
        if not before or not after or before == after:
            continue
        after_s = _short(after)
        # the skill is the activity that failed (`pytest` → running-tests), not the fix's (an install)
        slug, phrase = _topic(before)
        if slug == "working-in-this-project":
            slug, phrase = _topic(before, after)
        text = None
        if fix_call.name == failed_call.name and _same_attempt(before, after):
            text = f"When `{before_s}` fails with {kind}, run `{after_s}` instead."
        elif (failed_call.name in _NEEDS_READ_FIRST and fix_call.name in _READERS
              and _same_file(failed_call, fix_call)):
            text = (f"When {failed_call.name} fails with {kind}, read the file with "
                    f"{fix_call.name} first, then retry the {failed_call.name}.")
        else:
            fix = _fix_kind(fix_call, after)
            retried = any(_command(c) == before or (c.name == failed_call.name and _same_attempt(before, _command(c)))
                          for c in later[1:])
            if fix and retried:
                what = {"install": "install what is missing", "create": "create it",
                        "setvar": "set the variable"}[fix]
                text = (f"When `{before_s}` fails with {kind}, {what} (`{after_s}`), then run "
                        f"`{before_s}` again.")
        if text is None:
            continue
        if _UNSAFE_FIX.search(after) or masked(after):
            notes.append(f"turn {ev.turn_id}: the agent got past a failing `{first}` with a command that "
                         "switches off a check or needs elevated rights; it is not written as a rule")
            continue
        return [Rule(text, "recovery", slug, phrase, ("recover", first, kind), ev.turn_id,
                     f"turn {ev.turn_id}: `{before_s}` failed with {kind}, then `{after_s}` worked")], notes
    return [], notes


def _same_attempt(before: str, after: str) -> bool:
    """Whether ``after`` is another try at what ``before`` did, not unrelated next work.

    Another program on the same arguments (`python x.py` → `python3 x.py`, `npm i` → `pnpm i`), or
    a command sharing at least half its words with the failed one (`pytest -x` → `python3 -m
    pytest -x`). `tree /proj -L 3` failing and then `ls -la /proj/src` working is not a fix for
    it: a rule drawn from that would be wrong, and the distiller rather says nothing.
    """
    a, b = before.split(), after.split()
    if not a or not b:
        return False
    if a[1:] == b[1:]:
        return bool(a[1:]) or a[0].startswith(b[0]) or b[0].startswith(a[0])
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) >= 0.5


def _same_file(edit: ToolCall, read: ToolCall) -> bool:
    """The read is of the file the edit was refused on (when both name one)."""
    def target(call: ToolCall) -> str | None:
        inp = call.input if isinstance(call.input, dict) else {}
        for key in ("file_path", "path", "notebook_path"):
            if isinstance(inp.get(key), str) and inp[key].strip():
                return inp[key].strip()
        return None
    a, b = target(edit), target(read)
    return a is None or b is None or a == b


def _short(cmd: str, n: int = 80) -> str:
    first = cmd.strip().splitlines()[0] if cmd.strip() else ""
    first = first.replace("`", "'")
    return first if len(first) <= n else first[: n - 1] + "…"


_COUNT = re.compile(r"\s*\(corrected (\d+) times\)\s*$")
_CHOICE = re.compile(r"\balways use (?P<x>.+?)(?:, never (?P<y>.+?))?\.(?:\s|$)")


def _base(entry: str) -> str:
    return _COUNT.sub("", entry).strip()


def _times(entry: str) -> int:
    m = _COUNT.search(entry)
    return int(m.group(1)) if m else 1


def _with_count(text: str, n: int) -> str:
    return text if n < 2 else f"{text} (corrected {n} times)"


def _same_library(name: str, other: str) -> bool:
    """`@reduxjs/toolkit` and "redux", `github.com/sirupsen/logrus` and "logrus": one names the other's
    library by a part of it."""
    parts = [p for p in re.split(r"[@/._-]+", name.lower()) if len(p) >= 3]
    o = other.lower().strip("`@")
    return len(o) >= 4 and any(p == o or p.startswith(o) and len(p) - len(o) <= 2 for p in parts)


def _recommended(entry: str) -> str:
    """The part of a memo entry that says what to use (not what it says never to use)."""
    return re.split(r"\b(?:never|not)\b", entry.lower(), maxsplit=1)[0]


def _relation(rule: Rule, entry: str) -> str | None:
    """'same' when ``entry`` already holds this lesson, 'contradicts' when it holds the older side of
    a change of mind (another tool, branch, format … for the same thing), else None."""
    base = _base(entry)
    if base == rule.text or similar(base, rule.text) >= 0.999:
        return "same"
    avoid = rule.avoid.strip("`").lower()
    if avoid and rule.kind == "correction" and base.startswith(f"When {rule.topic_phrase},"):
        positive = re.split(r"\b(?:never|not)\b", base.lower(), maxsplit=1)[0]
        if avoid in positive and rule.use.strip("`").lower() not in positive:
            return "contradicts"  # "start branch names with `feature/`" after "…`feat/`, never `feature/`"
    if avoid and rule.kind == "correction":
        # a change of mind, whatever the form: the older rule recommends what this one says not to use
        m = re.search(r"\balways (?:use|follow|run)\s+`?(?P<x>[^`,.(]+?)`?(?:\s*\(|,|\.|\s+never|$)", base)
        x = m.group("x").strip().lower() if m else ""
        q = re.search(r"\balways use `(?P<q>[^`]+)`", base)
        if q and not m:
            m, x = q, q.group("q").strip().lower()
        elif q and q.group("q").strip().lower() != x:
            qx = q.group("q").strip().lower()
            if (qx == avoid or qx.endswith("/" + avoid) or qx.startswith(avoid + " ")) and \
                    rule.use.strip("`").lower() not in _recommended(base):
                return "contradicts"  # "always use `config/flags.ini`" after "…, never `flags.ini`"
        if m and (x == avoid or x.rstrip("0123456789.-") == avoid or x.endswith("/" + avoid) or x.startswith(avoid + " ")
                  or _same_library(x, avoid)) and (
                rule.use.strip("`").lower() not in _recommended(base)):
            return "contradicts"
        # … or it says never to use what this one says to use ("always use @reduxjs/toolkit, never
        # zustand" after "always use zustand, never redux")
        use = rule.use.strip("`").lower()
        parts = re.split(r"\bnever\b", base.lower().replace("`", ""), maxsplit=1)
        if m and use and len(parts) == 2 and re.search(rf"(?<![\w@/.-]){re.escape(use)}(?![\w/-])", parts[1]) \
                and use not in parts[0]:
            return "contradicts"
    if not avoid and rule.kind == "correction" and rule.use:
        # "we're back on docker": the older rule says never to use what this one now says to use
        use = rule.use.strip("`").lower()
        parts = re.split(r"\bnever\b", base.lower().replace("`", ""), maxsplit=1)
        for name in dict.fromkeys((use, use.split()[0] if use.split() else use)):
            # ("always use `docker compose`" after "…`podman compose`, never `docker`": the program)
            if len(parts) == 2 and len(name) >= 2 and re.search(rf"(?<![\w@/.-]){re.escape(name)}(?![\w/-])", parts[1]) \
                    and name not in parts[0]:
                return "contradicts"
    if rule.key[0] == "choice":
        m = _CHOICE.search(base.replace("`", ""))
        if not m:
            return None
        ox, oy = m.group("x").strip().lower(), (m.group("y") or "").strip().lower()
        nx, ny = rule.use.lower(), rule.avoid.lower()
        cat = category(ox, oy)
        same_thing = (cat is not None and ("choice", cat[0]) == rule.key) or (oy and oy == ny) \
            or ox == ny or (oy and oy == nx)
        if not same_thing:
            return None
        # the same program is the same choice ("pnpm" and `pnpm add`): no change of mind
        return "same" if ox == nx or ox.split()[:1] == nx.strip("`").split()[:1] else "contradicts"
    if rule.key[0] == "must":
        # "the page size must be 50" after "… must be 20": the same subject, another value
        m = _MUST.search(base)
        if m and m.group("subj").lower() == rule.key[1]:
            return "same" if m.group("x").lower() == rule.use.lower() else "contradicts"
    if rule.key[0] in ("always", "never"):
        # "never push to main" after "always push to main": the same action, the other way
        other = "never" if rule.key[0] == "always" else "always"
        if re.search(rf"\b{other} {re.escape(rule.key[1])}", base, re.I):
            return "contradicts"
    if rule.key[0] in ("quote", "must", "always", "never") and similar(base, rule.text) >= 0.75:
        return "same"
    return None


_MUST = re.compile(r"\balways make sure (?P<subj>.+?) (?:is|are) (?P<x>.+?)(?:, not .+?)?(?: \(because .*\))?\.(?:\s|$)")


def _pitfall(rule: Rule, n: int) -> str:
    """A strengths-and-pitfalls entry for a correction needed ``n`` ≥ 2 times. Kept short: the
    ``known_weakness`` signal matches a later task against its words, and every extra word makes a
    match harder."""
    phrase = rule.topic_phrase.replace(" in this project", "").replace(" in this repository", "")
    if rule.use and rule.avoid:
        return f"Pitfall: when {phrase}, use {rule.use}, not {rule.avoid}."
    core = rule.text.split(", ", 1)[-1].rstrip(".")
    return f"Pitfall: when {phrase}, {core}."


def distill(evidence: Iterable[TurnEvidence], *, memo: dict[str, list[str]],
            skills: dict[str, str]) -> Distilled:
    """Propose actions from recorded turns. ``memo``: section → entries; ``skills``: name → body."""
    out = Distilled()
    rules, retracted = _read(list(evidence), memo, out)
    # within this reflection: a repeat adds to the count, a change of mind keeps the latest
    latest: dict[tuple[str, ...], Rule] = {}
    for r in rules:
        prev = latest.get(r.key)
        if prev is not None and prev.kind == "correction" and (prev.use or prev.text) == (r.use or r.text):
            r = replace(r, count=prev.count + r.count, why=f"{prev.why}; {r.why}")
        latest[r.key] = r
    plays = list(memo.get("plays", []))
    strengths = list(memo.get("strengths", []))
    for taken_back, why in dict(retracted).items():
        if taken_back in plays:
            out.actions.append(Action("update_memo", f"{why}: retracts {_base(taken_back)!r}", section="plays",
                                      op="remove", match=taken_back))
            plays.remove(taken_back)
            out.notes.append(f"a retraction: {_base(taken_back)!r} is removed (in the history; undo brings it back)")
    skill_lines: dict[str, str] = dict(skills)
    created: dict[str, int] = {}  # skill name -> index of its create_skill action in this run
    patched: dict[str, int] = {}  # skill name -> index of its patch_skill action in this run
    for rule in latest.values():
        # a person may paste a token into a correction, an agent may export one to recover: a
        # rule is read at every session start, so no secret goes into one
        rule = replace(rule, text=redact(rule.text).text, why=redact(rule.why).text)
        out.rules.append(rule)
        if rule.kind == "correction":
            _memo_rule(out, rule, plays, strengths)
        else:
            _skill_rule(out, rule, skill_lines, created, patched)
    if not out.actions:
        out.actions.append(Action("nothing", "no explicit correction with a stated fix and no "
                                             "recovered real error in the new turns"))
    return out


def _asked_for(name: str, previous: Turn | None) -> bool:
    """The person's previous message asked for ``name`` — what the agent now takes out again."""
    return asked_for((name or "").strip("`").split()[-1:], previous)


def _restores(name: str, previous: Turn | None) -> bool:
    """``name`` is what the agent had taken out in ``previous`` (an edit's old text, a package
    removed): bringing it back restores, it is no new choice."""
    n = (name or "").strip("`").split()[-1:] if name else []
    if previous is None or not n or len(n[0]) < 3:
        return False
    w = n[0].lower()
    for a in turn_acts(previous, rejected=False):
        if a.kind == "edit" and w in a.old.lower() and w not in a.new.lower():
            return True
        if a.kind == "run" and re.search(r"\b(?:rm|remove|uninstall|un)\b", a.command) and w in a.command.lower():
            return True
    return False


def _cmd_key(command: str) -> str:
    return " ".join(command.split())


def _puts_back(ev: TurnEvidence, prev_ev: TurnEvidence | None) -> bool:
    """Right after the person spoke, the agent put back what it had before their last correction —
    an edit of that correction reversed, or the command the correction replaced run again (`git
    rebase` after a merge it was told to do): the person took the correction back, in any words."""
    if prev_ev is None or not prev_ev.corrected or ev.previous is None \
            or prev_ev.turn.index != ev.turn.index - 1 or (ev.turn.session_id or "") != (prev_ev.turn.session_id or ""):
        return False
    back = redo_of(ev)
    if back is not None and back.kind in ("keep", "undo"):
        return True  # the agent's change made on that correction, taken back or its old code put back
    if back is not None and back.kind in ("swap", "api") and _asked_for(back.avoid, ev.previous) \
            and _restores(back.use, ev.previous):
        return True  # "troca o axios por fetch" … and now fetch goes again: the request taken back
    if prev_ev.previous is None:
        return False
    now = turn_acts(ev.turn, rejected=False)
    last = turn_acts(prev_ev.turn, rejected=False)
    first = turn_acts(prev_ev.previous, rejected=False)
    for a in now:
        if a.kind == "edit" and a.old.strip() and any(
                b.kind == "edit" and b.new.strip() == a.old.strip() and b.old.strip() == a.new.strip() for b in last):
            return True
    first_cmds = {_cmd_key(a.command) for a in first if a.kind == "run"}
    last_cmds = {_cmd_key(a.command) for a in last if a.kind == "run"}
    again = [a for a in now if a.kind == "run" and _cmd_key(a.command) in first_cmds - last_cmds]
    return bool(again) and bool(last_cmds - first_cmds)


def _read(evidence: list[TurnEvidence], memo: dict[str, list[str]], out: Distilled
          ) -> tuple[list[Rule], list[tuple[str, str]]]:
    """The rules the turns teach, and the memo entries the person took back (entry, why); notes
    and unlearned corrections go to ``out``."""
    rules: list[Rule] = []
    evidence_list = evidence
    plays_now = list(memo.get("plays", []))
    retracted: list[tuple[str, str]] = []  # (memo entry, why) taken back by the person
    prev_ev: TurnEvidence | None = None
    for ev in evidence:
        said_now = person_text(ev.turn.user_text) if ev.turn.person else ""
        if said_now and (RETRACTION.search(said_now) or _puts_back(ev, prev_ev)):
            why = f"turn {ev.turn_id}: the user took back their last correction ({' '.join(said_now.split())[:80]!r})"
            before_retracted = len(retracted)
            after_correction = prev_ev is not None and prev_ev.turn.index == ev.turn.index - 1 and prev_ev.corrected
            put_back = redo_of(ev)
            after_correction = after_correction or put_back is not None  # the agent put something back
            if prev_ev is not None and prev_ev.turn.index == ev.turn.index - 1:
                dropped = [rl for rl in rules if rl.turn_id == prev_ev.turn_id]
                rules = [rl for rl in rules if rl.turn_id != prev_ev.turn_id]
                out.notes.extend(f"{why}: not learned: {rl.text}" for rl in dropped)
            taught = (rules_from_correction(TurnEvidence(0, ev.previous, True, None, None, (), False))
                      if ev.previous is not None else [])
            names = [n for n in ((put_back.before, put_back.after) if put_back else ()) if len(n) >= 3]
            # what the person names as not wanted after all ("we're not taking structlog on")
            named = [w for w in re.findall(r"[A-Za-z][\w.+/-]{2,}", said_now)
                     if any(_recommends(entry, w) for entry in plays_now) and w.lower() not in _PLAIN]
            for entry in plays_now:
                if any(_relation(t, entry) == "same" for t in taught) or any(n in entry for n in names) \
                        or any(_recommends(entry, w) for w in named):
                    retracted.append((entry, why))
            if after_correction or len(retracted) > before_retracted:
                if len(retracted) == before_retracted:
                    out.notes.append(f"{why}; no rule kept: a retraction teaches nothing new")
                prev_ev = ev
                continue
            # nothing of the agent's to take back, nothing put back ("the Jotai idea is withdrawn:
            # we stay on React Context"): what the words choose is read like any correction
        if ev.corrected:
            found, lesson = _correction(ev)
            for entry, why_gone in _superseded(ev, said_now, plays_now, found):
                if all(entry != e for e, _w in retracted):
                    retracted.append((entry, why_gone))
            if not found:
                said = ev.correction_evidence or "the user corrected the agent"
                if not said.startswith("the user"):
                    said = f"the user corrected the agent ({said})"
                if lesson.why_none.startswith(("a one-off", "it says where to put this one thing",
                                               "the words were reported", "the person took back")) \
                        or _DEICTIC_ONE_OFF.search(said_now):
                    out.notes.append(f"turn {ev.turn_id}: {said}; no rule kept: {lesson.why_none}")
                else:
                    wording = proposed_wording(ev, lesson)
                    reason = (f"turn {ev.turn_id}: {UNLEARNED} — {said}; no rule could be built "
                              f"({lesson.why_none or 'no clean imperative in the words'}): accept, edit or "
                              "dismiss this wording")
                    repeat = next((i for i, (held, _why) in enumerate(out.unlearned)
                                   if similar(held.text, wording) >= 0.75), None)
                    if repeat is not None:
                        held, held_why = out.unlearned[repeat]
                        out.unlearned[repeat] = (held, held_why + f"; said again at turn {ev.turn_id}")
                    else:
                        out.unlearned.append((Action("update_memo", reason, section="plays", op="add",
                                                     text=wording), reason))
                    out.notes.append(f"turn {ev.turn_id}: {said}; no rule could be built, a wording waits "
                                     "for the person in `slowloop review`")
            elif found[0].key[0] == "quote":
                out.notes.append(f"turn {ev.turn_id}: no clean imperative could be built from the "
                                 "correction, so the rule keeps the person's instruction in their own "
                                 f"words: {found[0].text}")
            rules.extend(found)
        if ev.real_errors and not ev.transient_only:
            found_r, why_not = _recovery(ev)
            if found_r and _objected(ev, evidence_list):
                out.notes.append(f"turn {ev.turn_id}: the person corrected the agent right after this "
                                 f"recovery; it is not written as a rule: {found_r[0].text}")
                found_r = []
            rules.extend(found_r)
            out.notes.extend(why_not)
        prev_ev = ev
    return rules, retracted


def _superseded(ev: TurnEvidence, said: str, plays: list[str], found: list[Rule]) -> list[tuple[str, str]]:
    """An older rule the person's correction names, and which the agent's redo right after does
    without ("kaniko ist inzwischen archiviert, … mach den job mit buildah", and the job is rewritten
    with buildah): a change of mind, even when no new rule could be built from the words — the older
    rule never stays beside it (in the history; undo brings it back)."""
    done = " ".join(a.command + " " + a.new for a in turn_acts(ev.turn, rejected=False)).lower()
    if not said or not done.strip():
        return []
    out = []
    for entry in plays:
        if any(_relation(r, entry) == "same" for r in found):
            continue
        for w in dict.fromkeys(re.findall(r"[A-Za-z][\w.+/-]{2,}", said)):
            low = w.lower().rstrip(".")
            if low in _PLAIN or not _recommends(entry, w) or low in done:
                continue
            out.append((entry, f"turn {ev.turn_id}: the person's correction names `{w}`, which this rule "
                        "recommends, and the agent's redo does without it: a change of mind"))
            break
    return out


def _memo_rule(out: Distilled, rule: Rule, plays: list[str], strengths: list[str]) -> None:
    """A correction's rule into the memo: a repeat strengthens the known one, a change of mind
    replaces the older, else a new entry; a rule needed twice becomes a pitfall too."""
    relations = [(e, _relation(rule, e)) for e in plays]
    same = [e for e, rel in relations if rel == "same"]
    stale = [e for e, rel in relations if rel == "contradicts"]
    if same and rule.count == 0:
        out.notes.append(f"already known (turn {rule.turn_id} was read before; it grew since): "
                         f"{rule.text}")
        return
    n = rule.count + max((_times(e) for e in same), default=0)
    text = _with_count(rule.text, n)
    # Two lines about the same thing (a sync merged both sides, a person pasted one back):
    # one stays. "R." is part of "R. (corrected 2 times)", and a change names its entry by
    # text: the shortest line is the one kept (rewritten), the others are removed first,
    # longest first, so every match names exactly one entry.
    same.sort(key=len)
    extras = same[1:] + (stale if same else stale[1:])
    for extra in sorted(extras, key=len, reverse=True):
        out.actions.append(Action("update_memo", f"{rule.why}: "
                                  + ("the same rule twice" if extra in same else
                                     f"contradicted by {rule.text!r}"),
                                  section="plays", op="remove", match=extra))
        plays.remove(extra)
    if same:
        out.actions.append(Action("update_memo", f"{rule.why}: said again, now {n} times",
                                  section="plays", op="replace", match=same[0], text=text))
        plays[plays.index(same[0])] = text
        out.notes.append(f"a repeat strengthens a known rule ({n} times): {rule.text}")
    elif stale:
        out.actions.append(Action("update_memo", f"{rule.why}: replaces the older rule "
                                  f"{_base(stale[0])!r} (a change of mind)",
                                  section="plays", op="replace", match=stale[0], text=text))
        plays[plays.index(stale[0])] = text
        out.notes.append(f"a change of mind: {_base(stale[0])!r} is replaced by {rule.text!r} "
                         "(in the history; `slowloop undo` brings the older rule back)")
    else:
        out.actions.append(Action("update_memo", rule.why, section="plays", op="add",
                                  text=text))
        plays.append(text)
    # a pitfall that tells the agent to use what it should no longer use goes with the rule
    for old in stale:
        m = _CHOICE.search(_base(old))
        gone = m.group("x").strip().lower() if m else ""
        for e in [e for e in strengths if gone and e.startswith("Pitfall")
                  and re.search(rf"\buse {re.escape(gone)}\b", e, re.I)]:
            out.actions.append(Action("update_memo", f"{rule.why}: the pitfall was about the "
                                      f"older rule {_base(old)!r}", section="strengths",
                                      op="remove", match=e))
            strengths.remove(e)
    if n >= 2 and not any(rule.use and rule.use.lower() in e.lower() and e.startswith("Pitfall")
                          or similar(e, _pitfall(rule, n)) >= 0.6 for e in strengths):
        pit = _pitfall(rule, n)
        out.actions.append(Action("update_memo", f"{rule.why}: the same correction was needed "
                                  f"{n} times", section="strengths", op="add", text=pit))
        strengths.append(pit)


def _skill_rule(out: Distilled, rule: Rule, skill_lines: dict[str, str], created: dict[str, int],
                patched: dict[str, int]) -> None:
    """A recovery's rule into the skill of its activity: patched after its last line, folded into
    a create or a patch this reflection already proposes, or a new skill."""
    name = rule.topic
    body = skill_lines.get(name)
    if body is not None:
        if any(similar(line, rule.text) >= 0.8 for line in body.splitlines()):
            out.notes.append(f"already known in skill {name}: {rule.text}")
            return
        if name in created:
            # created by this same reflection: the skill does not exist yet, so a patch
            # would be rejected; the rule goes into the body being created instead
            i = created[name]
            body = body.rstrip("\n") + f"\n- {rule.text}\n"
            out.actions[i] = replace(out.actions[i], body=body,
                                     reason=f"{out.actions[i].reason}; {rule.why}")
            skill_lines[name] = body
            return
        if name in patched:
            # patched by this same reflection: one skill takes one patch per reflection
            # (a second is rejected), so the rule extends the patch already proposed
            i = patched[name]
            out.actions[i] = replace(out.actions[i], new=f"{out.actions[i].new}\n- {rule.text}",
                                     reason=f"{out.actions[i].reason}; {rule.why}")
            skill_lines[name] = body.rstrip("\n") + f"\n- {rule.text}\n"
            return
        lines = [ln for ln in body.rstrip("\n").splitlines() if ln.strip()]
        anchor = lines[-1] if lines else ""
        if anchor and body.count(anchor) == 1:
            patched[name] = len(out.actions)
            out.actions.append(Action("patch_skill", rule.why, name=name, old=anchor,
                                      new=f"{anchor}\n- {rule.text}"))
            skill_lines[name] = body.replace(anchor, f"{anchor}\n- {rule.text}")
            return
        out.notes.append(f"skill {name} has no unique last line to patch after; skipped")
        return
    description = (f"Recoveries learned while {rule.topic_phrase}: what to do when a command "
                   f"fails. Use when {rule.topic_phrase} and something fails.")
    body = f"# {name.replace('-', ' ').capitalize()}\n\n## Rules\n- {rule.text}\n"
    created[name] = len(out.actions)
    out.actions.append(Action("create_skill", rule.why, name=name, description=description,
                              body=body))
    skill_lines[name] = body
