"""A correction shown by what the agent did: its action before the person spoke and its redo right
after (observe/redo.py), detected in any language and turned into a rule scoped by the kind of
action. Sentences and actions here are our own (a dev set): they show each form works; the blind
figures are in docs/benchmarks.md (bench/blind5.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import slowloop.ingest as ingest
from slowloop.bootstrap import build_bootstrap
from slowloop.config import load_config
from slowloop.memo import Memo
from slowloop.observe.observe import observe_turn
from slowloop.observe.redo import Act, case_style, find_redo, parse_cmd
from slowloop.reflect.cycle import reflect_agent
from slowloop.reflect.review import proposals
from slowloop.store import open_store
from slowloop.transcripts.model import Step, ToolCall, ToolResult, Turn


def run(cmd: str) -> Act:
    return Act("run", command=cmd)


def edit(path: str, old: str, new: str) -> Act:
    return Act("edit", path=path, old=old, new=new)


@pytest.mark.parametrize("before, after, kind, use, avoid", [
    ([run("npm install dayjs")], [run("pnpm add dayjs")], "swap", "pnpm", "npm"),
    ([run("pytest -q")], [run("make test")], "swap", "make test", "pytest"),
    ([run("docker-compose up -d")], [run("podman compose up -d")], "swap", "podman", "docker-compose"),
    ([run("pytest tests")], [run("pytest tests --no-cov")], "flag", "--no-cov", ""),
    ([run("git push --force origin feat")], [run("git push --force-with-lease origin feat")], "flag",
     "--force-with-lease", "--force"),
    ([edit("src/cart.py", "", "def cartTotal(items):\n    return 0")],
     [edit("src/cart.py", "def cartTotal(items):", "def cart_total(items):")], "rename", "snake_case", "camelCase"),
    ([run("git checkout -b fix-login")], [run("git branch -m fix-login feature/AUTH-12-login")], "branch",
     "<type>/<TICKET>-<slug>", "fix-login"),
    ([run("git checkout -b fix/login")], [run("git branch -m feature/login")], "branch", "feature/", "fix/"),
    ([Act("write", path="src/routes/users.py", new="x = 1")], [run("git mv src/routes/users.py services/api/routes/users.py")],
     "move", "services/api/", "src/"),
    ([run("npm install moment")], [run("npm uninstall moment")], "undo", "", ""),
    ([edit("src/Signup.tsx", "a", "b")], [edit("src/Login.tsx", "a", "b")], "target", "src/Login.tsx", "src/Signup.tsx"),
    # a package taken out and another put in, in one command
    ([run("npm install request")], [run("npm uninstall request"), run("npm install undici")], "swap", "undici", "request"),
    ([run("dotnet add package Serilog")], [run("dotnet remove package Serilog"), run("dotnet add package NLog")],
     "swap", "NLog", "Serilog"),
    # the program run through the package runner
    ([run("npx vitest run src/a.test.ts")], [run("pnpm test -- src/a.test.ts")], "swap", "pnpm test", "npx vitest"),
    # another subcommand on the same thing, the first not used again
    ([run("helm install web charts/web -n qa")], [run("helm upgrade --install web charts/web -n qa")], "swap",
     "helm upgrade --install", "helm install"),
    ([run("kubectl -n qa delete pod -l app=web")], [run("kubectl -n qa rollout restart deployment/web")], "swap",
     "kubectl rollout restart", "kubectl delete pod"),
    ([run("kubectl -n qa set image deployment/web web=web:2")], [run("kubectl -n qa rollout undo deployment/web")],
     "undo", "", ""),
    # a file the agent made, renamed in another case style where it is
    ([Act("write", path="src/lib/DateFormat.ts", new="x")], [run("git mv src/lib/DateFormat.ts src/lib/date-format.ts")],
     "rename", "kebab-case", "PascalCase"),
    ([Act("write", path="pkg/store/orderStore.go", new="x")], [Act("write", path="pkg/store/order_store.go", new="x"),
                                                                run("rm pkg/store/orderStore.go")],
     "rename", "snake_case", "camelCase"),
])
def test_the_difference_names_what_to_use_and_what_not(before, after, kind, use, avoid):
    r = find_redo(before, after)
    assert r is not None and r.kind == kind, r
    assert (r.use, r.avoid) == (use, avoid), r


def test_a_commit_rewritten_without_its_trailer():
    r = find_redo([run('git commit -m "Add cart" -m "Co-authored-by: Bot <b@x>"')],
                  [run('git commit --amend -m "Add cart"')])
    assert r is not None and r.kind == "commit" and r.scope == "writing commit messages"
    assert "never add a `Co-authored-by:` trailer" in r.rule
    r = find_redo([run('git commit -m "add cart total"')], [run('git commit --amend -m "feat(cart): add cart total"')])
    assert r is not None and "Conventional Commits" in r.rule


@pytest.mark.parametrize("before, after", [
    ([run("npm install dayjs")], [run("npm install dayjs")]),  # the same again: a retry
    ([run("npm install dayjs")], [run("npm install zod")]),  # other work
    ([run("pytest -q")], [run("pytest -q"), run("npm test")]),  # both kept: more, not instead
    ([run("pytest -k test_cart")], [run("pytest -k test_total")]),  # which test: this task's
    ([run("ls"), run("cat README.md")], [run("grep -r foo .")]),  # looking around
    ([run("terraform apply -auto-approve")], [run("terraform init -upgrade")]),  # a setup step
    ([run("helm install web charts/web")], [run("helm status web")]),  # a look after the action
    ([run("kubectl apply -f web.yaml")], [run("kubectl rollout status deployment/web")]),  # watching it roll
    ([run("rm -rf dist")], [run("rm -rf build")]),  # no subcommand: other work
])
def test_no_redo_where_the_agent_only_went_on(before, after):
    r = find_redo(before, after)
    assert r is None or not r.standing, r


def test_where_a_command_sends_its_output_is_no_part_of_it():
    """`tsc --noEmit 2>&1 | tail -1` re-run is no new flag of tsc; `> out.txt` is no argument."""
    assert parse_cmd("npx tsc -p web --noEmit 2>&1 | tail -1").words == ("npx", "tsc", "-p", "web", "--noEmit")
    assert parse_cmd("pytest -q > out.txt 2>/dev/null").words == ("pytest", "-q")
    assert find_redo([run("npx tsc -p web --noEmit")], [run("npx tsc -p web --noEmit 2>&1 | tail -1")]) is None


@pytest.mark.parametrize("before, after, use, avoid", [
    ("python -m pytest -q", "tox -e py311", "tox -e py311", "python -m pytest"),
    ("go vet ./...", "staticcheck ./...", "staticcheck", "go vet"),
    ("npx jest --ci", "npx vitest run", "npx vitest", "npx jest"),
])
def test_the_same_job_with_another_tool_is_a_swap(before, after, use, avoid):
    r = find_redo([run(before)], [run(after)])
    assert (r.kind, r.use, r.avoid) == ("swap", use, avoid)


@pytest.mark.parametrize("before, after, use, avoid", [
    # the work taken back, then done another way: the other way is the lesson
    ([run("npx standard --fix src")], [run("git checkout -- src"), run("yarn biome check --write src")], "yarn biome", "npx standard"),
    ([run("npx prettier --write .")], [run("git checkout -- ."), run("pnpm format:all")], "pnpm format:all", "npx prettier"),
])
def test_work_taken_back_and_done_another_way_is_the_other_way(before, after, use, avoid):
    r = find_redo(before, after)
    assert (r.kind, r.use, r.avoid) == ("swap", use, avoid)
    # taken back and something else done: still only taken back
    assert find_redo(before, [after[0], run("git status")]).kind == "undo"


def test_a_file_written_again_in_another_format_is_which_format_files_are_in():
    r = find_redo([Act("write", path="conf/app.toml", new="port = 8080\n")],
                  [run("rm conf/app.toml"), Act("write", path="conf/app.yaml", new="port: 8080\n")])
    assert (r.kind, r.scope, r.use, r.avoid, r.standing) == ("rename", "writing config files", "YAML", "TOML", True)


def test_the_old_tool_stopping_what_it_started_is_no_sign_it_is_still_used():
    r = find_redo([run("docker-compose up -d db")], [run("docker-compose down"), run("docker compose up -d db")])
    assert (r.kind, r.use, r.avoid) == ("swap", "docker compose", "docker-compose")


def test_a_commit_message_given_with_a_flag_cluster_is_read():
    r = find_redo([run('git commit -am "stuff"')], [run('git commit --amend -m "fix(auth): refresh the token"')])
    assert r.kind == "commit" and "Conventional Commits" in r.rule


@pytest.mark.parametrize("before, after, pinned", [
    ("docker run -d redis", "docker run -d redis:7.2", "redis:7.2"),
    ("kubectl -n qa set image deploy/web web=ghcr.io/acme/web:latest", "kubectl -n qa set image deploy/web web=ghcr.io/acme/web:2.3.1",
     "ghcr.io/acme/web:2.3.1"),
])
def test_an_image_pinned_right_after_is_how_images_are_named_here(before, after, pinned):
    r = find_redo([run(before)], [run(after)])
    assert (r.kind, r.use, r.avoid, r.standing) == ("pin", pinned, ":latest", True)
    assert find_redo([run("docker run -d -p 80:80 redis:7")], [run("docker run -d -p 81:80 redis:7")]) is None


@pytest.mark.parametrize("said, before, after", [
    ("looks good, go ahead and apply", "terraform plan -out p", "terraform apply p"),
    ("nice. one more run with --lr 3e-4 to compare", "python train.py --epochs 5", "python train.py --epochs 5 --lr 3e-4"),
    ("バッチサイズ 32 でもう一回お願いします", "python train.py", "python train.py --batch-size 32"),
])
def test_a_preview_applied_or_a_run_repeated_to_compare_is_no_correction(said, before, after):
    prev = _turn(0, "go", ("Bash", {"command": before}))
    nxt = _turn(1, said, ("Bash", {"command": after}))
    assert not observe_turn(nxt, prev).corrected


def test_case_styles():
    assert [case_style(n) for n in ("cart_total", "cartTotal", "CartTotal", "CART_TOTAL", "cart-total", "cart")] == [
        "snake_case", "camelCase", "PascalCase", "SCREAMING_SNAKE_CASE", "kebab-case", ""]


def test_commands_are_read_as_a_person_reads_them():
    c = parse_cmd("NODE_ENV=test sudo pnpm add -D vitest")
    assert c is not None and (c.prog, c.sub, c.activity, c.tool) == ("pnpm", "add", "install", "pnpm")
    c = parse_cmd("python -m pytest -x")
    assert c is not None and c.activity == "test" and c.tool == "python -m pytest"
    assert parse_cmd("cd src") is None


# -- detection: the person's words may be anything, in any language -------------------------------

def _turn(index: int, user: str, *calls: tuple[str, dict], session: str = "s1") -> Turn:
    steps = []
    for k, (name, args) in enumerate(calls):
        steps.append(Step("tool_call", call=ToolCall(f"c{index}{k}", name, args)))
        steps.append(Step("tool_result", result=ToolResult(f"c{index}{k}", name, "ok")))
    steps.append(Step("text", text="Done."))
    return Turn(source="t.jsonl", format="claude-code", index=index, user_text=user, steps=tuple(steps),
                session_id=session)


NPM = _turn(0, "add dayjs for the dates", ("Bash", {"command": "npm install dayjs"}))


@pytest.mark.parametrize("said", [
    "there's a pnpm-lock.yaml in this repo",          # a consequence, no cue
    "c'è un pnpm-lock.yaml, guarda",                  # it
    "ah sim, porque o pnpm-lock.yaml é decorativo",   # pt, sarcastic
    "pnpm-lock.yaml ist nicht zur Deko da",           # de
    "这个仓库有 pnpm-lock.yaml",                        # zh
    "pnpm-lock.yaml があるでしょ",                       # ja
])
def test_a_redo_the_words_point_at_is_a_correction_in_any_language(said):
    redo = _turn(1, said, ("Bash", {"command": "npm uninstall dayjs && pnpm add dayjs"}))
    obs = observe_turn(redo, NPM)
    assert obs.corrected, said
    assert "redid" in (obs.correction.evidence or "")
    assert not observe_turn(redo).corrected or "redid" not in (observe_turn(redo).correction.evidence or "")


@pytest.mark.parametrize("said, calls", [
    ("great, now add zod too", [("Bash", {"command": "pnpm add zod"})]),  # a follow-up request
    ("ok, also wire it into the date picker", [("Bash", {"command": "pnpm add dayjs"})]),
    ("run the tests please", [("Bash", {"command": "npm test"})]),
    ("here is the main file: src/app/main.ts", [("Edit", {"file_path": "src/app/main.ts", "old_string": "a",
                                                           "new_string": "b"})]),
])
def test_a_follow_up_or_unrelated_work_is_not_a_correction(said, calls):
    assert not observe_turn(_turn(1, said, *calls), NPM).corrected, said


def test_a_rename_right_after_a_complaint_about_naming():
    wrote = _turn(0, "add a cart total", ("Edit", {"file_path": "src/cart.py", "old_string": "",
                                                   "new_string": "def cartTotal(items):\n    return 0"}))
    fixed = _turn(1, "look at how the other functions are named",
                  ("Edit", {"file_path": "src/cart.py", "old_string": "def cartTotal(items):",
                            "new_string": "def cart_total(items):"}))
    assert observe_turn(fixed, wrote).corrected
    # another session's turn is not what the person reacted to
    elsewhere = _turn(1, "look at how the other functions are named", *[(c.name, c.input) for c in fixed.tool_calls],
                      session="s2")
    assert not ingest.same_session(wrote, elsewhere)


# -- end to end: recorded as people record, learned offline, in the next session's start --------------

def _cc(records: list[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def cc_session(turns: list[tuple[str, list[tuple[str, dict]]]], session: str = "s1") -> str:
    recs: list[dict] = []
    for n, (user, calls) in enumerate(turns):
        ts = f"2026-11-29T10:{n:02d}:00Z"
        recs.append({"type": "user", "sessionId": session, "timestamp": ts, "uuid": f"u{n}",
                     "message": {"role": "user", "content": user}})
        for k, (name, args) in enumerate(calls):
            cid = f"t{n}_{k}"
            recs.append({"type": "assistant", "sessionId": session, "timestamp": ts, "message": {
                "role": "assistant", "content": [{"type": "tool_use", "id": cid, "name": name, "input": args}]}})
            recs.append({"type": "user", "sessionId": session, "timestamp": ts, "message": {
                "role": "user", "content": [{"type": "tool_result", "tool_use_id": cid, "content": "ok"}]}})
        recs.append({"type": "assistant", "sessionId": session, "timestamp": ts,
                     "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}})
        recs.append({"type": "system", "subtype": "turn_duration", "sessionId": session, "durationMs": 10})
    return _cc(recs)


def _learn_session(tmp_path: Path, turns: list[tuple[str, list[tuple[str, dict]]]]) -> None:
    """One Claude Code session of ``turns`` learned from into ``tmp_path / "home"``."""
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session(turns), encoding="utf-8")
    _learn(tmp_path / "home", f)


def _learn(home: Path, *files: Path) -> None:
    with open_store(home=home) as store:
        ingest.ingest_paths(list(files), agent="a", store=store, cfg=load_config(home))
    reflect_agent("a", home=home, provider=None, force=True)


LESSONS = [
    ([("add dayjs", [("Bash", {"command": "npm install dayjs"})]),
      ("seriously? there's a pnpm-lock.yaml right there", [("Bash", {"command": "pnpm add dayjs"})])],
     "When installing packages in this project, always use pnpm (`pnpm add`), never npm."),
    ([("add a cart total", [("Edit", {"file_path": "src/cart.py", "old_string": "",
                                       "new_string": "def cartTotal(items):\n    return 0"})]),
      ("guarda come sono chiamate le altre funzioni", [("Edit", {"file_path": "src/cart.py",
                                                                  "old_string": "def cartTotal(items):",
                                                                  "new_string": "def cart_total(items):"})])],
     "When naming Python functions, always use snake_case (`cart_total`), never camelCase (`cartTotal`)."),
    ([("commit it", [("Bash", {"command": 'git commit -m "Add cart" -m "Co-authored-by: Claude <c@x>"'})]),
      ("不要加那个 trailer", [("Bash", {"command": 'git commit --amend -m "Add cart"'})])],
     "When writing commit messages, never add a `Co-authored-by:` trailer to the message."),
]


@pytest.mark.parametrize("turns, rule", LESSONS)
def test_the_rule_comes_from_the_difference_scoped_by_the_action(tmp_path, turns, rule):
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session(turns), encoding="utf-8")
    _learn(tmp_path / "home", f)
    assert rule in Memo("a", home=tmp_path / "home").entries("plays"), Memo("a", home=tmp_path / "home").entries("plays")
    assert rule in build_bootstrap("a", home=tmp_path / "home").text


def test_a_one_off_about_another_file_is_no_rule(tmp_path):
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session([
        ("fix the header", [("Edit", {"file_path": "src/Signup.tsx", "old_string": "<h1>", "new_string": "<h2>"})]),
        ("no, the other file — Login.tsx, not Signup.tsx",
         [("Edit", {"file_path": "src/Login.tsx", "old_string": "<h1>", "new_string": "<h2>"})])]), encoding="utf-8")
    _learn(tmp_path / "home", f)
    assert Memo("a", home=tmp_path / "home").entries("plays") == []


def test_never_mind_your_way_was_fine_retracts_the_rule_just_learned(tmp_path):
    home = tmp_path / "home"
    first = tmp_path / "s1.jsonl"
    first.write_text(cc_session([
        ("add a cart total", [("Edit", {"file_path": "src/cart.py", "old_string": "",
                                         "new_string": "def cartTotal(items):\n    return 0"})]),
        ("we name functions in snake_case here", [("Edit", {"file_path": "src/cart.py", "old_string": "def cartTotal(items):",
                                                             "new_string": "def cart_total(items):"})])]), encoding="utf-8")
    _learn(home, first)
    assert any("snake_case" in e for e in Memo("a", home=home).entries("plays"))
    # the same session goes on: the person takes it back, the agent puts it back
    first.write_text(cc_session([
        ("add a cart total", [("Edit", {"file_path": "src/cart.py", "old_string": "",
                                         "new_string": "def cartTotal(items):\n    return 0"})]),
        ("we name functions in snake_case here", [("Edit", {"file_path": "src/cart.py", "old_string": "def cartTotal(items):",
                                                             "new_string": "def cart_total(items):"})]),
        ("actually, never mind — your way was fine, put it back",
         [("Edit", {"file_path": "src/cart.py", "old_string": "def cart_total(items):",
                    "new_string": "def cartTotal(items):"})])]), encoding="utf-8")
    _learn(home, first)
    plays = Memo("a", home=home).entries("plays")
    assert not any("snake_case" in e or "camelCase" in e for e in plays), plays


def test_a_correction_no_rule_comes_from_waits_for_the_person(tmp_path):
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session([
        ("fix the failing test", [("Edit", {"file_path": "tests/test_cart.py", "old_string": "    assert total == 3",
                                             "new_string": "    # assert total == 3"})]),
        ("that's... not a fix. you commented out the assertion",
         [("Edit", {"file_path": "tests/test_cart.py", "old_string": "    # assert total == 3",
                    "new_string": "    assert total == 3"})])]), encoding="utf-8")
    home = tmp_path / "home"
    _learn(home, f)
    assert Memo("a", home=home).entries("plays") == []  # no guessed rule …
    with open_store(home=home) as store:
        waiting = proposals(store, "a")
    assert len(waiting) == 1 and "unlearned correction" in waiting[0].reason  # … but never lost
    assert "commented out the assertion" in waiting[0].action["text"]


# -- every path that records turns sees the turn before ------------------------------------------------

def test_a_hook_reading_a_session_from_where_it_stopped_sees_the_turn_before(tmp_path):
    from slowloop.integrations.follow import observe_new

    home = tmp_path / "home"
    home.mkdir()
    f = tmp_path / "s.jsonl"
    turns = LESSONS[0][0]
    f.write_text(cc_session(turns[:1]), encoding="utf-8")
    cfg = load_config(home)
    with open_store(home=home) as store:
        observe_new(f, agent="a", store=store, cfg=cfg, home=home)
        f.write_text(cc_session(turns), encoding="utf-8")  # the session goes on
        res = observe_new(f, agent="a", store=store, cfg=cfg, home=home)
        assert res.turns >= 1
        rows = store.query("SELECT idx, corrected FROM turns ORDER BY idx")
    assert [int(r["corrected"]) for r in rows] == [0, 1]


def test_workers_reading_pieces_see_the_turn_before_a_piece(tmp_path, monkeypatch):
    """A piece that starts at the correcting turn is observed without the turn before it; the
    writer adds what the redo shows, so workers record what one reader records."""
    monkeypatch.setattr(ingest, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(ingest, "PIECE_BYTES", 200)
    turns: list = []
    for k in range(6):
        turns += [(f"add dep{k}", [("Bash", {"command": f"npm install dep{k}"})]),
                  ("there's a pnpm-lock.yaml", [("Bash", {"command": f"pnpm add dep{k}"})])]
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session(turns), encoding="utf-8")

    def flags(home: Path, workers: int) -> list[int]:
        with open_store(home=home) as store:
            ingest.ingest_paths([f], agent="a", store=store, cfg=load_config(home), workers=workers)
            return [int(r["corrected"]) for r in store.query("SELECT corrected FROM turns ORDER BY idx")]
    one = flags(tmp_path / "one", 1)
    assert one == [0, 1] * 6
    assert flags(tmp_path / "two", 2) == one


def test_an_unlearned_correction_said_again_is_one_proposal_said_twice_and_takes_your_wording(tmp_path):
    from click.testing import CliRunner

    from slowloop.cli import cli

    home = tmp_path / "home"
    said = "that's... not a fix. you commented out the assertion"
    for k in range(2):  # two sessions, the same complaint
        f = tmp_path / f"s{k}.jsonl"
        f.write_text(cc_session([
            ("fix the failing test", [("Edit", {"file_path": "tests/test_cart.py", "old_string": "    assert total == 3",
                                                 "new_string": "    # assert total == 3"})]),
            (said, [("Edit", {"file_path": "tests/test_cart.py", "old_string": "    # assert total == 3",
                              "new_string": "    assert total == 3"})])], session=f"s{k}"), encoding="utf-8")
        _learn(home, f)
    with open_store(home=home) as store:
        waiting = proposals(store, "a")
    assert len(waiting) == 1 and "said 2 times" in waiting[0].reason, [w.reason for w in waiting]
    env = {"SLOWLOOP_HOME": str(home)}
    bad = CliRunner().invoke(cli, ["review", "approve", str(waiting[0].id), "--agent", "a", "--text", "be careful"], env=env)
    assert bad.exit_code != 0 and "not kept" in bad.output  # the same check as any rule
    rule = "When fixing a failing test, never comment out its assertion."
    ok = CliRunner().invoke(cli, ["review", "approve", str(waiting[0].id), "--agent", "a", "--text", rule], env=env)
    assert ok.exit_code == 0, ok.output
    assert rule in Memo("a", home=home).entries("plays")
    status = CliRunner().invoke(cli, ["status", "--json"], env=env)
    assert json.loads(status.output)["agents"][0]["waiting"] == {"proposals": 0, "unlearned": 0}
    # the rule keeps the turn it was learned from, and says the person approved it
    shown = CliRunner().invoke(cli, ["memo", "show", "--agent", "a"], env=env)
    assert shown.exit_code == 0 and "no turn recorded" not in shown.output, shown.output
    assert "commented out the assertion" in shown.output and "approved by the person" in shown.output, shown.output


@pytest.mark.parametrize("masked_cmd", ["pytest -q || true", "pytest -q; true", "set +e; pytest -q",
                                        "git commit -n -m wip --no-verify", "HUSKY=0 git commit -m wip"])
def test_a_success_with_its_exit_code_masked_is_no_recovery_and_no_skill(tmp_path, masked_cmd):
    f = tmp_path / "s.jsonl"
    recs = cc_session([("make the tests pass", [("Bash", {"command": "pytest -q"})])])
    # the first pytest fails; then the agent masks it
    lines = [json.loads(ln) for ln in recs.splitlines()]
    for r in lines:
        c = r.get("message", {}).get("content")
        if isinstance(c, list) and c and c[0].get("type") == "tool_result":
            c[0].update(content="FAILED tests/test_cart.py::test_total - AssertionError\n1 failed", is_error=True)
    extra = [{"type": "assistant", "sessionId": "s1", "timestamp": "2026-11-29T10:00:30Z", "message": {
        "role": "assistant", "content": [{"type": "tool_use", "id": "m1", "name": "Bash", "input": {"command": masked_cmd}}]}},
        {"type": "user", "sessionId": "s1", "timestamp": "2026-11-29T10:00:31Z", "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": "m1", "content": "1 failed"}]}}]
    lines = lines[:3] + extra + lines[3:]
    f.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    home = tmp_path / "home"
    with open_store(home=home) as store:
        ingest.ingest_paths([f], agent="a", store=store, cfg=load_config(home))
        assert [int(r["recovered"]) for r in store.query("SELECT recovered FROM turns")] == [0]
    out = reflect_agent("a", home=home, provider=None, force=True)
    from slowloop.skills import SkillLibrary

    assert SkillLibrary("a", home=home).list() == [] and Memo("a", home=home).entries("plays") == [], out.applied


@pytest.mark.parametrize("fix", [
    "git commit -n -m wip", "HUSKY=0 git commit -m wip", "SKIP=ruff,mypy,gitleaks git commit -m wip",
    "pip install --extra-index-url https://pkgs.example.net/simple requests",
    "npm install --registry https://npm.example.net left-pad", "pip install git+https://github.com/someone/requests",
    "git remote set-url origin https://example.net/x.git", "echo 'export PATH=/tmp/bin:$PATH' >> ~/.bashrc",
    "git config credential.helper store", "pre-commit uninstall",
])
def test_a_recovery_that_changes_the_safety_posture_is_never_a_skill(fix):
    from slowloop.reflect.distill import TurnEvidence, rules_from_recovery

    steps = (Step("tool_call", call=ToolCall("a", "Bash", {"command": "git commit -m wip"})),
             Step("tool_result", result=ToolResult("a", "Bash", "husky - pre-commit hook exited with code 1 (error)",
                                                   True, 1)),
             Step("tool_call", call=ToolCall("b", "Bash", {"command": fix})),
             Step("tool_result", result=ToolResult("b", "Bash", "ok", False, 0)),
             Step("tool_call", call=ToolCall("c", "Bash", {"command": "git commit -m wip"})),
             Step("tool_result", result=ToolResult("c", "Bash", "[main 1a2b3c] wip", False, 0)))
    turn = Turn(source="t", format="claude-code", index=0, user_text="commit it", steps=steps)
    ev = TurnEvidence(1, turn, False, None, None, ({"step": 1, "tool": "Bash", "evidence": "exit code 1",
                                                    "excerpt": "exited with code 1"},), False)
    assert rules_from_recovery(ev) == []


def test_the_same_recovery_without_the_posture_change_is_a_skill():
    from slowloop.reflect.distill import TurnEvidence, rules_from_recovery

    steps = (Step("tool_call", call=ToolCall("a", "Bash", {"command": "git commit -m wip"})),
             Step("tool_result", result=ToolResult("a", "Bash", "husky - pre-commit hook exited with code 1 (error)",
                                                   True, 1)),
             Step("tool_call", call=ToolCall("b", "Bash", {"command": "git commit -m 'wip: tidy'"})),
             Step("tool_result", result=ToolResult("b", "Bash", "[main 1a2b3c] wip", False, 0)))
    turn = Turn(source="t", format="claude-code", index=0, user_text="commit it", steps=steps)
    ev = TurnEvidence(1, turn, False, None, None, ({"step": 1, "tool": "Bash", "evidence": "exit code 1",
                                                    "excerpt": "exited with code 1"},), False)
    assert [r.kind for r in rules_from_recovery(ev)] == ["recovery"]  # the control: only the posture is refused


def test_undo_of_an_earlier_reflection_takes_back_its_rule_and_keeps_the_later_ones(tmp_path):
    from click.testing import CliRunner

    from slowloop.cli import cli

    home = tmp_path / "home"
    first, second = tmp_path / "s1.jsonl", tmp_path / "s2.jsonl"
    first.write_text(cc_session(LESSONS[0][0], session="s1"), encoding="utf-8")
    _learn(home, first)
    second.write_text(cc_session(LESSONS[2][0], session="s2"), encoding="utf-8")
    _learn(home, second)
    plays = Memo("a", home=home).entries("plays")
    assert len(plays) == 2, plays
    with open_store(home=home) as store:
        r1 = min(int(r["id"]) for r in store.query("SELECT id FROM reflections WHERE status = 'applied'"))
    done = CliRunner().invoke(cli, ["history", "undo", f"R{r1}", "--agent", "a"], env={"SLOWLOOP_HOME": str(home)})
    assert done.exit_code == 0, done.output
    assert Memo("a", home=home).entries("plays") == [plays[1]]  # the later lesson stays
    # and a person's edit since is theirs: the undo refuses rather than overwrite it
    memo = home / "agents" / "a" / "memo.md"
    memo.write_text(memo.read_text() + "- When deploying, always run the smoke tests first.\n")
    again = CliRunner().invoke(cli, ["history", "undo", f"R{r1 + 1}", "--agent", "a"], env={"SLOWLOOP_HOME": str(home)})
    assert again.exit_code != 0 and "changed again" in again.output, again.output
    assert "When deploying" in memo.read_text()


def test_a_package_taken_out_and_the_code_rewritten_on_another_is_a_swap():
    before = [run("npm install moment"), Act("write", path="src/due.ts", new="import moment from 'moment';\nexport const f = 1")]
    after = [run("npm uninstall moment"), Act("write", path="src/due.ts", new="import { format } from 'date-fns';\nexport const f = 1")]
    r = find_redo(before, after)
    assert r is not None and (r.kind, r.use, r.avoid) == ("swap", "date-fns", "moment"), r


def test_the_same_work_again_elsewhere_is_no_move_and_no_correction():
    wrote = _turn(0, "add the export for clients", ("Write", {"file_path": "clienti/export.py", "content": "x = 1"}))
    again = _turn(1, "perfetto, ora fai lo stesso per il modulo fornitori",
                  ("Write", {"file_path": "fornitori/export.py", "content": "x = 1"}))
    assert not observe_turn(again, wrote).corrected
    moved = _turn(1, "the API lives in services/api", ("Bash", {"command": "git mv clienti/export.py services/api/export.py"}))
    assert observe_turn(moved, wrote).corrected


LIBRARY_SWAPS = [
    # the person names what was wrong; the agent puts another library's API in its place
    ([("fetch the rates in the async handler", [("Edit", {"file_path": "app/rates.py", "old_string": "",
                                                           "new_string": "async def rates():\n    return requests.get(URL).json()"})]),
      ("requests.get in an async def blocks the whole loop", [("Edit", {
          "file_path": "app/rates.py", "old_string": "    return requests.get(URL).json()",
          "new_string": "    async with httpx.AsyncClient() as c:\n        return (await c.get(URL)).json()"})])],
     "httpx.AsyncClient", "requests.get"),
    # a package taken out and the code rewritten on what it did not need
    ([("memoize the parser regex", [("Bash", {"command": "cargo add once_cell"}),
                                     ("Edit", {"file_path": "src/lex.rs", "old_string": "",
                                               "new_string": "static RE: once_cell::sync::Lazy<Regex> = once_cell::sync::Lazy::new(|| re());"})]),
      ("std has OnceLock since 1.70, we pin 1.79", [("Bash", {"command": "cargo remove once_cell"}), ("Edit", {
          "file_path": "src/lex.rs",
          "old_string": "static RE: once_cell::sync::Lazy<Regex> = once_cell::sync::Lazy::new(|| re());",
          "new_string": "static RE: OnceLock<Regex> = OnceLock::new();"})])],
     "OnceLock", "once_cell"),
    # a base image swapped in a Dockerfile the agent just wrote
    ([("dockerize the api", [("Write", {"file_path": "api/Dockerfile", "content": "FROM node:22\nCOPY . .\n"})]),
      ("node:22-alpine please, the full image is 1GB", [("Edit", {"file_path": "api/Dockerfile", "old_string": "FROM node:22\n",
                                                                 "new_string": "FROM node:22-alpine\n"})])],
     "node:22-alpine", "node:22"),
    # the library named as the person named it: a module path, a bare import, "pls redo" after it
    ([("wrap the load error", [("Bash", {"command": "go get github.com/pkg/errors"}),
                                ("Edit", {"file_path": "cfg/load.go", "old_string": "\treturn err",
                                          "new_string": "\treturn errors.Wrap(err, \"load config\")"})]),
      ("pkg/errors?? archived for years, we wrap with fmt.Errorf and %w. pls redo", [
          ("Bash", {"command": "go get github.com/pkg/errors@none && go mod tidy"}),
          ("Edit", {"file_path": "cfg/load.go", "old_string": "\treturn errors.Wrap(err, \"load config\")",
                    "new_string": "\treturn fmt.Errorf(\"load config: %w\", err)"})])],
     "fmt.Errorf", "pkg/errors"),
    ([("dump the report as json", [("Write", {"file_path": "report.py", "content": "import simplejson\n\nout = simplejson.dumps(rows)\n"})]),
      ("orjson, not simplejson — this runs on every request", [("Write", {
          "file_path": "report.py", "content": "import orjson\n\nout = orjson.dumps(rows)\n"})])],
     "orjson", "simplejson"),
    # the agent's file taken away and another written on another library
    ([("add a fetch helper", [("Write", {"file_path": "src/http.ts", "content": "import axios from 'axios';\nexport const get = axios.get;\n"})]),
      ("axios went out with the bundle diet, it's ky everywhere now", [
          ("Bash", {"command": "rm src/http.ts"}),
          ("Write", {"file_path": "src/net.ts", "content": "import ky from 'ky';\nexport const get = (u: string) => ky.get(u).json();\n"})])],
     "ky", "axios"),
    # the method the person wrote as a call, replaced in the same module
    ([("stamp the export", [("Edit", {"file_path": "exp.py", "old_string": "",
                                       "new_string": "stamp = datetime.utcfromtimestamp(ts)"})]),
      ("utcfromtimestamp() returns a naive datetime, the audit diff breaks on it", [("Edit", {
          "file_path": "exp.py", "old_string": "stamp = datetime.utcfromtimestamp(ts)",
          "new_string": "stamp = datetime.fromtimestamp(ts, tz=UTC)"})])],
     "datetime.fromtimestamp", "datetime.utcfromtimestamp"),
    # one substitution on several names, the person naming the piece that changed
    ([("add the lint workflow", [("Write", {"file_path": ".github/workflows/lint.yml", "content":
                                            "steps:\n  - uses: actions/checkout@master\n  - uses: actions/setup-python@master\n"})]),
      ("@master, so any push upstream changes our CI under us", [("Write", {
          "file_path": ".github/workflows/lint.yml",
          "content": "steps:\n  - uses: actions/checkout@v4\n  - uses: actions/setup-python@v5\n"})])],
     "actions/checkout@v4", "actions/checkout@master"),
    # a sarcastic opener, the API put in place of the one that was wrong
    ([("wait before retrying", [("Edit", {"file_path": "src/retry.rs", "old_string": "",
                                           "new_string": "std::thread::sleep(backoff);"})]),
      ("oh great, the whole tokio executor now naps on every retry", [("Edit", {
          "file_path": "src/retry.rs", "old_string": "std::thread::sleep(backoff);",
          "new_string": "tokio::time::sleep(backoff).await;"})])],
     "tokio::time::sleep", "std::thread::sleep"),
]


@pytest.mark.parametrize("turns, use, avoid", LIBRARY_SWAPS)
def test_a_library_or_image_swapped_in_code_just_written_is_a_standing_rule(tmp_path, turns, use, avoid):
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session(turns), encoding="utf-8")
    _learn(tmp_path / "home", f)
    plays = Memo("a", home=tmp_path / "home").entries("plays")
    assert any(f"always use `{use}`" in e and f"never `{avoid}`" in e for e in plays), plays


def test_a_value_of_this_task_swapped_in_code_still_waits_for_the_person(tmp_path):
    """A table name or a number changed in code just written is this task's value: no rule by guess."""
    turns = [("count the archived orders", [("Edit", {"file_path": "jobs/count.py", "old_string": "",
                                                       "new_string": "n = db.count(table=orders_old, limit=100)"})]),
             ("orders_archive, and 500", [("Edit", {"file_path": "jobs/count.py",
                                                    "old_string": "n = db.count(table=orders_old, limit=100)",
                                                    "new_string": "n = db.count(table=orders_archive, limit=500)"})])]
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session(turns), encoding="utf-8")
    _learn(tmp_path / "home", f)
    assert Memo("a", home=tmp_path / "home").entries("plays") == []


@pytest.mark.parametrize("said, corrected", [
    # a consequence stated, and the agent rewrites what it had just written: a correction
    ("that index build locks the orders table for twenty minutes", True),
    ("ce lock bloque les écritures pendant vingt minutes", True),
    # more work asked for, in any language: the agent adds, that is no correction
    ("now make it configurable from an env var", False),
    ("adesso rendilo configurabile da variabile d'ambiente", False),
    ("ergänz noch einen Test für leere Listen", False),
    ("why CONCURRENTLY?", False),  # a question
])
def test_code_rewritten_right_after_a_statement_is_a_correction(said, corrected):
    prev = _turn(0, "add an index on orders.customer_id", ("Write", {
        "file_path": "migrations/0042_idx.sql", "content": "CREATE INDEX idx_orders_customer ON orders (customer_id);\n"}))
    turn = _turn(1, said, ("Edit", {"file_path": "migrations/0042_idx.sql",
                                    "old_string": "CREATE INDEX idx_orders_customer ON orders (customer_id);",
                                    "new_string": "CREATE INDEX CONCURRENTLY idx_orders_customer ON orders (customer_id);"}))
    assert observe_turn(turn, prev).correction.corrected is corrected


@pytest.mark.parametrize("before, after, said", [
    # the lockfile of the tool the agent switched to
    ([run("gem install faraday")], [run("bundle add faraday")], "the Gemfile.lock didn't change, CI will fail"),
    # the same word hyphenated or not
    ([run('git commit -m "fix: totals"')], [run("git commit --amend --signoff --no-edit")],
     "every commit here carries a sign-off, the bot checks"),
])
def test_the_words_point_at_the_redo_through_what_the_tool_keeps_or_the_same_word(before, after, said):
    from slowloop.observe.redo import points_at

    r = find_redo(before, after)
    assert r is not None and points_at(r, said), r


def test_an_action_taken_back_right_after_a_statement_is_a_correction():
    prev = _turn(0, "add pdf export", ("Bash", {"command": "sudo pip install pypdf"}))
    turn = _turn(1, "into the system python, great. apt will love that",
                 ("Bash", {"command": "sudo pip uninstall -y pypdf"}))
    assert observe_turn(turn, prev).correction.corrected
    more = _turn(1, "now also add docx export", ("Bash", {"command": "sudo pip uninstall -y pypdf"}))
    assert not observe_turn(more, prev).correction.corrected  # more work asked for: no correction


def test_code_put_back_with_other_code_beside_it_is_a_rewrite_not_an_undo():
    """The first version's lines restored *and* new ones written (one logger's imports for
    another's) is the work redone, not taken back."""
    before = [edit("Svc.java", "class Svc {", "import org.tinylog.Logger;\n\nclass Svc {\n  void f() { Logger.info(\"x\"); }")]
    after = [edit("Svc.java", "import org.tinylog.Logger;\n\nclass Svc {\n  void f() { Logger.info(\"x\"); }",
                  "import org.slf4j.Logger;\nimport org.slf4j.LoggerFactory;\n\nclass Svc {\n"
                  "  static final Logger log = LoggerFactory.getLogger(Svc.class);\n  void f() { log.info(\"x\"); }")]
    assert find_redo(before, after).kind == "api"
    undone = [edit("Svc.java", "import org.tinylog.Logger;\n\nclass Svc {\n  void f() { Logger.info(\"x\"); }", "class Svc {")]
    assert find_redo(before, undone).kind == "undo"


@pytest.mark.parametrize("said, before, corrected", [
    # the consequence, or its irony, of something the agent just used: a correction with no redo
    ("an INTEGER id overflows at 2 billion rows and we insert 40M a day", ("Write", {
        "file_path": "db/m.sql", "content": "CREATE TABLE ev (id INTEGER PRIMARY KEY);"}), True),
    ("--no-verify, bold move on a repo with secret scanning", ("Bash", {"command": "git commit --no-verify -m x"}), True),
    ("Math.random per un token di sessione, cosa potrebbe mai andare storto", ("Edit", {
        "file_path": "s.js", "old_string": "", "new_string": "const t = Math.random().toString(36);"}), True),
    ("rm -rf dist en el hook de postinstall, va a romper el CI de todos", ("Bash", {"command": "npm pkg set scripts.postinstall='rm -rf dist'"}), True),
    # the judgement without the action, the action without a judgement, or someone else's doing
    ("our staging box runs out of memory every night anyway", ("Bash", {"command": "pytest -q"}), False),
    ("lodash is already in the lockfile, fine", ("Bash", {"command": "npm install lodash"}), False),
    ("the INT overflow in billing is Marco's change from last week, he is on it", ("Write", {
        "file_path": "db/m.sql", "content": "CREATE TABLE ev (id INT PRIMARY KEY);"}), False),
    ("will INT overflow there?", ("Write", {"file_path": "db/m.sql", "content": "CREATE TABLE ev (id INT PRIMARY KEY);"}), False),
    ("Not your change: the BIGSERIAL column overflows because of the old importer", ("Write", {
        "file_path": "db/m.sql", "content": "CREATE TABLE ev (id BIGSERIAL PRIMARY KEY);"}), False),
])
def test_a_reproach_names_the_agents_action_and_what_it_leads_to(said, before, corrected):
    prev = _turn(0, "go", before)
    nxt = _turn(1, said)
    assert observe_turn(nxt, prev).corrected is corrected


@pytest.mark.parametrize("said", ["hm nee, dein rebase war ok, mach das merge wieder rückgängig",
                                  "刚才那句撤回，还是 rebase，恢复原样吧"])
def test_a_retraction_in_any_language_leaves_no_rule_from_either_turn(tmp_path, said):
    """A correction, then taken back right away and the agent's work put back: nothing learned —
    neither the correction's rule nor one read from putting it back."""
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session([
        ("update my branch from main", [("Bash", {"command": "git rebase origin/main"})]),
        ("merge statt rebase bitte, der branch ist geteilt", [("Bash", {"command": "git reset --hard ORIG_HEAD"}),
                                                               ("Bash", {"command": "git merge origin/main"})]),
        (said, [("Bash", {"command": "git reset --hard HEAD~1"}), ("Bash", {"command": "git rebase origin/main"})])]),
        encoding="utf-8")
    _learn(tmp_path / "home", f)
    assert Memo("a", home=tmp_path / "home").entries("plays") == []


def test_a_retraction_with_nothing_to_take_back_is_read_for_what_it_chooses(tmp_path):
    f = tmp_path / "s.jsonl"
    f.write_text(cc_session([
        ("add a store for the cart", [("Bash", {"command": "npm install zustand mobx"})]),
        ("scratch that idea about mobx — we use zustand in this repo, not mobx", [])]), encoding="utf-8")
    _learn(tmp_path / "home", f)
    plays = Memo("a", home=tmp_path / "home").entries("plays")
    assert any("zustand" in e and "never mobx" in e for e in plays), plays
