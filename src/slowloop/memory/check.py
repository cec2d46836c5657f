"""``memory status`` and ``memory check``: sizes against caps, and files drifting out of their role.

The seed's lesson is that the roles blur with use: history creeps into the state, open items hide
in the chronicle, the root grows. ``check`` names each such line so a person (or the agent) can
move it where it belongs; it never rewrites anything itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .. import markdown
from ..errors import DataError
from ..text import HAN, KANA
from ..tokens import estimate_tokens
from . import debts as debts_mod, sections
from .files import CHRONICLE, DEBTS, STATE, SUMMARY, Memory

Rule = Literal["history-in-state", "open-item-in-chronicle", "over-cap", "malformed"]

# A state line that starts with a date is a diary entry, not a truth of today.
_DATED = re.compile(r"^\s*(?:#{1,6}\s*|[-*+]\s+(?:\[.\]\s+)?|\d+[.)]\s+)?[\[(]?\d{4}-\d{2}-\d{2}\b")
_NARRATIVE = re.compile(
    r"\b(?:yesterday|last (?:week|night|time|session)|earlier today|this morning|"
    r"we (?:fixed|changed|decided|added|removed|tried|moved|switched|found|discovered|realised|realized|"
    r"reverted|migrated|broke|spent)|(?:was|were) (?:fixed|changed|reverted|broken)|turned out|then we|"
    r"ieri|la settimana scorsa|abbiamo (?:corretto|sistemato|deciso|cambiato|aggiunto|provato|spostato|risolto)|"
    r"hier|la semaine derni[eè]re|nous avons|on a (?:corrigé|décidé|changé)|"
    r"ayer|la semana pasada|hemos|arreglamos|cambiamos|"
    r"ontem|semana passada|corrigimos|mudamos|"
    r"gestern|letzte woche|wir haben)\b|昨天|上周|我们修复|我们改|昨日|先週",
    re.IGNORECASE)
# TODO/FIXME are case-sensitive: "todo" is Spanish and Portuguese for "all".
_OPEN_CS = re.compile(r"\b(?:TODO|FIXME|XXX)\b")
_OPEN_CI = re.compile(
    r"^\s*[-*+]\s+\[ \]|\bstill (?:need|needs|have|has) to\b|\bopen question|\bnot (?:yet )?(?:fixed|resolved) yet\b|"
    r"\bancora da\b|\bda fare\b|\bdomanda aperta|\breste à faire|\bquestion ouverte|\bpendiente\b|\bqueda por\b|"
    r"\bpendente\b|\bfalta fazer\b|\bnoch offen\b|\bmuss noch\b|待办|待解决|还需要|未対応|要対応",
    re.IGNORECASE)
_DEBT_REF = re.compile(r"\bD-\d{4,}\b")
_WORDS = re.compile(f"[^\\W\\d_]{{4,}}|[{KANA}{HAN}]", re.UNICODE)


@dataclass(frozen=True)
class Violation:
    rule: Rule
    path: str
    line: int | None
    text: str
    hint: str

    def to_json(self) -> dict:
        return {"rule": self.rule, "path": self.path, "line": self.line, "text": self.text, "hint": self.hint}

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: [{self.rule}] {self.text}\n  → {self.hint}"


@dataclass(frozen=True)
class MemoryStatus:
    root: str
    exists: bool
    cycle: int
    files: dict[str, dict]
    debts: dict[str, int]
    open_debts: list[str]
    layers: list[dict]
    over_caps: list[str]
    auto_archive: bool
    errors: list[str]

    def to_json(self) -> dict:
        return dict(vars(self))


def status(mem: Memory) -> MemoryStatus:
    s = mem.settings
    caps = {CHRONICLE: {"lines": s.chronicle_max_lines, "tokens": s.chronicle_max_tokens},
            STATE: {"tokens": s.state_max_tokens}, SUMMARY: {"chars": s.summary_max_chars}, DEBTS: {}}
    files: dict[str, dict] = {}
    over: list[str] = []
    exists = mem.exists()
    for name, cap in caps.items():
        text = mem.text(name) if exists else ""
        size = {"lines": len(text.splitlines()), "tokens": estimate_tokens(text), "chars": len(text)}
        files[name] = {**size, "caps": cap, "exists": mem.path(name).exists()}
        over += [f"{name} {k} {size[k]} > {v}" for k, v in cap.items() if size[k] > v]
    counts: dict[str, int] = {st: 0 for st in debts_mod.STATUSES}
    open_ids: list[str] = []
    errors: list[str] = []
    if exists:
        try:
            for d in mem.debts():
                counts[d.status] += 1
                if d.status != "closed":
                    open_ids.append(d.id)
        except DataError as exc:  # status still reports the rest; `check` names the line
            errors.append(str(exc))
    layers = [{"number": x.number, "name": x.name, "date": x.date, "milestone": x.milestone,
               "reason": x.reason, "lines": sum(f.lines for f in x.files.values()),
               "tokens": sum(f.tokens for f in x.files.values())} for x in mem.layers()]
    return MemoryStatus(str(mem.root), exists, len(layers) + 1, files, counts, open_ids, layers, over,
                        s.auto_archive, errors)


def _covered(item: str, debt_words: list[set[str]]) -> bool:
    words = {w.casefold() for w in _WORDS.findall(item)} - {"todo", "fixme", "still", "need", "needs"}
    if not words:
        return False
    return any(len(words & dw) >= max(1, 0.6 * len(words)) for dw in debt_words)


def _lines_outside_code(text: str):
    for no, (line, in_code) in enumerate(markdown.code_lines(text.splitlines()), start=1):
        if not in_code and no > 1:  # line 1 is the role header
            yield no, line


def check(mem: Memory) -> list[Violation]:
    """Every role violation in the root, in file order; an empty list means the root is clean."""
    mem.require()
    out: list[Violation] = []
    state_path = str(mem.path(STATE))
    for no, line in _lines_outside_code(mem.text(STATE)):
        if _DATED.match(line) or _NARRATIVE.search(line):
            out.append(Violation("history-in-state", state_path, no, line.strip()[:160],
                                 "the state holds what is true today; move the story to chronicle.md "
                                 "(`slowloop memory note`) and keep only its conclusion here"))
    try:
        debt_list = mem.debts()
    except DataError as exc:
        out.append(Violation("malformed", exc.path or str(mem.path(DEBTS)), exc.line, exc.message,
                             exc.hint or debts_mod.FORMAT_HINT))
        debt_list = []
    debt_words = [{w.casefold() for w in _WORDS.findall(d.text + " " + " ".join(d.notes))} for d in debt_list]
    chron_path = str(mem.path(CHRONICLE))
    for no, line in _lines_outside_code(mem.text(CHRONICLE)):
        h = markdown.heading(line)
        if h is not None and h[0] == 2 and sections.is_entry_heading(h[1]):
            continue
        if not (_OPEN_CS.search(line) or _OPEN_CI.search(line)) or _DEBT_REF.search(line):
            continue
        if not _covered(line, debt_words):
            out.append(Violation("open-item-in-chronicle", chron_path, no, line.strip()[:160],
                                 "register it: `slowloop memory debt add \"…\"`, then mention its id "
                                 "(D-…) in the chronicle if the story needs it"))
    st = status(mem)
    for item in st.over_caps:
        name = item.split()[0]
        out.append(Violation("over-cap", str(mem.path(name)), None, item,
                             "archive the cycle (`slowloop memory archive`)" if name == CHRONICLE else
                             f"condense {name}: it is read at every session start"))
    return out
