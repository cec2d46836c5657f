"""QA regression: two recoveries on the same topic in one reflection. The offline distiller created
the skill and then proposed patch_skill for the second rule, which the cycle rejected (the skill
did not exist yet): the second lesson was lost and the user saw "1 action(s) rejected"."""

from __future__ import annotations

from pathlib import Path

from slowloop.config import load_config
from slowloop.ingest import ingest_paths
from slowloop.reflect.cycle import reflect_agent
from slowloop.skills import SkillLibrary
from slowloop.store import open_store

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples"


def test_second_recovery_on_the_same_topic_goes_into_the_new_skill(tmp_path: Path):
    first = EXAMPLES / "claude-code-api-tests.jsonl"
    # another session, another failure while running the tests: `pytest` missing, `python3 -m` works
    second = tmp_path / "again.jsonl"
    second.write_text(first.read_text()
                      .replace("8c2e7f10-demo-tests", "9d3f8a21-other-tests")
                      .replace('"python -m pytest -q"', '"pytest -x"')
                      .replace("/bin/sh: 1: python: not found", "bash: pytest: command not found")
                      .replace('"python3 -m pytest -q"', '"python3 -m pytest -x"'))
    with open_store() as store:
        ingest_paths([first, second], agent="qa", store=store, cfg=load_config())
    out = reflect_agent("qa", provider=None, force=True)
    assert out.status == "applied", out
    assert out.rejected == [], out.rejected
    skills = SkillLibrary("qa").list()
    assert len(skills) == 1
    body = skills[0].body
    assert "python3 -m pytest -q" in body and "python3 -m pytest -x" in body
