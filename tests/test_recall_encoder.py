"""The numpy BERT encoder: its arithmetic on a tiny model built here, and on the real MiniLM
against sentence-transformers when both are installed."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import struct
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the encoder is numpy")
tokenizers = pytest.importorskip("tokenizers", reason="the encoder reads tokenizer.json with it")

from slowloop.recall import encoder, semantic  # noqa: E402

WORDS = ["deploy", "the", "app", "to", "staging", "ci", "failed", "on", "upload", "test", "##s",
         "bread", "and", "milk"]


def write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    header, blobs, offset = {}, [], 0
    for name, arr in tensors.items():
        raw = np.ascontiguousarray(arr, dtype=np.float32).tobytes()
        header[name] = {"dtype": "F32", "shape": list(arr.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    head = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(head)) + head + b"".join(blobs))


@pytest.fixture
def tiny_model(tmp_path: Path) -> Path:
    """A 2-layer BERT with random weights, in the sentence-transformers folder layout."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    folder = tmp_path / "tiny-bert"
    (folder / "1_Pooling").mkdir(parents=True)
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", *WORDS])}
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    tok.save(str(folder / "tokenizer.json"))
    hidden, inter, layers, pos = 8, 16, 2, 32
    config = {"model_type": "bert", "hidden_size": hidden, "num_attention_heads": 2,
              "num_hidden_layers": layers, "intermediate_size": inter, "hidden_act": "gelu",
              "max_position_embeddings": pos, "type_vocab_size": 2, "vocab_size": len(vocab),
              "layer_norm_eps": 1e-12}
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]))
    (folder / "1_Pooling" / "config.json").write_text(json.dumps(
        {"word_embedding_dimension": hidden, "pooling_mode_mean_tokens": True}))
    rng = np.random.default_rng(3)
    w = {"embeddings.word_embeddings.weight": rng.normal(size=(len(vocab), hidden)),
         "embeddings.position_embeddings.weight": rng.normal(size=(pos, hidden)),
         "embeddings.token_type_embeddings.weight": rng.normal(size=(2, hidden)),
         "embeddings.LayerNorm.weight": np.ones(hidden), "embeddings.LayerNorm.bias": np.zeros(hidden)}
    shapes = {"attention.self.query": (hidden, hidden), "attention.self.key": (hidden, hidden),
              "attention.self.value": (hidden, hidden), "attention.output.dense": (hidden, hidden),
              "intermediate.dense": (inter, hidden), "output.dense": (hidden, inter)}
    for n in range(layers):
        for name, shape in shapes.items():
            w[f"encoder.layer.{n}.{name}.weight"] = rng.normal(scale=0.3, size=shape)
            w[f"encoder.layer.{n}.{name}.bias"] = rng.normal(scale=0.1, size=shape[0])
        for ln in ("attention.output.LayerNorm", "output.LayerNorm"):
            w[f"encoder.layer.{n}.{ln}.weight"] = np.ones(hidden)
            w[f"encoder.layer.{n}.{ln}.bias"] = np.zeros(hidden)
    write_safetensors(folder / "model.safetensors", w)
    return folder


def test_erf_is_exact_to_float32():
    xs = np.linspace(-6, 6, 2001, dtype=np.float32)
    ref = np.array([math.erf(float(x)) for x in xs])
    # the approximation is within 1.5e-7; float32 arithmetic adds a few units in the last place
    assert np.abs(encoder._erf(xs.copy()) - ref).max() < 5e-7


def test_padding_never_changes_a_vector(tiny_model: Path):
    enc = encoder.BertEncoder(tiny_model)
    alone = enc.encode(["deploy the app"])
    batched = enc.encode(["ci failed on the upload tests and the deploy to staging failed",
                          "deploy the app", "bread"])
    assert np.allclose(batched[1], alone[0], atol=1e-6)
    assert np.allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-6)
    assert not np.allclose(batched[0], batched[1])  # different texts, different vectors


def test_a_local_bert_folder_runs_on_numpy_and_others_do_not(tiny_model: Path, tmp_path: Path):
    assert encoder.supports(tiny_model)
    name, folder = semantic.model_dir(str(tiny_model))
    emb = semantic.NumpyEmbedder(name, folder)
    assert emb.identity.startswith("tiny-bert@") and emb.for_bulk(10) is emb
    vec = emb.embed(["bread and milk"])
    assert vec.shape == (1, 8) and vec.dtype == np.float32
    modules = json.loads((tiny_model / "modules.json").read_text())
    modules.insert(2, {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"})
    (tiny_model / "modules.json").write_text(json.dumps(modules))
    assert not encoder.supports(tiny_model)  # a Dense head: left to sentence-transformers


@pytest.mark.semantic
def test_minilm_vectors_match_sentence_transformers():
    if not (semantic.available() and importlib.util.find_spec("sentence_transformers")):
        why = ("needs the [semantic] extra and sentence-transformers (the reference): "
               "pip install torch==2.13.0 && pip install -e '.[semantic]'")
        if os.environ.get("CI", "").lower() == "true":  # CI installs it: a skip would hide a break
            pytest.fail(f"CI=true and {why}", pytrace=False)
        pytest.skip(why)
    from sentence_transformers import SentenceTransformer

    _, folder = semantic.model_dir("all-MiniLM-L6-v2")
    texts = ["The CI pipeline failed on the flaky upload test; pinned pytest.", "a", "",
             "我们今天讨论了部署问题，数据库迁移失败。", "Café naïve résumé — ¿qué?",
             "Deployed version 2 to staging. " * 80]
    ours = encoder.BertEncoder(folder).encode(texts)
    ref = SentenceTransformer(str(folder), device="cpu").encode(
        texts, normalize_embeddings=True, convert_to_numpy=True)
    assert np.abs(ours - ref).max() < 1e-5
