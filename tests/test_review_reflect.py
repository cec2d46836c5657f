"""Review regressions for reflection: each test is a defect a user would have noticed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slowloop import clock
from slowloop.config import load_config
from slowloop.ingest import ingest_paths
from slowloop.reflect.cycle import reflect_agent
from slowloop.skills import SkillLibrary
from slowloop.store import open_store

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples"


def _ingest(files, agent="rv"):
    with open_store() as store:
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


class _Scripted:
    kind, name, model = "scripted", "scripted", "scripted-1"

    def __init__(self, answer: dict):
        self.answer = json.dumps(answer)

    def destination(self) -> str:
        return "nowhere (scripted test model)"

    def complete(self, system, user, *, schema=None):
        from slowloop.providers import Completion
        return Completion(text=self.answer, model=self.model, destination=self.destination())


def _full_library(monkeypatch):
    monkeypatch.setenv("SLOWLOOP_SKILLS__MAX_COUNT", "2")
    monkeypatch.setenv("SLOWLOOP_SKILLS__EVICTION_GRACE", "0")
    _ingest([EXAMPLES])
    lib = SkillLibrary("rv")
    # learned earlier (a person's own skill would make a patch over it wait for approval)
    lib.create("deploying", "When deploying: the steps.", "- When deploying, always run make deploy.\n",
               actor="reflection")
    lib.create("testing", "When testing: the steps.", "- When testing, always run make test.\n",
               actor="reflection")
    return lib


def _create(name: str, rule: str) -> dict:
    return {"type": "create_skill", "name": name, "description": f"When {name}: the rule.",
            "body": f"- {rule}\n", "reason": "the session shows it"}


def test_two_creates_at_the_cap_evict_two_skills_and_say_so(monkeypatch):
    # Both creates planned the same victim: the second eviction found the file gone, the whole
    # reflection failed as "gave way to a person's edit", and both lessons were lost.
    _full_library(monkeypatch)
    answer = {"actions": [_create("releasing", "When releasing, always tag the commit first."),
                          _create("linting", "When linting, always run ruff check first.")]}
    out = reflect_agent("rv", provider=_Scripted(answer), force=True)
    assert out.status == "applied", out
    assert sorted(s.name for s in SkillLibrary("rv").list()) == ["linting", "releasing"]
    evicted = [ev["name"] for a in out.applied for ev in a["evicted"]]
    assert sorted(evicted) == ["deploying", "testing"]
    assert "evicted deploying" in out.reason and "never used" in out.reason
    from slowloop.history import history, undo_reflection
    with open_store() as store:
        assert sorted(c.target for c in history(store, "rv") if c.op == "evict") == evicted
        undo_reflection(store, "rv", out.reflection_id)
    assert sorted(s.name for s in SkillLibrary("rv").list()) == ["deploying", "testing"]


def test_a_create_at_the_cap_does_not_evict_the_skill_another_action_patches(monkeypatch):
    _full_library(monkeypatch)
    answer = {"actions": [
        {"type": "patch_skill", "name": "deploying", "old": "- When deploying, always run make deploy.",
         "new": "- When deploying, always run make deploy-prod.",
         "reason": "the webshop session deploys to prod"},
        _create("releasing", "When releasing, always tag the commit first.")]}
    out = reflect_agent("rv", provider=_Scripted(answer), force=True)
    assert out.status == "applied" and out.rejected == [], out
    names = {s.name: s for s in SkillLibrary("rv").list()}
    assert sorted(names) == ["deploying", "releasing"]
    assert "make deploy-prod" in names["deploying"].body
    # the other order: the patch of a skill the create just evicted is rejected, not a failure
    _ingest([EXAMPLES / "claude-code-webshop-pnpm.jsonl"], agent="rv2")
    monkeypatch.setenv("SLOWLOOP_SKILLS__MAX_COUNT", "1")
    lib2 = SkillLibrary("rv2")
    lib2.create("deploying", "When deploying: the steps.", "- When deploying, always run make deploy.\n",
                actor="reflection")
    answer2 = {"actions": [answer["actions"][1], answer["actions"][0]]}
    out2 = reflect_agent("rv2", provider=_Scripted(answer2), force=True)
    assert out2.status == "applied", out2
    assert [r["reason"] for r in out2.rejected] == [
        "skill deploying is evicted by a create_skill of this reflection (the library is full)"]


LIVE_MID_APPLY = """
import os, sys, time
import slowloop.history as h
from slowloop.reflect.cycle import reflect_agent
real = h._write_one
def slow(c):
    real(c)
    open(sys.argv[1], "w").write("one file written")
    time.sleep(60)                   # still alive, still holding the agent's lease
h._write_one = slow
reflect_agent("rv", provider=None, force=True)
"""


def test_a_second_reflector_does_not_roll_back_a_live_reflection(tmp_path: Path, slowloop_home):
    # Recovery of half-applied reflections ran before taking the agent's lease: a second
    # `slowloop reflect` (or a daemon starting) took a live reflection in the middle of writing
    # for a crashed one, put its files back under it and marked it rolled back.
    import subprocess
    import sys
    import time

    _ingest([EXAMPLES])
    flag = tmp_path / "written"
    a = subprocess.Popen([sys.executable, "-c", LIVE_MID_APPLY, str(flag)])
    try:
        for _ in range(600):
            if flag.exists() or a.poll() is not None:
                break
            time.sleep(0.05)
        assert flag.exists(), "the first reflector never got to write"
        written = {p: p.read_text() for p in (slowloop_home / "agents").rglob("*.md")}
        second = reflect_agent("rv", provider=None, force=True)
        assert second.status == "locked", second
        assert second.recovered == []
        from slowloop.reflect.daemon import recover_all
        with open_store() as store:
            assert recover_all(store) == []
            assert [r["status"] for r in store.query("SELECT status FROM reflections")] == ["applying"]
        assert {p: p.read_text() for p in written} == written
    finally:
        a.kill()
        a.wait()
    # once the first one is dead, its half-applied reflection is resolved as before
    third = reflect_agent("rv", provider=None, force=True)
    assert any("rolled back" in n for n in third.recovered), third.recovered
    assert third.status == "applied"


def test_two_new_recoveries_for_an_existing_skill_both_land(tmp_path: Path):
    # The distiller proposed one patch_skill per rule; the cycle takes one patch per skill per
    # reflection, so the second was rejected — and, the watermark having moved, lost for good.
    first = EXAMPLES / "claude-code-api-tests.jsonl"

    def variant(sid: str, cmd: str, err: str, fix: str) -> Path:
        p = tmp_path / f"{sid}.jsonl"
        p.write_text(first.read_text().replace("8c2e7f10-demo-tests", sid)
                     .replace('"python -m pytest -q"', f'"{cmd}"')
                     .replace("/bin/sh: 1: python: not found", err)
                     .replace('"python3 -m pytest -q"', f'"{fix}"'))
        return p

    _ingest([first])
    assert reflect_agent("rv", provider=None, force=True).status == "applied"
    _ingest([variant("9d3f8a21-aa", "pytest -x", "bash: pytest: command not found", "python3 -m pytest -x"),
             variant("9d3f8a21-bb", "tox -e py", "bash: tox: command not found", "python3 -m tox -e py")])
    out = reflect_agent("rv", provider=None, force=True)
    assert out.status == "applied" and out.rejected == [], out.rejected
    (skill,) = SkillLibrary("rv").list()
    assert "python3 -m pytest -x" in skill.body and "python3 -m tox -e py" in skill.body
    assert skill.patch_count == 1


def _said(text: str) -> list[str]:
    from slowloop.reflect.distill import TurnEvidence, rules_from_correction
    from slowloop.transcripts.model import Turn

    turn = Turn(source="<memory>", format="openai", index=1, user_text=text)
    ev = TurnEvidence(turn_id=1, turn=turn, corrected=True, correction_evidence="cue",
                      previous=None, real_errors=(), transient_only=False)
    return [r.text for r in rules_from_correction(ev)]


def test_complaints_are_not_read_as_rules():
    # "you always forget the tests" became "When running the tests, always forget the tests." —
    # the opposite of the lesson, and it passes validation. "Stop the server first" became
    # "never the server first", and "never commit the .env file" was cut to "never commit the".
    for complaint in ("No, you always forget the tests.", "it always fails like this, wrong again",
                      "Wrong! you never listen to me", "No! Stop the server first, then migrate.",
                      "Never mind, that's wrong anyway", "Always the same error, wrong"):
        assert _said(complaint) == [], complaint
    assert _said("No. Always run the linter before committing.") == [
        "When formatting or linting code, always run the linter before committing."]
    assert _said("wrong, please never commit the .env file") == [
        "When using git in this repository, never commit the .env file."]
