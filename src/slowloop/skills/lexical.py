"""Small, dependency-free lexical matching: the terms of a text, in the languages we support.

Used to rank skills against a task in the session bootstrap and to match a task against the
pitfalls in the memo (``known_weakness``). Deliberately crude and cheap: accents folded, stopwords
of English, Italian, Portuguese, French, Spanish and German dropped, common inflection suffixes cut
so "exports"/"exporting"/"esportazione"/"exportación" land near each other; Chinese and Japanese
text becomes character bigrams, since it has no spaces to split on.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_STOP = frozenset("""
a an the and or but if then else of to in on at by for with from into onto over under about as is
are was were be been being am do does did done have has had having i me my we our you your he she
it its they them their this that these those there here what which who whom whose when where why
how all any both each few more most other some such no nor not only own same so than too very can
will just should would could may might must shall also one use using used please let lets get got
il lo la i gli le un una uno di da in con su per tra fra e ed o che non si ci mi ti vi del della
dei degli delle al allo alla ai agli alle dal dalla nel nella nei sul sulla come piu anche ma se
questo questa quello quella sono essere ha hanno fare fa
o os as um uma uns umas de do da dos das em no na nos nas por para com que nao se mais como mas
ao aos e ou seu sua ser sao foi
le la les un une des du de au aux et ou en dans sur pour par avec que qui ne pas plus ce cette ces
est sont etre avoir fait il elle nous vous ils elles se sa son ses leur
el la los las un una unos unas de del al en y o que no se por para con su sus es son ser como mas
pero lo le les
der die das den dem des ein eine einer eines einem einen und oder aber nicht mit von zu im in am an
auf fur ist sind sein war wie als auch bei nach aus es sie er wir ich du
""".split())

# longest first; a suffix is cut only when at least 3 characters remain
_SUFFIXES = sorted("""
ational ization izations ations ation ations ments ment ness nesses ings ing edly ed ies es s ly
izzazione izzazioni azione azioni zione zioni mente amento amenti imento imenti ando endo ato ata
ati ate ito ita iti ite are ere ire
acao acoes cao coes mente ando endo indo ado ada ados adas ido ida idos idas ar er ir
ation ations ement ements ment ments euse eux ees ee es er ez ant
acion aciones cion ciones mente ando iendo ado ada ados adas ido ida idos idas ar er ir os as
ungen ung heiten heit keiten keit lich isch en er e
""".split(), key=len, reverse=True)

_WORD = re.compile(r"[a-z0-9]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")


def fold(text: str) -> str:
    """Lowercase, accents removed (ç → c, è → e), CJK kept."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    for suf in _SUFFIXES:
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            return word[: -len(suf)]
    return word


@lru_cache(maxsize=4096)
def terms(text: str, extra_stop: frozenset[str] = frozenset()) -> frozenset[str]:
    """The set of stemmed content terms of ``text``."""
    folded = fold(text)
    out: set[str] = set()
    for w in _WORD.findall(folded):
        if len(w) < 2 or w in _STOP or w in extra_stop or w.isdigit():
            continue
        out.add(stem(w))
    for run in _CJK.findall(folded):
        if len(run) == 1:
            out.add(run)
        out.update(run[i:i + 2] for i in range(len(run) - 1))
    return frozenset(out)


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Overlap coefficient |a ∩ b| / min(|a|, |b|): 1.0 when the smaller set is fully covered."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))
