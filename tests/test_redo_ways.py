"""The ways an agent redoes its work that say what to use, beyond one tool swapped for another: the
project's own target run instead of the tool, the same command run through a wrapper, a package
manager's namespace (`flutter pub`, `composer require`), a hand-written file replaced by the program
that makes it, the agent's small edit put back whole. Sentences and actions are our own (a dev set)."""

from __future__ import annotations

import pytest
from test_redo import _learn, _learn_session, cc_session

from slowloop.bootstrap import build_bootstrap
from slowloop.memo import Memo
from slowloop.observe.redo import Act, find_redo, parse_cmd


def run(cmd: str) -> Act:
    return Act("run", command=cmd)


@pytest.mark.parametrize("before, after, use, avoid, scope", [
    ("cargo nextest run", "just test", "just test", "cargo nextest", "running the tests"),
    ("npx webpack --mode production", "make dist", "make dist", "npx webpack", "building the project"),
    ("mkdocs build --strict", "task docs", "task docs", "mkdocs", "building the docs"),
    ("pytest -q tests/unit", "./scripts/test.sh --fast", "./scripts/test.sh --fast", "pytest", "running the tests"),
])
def test_the_projects_own_target_instead_of_the_tool_is_a_swap(before, after, use, avoid, scope):
    r = find_redo([run(before)], [run(after)])
    assert (r.kind, r.use, r.avoid, r.scope, r.standing) == ("swap", use, avoid, scope, True)


def test_a_target_that_checks_what_is_left_is_no_way_of_doing_the_work():
    """`make deploy` after the tests ran is more work, not the tests run another way."""
    assert find_redo([run("pytest -q")], [run("pytest -q"), run("make deploy")]) is None


@pytest.mark.parametrize("before, after, use", [
    ("rubocop -A lib/x.rb", "bundle exec rubocop -A lib/x.rb", "bundle exec rubocop"),
    ("alembic upgrade head", "poetry run alembic upgrade head", "poetry run alembic"),
    ("mypy src", "uv run mypy src", "uv run mypy"),
])
def test_the_same_command_run_through_another_program_says_how_to_run_it(before, after, use):
    r = find_redo([run(before)], [run(after)])
    assert (r.kind, r.use) == ("swap", use)
    assert f"`{use}`" in r.rule


def test_a_package_managers_namespace_and_its_flags_are_no_packages():
    assert parse_cmd("flutter pub add provider").args == ["provider"]
    assert parse_cmd("flutter pub add provider").activity == "install"
    assert parse_cmd("composer require guzzlehttp/guzzle").activity == "install"
    assert parse_cmd("cargo add serde --features derive").args == ["serde"]
    r = find_redo([run("flutter pub add provider")], [run("flutter pub remove provider"), run("flutter pub add riverpod")])
    assert (r.kind, r.use, r.avoid) == ("swap", "riverpod", "provider")
    r = find_redo([run("cargo add anyhow --features backtrace")],
                  [run("cargo remove anyhow"), run("cargo add eyre --features track-caller")])
    assert (r.kind, r.use, r.avoid) == ("swap", "eyre", "anyhow")


def test_a_removed_package_and_a_using_directive_name_the_library_instead():
    r = find_redo([run("dotnet add package RestSharp")],
                  [run("dotnet remove package RestSharp"),
                   Act("edit", path="src/Api/Client.cs", old="using RestSharp;", new="using System.Net.Http.Json;")])
    assert (r.kind, r.use, r.avoid) == ("swap", "System.Net.Http.Json", "RestSharp")


def test_a_hand_written_file_replaced_by_the_program_that_makes_it():
    r = find_redo([Act("write", path="api/openapi_client.py", new="class Client: ...\n")],
                  [run("rm api/openapi_client.py"), run("openapi-generator-cli generate -i spec.yaml -g python")])
    assert (r.kind, r.avoid, r.standing) == ("swap", "api/openapi_client.py", True)
    assert r.use.startswith("openapi-generator-cli generate")
    # removed, then the build run to check what is left: nothing made it
    assert find_redo([Act("write", path="cmd/tool/extra.go", new="package main\n")],
                     [run("rm cmd/tool/extra.go"), run("go build ./...")]).kind == "undo"


@pytest.mark.parametrize("old, new, rule", [
    ("  run: yarn install --frozen-lockfile", "  run: yarn install", None),  # nothing put in its place: a flag dropped
    ("image: redis:7.2", "image: redis:latest", "always use `image: redis:7.2`, never `image: redis:latest`."),
])
def test_the_agents_small_edit_put_back_whole_keeps_what_it_replaced(old, new, rule):
    path = "deploy/compose.yml"
    r = find_redo([Act("edit", path=path, old=old, new=new)], [Act("edit", path=path, old=new, new=old)])
    if rule is None:
        assert r.kind == "undo"
    else:
        assert (r.kind, r.rule) == ("keep", rule)


def test_a_line_added_then_taken_back_is_a_line_not_to_add():
    r = find_redo([Act("edit", path=".dockerignore", old="node_modules", new="node_modules\nyarn.lock")],
                  [Act("edit", path=".dockerignore", old="node_modules\nyarn.lock", new="node_modules")])
    assert (r.kind, r.rule) == ("keep", "never add `yarn.lock` to `.dockerignore`.")


def test_a_target_the_person_names_becomes_the_rule_at_the_next_session(tmp_path):
    _learn_session(tmp_path, [
        ("run the test suite", [("Bash", {"command": "go test ./..."})]),
        ("el mage test levanta los contenedores antes, por eso", [("Bash", {"command": "mage test"})])])
    plays = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("`mage test`" in e and "never `go test`" in e and e.startswith("When running the tests") for e in plays), plays
    assert "mage test" in build_bootstrap("a", home=tmp_path / "home").text


def test_a_put_back_the_person_asked_for_as_a_retraction_is_no_rule(tmp_path):
    _learn_session(tmp_path, [
        ("switch the cache to redis:latest", [("Edit", {"file_path": "compose.yml", "old_string": "image: redis:7.2",
                                                          "new_string": "image: redis:latest"})]),
        ("scratch the latest thing, put 7.2 back", [("Edit", {"file_path": "compose.yml", "old_string": "image: redis:latest",
                                                              "new_string": "image: redis:7.2"})])])
    assert not any("redis" in e for e in Memo("a", home=tmp_path / "home").entries("plays"))


def test_a_generator_run_again_with_a_fields_type_changed_is_the_type_to_use():
    r = find_redo([run("bin/rails g migration AddPaidToOrders paid_at:date")],
                  [run("bin/rails d migration AddPaidToOrders"), run("bin/rails g migration AddPaidToOrders paid_at:datetime")])
    assert (r.kind, r.use, r.avoid) == ("api", "datetime", "date")
    # a variable's value changed is this run's value, not a type
    assert find_redo([run("terraform plan -var env=prod")], [run("terraform plan -var env=staging")]) is None or \
        find_redo([run("terraform plan -var env=prod")], [run("terraform plan -var env=staging")]).use != "staging"


def test_a_change_of_mind_replaces_the_rule_that_said_never_to_use_the_new_choice(tmp_path):
    """Session one: the agent's `npm i mobx` redone as `npm i @reduxjs/toolkit`; weeks later the person
    says redux is on its way out and the agent writes zustand. One rule stays, the newer."""
    one = tmp_path / "one.jsonl"
    one.write_text(cc_session([
        ("add a cart store", [("Bash", {"command": "npm i mobx"})]),
        ("we use redux toolkit for global state, not mobx",
         [("Bash", {"command": "npm uninstall mobx"}), ("Bash", {"command": "npm i @reduxjs/toolkit"})])]), encoding="utf-8")
    _learn(tmp_path / "home", one)
    assert any("@reduxjs/toolkit" in e for e in Memo("a", home=tmp_path / "home").entries("plays"))
    two = tmp_path / "two.jsonl"
    two.write_text(cc_session([
        ("add a favourites store", [("Bash", {"command": "npm i @reduxjs/toolkit"})]),
        ("we moved off redux last sprint, it's mobx everywhere now",
         [("Bash", {"command": "npm uninstall @reduxjs/toolkit"}), ("Bash", {"command": "npm i mobx"})])],
        session="s2"), encoding="utf-8")
    _learn(tmp_path / "home", two)
    plays = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("always use mobx" in e for e in plays), plays
    assert not any("always use @reduxjs/toolkit" in e for e in plays), plays


def _rewrite(path: str, old: str, new: str, said: str) -> list:
    return [("write it", [("Edit", {"file_path": path, "old_string": "", "new_string": old})]),
            (said, [("Edit", {"file_path": path, "old_string": old, "new_string": new})])]


@pytest.mark.parametrize("turns, rule", [
    # the words point at the rewrite (the lines it changed) without naming what to use
    (_rewrite("app/Models/Invoice.php", "protected $casts = ['amount' => 'float'];",
              "protected $casts = ['amount' => 'decimal:2'];", "amount em float arredonda 0.1 + 0.2 errado no fechamento"),
     "always use `decimal:2`, never `float`"),
])
def test_a_rewrite_the_words_point_at_without_naming_gives_its_one_swap(tmp_path, turns, rule):
    _learn_session(tmp_path, turns)
    plays = Memo("a", home=tmp_path / "home").entries("plays")
    assert any(rule in e for e in plays), plays


@pytest.mark.parametrize("turns", [
    # a key moved out of the code into the environment: no rule naming the key
    _rewrite("lib/pay.dart", "const key = 'pk_live_51Hx';", "const key = String.fromEnvironment('PAY_KEY');",
             "the key in the apk, anyone can unzip it"),
    # the code's own field in place of a library call
    _rewrite("src/Sms.java", "new Thread(() -> send(m)).start();", "smsExecutor.execute(() -> send(m));",
             "Thread per message, the pod dies at 2k threads"),
])
def test_a_rewrite_that_moves_a_secret_or_puts_the_codes_own_name_gives_no_swap(tmp_path, turns):
    _learn_session(tmp_path, turns)
    plays = Memo("a", home=tmp_path / "home").entries("plays")
    assert not any(w in e for e in plays for w in ("pk_live", "fromEnvironment", "smsExecutor")), plays


def test_a_generator_in_place_of_a_hand_written_file_is_named_without_this_tasks_name():
    before = [Act("write", path="app/jobs/purge_stale_carts.rb", new="class PurgeStaleCarts; end")]
    after = [Act("run", command="rm app/jobs/purge_stale_carts.rb"),
             Act("run", command="bin/rails generate job purge_stale_carts --queue low")]
    r = find_redo(before, after)
    assert r is not None and r.use == "bin/rails generate job" and r.scope == "creating files under `app/jobs/`"
    assert r.rule == "always use `bin/rails generate job`, never write them by hand."


def test_a_file_put_out_of_the_way_is_removed_not_placed():
    before = [Act("write", path="scripts/fix_totals.py", new="print(1)")]
    after = [Act("run", command="git mv scripts/fix_totals.py /tmp/fix_totals.py")]
    r = find_redo(before, after)
    assert r is None or r.kind != "move"


def test_the_same_page_written_in_another_format_elsewhere_is_a_move_of_place():
    before = [Act("write", path="docs/Deploying.md", new="# Deploying")]
    after = [Act("run", command="rm docs/Deploying.md"),
             Act("write", path="docs/pages/deploying.adoc", new="= Deploying")]
    r = find_redo(before, after)
    assert r is not None and r.kind == "move" and r.use == "docs/pages/"


def test_another_function_of_a_module_the_code_imports_is_a_way_not_a_value(tmp_path):
    _learn_session(tmp_path, [
        ("read the settings file", [("Write", {"file_path": "app/conf.py",
                                                "content": "import pickle\n\ndef load(p):\n    return pickle.load(open(p, 'rb'))\n"})]),
        ("pickle.load on a file users upload runs whatever is in it", [("Edit", {
            "file_path": "app/conf.py", "old_string": "    return pickle.load(open(p, 'rb'))",
            "new_string": "    return json.load(open(p))"})])])
    plays = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("`json.load`" in e and "never `pickle.load`" in e for e in plays), plays


def test_another_field_of_the_codes_own_object_stays_this_tasks_value(tmp_path):
    _learn_session(tmp_path, [
        ("show the total", [("Write", {"file_path": "app/cart.py",
                                        "content": "def total(order):\n    return order.gross\n"})]),
        ("order.gross includes the shipping, that's wrong here", [("Edit", {
            "file_path": "app/cart.py", "old_string": "    return order.gross", "new_string": "    return order.net"})])])
    assert not any("order.net" in e for e in Memo("a", home=tmp_path / "home").entries("plays"))


@pytest.mark.parametrize("said, corrected", [
    ("a bare except that swallows the timeout, so the retry loop never sees it", True),  # consequence only
    ("ah sí, genial, así nadie se entera cuando falla", True),                           # sarcasm
    ("nice, now also retry on 503", False),                                              # more work
    ("could you make it log the url too?", False),                                       # a question
])
def test_the_agents_fresh_code_rewritten_right_after_is_a_correction_in_any_words(tmp_path, said, corrected):
    from slowloop.observe.observe import observe_turn
    from slowloop.transcripts import iter_turns
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session([
        ("fetch the rates", [("Write", {"file_path": "app/rates.py",
                                         "content": "def rates():\n    try:\n        return get()\n    except:\n        pass\n"})]),
        (said, [("Edit", {"file_path": "app/rates.py", "old_string": "    except:\n        pass\n",
                          "new_string": "    except httpx.TimeoutException:\n        log.warning('rates timed out')\n        raise\n"})])]),
        encoding="utf-8")
    turns = list(iter_turns(f))
    assert observe_turn(turns[1], turns[0]).correction.corrected is corrected


def test_a_rewrite_with_no_api_to_name_waits_for_the_persons_wording(tmp_path):
    _learn_session(tmp_path, [
        ("add the column", [("Write", {"file_path": "db/V9__tax.sql",
                                        "content": "ALTER TABLE invoices ADD COLUMN tax_id TEXT NOT NULL;\n"})]),
        ("invoices has 50M rows, that rewrites the whole table", [("Write", {
            "file_path": "db/V9__tax.sql", "content": "ALTER TABLE invoices ADD COLUMN tax_id TEXT;\n"})])])
    home = tmp_path / "home"
    assert not Memo("a", home=home).entries("plays")  # no guessed rule …
    from slowloop.reflect.review import proposals
    from slowloop.store import open_store
    with open_store(home=home) as store:
        waiting = proposals(store, "a")  # … the correction waits, visibly, for the person, worded as
    assert waiting  # the fix, the person's words its reason (never their complaint made an order)
    text = waiting[0].action["text"]
    assert "do as the user said" not in text and "`ALTER TABLE invoices ADD COLUMN tax_id TEXT;`" in text, text


@pytest.mark.parametrize("said", [
    "why a deque over a list here? not objecting, just curious",
    "per curiosità: perché hai messo l'indice su due colonne?",
    "rifallo con --no-cache, voglio vedere i tempi veri",
    "è la cache di npm sul runner, non dipende da te",
    "我的锅，token 我发错了，新的在 vault 里",
])
def test_curiosity_a_rerun_someone_elses_doing_or_the_persons_own_slip_is_no_correction(said):
    from slowloop.observe.observe import observe_turn
    from slowloop.transcripts.model import Turn
    turn = Turn(source="<memory>", format="openai", index=1, user_text=said)
    assert not observe_turn(turn, None).correction.corrected


def test_a_rerun_that_states_the_way_is_still_a_correction():
    from slowloop.observe.observe import observe_turn
    from slowloop.transcripts.model import Turn
    turn = Turn(source="<memory>", format="openai", index=1, user_text="no, redo it with pnpm, never npm in this repo")
    assert observe_turn(turn, None).correction.corrected
