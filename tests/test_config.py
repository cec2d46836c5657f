"""Typed settings: one frozen dataclass per section; nonsense is refused where it comes in."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest

from slowloop.config import Config, Duration, load_config
from slowloop.errors import UserError


def test_sections_are_typed_and_frozen():
    cfg = load_config(environ={"SLOWLOOP_SCHEDULER__INTERVAL": "6h",
                               "SLOWLOOP_PRIVACY__ALLOW_REMOTE": "openai, corp"})
    assert isinstance(cfg.scheduler.interval, Duration) and cfg.scheduler.interval.seconds == 6 * 3600
    assert cfg.signals.threshold == 0.7 and isinstance(cfg.skills.max_count, int)
    assert cfg.privacy.allow_remote == ("openai", "corp")
    assert cfg.get("scheduler", "interval") == "6h"  # the string-keyed reader still works
    assert cfg.sources[("scheduler", "interval")] == "env SLOWLOOP_SCHEDULER__INTERVAL"
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.scheduler.interval = Duration("1h")  # type: ignore[misc]
    with pytest.raises(AttributeError):
        cfg.scheduler.intervl  # type: ignore[attr-defined]  # noqa: B018
    assert Config() == load_config(environ={})  # the dataclass defaults are the defaults


@pytest.mark.parametrize("name, value, message", [
    ("SLOWLOOP_FOO__BAR", "1", "SLOWLOOP_FOO__BAR is not a setting"),
    ("SLOWLOOP_SCHEDULER__INTERVL", "1h", "SLOWLOOP_SCHEDULER__INTERVL is not a setting"),
    ("SLOWLOOP_SCHEDULER__INTERVAL", "0h", "SLOWLOOP_SCHEDULER__INTERVAL.*longer than zero"),
    ("SLOWLOOP_SCHEDULER__FORCE_AFTER", "0", "SLOWLOOP_SCHEDULER__FORCE_AFTER.*longer than zero"),
    ("SLOWLOOP_SKILLS__MAX_COUNT", "-3", "SLOWLOOP_SKILLS__MAX_COUNT.*at least 1"),
    ("SLOWLOOP_SCHEDULER__MAX_AGENTS_PER_CYCLE", "0", "MAX_AGENTS_PER_CYCLE.*at least 1"),
    ("SLOWLOOP_BUNDLE__TOKEN_BUDGET", "-1", "SLOWLOOP_BUNDLE__TOKEN_BUDGET"),
    ("SLOWLOOP_PROVIDER__KIND", "gpt", "SLOWLOOP_PROVIDER__KIND.*not one of offline"),
    ("SLOWLOOP_RECALL__SEMANTIC", "maybe", "SLOWLOOP_RECALL__SEMANTIC.*not one of auto, on, off"),
    ("SLOWLOOP_HOOKS__BACKGROUND", "perhaps", "SLOWLOOP_HOOKS__BACKGROUND.*not a valid bool"),
])
def test_nonsense_in_the_environment_names_the_variable(name, value, message):
    with pytest.raises(UserError, match=message):
        load_config(environ={name: value})


def test_nonsense_in_config_toml_names_the_file_and_key(slowloop_home):
    slowloop_home.mkdir(parents=True)
    (slowloop_home / "config.toml").write_text("[skills]\nmax_count = -1\n")
    with pytest.raises(UserError, match=r"config.toml: skills.max_count = -1 must be at least 1"):
        load_config(slowloop_home)
    (slowloop_home / "config.toml").write_text("[skils]\nmax_count = 5\n")
    with pytest.raises(UserError, match=r"unknown section \[skils\]"):
        load_config(slowloop_home)


def test_provider_kind_is_normalised():
    assert load_config(environ={"SLOWLOOP_PROVIDER__KIND": " OpenAI "}).provider.kind == "openai"


def test_an_unknown_override_fails_the_cli_with_the_variable_named(slowloop_home):
    env = dict(os.environ, SLOWLOOP_SIGNALS__TRESHOLD="0.8")
    r = subprocess.run([sys.executable, "-m", "slowloop", "schedule"], capture_output=True,
                       text=True, env=env, timeout=60)
    assert r.returncode == 2 and "SLOWLOOP_SIGNALS__TRESHOLD" in r.stderr, r.stderr
    assert "threshold" in r.stderr  # the hint lists the real keys
