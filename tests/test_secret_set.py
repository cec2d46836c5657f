"""Every credential form of bench/secret_set.py is redacted in the three places a secret shows up
(the person's words, a tool's input, a tool's output), and the look-alikes are left alone."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from slowloop.config import load_config
from slowloop.ingest import ingest_paths
from slowloop.providers import Completion
from slowloop.reflect.cycle import reflect_agent
from slowloop.store import open_store

BENCH = Path(__file__).resolve().parents[1] / "bench" / "secret_set.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("secret_set", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_sixty_kinds_in_three_places_are_redacted_and_look_alikes_kept(bench) -> None:
    res = bench.measure()
    assert res["kinds"] >= 60
    assert res["leaked"] == {"user": [], "tool_input": [], "tool_output": []}
    assert res["false_positives"] == []


class Recording:
    name, kind, model = "scripted", "openai", "m"

    def __init__(self) -> None:
        self.sent = ""

    def destination(self) -> str:
        return "nowhere (test)"

    def complete(self, system, user, *, schema=None):
        self.sent += system + "\n" + user
        return Completion('{"actions": [{"type": "nothing", "reason": "x"}]}', self.model, "x")


@pytest.mark.parametrize("place", ["user", "tool_input", "tool_output"])
def test_what_reaches_a_model_through_reflection_holds_no_secret(bench, place, tmp_path) -> None:
    path = bench.sessions(tmp_path)[place]
    with open_store() as store:
        ingest_paths([path], agent=f"s-{place}", store=store, cfg=load_config())
    model = Recording()
    reflect_agent(f"s-{place}", provider=model, force=True)
    assert "[REDACTED:" in model.sent  # the bundle did carry some of them
    assert bench.leaks(model.sent) == []
