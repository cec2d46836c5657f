"""Literal strings a regular expression cannot match without: a sound prefilter for the cues.

``required(pattern)`` reads a pattern (compiled without IGNORECASE) and returns a set of strings
such that every match of it, in a text padded with a newline at both ends, contains one of them —
or None when it finds no such set. A text holding none of the strings cannot match, so the costly
search is skipped with the answer unchanged. ``^`` and ``$`` stand for the newline of the padding
or of a line end, so ``^no,`` gives ``"\\nno,"``: a message *opening* with "no" is told apart from
one holding "now" in its middle.

Only the regular-expression parser is used (``re._parser``, private but stable since 3.11), and
only here: ``python -m slowloop.observe.literals`` writes ``_cue_literals.py`` once, and
``corrections`` reads that table, checking that it was made from its cues as they are now (a
stale table is ignored, never trusted). The test suite checks the table is current.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from importlib import import_module
from pathlib import Path
from typing import Any

from ..text import trie_pattern
from .corrections import cue_patterns, source_hash

# the regular-expression parser's own modules (typeshed leaves them out)
K = import_module("re._constants")
P = import_module("re._parser")

Strings = frozenset[str]
_CAP = 64  # more alternatives than this and a set is given up (it would only cost, not filter)
_EMPTY: Strings = frozenset([""])
_BEGIN = (K.AT_BEGINNING, K.AT_BEGINNING_STRING)
_END = (K.AT_END, K.AT_END_STRING)


class _Unsupported(Exception):
    """A construct the cue alternations cannot hold (a back-reference would change meaning)."""


def _cross(a: Strings, b: Strings) -> Strings | None:
    out = frozenset(x + y for x in a for y in b)
    return out if len(out) <= _CAP else None


def _exact(op: Any, av: Any) -> Strings | None:
    """Every string this item can match, when they are few and known; else None."""
    if op is K.LITERAL:
        return frozenset([chr(av)])
    if op is K.AT:
        # ^ $: only a sequence knows whether the newline they stand for is already consumed
        return None if av in _BEGIN or av in _END else _EMPTY  # \b \B: zero width
    if op in (K.ASSERT, K.ASSERT_NOT):
        return _EMPTY  # a lookaround consumes nothing: what is around it stays adjacent
    if op is K.IN:
        if len(av) <= 8 and all(o is K.LITERAL for o, _ in av):
            return frozenset(chr(c) for _, c in av)
        return None
    if op is K.SUBPATTERN:
        _, add, _, sub = av
        return None if add & re.IGNORECASE else _exact_seq(sub.data)
    if op is K.BRANCH:
        out: set[str] = set()
        for branch in av[1]:
            s = _exact_seq(branch.data)
            if s is None:
                return None
            out |= s
        return frozenset(out) if len(out) <= _CAP else None
    if op in (K.MAX_REPEAT, K.MIN_REPEAT, K.POSSESSIVE_REPEAT):
        lo, hi, sub = av
        if hi > 3:
            return None
        body = _exact_seq(sub.data)
        if body is None:
            return None
        acc: set[str] = set()
        cur: Strings | None = _EMPTY
        for n in range(hi + 1):
            assert cur is not None
            if n >= lo:
                acc |= cur
            cur = _cross(cur, body)
            if cur is None:
                return None
        return frozenset(acc) if len(acc) <= _CAP else None
    if op in (K.GROUPREF, K.GROUPREF_EXISTS):
        raise _Unsupported("back-reference")
    return None


def _exact_seq(items: Iterable[tuple[Any, Any]]) -> Strings | None:
    cur: Strings | None = _EMPTY
    for op, av in items:
        s = _exact(op, av)
        if s is None or cur is None:
            return None
        cur = _cross(cur, s)
    return cur


def _edge(op: Any, av: Any, lead: bool) -> Strings:
    """Strings every match of a (not exactly known) item starts with (lead) or ends with."""
    if op is K.SUBPATTERN:
        _, add, _, sub = av
        return _EMPTY if add & re.IGNORECASE else _edge_seq(sub.data, lead)
    if op is K.BRANCH:
        out: set[str] = set()
        for branch in av[1]:
            out |= _edge_seq(branch.data, lead)
        return frozenset(out) if len(out) <= _CAP else _EMPTY
    if op in (K.MAX_REPEAT, K.MIN_REPEAT, K.POSSESSIVE_REPEAT, K.ATOMIC_GROUP):
        if op is K.ATOMIC_GROUP:
            return _edge_seq(av.data, lead)
        lo, _, sub = av
        return _edge_seq(sub.data, lead) if lo >= 1 else _EMPTY
    if op in (K.GROUPREF, K.GROUPREF_EXISTS):
        raise _Unsupported("back-reference")
    return _EMPTY


def _edge_seq(items: list[tuple[Any, Any]], lead: bool) -> Strings:
    seq = items if lead else items[::-1]
    cur: Strings = _EMPTY
    for op, av in seq:
        s = _exact(op, av)
        if s is None:
            e = _edge(op, av, lead)
            nxt = _cross(cur, e) if lead else _cross(e, cur)
            return nxt if nxt is not None else cur
        nxt = _cross(cur, s) if lead else _cross(s, cur)
        if nxt is None:
            return cur
        cur = nxt
    return cur


def _useful(s: Strings | None) -> bool:
    return s is not None and bool(s) and "" not in s


def _best(cands: list[Strings]) -> Strings | None:
    ok = [c for c in cands if _useful(c)]
    if not ok:
        return None
    return max(ok, key=lambda s: (min(len(x) for x in s), -len(s)))


def _needed(op: Any, av: Any) -> Strings | None:
    """A set every match of an item contains one of (for an item not exactly known)."""
    if op is K.SUBPATTERN:
        _, add, _, sub = av
        return None if add & re.IGNORECASE else _seq(sub.data)
    if op is K.BRANCH:
        sets = [_seq(b.data) for b in av[1]]
        if any(s is None for s in sets):
            return None
        out = frozenset().union(*[s for s in sets if s is not None])
        return out if len(out) <= 4 * _CAP else None
    if op in (K.MAX_REPEAT, K.MIN_REPEAT, K.POSSESSIVE_REPEAT):
        lo, _, sub = av
        return _seq(sub.data) if lo >= 1 else None
    if op is K.ATOMIC_GROUP:
        return _seq(av.data)
    if op in (K.GROUPREF, K.GROUPREF_EXISTS):
        raise _Unsupported("back-reference")
    return None


def _seq(items: list[tuple[Any, Any]]) -> Strings | None:
    cands: list[Strings] = []
    run: Strings = _EMPTY  # the exactly known strings just before the current item
    for op, av in items:
        if op is K.AT and av in _BEGIN:
            # the character before is a newline (of a line, or of the padding)
            run = frozenset("\n" if x == "" else x for x in run)
            continue
        if op is K.AT and av in _END:
            # the character after is a newline (consumed next, or not)
            cands.append(frozenset(x + "\n" for x in run))
            run = _EMPTY
            continue
        s = _exact(op, av)
        if s is not None:
            nxt = _cross(run, s)
            if nxt is not None:
                run = nxt
                continue
            cands.append(run)
            run = s
            continue
        # Not exactly known: what precedes it is followed by one of its leads; what follows it
        # is preceded by one of its trails.
        lead = _cross(run, _edge(op, av, True))
        cands.append(lead if lead is not None else run)
        n = _needed(op, av)
        if n is not None:
            cands.append(n)
        run = _edge(op, av, False)
    cands.append(run)
    return _best(cands)


def required(pattern: str, flags: int = re.MULTILINE) -> Strings | None:
    """Strings one of which every match of ``pattern`` (in a newline-padded text) contains."""
    parsed = P.parse(pattern, flags)
    if parsed.state.flags & re.IGNORECASE:
        return None
    return _seq(list(parsed.data))


def minimal(strings: Iterable[str]) -> tuple[str, ...]:
    """Drop every string that holds a shorter one of the set: the shorter is enough to test."""
    out: list[str] = []
    for s in sorted(set(strings), key=lambda x: (len(x), x)):
        if not any(o in s for o in out):
            out.append(s)
    return tuple(sorted(out))


# -- the table corrections.py reads --------------------------------------------------------------

Table = dict[str, dict[str, tuple[str | None, tuple[tuple[str, ...] | None, ...]]]]


def build(tables: dict[str, dict[str, tuple[str, ...]]]) -> Table:
    """table → language → (trie pattern of every cue's literals or None, each cue's literals or
    None when it has none)."""
    out: Table = {}
    for name, langs in tables.items():
        out[name] = {}
        for lang, patterns in langs.items():
            try:
                per = [required(p) for p in patterns]
            except _Unsupported:
                continue  # no entry: that language's alternation is searched as before
            lits = tuple(minimal(s) if s is not None else None for s in per)
            quick = (None if any(x is None for x in lits)
                     else trie_pattern(minimal(x for t in lits if t is not None for x in t)))
            out[name][lang] = (quick, lits)
    return out


GENERATED = Path(__file__).with_name("_cue_literals.py")


def render(tables: dict[str, dict[str, tuple[str, ...]]]) -> str:
    # One JSON string, not Python literals: compiling thousands of nested tuples on every start
    # (these installs may keep no bytecode cache) cost more than the prefilter saves.
    data = json.dumps(build(tables), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return "\n".join([
        '"""Generated by ``python -m slowloop.observe.literals`` from the cues of corrections.py: do not',
        "edit. The literals each cue cannot match without (see literals.py), as JSON: table → language →",
        "[trie pattern of all of them or null, [each cue's literals or null]]. corrections.py ignores this",
        'table when SOURCE differs from the hash of its cues as they are."""',
        "",
        "# ruff: noqa: E501",
        f"SOURCE = {source_hash(tables)!r}",
        f"DATA = {data!r}",
        ""])


def main() -> None:
    GENERATED.write_text(render(cue_patterns()), encoding="utf-8")
    print(f"wrote {GENERATED}", file=sys.stderr)


if __name__ == "__main__":
    main()
