"""Conventions and facts stated outright, changes of mind and retractions as people say them, and
what is never a lesson (the person's own mistake, a rerun request, a question). Our own sentences:
a dev set, showing each form works; the blind figures are in docs/benchmarks.md."""

from __future__ import annotations

import pytest

from slowloop.observe.lessons import RETRACTION, read_lesson, standing_statement
from slowloop.observe.observe import observe_turn
from slowloop.observe.redo import rerun_request, self_blame
from slowloop.transcripts.model import Step, ToolCall, ToolResult, Turn


@pytest.mark.parametrize("said, x, scope", [
    ("we follow Conventional Commits", "Conventional Commits", "writing commit messages"),
    ("commit messages here follow Conventional Commits", "Conventional Commits", "writing commit messages"),
    ("branches here are always <type>/<TICKET>-<slug>", "<type>/<TICKET>-<slug>", "creating branches"),
    ("tests run with `make test`, don't call pytest directly", "make test", "running the tests"),
    ("i test girano con `make check`", "make check", "running the tests"),
    ("ブランチ名は feature/ から始めてください", "feature/", "creating branches"),
    ("the integration tests are started with `make test-int`, it brings up localstack", "make test-int",
     "running the tests"),
    ("o linter aqui é `make lint`, com a nossa config", "make lint", "formatting or linting code"),
    ("lint は pre-commit でまとめて回しているので `pre-commit run --all-files` を使ってください", "pre-commit run --all-files",
     "formatting or linting code"),
    ("we do Conventional Commits in this repo", "Conventional Commits", "writing commit messages"),
])
def test_a_convention_stated_as_a_fact_is_a_rule(said, x, scope):
    lesson = read_lesson(said)
    assert lesson.kind == "convention" and lesson.x == x and lesson.scope == scope, lesson
    assert standing_statement(said), said


@pytest.mark.parametrize("said, x, y", [
    ("we replaced axios with ky last sprint", "ky", "axios"),
    ("fyi the jest -> vitest migration landed this morning", "vitest", "jest"),
    ("on a remplacé flake8 par ruff la semaine dernière", "ruff", "flake8"),
    ("abbiamo sostituito moment con dayjs", "dayjs", "moment"),
    ("wir haben von black auf ruff umgestellt", "ruff", "black"),
    ("我们把 npm 换成了 pnpm", "pnpm", "npm"),
    ("jest を vitest に置き換えました", "vitest", "jest"),
    ("olvídate de yarn, ahora usamos pnpm", "pnpm", "yarn"),
    ("pode esquecer o Prisma — migramos tudo pro Drizzle", "Drizzle", "Prisma"),
    ("the docker licences are sorted, so we're back on docker compose", "docker compose", ""),
    ("oye, que ya no usamos poetry, migramos a uv la semana pasada", "uv", "poetry"),
    ("团队决定统一迁到标准库 log/slog 了，zap 以后别再用", "log/slog", "zap"),
    ("E2E は Playwright に移行しました。Cypress はもう使わないので", "Playwright", "Cypress"),
    ("wir nutzen kein yarn mehr, alles läuft über pnpm", "pnpm", "yarn"),
])
def test_a_change_of_mind_as_people_say_it(said, x, y):
    lesson = read_lesson(said)
    assert (lesson.kind, lesson.x, lesson.y) == ("choice", x, y), lesson


@pytest.mark.parametrize("said", ["I replaced the battery with a new one", "I went back to the office",
                                  "can you run `make test` now?", "run `npm test` please",
                                  "why BTreeMap over HashMap here? just curious",
                                  "please follow the README"])
def test_look_alikes_state_no_lesson(said):
    assert standing_statement(said) is None, said


@pytest.mark.parametrize("said", [
    "sorry, I pasted the wrong ticket, it's CORE-881", "my bad, the path is /var/log/app.log",
    "scusa, ho sbagliato io: è la 2.4", "ah, falei errado, era release/3.5",
    "désolé, j'ai collé le mauvais lien", "perdona, era el plan Business", "Sorry, falscher Branch von mir",
    "抱歉，我说错了，应该是 15 分钟", "ごめん、パス間違えてました",
])
def test_the_persons_own_mistake_is_not_the_agents(said):
    assert self_blame(said)
    turn = Turn(source="t", format="openai", index=1, user_text=said)
    assert not observe_turn(turn).corrected, said


@pytest.mark.parametrize("said", ["redo it with --no-cache please", "puoi rifarlo con --no-cache?",
                                  "refaz com --cov-branch", "重新 build 一下，加 --no-cache", "もう一度 -v で実行して"])
def test_a_rerun_request_is_a_request(said):
    assert rerun_request(said)


def _t(index: int, user: str, cmd: str) -> Turn:
    return Turn(source="t", format="claude-code", index=index, user_text=user, session_id="s", steps=(
        Step("tool_call", call=ToolCall(f"c{index}", "Bash", {"command": cmd})),
        Step("tool_result", result=ToolResult(f"c{index}", "Bash", "ok")), Step("text", text="Done.")))


def test_a_rerun_with_a_flag_is_no_correction():
    before = _t(0, "build the image", "docker build -t api .")
    again = _t(1, "redo it with --no-cache, I want the fresh lockfile", "docker build --no-cache -t api .")
    assert not observe_turn(again, before).corrected


@pytest.mark.parametrize("said", [
    "actually, never mind — your way was fine, put it back", "your first version with the stdlib formatter was fine",
    "lascia stare, andava bene com'era", "deixa pra lá, estava bom antes", "laisse tomber, tu avais raison",
    "olvídalo, estaba bien antes", "vergiss es, deine erste Version war doch gut", "算了，还是原来的吧",
    "やっぱり元のままでいいです",
])
def test_a_retraction_is_recognised_and_is_a_correction(said):
    assert RETRACTION.search(said), said
    assert observe_turn(Turn(source="t", format="openai", index=1, user_text=said)).corrected


@pytest.mark.parametrize("said", ["nessa aqui usa lote de 5000, a tabela é pequena", "for this one use a batch of 5000",
                                  "diesmal bitte mit --dry-run", "这次用 staging 就行"])
def test_this_one_and_this_time_are_one_offs(said):
    from slowloop.reflect.distill import _DEICTIC_ONE_OFF

    assert _DEICTIC_ONE_OFF.search(said), said


def test_a_redo_that_changes_the_safety_posture_is_no_rule():
    from slowloop.reflect.distill import TurnEvidence, rules_from_correction

    before = _t(0, "install the deps", "pip install requests")
    after = _t(1, "use our mirror, pypi is blocked here", "pip install -i https://mirror.example.net/simple requests")
    assert rules_from_correction(TurnEvidence(1, after, True, "cue", before, (), False)) == []
    safe = _t(1, "never plain --force on shared branches", "git push --force-with-lease origin feat")
    assert rules_from_correction(TurnEvidence(1, safe, True, "cue", _t(0, "push it", "git push --force origin feat"),
                                              (), False))  # the safe form is a rule


def test_moved_on_and_its_over_in_french_and_english():
    assert (read_lesson("petite info : on a migré sur vitest, jest c'est fini").x,
            read_lesson("petite info : on a migré sur vitest, jest c'est fini").y) == ("vitest", "jest")


@pytest.mark.parametrize("said", [
    "ok thx. for future reference: always show me the terraform plan before any apply",
    "funziona, ma per il futuro: i datetime qui devono essere sempre aware",
    "Kleiner Hinweis für die Zukunft: bei uns immer git pull --rebase",
    "ありがとう。ただ次からは、apply の前に必ず terraform plan を見せてください",
])
def test_a_lesson_for_next_time_is_a_correction_kept_in_the_persons_words(said):
    from slowloop.reflect.distill import TurnEvidence, rules_from_correction

    turn = Turn(source="t", format="openai", index=1, user_text=said)
    assert observe_turn(turn).corrected, said
    [rule] = rules_from_correction(TurnEvidence(1, turn, True, "cue", _t(0, "run the tests", "pytest -q"), (), False))
    # scoped by what the words are about, not by the task's commands; the lead-in is left out
    assert "running the tests" not in rule.text
    assert not any(lead in rule.text for lead in ("for future reference", "per il futuro", "für die Zukunft", "次からは"))


def test_a_new_branch_prefix_replaces_the_old_one():
    lesson = read_lesson("mudou o padrão de branch essa semana: agora é feat/ curtinho, não mais feature/")
    assert (lesson.kind, lesson.x, lesson.y) == ("convention", "feat/", "feature/")


def test_this_time_only_is_a_one_off_whatever_the_agent_redid():
    from slowloop.reflect.distill import TurnEvidence, rules_from_correction

    before = _t(0, "run the recalculation", "python -m batch.recalc --all --dry-run")
    after = _t(1, "今回は tenant 42 と 57 だけでお願いします", "python -m batch.recalc --tenants 42,57")
    assert rules_from_correction(TurnEvidence(1, after, True, "cue", before, (), False)) == []


def test_pasted_compiler_output_is_not_the_persons_words():
    from slowloop.observe.lessons import person_text

    said = ("cargo build gives me this:\nerror[E0658]: use of unstable library feature 'lazy_cell'\n"
            " --> src/cache.rs:3:5\n  |\n3 | use std::cell::LazyCell;\n")
    assert person_text(said).strip() == "cargo build gives me this:"
