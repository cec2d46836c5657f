"""The way the person's words name for what the agent just ran, before the agent redid anything
(observe/said.py): the command in the sentence against the command in the transcript. Sentences and
commands are our own (a dev set)."""

from __future__ import annotations

import dataclasses

import pytest
from test_redo import _learn_session, cc_session

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
    _learn_session(tmp_path, [("run the tests", [("Bash", {"command": ran})]), (said, [])])
    assert not any(named in e for e in Memo("a", home=tmp_path / "home").entries("plays"))


def test_the_way_named_before_any_redo_reaches_the_memo(tmp_path):
    _learn_session(tmp_path, [
        ("run the tests", [("Bash", {"command": "python -m pytest tests"})]),
        ("i test qui si lanciano con tox -e py311, imposta lui le variabili", [])])
    plays = Memo("a", home=tmp_path / "home").entries("plays")
    assert any(e.startswith("When running the tests") and "`tox -e py311`" in e and "never `python -m pytest`" in e
               for e in plays), plays


@pytest.mark.parametrize("wrote, said, rule", [
    (Act("write", path="src/routes/listOrders.ts", new="export const listOrders = () => {}"),
     "los archivos de rutas van en kebab-case, fijate en el resto",
     "always name files in kebab-case (`list-orders.ts`), never camelCase (`listOrders.ts`)."),
    (Act("write", path="lib/widgets/badge.dart", new="class Badge {}"),
     "widget files here are PascalCase: Badge.dart", "always name files in PascalCase (`Badge.dart`), never lowercase (`badge.dart`)."),
    (Act("write", path="app/util.py", new="def parseDate(s):\n    return s\n"),
     "函数名一律 snake_case，比如 parse_date", "always use snake_case (`parse_date`), never camelCase (`parseDate`)."),
])
def test_a_case_style_named_against_the_name_the_agent_just_gave(wrote, said, rule):
    from slowloop.observe.said import style_said
    r = style_said([wrote], said)
    assert (r.kind, r.rule) == ("rename", rule)


def test_a_pattern_given_as_an_example_names_the_style_not_the_file():
    from slowloop.observe.said import style_said
    r = style_said([Act("write", path="src/hooks/UseCart.ts", new="export function UseCart() {}")],
                   "hooks here are all useThing.ts, camelCase")
    assert r.use == "camelCase" and "`useCart.ts`" in r.rule


@pytest.mark.parametrize("made, said, rule", [
    ([Act("write", path="src/utils/money.ts", new="export const cents = 1")],
     "shared helpers live in packages/shared/, not inside an app",
     "always put them in `packages/shared/`, never in `src/utils/`."),
    ([Act("run", command="touch scripts/seed.py")], "スクリプトは全部 tools/ に置いてください",
     "always put them in `tools/`, never in `scripts/`."),
])
def test_the_folder_named_for_what_the_agent_just_put_elsewhere(made, said, rule):
    from slowloop.observe.said import place_said
    assert place_said(made, said).rule == rule


def test_a_folder_mentioned_for_another_reason_is_no_place():
    from slowloop.observe.said import place_said
    assert place_said([Act("write", path="src/app.py", new="x")], "the config in deploy/ is stale, have a look") is None
    assert place_said([Act("write", path="db/migrate/001.sql", new="x")], "migrations go in db/migrate/") is None


@pytest.mark.parametrize("said, kept", [
    ("no, whenever a migration drops a column, ask me first", True),
    ("non, quand un test échoue, affiche toute la sortie du test", True),
    ("不对，合并到 main 之前先跑一遍 e2e", True),
    ("when you're done, push it", False),  # this task's next step
])
def test_a_condition_that_is_a_kind_of_event_then_what_to_do_lasts(said, kept):
    from slowloop.observe.lessons import read_lesson
    assert (read_lesson(said).kind == "quote") is kept


@pytest.mark.parametrize("said", [
    "on second thought, keep poetry, the CI image has it baked in",
    "pensándolo mejor, deja npm, el pipeline de deploy lo usa",
    "finalement non, garde jest, la migration vitest attendra",
])
def test_second_thoughts_are_a_retraction(said):
    from slowloop.observe.lessons import RETRACTION
    assert RETRACTION.search(said)


def test_a_value_for_this_campaign_only_is_a_one_off(tmp_path):
    turns = [("make the banner orange", [("Edit", {"file_path": "src/Banner.tsx", "old_string": "",
                                                    "new_string": "const color = '#ff6600'"})]),
             ("per questa landing usa #e65100, è una campagna temporanea",
              [("Edit", {"file_path": "src/Banner.tsx", "old_string": "const color = '#ff6600'",
                         "new_string": "const color = '#e65100'"})])]
    _learn_session(tmp_path, turns)
    assert not any("e65100" in e for e in Memo("a", home=tmp_path / "home").entries("plays"))


def test_the_name_of_this_tasks_thing_is_a_one_off(tmp_path):
    turns = [("count last month's orders", [("Edit", {"file_path": "jobs/count.sql", "old_string": "",
                                                       "new_string": "SELECT count(*) FROM bestellung"})]),
             ("nein, die tabelle heißt orders_2026, nicht bestellung",
              [("Edit", {"file_path": "jobs/count.sql", "old_string": "SELECT count(*) FROM bestellung",
                         "new_string": "SELECT count(*) FROM orders_2026"})])]
    _learn_session(tmp_path, turns)
    assert not any("orders_2026" in e for e in Memo("a", home=tmp_path / "home").entries("plays"))


def test_a_turn_with_no_person_names_no_way(tmp_path):
    """A sub-agent's prompt that names a command is no person's words: no rule from it."""
    from slowloop.observe.redo import turn_acts
    from slowloop.reflect.distill import TurnEvidence, redo_of
    from slowloop.transcripts import iter_turns
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session([("run the tests", [("Bash", {"command": "python -m pytest"})]),
                             ("the suite runs with tox -e py311", [])]), encoding="utf-8")
    prev, turn = list(iter_turns(f))
    assert turn_acts(prev)  # the agent's command is there to be compared
    assert redo_of(TurnEvidence(1, turn, True, None, prev, (), False)) is not None
    robot = dataclasses.replace(turn, person=False)
    assert redo_of(TurnEvidence(1, robot, True, None, prev, (), False)) is None
