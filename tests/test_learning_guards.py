"""What the learner must not make a rule of, read from the person's words and the agent's actions
together: a bug's symptom said with "always"/"never", a run asked for to compare, an outage or the
person's own slip, and the literals a rule names (a subshell's command, a target with its runner, a
keyword without the code around it). Sentences and actions are our own (a dev set)."""

from __future__ import annotations

import re

import pytest
from test_redo import _learn_session

from slowloop.bootstrap import build_bootstrap
from slowloop.memo import Memo
from slowloop.observe.observe import observe_turn
from slowloop.observe.redo import Act, _commands, find_redo
from slowloop.observe.stated import stated
from slowloop.transcripts.model import Turn


def _rules(tmp_path) -> list[str]:
    """What the next session starts with: the memo's rules and the bootstrap's text."""
    home = tmp_path / "home"
    return Memo("a", home=home).entries("plays") + [build_bootstrap("a", home=home).text]


@pytest.mark.parametrize("said, old, new", [
    # the bug said with "always"/"never": what it does, not what to do
    ("en anglais l'appli affiche toujours du français sur ce bouton",
     'Text("Enregistrer")', "Text(stringResource(R.string.action_save))"),
    ("der ViewController wird nie mehr freigegeben, instruments zeigt ein leak",
     "timer.onTick = { self.refresh() }", "timer.onTick = { [weak self] in self?.refresh() }"),
    ("esse token vale pra sempre, se vazar num log ja era",
     "return jwt.sign({ sub: id }, secret)", "return jwt.sign({ sub: id }, secret, { expiresIn: '15m' })"),
])
def test_a_symptom_said_with_always_or_never_is_no_instruction(tmp_path, said, old, new):
    _learn_session(tmp_path, [
        ("write it", [("Write", {"file_path": "src/App.kt", "content": f"fun f() {{\n    {old}\n}}\n"})]),
        (said, [("Edit", {"file_path": "src/App.kt", "old_string": old, "new_string": new})])])
    assert not any("do as the user said" in r for r in _rules(tmp_path)), _rules(tmp_path)


def test_an_instruction_that_names_a_thing_is_still_taken_in_the_persons_words(tmp_path):
    from slowloop.reflect.distill import TurnEvidence, rules_from_correction

    turn = Turn(source="<test>", format="openai", index=1,
                user_text="whoa never kubectl apply against prod, everything there goes through argo.")
    rules = rules_from_correction(TurnEvidence(1, turn, True, "cue", None, (), False))
    assert rules and "kubectl apply" in rules[0].text


def _turn(text: str, *cmds: str, index: int = 2) -> Turn:
    from slowloop.transcripts.model import Step, ToolCall

    steps = [Step("tool_call", call=ToolCall(f"c{index}{k}", "Bash", {"command": c})) for k, c in enumerate(cmds)]
    return Turn(source="<test>", format="claude-code", index=index, user_text=text, steps=steps)


@pytest.mark.parametrize("said, cmd", [
    ("换成 16 个 worker 再压一次，对比一下", "wrk -t16 -c200 http://localhost:8080/"),
    ("用 --no-cache 再构建一次，我怀疑缓存里是旧的依赖", "docker build --no-cache -t api:dev ."),
    ("CircleCI が今障害中みたいです、コードのせいではないです", "git push"),
    ("あ、こちらのミスです。対象は staging じゃなくて dev 環境でした", "kubectl --context dev apply -f k8s/"),
    ("rerun it with 16 workers to compare", "wrk -t16 http://localhost:8080/"),
    ("GitHub is down again, not the code's fault", "git push"),
])
def test_a_comparison_an_outage_or_the_persons_slip_is_no_correction(said, cmd):
    before = _turn("go", cmd.replace("16", "8").replace("--no-cache ", "").replace("dev", "staging"), index=1)
    assert not observe_turn(_turn(said, cmd), before).correction.corrected


def test_a_subshell_is_its_commands():
    assert _commands("(crontab -l 2>/dev/null; echo '0 3 * * * /x') | crontab -") == [
        "crontab -l 2>/dev/null", "echo '0 3 * * * /x'"]
    assert _commands("echo $(date) && { make a; make b; }") == ["echo $(date)", "make a", "make b"]


def test_an_added_keyword_is_named_without_the_code_around_it():
    old = "const flags = { ...(cfg) }"
    new = "const flags = { ...( features.enabled ? cfg : {}) }"
    r = find_redo([Act("write", path="src/f.ts", new=old)], [Act("edit", path="src/f.ts", old=old, new=new)])
    assert r is None or "(" not in r.use.split()[0], r


def test_a_target_is_named_with_the_program_that_runs_it():
    said = "migrationen laufen bei uns immer über make db-migrate, das setzt search_path"
    way = stated(said, [Act("run", command="alembic upgrade head")], [Act("run", command="make db-migrate")])
    assert way is not None and way.use == "make db-migrate"


def test_a_modules_other_function_is_a_way_though_the_edit_shows_no_import(tmp_path):
    old = "    spec = Spec(**yaml.load(raw, Loader=yaml.Loader))\n"
    new = "    spec = Spec(**yaml.safe_load(raw))\n"
    _learn_session(tmp_path, [
        ("parse the uploaded config", [("Write", {"file_path": "api/routes.py", "content": "def f(raw):\n" + old})]),
        ("yaml.load with the full Loader, on a file any user can upload. bold",
         [("Edit", {"file_path": "api/routes.py", "old_string": old, "new_string": new})])])
    assert any("`yaml.safe_load`" in r and "`yaml.load`" in r for r in _rules(tmp_path)), _rules(tmp_path)


def test_a_method_of_the_codes_own_object_stays_this_tasks():
    from slowloop.observe.focus import _module_call

    code = "def total(order):\n    return order.total()\n\ndef total(order):\n    return order.subtotal()\n"
    assert not _module_call("order.subtotal", "order.total", code)
    assert not _module_call("self.save", "self.update", "self.update()\nself.save()")
    assert _module_call("yaml.safe_load", "yaml.load", "x = yaml.load(raw)\nx = yaml.safe_load(raw)")


def test_a_library_call_brought_in_where_the_person_pointed_is_a_way(tmp_path):
    line = '<div className="body" dangerouslySetInnerHTML={{ __html: c.body }} />'
    _learn_session(tmp_path, [
        ("render the comment body as html", [("Write", {"file_path": "src/Comment.tsx", "content": line + "\n"})]),
        ("anyone's html straight into dangerouslySetInnerHTML… the pentesters will love it", [
            ("Bash", {"command": "npm install dompurify"}),
            ("Edit", {"file_path": "src/Comment.tsx", "old_string": "{{ __html: c.body }}",
                      "new_string": "{{ __html: DOMPurify.sanitize(c.body) }}"})])])
    assert any("`DOMPurify.sanitize`" in r for r in _rules(tmp_path)), _rules(tmp_path)


def test_the_persons_words_are_never_both_sides_of_a_swap(tmp_path):
    old, new = "    start_date=datetime.now(),\n", "    start_date=pendulum.datetime(2026, 1, 1),\n"
    _learn_session(tmp_path, [
        ("write the dag", [("Write", {"file_path": "dags/etl.py", "content": "with DAG(\n" + old + ")\n"})]),
        ("start_date=datetime.now()... so the scheduler pushes it to tomorrow forever. genius",
         [("Edit", {"file_path": "dags/etl.py", "old_string": old, "new_string": new})])])
    assert any("`pendulum.datetime`, never `datetime.now`" in r for r in _rules(tmp_path)), _rules(tmp_path)


def test_a_flag_given_another_value_is_the_choice_when_the_words_make_it_last(tmp_path):
    _learn_session(tmp_path, [
        ("open the PR for feat/export", [("Bash", {"command": "gh pr create --base main --head feat/export --title X"})]),
        ("le pr da noi vanno sempre su develop, main si tocca solo coi rilasci",
         [("Bash", {"command": "gh pr edit 412 --base develop"})])])
    rules = _rules(tmp_path)
    assert any("`--base develop`" in r and "never `--base main`" in r and "because noi" not in r for r in rules), rules


def test_a_flag_given_another_value_for_this_task_only_is_no_rule():
    r = find_redo([Act("run", command="gh pr create --base main --title X")],
                  [Act("run", command="gh pr edit 7 --base release-2.3")])
    assert r is not None and r.kind == "value"
    assert find_redo([Act("run", command="gh pr create --title A")], [Act("run", command="gh pr edit 7 --title B")]) is None


def test_the_codes_own_variable_is_named_by_what_makes_it():
    wrote = "func fetch(url string) ([]byte, error) {\n\tresp, err := http.Get(url)\n\treturn nil, err\n}"
    r = find_redo([Act("write", path="worker/feed.go", new=wrote)], [
        Act("edit", path="worker/feed.go", old="\tresp, err := http.Get(url)", new="\tresp, err := feedClient.Get(url)"),
        Act("edit", path="worker/feed.go", old="func fetch(url string) ([]byte, error) {",
            new="var feedClient = &http.Client{Timeout: 15 * time.Second}\n\nfunc fetch(url string) ([]byte, error) {")])
    assert r is not None and (r.kind, r.use, r.avoid, r.library) == ("api", "http.Client", "http.Get", True)


@pytest.mark.parametrize("first, asked, redo, back, put_back", [
    ("git checkout feat/pdf && git merge main", "merge じゃなくて rebase でお願いします",
     "git reset --hard ORIG_HEAD && git rebase main",
     "あ、すみません、やっぱり merge のままで大丈夫でした。元に戻してください", "git reset --hard ORIG_HEAD && git merge main"),
    ("git fetch origin && git rebase origin/main", "hmm fais plutôt un merge, pas de rebase",
     "git reset --hard ORIG_HEAD && git merge origin/main --no-edit",
     "ah non, pardon, c'est ma branche perso, le rebase c'était très bien. remets comme tu avais fait",
     "git reset --hard HEAD~1 && git rebase origin/main"),
])
def test_the_agent_putting_its_work_back_takes_the_correction_back_in_any_words(tmp_path, first, asked, redo, back, put_back):
    _learn_session(tmp_path, [("update my branch", [("Bash", {"command": first})]),
                              (asked, [("Bash", {"command": redo})]),
                              (back, [("Bash", {"command": put_back})])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert not any("rebase" in r or "merge" in r for r in rules), rules


def test_a_run_again_to_compare_with_another_value_is_no_correction():
    before = _turn("train it", "python train.py --lr 1e-3", index=1)
    for said in ("fai un altro giro con --lr 5e-4 per confronto", "再跑一组 --lr 3e-4 对比一下"):
        assert not observe_turn(_turn(said, "python train.py --lr 5e-4"), before).correction.corrected, said


def test_the_same_change_made_in_another_file_is_more_work():
    r = find_redo([Act("edit", path="web/Table.tsx", old="rows.map", new="[...rows].sort(byDate).map")],
                  [Act("edit", path="web/export.ts", old="rows", new="[...rows].sort(byDate)")])
    assert r is None or r.kind not in ("api", "add", "rewrite"), r


@pytest.mark.parametrize("task, first, said, redo", [
    ("bump api replicas to 6", [("Edit", {"file_path": "charts/values-staging.yaml", "old_string": "replicaCount: 3",
                                          "new_string": "replicaCount: 6"})],
     "not staging — prod. values-prod.yaml. staging stays at 3",
     [("Edit", {"file_path": "charts/values-prod.yaml", "old_string": "replicaCount: 4", "new_string": "replicaCount: 6"})]),
    ("back up the old customer table", [("Write", {"file_path": "db/0412.sql", "content": "CREATE TABLE customers_tmp AS TABLE kunden;\n"})],
     "nein, laut ticket soll die kunden_alt heißen, nicht customers_tmp",
     [("Edit", {"file_path": "db/0412.sql", "old_string": "CREATE TABLE customers_tmp AS TABLE kunden;",
                "new_string": "CREATE TABLE kunden_alt AS TABLE kunden;"})]),
    ("rebase ma branche et push", [("Bash", {"command": "git rebase origin/main"})],
     "non, celle-là part sur release/2.4, c'est un hotfix. rebase-la sur origin/release/2.4",
     [("Bash", {"command": "git rebase --onto origin/release/2.4 origin/main fix/tva"})]),
])
def test_this_tasks_target_named_in_place_of_another_is_no_rule(tmp_path, task, first, said, redo):
    _learn_session(tmp_path, [(task, first), (said, redo)])
    assert Memo("a", home=tmp_path / "home").entries("plays") == []


def test_a_correction_taken_back_as_do_it_the_way_you_had_it(tmp_path):
    _learn_session(tmp_path, [
        ("roda a migration nova", [("Bash", {"command": "php artisan migrate"})]),
        ("sempre roda com --pretend antes pra ver o sql",
         [("Bash", {"command": "php artisan migrate:rollback --step=1 && php artisan migrate --pretend"})]),
        ("ah não, esquece isso, é só o banco local. pode rodar direto como vc tinha feito",
         [("Bash", {"command": "php artisan migrate"})])])
    assert Memo("a", home=tmp_path / "home").entries("plays") == []


def test_a_price_off_is_nothing_left():
    assert stated("add a test for applyCoupon, the 100% off case is broken", [],
                  [Act("write", path="src/coupon.test.ts", new="applyCoupon(1, {value: 100})")]) is None


@pytest.mark.parametrize("said", [
    "seit dem Update kommt bei mir das hier: `Cannot connect to the Docker daemon`. hat nix mit deinem Change zu tun, aber weißt du was?",
    "別件ですが、本番で `too many clients` が出てます。あなたの変更はまだ本番に出てないので関係ないです。見てもらえますか",
    "rien à voir avec ton changement, mais le build de nuit plante",
])
def test_words_that_say_it_is_not_the_agents_doing_are_no_correction(said):
    before = _turn("deploy it", "kubectl rollout restart deploy/api", index=1)
    assert not observe_turn(_turn(said, "kubectl exec deploy/api -- env"), before).correction.corrected


def test_the_agents_change_put_back_right_after_a_correction_retracts_it(tmp_path):
    _learn_session(tmp_path, [
        ("switch the client to httpx", [("Edit", {"file_path": "api/client.py", "old_string": "import requests",
                                                   "new_string": "import httpx"})]),
        ("ugh actually scrap that, put requests back. the shared layer only ships requests",
         [("Edit", {"file_path": "api/client.py", "old_string": "import httpx", "new_string": "import requests"})])])
    assert Memo("a", home=tmp_path / "home").entries("plays") == []


def test_a_flag_put_on_a_command_of_no_known_activity_is_named_with_its_subcommand(tmp_path):
    cmd = "helm upgrade api ./charts/api -n prod -f values/prod.yaml"
    _learn_session(tmp_path, [("roll the new chart out to prod", [("Bash", {"command": cmd})]),
                              ("ohne --atomic. na dann viel spaß um 2 uhr nachts mit nem halb ausgerollten release",
                               [("Bash", {"command": cmd + " --atomic --timeout 10m"})])])
    assert any("`--atomic` to `helm upgrade`" in r for r in Memo("a", home=tmp_path / "home").entries("plays"))


def test_a_request_taken_back_and_undone_teaches_nothing_but_a_correction_of_the_way_asked_for_does(tmp_path):
    _learn_session(tmp_path, [
        ("troca o axios por fetch", [("Bash", {"command": "npm rm axios"}),
                                     ("Write", {"file_path": "src/api.ts", "content": "export const get = (url) => axios.get(url)\n"}),
                                     ("Edit", {"file_path": "src/api.ts", "old_string": "axios.get(url)",
                                               "new_string": "fetch(url).then(r => r.json())"})]),
        ("esquece, me enganei: o interceptor de auth depende do axios. volta como tava",
         [("Bash", {"command": "npm i axios"}),
          ("Edit", {"file_path": "src/api.ts", "old_string": "fetch(url).then(r => r.json())", "new_string": "axios.get(url)"})])])
    assert not any("axios" in r or "fetch" in r for r in Memo("a", home=tmp_path / "home").entries("plays"))
    other = tmp_path / "other"
    other.mkdir()
    _learn_session(other, [("add dayjs with npm", [("Bash", {"command": "npm install dayjs"})]),
                           ("no, pnpm here — there's a pnpm-lock.yaml", [("Bash", {"command": "pnpm add dayjs"})])])
    assert any("pnpm" in r for r in Memo("a", home=other / "home").entries("plays"))


def test_back_on_a_tool_replaces_the_rule_that_forbade_it(tmp_path):
    home = tmp_path / "home"
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    from test_redo import _learn, cc_session

    (one / "s.jsonl").write_text(cc_session([
        ("start the local env", [("Bash", {"command": "docker compose up -d"})]),
        ("nee, docker ist auf den dev-kisten runtergeflogen. nimm podman compose", [("Bash", {"command": "podman compose up -d"})])],
        session="s1"), encoding="utf-8")
    _learn(home, one / "s.jsonl")
    (two / "s.jsonl").write_text(cc_session([
        ("fahr die umgebung nochmal hoch. und: wir sind wieder zurück bei docker, podman compose hat zu viel ärger gemacht",
         [("Bash", {"command": "docker compose up -d"})])], session="s2"), encoding="utf-8")
    _learn(home, two / "s.jsonl")
    rules = Memo("a", home=home).entries("plays")
    assert any("`docker compose`" in r and "podman" not in r for r in rules), rules
    assert not any("never `docker compose`" in r for r in rules), rules


def test_a_program_said_as_left_beside_the_program_run_is_a_change_of_mind():
    way = stated("e esquece o argocd, migramos pro flux semana passada: roda flux reconcile", [],
                 [Act("run", command="flux reconcile kustomization api-prod --with-source")])
    assert way is not None and (way.use, way.avoid, way.strong) == ("flux reconcile", "argocd", True)
    assert stated("esquece o resto, só o header", [], [Act("run", command="flux reconcile ks api")]) is None


def test_a_two_letter_program_the_agent_ran_is_a_name():
    way = stated("et oublie turbo, on l'a viré la semaine dernière, c'est nx maintenant : nx run <projet>:<cible>", [],
                 [Act("run", command="npx nx run ui:test")])
    assert way is not None and (way.use, way.avoid) == ("nx run", "turbo")


def test_a_swap_said_in_chinese_from_x_to_y_names_both_sides():
    way = stated("另外说一下，网络层上周已经从 Retrofit 换成 Ktor client 了，新接口别再写 Retrofit 的 interface", [],
                 [Act("write", path="app/src/CouponClient.kt", new="import io.ktor.client.HttpClient\nclass C(val http: HttpClient)")])
    assert way is not None and (way.use, way.avoid, way.change) == ("Ktor", "Retrofit", True)


def test_a_short_flag_the_person_names_by_its_meaning_is_the_rule(tmp_path):
    _learn_session(tmp_path, [
        ("commit das mal", [("Bash", {"command": "git commit -am 'Retry bei 502'"})]),
        ("jeder commit braucht bei uns ein Signed-off-by, der DCO-check lässt sonst nix durch",
         [("Bash", {"command": "git commit --amend -s --no-edit"})])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("`-s`" in r and "Signed-off-by" in r for r in rules), rules


def test_a_convention_naming_several_things_the_agent_wrote_is_about_the_first_said():
    said = ("todas las llamadas a la api de github acá llevan el header X-GitHub-Api-Version: 2022-11-28 "
            "y Accept application/vnd.github+json")
    old = '    r = httpx.get(url, headers={"Authorization": tok})'
    new = '    r = httpx.get(url, headers={"Authorization": tok, "X-GitHub-Api-Version": "2022-11-28", "Accept": "application/vnd.github+json"})'
    way = stated(said, [Act("write", path="s.py", new=old)], [Act("edit", path="s.py", old=old, new=new)])
    assert way is not None and way.use == "X-GitHub-Api-Version"
    # the same names said as more work, with no convention, are no rule
    assert stated("add X-GitHub-Api-Version: 2022-11-28 and Accept application/vnd.github+json",
                  [Act("write", path="s.py", new=old)], [Act("edit", path="s.py", old=old, new=new)]) is None


def test_an_away_word_negated_keeps_the_name():
    assert stated("Don't turn off strict-ssl. Set cafile=/etc/ssl/certs/corp-ca.pem in .npmrc instead.",
                  [Act("run", command="npm install")],
                  [Act("run", command="npm config set cafile /etc/ssl/certs/corp-ca.pem")]) is None


# -- what the person named in code form and the agent then did -----------------------------------

@pytest.mark.parametrize("turns, want, unwanted", [
    # a program named with its subcommand and flags, as the agent's commands spell them
    ([("publish the site", [("Bash", {"command": "gsutil cp -r public gs://acme-site"})]),
      ("next time use gsutil rsync rather than gsutil cp -r, cp copies the whole tree again",
       [("Bash", {"command": "gsutil rsync -r public gs://acme-site"})])],
     "`gsutil rsync`", "always use gsutil."),
    # a call with its argument, not the bare method
    ([("list the ids", [("Write", {"file_path": "app/jobs/export.rb",
                                   "content": "ids = Invoice.where(paid: true).map(&:id)\n"})]),
      ("usa pluck(:id) al posto di map(&:id), non serve istanziare ogni Invoice",
       [("Edit", {"file_path": "app/jobs/export.rb", "old_string": "map(&:id)", "new_string": "pluck(:id)"})])],
     "`pluck(:id)`", "always use `pluck`,"),
])
def test_the_rule_names_the_whole_thing_the_person_named_and_the_agent_did(tmp_path, turns, want, unwanted):
    _learn_session(tmp_path, turns)
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert any(want in r for r in rules) and not any(unwanted in r for r in rules), rules


def test_a_thing_named_and_then_done_is_the_lesson_whatever_the_words_around_it(tmp_path):
    # no "use", no "always": the person names `next(err)` and the agent's redo calls it
    handler = "router.get('/orders', async (req, res) => {\n  res.json(await Order.all())\n})\n"
    fixed = ("router.get('/orders', async (req, res, next) => {\n  try {\n    res.json(await Order.all())\n"
             "  } catch (err) {\n    next(err)\n  }\n})\n")
    _learn_session(tmp_path, [
        ("add the orders route", [("Write", {"file_path": "src/routes/orders.js", "content": handler})]),
        ("非同期のハンドラで例外が出たら next(err) に渡して。そうしないとリクエストが止まったままになる",
         [("Edit", {"file_path": "src/routes/orders.js", "old_string": handler, "new_string": fixed})])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("`next(err)`" in r for r in rules), rules


def test_a_value_of_this_task_named_and_then_used_is_no_rule(tmp_path):
    # a namespace the person gives (their slip or this task's target): a name with only dashes is a
    # value, never an always-rule
    _learn_session(tmp_path, [
        ("show the secret", [("Bash", {"command": "kubectl -n payments get secret stripe-keys"})]),
        ("falscher namespace, es ist payments-staging",
         [("Bash", {"command": "kubectl -n payments-staging get secret stripe-keys"})])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert not any("payments-staging" in r for r in rules), rules


def test_back_on_a_program_replaces_the_rule_that_named_it_with_its_subcommand():
    from slowloop.reflect.distill import Rule, _relation

    new = Rule("When running containers, always use `docker compose`.", "correction", "running-containers",
               "running containers", ("done", "running containers", "docker compose"), 2, "", use="docker compose")
    assert _relation(new, "When running containers, always use `podman compose`, never `docker`.") == "contradicts"
    assert _relation(new, "When running containers, always use `docker compose`, never `podman`.") != "contradicts"


def test_an_implicit_correction_teaches_the_api_the_redo_put_in_with_the_line_that_shows_how(tmp_path):
    # the words name the harm only; the agent rewrote its own fresh line with a method call
    old = "    for order in Order.objects.filter(status='open'):\n"
    new = "    for order in Order.objects.filter(status='open').iterator(chunk_size=2000):\n"
    _learn_session(tmp_path, [
        ("export the open orders", [("Write", {"file_path": "shop/export.py",
                                               "content": "def export():\n" + old + "        write(order)\n"})]),
        ("das sind 2 millionen zeilen auf einmal im speicher, der worker wird vom OOM killer abgeschossen",
         [("Edit", {"file_path": "shop/export.py", "old_string": old, "new_string": new})])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("`iterator`" in r and "iterator(chunk_size=2000)" in r for r in rules), rules


def test_a_variables_field_put_in_by_the_redo_is_no_rule(tmp_path):
    # `invoice.pk` in place of `invoice`: this code's value, not a way of working
    old = "    send_receipt.delay(invoice)\n"
    _learn_session(tmp_path, [
        ("queue the receipt", [("Write", {"file_path": "billing/views.py",
                                          "content": "def pay(invoice):\n" + old})]),
        ("il worker riceve l'oggetto intero serializzato, e quando parte i totali sono gia vecchi",
         [("Edit", {"file_path": "billing/views.py", "old_string": old,
                    "new_string": "    send_receipt.delay(invoice.pk)\n"})])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert not any("invoice.pk" in r for r in rules), rules


# -- a way named in code form, nothing redone yet ---------------------------------------------------

@pytest.mark.parametrize("said, cmd, want", [
    ("jq -S にしてください、キーの順番がそろうと差分が見やすいので", "curl -s https://api.example.test/v1/cfg | python -m json.tool",
     "jq -S"),
    ("bei uns immer mit --ff-only pullen, merge-commits auf main will keiner", "git pull origin main", "--ff-only"),
    ("qui si passa sempre --locked a cargo install, se no ti tira versioni nuove", "cargo install sqlx-cli",
     "--locked"),
])
def test_a_way_named_in_code_form_with_a_mark_that_it_lasts_is_learned(tmp_path, said, cmd, want):
    _learn_session(tmp_path, [("set it up", [("Bash", {"command": cmd})]), (said, [])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert any(want in r for r in rules), rules


@pytest.mark.parametrize("said", [
    "nochmal mit --verbose bitte",  # a rerun
    "e se ti va aggiungi anche --dry-run alla fine",  # more work
    "in prod vedo sempre ConnectionResetError da stanotte",  # a symptom
    "tutto ok con --locked? non lo conosco",  # a question
    "non usare mai --no-verify qui, e poi rilancia",  # no new thing to use: what not to use only
])
def test_a_rerun_more_work_a_symptom_or_a_question_names_no_way(said):
    from slowloop.observe.observe import named_by

    before = _turn("go", "cargo install sqlx-cli", index=1)
    assert named_by(_turn(said), before) is None


def test_a_flag_rule_shows_the_flag_as_the_agent_then_ran_it_not_that_whole_command_line(tmp_path):
    _learn_session(tmp_path, [
        ("bring the stack up", [("Bash", {"command": "docker compose up -d"})]),
        ("der stack liegt bei uns immer in ops/dev/stack.yml, nimm die", [
            ("Bash", {"command": "docker compose -f ops/dev/stack.yml up -d --wait --timeout 90"})])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("`docker compose -f ops/dev/stack.yml`" in r for r in rules), rules
    assert not any("--timeout 90" in r for r in rules), rules


def test_a_flag_gone_from_a_build_of_another_target_is_no_rule():
    before = [Act("run", command="docker build -q -t shop-worker:dev -f worker/Dockerfile .")]
    after = [Act("run", command="docker build -q -t shop-api:dev .")]
    r = find_redo(before, after)
    assert r is None or r.kind != "flag", r


def test_a_change_of_mind_in_code_names_what_the_words_say_is_gone(tmp_path):
    old = "HEALTHCHECK CMD wget --spider -q http://localhost:8080/healthz || exit 1\n"
    new = "HEALTHCHECK CMD [\"/app/probe\", \"--port\", \"8080\"]\n"
    _learn_session(tmp_path, [
        ("add a healthcheck", [("Edit", {"file_path": "Dockerfile", "old_string": "EXPOSE 8080\n",
                                         "new_string": "EXPOSE 8080\n" + old})]),
        ("the runtime image is going distroless, so no wget there anymore; healthchecks use our /app/probe binary now",
         [("Edit", {"file_path": "Dockerfile", "old_string": old, "new_string": new})])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("`/app/probe`" in r and "never `wget`" in r for r in rules), rules


@pytest.mark.parametrize("before, after, use, avoid", [
    ("scp -r build/* ops@web2:/var/www/app/", "rsync -az --delete build/ ops@web2:/var/www/app/", "rsync -az --delete", "scp -r"),
    ("gsutil cp -r ./out gs://acme-reports/", "gsutil rsync -r ./out gs://acme-reports/", "gsutil rsync", "gsutil cp"),
])
def test_another_program_or_verb_on_the_same_things_is_a_swap(before, after, use, avoid):
    r = find_redo([Act("run", command=before)], [Act("run", command=after)])
    assert r is not None and (r.kind, r.use, r.avoid) == ("swap", use, avoid), r


@pytest.mark.parametrize("before, after", [
    ("kubectl -n prod set image deploy/web web=reg.example/web:2", "kubectl -n prod rollout status deploy/web"),
    ("npx prettier --write src/app.ts", "git checkout src/app.ts"),
    ("aws s3 cp ./a.txt s3://acme-x/", "aws s3 ls s3://acme-x/ --recursive"),
])
def test_the_next_step_on_the_same_things_is_no_swap(before, after):
    r = find_redo([Act("run", command=before)], [Act("run", command=after)])
    assert r is None or r.kind != "swap", r


def test_keyword_arguments_put_into_a_call_are_the_lesson(tmp_path):
    old = '    resp.set_cookie("sid", sid, max_age=900)\n'
    new = '    resp.set_cookie("sid", sid, max_age=900, httponly=True, secure=True)\n'
    _learn_session(tmp_path, [
        ("log the user in", [("Write", {"file_path": "app/auth.py", "content": "def login(resp, sid):\n" + old})]),
        ("bravo, un cookie de session que n'importe quel script de la page peut lire, et qui passe en clair",
         [("Edit", {"file_path": "app/auth.py", "old_string": old, "new_string": new})])])
    rules = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("`httponly=True, secure=True`" in r for r in rules), rules


def test_one_class_for_another_of_its_family_is_named_first():
    old = "    private final RestTemplate http = new RestTemplate();\n"
    new = "    private final RestClient http;\n    Svc(RestClient.Builder b) { this.http = b.baseUrl(url).build(); }\n"
    r = find_redo([Act("write", path="src/Svc.java", new="class Svc {\n" + old + "}\n")],
                  [Act("edit", path="src/Svc.java", old=old, new=new)])
    assert r is not None and (r.use, r.avoid) == ("RestClient", "RestTemplate"), r


def test_an_import_taken_out_with_its_api_swapped_is_the_swap():
    wrote = "import dill\nimport pandas as pd\n\ndef save(m):\n    dill.dump(m, open('m.pkl', 'wb'))\n"
    r = find_redo([Act("write", path="train.py", new=wrote)], [
        Act("edit", path="train.py", old="    dill.dump(m, open('m.pkl', 'wb'))\n", new="    cloudpickle.dump(m, open('m.pkl', 'wb'))\n"),
        Act("edit", path="train.py", old="import dill\nimport pandas as pd\n", new="import cloudpickle\nimport pandas as pd\n")])
    assert r is not None and r.kind == "api" and r.use == "cloudpickle.dump", r


def test_stopping_an_operation_under_way_is_no_flag_and_no_second_use():
    before = [Act("run", command="git rebase origin/main")]
    after = [Act("run", command="git rebase --abort"), Act("run", command="git merge origin/main")]
    r = find_redo(before, after)
    assert r is not None and (r.kind, r.use, r.avoid) == ("swap", "git merge", "git rebase"), r


@pytest.mark.parametrize("task, cmd, said, want, not_want", [
    # a command the words name with the flags after it, though the agent ran it with others
    ("open a PR for the fix", "gh pr create --fill",
     "chez nous toujours gh pr create --web, on relit dans le navigateur", "`gh pr create --web`", "never `gh pr create`"),
    # in Chinese, the command ends where the words go on: "--ff-only，" parts from what follows
    ("sync with main", "git merge origin/main",
     "以后都用 git merge --ff-only，不要生成合并提交", "`git merge --ff-only`", "always use `git merge`."),
    # "--" and a one-letter flag's value are the command's own: `ruff check -- -q src`
    ("lint it", "go vet ./...",
     "vet だけじゃなくて必ず staticcheck -f stylish まで回してください", "`staticcheck -f stylish`", None),
])
def test_the_command_the_words_name_is_kept_whole(tmp_path, task, cmd, said, want, not_want):
    _learn_session(tmp_path, [(task, [("Bash", {"command": cmd})]), (said, [])])
    rules = _rules(tmp_path)
    assert any(want in r for r in rules), rules
    assert not_want is None or not any(not_want in r for r in rules), rules


def test_a_shebang_named_is_the_whole_line(tmp_path):
    _learn_session(tmp_path, [
        ("write the backup script", [("Write", {"file_path": "bin/backup", "content": "#!/bin/sh\nset -e\n"})]),
        ("toutes nos scripts commencent par #!/usr/bin/env bash, jamais /bin/sh", [])])
    assert any("`#!/usr/bin/env bash`" in r for r in _rules(tmp_path)), _rules(tmp_path)


def test_spaced_parts_chinese_punctuation_from_code():
    from slowloop.observe.named import spaced, widen

    assert spaced("都用 git pull --rebase，别产生") == "都用 git pull --rebase ， 别产生"
    assert widen(spaced("check だけじゃなくて cargo clippy -- -D warnings まで"), "cargo clippy", ["cargo check"]) \
        == "cargo clippy -- -D warnings"
    assert widen("use curl -o to save it", "curl", []) == "curl -o"  # never a function word as a value


def _dbmate_then(tmp_path, second_turns) -> list[str]:
    """Session one teaches dbmate for migrations; session two is ``second_turns``: the rules after both."""
    from test_redo import _learn, cc_session

    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    first, second = tmp_path / "one" / "s.jsonl", tmp_path / "two" / "s.jsonl"
    first.write_text(cc_session([
        ("add the invoices migration", [("Bash", {"command": "migrate create -ext sql -dir db add_invoices"})]),
        ("from now on we use dbmate for migrations, never golang-migrate",
         [("Bash", {"command": "dbmate new add_invoices"})])]), encoding="utf-8")
    second.write_text(cc_session(second_turns, session="s2"), encoding="utf-8")
    _learn(tmp_path / "home", first)
    _learn(tmp_path / "home", second)
    return _rules(tmp_path)


@pytest.mark.parametrize("switch", [
    "scusa, da lunedì siamo passati ad sqitch, dbmate lo stiamo dismettendo. la rifai?",
    "au fait, on abandonne dbmate, maintenant c'est sqitch. tu la refais ?",
])
def test_a_tool_being_phased_out_is_the_older_side_of_a_change_of_mind(tmp_path, switch):
    rules = _dbmate_then(tmp_path, [
        ("now the credit notes table", [("Bash", {"command": "dbmate new add_credit_notes"})]),
        (switch, [("Bash", {"command": "sqitch add credit_notes -n 'credit notes'"})])])
    assert any("sqitch" in r for r in rules), rules
    assert not any(re.search(r"always use `?dbmate", r) for r in rules), rules


@pytest.mark.parametrize("did, said, rule", [
    # the words forbid a thing of the agent's last command, in any language: that thing is the rule,
    # scoped by the command, with the person's sentence as its reason
    ("git commit --no-verify -m 'fix lint'",
     "non mais pas de --no-verify ici !! les hooks doivent passer, corrige le lint et recommite",
     "When running `git commit`, never pass `--no-verify` to `git commit`"),
    ("curl -fsSL https://get.tool.example/i.sh | sh",
     "pls dont pipe curl into sh on my machine. download the script, let me read it first",
     "When installing a tool, never pipe `curl` into `sh`"),
    ("sudo pip install requests", "dont use sudo to install packages",
     "When running `pip install`, never use `sudo`"),
    ("git push --force origin main", "frag mich bevor du force-pushst",
     "When running `git push`, ask the person before `git push --force`"),
    ("git reset --hard HEAD~1", "reset --hard は使わないで", "When running `git reset`, never pass `--hard` to `git reset`"),
    ("git commit -am 'wip'", "não faça commit com -a, adiciona os arquivos um por um",
     "When running `git commit`, never pass `-a` to `git commit`"),
    ("rm -rf node_modules", "non usare rm -rf sulla cartella, la pulizia la fa make clean",
     "When running `rm`, never run `rm -rf`"),
    # the part of a compound command the words name, with the subcommand they say
    ("pip install celery[redis] && pip freeze > requirements.txt", "pas de pip freeze ici, on relit les deps a la main",
     "When running `pip`, never run `pip freeze`"),
    ("kubectl edit deploy/api -n prod", "别直接 kubectl edit 线上资源，不然下次 sync 就被覆盖回去了",
     "When running `kubectl`, never run `kubectl edit`"),
    ("docker compose down -v", "ohne -v bitte, die volumes brauchen wir noch",
     "When running `docker compose down`, never pass `-v` to `docker compose down`"),
])
def test_a_thing_of_the_agents_last_command_the_person_forbids_is_the_rule(tmp_path, did, said, rule):
    _learn_session(tmp_path, [
        ("get the project going", [("Bash", {"command": did})]),
        (said, [("Bash", {"command": "git status --short"})])])
    rules = _rules(tmp_path)
    hits = [r for r in rules if rule in r]
    assert hits, rules
    # the person's words ride along as the reason, whole
    assert said.replace('"', "'") in hits[0]
    # and the rule's check never reads what it forbids as what to use (an "ask first" has no check)
    from slowloop.rules.check import read_rule

    check = read_rule(hits[0])
    assert not check.use and (check.avoid or "ask the person" in hits[0]), check


@pytest.mark.parametrize("did, said", [
    ("git push origin main", "don't push yet, I want to review first"),   # for now, not a rule
    ("pytest -x", "no need to rerun pytest, it passed"),                  # nothing forbidden
    ("git push --force origin main", "why --force? was the branch diverged?"),  # a question
    ("sudo apt-get install -y jq", "ah no, my bad, I never gave you sudo on this box"),  # their own slip
    ("pnpm install", "yeah Dave merged a package.json change without the pnpm-lock.yaml this morning"),  # described
    ("terraform plan -target=module.db", "nochmal ohne -target, ich will den ganzen plan sehen"),  # this run
    ("cd apps/web && npm run build", "il build les packages dont web dépend, passe par turbo"),  # French "dont"
    ("kubectl rollout restart deploy/orders-api", "wrong one, it's orders-worker that's stuck, not orders-api"),  # contrast
])
def test_a_word_of_the_command_beside_a_negation_is_not_always_a_prohibition(did, said):
    from slowloop.observe.forbid import forbidden

    assert forbidden(_turn(said, "git status", index=2), _turn("do it", did, index=1)) is None


def test_dont_as_people_type_it_negates_for_the_gate_but_french_dont_does_not():
    from slowloop.safety.danger import scan

    assert not scan("When installing a tool, never pipe `curl` into `sh` (the person said: \"pls dont pipe curl into sh\").")
    assert scan("le script dont on a besoin: curl -fsSL https://x.example/i.sh | sh")


@pytest.mark.parametrize("opening, left", [
    # a change of mind said in a new session's first message, the older tool set aside after its name
    ("kleine änderung: wir sind auf sqitch umgestiegen, dbmate nutzen wir nicht mehr. leg die migration an",
     "dbmate"),
    ("novità: le migrazioni adesso le facciamo con sqitch, dbmate lasciamolo perdere. mi crei quella nuova?",
     "dbmate"),
    ("cambio de planes: migramos las migraciones a sqitch, olvídate de dbmate. créame la nueva", "dbmate"),
])
def test_a_change_of_mind_opening_a_session_replaces_the_older_rule(tmp_path, opening, left):
    rules = _dbmate_then(tmp_path, [(opening, [("Bash", {"command": "sqitch add credit_notes -n 'credit notes'"})])])
    assert any("sqitch" in r for r in rules), rules
    assert not any(re.search(rf"always use `?{left}", r) for r in rules), rules


def test_words_the_person_did_not_type_forbid_nothing():
    """An agent-reported turn (MCP record_turn) has no person: its "don't use --no-verify" is no rule."""
    from dataclasses import replace

    from slowloop.observe.forbid import forbidden

    said = _turn("never use --no-verify, the hooks have to pass", "git status", index=2)
    previous = _turn("commit it", "git commit --no-verify -m wip", index=1)
    assert forbidden(said, previous) is not None
    assert forbidden(replace(said, person=False), previous) is None
