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


def test_a_duration_typo_is_refused_when_the_config_is_read(slowloop_home: Path):
    slowloop_home.mkdir(parents=True)
    (slowloop_home / "config.toml").write_text('[scheduler]\ninterval = "banana"\n')
    r = run("schedule")  # used to print "every banana" and carry on
    assert r.returncode == 2, r.stdout
    assert "scheduler.interval = 'banana'" in r.stderr
    assert str(slowloop_home / "config.toml") in r.stderr
    assert "30s, 15m, 4h" in r.stderr


def test_negative_numbers_and_bad_env_durations_name_the_variable():
    import pytest

    from slowloop.config import load_config
    from slowloop.errors import UserError

    with pytest.raises(UserError, match="SLOWLOOP_SIGNALS__THRESHOLD.*negative"):
        load_config(environ={"SLOWLOOP_SIGNALS__THRESHOLD": "-1"})
    with pytest.raises(UserError, match="SLOWLOOP_SKILLS__EVICTION_GRACE.*'soon'"):
        load_config(environ={"SLOWLOOP_SKILLS__EVICTION_GRACE": "soon"})
    cfg = load_config(environ={"SLOWLOOP_SCHEDULER__COOLDOWN": "0", "SLOWLOOP_SIGNALS__THRESHOLD": "0"})
    assert cfg.get("scheduler", "cooldown") == "0" and cfg.get("signals", "threshold") == 0.0
