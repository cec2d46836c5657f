"""The way the person's words name for what the agent just ran, before the agent redid anything
(observe/said.py): the command in the sentence against the command in the transcript. Sentences and
commands are our own (a dev set)."""

from __future__ import annotations

import pytest
from test_redo import _learn, cc_session

from slowloop.memo import Memo
from slowloop.observe.redo import Act
from slowloop.observe.said import named_commands, said_redo


def run(cmd: str) -> Act:
    return Act("run", command=cmd)


@pytest.mark.parametrize("text, commands", [
    ("the suite goes through just test-all, it seeds the db", ["just test-all"]),
    ("lint は `pnpm lint:ci` で。", ["pnpm lint:ci"]),
    ("发布要用 git push --follow-tags 才会带上标签", ["git push --follow-tags"]),
    ("no idea why it fails, looks flaky to me", []),
])
def test_commands_written_in_a_sentence_are_read_whatever_the_language(text, commands):
    assert named_commands(text) == commands


@pytest.mark.parametrize("ran, said, use, avoid", [
    ("python -m unittest discover", "hier on passe toujours par nox -s tests", "nox -s tests", "python -m unittest"),
    ("git merge origin/develop", "aqui é sempre git pull --rebase origin develop", "git pull --rebase", "git merge"),
    ("mvn -q package", "usa ./mvnw, la versione è fissata lì", "./mvnw", "mvn"),
    ("black src", "das läuft bei uns immer über poetry run", "poetry run black", "black"),
    ("npx tsc -b", "类型检查统一走 make typecheck", "make typecheck", "npx tsc"),
])
def test_the_command_named_for_the_same_job_is_the_way(ran, said, use, avoid):
    r = said_redo([run(ran)], said)
    assert (r.kind, r.use, r.avoid) == ("swap", use, avoid)


def test_a_flag_named_for_the_command_the_agent_ran():
    r = said_redo([run("git push --force origin feat/x")], "--force-with-lease, bitte. Jonas pusht auch hier")
    assert (r.kind, r.use, r.avoid) == ("flag", "--force-with-lease", "--force")
    r = said_redo([run("cargo test -p billing")], "aqui é cargo test --locked, o lockfile manda")
    assert (r.kind, r.use) == ("flag", "--locked")


@pytest.mark.parametrize("ran, said, named", [
    ("pytest -q", "great, now run make lint too", "make lint"),        # more work of another kind
    ("pytest -q", "does make test do the same thing?", "make test"),   # a question
    ("go test ./...", "go test ./... again please", "go test"),        # the agent's own command named
])
def test_more_work_a_question_or_the_same_command_is_no_way_named(tmp_path, ran, said, named):
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session([("run the tests", [("Bash", {"command": ran})]), (said, [])]), encoding="utf-8")
    _learn(tmp_path / "home", f)
    assert not any(named in e for e in Memo("a", home=tmp_path / "home").entries("plays"))


def test_the_way_named_before_any_redo_reaches_the_memo(tmp_path):
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session([
        ("run the tests", [("Bash", {"command": "python -m pytest tests"})]),
        ("i test qui si lanciano con tox -e py311, imposta lui le variabili", [])]), encoding="utf-8")
    _learn(tmp_path / "home", f)
    plays = Memo("a", home=tmp_path / "home").entries("plays")
    assert any(e.startswith("When running the tests") and "`tox -e py311`" in e and "never `python -m pytest`" in e
               for e in plays), plays
