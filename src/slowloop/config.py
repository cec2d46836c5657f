"""Settings: ``config.toml`` in the home, overridden key by key by ``SLOWLOOP_<SECTION>__<KEY>``.

Every key has a default here, so ``slowloop config show`` can print the effective value of each
one and where it came from. Types follow the default: an override of an int key must parse as an
int, and a wrong type is an error that names the key, the value and the source.
"""

from __future__ import annotations

import copy
import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UserError
from .paths import config_path

# Every number the design gives lives here once. Durations are strings ("12h", "3d").
DEFAULTS: dict[str, dict[str, Any]] = {
    "signals": {
        "threshold": 0.7,
        "complex_task_tool_calls": 10,
        "user_correction": 0.9,
        "skill_ineffective": 0.85,
        "error_recovery": 0.8,
        "known_weakness": 0.7,
        "complex_task": 0.5,
    },
    "skills": {
        "max_count": 200,
        "eviction_grace": "3d",
        # lastUsedAt is written back to SKILL.md at most this often per skill (see skills.metrics).
        "last_used_flush": "1h",
    },
    "memo": {
        "strengths_cap": 2000,
        "plays_cap": 1500,
    },
    "bootstrap": {
        "index_tokens": 2000,
        "memory_tokens": 2500,
        "context_tokens": 1500,
    },
    "scheduler": {
        "interval": "12h",
        "cooldown": "4h",
        "force_after": "7d",
        "max_agents_per_cycle": 5,
        "lock_stale_after": "2h",
    },
    "bundle": {
        "conversations": 5,
        "token_budget": 12000,
        "tool_output_chars": 1500,
    },
    "provider": {
        # offline | openai | anthropic | command
        "kind": "offline",
        "name": "",
        "model": "",
        "base_url": "",
        "api_key_env": "",
        "command": "",
        "timeout": 120,
        "retries": 3,
        "max_output_tokens": 2000,
        # auto | json_schema | json_object | none (see providers.openai_compat)
        "structured": "auto",
        # seconds; a server asking to wait longer (Retry-After) is not retried until next cycle
        "max_retry_wait": 60,
    },
    "privacy": {
        # Names of remote providers the user allows to receive bundles; empty: only loopback
        # endpoints and local commands run.
        "allow_remote": [],
    },
    "memory": {
        "chronicle_max_lines": 400,
        "chronicle_max_tokens": 12000,
        "state_max_tokens": 3000,
        "summary_max_chars": 4000,
        "auto_archive": True,
    },
    "recall": {
        "semantic": "auto",
        "model": "all-MiniLM-L6-v2",
        # Reciprocal rank fusion constant. 60 is the textbook value; on LoCoMo a small k (which
        # trusts the top of each list more) fused better: R@10 0.81 at 10 against 0.75 at 60
        # (bench/locomo.py, docs/recall.md).
        "rrf_k": 10,
        # the semantic list's weight in the fusion (the lexical lists weigh 1)
        "semantic_weight": 0.7,
        # how many candidates each ranked list (lexical, semantic) brings to the fusion
        "fusion_depth": 50,
        # semantic neighbours below this cosine similarity are unrelated and left out
        "min_similarity": 0.25,
    },
    "hooks": {
        "timeout_ms": 2000,
        # Stop/SessionEnd hooks observe in a detached process so the agent never waits for it.
        "background": True,
    },
    "reflect": {
        # After new turns are recorded, a due agent reflects in a detached background process
        # (reflect.auto); the scheduler's rules decide "due". false: only `slowloop reflect`, cron
        # or `slowloop daemon` reflect.
        "auto": True,
    },
}

ENV_PREFIX = "SLOWLOOP_"


@dataclass(frozen=True)
class Setting:
    section: str
    key: str
    value: Any
    source: str  # "default" | "config.toml" | "env SLOWLOOP_X__Y"


@dataclass
class Config:
    values: dict[str, dict[str, Any]]
    sources: dict[tuple[str, str], str] = field(default_factory=dict)
    path: Path | None = None

    def get(self, section: str, key: str) -> Any:
        try:
            return self.values[section][key]
        except KeyError:
            raise UserError(f"unknown setting {section}.{key}",
                            hint="see `slowloop config show` for every key") from None

    def section(self, section: str) -> dict[str, Any]:
        return dict(self.values.get(section, {}))

    def settings(self) -> list[Setting]:
        out = []
        for section, keys in self.values.items():
            for key, value in keys.items():
                out.append(Setting(section, key, value, self.sources.get((section, key), "default")))
        return out

    def with_overrides(self, **sections: dict[str, Any]) -> "Config":
        """A copy with some values replaced (library callers and tests)."""
        values = copy.deepcopy(self.values)
        sources = dict(self.sources)
        for section, keys in sections.items():
            for key, value in keys.items():
                values[section][key] = _coerce(section, key, value, "override")
                sources[(section, key)] = "override"
        return Config(values, sources, self.path)


def _coerce(section: str, key: str, value: Any, source: str) -> Any:
    if section not in DEFAULTS:
        raise UserError(f"{source}: unknown section [{section}]",
                        hint=f"known sections: {', '.join(DEFAULTS)}")
    if key not in DEFAULTS[section]:
        raise UserError(f"{source}: unknown key {section}.{key}",
                        hint=f"keys in [{section}]: {', '.join(DEFAULTS[section])}")
    default = DEFAULTS[section][key]
    try:
        if isinstance(default, bool):
            if isinstance(value, bool):
                return value
            s = str(value).strip().lower()
            if s in ("1", "true", "yes", "on"):
                return True
            if s in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if isinstance(default, int):
            if isinstance(value, bool):
                raise ValueError
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            return int(value)
        if isinstance(default, float):
            if isinstance(value, bool):
                raise ValueError
            return float(value)
        if isinstance(default, list):
            if isinstance(value, list):
                return [str(v) for v in value]
            s = str(value).strip()
            if s.startswith("["):
                return [str(v) for v in json.loads(s)]
            return [p.strip() for p in s.split(",") if p.strip()]
        return str(value)
    except (ValueError, TypeError, json.JSONDecodeError):
        kind = type(default).__name__
        raise UserError(f"{source}: {section}.{key} = {value!r} is not a valid {kind}",
                        hint=f"the default is {default!r}") from None


# Strings that are durations: checked when read from the file or the environment, so a typo is an
# error at once instead of a silently wrong schedule (or a failure hours later in the daemon).
DURATION_KEYS = frozenset({("skills", "eviction_grace"), ("skills", "last_used_flush"),
                           ("scheduler", "interval"), ("scheduler", "cooldown"),
                           ("scheduler", "force_after"), ("scheduler", "lock_stale_after")})


def _check(section: str, key: str, value: Any, source: str) -> Any:
    """Range checks on a coerced value: durations must parse, numbers must not be negative."""
    if (section, key) in DURATION_KEYS:
        from .clock import parse_duration

        try:
            parse_duration(value)
        except ValueError as exc:
            raise UserError(f"{source}: {section}.{key} = {value!r}: {exc}",
                            hint=f"the default is {DEFAULTS[section][key]!r}") from None
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        raise UserError(f"{source}: {section}.{key} = {value!r} is negative",
                        hint=f"use 0 or more (the default is {DEFAULTS[section][key]!r})")
    return value


def load_config(home: Path | None = None, environ: dict[str, str] | None = None) -> Config:
    """Defaults, then ``<home>/config.toml``, then ``SLOWLOOP_<SECTION>__<KEY>`` variables."""
    env = os.environ if environ is None else environ
    values = copy.deepcopy(DEFAULTS)
    sources: dict[tuple[str, str], str] = {}
    path = config_path(home)
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"{path}: not valid TOML: {exc}",
                            hint="fix the file, or move it away to use the defaults") from None
        except UnicodeDecodeError as exc:
            raise UserError(f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset "
                            f"{exc.start})",
                            hint="save it as UTF-8 (TOML files must be), or move it away") from None
        except OSError as exc:  # a folder, no permission: the file cannot be read at all
            raise UserError(f"{path}: cannot be read: {exc.strerror or exc}",
                            hint="config.toml must be a readable file; move it away to use the "
                                 "defaults") from None
        for section, keys in data.items():
            if not isinstance(keys, dict):
                raise UserError(f"{path}: top-level key {section!r} must be a [section]")
            for key, value in keys.items():
                values.setdefault(section, {})
                values[section][key] = _check(section, key, _coerce(section, key, value, str(path)),
                                              str(path))
                sources[(section, key)] = str(path.name)
    for name, raw in env.items():
        if not name.startswith(ENV_PREFIX) or "__" not in name[len(ENV_PREFIX):]:
            continue
        section, _, key = name[len(ENV_PREFIX):].partition("__")
        section, key = section.lower(), key.lower()
        if section not in DEFAULTS:
            continue  # SLOWLOOP_HOME and friends are not settings
        values[section][key] = _check(section, key, _coerce(section, key, raw, f"env {name}"),
                                      f"env {name}")
        sources[(section, key)] = f"env {name}"
    return Config(values, sources, path)


def render_toml(cfg: Config) -> str:
    """The effective configuration as TOML (what ``config show`` prints)."""
    lines: list[str] = []
    for section, keys in cfg.values.items():
        lines.append(f"[{section}]")
        for key, value in keys.items():
            src = cfg.sources.get((section, key), "default")
            lines.append(f"{key} = {_toml_value(value)}" + ("" if src == "default" else f"  # from {src}"))
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)
