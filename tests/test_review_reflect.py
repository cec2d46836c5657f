"""Review regressions for reflection: each test is a defect a user would have noticed."""

from __future__ import annotations

import json
from pathlib import Path

from slowloop import clock
from slowloop.config import load_config
from slowloop.ingest import ingest_paths
from slowloop.reflect.cycle import reflect_agent
from slowloop.skills import SkillLibrary
from slowloop.store import Store

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples"


def _ingest(files, agent="rv"):
    with Store() as store:
        return ingest_paths(files, agent=agent, store=store, cfg=load_config())


def test_a_turn_that_grew_after_a_reflection_is_distilled(tmp_path: Path):
    # A hook ingested the turn while it was still being written (the failure, not yet the fix);
    # the offline distiller ran and found nothing. The turn then grew to show the recovery: the
    # dirty gate said "1 reflect-worthy turn", but the distiller only looked past the watermark,
    # so the lesson was never looked at and the reflection said "nothing to save".
    t = [1_800_000_000.0]
    clock.set_clock(lambda: t[0])
    lines = (EXAMPLES / "claude-code-api-tests.jsonl").read_text().splitlines(keepends=True)
    live = tmp_path / "session.jsonl"
    live.write_text("".join(lines[:3]))
    _ingest([live])
    first = reflect_agent("rv", provider=None, force=True)
    assert first.status == "nothing", first
    t[0] += 60
    live.write_text("".join(lines))
    assert _ingest([live]).updated == 1
    second = reflect_agent("rv", provider=None, force=True)
    assert second.status == "applied", second
    body = "\n".join(s.body for s in SkillLibrary("rv").list())
    assert "python3 -m pytest -q" in body


def test_distiller_draws_no_rule_from_an_unrelated_next_command(samples: Path):
    # Real Claude Code session: `tree /path/to/Demo -I … -L 3` fails (tree is lsd there), and the
    # next command is `ls -la /path/to/Demo/todo-app/src` — other work, not a fix. The distiller
    # wrote "When `tree …` fails …, run `ls -la …/src` instead." — a wrong rule that passes
    # validation. The Edit refused until the file is read, then Read of that file, is a real fix.
    _ingest([samples / "claude-code" / "ccv-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"])
    out = reflect_agent("rv", provider=None, force=True, dry_run=True)
    bodies = " ".join(p["action"].get("body", "") + p["action"].get("new", "") for p in out.planned)
    assert "tree" not in bodies and "ls -la" not in bodies, bodies
    assert "read the file with Read first, then retry the Edit" in bodies
