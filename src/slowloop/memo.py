"""The self-understanding memo (SPEC §1.6): what the agent is good at, where it stumbles, and the
plays it has worked out for this user and domain.

One Markdown file a person can edit, ``<agent dir>/memo.md``, with exactly two sections::

    ## Strengths and pitfalls
    - Pitfall: I tend to forget timezone conversion when exporting CSV reports.
    ## Plays for this user and domain
    - When the user asks for a summary, give the conclusion first, then at most 5 bullets.

Entries are ``- `` bullets (a line that is not a bullet continues the entry above it). Each section
has a character cap (``memo.strengths_cap``, ``memo.plays_cap``) counted over its rendered bullets
and enforced on every write: be truer, not longer. The API and the CLI call the sections
``strengths`` and ``plays``.

``weakness_matcher`` implements the ``known_weakness`` signal: a task that lexically matches a
*pitfall* entry. An entry is a pitfall when it starts with a pitfall label ("Pitfall:",
"Weakness:", "Punto debole:", "Piège :", "苦手"…) or, not being labelled a strength, contains a
negative cue ("never", "avoid", "tend to", "struggle", "forget", "sbaglio", "j'oublie", "忘れ"…).
Strength entries never count, so a task in a domain the agent is good at does not raise a flag.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from . import markdown
from .config import Config, load_config
from .errors import DataError, UserError
from .fsutil import read_text
from .history import FileChange, apply_changes, notice_person_edits
from .paths import agent_dir as _agent_dir, home as _home
from .store import Store, open_store
from .text import fold, terms

Section = Literal["strengths", "plays"]
Op = Literal["add", "replace", "remove"]
SECTIONS: tuple[Section, ...] = ("strengths", "plays")
HEADINGS: dict[str, str] = {"strengths": "Strengths and pitfalls",
                            "plays": "Plays for this user and domain"}
MEMO_FILE = "memo.md"


@dataclass(frozen=True)
class MemoContent:
    preamble: str
    entries: dict[str, tuple[str, ...]]


def _section_of(heading: str) -> str | None:
    h = fold(heading)
    if "strength" in h or "pitfall" in h:
        return "strengths"
    if "play" in h:
        return "plays"
    return None


def parse_memo(text: str, path: str = MEMO_FILE) -> MemoContent:
    """Parse the memo; an unknown ``##`` heading is a ``DataError`` naming its line."""
    entries: dict[str, list[str]] = {s: [] for s in SECTIONS}
    preamble, found = markdown.split_sections(text)
    for sec in found:
        current = _section_of(sec.title)
        if current is None:
            raise DataError(f"unknown memo section {sec.title!r}", path=path, line=sec.line,
                            hint=f"the memo has two sections: '## {HEADINGS['strengths']}' and "
                                 f"'## {HEADINGS['plays']}'")
        for raw, in_code in markdown.code_lines(sec.lines):
            stripped = raw.strip()
            if not stripped or (stripped.startswith("<!--") and not in_code):
                continue
            bullet = None if in_code else re.match(r"^[-*+]\s+(.*)$", stripped)
            if bullet:
                entries[current].append(bullet.group(1).strip())
            elif entries[current]:
                entries[current][-1] += " " + stripped
            else:
                entries[current].append(stripped)
    return MemoContent("\n".join(preamble).strip(), {k: tuple(v) for k, v in entries.items()})


def memo_cap(cfg: Config, section: str) -> int:
    """The character cap of a memo section (``memo.strengths_cap``, ``memo.plays_cap``)."""
    return cfg.memo.strengths_cap if section == "strengths" else cfg.memo.plays_cap


def section_chars(entries: tuple[str, ...] | list[str]) -> int:
    """What counts against a cap: the section's rendered bullets."""
    return len("\n".join(f"- {e}" for e in entries))


def render_memo(content: MemoContent) -> str:
    parts = [content.preamble or "# Self-understanding memo\n\n<!-- Written by slowloop and by you: "
             "one '- ' entry per line; keep entries imperative (when …, always/never …). -->"]
    for s in SECTIONS:
        body = "\n".join(f"- {e}" for e in content.entries[s])
        parts.append(f"## {HEADINGS[s]}\n\n{body}" if body else f"## {HEADINGS[s]}")
    return "\n\n".join(parts).rstrip() + "\n"


def append_bullet(text: str, section: str, entry: str) -> str | None:
    """``text`` with ``- entry`` added at the end of ``section``, nothing else touched; ``None``
    when the section's heading is not there (the caller renders the memo instead)."""
    lines = text.splitlines(keepends=True)
    start = end = None
    # one fence reader for every Markdown file (markdown.code_lines: a ```` fence closes only on ````)
    for i, (raw, in_code) in enumerate(markdown.code_lines(lines)):
        if in_code:
            continue
        m = re.match(r"^##\s+(.+?)\s*#*$", raw.rstrip())
        if m:
            if start is not None:
                end = i
                break
            if _section_of(m.group(1)) == section:
                start = i
    if start is None:
        return None
    if end is None:
        end = len(lines)
    at = end
    while at > start + 1 and not lines[at - 1].strip():
        at -= 1  # before the blank lines that close the section
    if at > 0 and not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    prev = lines[at - 1].lstrip()
    # a blank line under a bare heading, or after a table, code or prose the bullet must not join
    lead = ["\n"] if at == start + 1 or not prev.startswith(("- ", "* ", "+ ")) else []
    return "".join(lines[:at] + lead + [f"- {entry}\n"] + lines[at:])


def _check_section(section: str) -> str:
    if section not in SECTIONS:
        raise UserError(f"unknown memo section {section!r}", hint="use strengths or plays")
    return section


def _clean(text: str) -> str:
    cleaned = " ".join(str(text).split())
    if cleaned.startswith(("- ", "* ")):
        cleaned = cleaned[2:].strip()
    if not cleaned:
        raise UserError("the memo entry is empty", hint="write one imperative line")
    if cleaned.startswith("#"):
        raise UserError(f"a memo entry cannot start with '#': {cleaned[:60]!r}")
    return cleaned


def _resolve(entries: tuple[str, ...], match: str | int, section: str) -> int:
    """0-based index of the entry ``match`` names (1-based number or unique substring)."""
    if isinstance(match, int) or (isinstance(match, str) and match.strip().isdigit()):
        n = int(match)
        if not 1 <= n <= len(entries):
            raise UserError(f"the {section} section has {len(entries)} entries; there is no entry {n}",
                            hint=f"see `slowloop memo show --section {section}`")
        return n - 1
    needle = fold(str(match)).strip()
    if not needle:
        raise UserError("the entry to match is empty", hint="give an entry number or a part of its text")
    hits = [i for i, e in enumerate(entries) if needle in fold(e)]
    if not hits:
        raise UserError(f"no entry of the {section} section contains {str(match)!r}",
                        hint=f"see `slowloop memo show --section {section}`")
    if len(hits) > 1:
        raise UserError(f"{str(match)!r} matches entries {', '.join(str(i + 1) for i in hits)} of "
                        f"the {section} section", hint="give the entry number, or more of its text")
    return hits[0]


class Memo:
    def __init__(self, agent: str = "default", *, home: Path | None = None,
                 config: Config | None = None, store: Store | None = None) -> None:
        self.agent = agent
        self.home = Path(home) if home is not None else _home()
        self.path = _agent_dir(agent, self.home) / MEMO_FILE
        self._config = config
        self._store = store

    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = load_config(self.home)
        return self._config

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_store(home=self.home)
        return self._store

    def cap(self, section: str) -> int:
        return memo_cap(self.config, _check_section(section))

    def content(self) -> tuple[MemoContent, str | None, str | None]:
        """(parsed memo, text, hash); an empty memo when the file does not exist."""
        return self._read()

    def _read(self) -> tuple[MemoContent, str | None, str | None]:
        text, digest = read_text(self.path, within=self.path.parent)  # never a link: DataError
        if text is None:
            return MemoContent("", {s: () for s in SECTIONS}), None, None
        return parse_memo(text, str(self.path)), text, digest

    def entries(self, section: str) -> list[str]:
        return list(self._read()[0].entries[_check_section(section)])

    def render(self) -> str:
        """The memo as it goes into a prompt: both sections, empty ones left out."""
        content = self._read()[0]
        parts = []
        for s in SECTIONS:
            if content.entries[s]:
                parts.append(f"## {HEADINGS[s]}\n" + "\n".join(f"- {e}" for e in content.entries[s]))
        return "\n\n".join(parts)

    def plan_update(self, section: str, op: str, text: str | None = None,
                    match: str | int | None = None, *, base_text: str | None = None) -> list[FileChange]:
        """Plan one entry change. ``base_text``: plan on top of this memo text (an earlier planned
        change of the same batch) instead of the file; the change still expects the file as it is."""
        _check_section(section)
        content, before, digest = self._read()
        if base_text is not None:
            content = parse_memo(base_text, str(self.path))
        entries = list(content.entries[section])
        if op == "add":
            entry = _clean(text or "")
            same = [i for i, e in enumerate(entries, 1) if " ".join(e.split()).casefold()
                    == " ".join(entry.split()).casefold()]
            if same:  # a repeat would only spend the cap and show the agent the line twice
                raise UserError(f"the {section} section already has this entry (number {same[0]}): "
                                f"{entry!r}; nothing was written",
                                hint=f"see `slowloop memo show --section {section}`")
            entries.append(entry)
        elif op == "replace":
            if match is None:
                raise UserError("replace needs the entry to replace (its number or part of its text)")
            entries[_resolve(tuple(entries), match, section)] = _clean(text or "")
        elif op == "remove":
            if match is None:
                raise UserError("remove needs the entry to remove (its number or part of its text)")
            del entries[_resolve(tuple(entries), match, section)]
        else:
            raise UserError(f"unknown memo operation {op!r}", hint="use add, replace or remove")
        cap = self.cap(section)
        size = section_chars(entries)
        if op != "remove" and size > cap:
            raise UserError(
                f"the {section} section would be {size} characters, {size - cap} over its cap of "
                f"{cap}; nothing was written",
                hint=f"replace or remove an entry instead (`slowloop memo replace|remove --section "
                     f"{section}`): be truer, not longer")
        new = MemoContent(content.preamble, {**content.entries, section: tuple(entries)})
        source = base_text if base_text is not None else before
        after = None
        if op == "add" and source:
            # an added entry goes in as one more bullet: the sub-headings, lists, code and tables
            # a person keeps under the section stay exactly as they wrote them
            after = append_bullet(source, section, entries[-1])
        return [FileChange(path=self.path, before=before, before_hash=digest,
                           after=after if after is not None else render_memo(new),
                           kind="memo", target=section, op=op)]

    def _apply(self, changes: list[FileChange], actor: str, reflection_id: int | None, note: str = "") -> None:
        apply_changes(changes, store=self.store, agent=self.agent, actor=actor,
                      reflection_id=reflection_id, note=note)

    def notice(self) -> list[int]:
        """Record a person's hand edit of the memo before slowloop changes it."""
        files = [(self.path, "memo", "memo")] if self.path.exists() else []
        return notice_person_edits(self.store, self.agent, files)

    def add(self, section: str, text: str, *, actor: str = "person",
            reflection_id: int | None = None) -> None:
        self.notice()
        self._apply(self.plan_update(section, "add", text), actor, reflection_id)

    def replace(self, section: str, match: str | int, text: str, *, actor: str = "person",
                reflection_id: int | None = None) -> None:
        self.notice()
        self._apply(self.plan_update(section, "replace", text, match), actor, reflection_id)

    def remove(self, section: str, match: str | int, *, actor: str = "person",
               reflection_id: int | None = None, note: str = "") -> None:
        """Remove one entry (``note``: why, in the history)."""
        self.notice()
        self._apply(self.plan_update(section, "remove", None, match), actor, reflection_id, note)

    def problems(self) -> list[tuple[int | None, str, str]]:
        """What ``doctor`` reports, as (line, message, severity): an unparsable memo (error), a
        section over its cap after a hand edit (warning: the bootstrap cuts it from the end)."""
        try:
            content, _, _ = self._read()
        except DataError as exc:
            return [(exc.line, exc.message.split(": ", 1)[-1], "error")]
        out: list[tuple[int | None, str, str]] = []
        for s in SECTIONS:
            size, cap = section_chars(content.entries[s]), self.cap(s)
            if size > cap:
                out.append((None, f"the {s} section is {size} characters, {size - cap} over its cap "
                                  f"of {cap}; the session bootstrap shows only what fits", "warning"))
        return out


def memo_view(memo: Memo, sections: list[str] | None = None) -> dict:
    """What ``memo show --json`` prints (and the review page shows): per section its heading, its
    entries in order (numbered from 1 by replace/remove), its cap and size. Hand edits are
    recorded first."""
    memo.notice()
    data = {}
    for s in sections or list(SECTIONS):
        entries = memo.entries(s)
        data[s] = {"heading": HEADINGS[s], "entries": entries, "cap": memo.cap(s),
                   "chars": section_chars(entries)}
    return {"path": str(memo.path), "sections": data}


def plan_memo_update(section: str, op: str, text: str | None = None, match: str | int | None = None,
                     *, agent: str = "default", home: Path | None = None,
                     config: Config | None = None) -> list[FileChange]:
    """Pure planner for ``apply_changes``: one add / replace / remove in one section."""
    return Memo(agent, home=home, config=config).plan_update(section, op, text, match)


# -- known_weakness ---------------------------------------------------------------------------

_PITFALL_LABELS = (
    "pitfall", "weakness", "weak spot", "stumble", "watch out", "caution", "careful", "risk",
    "punto debole", "debolezza", "trappola", "attenzione", "rischio",
    "armadilha", "ponto fraco", "fraqueza", "cuidado",
    "piege", "point faible", "faiblesse", "attention",
    "trampa", "punto debil", "debilidad",
    "schwache", "schwachstelle", "falle", "vorsicht",
    "苦手", "弱点", "注意", "陷阱", "弱项", "短板",
)
_STRENGTH_LABELS = ("strength", "strong point", "good at", "punto di forza", "forza", "ponto forte",
                    "forca", "point fort", "fortaleza", "punto fuerte", "starke", "得意", "强项",
                    "优势", "長所")
_NEG_CUES = re.compile(
    r"\b(never|avoid|tend to|tends to|struggle\w*|forget\w*|forgot|mistake\w*|miss(?:es|ed)?|"
    r"misread\w*|wrong|fail\w*|confus\w*|overlook\w*|careless|too long|too verbose|"
    r"evit\w*|tendo a|fatico|dimentic\w*|sbagli\w*|errore|errori|confond\w*|mai|spesso|"
    r"esquec\w*|erro|nunca|dificuldade|"
    r"j'ai tendance|oubli\w*|erreur\w*|jamais|du mal|"
    r"tiendo a|olvid\w*|me cuesta|"
    r"vermeid\w*|neige dazu|vergess\w*|fehler\w*|verwechs\w*|nie)\b"
    r"|忘れ|間違|しがち|容易|忘记|错误|经常|避免")
# the labels and cues say *that* it is a pitfall, not *what* it is about: not matched on
_CUE_STOP = frozenset(terms(" ".join(_PITFALL_LABELS) + " never avoid tend struggle forget forgot "
                              "mistake miss wrong fail often sometimes always spesso sbaglio evito "
                              "tendo dimentico errore erro nunca jamais erreur oublie olvido "
                              "fehler vergesse"))


def _labelled(text: str, labels: tuple[str, ...]) -> bool:
    # a label counts when a colon or dash follows it ("Pitfall: …", "Piège — …"), so an entry
    # that merely starts with the same word ("Attention to detail…") is not taken for a label;
    # CJK labels need no punctuation
    for label in labels:
        if text.startswith(label):
            rest = text[len(label):].lstrip()
            if not label.isascii() or rest[:1] in (":", "：", "-", "–", "—"):
                return True
    return False


def is_pitfall(entry: str) -> bool:
    """Whether a strengths-and-pitfalls entry records a pitfall (see the module docstring)."""
    f = fold(entry).lstrip("-* ").strip()
    if _labelled(f, _STRENGTH_LABELS):
        return False
    if _labelled(f, _PITFALL_LABELS):
        return True
    return bool(_NEG_CUES.search(f))


def weakness_matcher(agent: str = "default", *, home: Path | None = None,
                     threshold: float = 0.4) -> Callable[[str], str | None]:
    """A function: task text → the pitfall entry it matches, or ``None``.

    Lexical: stemmed content terms of the task and of each pitfall (labels and cue words left
    out); a match needs at least two shared terms (one when the pitfall has a single term) and
    the shared terms must cover ``threshold`` of the pitfall's terms. The best-covered pitfall wins.
    The memo is read once, when the matcher is made.
    """
    pitfalls: list[tuple[str, frozenset[str]]] = []
    memo = Memo(agent, home=home)
    try:
        entries = memo.entries("strengths")
    except DataError:
        entries = []  # a hand-broken memo is doctor's to report; no weakness can be matched in it
    for e in entries:
        if is_pitfall(e):
            t = terms(e, _CUE_STOP)
            if t:
                pitfalls.append((e, t))

    def match(task: str) -> str | None:
        if not pitfalls or not task:
            return None
        task_terms = terms(task)
        best: tuple[float, str] | None = None
        for entry, t in pitfalls:
            shared = len(t & task_terms)
            if shared < min(2, len(t)):
                continue
            cover = shared / len(t)
            if cover >= threshold and (best is None or cover > best[0]):
                best = (cover, entry)
        return best[1] if best else None

    return match
