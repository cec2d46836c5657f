"""Text ideas shared across slowloop, each written once: which characters are CJK, and the
dependency-free tokenizer and stemmer used for lexical relevance and lexical search.

* **Character classes.** Each range is a character-class *body* (``"\\u3040-\\u30ff"``) named by
  what it holds, so a module builds its own compiled pattern or interpolates the range inside a
  larger regex (``f"[{HAN}]"``). :data:`CJK` is every character of a script written without
  spaces; :data:`CHINESE_JAPANESE` is the narrower set the Chinese and Japanese detectors read.
* **Stemmer.** One suffix strip, :func:`stem`, with the suffix table and the shortest stem kept as
  parameters. Two tables on purpose: :data:`RELEVANCE_SUFFIXES` (six languages, cut down to three
  letters, over accent-folded words) makes "exports"/"esportazione"/"exportación" meet when skills
  are ranked; :data:`SEARCH_SUFFIXES` (light English, stem of at least four letters) becomes an
  FTS5 *prefix* query (``"deploy"*``), where a too-short prefix would match much of the index.
* **Stopwords.** Likewise two lists: :data:`RELEVANCE_STOPWORDS` is broad (a set-overlap score
  has no idf to discount common words); :data:`SEARCH_STOPWORDS` is small, because BM25 already
  discounts common words and these are dropped only because OR-ing them matches most of the index.

* **Tries.** :func:`trie_pattern` writes one regular expression that finds any of many strings
  with one branch per next character, for the literal prefilters of the correction cues.

Pure functions over text: no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

# -- character classes (bodies of ``[...]``) ----------------------------------------------------

KANA = "\u3040-\u30ff"  # hiragana and katakana
KANA_EXT = "\u31f0-\u31ff"  # katakana phonetic extensions
HALFWIDTH_KANA = "\uff66-\uff9f"  # half-width katakana
HAN = "\u4e00-\u9fff"  # CJK unified ideographs
HAN_EXT_A = "\u3400-\u4dbf"  # CJK unified ideographs, extension A
HAN_COMPAT = "\uf900-\ufaff"  # CJK compatibility ideographs
HANGUL = "\uac00-\ud7af"  # Hangul syllables
FULLWIDTH = "\uff00-\uffef"  # half-width and full-width forms (，！？ and the like)
LATIN = "A-Za-z\u00c0-\u024f"  # ASCII letters, Latin-1 supplement and Latin Extended-A/B

#: Every character of a script written without spaces (Han, kana, Hangul), in all its forms.
CJK = KANA + KANA_EXT + HALFWIDTH_KANA + HAN_EXT_A + HAN + HAN_COMPAT + HANGUL
#: The characters Chinese and Japanese prose is written in (no Hangul, no compatibility forms).
CHINESE_JAPANESE = KANA + HAN_EXT_A + HAN

# -- stopwords --------------------------------------------------------------------------------

#: English, Italian, Portuguese, French, Spanish and German function words, accents folded.
RELEVANCE_STOPWORDS = frozenset("""
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

#: Small on purpose: BM25 already discounts common words (see the module docstring).
SEARCH_STOPWORDS = frozenset("""
a an the and or not no nor but if then else of to in on at by for from with without into onto
about over under as is are was were be been being am do does did done have has had having
i me my mine we us our you your he him his she her it its they them their this that these those
what which who whom whose when where why how there here so than too very can could should would
will shall may might must just also only any some all each both more most other such own same
s t d ll m re ve y don doesn didn isn wasn aren weren won wouldn shouldn couldn
il lo la le gli un una di da del della che e è per con non si
le la les un une des du de et est pour dans pas que qui sur au aux
el la los las un una unos de del y que en por con para es
o a os as um uma de do da dos das e que em no na para com
der die das ein eine und ist nicht zu den dem mit von auf für
""".split())

# -- stemming ---------------------------------------------------------------------------------

#: Inflection suffixes of six languages, longest first (a longer suffix is tried before its tail).
RELEVANCE_SUFFIXES: tuple[str, ...] = tuple(sorted("""
ational ization izations ations ation ations ments ment ness nesses ings ing edly ed ies es s ly
izzazione izzazioni azione azioni zione zioni mente amento amenti imento imenti ando endo ato ata
ati ate ito ita iti ite are ere ire
acao acoes cao coes mente ando endo indo ado ada ados adas ido ida idos idas ar er ir
ation ations ement ements ment ments euse eux ees ee es er ez ant
acion aciones cion ciones mente ando iendo ado ada ados adas ido ida idos idas ar er ir os as
ungen ung heiten heit keiten keit lich isch en er e
""".split(), key=len, reverse=True))
RELEVANCE_MIN_STEM = 3

#: A light English strip whose result is an FTS5 prefix query, in the order tried.
SEARCH_SUFFIXES: tuple[str, ...] = ("ations", "ation", "ments", "ment", "ings", "ing", "ies", "ied",
                                    "ers", "er", "ed", "es", "ly", "s")
SEARCH_MIN_STEM = 4


@lru_cache(maxsize=8192)
def stem(word: str, suffixes: tuple[str, ...] = RELEVANCE_SUFFIXES,
         min_stem: int = RELEVANCE_MIN_STEM) -> str:
    """``word`` without the first of ``suffixes`` it ends with, when at least ``min_stem``
    characters remain; else ``word`` unchanged. No dictionary, no dependency."""
    for suf in suffixes:
        if word.endswith(suf) and len(word) - len(suf) >= min_stem:
            return word[: -len(suf)]
    return word


# -- tokenizing for relevance -------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")
_CJK_RUN = re.compile(f"[{CJK}]+")


def fold(text: str) -> str:
    """Lowercase, accents removed (ç → c, è → e), CJK kept."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@lru_cache(maxsize=4096)
def terms(text: str, extra_stop: frozenset[str] = frozenset()) -> frozenset[str]:
    """The set of stemmed content terms of ``text``: folded words (stopwords, one-letter words and
    numbers dropped) and, for CJK text, which has no spaces to split on, character bigrams."""
    folded = fold(text)
    out: set[str] = set()
    for w in _WORD.findall(folded):
        if len(w) < 2 or w in RELEVANCE_STOPWORDS or w in extra_stop or w.isdigit():
            continue
        out.add(stem(w))
    for run in _CJK_RUN.findall(folded):
        if len(run) == 1:
            out.add(run)
        out.update(run[i:i + 2] for i in range(len(run) - 1))
    return frozenset(out)


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Overlap coefficient |a ∩ b| / min(|a|, |b|): 1.0 when the smaller set is fully covered."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


# What a pattern (not VERBOSE, outside a character class) reads as syntax. re.escape escapes more
# (spaces, "#", "-"…): harmless, but each escape costs the parser a call, and these tries are
# compiled on every start.
_REGEX_SYNTAX = frozenset("\\.^$*+?{}[]|()")


def trie_pattern(strings: Iterable[str]) -> str:
    """One regular expression matching where any of ``strings`` occurs, as a trie: at each
    position the engine tries one branch per distinct next character, not one per string.
    For a pattern compiled without re.VERBOSE."""
    root: dict[str, dict] = {}
    for s in strings:
        node = root
        for ch in s:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, dict]) -> str:
        if "" in node:  # a string ends here: any longer one starting with it adds nothing
            return ""
        alts = [("\\" + ch if ch in _REGEX_SYNTAX else ch) + emit(node[ch]) for ch in sorted(node)]
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return emit(root)


def _meaning_words(text: str) -> set[str]:
    return set(re.findall(r"[\w@./+-]+", text.lower())) - {"when", "always", "never", "the", "a", "in",
                                                            "this", "use", "run", "with", "fails"}


def similar(a: str, b: str) -> float:
    """How much two rule texts share (the words that carry meaning, Jaccard)."""
    sa, sb = _meaning_words(a), _meaning_words(b)
    return len(sa & sb) / max(1, len(sa | sb))
