"""Hermetic tests: every test gets its own SLOWLOOP_HOME and a clean environment of settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from llama_server import llama_server  # noqa: F401  (session fixture: real llama.cpp server)
from pg_server import ledger_backend, postgres_server, postgres_url  # noqa: F401  (both databases)

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples" / "transcripts"
if not SAMPLES.exists():  # CI clones main into another folder with shared/ beside it
    SAMPLES = Path(__file__).resolve().parents[1].parent / "shared" / "samples" / "transcripts"


@pytest.fixture(autouse=True)
def slowloop_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "slowloop-home"
    monkeypatch.setenv("SLOWLOOP_HOME", str(home))
    # the list of known homes (paths.state_dir) is the test's own, never the person's
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    for name in list(os.environ):
        if name.startswith("SLOWLOOP_") and name != "SLOWLOOP_HOME":
            monkeypatch.delenv(name, raising=False)
    # Reflection starts by itself after recorded turns ([reflect] auto); a test that records a
    # correction and then reflects must not race a background reflection of its own. The tests of
    # the automatic path turn it on (tests/test_auto_reflect.py, tests/test_real_clients.py).
    monkeypatch.setenv("SLOWLOOP_REFLECT__AUTO", "false")
    # No test may reach a real remote model: providers refuse non-loopback hosts unless allowed.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    from slowloop import clock

    clock.set_clock(None)
    yield home
    clock.set_clock(None)


@pytest.fixture
def samples() -> Path:
    """The real transcripts of the team's shared folder. A user's clone has no ``shared/`` beside
    it: those tests skip, saying where the samples were looked for; CI must run them."""
    if not SAMPLES.exists():
        why = f"transcript samples not found at {SAMPLES} (the team's shared/ folder beside the project)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and {why}", pytrace=False)
        pytest.skip(why)
    return SAMPLES
