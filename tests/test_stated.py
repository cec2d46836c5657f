"""A convention or a change of mind stated outright, read from the names the words hold and what the
agent's actions did with them (observe/stated.py). Sentences and actions are our own (a dev set)."""

from __future__ import annotations

import pytest
from test_redo import _learn, cc_session

from slowloop.memo import Memo
from slowloop.observe.redo import Act
from slowloop.observe.stated import stated


def run(cmd: str) -> Act:
    return Act("run", command=cmd)


def edit(path: str, old: str, new: str) -> Act:
    return Act("edit", path=path, old=old, new=new)


@pytest.mark.parametrize("said, after, use, avoid", [
    # the words name what is left; the agent's command shows the way now (program and subcommand)
    ("fyi we moved off heroku in october, everything ships with dokku now. push the api",
     [run("dokku apps:list"), run("git push dokku main")], "dokku", "heroku"),
    # a version left by itself ("la v3"): the same path at the older version
    ("dal mese scorso il gateway è tutto su /gw/v4/, la v3 la spengono. aggiorna il client ordini",
     [edit("src/orders.ts", "fetch(`${B}/gw/v3/orders`)", "fetch(`${B}/gw/v4/orders`)")], "/gw/v4/", "/gw/v3/"),
    # two things left at once, the product by its last words in the code
    ("vergiss die config.yaml und pyyaml, Einstellungen kommen seit heute aus dem Azure App Configuration",
     [edit("app/settings.py", "import yaml\nS = yaml.safe_load(open('config.yaml'))",
           "from azure.appconfiguration import AzureAppConfigurationClient\nS = AzureAppConfigurationClient(u)"),
      run("pip uninstall -y pyyaml")], "Azure App Configuration", "config.yaml"),
    # the words name only what is left: the library the edit put in its place
    ("sentry はやめて bugsnag に移行しました。",
     [edit("app/errors.py", "sentry_sdk.capture_exception(e)", "bugsnag.notify(e)")], "bugsnag", "sentry"),
    ("graphite 那套不用了，指标统一写到 prometheus，graphite 别再动",
     [edit("metrics/push.py", "graphite.send(m)", "prometheus_client.push_to_gateway(g, job, r)")],
     "prometheus", "graphite"),
])
def test_a_change_of_mind_names_what_is_left_and_the_actions_show_the_way(said, after, use, avoid):
    way = stated(said, [], after)
    assert way is not None and way.strong, way
    assert use in way.use and way.avoid == avoid


@pytest.mark.parametrize("said, before, after, use", [
    # the agent's last action approved as the way
    ("ok, per le code interne usiamo sempre `celery -A jobs worker`", [run("celery -A jobs worker -l info")], [],
     "celery -A jobs worker"),
    # a place stated as where things live, and the file the agent then wrote there
    ("one-time backfills live in ops/backfills here, not in the app", [run("touch app/fix_dupes.py")],
     [Act("write", path="ops/backfills/fix_dupes.py", new="...")], "ops/backfills"),
    # an unquoted command said as the agent ran it, word for word
    ("chez nous les seeds passent toujours par bin/rake db:seed:replant", [run("psql -f seeds.sql")],
     [run("bin/rake db:seed:replant")], "bin/rake db:seed:replant"),
])
def test_a_convention_the_actions_confirm(said, before, after, use):
    way = stated(said, before, after)
    assert way is not None and way.use == use, way


@pytest.mark.parametrize("said, before, after", [
    ("just for this demo use the sqlite file, nothing else", [run("psql -c 'select 1'")], [run("sqlite3 demo.db .tables")]),
    ("why did you pick zod over yup here?", [Act("write", path="src/schema.ts", new="import { z } from 'zod'")], []),
    ("rerun only the failing file with --bail please", [run("npx vitest run")], [run("npx vitest run src/a.test.ts --bail")]),
    ("we deploy on main after review", [run("git log -1")], [run("git push origin main")]),  # a plain word, no way
    ("ah laisse tomber, ton try/catch était très bien, remets-le", [], [edit("a.js", "x()", "try { x() } catch {}")]),
])
def test_this_task_a_question_a_rerun_a_plain_word_or_a_retraction_states_no_way(said, before, after):
    assert stated(said, before, after) is None


def test_a_session_first_request_states_no_convention_unless_it_says_what_is_left(tmp_path):
    # "add a /health route using fastify here" names no convention: the agent only did the task
    assert stated("add a /health route using fastify here", [], [run("npm i fastify")]) is not None
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session([("add a /health route using fastify here", [("Bash", {"command": "npm i fastify"})])]),
                 encoding="utf-8")
    _learn(tmp_path / "home", f)
    assert not Memo("a", home=tmp_path / "home").entries("plays")


def test_a_change_of_mind_in_a_later_session_replaces_the_older_rule(tmp_path):
    home = tmp_path / "home"
    one = tmp_path / "one.jsonl"
    one.write_text(cc_session([
        ("log the retry attempts", [("Edit", {"file_path": "svc/retry.go", "old_string": "",
                                              "new_string": "logrus.WithField(\"n\", n).Warn(\"retry\")"})]),
        ("sì, qui i log passano sempre da `logrus`", []),
    ], session="s1"), encoding="utf-8")
    _learn(home, one)
    plays = Memo("a", home=home).entries("plays")
    assert any("`logrus`" in e and e.startswith("When writing Go code") for e in plays), plays
    two = tmp_path / "two.jsonl"
    two.write_text(cc_session([
        ("abbiamo abbandonato logrus, da questa settimana è tutto log/slog. sistema il retry",
         [("Edit", {"file_path": "svc/retry.go", "old_string": "logrus.WithField(\"n\", n).Warn(\"retry\")",
                    "new_string": "slog.Warn(\"retry\", \"n\", n)"})]),
    ], session="s2"), encoding="utf-8")
    _learn(home, two)
    plays = Memo("a", home=home).entries("plays")
    assert any("never `logrus`" in e for e in plays), plays
    assert not any("always use `logrus`" in e for e in plays), plays  # never two contradictory rules


def test_a_tool_run_through_npx_is_named_by_its_own_name():
    way = stated("esquece o CHANGELOG.md, agora é tudo changeset", [],
                 [run("npx changeset add"), Act("write", path=".changeset/brave-cats.md", new="---\n---\nfix")])
    assert way is not None and way.use == "changeset" and way.avoid == "CHANGELOG.md"


@pytest.mark.parametrize("said, before, after, use, avoid", [
    ("a gente trocou o yup pelo zod semana passada, tudo novo vai com zod", [],
     [Act("write", path="src/forms/signup.ts", new="import { z } from 'zod'\nexport const S = z.object({})")], "zod", "yup"),
    ("mudou: agora os e2e rodam com playwright, chega de cypress", [run("npx cypress run")],
     [run("npx playwright test")], "playwright", "cypress"),
])
def test_a_swap_said_in_words_names_both_sides(said, before, after, use, avoid):
    way = stated(said, before, after)
    assert way is not None and way.use.startswith(use) and way.avoid == avoid, way


@pytest.mark.parametrize("said", [
    "ah non, oublie le dossier tmp, la CI vient de passer aux runners arm",    # a noun, not a tool
    "nee, rspec ist seit dem rails-8-upgrade raus, spec/ gibts nicht mehr",    # "gibts" is no name
])
def test_a_common_word_is_not_what_is_left(said):
    way = stated(said, [], [run("bin/rails test")])
    assert way is None or way.avoid not in ("dossier", "gibts", "rails-8-upgrade"), way


def test_a_flag_is_named_with_the_subcommand_it_was_given_to():
    way = stated("in prod si fa sempre plan -out su file, poi apply di quel file", [run("terraform apply -auto-approve")],
                 [run("terraform plan -out=tfplan")])
    assert way is not None and way.use == "plan -out" and way.scope == "changing infrastructure", way


def test_the_end_of_options_is_no_flag():
    from slowloop.observe.redo import find_redo
    r = find_redo([run("yarn test")], [run("yarn test -- --maxWorkers=2")])
    assert r is not None and r.use == "--maxWorkers", r
