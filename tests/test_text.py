"""The shared text ideas: CJK character classes, the tokenizer and the stemmer."""

from __future__ import annotations

import re

from slowloop import text
from slowloop.recall.lexical import build_query


def test_cjk_classes_name_what_they_hold() -> None:
    cjk = re.compile(f"[{text.CJK}]")
    for ch in "あア漢㐀豈한ｶㇰ":
        assert cjk.match(ch), ch
    for ch in "aé，1 ":
        assert not cjk.match(ch), ch
    cj = re.compile(f"[{text.CHINESE_JAPANESE}]")
    assert cj.match("漢") and cj.match("か") and not cj.match("한")


def test_stem_relevance_and_search_tables_differ_on_purpose() -> None:
    # relevance: six languages, stems of three letters
    assert text.stem("exports") == text.stem("exporting") == "export"
    assert text.stem("esportazione") == "esport"
    # search: light English, at least four letters left (an FTS5 prefix must stay selective)
    search = (text.SEARCH_SUFFIXES, text.SEARCH_MIN_STEM)
    assert text.stem("deployments", *search) == "deploy"
    assert text.stem("cats", *search) == "cats"
    assert text.stem("cats") == "cat"


def test_terms_fold_stop_stem_and_bigram_cjk() -> None:
    assert text.terms("The Exportación of files") == {"export", "fil"}
    assert text.terms("部署失败") == {"部署", "署失", "失败"}
    assert text.terms("字") == {"字"}


def test_search_query_uses_the_search_tables() -> None:
    q = build_query("the deployments")
    assert q.words == '"deploy"*'
    assert build_query("部署失败了").trigrams == '"部署失" OR "署失败" OR "失败了"'
