"""QA regression: after retiring the only skill, `slowloop skills list` said "no skills yet", as if
nothing had ever been learned; it now says the skills are retired and how to see them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)


def test_list_mentions_retired_skills(tmp_path: Path):
    assert run("skills", "list").stdout.strip() == "no skills yet"
    body = tmp_path / "body.md"
    body.write_text("## Steps\n1. Run the tests with python3 -m pytest.\n")
    assert run("skills", "new", "run-tests", "-d", "Run the tests. Use when testing.",
               "-f", str(body)).returncode == 0
    assert run("skills", "retire", "run-tests").returncode == 0
    r = run("skills", "list")
    assert r.returncode == 0
    assert r.stdout.strip() == "no active skills (1 retired: see `slowloop skills list --retired`)"
    shown = run("skills", "list", "--retired")
    assert "run-tests [retired]" in shown.stdout


def test_record_edit_for_a_skill_that_never_existed_is_refused(tmp_path: Path):
    r = run("record-edit", "--skill", "run-tets")
    assert r.returncode == 2
    assert "no skill named 'run-tets'" in r.stderr and r.stdout == ""
    body = tmp_path / "body.md"
    body.write_text("## Steps\n1. Run the tests with python3 -m pytest.\n")
    run("skills", "new", "run-tests", "-d", "Run the tests. Use when testing.", "-f", str(body))
    ok = run("record-edit", "--skill", "run-tests", "--json")
    assert ok.returncode == 0 and '"run-tests"' in ok.stdout
    run("skills", "retire", "run-tests")  # an edit may still be reported after retiring it
    assert run("record-edit", "--skill", "run-tests").returncode == 0


def test_skills_read_speaks_json_and_counts_the_invocation(tmp_path: Path):
    import json

    body = tmp_path / "body.md"
    body.write_text("## Steps\n1. Run the tests with python3 -m pytest.\n")
    run("skills", "new", "run-tests", "-d", "Run the tests. Use when testing.", "-f", str(body))
    r = run("skills", "read", "run-tests", "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["name"] == "run-tests" and got["body"].startswith("## Steps")
    assert got["path"].endswith("skills/run-tests/SKILL.md")
    stats = json.loads(run("skills", "stats", "--json").stdout)
    assert stats[0]["invocations"] == 1
