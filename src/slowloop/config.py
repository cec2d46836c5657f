"""Settings: ``config.toml`` in the home, overridden key by key by ``SLOWLOOP_<SECTION>__<KEY>``.

Every key has a typed default here, one frozen dataclass per section, so ``slowloop config show``
can print the effective value of each one and where it came from, and code reads
``cfg.scheduler.interval`` rather than a string key a typo could miss. A value that does not parse
as its type, falls outside its range (a zero interval, a negative count) or names no setting at
all is an error that names the key, the value and the file or variable it came from.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

from .errors import UserError
from .paths import config_path


class Duration(str):
    """A duration as the person wrote it (``"12h"``), checked when the config is read."""

    @property
    def seconds(self) -> float:
        from .clock import parse_duration

        return parse_duration(self)


def _min(low: float, *, strict: bool = False) -> dict[str, Any]:
    return {"min": low, "strict": strict}


# Every number the design gives lives here once: one frozen dataclass per section, so a typo in a
# setting's name is an AttributeError a type checker sees, and the values arrive typed. Field
# metadata carries the range a value must fall in; durations are ``Duration`` strings.

@dataclass(frozen=True)
class Signals:
    threshold: float = field(default=0.7, metadata=_min(0))
    complex_task_tool_calls: int = field(default=10, metadata=_min(1))
    user_correction: float = field(default=0.9, metadata=_min(0))
    skill_ineffective: float = field(default=0.85, metadata=_min(0))
    error_recovery: float = field(default=0.8, metadata=_min(0))
    known_weakness: float = field(default=0.7, metadata=_min(0))
    complex_task: float = field(default=0.5, metadata=_min(0))


@dataclass(frozen=True)
class Skills:
    max_count: int = field(default=200, metadata=_min(1))
    eviction_grace: Duration = Duration("3d")
    # lastUsedAt is written back to SKILL.md at most this often per skill (see skills.metrics).
    last_used_flush: Duration = Duration("1h")


@dataclass(frozen=True)
class Memo:
    strengths_cap: int = field(default=2000, metadata=_min(1))
    plays_cap: int = field(default=1500, metadata=_min(1))
    # a rule that can be checked but was not relevant this long is archived (history undo restores
    # it); one whose files, tools or commands left the agent's work this long is flagged as stale
    archive_after: Duration = Duration("28d")
    stale_after: Duration = Duration("14d")


@dataclass(frozen=True)
class Bootstrap:
    index_tokens: int = field(default=2000, metadata=_min(1))
    memory_tokens: int = field(default=2500, metadata=_min(0))
    context_tokens: int = field(default=1500, metadata=_min(0))


@dataclass(frozen=True)
class Scheduler:
    interval: Duration = field(default=Duration("12h"), metadata=_min(0, strict=True))
    cooldown: Duration = Duration("4h")
    force_after: Duration = field(default=Duration("7d"), metadata=_min(0, strict=True))
    max_agents_per_cycle: int = field(default=5, metadata=_min(1))
    lock_stale_after: Duration = field(default=Duration("2h"), metadata=_min(0, strict=True))


@dataclass(frozen=True)
class Bundle:
    conversations: int = field(default=5, metadata=_min(1))
    token_budget: int = field(default=12000, metadata=_min(1))
    tool_output_chars: int = field(default=1500, metadata=_min(1))


ProviderKind = Literal["offline", "openai", "anthropic", "command"]
StructuredMode = Literal["auto", "json_schema", "json_object", "none"]


@dataclass(frozen=True)
class Provider:
    # offline | openai | anthropic | command
    kind: ProviderKind = "offline"
    name: str = ""
    model: str = ""
    base_url: str = ""
    api_key_env: str = ""
    command: str = ""
    timeout: float = field(default=120, metadata=_min(0, strict=True))
    retries: int = field(default=3, metadata=_min(0))
    max_output_tokens: int = field(default=2000, metadata=_min(1))
    # auto | json_schema | json_object | none (see providers.openai_compat)
    structured: StructuredMode = "auto"
    # seconds; a server asking to wait longer (Retry-After) is not retried until next cycle
    max_retry_wait: float = field(default=60, metadata=_min(0))


@dataclass(frozen=True)
class Privacy:
    # Names of remote providers the user allows to receive bundles; empty: only loopback
    # endpoints and local commands run.
    allow_remote: tuple[str, ...] = ()


@dataclass(frozen=True)
class MemorySettings:
    chronicle_max_lines: int = field(default=400, metadata=_min(1))
    chronicle_max_tokens: int = field(default=12000, metadata=_min(1))
    state_max_tokens: int = field(default=3000, metadata=_min(1))
    summary_max_chars: int = field(default=4000, metadata=_min(1))
    auto_archive: bool = True


SemanticSwitch = Literal["auto", "on", "off"]


@dataclass(frozen=True)
class Recall:
    semantic: SemanticSwitch = "auto"
    model: str = "all-MiniLM-L6-v2"
    # Reciprocal rank fusion constant. 60 is the textbook value; on LoCoMo a small k (which
    # trusts the top of each list more) fused better: R@10 0.81 at 10 against 0.75 at 60
    # (bench/locomo.py, docs/recall.md).
    rrf_k: int = field(default=10, metadata=_min(0))
    # the semantic list's weight in the fusion (the lexical lists weigh 1)
    semantic_weight: float = field(default=0.7, metadata=_min(0))
    # how many candidates each ranked list (lexical, semantic) brings to the fusion
    fusion_depth: int = field(default=50, metadata=_min(1))
    # semantic neighbours below this cosine similarity are unrelated and left out
    min_similarity: float = field(default=0.25, metadata=_min(-1))


@dataclass(frozen=True)
class Hooks:
    timeout_ms: int = field(default=2000, metadata=_min(1))
    # Stop/SessionEnd hooks observe in a detached process so the agent never waits for it.
    background: bool = True


@dataclass(frozen=True)
class Reflect:
    # After new turns are recorded, a due agent reflects in a detached background process
    # (reflect.auto); the scheduler's rules decide "due". false: only `slowloop reflect`, cron
    # or `slowloop daemon` reflect.
    auto: bool = True


@dataclass(frozen=True)
class Ingest:
    # Worker processes that read a large ingest (16 MB or more): 0 = one per core (at most 4),
    # 1 = read everything in the calling process.
    workers: int = field(default=0, metadata=_min(0))


@dataclass(frozen=True)
class Ledger:
    # postgresql://user@host/dbname puts the ledger (turns, signals, metrics, reflections,
    # history, leases) on a PostgreSQL server many machines share; empty: slowloop.db in the home.
    # SLOWLOOP_DATABASE_URL overrides it. Keep the password out of this file: libpq reads
    # PGPASSWORD and ~/.pgpass.
    database_url: str = ""


SECTIONS: dict[str, type] = {
    "signals": Signals, "skills": Skills, "memo": Memo, "bootstrap": Bootstrap,
    "scheduler": Scheduler, "bundle": Bundle, "provider": Provider, "privacy": Privacy,
    "memory": MemorySettings, "recall": Recall, "hooks": Hooks, "reflect": Reflect,
    "ingest": Ingest, "ledger": Ledger,
}


def _defaults() -> dict[str, dict[str, Any]]:
    return {name: {f.name: f.default for f in fields(cls)} for name, cls in SECTIONS.items()}


# The defaults as plain values, section by section (read-only by convention; derived from above).
DEFAULTS: dict[str, dict[str, Any]] = _defaults()

ENV_PREFIX = "SLOWLOOP_"


@dataclass(frozen=True)
class Setting:
    section: str
    key: str
    value: Any
    source: str  # "default" | "config.toml" | "env SLOWLOOP_X__Y"


@dataclass(frozen=True)
class Config:
    """The effective settings: one typed, frozen section each (``cfg.scheduler.interval``)."""

    signals: Signals = Signals()
    skills: Skills = Skills()
    memo: Memo = Memo()
    bootstrap: Bootstrap = Bootstrap()
    scheduler: Scheduler = Scheduler()
    bundle: Bundle = Bundle()
    provider: Provider = Provider()
    privacy: Privacy = Privacy()
    memory: MemorySettings = MemorySettings()
    recall: Recall = Recall()
    hooks: Hooks = Hooks()
    reflect: Reflect = Reflect()
    ingest: Ingest = Ingest()
    ledger: Ledger = Ledger()
    sources: dict[tuple[str, str], str] = field(default_factory=dict, compare=False)
    path: Path | None = field(default=None, compare=False)

    def get(self, section: str, key: str) -> Any:
        """One value by name, for callers that hold the name as a string (prefer attributes)."""
        if section not in SECTIONS or key not in DEFAULTS[section]:
            raise UserError(f"unknown setting {section}.{key}",
                            hint="see `slowloop config show` for every key")
        return getattr(getattr(self, section), key)

    @property
    def values(self) -> dict[str, dict[str, Any]]:
        return {name: asdict(getattr(self, name)) for name in SECTIONS}

    def section(self, section: str) -> dict[str, Any]:
        if section not in SECTIONS:
            raise UserError(f"unknown section [{section}]",
                            hint=f"known sections: {', '.join(SECTIONS)}")
        return asdict(getattr(self, section))

    def settings(self) -> list[Setting]:
        return [Setting(section, key, value, self.sources.get((section, key), "default"))
                for section, keys in self.values.items() for key, value in keys.items()]

    def with_overrides(self, **sections: dict[str, Any]) -> Config:
        """A copy with some values replaced (library callers and tests), checked like the file."""
        sources = dict(self.sources)
        changed: dict[str, Any] = {}
        for section, keys in sections.items():
            new = {k: _parse(section, k, v, "override") for k, v in keys.items()}
            changed[section] = replace(getattr(self, section), **new)
            sources.update({(section, k): "override" for k in keys})
        return replace(self, **changed, sources=sources)


def _type_of(section: str, key: str) -> Any:
    return _hints(section)[key]


def _hints(section: str) -> dict[str, Any]:
    cached = _HINTS.get(section)
    if cached is None:
        cached = _HINTS[section] = get_type_hints(SECTIONS[section])
    return cached


_HINTS: dict[str, dict[str, Any]] = {}


def _parse(section: str, key: str, value: Any, source: str) -> Any:
    """The value of ``section.key`` from ``source``, converted to its type and range-checked."""
    return _check(section, key, _coerce(section, key, value, source), source)


def _coerce(section: str, key: str, value: Any, source: str) -> Any:
    if section not in SECTIONS:
        raise UserError(f"{source}: unknown section [{section}]",
                        hint=f"known sections: {', '.join(SECTIONS)}")
    if key not in DEFAULTS[section]:
        raise UserError(f"{source}: unknown key {section}.{key}",
                        hint=f"keys in [{section}]: {', '.join(DEFAULTS[section])}")
    default = DEFAULTS[section][key]
    kind = _type_of(section, key)
    try:
        if get_origin(kind) is Literal:
            choices = get_args(kind)
            s = str(value).strip().lower()
            if s not in choices:
                raise UserError(f"{source}: {section}.{key} = {value!r} is not one of "
                                f"{', '.join(choices)}", hint=f"the default is {default!r}")
            return s
        if kind is bool:
            if isinstance(value, bool):
                return value
            s = str(value).strip().lower()
            if s in ("1", "true", "yes", "on"):
                return True
            if s in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if kind is int:
            if isinstance(value, bool):
                raise ValueError
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            return int(value)
        if kind is float:
            if isinstance(value, bool):
                raise ValueError
            return float(value)
        if get_origin(kind) is tuple:
            if isinstance(value, (list, tuple)):
                return tuple(str(v) for v in value)
            s = str(value).strip()
            if s.startswith("["):
                return tuple(str(v) for v in json.loads(s))
            return tuple(p.strip() for p in s.split(",") if p.strip())
        if kind is Duration:
            return Duration(str(value).strip())
        return str(value)
    except (ValueError, TypeError, json.JSONDecodeError):
        name = "list" if get_origin(kind) is tuple else getattr(kind, "__name__", str(kind))
        raise UserError(f"{source}: {section}.{key} = {value!r} is not a valid {name}",
                        hint=f"the default is {default!r}") from None


def _check(section: str, key: str, value: Any, source: str) -> Any:
    """Range checks on a coerced value: durations must parse, numbers must be in range."""
    meta = next(f.metadata for f in fields(SECTIONS[section]) if f.name == key)
    default = DEFAULTS[section][key]
    number = value
    if isinstance(value, Duration):
        try:
            number = value.seconds
        except ValueError as exc:
            raise UserError(f"{source}: {section}.{key} = {value!r}: {exc}",
                            hint=f"the default is {default!r}") from None
    if "min" not in meta or isinstance(number, (bool, str)):
        return value
    low, strict = meta["min"], meta["strict"]
    if (number <= low) if strict else (number < low):
        if isinstance(value, Duration):
            what = "must be longer than zero"
        elif low == 0 and not strict:
            what = "is negative"
        else:
            what = f"must be more than {low:g}" if strict else f"must be at least {low:g}"
        raise UserError(f"{source}: {section}.{key} = {value!r} {what}",
                        hint=f"the default is {default!r}")
    return value


def load_config(home: Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Defaults, then ``<home>/config.toml``, then ``SLOWLOOP_<SECTION>__<KEY>`` variables.

    Every value is converted to its type and range-checked where it is read, so an error names
    the file or the variable; an unknown section, key or ``SLOWLOOP_<SECTION>__<KEY>`` variable is
    an error too (a typo would otherwise be silently ignored).
    """
    env = os.environ if environ is None else environ
    values: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
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
                values.setdefault(section, {})[key] = _parse(section, key, value, str(path))
                sources[(section, key)] = str(path.name)
    for name, raw in env.items():
        if not name.startswith(ENV_PREFIX) or "__" not in name[len(ENV_PREFIX):]:
            continue  # SLOWLOOP_HOME, SLOWLOOP_AGENT: not settings
        section, _, key = name[len(ENV_PREFIX):].partition("__")
        section, key = section.lower(), key.lower()
        if section not in SECTIONS or key not in DEFAULTS[section]:
            known = (f"keys in [{section}]: {', '.join(DEFAULTS[section])}" if section in SECTIONS
                     else f"sections: {', '.join(SECTIONS)}")
            raise UserError(f"environment variable {name} is not a setting "
                            f"(no {section}.{key})",
                            hint=f"unset it, or fix the spelling; {known}")
        values[section][key] = _parse(section, key, raw, f"env {name}")
        sources[(section, key)] = f"env {name}"
    return Config(**{name: SECTIONS[name](**values[name]) for name in SECTIONS},
                  sources=sources, path=path)


def render_toml(cfg: Config) -> str:
    """The effective configuration as TOML (what ``config show`` prints)."""
    lines: list[str] = []
    for section, keys in cfg.values.items():
        lines.append(f"[{section}]")
        for key, value in keys.items():
            src = cfg.sources.get((section, key), "default")
            value = shown_value(section, key, value)
            lines.append(f"{key} = {toml_value(value)}" + ("" if src == "default" else f"  # from {src}"))
        lines.append("")
    return "\n".join(lines)


_PASSWORD_FORMS = (
    r"(?<=://)[^:/@\s]*:(?P<p>[^@/\s]*)@",  # postgresql://me:PASSWORD@host
    # the user information as a person means it: up to the last "@" before the query, whatever
    # the password holds ("/", "@", a space), however a driver splits it
    r"^[a-z][a-z0-9+.-]*://[^:/?#@\s]*:(?P<p>[^?#]*)@",
    r"(?:^|[\s?&])password\s*=\s*'(?P<p>(?:[^'\\]|\\.)*)'",  # key=value, quoted
    r"(?:^|[\s?&])password\s*=\s*(?P<p>[^\s&']+)",  # key=value or ?password=…
    # key=value with a space in an unquoted password: libpq stops at the space and calls the
    # rest a keyword without "=", quoting it
    r"(?:^|\s)password\s*=\s*(?!')(?P<p>.*?)(?=\s+\w+\s*=|\s*$)",
)
# a piece this long of a password, quoted alone by a driver, is masked too
_PIECE = 3


def url_passwords(url: str) -> list[str]:
    """The password(s) a database URL or key=value connection string carries, raw and decoded,
    and the pieces of each a driver may quote on their own (split where a parser would split)."""
    import re
    from urllib.parse import unquote

    found: set[str] = set()
    for form in _PASSWORD_FORMS:
        for m in re.finditer(form, url, re.I):
            p = m.group("p")
            if p:
                found.update({p, unquote(p)})
    for p in list(found):
        found.update(piece for piece in re.split(r"[\s/@:?#&=,%'\"\\]+", p) if len(piece) >= _PIECE)
    return sorted(found, key=len, reverse=True)


def redact_url(url: str, text: str | None = None, *, quoted: bool = False) -> str:
    """``text`` (by default the URL itself) without the URL's password, for display:
    ``postgresql://me:***@host/db``, ``host=db password=*** user=me``. An error a driver raised
    about the URL may quote it (an invalid %-escape, a key=value parse error): pass it as ``text``;
    ``quoted``: an error *parsing* the URL, whose quoted pieces are kept only when the shown URL
    holds them (a parameter's name), any other piece of a mistyped URL becoming ``"…"``."""
    import re

    out = url if text is None else text
    for p in url_passwords(url):
        out = out.replace(p, "***")
    if quoted:
        shown = redact_url(url)
        out = re.sub(r'"([^"]*)"', lambda m: m.group(0) if m.group(1) in shown else '"…"', out)
    return out


def shown_value(section: str, key: str, value: Any) -> Any:
    """A setting's value as ``config show`` prints it: a database URL without its password."""
    if (section, key) == ("ledger", "database_url") and isinstance(value, str):
        return redact_url(value)
    return value


def toml_value(value: Any) -> str:
    """A value as TOML writes it (``config show`` and ``config_edit`` both use it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)
