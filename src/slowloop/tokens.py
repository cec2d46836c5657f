"""Local, conservative token estimates. Nothing downloads a tokenizer.

Budgets must not be overrun, so the estimate errs high: about 3.2 characters per token for Latin
text (real BPE tokenizers average ~4 on English prose, less on code and JSON), one token per CJK
character, and each run of punctuation or digits counts on its own.
"""

from __future__ import annotations

import re

from .text import CJK, LATIN

_CJK = re.compile(f"[{CJK}]")
_WORD = re.compile(f"[{LATIN}]+")
_OTHER = re.compile(f"[^\\s{LATIN}{CJK}]")


def estimate_tokens(text: str) -> int:
    if not text:
        return 0
    cjk = len(_CJK.findall(text))
    words = 0
    for w in _WORD.findall(text):
        words += max(1, -(-len(w) // 4))  # ceil(len/4): long words split into several tokens
    other = len(_OTHER.findall(text))
    by_words = cjk + words + other
    by_chars = -(-(len(text) - cjk) // 3) + cjk
    return max(by_words, int(by_chars * 0.9))


def truncate_to_tokens(text: str, budget: int, marker: str = "\n[… cut to fit the budget …]") -> str:
    """Cut ``text`` so that it (with the marker) fits ``budget`` tokens."""
    if estimate_tokens(text) <= budget:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if estimate_tokens(text[:mid] + marker) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + marker if lo > 0 else ""
