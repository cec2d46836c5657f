"""A BERT sentence encoder in numpy: the MiniLM weights without torch.

sentence-transformers answers the same question but imports torch and transformers first, which
made every ``slowloop search`` spend ~12 s starting up for a forward pass of a few milliseconds.
This module runs that forward pass itself, from the same files (``model.safetensors``,
``tokenizer.json``, ``config.json``, the pooling config), so a search costs numpy's import plus a
memory map of the weights. It covers the models sentence-transformers folders usually hold for
retrieval: a BERT encoder (absolute positions, GELU), mean or CLS pooling, optional normalisation.
Anything else is left to sentence-transformers (see ``semantic.load_embedder``).

The arithmetic is the reference one (float32 throughout, exact-erf GELU to float32 precision,
LayerNorm eps from the config); ``tests/test_recall_semantic.py`` compares its vectors with
sentence-transformers' when both are installed.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np  # this module is imported only when semantic search runs

_DTYPES = {"F32": "<f4", "F16": "<f2", "BF16": None, "I64": "<i8", "I32": "<i4"}


class UnsupportedModel(Exception):
    """The folder is not a model this encoder runs (the caller falls back to another runtime)."""


def read_safetensors(path: Path) -> dict[str, Any]:
    """Every tensor of a ``.safetensors`` file as a read-only numpy view of one memory map."""
    with open(path, "rb") as fh:
        (n,) = struct.unpack("<Q", fh.read(8))
        header = json.loads(fh.read(n))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + n)
    out: dict[str, Any] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(info["dtype"])
        if dtype is None:
            raise UnsupportedModel(f"{path.name}: tensor {name} has dtype {info['dtype']}")
        start, _ = info["data_offsets"]
        # plain ndarrays over the map (np.memmap subclasses make every product slower)
        out[name] = np.ndarray(tuple(info["shape"]), dtype=dtype, buffer=data, offset=start)
    return out


def supports(folder: Path) -> bool:
    """Whether ``folder`` is a sentence-transformers BERT model this encoder can run."""
    try:
        _describe(folder)
    except UnsupportedModel:
        return False
    return True


def _describe(folder: Path) -> tuple[dict, str, bool, int]:
    """(BERT config, pooling mode, normalise?, max tokens) — or UnsupportedModel."""
    def load(rel: str) -> Any:
        try:
            return json.loads((folder / rel).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise UnsupportedModel(f"{rel}: {exc}") from None

    if not (folder / "model.safetensors").is_file() or not (folder / "tokenizer.json").is_file():
        raise UnsupportedModel("needs model.safetensors and tokenizer.json")
    config = load("config.json")
    if config.get("model_type") != "bert" or config.get("hidden_act", "gelu") != "gelu" \
            or config.get("position_embedding_type", "absolute") != "absolute":
        raise UnsupportedModel("not a BERT encoder with GELU and absolute positions")
    modules = load("modules.json")
    kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in modules]
    if kinds not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]):
        raise UnsupportedModel(f"modules {kinds}")
    pool_dir = next(m.get("path", "") for m in modules if m.get("type", "").endswith("Pooling"))
    pooling = load(f"{pool_dir}/config.json")
    modes = [k for k in ("pooling_mode_mean_tokens", "pooling_mode_cls_token",
                         "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens")
             if pooling.get(k)]
    if modes not in (["pooling_mode_mean_tokens"], ["pooling_mode_cls_token"]):
        raise UnsupportedModel(f"pooling {modes}")
    st_cfg = load("sentence_bert_config.json") if (folder / "sentence_bert_config.json").exists() else {}
    max_len = min(int(st_cfg.get("max_seq_length") or 512), int(config.get("max_position_embeddings", 512)))
    return config, "mean" if modes[0].endswith("mean_tokens") else "cls", "Normalize" in kinds, max_len


def _erf(x: Any) -> Any:
    """erf to float32 precision (Abramowitz & Stegun 7.1.26 is 1.5e-7 at worst; numpy has no erf)."""
    a = np.abs(x)
    t = 1.0 / (1.0 + np.float32(0.3275911) * a)
    poly = t * np.float32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += np.float32(c)
        poly *= t
    np.multiply(a, a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(1.0, poly, out=poly)
    return np.copysign(poly, x, out=poly)


def _gelu(x: Any, rows: int = 256) -> Any:
    """GELU in place, a few hundred rows at a time (the temporaries stay in cache: 2× faster)."""
    flat = x.reshape(-1, x.shape[-1])
    for i in range(0, flat.shape[0], rows):
        part = flat[i:i + rows]
        e = _erf(part * np.float32(1.0 / math.sqrt(2.0)))
        e += 1.0
        e *= 0.5
        part *= e
    return x


def _layer_norm(x: Any, w: Any, b: Any, eps: float) -> Any:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    return centred / np.sqrt(var + eps) * w + b


class BertEncoder:
    """Texts in, one float32 vector per text out (pooled, normalised if the model says so)."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import Tokenizer

        config, self.pooling, self.normalize, self.max_len = _describe(folder)
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.w = read_safetensors(folder / "model.safetensors")
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in self.w else ""
        if prefix:
            self.w = {k[len(prefix):]: v for k, v in self.w.items() if k.startswith(prefix)}
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=self.max_len)

    def _p(self, name: str) -> Any:
        try:
            return self.w[name]
        except KeyError:
            raise UnsupportedModel(f"model.safetensors has no tensor {name}") from None

    def _linear(self, x: Any, name: str) -> Any:
        # as one 2-D product: BLAS takes (batch × tokens, hidden) at once, 3× faster than 3-D
        y = x.reshape(-1, x.shape[-1]) @ self._p(name + ".weight").T
        y += self._p(name + ".bias")
        return y.reshape(*x.shape[:-1], y.shape[-1])

    def encode(self, texts: Sequence[str], *, batch_size: int = 32) -> Any:
        encodings = self.tokenizer.encode_batch(list(texts))
        out = np.zeros((len(texts), self._p("embeddings.word_embeddings.weight").shape[1]),
                       dtype=np.float32)
        # Similar lengths together: padding is wasted work in every layer.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), batch_size):
            chunk = order[start:start + batch_size]
            length = max(len(encodings[i].ids) for i in chunk)
            ids = np.zeros((len(chunk), length), dtype=np.int64)
            types = np.zeros((len(chunk), length), dtype=np.int64)
            mask = np.zeros((len(chunk), length), dtype=np.float32)
            for row, i in enumerate(chunk):
                e = encodings[i]
                ids[row, :len(e.ids)] = e.ids
                types[row, :len(e.type_ids)] = e.type_ids
                mask[row, :len(e.ids)] = 1.0
            out[chunk] = self._forward(ids, types, mask)
        return out

    def _forward(self, ids: Any, types: Any, mask: Any) -> Any:
        batch, length = ids.shape
        x = (self._p("embeddings.word_embeddings.weight")[ids]
             + self._p("embeddings.position_embeddings.weight")[:length][None, :, :]
             + self._p("embeddings.token_type_embeddings.weight")[types]).astype(np.float32)
        x = _layer_norm(x, self._p("embeddings.LayerNorm.weight"),
                        self._p("embeddings.LayerNorm.bias"), self.eps)
        hidden = x.shape[-1]
        dh = hidden // self.heads
        scale = np.float32(1.0 / math.sqrt(dh))
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]  # padded keys: never

        def heads(t: Any) -> Any:
            return t.reshape(batch, length, self.heads, dh).transpose(0, 2, 1, 3)

        for n in range(self.layers):
            p = f"encoder.layer.{n}."
            q = heads(self._linear(x, p + "attention.self.query"))
            k = heads(self._linear(x, p + "attention.self.key"))
            v = heads(self._linear(x, p + "attention.self.value"))
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
            x = _layer_norm(self._linear(ctx, p + "attention.output.dense") + x,
                            self._p(p + "attention.output.LayerNorm.weight"),
                            self._p(p + "attention.output.LayerNorm.bias"), self.eps)
            inner = _gelu(self._linear(x, p + "intermediate.dense"))
            x = _layer_norm(self._linear(inner, p + "output.dense") + x,
                            self._p(p + "output.LayerNorm.weight"),
                            self._p(p + "output.LayerNorm.bias"), self.eps)
        if self.pooling == "cls":
            pooled = x[:, 0, :]
        else:
            pooled = (x * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)[:, None]
        if self.normalize:
            pooled = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled.astype(np.float32)
