"""The operational memory keeps itself: each recorded session leaves its chronicle entry and opens or
closes debts, from what was observed — through the real CLI (`slowloop ingest`), the real hook
runtime and a real ledger; nobody runs `slowloop memory …` by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from integrations_fixtures import run_hook

from slowloop.memory import Memory


def turn(user: str, calls: list[tuple[str, dict, str, bool]], n: int, *, session: str = "s1") -> str:
    """One Claude Code turn: the person's words, tool calls with (output, is_error), an answer."""
    ts = f"2026-11-29T10:{n:02d}:00Z"
    recs: list[dict] = [{"type": "user", "sessionId": session, "timestamp": ts, "uuid": f"{session}u{n}",
                         "message": {"role": "user", "content": user}}]
    for i, (name, inp, out, err) in enumerate(calls):
        cid = f"{session}c{n}_{i}"
        recs.append({"type": "assistant", "sessionId": session, "timestamp": ts, "message": {
            "role": "assistant", "content": [{"type": "tool_use", "id": cid, "name": name, "input": inp}]}})
        recs.append({"type": "user", "sessionId": session, "timestamp": ts, "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": cid, "is_error": err,
                                         "content": out}]}})
    recs.append({"type": "assistant", "sessionId": session, "timestamp": ts,
                 "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}})
    recs.append({"type": "system", "subtype": "turn_duration", "sessionId": session, "durationMs": 10})
    return "".join(json.dumps(r) + "\n" for r in recs)


def bash(command: str, output: str = "", error: bool = False) -> tuple[str, dict, str, bool]:
    return ("Bash", {"command": command}, output, error)


FAIL = "FAILED tests/test_cart.py::test_total - assert 0 == 3\n1 failed in 0.12s"
PASS = "3 passed in 0.10s"


def slowloop(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                       timeout=120, cwd=cwd, env=os.environ.copy())
    assert p.returncode == 0, p.stdout + p.stderr
    return p


def ingest(path: Path, agent: str = "shop") -> None:
    slowloop("ingest", str(path), "--agent", agent, "--no-reflect")


def debts(agent: str = "shop") -> list[dict]:
    return json.loads(slowloop("memory", "debt", "list", "--all", "--agent", agent, "--json").stdout)


def chronicle(home: Path, agent: str = "shop") -> str:
    return (home / "agents" / agent / "memory" / "chronicle.md").read_text(encoding="utf-8")


def test_a_session_leaves_one_entry_in_the_persons_words_even_recorded_twice(tmp_path: Path,
                                                                              slowloop_home: Path) -> None:
    t = tmp_path / "s1.jsonl"
    t.write_text(turn("aggiungi il totale del carrello, per favore", [
        bash("git checkout -b feature/total", "Switched to a new branch 'feature/total'"),
        ("Write", {"file_path": "/work/shop/cart.py", "content": "def total(): ..."}, "File created", False),
        bash("git commit -m 'start the cart total'", "[feature/total 1a2b3c4] start the cart total"),
        bash("gh pr create --title 'Cart total'", "https://github.com/me/shop/pull/7"),
    ], 0))
    ingest(t)
    text = chronicle(slowloop_home)
    assert text.count("· session ") == 1
    entry = text.split("· session ")[1]
    assert "Asked: “aggiungi il totale del carrello, per favore”" in entry  # their words, not a translation
    assert "cart.py" in entry and "branch feature/total" in entry and "commit “start the cart total”" in entry
    assert "pull request https://github.com/me/shop/pull/7" in entry
    before = text
    ingest(t)  # the same session recorded again (watch after the hook): nothing changes
    assert chronicle(slowloop_home) == before
    # resumed: the session grows; its one entry is brought up to date in place
    with open(t, "a") as f:
        f.write(turn("ora i test", [bash("python -m pytest -q", PASS)], 1))
    ingest(t)
    text = chronicle(slowloop_home)
    assert text.count("· session ") == 1 and "(2 turns)" in text and "Tests: `python -m pytest -q` pass" in text
    shown = slowloop("memory", "show", "--agent", "shop").stdout
    assert shown.index("## Last session") < shown.index("## Open debts") < shown.index("## State")
    assert "aggiungi il totale" in shown.split("## Open debts")[0]


def test_a_failing_test_opens_a_debt_that_a_later_passing_run_closes(tmp_path: Path, slowloop_home: Path) -> None:
    s1, s2 = tmp_path / "s1.jsonl", tmp_path / "s2.jsonl"
    s1.write_text(turn("add the cart total", [
        ("Write", {"file_path": "/work/shop/cart.py", "content": "x"}, "ok", False),
        bash("python -m pytest -q tests/test_cart.py", FAIL, True)], 0))
    ingest(s1)
    [debt] = debts()
    assert debt["status"] == "open" and debt["id"] == "D-0001"
    assert "tests/test_cart.py::test_total" in debt["text"] and "python -m pytest" in debt["text"]
    assert "→ D-0001" in chronicle(slowloop_home)
    ingest(s1)
    assert len(debts()) == 1  # recorded twice: still one debt, the same id
    shown = slowloop("memory", "show", "--agent", "shop").stdout
    assert "D-0001 [open] tests fail" in shown and "auto:" not in shown  # the bookkeeping stays in the file
    s2.write_text(turn("fix the failing test", [
        ("Edit", {"file_path": "/work/shop/cart.py", "old_string": "x", "new_string": "y"}, "ok", False),
        bash("python -m pytest -q", PASS)], 0, session="s2"))
    ingest(s2)
    [debt] = debts()
    assert debt["status"] == "closed" and debt["id"] == "D-0001"
    assert any("closed by session" in n and "`python -m pytest -q` passed" in n for n in debt["notes"])
    assert "Closed D-0001: `python -m pytest -q` passed" in chronicle(slowloop_home)
    ingest(s2)
    assert chronicle(slowloop_home).count("Closed D-0001") == 1


def test_an_unresolved_real_error_opens_a_debt_and_a_transient_one_never_does(tmp_path: Path,
                                                                             slowloop_home: Path) -> None:
    s1 = tmp_path / "s1.jsonl"
    s1.write_text(turn("deploy the staging build", [
        bash("npm run build", "Error: Cannot find module './routes'\nexit code 1", True)], 0))
    s2 = tmp_path / "s2.jsonl"
    s2.write_text(turn("publish the package", [
        bash("npm publish", "npm ERR! network request to https://registry.npmjs.org failed, reason: "
                            "connect ETIMEDOUT 104.16.0.35:443", True)], 0, session="s2"))
    ingest(s1)
    ingest(s2)
    found = debts()
    assert [d["text"] for d in found] == [found[0]["text"]] and "npm run build" in found[0]["text"]
    assert "ETIMEDOUT" not in json.dumps(found)  # a network hiccup is no debt
    s3 = tmp_path / "s3.jsonl"
    s3.write_text(turn("try the build again", [bash("npm run build", "built in 2.1s")], 0, session="s3"))
    ingest(s3)
    [d] = debts()
    assert d["status"] == "closed" and any("npm run build" in n and "succeeded" in n for n in d["notes"])


@pytest.mark.parametrize("later,done", [
    ("Looks good. We'll handle the migration later.", "The migration is done now."),
    ("Va bene, la migrazione più tardi.", "La migrazione è fatta."),
    ("数据库迁移后面再说。", "数据库迁移搞定了。"),
])
def test_what_the_person_leaves_for_later_is_a_debt_until_they_say_it_is_done(
        tmp_path: Path, slowloop_home: Path, later: str, done: str) -> None:
    s1, s2 = tmp_path / "s1.jsonl", tmp_path / "s2.jsonl"
    s1.write_text(turn(later, [], 0))
    ingest(s1)
    [d] = debts()
    assert d["status"] == "open" and later.split()[-1].strip(".。") in d["text"]
    s2.write_text(turn(done, [], 0, session="s2"))
    ingest(s2)
    [d] = debts()
    assert d["status"] == "closed" and any(done in n for n in d["notes"])


def test_a_chat_with_nothing_new_leaves_nothing(tmp_path: Path, slowloop_home: Path) -> None:
    s = tmp_path / "s.jsonl"
    s.write_text(turn("what does the cart module do?", [bash("cat cart.py", "def total(): ...")], 0))
    ingest(s)
    assert not Memory.for_agent("shop", home=slowloop_home).exists()


def test_the_archive_runs_by_itself_when_the_chronicle_passes_its_cap(tmp_path: Path, slowloop_home: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLOWLOOP_MEMORY__CHRONICLE_MAX_LINES", "12")
    words = ("shipping", "payment", "coupon", "receipt")
    for i, word in enumerate(words):
        s = tmp_path / f"s{i}.jsonl"
        s.write_text(turn(f"change the {word} step of the checkout", [
            ("Write", {"file_path": f"/work/shop/step{i}.py", "content": "x"}, "ok", False),
            bash(f"git commit -m 'step {i}'", "ok")], 0, session=f"s{i}"))
        ingest(s)
    mem = Memory.for_agent("shop", home=slowloop_home)
    layers = mem.layers()
    assert layers and all(x.reason == "threshold" for x in layers)
    assert len(chronicle(slowloop_home).splitlines()) <= 12
    archived = "".join((x.path / "chronicle.md").read_text() for x in layers) + chronicle(slowloop_home)
    assert all(f"change the {w} step of the checkout" in archived for w in words)  # nothing lost
    hits = slowloop("search", "shipping", "--agent", "shop", "--json").stdout
    assert "past/0001-" in hits and "shipping" in hits  # the past/ layers stay searchable
    slowloop("memory", "archive", "--agent", "shop", "--force")  # and a person can still force one
    assert len(mem.layers()) == len(layers) + 1


def test_the_bootstrap_leads_with_where_we_are_and_says_how_to_add_to_it(tmp_path: Path,
                                                                        slowloop_home: Path) -> None:
    s = tmp_path / "s.jsonl"
    s.write_text(turn("add the cart total", [bash("python -m pytest -q", FAIL, True)], 0))
    ingest(s)
    text = slowloop("prompt", "--agent", "shop").stdout
    assert text.startswith("# Operational memory")
    assert text.index("Asked: “add the cart total”") < text.index("D-0001 [open] tests fail")
    assert '`slowloop memory note "…"`' in text and "(each with --agent shop)" in text
    assert "append_memory, add_debt, set_state" in text


def test_a_project_install_keeps_the_memory_in_the_project_and_the_hooks_write_it(
        tmp_path: Path, slowloop_home: Path) -> None:
    proj = tmp_path / "shop"
    proj.mkdir()
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    out = slowloop("hooks", "install", "claude-code", "--project", "--agent", "shop", cwd=proj)
    assert "memory" in out.stdout + out.stderr and (proj / "memory" / "system-state.md").is_file()
    t = proj / "s.jsonl"
    t.write_text(turn("add the cart total", [
        ("Write", {"file_path": str(proj / "cart.py"), "content": "x"}, "ok", False)], 0))
    settings = json.loads((proj / ".claude" / "settings.local.json").read_text())
    stop = settings["hooks"]["Stop"][0]["hooks"][0]["command"]
    r = subprocess.run(stop, shell=True, input=json.dumps({"transcript_path": str(t), "cwd": str(proj)}).encode(),
                       capture_output=True, timeout=60, env={**os.environ, "SLOWLOOP_HOOKS__BACKGROUND": "false"})
    assert r.returncode == 0
    entry = (proj / "memory" / "chronicle.md").read_text()
    assert "Asked: “add the cart total”" in entry and "Changed: cart.py" in entry  # relative to the project
    assert not Memory.for_agent("shop", home=slowloop_home).exists()
    # inside the project, `slowloop memory` finds the project's memory without a flag
    shown = slowloop("memory", "show", cwd=proj / ".claude").stdout
    assert str(proj / "memory") in shown and "add the cart total" in shown
    slowloop("hooks", "install", "claude-code", "--project", "--agent", "shop", "--memory", "private", cwd=proj)
    assert "/memory/" in (proj / ".git" / "info" / "exclude").read_text()
    out = slowloop("hooks", "remove", "claude-code", "--project", cwd=proj)
    assert "stays" in out.stdout + out.stderr and "add the cart total" in (proj / "memory" / "chronicle.md").read_text()


def test_the_hook_worker_and_an_ingest_of_the_same_session_leave_one_entry(tmp_path: Path,
                                                                           slowloop_home: Path) -> None:
    t = tmp_path / "s.jsonl"
    t.write_text(turn("add the cart total", [
        ("Write", {"file_path": "/work/shop/cart.py", "content": "x"}, "ok", False)], 0))
    r = run_hook(["claude-code", "Stop", "--agent", "shop"], {"transcript_path": str(t)},
                 env={"SLOWLOOP_HOOKS__BACKGROUND": "false"})
    assert r.returncode == 0
    assert "1 session entry" in (slowloop_home / "logs" / "hooks.log").read_text()
    ingest(t)
    assert chronicle(slowloop_home).count("· session ") == 1
