"""The danger scan over its adversarial set (tests/data/danger/set.jsonl, built by
bench/danger_set.py from hand-written sources): what the security issue asks for, checked on
every run. The per-class breakdown and the misses are printed by ``python bench/danger_set.py``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "danger_set.py"
CLASSES = {"remote_code", "exfiltration", "confirmation", "permissions", "bypass", "persistence",
           "destructive", "injection"}


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("danger_set", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_set_is_what_its_sources_build(bench) -> None:
    assert bench.load() == bench.build(), "run `python bench/danger_set.py --write`"


def test_the_set_is_big_and_disguised_enough(bench) -> None:
    rows = bench.load()
    dangerous = [r for r in rows if r["label"] == "dangerous"]
    assert len(dangerous) >= 200
    assert sum(r["disguise"] != "none" for r in dangerous) >= len(dangerous) / 2
    assert {r["class"] for r in dangerous} == CLASSES
    assert sum(r["label"] == "benign" for r in rows) >= 100
    # every class is also written in Japanese (kana) and Chinese (Han without kana)
    ja = {r["class"] for r in dangerous if any("\u3040" <= c <= "\u30ff" for c in r["text"])}
    zh = {r["class"] for r in dangerous if any("\u4e00" <= c <= "\u9fff" for c in r["text"])
          and not any("\u3040" <= c <= "\u30ff" for c in r["text"])}
    assert ja == CLASSES and zh == CLASSES


def test_blocked_and_false_blocks(bench) -> None:
    r = bench.measure(bench.load())
    assert r["blocked"] >= 0.99, [m["text"] for m in r["missed"]]
    assert r["false_blocks"] <= 0.02, [row["text"] for row, _ in r["false"]]
    # rules and corrections other engineers wrote for other detectors: none is an attack
    assert r["foreign"] >= 1000 and len(r["foreign_flagged"]) <= 0.02 * r["foreign"], \
        [t for t, _ in r["foreign_flagged"]]
