"""QA regressions: a home that is a file, or a folder where a file should be, is a one-line error
naming the path, never a Python traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, SLOWLOOP_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                          env=env, timeout=60)


def test_home_that_is_a_file(tmp_path: Path):
    home = tmp_path / "not-a-folder"
    home.write_text("oops")
    r = run("agents", home=home)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert f"{home} is a file, not a folder" in r.stderr and "SLOWLOOP_HOME" in r.stderr
    assert r.stdout == ""
    assert home.read_text() == "oops"


def test_environment_failure_is_one_line_with_the_path(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "agents").write_text("a file where the agents folder belongs")
    body = tmp_path / "body.md"
    body.write_text("## Steps\n1. Run the tests with python3 -m pytest.\n")
    r = run("skills", "new", "run-tests", "-d", "Run the tests. Use when testing.", "-f", str(body),
            home=home)
    assert r.returncode == 5, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith("error: ") and str(home / "agents") in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_deleted_home_is_reported_before_an_empty_one_takes_its_place(tmp_path):
    import shutil
    import subprocess
    import sys

    home = tmp_path / "learned"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOWLOOP_")}
    env.update(SLOWLOOP_HOME=str(home), XDG_STATE_HOME=str(tmp_path / "state"))

    def status():
        return subprocess.run([sys.executable, "-m", "slowloop", "status"], env=env, capture_output=True,
                              text=True, timeout=60)
    first = status()
    assert first.returncode == 0 and "is gone" not in first.stderr
    shutil.rmtree(home)  # everything learned, deleted
    gone = status()
    assert gone.returncode == 0
    assert f"the slowloop home {home} is gone" in gone.stderr and "SLOWLOOP_HOME" in gone.stderr
    assert "is gone" not in status().stderr  # said once: the new home is known from then on
