"""What a person says about the work's own state, at zero model cost: "for later" and "done".

Both read only the person's own words (``observe.lessons.person_text``: no pasted output, no quoted
lines) and return the sentence that said it, as they wrote it — the debt it opens or closes quotes
them, never a translation.
"""

from __future__ import annotations

import re

from ..observe.lessons import person_text

# "we'll handle the migration later", "TODO: the docs", "più tardi", "后面再说"… — a sentence
# that puts something off. The English "later" needs a verb of doing before it, so "the later
# version" or "later that day" put nothing off.
_LATER = re.compile(
    r"\b(?:we'?ll|we will|let'?s|i'?ll|we can|you can|leave|park|defer|postpone|handle|do|fix|deal with"
    r"|look at|tackle|address|finish)\b[^.?!\n]{0,80}\blater\b"
    r"|\b(?:for later|later on|next time|another time|some other time|not now|not for now)\b"
    r"|più tardi|in seguito|la prossima volta|\b(?:lo|la|li|le) (?:faremo|facciamo|vediamo|sistemiamo) dopo\b"
    r"|plus tard|la prochaine fois|\bspäter\b|nächstes mal|más tarde|la próxima vez|mais tarde"
    r"|da próxima vez|后面再说|以后再说|回头再|之后再|稍后再|下次再|あとで|後で|後回し",
    re.IGNORECASE)
# TODO is a deferral in capitals only: "todo" is Spanish and Portuguese for "all"
_TODO = re.compile(r"\bTODO\b")

# "the migration is done", "fatto", "c'est fait", "搞定了" — a sentence that says something is over.
_DONE = re.compile(
    r"\b(?:is|are|it'?s|that'?s|now)\s+(?:done|finished|fixed|handled|resolved|sorted)\b"
    r"|\b(?:done|finished|fixed|handled|resolved) (?:now|it|that)\b|\bwe(?:'ve| have) (?:done|finished|fixed)\b"
    r"|\bfatt[oa]\b|\bfinit[oa]\b|\brisolt[oa]\b|\bsistemat[oa]\b"
    r"|c'est fait|\bterminé\b|\brésolu\b|\berledigt\b|\bfertig\b|\bbehoben\b"
    r"|\bhecho\b|\bresuelto\b|\bterminado\b|\bfeito\b|\bresolvido\b"
    r"|搞定|完成了|解决了|做完了|弄好了|終わった|完了|解決した",
    re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(person_text(text)) if s.strip()]


def _first_matching(text: str, *patterns: re.Pattern[str]) -> str | None:
    return next((s for s in _sentences(text) if any(p.search(s) for p in patterns)), None)


def deferral(text: str) -> str | None:
    """The person's sentence that leaves something for later, as written; None when there is none."""
    return _first_matching(text or "", _LATER, _TODO)


def done_saying(text: str) -> str | None:
    """The person's sentence that says something is done, as written; None when there is none."""
    return _first_matching(text or "", _DONE)


def shorten(text: str, limit: int = 140) -> str:
    """One line of at most ``limit`` characters, cut at a word (an ellipsis says it was cut)."""
    one = " ".join(str(text).split())
    if len(one) <= limit:
        return one
    cut = one[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"
