"""The library face of recall: ``refresh``, ``reindex``, ``search``, ``add_paths``, ``status``.

``refresh`` is what ingest and memory writes call: it reads only what changed since the last call
(turns past the watermark or rewritten since, files whose mtime or size moved and whose hash then
differs) and removes what disappeared, so with nothing new it costs a few stat calls and queries.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from .. import clock
from ..config import Recall, load_config
from ..errors import DataError, UserError
from ..fsutil import file_lock, sha256_text
from ..paths import agent_dir, home as default_home, home_lock, validate_agent_name
from . import lexical, semantic, sources
from .index import RecallIndex
from .model import KINDS, MODES, Entry, Hit, IndexStats

INDEX_FILE = "recall.db"
TURNS_PER_PAGE = 500  # turns read from the ledger and indexed per step of a refresh


def index_path(agent: str, home: Path | None = None) -> Path:
    return agent_dir(agent, home or default_home()) / INDEX_FILE


def open_index(agent: str, home: Path | None = None) -> RecallIndex:
    return RecallIndex(index_path(agent, home))


def _lock(agent: str, home: Path | None) -> AbstractContextManager[None]:
    # One refresher per agent at a time: a second one waits, then finds nothing left to do.
    return file_lock(home_lock(f"recall-{validate_agent_name(agent)}.lock", home or default_home()), timeout=120)


# -- keeping the index current ----------------------------------------------------------------

def refresh(agent: str = "default", home: Path | None = None, *, embed: bool = False,
            progress: Callable[[int, int], None] | None = None) -> IndexStats:
    """Bring the index up to date with every source. ``embed``: also compute missing vectors
    (otherwise the first semantic search does it, so hooks never pay for loading a model)."""
    h = home or default_home()
    started = time.perf_counter()
    with _lock(agent, h), open_index(agent, h) as idx:
        added, updated, removed = _refresh_turns(idx, agent, h)
        a, u, r, scanned, parsed, problems = _refresh_files(idx, agent, h)
        added, updated, removed = added + a, updated + u, removed + r
        if updated or removed:
            semantic.prune_vectors(idx)
        embedded = 0
        if embed and semantic.available() and _semantic_setting(h) != "off":
            embedder = semantic.load_embedder(load_config(h).recall.model)
            embedded = semantic.ensure_vectors(idx, embedder, progress=progress)
        idx.set_meta("refreshed_at", clock.iso())
        total = idx.count()
    return IndexStats(added=added, updated=updated, removed=removed, embedded=embedded,
                      files_scanned=scanned, files_parsed=parsed, total=total,
                      problems=tuple(problems),
                      seconds=round(time.perf_counter() - started, 4))


def reindex(agent: str = "default", home: Path | None = None, *, embed: bool = False,
            progress: Callable[[int, int], None] | None = None) -> IndexStats:
    """Forget every entry and read all sources again. Registered folders stay registered, and
    vectors of unchanged texts are reused (they depend only on the text and the model)."""
    h = home or default_home()
    with _lock(agent, h), open_index(agent, h) as idx:
        idx.clear()
    return refresh(agent, h, embed=embed, progress=progress)


def _refresh_turns(idx: RecallIndex, agent: str, h: Path) -> tuple[int, int, int]:
    from ..store import artifacts, open_store
    from ..store.db import ledger_exists

    if not ledger_exists(h):
        return 0, 0, 0  # nothing recorded yet; opening the store would create it

    with open_store(home=h) as store:
        aid = store.agent_id(agent, create=False)
        if aid is None:
            return 0, 0, idx.remove_origin(sources.TURNS_ORIGIN)
        after_id = int(idx.get_meta("turns.max_id", "0") or 0)
        after_updated = idx.get_meta("turns.max_updated", "") or ""
        listed = artifacts.turns_since(store, aid, after_id, after_updated)
        added = updated = removed = 0
        # A page at a time, the watermark moved after each: memory stays that of one page
        # whatever was ingested, and a refresh stopped half-way resumes where it was. The
        # watermark is what the list said, never a later page's newer stamp: a turn rewritten
        # while the pages are read has a stamp past it, and the next refresh reads it again.
        for start in range(0, len(listed), TURNS_PER_PAGE):
            page = listed[start:start + TURNS_PER_PAGE]
            rows = artifacts.turns_for_recall(store, [i for i, _ in page])
            a, u = idx.upsert(sources.turn_entry(r) for r in rows)
            added, updated = added + a, updated + u
            after_id = max(after_id, page[-1][0])
            after_updated = max(after_updated, *(stamp for _, stamp in page))
            idx.set_meta("turns.max_id", str(after_id))
            idx.set_meta("turns.max_updated", after_updated)
        indexed = int(idx.conn.execute("SELECT COUNT(*) FROM entries WHERE origin = ?",
                                       (sources.TURNS_ORIGIN,)).fetchone()[0])
        if indexed != artifacts.turn_count(store, aid):
            live = {f"turn:{i}" for i in artifacts.turn_ids(store, aid)}
            stale = [r[0] for r in idx.conn.execute("SELECT source FROM entries WHERE origin = ?",
                                                    (sources.TURNS_ORIGIN,)) if r[0] not in live]
            removed = idx.delete_sources(stale)
    return added, updated, removed


def _refresh_files(idx: RecallIndex, agent: str, h: Path) -> tuple[int, int, int, int, int, list[str]]:
    adir = agent_dir(agent, h)
    targets = (sources.agent_files(adir) + sources.project_files(h, agent)
               + sources.doc_files(idx.doc_roots()))
    states = idx.file_states()
    added = updated = removed = parsed = 0
    present: set[str] = set()
    problems: list[str] = []
    changed: list[tuple[sources.FileTarget, os.stat_result, str, str]] = []
    for t in targets:
        key = str(t.path)
        if key in present:
            continue
        present.add(key)
        try:
            st = t.path.stat()
        except FileNotFoundError:
            present.discard(key)
            continue
        old = states.get(key)
        if old is not None and old["mtime_ns"] == st.st_mtime_ns and old["size"] == st.st_size:
            continue
        if t.group == "doc" and st.st_size > sources.DOC_MAX_BYTES:
            present.discard(key)  # too large to be a note; leave it out of the index
            continue
        raw = t.path.read_bytes().decode("utf-8", errors="replace")
        digest = sha256_text(raw)
        if old is not None and old["hash"] == digest and old["kind"] == t.kind:
            idx.set_file_state(key, t.kind, st.st_mtime_ns, st.st_size, digest)  # touched, same text
            continue
        changed.append((t, st, raw, digest))

    memory_fn = sources.memory_parser() if any(t.group == "memory" for t, *_ in changed) else None
    from_module: dict[str, list[Entry]] = {}
    if memory_fn is not None:
        # the agent's memory root and any project's (``sources.project_files``) each read whole
        roots = sorted({next((q for q in t.path.parents if q.name == "memory"), adir / "memory")
                        for t, *_ in changed if t.group == "memory"})
        try:
            for root in roots:
                from_module.update(sources.memory_entries_from_module(
                    memory_fn, root, lambda p: clock.iso(p.stat().st_mtime)))
        except DataError as exc:
            # A hand-broken memory file must not make the past unsearchable: its text is indexed
            # with the generic splitter, and the problem is reported to the caller.
            problems.append(str(exc))
            memory_fn = None
    for t, st, raw, digest in changed:
        if t.group == "memory" and memory_fn is not None:
            entries = from_module.get(str(t.path), [])
        else:
            entries = sources.parse_file(t, raw, st.st_mtime)
        parsed += 1
        with idx.transaction():
            a, u, r = idx.sync_origin(str(t.path), _unique(entries))
            idx.set_file_state(str(t.path), t.kind, st.st_mtime_ns, st.st_size, digest)
        added, updated, removed = added + a, updated + u, removed + r
    for key in states:
        if key not in present:
            removed += idx.remove_origin(key)
    return added, updated, removed, len(targets), parsed, problems


def _unique(entries: Iterable[Entry]) -> list[Entry]:
    """Sources must be unique; two entries starting on one line get ``#2``, ``#3``…"""
    out: list[Entry] = []
    seen: dict[str, int] = {}
    for e in entries:
        n = seen.get(e.source, 0) + 1
        seen[e.source] = n
        out.append(e if n == 1 else Entry(e.kind, f"{e.source}#{n}", e.time, e.text, e.context, e.origin))
    return out


# -- registered folders -----------------------------------------------------------------------

def add_paths(paths: Sequence[str | Path], agent: str = "default", home: Path | None = None) -> IndexStats:
    """Register folders or files of the user's own notes (kind ``doc``) and index them now."""
    if not paths:
        raise UserError("no path given", hint="slowloop index add ~/notes")
    resolved = []
    for p in paths:
        rp = Path(p).expanduser().resolve()
        if not rp.exists():
            raise UserError(f"{p}: no such file or folder", hint="give an existing folder of notes")
        if rp.is_file() and rp.suffix.lower() not in sources.DOC_SUFFIXES:
            raise UserError(f"{p}: {rp.suffix or 'this file type'} is not a text note",
                            hint=f"recall reads {', '.join(sorted(sources.DOC_SUFFIXES))} files")
        resolved.append(str(rp))
    h = home or default_home()
    with open_index(agent, h) as idx:
        for root in resolved:
            idx.add_doc_root(root, clock.iso())
    return refresh(agent, h)


def remove_paths(paths: Sequence[str | Path], agent: str = "default", home: Path | None = None) -> IndexStats:
    """Unregister folders; their entries leave the index (the files are not touched)."""
    h = home or default_home()
    with open_index(agent, h) as idx:
        roots = set(idx.doc_roots())
        for p in paths:
            rp = str(Path(p).expanduser().resolve())
            if rp not in roots:
                raise UserError(f"{p} is not a registered folder",
                                hint="see `slowloop index status` for the registered ones")
            idx.remove_doc_root(rp)
    return refresh(agent, h)


# -- search -----------------------------------------------------------------------------------

def _semantic_setting(h: Path) -> str:
    return load_config(h).recall.semantic


def resolve_mode(mode: str, home: Path | None = None) -> str:
    """``auto`` → hybrid when the extra is installed (and not switched off), else lexical."""
    if mode not in MODES:
        raise UserError(f"search mode {mode!r} is not one of {', '.join(MODES)}")
    if mode != "auto":
        if mode in ("semantic", "hybrid"):
            semantic.require()
        return mode
    setting = _semantic_setting(home or default_home())
    if setting == "off":
        return "lexical"
    if setting == "on":
        semantic.require()
        return "hybrid"
    return "hybrid" if semantic.available() else "lexical"


def parse_since(value: str | None) -> str | None:
    """An ISO date/time (``2025-01-08``) or a duration back from now (``7d``, ``12h``)."""
    if value is None or value == "":
        return None
    ts = clock.parse_iso(value)
    if ts is None:
        try:
            ts = clock.now() - clock.parse_duration(value)
        except ValueError:
            raise UserError(f"--since {value!r} is neither a date nor a duration",
                            hint="write e.g. 2025-01-08, 2025-01-08T10:00:00Z or 7d") from None
    return clock.iso(ts)


def _check_kinds(kinds: Iterable[str] | str | None) -> tuple[str, ...] | None:
    if kinds is None:
        return None
    ks = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    bad = [k for k in ks if k not in KINDS]
    if bad:
        raise UserError(f"unknown kind {bad[0]!r}", hint=f"kinds: {', '.join(KINDS)}")
    return ks or None


def rrf(lists: Sequence[Sequence[int]], k: int = 60,
        weights: Sequence[float] | None = None) -> dict[int, float]:
    """Reciprocal rank fusion: each list adds weight/(k + rank) to the ids it ranks."""
    scores: dict[int, float] = {}
    for n, ranked in enumerate(lists):
        w = 1.0 if weights is None else weights[n]
        for rank, item in enumerate(ranked, start=1):
            scores[item] = scores.get(item, 0.0) + w / (k + rank)
    return scores


def search(query: str, agent: str = "default", *, kinds: Iterable[str] | str | None = None,
           since: str | None = None, k: int = 10, mode: str = "auto", home: Path | None = None,
           embedder: semantic.Embedder | None = None) -> list[Hit]:
    """The ``k`` entries that best match ``query``, best first.

    ``mode``: ``lexical`` (FTS5/BM25), ``semantic`` (embeddings), ``hybrid`` (both, fused by
    reciprocal rank), ``auto`` (hybrid when the [semantic] extra is installed). ``embedder``
    replaces the configured model (tests, other models).
    """
    h = home or default_home()
    lexical.build_query(query)  # an empty or unusable query is an error even on an empty index
    if not isinstance(k, int) or k < 1:
        raise UserError(f"k = {k!r}: ask for at least one result")
    ks = _check_kinds(kinds)
    since_iso = parse_since(since)
    cfg = load_config(h)
    mode = mode if embedder is None or mode != "auto" else "hybrid"
    mode = resolve_mode(mode, h) if embedder is None else mode
    depth = max(k, cfg.recall.fusion_depth)
    rrf_k = cfg.recall.rrf_k
    if not index_path(agent, h).exists():
        return []
    emb = None
    if mode in ("semantic", "hybrid"):
        emb = embedder or semantic.load_embedder(cfg.recall.model)
    with open_index(agent, h) as idx:
        return search_index(idx, query, kinds=ks, since=since_iso, k=k, mode=mode, embedder=emb,
                            depth=depth, rrf_k=rrf_k,
                            semantic_weight=cfg.recall.semantic_weight,
                            min_similarity=cfg.recall.min_similarity)


def search_index(idx: RecallIndex, query: str, *, kinds: tuple[str, ...] | None = None,
                 since: str | None = None, k: int = 10, mode: str = "lexical",
                 embedder: semantic.Embedder | None = None,
                 depth: int = Recall.fusion_depth,
                 rrf_k: int = Recall.rrf_k,
                 semantic_weight: float = Recall.semantic_weight,
                 min_similarity: float = Recall.min_similarity) -> list[Hit]:
    """``search`` on an open index, with the mode already resolved (benchmarks use it directly).
    ``since`` is a normalized ISO time; semantic modes need ``embedder``."""
    q = lexical.build_query(query)
    depth = max(k, depth)
    lex_lists = (lexical.lexical_lists(idx.conn, q, kinds=kinds, since=since, limit=depth)
                 if mode in ("lexical", "hybrid") else [])
    sem: list[tuple[int, float]] = []
    if mode in ("semantic", "hybrid"):
        if embedder is None:
            raise UserError(f"search mode {mode!r} needs an embedding model", hint=semantic.EXTRA_HINT)
        semantic.ensure_vectors(idx, embedder)
        sem = semantic.search_vectors(idx, embedder.embed([query])[0], kinds=kinds, since=since,
                                      limit=depth)
        # Nearest is not necessarily near: below this cosine a neighbour is unrelated, and
        # showing it only because k slots were free reads as a false match.
        sem = [(i, s) for i, s in sem if s >= min_similarity]
    if mode == "semantic":
        ranked = sem
    elif mode == "lexical" and len(lex_lists) == 1:
        ranked = [(row.id, row.score) for row in lex_lists[0]]
    else:
        lists = [[row.id for row in lst] for lst in lex_lists]
        weights = [1.0] * len(lists)
        if sem:
            lists.append([i for i, _ in sem])
            weights.append(semantic_weight)
        ranked = sorted(rrf(lists, rrf_k, weights).items(), key=lambda kv: -kv[1])
    ranked = ranked[:k]
    rows = _fetch(idx, [i for i, _ in ranked])
    snippets = lexical.fts_snippets(idx.conn, q, [i for i, _ in ranked])
    hits = []
    for i, score in ranked:
        r = rows.get(i)
        if r is None:
            continue
        snippet = snippets.get(i) or lexical.make_snippet(r["text"], q.terms)
        hits.append(Hit(kind=r["kind"], source=r["source"], time=r["time"], score=float(score),
                        snippet=" ".join(snippet.split()), text=r["text"]))
    return hits


def _fetch(idx: RecallIndex, ids: list[int]) -> dict[int, sqlite3.Row]:
    if not ids:
        return {}
    rows = idx.conn.execute(f"SELECT id, kind, source, time, text FROM entries "
                            f"WHERE id IN ({', '.join('?' * len(ids))})", ids).fetchall()
    return {int(r["id"]): r for r in rows}


# -- status -----------------------------------------------------------------------------------

def status(agent: str = "default", home: Path | None = None) -> dict:
    """What the index holds: counts per kind, vectors and their model, registered folders."""
    h = home or default_home()
    path = index_path(agent, h)
    out: dict = {"agent": agent, "path": str(path), "exists": path.exists(), "entries": 0,
                 "by_kind": {}, "vectors": 0, "vector_model": None, "files": 0, "doc_roots": [],
                 "refreshed_at": None, "size_bytes": 0, "semantic_available": semantic.available()}
    if not path.exists():
        return out
    with open_index(agent, h) as idx:
        out["entries"] = idx.count()
        out["by_kind"] = idx.counts_by_kind()
        out["vectors"] = int(idx.conn.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])
        out["vector_model"] = idx.get_meta("vector_model")
        out["files"] = len(idx.file_states())
        out["doc_roots"] = [{"path": p, "exists": Path(p).exists()} for p in idx.doc_roots()]
        out["refreshed_at"] = idx.get_meta("refreshed_at")
    out["size_bytes"] = sum(f.stat().st_size for f in path.parent.glob(INDEX_FILE + "*") if f.is_file())
    return out
