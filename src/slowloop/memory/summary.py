"""``past-summary.md``: the compressed past, regenerated at each archive and always under a cap.

With a model (a ``summarize(text) -> str`` callable handed in by the caller) the previous summary
and the cycle being archived are rewritten together. Without one, or when the model fails, an
extractive summary keeps what the seed says still matters: decisions and their reasons, headings,
debts closed — one line each, newest cycle first, older cycles trimmed from the bottom.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .. import markdown
from ..errors import SlowloopError
from .debts import Debt
from .sections import ChronicleEntry

SummaryBy = Literal["model", "extractive"]
# What a model is told when it condenses the past (by hand: `memory archive --model`; by itself: a
# reflection with a model, when the chronicle passed its cap)
SUMMARY_SYSTEM = ("You maintain the past-summary.md of an operational memory. Answer with the new "
                  "summary only, as Markdown, no preamble.")

# Words that mark a decision or its reason, in the languages the rest of slowloop handles. Cheap on
# purpose: a missed line stays one `memory dig` away in the layer, nothing is lost.
DECISION = re.compile(
    r"\b(?:decided|decide|decision|decisions|because|chose|chosen|choose|switched to|agreed|root cause|"
    r"from now on|instead of|trade-?off|deciso|decisione|abbiamo scelto|scelto|scelta|perché|poiché|"
    r"décidé|décision|parce que|choisi|désormais|decidimos|decidido|decisión|decisão|porque|elegimos|"
    r"escolhemos|optamos|entschieden|entscheidung|weil|stattdessen)\b|决定|因为|选择|改为|決定|ため|理由",
    re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")
LINE_CHARS = 220


@dataclass(frozen=True)
class CycleInfo:
    number: int
    layer: str  # "past/0003-2025-01-09-v1/"
    started: str | None
    ended: str
    milestone: str | None


def _short(text: str, limit: int = LINE_CHARS) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1].rstrip() + "…"


def key_lines(entries: list[ChronicleEntry], closed: list[Debt]) -> list[str]:
    """The extractive picks: one bullet per decision sentence, heading, or closed debt."""
    out: list[str] = []
    for e in entries:
        day = e.at[:10]
        for line, code in markdown.code_lines(e.text.splitlines()):
            s = line.strip()
            if not s or code:  # code blocks are evidence, not decisions or headings
                continue
            if markdown.heading(s):
                out.append(f"- {day}: {_short(s.lstrip('#').strip())}")
                continue
            for sentence in _SENTENCE.split(s):
                if DECISION.search(sentence):
                    out.append(f"- {day}: {_short(sentence.lstrip('-*• ').strip())}")
    for d in closed:
        when = f" ({d.closed[:10]})" if d.closed else ""
        out.append(f"- closed {d.id}: {_short(d.text, 160)}{when}")
    return out


def _fit_lines(lines: list[str], limit: int, tail: str) -> list[str]:
    """Keep lines from the top while they fit in ``limit`` chars, ending with ``tail`` when cut."""
    if sum(len(x) + 1 for x in lines) <= limit:
        return lines
    kept: list[str] = []
    used = len(tail) + 1
    for x in lines:
        if used + len(x) + 1 > limit:
            break
        kept.append(x)
        used += len(x) + 1
    return kept + ([tail] if len(tail) < limit else [])


def _older_body(previous: str) -> list[str]:
    lines = previous.strip("\n").splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]  # the role header is written fresh each time
    while lines and not lines[0].strip():
        lines.pop(0)
    return lines


def extractive(header: str, info: CycleInfo, entries: list[ChronicleEntry], closed: list[Debt],
               previous: str, cap: int) -> str:
    title = f"## Cycle {info.number} · {(info.started or '?')[:10]} → {info.ended[:10]}"
    if info.milestone:
        title += f" · milestone {info.milestone}"
    title += f" · {info.layer}"
    picks = key_lines(entries, closed)
    if not picks:
        picks = [f"- {len(entries)} chronicle entries, none marked as a decision; read {info.layer}chronicle.md"]
    older = _older_body(previous)
    avail = cap - len(header) - 2
    older_chars = sum(len(x) + 1 for x in older)
    # The newest cycle gets at least 60% of the room; older history takes what is left.
    new_limit = max(int(avail * 0.6), avail - older_chars) - len(title) - 2
    new = [title] + _fit_lines(picks, new_limit, f"- … more in {info.layer}chronicle.md")
    room = avail - sum(len(x) + 1 for x in new) - 1
    old = _fit_lines(older, room, f"… older cycles: {info.layer}past-summary.md") if older else []
    text = "\n".join([header, ""] + new + ([""] + old if old else [])) + "\n"
    return hard_cap(text, cap)


def hard_cap(text: str, cap: int) -> str:
    """Cut at a line boundary so the file is never over ``cap`` characters."""
    if len(text) <= cap:
        return text
    marker = "\n…\n"
    cut = text[: max(0, cap - len(marker))]
    nl = cut.rfind("\n")
    return (cut[:nl] if nl > 0 else cut) + marker


def model_input(info: CycleInfo, chronicle: str, closed: list[Debt], previous: str, cap: int) -> str:
    closed_txt = "\n".join(f"- {d.id}: {d.text}" for d in closed) or "(none)"
    return (
        f"Rewrite the past summary of an operational memory to include cycle {info.number}, which is "
        f"being archived into {info.layer}. Keep the big decisions, architectural turns and the reasons "
        "that still matter today; drop routine detail, open items and anything still true today. "
        f"Markdown, newest first, at most {cap} characters.\n\n"
        f"## Previous past summary\n{previous.strip() or '(none)'}\n\n"
        f"## Chronicle of cycle {info.number}\n{chronicle.strip()}\n\n"
        f"## Debts closed in cycle {info.number}\n{closed_txt}\n")


def _clean_model_output(text: str) -> str:
    s = markdown.unwrap_fenced(str(text))
    lines = s.splitlines()
    if lines and lines[0].lower().startswith("# past summary"):
        s = "\n".join(lines[1:]).strip()
    return s


def build_summary(header: str, info: CycleInfo, entries: list[ChronicleEntry], chronicle_text: str,
                  closed: list[Debt], previous: str, cap: int,
                  summarize: Callable[[str], str] | None) -> tuple[str, SummaryBy, str | None]:
    """``(text, by, warning)``. A failing or empty model answer falls back to the extractive summary."""
    warning = None
    if summarize is not None:
        try:
            body = _clean_model_output(summarize(model_input(info, chronicle_text, closed, previous, cap)))
        except SlowloopError as exc:
            body = ""
            warning = f"the model could not summarise ({exc.message}); used the extractive summary"
        # imported here: the danger scan's patterns cost ~60 ms to compile, and the session
        # bootstrap imports this module without ever summarising
        from ..safety.danger import scan
        from ..safety.gate import describe

        dangers = scan(body) if body else []
        if dangers:  # the summary is read at every session start: a model's text is gated
            body = ""
            warning = (f"the model's summary was not used ({describe(dangers)}); used the "
                       "extractive summary")
        if body:
            pointer = f"(cycle {info.number} is in {info.layer}; earlier summaries nest in each layer)"
            return hard_cap(f"{header}\n\n{body}\n\n{pointer}\n", cap), "model", None
        warning = warning or "the model returned an empty summary; used the extractive summary"
    return extractive(header, info, entries, closed, previous, cap), "extractive", warning
