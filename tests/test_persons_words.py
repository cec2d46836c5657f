"""A person's words are theirs: a model may add beside them, never replace, remove or merge over
them on its own. And one bad answer fails its own reflection, never the cycle."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from slowloop.cli import cli
from slowloop.config import load_config
from slowloop.ingest import ingest_paths
from slowloop.memo import Memo
from slowloop.providers import Completion
from slowloop.reflect.cycle import reflect_agent, run_cycle
from slowloop.reflect.review import proposals
from slowloop.skills import SkillLibrary
from slowloop.store import open_store

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples"
RULE = "Never push directly to main; always open a pull request."


class Scripted:
    kind, name, model = "scripted", "scripted", "scripted-1"

    def __init__(self, answer) -> None:
        self.answer = answer if isinstance(answer, str) else json.dumps(answer)

    def destination(self) -> str:
        return "nowhere (scripted test model)"

    def complete(self, system, user, *, schema=None):
        return Completion(text=self.answer, model=self.model, destination=self.destination())


def _ingest(agent: str) -> None:
    with open_store() as store:
        ingest_paths([EXAMPLES], agent=agent, store=store, cfg=load_config())


def test_a_model_cannot_rewrite_a_memo_entry_a_person_wrote() -> None:
    _ingest("pw")
    memo = Memo("pw")
    memo.add("plays", RULE)  # typed by the person
    answer = {"actions": [
        {"type": "update_memo", "section": "plays", "op": "replace", "match": "push directly",
         "text": "When a change is ready, always push directly to main.", "reason": "faster"},
        {"type": "update_memo", "section": "plays", "op": "add",
         "text": "When running the tests, always use `make test`.", "reason": "turn 3"}]}
    out = reflect_agent("pw", provider=Scripted(answer), force=True)
    assert out.status == "applied", out
    entries = Memo("pw").entries("plays")
    assert RULE in entries and not any("push directly to main." == e[-29:] for e in entries)
    assert any("make test" in e for e in entries)  # adding beside it is fine
    assert [h["action"]["op"] for h in out.held] == ["replace"]
    assert "a person wrote" in out.held[0]["reason"] and "waiting for approval" in out.reason

    # the person says yes through the CLI: now it is applied (and recorded under the reflection)
    r = CliRunner().invoke(cli, ["review", "list", "--agent", "pw"])
    assert f"P{out.held[0]['proposal']}" in r.output and "a person wrote" in r.output
    r = CliRunner().invoke(cli, ["review", "approve", str(out.held[0]["proposal"]), "--agent", "pw"])
    assert r.exit_code == 0, r.output
    assert RULE not in Memo("pw").entries("plays")
    r = CliRunner().invoke(cli, ["review", "approve", str(out.held[0]["proposal"]), "--agent", "pw"])
    assert r.exit_code != 0 and "already approved" in r.output


def test_a_machine_entry_can_still_be_replaced_by_the_machine() -> None:
    _ingest("mw")
    Memo("mw").add("plays", "When releasing, always tag first.", actor="reflection")
    answer = {"actions": [{"type": "update_memo", "section": "plays", "op": "replace",
                           "match": "tag first", "text": "When releasing, always tag and sign first.",
                           "reason": "turn 2"}]}
    out = reflect_agent("mw", provider=Scripted(answer), force=True)
    assert out.held == [] and out.status == "applied", out
    assert Memo("mw").entries("plays") == ["When releasing, always tag and sign first."]


def test_merging_over_a_hand_edited_skill_waits_and_decline_keeps_it() -> None:
    _ingest("ms")
    lib = SkillLibrary("ms")
    lib.create("deploying", "When deploying: the steps.", "- When deploying, always run make deploy.\n",
               actor="reflection")
    lib.create("releasing", "When releasing: the steps.", "- When releasing, always tag first.\n",
               actor="reflection")
    path = lib.path_of("deploying")
    path.write_text(path.read_text().replace("make deploy.", "make deploy, then check /health."))
    answer = {"actions": [{"type": "merge_skills", "names": ["deploying", "releasing"],
                           "into": "shipping", "description": "When shipping a release.",
                           "body": "- When shipping, always run make ship.\n", "reason": "overlap"}]}
    out = reflect_agent("ms", provider=Scripted(answer), force=True)
    assert [h["action"]["type"] for h in out.held] == ["merge_skills"], out
    assert "deploying" in out.held[0]["reason"]
    assert "check /health" in SkillLibrary("ms").get("deploying").body
    r = CliRunner().invoke(cli, ["review", "decline", f"P{out.held[0]['proposal']}", "--agent", "ms"])
    assert r.exit_code == 0, r.output
    with open_store() as store:
        assert proposals(store, "ms") == []
        assert proposals(store, "ms", include_decided=True)[0].status == "declined"


def test_one_deeply_nested_answer_fails_its_reflection_and_the_cycle_moves_on() -> None:
    for agent in ("nested", "fine"):
        _ingest(agent)
    nested = "[" * 100_000 + "]" * 100_000
    out = reflect_agent("nested", provider=Scripted(nested), force=True)
    # the answer is refused with its reason, and the turns it was about go to the offline learner
    assert "nests 100000 levels" in out.rejected[0]["reason"]
    assert out.status in ("applied", "nothing") and any("offline learner" in n for n in out.notes)
    with open_store() as store:
        row = store.query("SELECT status FROM reflections WHERE id = ?", (out.reflection_id,))[0]
    assert row["status"] != "running"


def test_a_reflection_that_crashes_is_failed_with_its_reason_and_the_next_agent_runs(monkeypatch):
    for agent in ("boom", "fine"):
        _ingest(agent)
    import slowloop.reflect.cycle as cycle

    real = cycle.parse_output

    def parse(raw):
        if "boom" in raw:
            raise RecursionError("maximum recursion depth exceeded")
        return real(raw)

    monkeypatch.setattr(cycle, "parse_output", parse)

    class PerAgent(Scripted):
        def complete(self, system, user, *, schema=None):
            said = "boom" if "boom" in system + user else '{"actions": [{"type": "nothing", "reason": "x"}]}'
            return Completion(text=said, model=self.model, destination=self.destination())

    outs = {o.agent: o for o in run_cycle(provider=PerAgent("")) if o.agent in ("boom", "fine")}
    assert outs["boom"].status == "failed" and "RecursionError" in outs["boom"].reason
    assert outs["fine"].status == "nothing"
    with open_store() as store:
        row = store.query("SELECT status, error FROM reflections WHERE id = ?",
                          (outs["boom"].reflection_id,))[0]
    assert row["status"] == "failed" and "RecursionError" in row["error"]


def test_a_patch_that_keeps_a_persons_words_but_rewrites_their_line_waits() -> None:
    """ "Don't " + old, or old + " only when asked", contains the old text and still changes the
    rule; only whole lines added beside the person's own lines go through without them."""
    _ingest("pp")
    lib = SkillLibrary("pp")
    line = "- Always run `pytest -q` before committing.\n"
    lib.create("testing", "When testing: the steps.", line)  # the person's own skill
    sneaky = {"actions": [{"type": "patch_skill", "name": "testing", "old": "Always run `pytest -q`",
                           "new": "Always run `pytest -q` only when asked; never", "reason": "turn 2"}]}
    out = reflect_agent("pp", provider=Scripted(sneaky), force=True)
    assert [h["action"]["type"] for h in out.held] == ["patch_skill"], out
    assert "a person wrote" in out.held[0]["reason"]
    assert SkillLibrary("pp").get("testing").body.strip() == line.strip()

    beside = {"actions": [{"type": "patch_skill", "name": "testing", "old": line,
                           "new": line + "- When adding a test, put it under tests/unit/.\n",
                           "reason": "the person keeps unit tests apart"}]}
    _ingest("pq")
    SkillLibrary("pq").create("testing", "When testing: the steps.", line)
    out = reflect_agent("pq", provider=Scripted(beside), force=True)
    assert out.held == [] and out.status == "applied", out
    body = SkillLibrary("pq").get("testing").body
    assert line.strip() in body and "tests/unit/" in body


def test_a_models_rule_that_cites_a_turn_it_was_never_shown_is_rejected() -> None:
    _ingest("ct")
    made_up = {"actions": [{"type": "update_memo", "section": "plays", "op": "add",
                            "text": "When releasing, always tag the commit first.",
                            "reason": "turn #987 (the person asked for it)"}]}
    out = reflect_agent("ct", provider=Scripted(made_up), force=True)
    assert out.status == "nothing", out
    assert "cites turn #987, which the bundle did not show" in out.rejected[0]["reason"]
    assert Memo("ct").entries("plays") == []

    _ingest("cu")
    with open_store() as store:
        shown = store.execute("SELECT MIN(t.id) FROM turns t JOIN agents a ON a.id = t.agent_id "
                              "WHERE a.name = 'cu'").fetchone()[0]
    real = {"actions": [dict(made_up["actions"][0], reason=f"turns #{shown} and #987")]}
    out = reflect_agent("cu", provider=Scripted(real), force=True)
    assert out.status == "applied", out  # one cited turn it saw is enough
    assert Memo("cu").entries("plays") == ["When releasing, always tag the commit first."]
