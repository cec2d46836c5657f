"""Does each rule work? Every learned rule keeps what taught it, and the turns after it say whether
it was followed or broken — read from the agent's actions, no model — and slowloop acts on it.

Transcripts are ingested with the real CLI (`slowloop ingest`, the after-recording path), the
offline learner reflects, and `slowloop memo show --json`, `status --json`, `prompt` and `history
undo` are read as a person runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from slowloop import clock
from slowloop.config import load_config
from slowloop.ingest import default_weakness, ingest_paths
from slowloop.integrations.news import learned_news
from slowloop.integrations.recorded import turns_recorded
from slowloop.memo import Memo
from slowloop.observe.redo import Act
from slowloop.reflect.cycle import reflect_agent
from slowloop.rules import judge, read_rule, rules_report
from slowloop.store import open_store

PKG = "When installing packages in this project, always use pnpm (`pnpm add`), never npm."


def _session(path: Path, turns: list[tuple[str, list[tuple[str, str]]]]) -> Path:
    lines, n = [], 0
    for user, calls in turns:
        lines.append({"role": "user", "content": user})
        for cmd, output in calls:
            n += 1
            lines.append({"role": "assistant", "content": None, "tool_calls": [{
                "id": f"c{n}", "type": "function",
                "function": {"name": "Bash", "arguments": json.dumps({"command": cmd})}}]})
            lines.append({"role": "tool", "tool_call_id": f"c{n}", "content": output})
        lines.append({"role": "assistant", "content": "Done."})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def _cli(*args: str) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                       env=os.environ.copy(), timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    return p


def _ingest(tmp: Path, name: str, turns) -> str:
    """What `slowloop ingest` said: its summary (stdout) and its notes (stderr)."""
    p = _cli("ingest", str(_session(tmp / f"{name}.jsonl", turns)), "--agent", "a")
    return p.stdout + p.stderr


def _rule(text_part: str) -> dict:
    data = json.loads(_cli("memo", "show", "--agent", "a", "--json").stdout)
    found = [r for sec in data["sections"].values() for r in sec["rules"] if r and text_part in r["text"]]
    assert len(found) == 1, data
    return found[0]


NPM = ("add lodash to the web app", [("npm install lodash", "added 1 package in 2s")])


def _learn_pnpm(tmp: Path) -> None:
    _ingest(tmp, "s1", [NPM, ("No, use pnpm instead of npm", [("pnpm add lodash", "done")])])
    assert reflect_agent("a", provider=None, force=True).status == "applied"
    assert PKG in Memo("a").entries("plays")


@pytest.mark.parametrize("text, mode, use, avoid", [
    (PKG, "tool", "pnpm", "npm"),
    ("When installing packages in this project, always use `pnpm`, never `npm`. (corrected 2 times)", "tool", "pnpm", "npm"),
    ("Pitfall: when installing packages, use pnpm, not npm.", "tool", "pnpm", "npm"),
    ("When making HTTP requests in this project, always use httpx, never requests.", "literal", "httpx", "requests"),
    ("When writing commit messages, never add a `Co-authored-by:` trailer to the message.", "trailer", "", "Co-authored-by:"),
    ("When running the tests, always pass `--no-cov` to `pytest`.", "flag", "--no-cov", ""),
    ("When naming Python functions, always use snake_case (`cart_total`), never camelCase (`cartTotal`).",
     "naming", "snake_case", "camelCase"),
    ("When creating branches, always start branch names with `feature/`, never `feat/`.", "branch", "feature/", "feat/"),
    ("When `python tool.py` fails with a command not found, run `python3 tool.py` instead.", "recovery",
     "python3 tool.py", "python tool.py"),
])
def test_a_rule_is_read_for_what_an_action_can_show(text: str, mode: str, use: str, avoid: str) -> None:
    c = read_rule(text)
    assert (c.mode, c.use, c.avoid) == (mode, use, avoid)


@pytest.mark.parametrize("text", [
    'When answering this user, always do as the user said: "keep it under five bullets"',
    "When listing the orders, always make sure the page size is 50 (because the API caps it).",
])
def test_a_rule_no_action_can_show_is_not_checkable_and_says_why(text: str) -> None:
    c = read_rule(text)
    assert not c.checkable and c.why_not
    assert judge(c, [Act("run", command="npm install x")]).relevant is False


@pytest.mark.parametrize("text, acts, verdict", [
    (PKG, [Act("run", command="npm install dayjs")], (True, False, True)),
    (PKG, [Act("run", command="pnpm add dayjs")], (True, True, False)),
    (PKG, [Act("run", command="npm run build")], (False, False, False)),  # not an install
    ("When installing packages in this project, always use bun.", [Act("run", command="pnpm add zod")],
     (True, False, True)),  # another program for what it says to do with bun
    ("When using git in this repository, always use main, never master.",
     [Act("run", command="git push origin master")], (True, False, True)),
    ("When installing packages in this project, always use uv, never pip.", [Act("run", command="pnpm add zod")],
     (False, False, False)),  # a JavaScript install is no situation for a Python package manager
    ("When creating branches, always make sure branch names are `<type>/<TICKET>-<slug>`.",
     [Act("run", command="git checkout -b fix-login")], (True, False, True)),
    ("When naming Python functions, always use snake_case (`cart_total`), never camelCase (`cartTotal`).",
     [Act("write", path="cart.py", new="def cartSum(lines):\n    return 0\n")], (True, False, True)),
    ("When naming Python functions, always use snake_case (`cart_total`), never camelCase (`cartTotal`).",
     [Act("edit", path="cart.py", old="", new="def cart_sum(lines):\n    return 0\n")], (True, True, False)),
    ("When writing commit messages, never add a `Co-authored-by:` trailer to the message.",
     [Act("run", command="git commit -m 'fix: totals\n\nCo-authored-by: Claude <noreply@anthropic.com>'")],
     (True, False, True)),
    ("When running the tests, always pass `--no-cov` to `pytest`.", [Act("run", command="pytest -q")], (True, False, True)),
    ("When creating branches, always start branch names with `feature/`, never `feat/`.",
     [Act("run", command="git checkout -b feature/login")], (True, True, False)),
])
def test_a_turn_is_judged_from_the_agent_actions(text: str, acts: list[Act], verdict: tuple) -> None:
    v = judge(read_rule(text), acts)
    assert (v.relevant, v.followed, v.violated) == verdict


def test_a_learned_rule_keeps_its_evidence_and_counts_what_came_after(tmp_path: Path) -> None:
    _learn_pnpm(tmp_path)
    rule = _rule("always use pnpm")
    ev = rule["evidence"]
    assert ev["said"] == "No, use pnpm instead of npm"
    assert ev["action"] == "npm install lodash" and ev["then"] == "pnpm add lodash"
    assert ev["turn_id"] == 2 and rule["proposer"] == "the offline learner"
    assert rule["check"]["checkable"] is True
    # before the rule: the mistake (turn 1) and the redo (turn 2)
    assert rule["before"] == {"relevant": 2, "followed": 1, "violated": 1, "corrected_again": 0}
    assert rule["outcomes"] == {"relevant": 0, "followed": 0, "violated": 0, "corrected_again": 0}

    _ingest(tmp_path, "s2", [("add zod", [("pnpm add zod", "done")])])
    _ingest(tmp_path, "s3", [("add a README section", [("cat README.md", "# shop")])])
    rule = _rule("always use pnpm")
    assert rule["outcomes"] == {"relevant": 1, "followed": 1, "violated": 0, "corrected_again": 0}
    assert rule["status"] == "active"

    out = _ingest(tmp_path, "s4", [("add dayjs", [("npm install dayjs", "added 1 package")])])
    assert "broken after it was learned" in out
    rule = _rule("always use pnpm")
    assert rule["outcomes"] == {"relevant": 2, "followed": 1, "violated": 1, "corrected_again": 0}
    assert rule["status"] == "escalated" and rule["last_violation"]["action"] == "npm install dayjs"
    # escalated: restated with its trigger, first in what the next session reads
    prompt = _cli("prompt", "--agent", "a").stdout
    assert prompt.startswith("# Rules I broke after learning them")
    assert "Every time you are installing packages in this project: always use pnpm (`pnpm add`), never npm." in prompt
    assert "`npm install dayjs`" in prompt.split("# What I know")[0]

    # broken again, and corrected again: the person is told
    _ingest(tmp_path, "s5", [("add left-pad", [("npm install left-pad", "added 1 package")]),
                             ("again: pnpm, not npm", [("pnpm add left-pad", "done")])])
    rule = _rule("always use pnpm")
    assert rule["outcomes"] == {"relevant": 4, "followed": 2, "violated": 2, "corrected_again": 1}
    status = json.loads(_cli("status", "--agent", "a", "--json").stdout)["agents"][0]
    broken = status["rules"]["broken_again"]
    assert [b["action"] for b in broken] == ["npm install left-pad"]
    rate = status["repeated_mistakes"]
    assert rate["before"] == {"relevant": 2, "violated": 1, "corrected_again": 0, "rate": 0.5}
    assert rate["after"] == {"relevant": 4, "violated": 2, "corrected_again": 1, "rate": 0.5}
    assert [w["week"] for w in rate["weeks"]] == [rate["weeks"][0]["week"]]
    words = _cli("status", "--agent", "a").stdout
    assert "broken again after it was escalated — yours to look at" in words
    assert "repeated mistakes: before its rule existed 1 of 2 (50%)" in words
    shown = _cli("memo", "show", "--agent", "a").stdout
    assert 'the person said "No, use pnpm instead of npm" after `npm install lodash`' in shown
    # the next session start tells the person, once (Claude Code shows it as its systemMessage)
    with open_store() as store:
        news = learned_news(Path(os.environ["SLOWLOOP_HOME"]), "a", store) or ""
        assert f"A rule slowloop had already escalated was broken again (turn 6): {PKG}" in news
        assert "broken again" not in (learned_news(Path(os.environ["SLOWLOOP_HOME"]), "a", store) or "")
    assert "since: relevant 4, followed 2, violated 2, corrected again 1" in shown


def test_a_person_may_edit_the_memo_and_a_rule_keeps_its_record(tmp_path: Path) -> None:
    _learn_pnpm(tmp_path)
    first = _rule("always use pnpm")["rule"]
    memo = Memo("a").path
    text = memo.read_text().replace(PKG, "When installing packages in this project, always use pnpm (`pnpm add`) and never npm.")
    memo.write_text(text + "- When writing Python, always use pathlib for paths.\n")
    data = json.loads(_cli("memo", "show", "--agent", "a", "--json").stdout)["sections"]["plays"]
    reworded, added = data["rules"]
    assert reworded["rule"] == first and reworded["evidence"]["said"] == "No, use pnpm instead of npm"
    assert added["proposer"] == "a person (written by hand)"
    assert added["check"] == {"checkable": True, "mode": "literal", "trigger": [], "use": "pathlib", "avoid": ""}


def test_a_rule_never_relevant_for_weeks_is_archived_and_history_undo_brings_it_back(tmp_path: Path) -> None:
    _learn_pnpm(tmp_path)
    t0 = clock.now()
    clock.set_clock(lambda: t0 + 30 * 86400)
    cfg = load_config()
    with open_store() as store:
        ingest_paths([_session(tmp_path / "later.jsonl", [("tidy the README", [("cat README.md", "# shop")])])],
                     agent="a", store=store, cfg=cfg, weakness=default_weakness("a"))
        after = turns_recorded(Path(os.environ["SLOWLOOP_HOME"]), "a", store, cfg, changed=1, why="test",
                               reflect=False)
    assert any("archived, never relevant for 28d" in n for n in after.notes)
    assert PKG not in Memo("a").entries("plays")
    clock.set_clock(None)
    status = json.loads(_cli("status", "--agent", "a", "--json").stdout)["agents"][0]
    (archived,) = status["rules"]["archived"]
    assert archived["text"] == PKG
    history = json.loads(_cli("history", "--agent", "a", "--json").stdout)
    rows = history if isinstance(history, list) else history["changes"]
    assert rows[0]["actor"] == "slowloop" and rows[0]["note"].startswith("archived: rule 1 was not relevant for 28d")
    _cli(*archived["restore"].split()[1:])  # `slowloop history undo <change>`, as status says
    assert PKG in Memo("a").entries("plays")
    assert _rule("always use pnpm")["status"] == "active"


def test_a_rule_whose_ground_left_the_work_is_flagged_possibly_stale(tmp_path: Path) -> None:
    _ingest(tmp_path, "s1", [("call the rates API", [("pip install requests", "Successfully installed requests")]),
                             ("don't use requests, this project uses httpx", [("pip install httpx", "ok")])])
    assert reflect_agent("a", provider=None, force=True).status == "applied"
    t0 = clock.now()
    cfg = load_config()
    home = Path(os.environ["SLOWLOOP_HOME"])
    for day in (10, 20):  # work goes on, none of it names httpx or requests
        clock.set_clock(lambda d=day: t0 + d * 86400)
        with open_store() as store:
            ingest_paths([_session(tmp_path / f"d{day}.jsonl", [(f"fix the header {day}", [("cat page.html", "<h1>x</h1>")])])],
                         agent="a", store=store, cfg=cfg, weakness=default_weakness("a"))
            turns_recorded(home, "a", store, cfg, changed=1, why="test", reflect=False)
            (rule,) = [v for v in rules_report(store, "a", home, cfg) if "always use httpx" in v["text"]]
    # read on day 20: the rule was not relevant since (not archived: that is 4 weeks), and what it
    # names has not come up in two weeks of work
    assert rule["possibly_stale"] is True and rule["outcomes"]["relevant"] == 0
    assert rule["status"] == "active"


def test_a_recovery_rule_in_a_skill_is_judged_and_skills_show_gives_it(tmp_path: Path) -> None:
    _ingest(tmp_path, "s1", [("run the script", [("python tool.py", "/bin/sh: 1: python: not found"),
                                                 ("python3 tool.py", "done")])])
    assert reflect_agent("a", provider=None, force=True).status == "applied"
    _ingest(tmp_path, "s2", [("run it again", [("python tool.py", "/bin/sh: 1: python: not found")])])
    _ingest(tmp_path, "s3", [("once more", [("python tool.py", "/bin/sh: 1: python: not found"),
                                            ("python3 tool.py", "done")])])
    skills = json.loads(_cli("skills", "list", "--agent", "a", "--json").stdout)
    name = skills[0]["name"] if isinstance(skills, list) else skills["skills"][0]["name"]
    shown = json.loads(_cli("skills", "show", name, "--agent", "a", "--json").stdout)
    (rule,) = shown["rules"]
    assert rule["text"].startswith("When `python tool.py` fails")
    assert rule["outcomes"] == {"relevant": 2, "followed": 1, "violated": 1, "corrected_again": 0}
    assert rule["evidence"]["turn_id"] == 1 and rule["evidence"]["action"].startswith("python")


def test_an_escalated_rule_taken_out_of_the_memo_is_never_restated(tmp_path: Path) -> None:
    _learn_pnpm(tmp_path)
    _ingest(tmp_path, "s2", [("add dayjs", [("npm install dayjs", "added 1 package")])])
    assert _cli("prompt", "--agent", "a").stdout.startswith("# Rules I broke after learning them")
    _cli("memo", "remove", "--agent", "a", "always use pnpm")
    prompt = _cli("prompt", "--agent", "a").stdout
    # (the chronicle may still say what was run; no rule about it is read any more)
    assert "Rules I broke" not in prompt and "always use pnpm" not in prompt


class _Model:
    """A model that answers from a script (the evidence passed through is under test, not it)."""

    kind, name, model = "scripted", "scripted", "scripted-1"

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def destination(self) -> str:
        return "nowhere (scripted test model)"

    def complete(self, system, user, *, schema=None):
        from slowloop.providers.base import Completion

        return Completion(text=self.answer, model=self.model, destination=self.destination())


def test_a_model_s_rule_names_the_model_and_the_turn_its_reason_cites(tmp_path: Path) -> None:
    _ingest(tmp_path, "s1", [NPM, ("No, use pnpm instead of npm", [("pnpm add lodash", "done")])])
    answer = json.dumps({"actions": [{"type": "update_memo", "section": "plays", "op": "add", "text": PKG,
                                      "reason": "turn #2: the person corrected npm to pnpm"}]})
    assert reflect_agent("a", provider=_Model(answer), force=True).status == "applied"
    rule = _rule("always use pnpm")
    assert rule["proposer"] == "scripted:scripted (model scripted-1)"
    assert rule["evidence"]["turn_id"] == 2 and rule["evidence"]["said"] == "No, use pnpm instead of npm"
    assert rule["evidence"]["reason"] == "turn #2: the person corrected npm to pnpm"


def test_a_play_and_its_pitfall_count_a_turn_once_in_the_repeated_mistake_rate(tmp_path: Path) -> None:
    _learn_pnpm(tmp_path)
    _ingest(tmp_path, "s2", [NPM, ("again: pnpm, not npm", [("pnpm add lodash", "done")])])
    assert reflect_agent("a", provider=None, force=True).status == "applied"
    assert any(e.startswith("Pitfall") for e in Memo("a").entries("strengths"))  # needed twice
    _ingest(tmp_path, "s3", [("add dayjs", [("npm install dayjs", "added 1 package")])])
    status = json.loads(_cli("status", "--agent", "a", "--json").stdout)["agents"][0]
    rate = status["repeated_mistakes"]
    assert rate["rules_checked"] == 2
    # turns 1-2 before any rule; 3-5 after the play (the pitfall came later: its turns are not "before")
    assert rate["before"] == {"relevant": 2, "violated": 1, "corrected_again": 0, "rate": 0.5}
    assert rate["after"] == {"relevant": 3, "violated": 2, "corrected_again": 1, "rate": 0.667}
