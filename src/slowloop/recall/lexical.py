"""Lexical search: FTS5 + BM25 over the two mirrors of the entries.

The user's text never reaches MATCH as written: it is cut into word tokens and CJK runs, each token
is quoted (so ``AND``, ``NOT``, ``"``, ``(`` or ``*`` are plain words), and the tokens are OR-ed so
a question finds entries sharing some of its words, BM25 ranking those sharing the rarest first.

* words (``fts_words``): stopwords are dropped unless nothing else is left; a light suffix strip
  turns "deployments" into the prefix query ``"deploy"*`` so inflections meet.
* Chinese / Japanese / Korean (``fts_tri``, trigrams): a run of 3+ characters becomes the OR of its
  3-character windows; a run of 1–2 characters cannot be a trigram, so it is looked up with LIKE
  (only over entries that contain such script, which keeps the scan small).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from ..errors import UserError
from ..text import CJK, SEARCH_MIN_STEM, SEARCH_STOPWORDS, SEARCH_SUFFIXES, stem

HL_OPEN, HL_CLOSE, ELLIPSIS = "«", "»", "…"
SNIPPET_TOKENS = 16
TEXT_WEIGHT, CONTEXT_WEIGHT = 1.0, 0.35
# a word in more than this share of a large index is too common to rank by (see _prune_common)
COMMON_RATIO, COMMON_MIN_DOCS = 0.05, 5000

_CJK_RUN = re.compile(f"[{CJK}]+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")

@dataclass(frozen=True)
class LexicalQuery:
    words: str | None       # MATCH expression for fts_words
    trigrams: str | None    # MATCH expression for fts_tri
    short_cjk: tuple[str, ...]  # 1–2 character CJK runs, looked up with LIKE
    terms: tuple[str, ...]  # every term, for highlighting snippets outside FTS
    cjk_terms: tuple[str, ...] = ()  # CJK runs and their trigrams, longest first
    word_terms: tuple[str, ...] = ()  # the quoted (and possibly prefix) terms OR-ed in ``words``


def _quote(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def build_query(text: str) -> LexicalQuery:
    if not isinstance(text, str) or not text.strip():
        raise UserError("the search query is empty", hint='write what you are looking for, e.g. '
                                                          'slowloop search "flaky CI test"')
    cjk_runs = _CJK_RUN.findall(text)
    rest = _CJK_RUN.sub(" ", text)
    words = [w.lower() for w in _WORD.findall(rest)]
    if not words and not cjk_runs:
        raise UserError(f"the search query {text!r} has no words to look for",
                        hint="use letters or digits; punctuation and operators are ignored")
    content = [w for w in words if w not in SEARCH_STOPWORDS] or words
    seen: set[str] = set()
    parts: list[str] = []
    for w in content:
        s = stem(w, SEARCH_SUFFIXES, SEARCH_MIN_STEM)
        term = _quote(s) + "*" if s != w else _quote(w)
        if term not in seen:
            seen.add(term)
            parts.append(term)
    tri: list[str] = []
    short: list[str] = []
    for run in cjk_runs:
        if len(run) < 3:
            short.append(run)
            continue
        for i in range(len(run) - 2):
            q = _quote(run[i:i + 3])
            if q not in tri:
                tri.append(q)
    return LexicalQuery(words=" OR ".join(parts) or None, trigrams=" OR ".join(tri) or None,
                        short_cjk=tuple(dict.fromkeys(short)),
                        terms=tuple(dict.fromkeys(content + cjk_runs)),
                        cjk_terms=tuple(dict.fromkeys(cjk_runs + [t.strip('"') for t in tri])),
                        word_terms=tuple(parts))


@dataclass(frozen=True)
class LexRow:
    id: int
    score: float


def _filters(kinds: tuple[str, ...] | None, since: str | None) -> tuple[str, list[str]]:
    sql = ""
    params: list[str] = []
    if kinds:
        sql += f" AND e.kind IN ({', '.join('?' * len(kinds))})"
        params.extend(kinds)
    if since:
        sql += " AND e.time >= ?"
        params.append(since)
    return sql, params


def search_fts(conn: sqlite3.Connection, table: str, match: str, *, kinds: tuple[str, ...] | None,
               since: str | None, limit: int) -> list[LexRow]:
    """Ids and BM25 scores only: snippet() costs a pass over each row's text, so it is computed
    later for the few hits actually shown (``fts_snippets``)."""
    where, params = _filters(kinds, since)
    rank = f"bm25({table}, {TEXT_WEIGHT}, {CONTEXT_WEIGHT})"
    if where:
        sql = (f"SELECT {table}.rowid AS id, {rank} AS r FROM {table} "
               f"JOIN entries e ON e.id = {table}.rowid "
               f"WHERE {table} MATCH ?{where} ORDER BY r LIMIT ?")
    else:  # no join for every matching row when nothing needs the entry's columns
        sql = f"SELECT rowid AS id, {rank} AS r FROM {table} WHERE {table} MATCH ? ORDER BY r LIMIT ?"
    try:
        rows = conn.execute(sql, [match, *params, limit]).fetchall()
    except sqlite3.OperationalError as exc:
        # build_query quotes every token, so this is a bug of ours, not the user's query
        raise RuntimeError(f"FTS query {match!r} failed: {exc}") from exc
    return [LexRow(int(r["id"]), -float(r["r"])) for r in rows]


def _doc_count(conn: sqlite3.Connection, term: str) -> int:
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_words_vocab "
                 "USING fts5vocab(main, 'fts_words', 'row')")
    word = term.strip('"*').replace('""', '"')
    if term.endswith("*"):
        row = conn.execute("SELECT coalesce(sum(doc), 0) FROM temp.fts_words_vocab "
                           "WHERE term >= ? AND term < ?", (word, word + "\U0010ffff")).fetchone()
    else:
        row = conn.execute("SELECT coalesce(sum(doc), 0) FROM temp.fts_words_vocab WHERE term = ?",
                           (word,)).fetchone()
    return int(row[0])


def _prune_common(conn: sqlite3.Connection, terms: tuple[str, ...]) -> tuple[str, bool]:
    """``(match, ranked)``. On a large index, BM25 over an OR with a term found in most entries
    costs a ranking pass over most of the index (200 ms at 10⁵ entries) and adds almost nothing
    to the order (its idf is near zero). Such terms are dropped when rarer ones remain; when
    every term is that common, the entries having all of them come latest-indexed first, unranked
    (FTS5 walks rowids backwards and stops at the limit)."""
    size = conn.execute("SELECT coalesce(max(id), 0) FROM entries").fetchone()[0]
    if size < COMMON_MIN_DOCS or len(terms) == 0:
        return " OR ".join(terms), True
    cutoff = max(COMMON_MIN_DOCS, COMMON_RATIO * size)
    rare = [t for t in terms if _doc_count(conn, t) <= cutoff]
    if rare:
        return " OR ".join(rare), True
    return " AND ".join(terms), False


def search_newest(conn: sqlite3.Connection, match: str, *, kinds: tuple[str, ...] | None,
                  since: str | None, limit: int) -> list[LexRow]:
    where, params = _filters(kinds, since)
    rows = conn.execute(f"SELECT fts_words.rowid AS id FROM fts_words JOIN entries e "
                        f"ON e.id = fts_words.rowid WHERE fts_words MATCH ?{where} "
                        f"ORDER BY fts_words.rowid DESC LIMIT ?", [match, *params, limit]).fetchall()
    return [LexRow(int(r["id"]), 0.0) for r in rows]


def fts_snippets(conn: sqlite3.Connection, q: LexicalQuery, ids: list[int]) -> dict[int, str]:
    """Highlighted snippets of the hits to show: FTS5's snippet() for word matches, our own
    marking for CJK (snippet() over overlapping trigrams repeats text)."""
    if not ids:
        return {}
    out: dict[int, str] = {}
    marks = ", ".join("?" * len(ids))
    if q.words:
        rows = conn.execute(
            f"SELECT rowid, snippet(fts_words, 0, '{HL_OPEN}', '{HL_CLOSE}', '{ELLIPSIS}', "
            f"{SNIPPET_TOKENS}) FROM fts_words WHERE fts_words MATCH ? AND rowid IN ({marks})",
            [q.words, *ids]).fetchall()
        out.update({int(r[0]): r[1] for r in rows if HL_OPEN in (r[1] or "")})
    rest = [i for i in ids if i not in out]
    if rest:
        texts = _texts(conn, rest)
        terms = q.cjk_terms + q.terms
        out.update({i: make_snippet(texts[i], terms) for i in rest if i in texts})
    return out


def search_like(conn: sqlite3.Connection, terms: tuple[str, ...], *, kinds: tuple[str, ...] | None,
                since: str | None, limit: int) -> list[LexRow]:
    """Short CJK terms: entries containing the most of them, most recent first on ties."""
    where, params = _filters(kinds, since)
    hits = " + ".join("(instr(e.text, ?) > 0)" for _ in terms)
    any_ = " OR ".join("instr(e.text, ?) > 0" for _ in terms)
    sql = (f"SELECT e.id AS id, ({hits}) AS n FROM entries e "
           f"WHERE e.cjk = 1 AND ({any_}){where} ORDER BY n DESC, e.time DESC LIMIT ?")
    rows = conn.execute(sql, [*terms, *terms, *params, limit]).fetchall()
    return [LexRow(int(r["id"]), float(r["n"])) for r in rows]


def lexical_lists(conn: sqlite3.Connection, q: LexicalQuery, *, kinds: tuple[str, ...] | None,
                  since: str | None, limit: int) -> list[list[LexRow]]:
    lists = []
    if q.words:
        match, ranked = _prune_common(conn, q.word_terms)
        if ranked:
            lists.append(search_fts(conn, "fts_words", match, kinds=kinds, since=since, limit=limit))
        else:
            lists.append(search_newest(conn, match, kinds=kinds, since=since, limit=limit))
    if q.trigrams:
        lists.append(search_fts(conn, "fts_tri", q.trigrams, kinds=kinds, since=since, limit=limit))
    if q.short_cjk:
        lists.append(search_like(conn, q.short_cjk, kinds=kinds, since=since, limit=limit))
    return [x for x in lists if x]


def _texts(conn: sqlite3.Connection, ids: list[int]) -> dict[int, str]:
    if not ids:
        return {}
    rows = conn.execute(f"SELECT id, text FROM entries WHERE id IN ({', '.join('?' * len(ids))})", ids)
    return {int(r[0]): r[1] for r in rows}


def make_snippet(text: str, terms: tuple[str, ...], width: int = 160) -> str:
    """A window of ``text`` around the first term found, terms marked «like this»."""
    flat = " ".join(text.split())
    low = flat.lower()
    pos = [(low.find(t.lower()), t) for t in terms if t and low.find(t.lower()) >= 0]
    start = max(0, min(p for p, _ in pos) - width // 3) if pos else 0
    window = flat[start:start + width]
    if pos:
        alternation = "|".join(re.escape(t) for t in sorted({t for _, t in pos}, key=len, reverse=True))
        window = re.sub(alternation, lambda m: f"{HL_OPEN}{m.group(0)}{HL_CLOSE}", window,
                        flags=re.IGNORECASE)
    return (ELLIPSIS if start > 0 else "") + window + (ELLIPSIS if start + width < len(flat) else "")
