"""QA regressions: a config.toml that cannot be read is a one-line error naming it, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)


def test_config_toml_not_utf8_names_the_file(slowloop_home: Path):
    slowloop_home.mkdir(parents=True)
    (slowloop_home / "config.toml").write_bytes(b"[signals]\nthreshold = 0.5 # caf\xe9\n")
    r = run("config", "show")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert str(slowloop_home / "config.toml") in r.stderr
    assert "not UTF-8" in r.stderr and "0xe9" in r.stderr
    assert r.stdout == ""


def test_config_toml_that_is_a_folder_names_the_file(slowloop_home: Path):
    (slowloop_home / "config.toml").mkdir(parents=True)
    r = run("config", "show")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert str(slowloop_home / "config.toml") in r.stderr
    assert "cannot be read" in r.stderr
