"""Reflection end to end against a real local model: llama.cpp's server with SmolLM2-135M.

That model mostly writes junk. What is under test is the whole path — prompt, schema-constrained
request, parsing, validation, apply — and the promise that junk becomes recorded rejections (or a
harmless "nothing") while every skill and the memo stay intact.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from llama_server import LlamaServer

from slowloop.config import load_config
from slowloop.ingest import ingest_paths
from slowloop.memo import Memo
from slowloop.reflect.cycle import reflect_agent
from slowloop.skills import SkillLibrary
from slowloop.store import open_store

pytestmark = pytest.mark.llama

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples"


def test_real_model_output_is_validated_and_nothing_good_is_damaged(llama_server: LlamaServer,
                                                                     slowloop_home: Path) -> None:
    cfg = load_config().with_overrides(
        provider=llama_server.provider_settings(max_output_tokens=300),
        bundle={"token_budget": 1000})
    with open_store() as store:
        ingest_paths([EXAMPLES], agent="demo", store=store, cfg=cfg)
    lib = SkillLibrary("demo")
    lib.create("release-notes", "Write release notes. Use when asked for release notes.",
               "## Steps\n1. Run `git log --oneline` since the last tag.\n"
               "2. Group the commits by feature, fix and chore.\n")
    Memo("demo").add("plays", "When replying to this user, always give the conclusion first.")
    before_skill = lib.get("release-notes").path.read_text()
    before_memo = Memo("demo").path.read_text()

    out = reflect_agent("demo", cfg=cfg, force=True)

    assert out.status in ("applied", "nothing"), (out.status, out.reason,
                                                  llama_server.log_tail())
    assert "loopback" in out.sent_to and out.bundle_tokens <= 1000
    with open_store() as store:
        row = store.query("SELECT status, raw_output, provider FROM reflections")[0]
        rejections = store.query("SELECT reason FROM rejections")
    assert row["raw_output"], "the model's answer is kept for audit"
    assert row["provider"].startswith("openai:")
    # Whatever the model said: what it touched passed validation, the rest is on record.
    for a in out.applied:
        assert a["action"]["type"] in ("create_skill", "patch_skill", "update_memo",
                                       "retire_skill", "merge_skills")
    assert len(rejections) == len(out.rejected)
    touched = {a["action"].get("name") for a in out.applied}
    if "release-notes" not in touched:
        assert lib.get("release-notes").path.read_text() == before_skill
    if not any(a["action"]["type"] == "update_memo" for a in out.applied):
        assert Memo("demo").path.read_text() == before_memo
    for s in SkillLibrary("demo").list():  # every skill on disk is still a valid one
        assert s.name and s.description
