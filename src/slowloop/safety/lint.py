"""Is a learned line an executable instruction, or a description dressed up as one?

Reflection must write rules an agent can act on (SPEC §1.5): "When replying in a family-office
context, always give the conclusion first" — not "The user seems to prefer concise output". This
module judges one line at a time with word lists, no model: a line is *actionable* when it carries
an imperative (a verb at the head of a clause, a never/always form, a must-modal) with a concrete
trigger or scope (when / if / before / after / in this repo / for X / a `command`), is not hedged,
and names an action rather than a feeling ("be careful", "remember that quality matters").

The word tables (:mod:`slowloop.safety.lint_words`) cover English, Chinese, Italian, Portuguese, French, Spanish, German and
Japanese. Latin-script text is matched casefolded and without accents, so one entry covers
"instálalo" and "instalalo"; CJK text is matched as written. Precision and recall are measured on
``tests/data/lint.jsonl`` by ``tests/test_lint.py``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..text import CHINESE_JAPANESE, HAN_COMPAT, KANA
from . import lint_words as W

__all__ = ["LintResult", "LintFinding", "lint_line", "lint_text"]


@dataclass(frozen=True)
class LintResult:
    actionable: bool
    reason: str


@dataclass(frozen=True)
class LintFinding:
    path: str
    line: int
    text: str
    actionable: bool
    reason: str

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "text": self.text,
                "actionable": self.actionable, "reason": self.reason}


# --- text normalisation -------------------------------------------------------------------------

# Latin-1 + Latin Extended-A letters to their base letter; leaves CJK untouched (unlike NFKD,
# which would split Japanese dakuten).
_ACCENTS = {
    cp: base for cp in range(0xC0, 0x180)
    if (base := unicodedata.normalize("NFD", chr(cp))[0]).isascii() and base != chr(cp)
}
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_NUMBERED = re.compile(r"^\s*(?:\d{1,3}|[a-z])[.)]\s+|^\s*[0-9０-９]{1,3}[．。、]\s*", re.I)
_BULLET = re.compile(r"^\s*(?:[-*+•]|\[[ xX]\])\s+(?:\[[ xX]\]\s+)?")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_CJK = re.compile(f"[{CHINESE_JAPANESE}{HAN_COMPAT}]")
_KANA = re.compile(f"[{KANA}]")


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_RX = {
    "clause_split": _c(r"[,;:.!?()\"“”«»¿¡]+|\s[-–—]\s|\bthen\b|\s(?:and|e|y|et|und)\s(?=(?:"
                       + W.VERB[:-2] + r")\b)"),
    "directive": _c(rf"^(?:(?:{W.LEAD})\s+|n')*(?:{W.VERB}|{W.NEG_INF}|{W.NEG_ES})|^{W.NEG_FR}"),
    "remind": _c(rf"^(?:{W.REMIND})\s+\w"),
    "modal": _c(rf"^(?:(?:{W.LEAD})\s+)*(?:{W.MODAL})\b"),
    "always_never": _c(rf"^(?:(?:{W.LEAD})\s+|n')*(?:{W.ALWAYS_NEVER}){W.NOT_WHENEVER}\s+\w"),
    "trigger": _c(rf"(?<![\w'-])(?:{W.TRIGGER})(?![\w-])"),
    "scope": _c(rf"(?<![\w'-])(?:{W.SCOPE})(?![\w-])"),
    # A line that opens with a prepositional phrase opens with its scope ("For tax questions, …").
    # A purpose clause scopes the action: "use a table to compare options", "pour comparer".
    "purpose": _c(rf"\s(?:to|in\s+order\s+to)\s+{W.VERB}"
                  r"|\s(?:pour|para|per)\s+[a-z]+(?:er|ir|ar|re)\b"
                  r"|\bum\s.+\szu\s"),
    "scope_lead": _c(r"^(?:for|per|pour|para|fur|in|on|im|nel|nei|nella|em|no|na|en|dans|bei)"
                     r"\s+\w"),
    "marker": _c(rf"(?<![\w'-])(?:{W.ALWAYS_NEVER}|only|solo|somente|seulement|nur|keine?n?)"
                 rf"{W.NOT_WHENEVER}(?![\w-])"),
    "hedge": _c(rf"(?<![\w'-])({W.HEDGE})(?![\w-])"),
    "vague": _c(rf"(?<![\w'-])({W.VAGUE})(?![\w-])"
                r"|^(?:always\s+|never\s+|don't\s+|do\s+not\s+)?(be)\s+\w+"),
    "vague_tail": _c(W.VAGUE_TAIL),
    "user": _c(rf"^(?:{W.SUBJECT_USER})\b"),
    "agent": _c(rf"^(?:{W.SUBJECT_AGENT})\b"),
    "self": _c(rf"^(?:{W.SUBJECT_SELF})\b"),
    "past": _c(rf"(?<![\w'-])(?:{W.PAST})(?![\w-])"),
    # German rules are often written with the infinitive: "Bei Steuerfragen immer … angeben."
    "de_infinitive": _c(r"^(?!(?:der|die|das|dem|den|es|ich|wir|er|sie|man)\s)"
                        r"(?:bei|vor|nach|immer|nie|niemals|stets|zuerst|im|in|nicht|keine|kein|code)\b"
                        r".*\b[a-z]+(?:en|ern|eln)\s*[.!]?\s*$"
                        # any opening but a subject or a subordinate clause, when the last word is
                        # a known verb; after an article, more than "Die Tests prüfen"
                        r"|^(?!(?:es|ich|wir|er|sie|man|du|ihr|weil|dass|da|ob|wenn|falls|als|obwohl|"
                        r"nachdem|bevor|damit|sodass|wahrend|sobald|solange)\s)"
                        r"(?!(?:der|die|das|dem|den|ein|eine)\s+\S+\s+\S+\s*$)"
                        rf"\S.*\s{W.DE_INFINITIVE}\s*[.!]?\s*$"),
    "commands": _c(rf"^code(?:\s+(?:{W.THEN})\s+code)+$"),
    "where_needs": _c(rf"(?<![\w'-])(?:{W.WHERE_NEEDS})(?![\w-])|{W.ZH_JA_WHERE_NEEDS}"),
    "zh_split": re.compile(r"[，,；;。.！!？?：:]+"),
    # the verb may follow its trigger with no comma: "推送之前先运行 …"
    "zh_directive": re.compile(rf"^请|^(?:(?:{W.ZH_LEAD}))*(?:{W.ZH_VERBS})(?!户)|{W.ZH_STRONG}"
                               rf"|(?:之前|以前|之后|以后|前|后|时)(?:{W.ZH_LEAD})*(?:{W.ZH_VERBS})(?!户)"),
    "zh_strong": re.compile(W.ZH_STRONG),
    "zh_trigger": re.compile(W.ZH_TRIGGER),
    "zh_hedge": re.compile(f"({W.ZH_HEDGE})"),
    "zh_vague": re.compile(f"({W.ZH_VAGUE})"),
    "zh_past": re.compile(r"了$|昨天|上次|上周"),
    "ja_split": re.compile(r"[。！!？?]+"),
    "ja_strong": re.compile(W.JA_STRONG),
    "ja_end": re.compile(W.JA_END),
    "ja_plain": re.compile(r"(?<!てい)(?<!でい)(?<!で)[うくぐすつぬぶむる]$"),
    "ja_topic": re.compile(r"^[^、]*?(?:は|が)"),
    # "値は表示しない", "フックは飛ばさない": a verb's plain negative states a rule, topic or not
    "ja_not": re.compile(r"(?<!て)(?<!で)[しさかたまらばわ]ない$"),
    "ja_trigger": re.compile(W.JA_TRIGGER),
    "ja_hedge": re.compile(f"({W.JA_HEDGE})"),
    "ja_vague": re.compile(f"({W.JA_VAGUE})"),
    "ja_past": re.compile(r"た$|昨日|先週|前回"),
}
_ZH_SUBJECT_RX = {k: re.compile(f"^(?:{v})") for k, v in W.ZH_SUBJECT.items()}
_JA_SUBJECT_RX = {k: re.compile(f"^(?:{v})") for k, v in W.JA_SUBJECT.items()}

_DESCRIBES = {
    "user": "describes the user instead of instructing: no imperative verb",
    "agent": "describes the agent instead of instructing: no imperative verb",
    "self": "describes the agent itself instead of instructing: no imperative verb",
}
_HOW = " (write e.g. 'When …, always …')"


@dataclass(frozen=True)
class _Features:
    directive: bool
    numbered: bool
    trigger: str  # the word that gives a trigger or scope, "" when none
    hedge: str
    vague: str
    subject: str  # "user" | "agent" | "self" | ""
    past: bool


def _prepare(text: str) -> tuple[str, bool, bool]:
    """Strip Markdown list syntax and emphasis; code spans become CODE. → (text, numbered, code)."""
    s = text.strip()
    numbered = bool(_NUMBERED.match(s))
    s = _NUMBERED.sub("", s, count=1) if numbered else _BULLET.sub("", s, count=1)
    has_code = bool(_CODE_SPAN.search(s))
    s = _CODE_SPAN.sub(" CODE ", s)
    s = _EMPHASIS.sub("", s)
    return " ".join(s.split()), numbered, has_code


def _latin(s: str, numbered: bool, has_code: bool) -> _Features:
    low = s.casefold().translate(_ACCENTS).replace("’", "'")
    clauses = [c.strip() for c in _RX["clause_split"].split(low) if c and c.strip()]
    directive = False
    original = [c.strip() for c in _RX["clause_split"].split(s.casefold()) if c and c.strip()]
    for clause in clauses:
        if W.FINITE_EARLY.match(clause):
            continue
        if (_RX["directive"].match(clause) or _RX["modal"].match(clause)
                or _RX["always_never"].match(clause) or _RX["de_infinitive"].match(clause)
                or _RX["remind"].match(clause) or _RX["commands"].match(clause)):
            directive = True
            break
    else:
        directive = any(W.GIVE.match(c) for c in original)
    trigger = ""
    for name in ("trigger", "marker", "scope", "scope_lead", "purpose"):
        m = _RX[name].search(low)
        if m:
            trigger = m.group(0).strip()
            break
    if not trigger and has_code:
        trigger = "`…`"
    hedge = _first_group(_RX["hedge"].search(low))
    vague = _first_group(_RX["vague"].search(low))
    if not vague and directive and not trigger and (tail := _RX["vague_tail"].search(low)):
        vague = tail.group(0).strip(" .!")
    subject = next((k for k in ("user", "agent", "self") if _RX[k].match(low)), "")
    return _Features(directive, numbered, trigger, hedge, vague, subject,
                     bool(_RX["past"].search(low)))


def _cjk(s: str, numbered: bool, has_code: bool) -> _Features:
    ja = bool(_KANA.search(s.replace("CODE", "")))
    split = _RX["ja_split"] if ja else _RX["zh_split"]
    sentences = [p.strip() for p in split.split(s) if p.strip()]
    directive = False
    if ja:
        for sent in sentences:
            if _RX["ja_strong"].search(sent) or _RX["ja_end"].search(sent):
                directive = True
            elif _RX["ja_plain"].search(sent) and not sent.endswith("です") and (
                    not _RX["ja_topic"].match(sent) or _RX["ja_trigger"].search(sent)):
                directive = True
            elif _RX["ja_not"].search(sent) and not any(rx.match(sent) for rx in _JA_SUBJECT_RX.values()):
                directive = True
    else:
        directive = any(_RX["zh_directive"].search(c) for c in sentences)
    p = "ja" if ja else "zh"
    m = _RX[f"{p}_trigger"].search(s) or _RX[f"{p}_strong"].search(s)
    trigger = m.group(0).strip("，,、") if m else ("`…`" if has_code else "")
    subjects = _JA_SUBJECT_RX if ja else _ZH_SUBJECT_RX
    subject = next((k for k, rx in subjects.items() if rx.match(s)), "")
    past = any(_RX[f"{p}_past"].search(x) for x in sentences)
    return _Features(directive, numbered, trigger, _first_group(_RX[f"{p}_hedge"].search(s)),
                     _first_group(_RX[f"{p}_vague"].search(s)), subject, past)


def _first_group(m: re.Match[str] | None) -> str:
    if not m:
        return ""
    return next((g for g in m.groups() if g), m.group(0)).strip()


def lint_line(text: str, *, scoped: bool = False) -> LintResult:
    """Judge one line (a rule, a bullet, a numbered step, a sentence) of a skill or the memo.

    ``scoped``: the line belongs to a skill, whose description says when it applies, so it needs
    no trigger of its own, and a fact it states about something concrete (a `code span`: where the
    secrets live, what a `DROP TABLE` needs) is what its steps rely on. A memo rule stands alone.
    """
    s, numbered, has_code = _prepare(text)
    if numbered and s.startswith("CODE") and not W.FINITE_EARLY.match(s.casefold()):
        return LintResult(True, "a command to run, as a step in a numbered procedure")
    if not s.replace("CODE", "").strip():
        return LintResult(False, "empty: nothing to act on")
    # a rule in a Latin language whose reason quotes the person in Chinese or Japanese ("… never
    # `s.allInvoices` (because 把全表读进内存…)") is judged in the language it instructs in
    instructs = re.sub(r"\((?:because|the person said)\b[^()]*\)", "", s)
    f = _cjk(s, numbered, has_code) if _CJK.search(instructs) else _latin(s, numbered, has_code)
    if scoped and has_code and not f.directive and not (f.subject or f.hedge or f.vague or f.past) \
            and _RX["where_needs"].search(s.casefold().translate(_ACCENTS)):
        return LintResult(True, "a concrete fact (`…`) the skill's steps rely on: where it is, what it needs")
    problems: list[str] = []
    if not f.directive and f.subject:
        problems.append(_DESCRIBES[f.subject])
    if f.hedge:
        problems.append(f"hedged: '{f.hedge}' — state the rule without hedging")
    if f.vague:
        problems.append(f"no concrete action: '{f.vague}' does not say what to do")
    if not f.directive and not problems:
        if f.past:
            problems.append("an observation in the past tense, not an instruction" + _HOW)
        else:
            problems.append("states a fact instead of instructing: no imperative verb" + _HOW)
    if problems:
        return LintResult(False, "; ".join(problems[:2]))
    if f.numbered:
        return LintResult(True, "imperative step in a numbered procedure")
    if not f.trigger:
        if scoped:
            return LintResult(True, "imperative, scoped by the skill it belongs to")
        return LintResult(False, "no trigger or scope: add when/if/before…" + _HOW)
    return LintResult(True, f"imperative with a trigger or scope: '{f.trigger}'")


# --- whole files --------------------------------------------------------------------------------

_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_RULE = re.compile(r"^\s*(?:[-*_]\s*){3,}$")
_TABLE = re.compile(r"^\s*\|")
_ITEM = re.compile(r"^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)")
_BARE_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s*$")
_LABEL = re.compile(r"^\s*(?:[-*+•]\s+)?\**[^.!?。]{0,60}[:：]\**\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'“«(¿¡]?[A-ZÀ-ÝĀ-Ž`])|(?<=[。！？])")


def _blocks(text: str) -> list[tuple[int, str, bool]]:
    """Lines worth judging → [(first line number, text, is_list_item)].

    Skips frontmatter, fenced code, headings, rules, tables, HTML comments, labels ending in ':'
    and bare list markers; joins soft-wrapped continuation lines onto their item or paragraph.
    """
    lines = text.splitlines()
    out: list[list] = []
    i = 0
    from ..markdown import split_frontmatter

    fm = split_frontmatter(text)
    if fm.text is not None:
        i = fm.body_line - 1
    from ..markdown import code_lines

    in_comment = False
    current: list | None = None
    # one fence reader for every Markdown file: a ```` fence closes only on ````
    for n, (raw, in_code) in enumerate(code_lines(lines[i:]), start=i):
        stripped = raw.strip()
        if in_code:
            current = None
            continue
        if in_comment:
            in_comment = "-->" not in stripped
            continue
        if stripped.startswith("<!--"):
            in_comment, current = "-->" not in stripped, None
            continue
        if (not stripped or _HEADING.match(raw) or _RULE.match(raw) or _TABLE.match(raw)
                or _BARE_ITEM.match(raw) or _LABEL.match(raw)):
            current = None
            continue
        if _ITEM.match(raw):
            current = [n + 1, stripped, True]
            out.append(current)
        elif current is not None:
            current[1] += " " + stripped
        else:
            current = [n + 1, stripped, False]
            out.append(current)
    return [(b[0], b[1], b[2]) for b in out]


# "Never pipe curl into sh. Instead:" — the last sentence of a paragraph, a label for what follows
_LEAD_IN = re.compile(r"^[^.!?。]{1,60}[:：]$")


def _sentences(paragraph: str) -> list[str]:
    masked = _CODE_SPAN.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", paragraph)
    parts, start = [], 0
    for m in _SENTENCE_END.finditer(masked):
        parts.append(paragraph[start:m.start()].strip())
        start = m.end()
    parts.append(paragraph[start:].strip())
    if len(parts) > 1 and _LEAD_IN.match(parts[-1]):
        parts.pop()
    return [p for p in parts if p]


def lint_text(text: str, path: str = "", *, skill: bool = False) -> list[LintFinding]:
    """Judge every list item and every prose sentence of a Markdown document; ``skill``: it is a
    skill's body, each line scoped by the skill (:func:`lint_line`'s ``scoped``)."""
    findings: list[LintFinding] = []
    for line_no, block, is_item in _blocks(text):
        for sentence in ([block] if is_item else _sentences(block)):
            result = lint_line(sentence, scoped=skill)
            findings.append(LintFinding(path, line_no, sentence, result.actionable, result.reason))
    return findings
