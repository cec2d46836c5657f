"""A week in the real Claude Code: lessons taught as people teach them, learned by the default setup.

    python bench/week.py            # the summary and every lesson that went wrong
    python bench/week.py --verbose  # and the final session's start, as the model received it

`slowloop hooks install claude-code --project` in a throw-away git project and home, the default
configuration (offline learner, the default cooldown, automatic reflection), then the real `claude`
CLI (npm `@anthropic-ai/claude-code`, found as tests/test_real_clients.py finds it) against a
scripted model on 127.0.0.1 (tests/agent_server.py). Each lesson is one session: the agent makes
its habitual mistake with real tools (programs on PATH that answer like npm, pytest… do; real git),
the person reacts the way people do — often without a "no" — and the agent redoes the work. Nothing
is run by hand between sessions. A last session starts the next day: its first model request is
what the agent knows.

Reported: lessons whose rule reached that first request (the literal to use, and the one to avoid
named as such); junk (a rule no lesson taught, or one from a session that must teach nothing);
stale (an older choice still recommended after a change of mind); seconds from the correcting turn
to the rule being in the bootstrap.

Then the next week: each lesson's task comes back in a session of its own; the scripted model does
it the right way when a rule in its request names what to use (or names the mistake as what not to
do), else by its habit. slowloop judges every recorded turn against every rule it keeps (no model)
and `slowloop status --json` gives the repeated-mistake rate: the mistakes made in the situations
each rule is about, before it existed and after.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from agent_server import Reply, ScriptedModel, ends_with_tool_result, last_user_text  # noqa: E402

from slowloop.memo import Memo  # noqa: E402


@dataclass
class Lesson:
    name: str
    task: str
    mistake: tuple[str, dict]  # (tool, input) the agent's habit
    said: str  # the person's reaction
    redo: tuple[str, dict] | None  # what the agent does then
    use: str = ""  # the literal a correct rule names to use …
    avoid: str = ""  # … and not to use
    stale: str = ""  # a change of mind: what no rule may still recommend
    teaches: bool = True  # False: nothing standing may come of it
    right: tuple[str, dict] | None = None  # the right way next week, when the agent redid nothing then


def _bash(cmd: str) -> tuple[str, dict]:
    return ("Bash", {"command": cmd, "description": cmd[:40]})


def lessons(proj: Path) -> list[Lesson]:
    p = str(proj)
    return [
        Lesson("pnpm", "add dayjs to the web app", _bash("npm install dayjs"),
               "there's a pnpm-lock.yaml right there in the repo", _bash("npm uninstall dayjs && pnpm add dayjs"),
               "pnpm", "npm"),
        Lesson("snake_case", "add a function that totals the cart in cart.py",
               ("Write", {"file_path": f"{p}/cart.py", "content": "def cartTotal(items):\n    return sum(i.price for i in items)\n"}),
               "look at how the other functions are named",
               ("Edit", {"file_path": f"{p}/cart.py", "old_string": "def cartTotal(items):", "new_string": "def cart_total(items):"}),
               "snake_case", "camelCase"),
        Lesson("trailer", "commit the cart change",
               _bash('git add -A && git commit -q -m "Add cart total" -m "Co-authored-by: Claude <noreply@anthropic.com>"'),
               "drop the Co-authored-by line, we don't credit tools in our history",
               _bash('git commit -q --amend -m "Add cart total"'), "", "Co-authored-by"),
        Lesson("branch", "start a branch for the login fix", _bash("git checkout -q -b fix-login"),
               "branches here are always <type>/<TICKET>-<slug>, this one is AUTH-12",
               _bash("git branch -m fix-login fix/AUTH-12-login"), "<type>/<TICKET>-<slug>", ""),
        Lesson("make-test", "run the tests", _bash("pytest -q"),
               "tests run with `make test` here, don't call pytest directly", _bash("make test"),
               "make test", "pytest"),
        Lesson("compose", "start the database for local dev", _bash("docker-compose up -d db"),
               "it's the compose v2 plugin on this box", _bash("docker compose up -d db"),
               "docker compose", "docker-compose"),
        Lesson("uv", "add httpx to the api service", _bash("pip install httpx"),
               "c'è uv in questo repo, guarda il uv.lock", _bash("uv add httpx"), "uv", "pip"),
        Lesson("conventional", "commit the export feature", _bash('git commit -q --allow-empty -m "added csv export"'),
               "on suit Conventional Commits ici", _bash('git commit -q --amend --allow-empty -m "feat(export): add csv export"'),
               "Conventional Commits", ""),
        Lesson("ruff", "lint the services folder", _bash("flake8 services"),
               "flake8, sério? a gente usa ruff faz um ano", _bash("ruff check services"), "ruff", "flake8"),
        Lesson("move", "add the users endpoint module",
               ("Write", {"file_path": f"{p}/src/users.py", "content": "def list_users():\n    return []\n"}),
               "the API lives in services/api, not src/",
               _bash(f"mkdir -p {p}/services/api && git mv -f src/users.py services/api/users.py || mv src/users.py services/api/users.py"),
               "services/api", "src/"),
        Lesson("bun", "add zod to the web app", _bash("pnpm add zod"),
               "heads up: we replaced pnpm with bun this week", _bash("pnpm remove zod && bun add zod"),
               "bun", "pnpm", stale="pnpm"),
        # forbidden, nothing redone: the agent only answers in words
        Lesson("no-verify", "commit the lint fix", _bash('git commit -q --allow-empty --no-verify -m "fix lint"'),
               "non mais pas de --no-verify ici !! les hooks doivent passer", None, "", "--no-verify",
               right=_bash('git commit -q --allow-empty -m "fix lint"')),
        Lesson("one-off", "make the header bold in the signup page",
               ("Write", {"file_path": f"{p}/Signup.tsx", "content": "export const H = () => <h1>Hi</h1>\n"}),
               "no, the other file — Login.tsx, not Signup.tsx",
               ("Write", {"file_path": f"{p}/Login.tsx", "content": "export const H = () => <h1><b>Hi</b></h1>\n"}),
               teaches=False),
        Lesson("masked", "make the lint pass", _bash("ruff check services"),
               "ok thanks", None, teaches=False),
    ]


# Programs that answer like the real ones (a week of work is not a week of downloads).
FAKES = {
    "npm": 'echo "added 1 package, and audited 212 packages in 2s"',
    "pnpm": 'echo "Packages: +1"; echo "Done in 1.2s"',
    "bun": 'echo "installed zod@3.23.8"',
    "pip": 'echo "Successfully installed httpx-0.27.0"',
    "uv": 'echo "Resolved 12 packages in 80ms"; echo "+ httpx==0.27.0"',
    "pytest": 'echo "........ [100%]"; echo "8 passed in 612.40s (0:10:12)"',
    "make": 'echo "pytest -q -m \\"not slow\\""; echo "8 passed in 3.1s"',
    "docker-compose": 'echo "Creating shop_db_1 ... done"',
    "docker": 'echo " ✔ Container shop-db-1  Started"',
    "flake8": 'echo "services/a.py:1:1: F401 \'os\' imported but unused"; exit 1',
    "ruff": 'echo "All checks passed!"',
}


def policy_for(ls: list[Lesson]):
    by_task = {lesson.task: lesson for lesson in ls}
    by_said = {lesson.said: lesson for lesson in ls}

    def policy(api: str, body: dict) -> Reply:
        if ends_with_tool_result(api, body):
            return Reply(text="Done.")
        said = last_user_text(api, body).strip()
        if said.startswith(NEXT_WEEK):
            lesson = by_task[said[len(NEXT_WEEK):]]
            rules = _rules(json.dumps(body, ensure_ascii=False))
            knows = any((lesson.use and _names(r, lesson.use, False)) or (lesson.avoid and _names(r, lesson.avoid, True))
                        for r in rules)
            right = lesson.redo or lesson.right
            act = right if knows and right is not None else lesson.mistake
            return Reply(tool=act[0], args=act[1])
        lesson = by_task.get(said)
        if lesson is not None:
            return Reply(tool=lesson.mistake[0], args=lesson.mistake[1])
        lesson = by_said.get(said)
        if lesson is not None and lesson.redo is not None:
            return Reply(tool=lesson.redo[0], args=lesson.redo[1])
        return Reply(text="Sure.")
    return policy


NEXT_WEEK = "(a week later) "


def claude_bin() -> Path:
    cache = Path(os.environ.get("SLOWLOOP_NPM_CACHE", Path.home() / ".cache" / "slowloop-ci" / "npm"))
    for p in [os.environ.get("SLOWLOOP_CLAUDE_BIN", ""),
              str(cache / "node_modules/@anthropic-ai/claude-code-linux-x64/claude"),
              str(cache / "node_modules/@anthropic-ai/claude-code-linux-arm64/claude")]:
        if p and os.access(p, os.X_OK):
            return Path(p)
    sys.exit(f"the real Claude Code CLI is needed: npm install --prefix {cache} @anthropic-ai/claude-code")


def _rules(text: str) -> list[str]:
    return [ln.strip()[2:] for ln in text.replace("\\n", "\n").splitlines()
            if ln.strip().startswith("- ") and re.search(r"\b(?:always|never|When)\b", ln)]


_NEG = re.compile(r"(?:never|not|no|don't)\s+(?:use\s+|add\s+|run\s+|call\s+|pass\s+|in\s+)?[`'\"]?(?:[\w./-]+\s+){0,3}[`'\"(]*$", re.I)


def _names(rule: str, lit: str, negated: bool) -> bool:
    low = rule.lower()
    for m in re.finditer(re.escape(lit.lower()), low):
        neg = bool(_NEG.search(rule[max(0, m.start() - 40):m.start()]))
        if neg == negated:
            return True
    return False


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv
    binary = claude_bin()
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        person, sh, bindir = tmp / "person", tmp / "slowloop-home", tmp / "bin"
        proj = person / "code" / "shop"
        proj.mkdir(parents=True)
        bindir.mkdir()
        for name, body in FAKES.items():
            (bindir / name).write_text(f"#!/bin/sh\n{body}\n")
            (bindir / name).chmod(0o755)
        subprocess.run(["git", "init", "-q", str(proj)], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE", "SLOWLOOP_"))}
        env.update(HOME=str(person), SLOWLOOP_HOME=str(sh), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                   ANTHROPIC_API_KEY="sk-ant-bench-not-a-key", DISABLE_AUTOUPDATER="1",
                   PATH=f"{bindir}{os.pathsep}{env.get('PATH', '')}", GIT_AUTHOR_NAME="Dev",
                   GIT_AUTHOR_EMAIL="dev@example.com", GIT_COMMITTER_NAME="Dev", GIT_COMMITTER_EMAIL="dev@example.com",
                   PYTHONPATH=str(ROOT / "src"))
        (proj / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
        (proj / "cart.py").write_text("def line_total(line):\n    return line.qty * line.price\n")
        subprocess.run(["git", "add", "-A"], cwd=proj, env=env, check=True)
        subprocess.run(["git", "commit", "-q", "-m", "init"], cwd=proj, env=env, check=True)
        subprocess.run([sys.executable, "-m", "slowloop", "hooks", "install", "claude-code", "--project",
                        "--agent", "shop"], cwd=proj, env=env, check=True, capture_output=True, stdin=subprocess.DEVNULL)
        ls = lessons(proj)
        learned_after: dict[str, float] = {}

        def claude(prompt: str, *extra: str) -> None:
            done = subprocess.run([str(binary), "-p", prompt, "--allowedTools", "Bash,Write,Edit,Read", *extra],
                                  cwd=proj, env=env, capture_output=True, text=True, timeout=300)
            if done.returncode != 0:
                raise SystemExit(f"claude failed: {done.stdout[-500:]} {done.stderr[-1500:]}")

        def in_memo(lesson: Lesson) -> bool:
            text = "\n".join(Memo("shop", home=sh).entries("plays"))
            return bool(lesson.use) and lesson.use.lower() in text.lower() or bool(
                not lesson.use and lesson.avoid and lesson.avoid.lower() in text.lower())

        t0 = time.monotonic()
        with ScriptedModel(policy_for(ls)) as srv:
            env["ANTHROPIC_BASE_URL"] = srv.url
            for lesson in ls:
                claude(lesson.task)
                claude(lesson.said, "-c")
                start = time.monotonic()
                while lesson.teaches and time.monotonic() - start < 60:
                    if in_memo(lesson):
                        learned_after[lesson.name] = time.monotonic() - start
                        break
                    time.sleep(0.5)
            locks = sh / "locks"
            end = time.monotonic() + 60
            while time.monotonic() < end and locks.is_dir() and any(locks.glob("auto-reflect-*.pid")):
                time.sleep(0.5)
            n = len(srv.seen("anthropic"))
            claude("good morning, what's next on the cart feature?")
            first = srv.seen("anthropic")[n].text()
        total = time.monotonic() - t0
        # the rules slowloop keeps (memo and skills) that the first request carried, as the model read them
        from slowloop.skills import SkillLibrary

        kept = Memo("shop", home=sh).entries("plays") + Memo("shop", home=sh).entries("strengths") + [
            ln.strip()[2:] for sk in SkillLibrary("shop", home=sh).list() for ln in sk.body.splitlines()
            if ln.strip().startswith("- ")]
        carried = first.replace("\\n", "\n").replace('\\"', '"')
        rules = [r for r in kept if r and r in carried]
        not_carried = [r for r in kept if r and r not in carried]
        teaching = [lesson for lesson in ls if lesson.teaches]
        reached, missed = [], []
        replaced = {later.stale for later in ls if later.stale}
        for lesson in teaching:
            if lesson.use in replaced:  # a later change of mind replaced it: judged when it was learned
                (reached if lesson.name in learned_after else missed).append(lesson)
                continue
            ok = any((not lesson.use or _names(r, lesson.use, False))
                     and (not lesson.avoid or _names(r, lesson.avoid, True)) for r in rules)
            (reached if ok else missed).append(lesson)
        stale = [lesson for lesson in ls if lesson.stale and any(_names(r, lesson.stale, False)
                                                                 and not _names(r, lesson.use, False) for r in rules)]
        taught_words = [w.lower() for lesson in teaching for w in (lesson.use, lesson.avoid) if w]
        junk = [r for r in rules if not any(w in r.lower() for w in taught_words)
                or any(w in r for w in ("Login.tsx", "Signup.tsx", "|| true"))]
        with subprocess.Popen([sys.executable, "-m", "slowloop", "review", "list", "--agent", "shop", "--json"],
                              cwd=proj, env=env, stdout=subprocess.PIPE, text=True) as p:
            waiting = json.loads(p.communicate()[0] or "[]")
        # the next week: each lesson's task again, in a session of its own
        again = [lesson for lesson in teaching if lesson.use not in replaced]
        with ScriptedModel(policy_for(ls)) as srv:
            env["ANTHROPIC_BASE_URL"] = srv.url
            for lesson in again:
                claude(NEXT_WEEK + lesson.task)
            end = time.monotonic() + 60
            while time.monotonic() < end and locks.is_dir() and any(locks.glob("auto-reflect-*.pid")):
                time.sleep(0.5)
        status = json.loads(subprocess.run([sys.executable, "-m", "slowloop", "status", "--agent", "shop", "--json"],
                                           cwd=proj, env=env, capture_output=True, text=True).stdout)["agents"][0]
        shown = subprocess.run([sys.executable, "-m", "slowloop", "memo", "show", "--agent", "shop", "--json"],
                               cwd=proj, env=env, capture_output=True, text=True).stdout
        judged_rules = [r for sec in json.loads(shown)["sections"].values() for r in sec["rules"] if r]
    secs = sorted(learned_after.values())
    print(f"a week in the real Claude Code ({binary.name} {len(ls)} sessions + 1, default configuration, "
          f"offline learner): {total:.0f} s in all")
    print(f"lessons in the next session's first request: {len(reached)}/{len(teaching)}")
    print(f"junk rules: {len(junk)}   stale rules: {len(stale)}   corrections waiting for a wording: {len(waiting)}")
    if secs:
        print(f"seconds from the correcting turn to the rule in the memo: median {secs[len(secs) // 2]:.1f}, "
              f"max {secs[-1]:.1f}")
    for lesson in missed:
        print(f"  missed {lesson.name}: {lesson.said!r} (use {lesson.use!r}, avoid {lesson.avoid!r})")
    for r in junk:
        print(f"  junk: {r}")
    for lesson in stale:
        print(f"  stale: {lesson.stale} still recommended")
    for w in waiting:
        print(f"  waiting: {w['reason'][:160]}")
    for r in not_carried:
        print(f"  kept but not in the first request: {r}")
    rate = status["repeated_mistakes"]

    def share(r: dict) -> str:
        return f"{r['violated']} of {r['relevant']}" + (f" ({r['rate']:.0%})" if r["rate"] is not None else "")
    print(f"the next week ({len(again)} sessions, each a lesson's task again): repeated-mistake rate "
          f"(slowloop status, judged from the recorded turns with no model, {rate['rules_checked']} rules): "
          f"before each rule existed {share(rate['before'])} of the situations were the mistake, after it "
          f"{share(rate['after'])}")
    for r in judged_rules:
        o = r["outcomes"]
        said = "not checkable" if o == "not checkable" else (
            f"relevant {o['relevant']}, followed {o['followed']}, violated {o['violated']}, corrected again {o['corrected_again']}")
        print(f"  {said}: {r['text'][:110]}")
    if verbose:
        print("\n".join("  rule: " + r for r in rules))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
