"""When the evidence speaks against a correction's rule, the rule waits for the person (review),
worded as it would read — never a guess in the memo (distill._doubt), and a complaint the agent
answered with a fix is proposed as that fix, never applied as the person's complaint."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_redo import _learn_session

from slowloop.memo import Memo
from slowloop.reflect.review import proposals
from slowloop.store import open_store


def _plays(tmp_path: Path) -> list[str]:
    return Memo("a", home=tmp_path / "home").entries("plays")


def _waiting(tmp_path: Path) -> list[str]:
    with open_store(home=tmp_path / "home") as store:
        return [p.action["text"] for p in proposals(store, "a")]


def test_a_rule_recommending_what_the_agent_had_just_done_waits(tmp_path):
    # the convention names `docker buildx bake`; a rule cut to `docker build` — the very command
    # the agent ran — would teach the mistake. It waits for the person, worded as it would read.
    _learn_session(tmp_path, [
        ("build the image", [("Bash", {"command": "docker build -t api ."})]),
        ("chez nous les images se construisent avec docker buildx bake, la config est dans docker-bake.hcl", [])])
    assert not any("always use `docker build`" in e for e in _plays(tmp_path)), _plays(tmp_path)
    assert any("docker build" in w for w in _waiting(tmp_path)), _waiting(tmp_path)


def test_both_used_before_choosing_one_is_still_the_lesson(tmp_path):
    _learn_session(tmp_path, [
        ("add state management", [("Bash", {"command": "npm install jotai redux"})]),
        ("we use jotai in this repo, not redux", [])])
    assert any("jotai" in e and "never redux" in e for e in _plays(tmp_path)), _plays(tmp_path)


@pytest.mark.parametrize("said", [
    "uy, te pasé el puerto viejo, es 9443",
    "putz, passei o host errado, é api-novo.loja.example.com.br",
    "すみません、伝えたポートが間違ってました。9443 です",
    "désolé je t'ai donné le mauvais port, c'est 9443",
])
def test_the_person_fixing_their_own_value_teaches_nothing(tmp_path, said):
    _learn_session(tmp_path, [
        ("point the client at the payments api", [("Edit", {
            "file_path": "config/api.ts", "old_string": "",
            "new_string": "export const PAYMENTS = 'https://pagos.interno.example.com:8443'"})]),
        (said, [("Edit", {"file_path": "config/api.ts",
                          "old_string": "https://pagos.interno.example.com:8443",
                          "new_string": "https://pagos.interno.example.com:9443"})])])
    assert _plays(tmp_path) == []


def test_a_value_of_this_task_waits_unless_the_words_make_it_last(tmp_path):
    def learn(where: str, said: str) -> list[str]:
        (tmp_path / where).mkdir()
        _learn_session(tmp_path / where, [
            ("point it at the api", [("Edit", {"file_path": "config/api.ts", "old_string": "",
                                               "new_string": "export const API = 'https://api.shop.example.com:8443'"})]),
            (said, [("Edit", {"file_path": "config/api.ts", "old_string": "https://api.shop.example.com:8443",
                              "new_string": "https://api.shop.example.com:9443"})])])
        return _plays(tmp_path / where)

    assert learn("once", "no, 9443 is the port") == []  # this task's address: the person decides
    assert any("9443" in e for e in learn("always", "no, from now on always port 9443, never 8443"))


def test_a_complaint_answered_by_a_fix_is_proposed_as_the_fix(tmp_path):
    _learn_session(tmp_path, [
        ("add a flag the interrupt handler sets", [("Edit", {
            "file_path": "src/main.c", "old_string": "", "new_string": "static bool button_pressed = false;"})]),
        ("at -O2 the main loop never sees the press, it spins forever", [("Edit", {
            "file_path": "src/main.c", "old_string": "static bool button_pressed = false;",
            "new_string": "static volatile bool button_pressed = false;"})])])
    assert not any("do as the user said" in e for e in _plays(tmp_path)), _plays(tmp_path)
    waiting = _waiting(tmp_path)
    assert any("volatile" in w and "do as the user said" not in w for w in waiting), waiting


def test_a_change_of_mind_retires_the_older_rule_even_when_no_new_rule_is_built(tmp_path):
    from test_redo import _learn, cc_session

    home = tmp_path / "home"
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_text(cc_session([
        ("add a job that builds the api image", [("Edit", {"file_path": ".gitlab-ci.yml", "old_string": "",
                                                           "new_string": "build:\n  image: docker:dind\n"})]),
        ("no dind please, use kaniko", [("Edit", {"file_path": ".gitlab-ci.yml", "old_string": "image: docker:dind",
                                                  "new_string": "image: gcr.io/kaniko-project/executor"})]),
    ], session="s1"), encoding="utf-8")
    _learn(home, one)
    assert any("kaniko" in e for e in _plays(tmp_path)), _plays(tmp_path)
    two.write_text(cc_session([
        ("the worker image needs a build job too", [("Edit", {
            "file_path": ".gitlab-ci.yml", "old_string": "", "new_string": "worker:\n  image: gcr.io/kaniko-project/executor\n"})]),
        ("kaniko got archived, we moved over to buildah last week", [("Edit", {
            "file_path": ".gitlab-ci.yml", "old_string": "image: gcr.io/kaniko-project/executor",
            "new_string": "image: quay.io/buildah/stable"})]),
    ], session="s2"), encoding="utf-8")
    _learn(home, two)
    assert not any("kaniko" in e.split("never")[0] for e in _plays(tmp_path)), _plays(tmp_path)
