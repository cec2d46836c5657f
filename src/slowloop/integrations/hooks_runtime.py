"""What the installed hooks run: fail-open, quick, silent but for the harness's payload.

The command a harness runs is ``<python> -m slowloop.integrations.hooks_runtime HARNESS EVENT
--agent NAME [--skills-dir DIR]`` (see ``command_for``). It never breaks the user's session:
every failure is caught, logged to ``<home>/logs/hooks.log``, and the process exits 0 having
printed nothing (or, for SessionStart, only the JSON payload).

- **SessionStart** prints ``{"hookSpecificOutput": {"hookEventName": "SessionStart",
  "additionalContext": <bootstrap>}}`` and records one impression per skill shown. The bootstrap
  is served from a cache keyed by the files it is built from (memo, skills, memory, config) and
  the ledger's last invocation, so the common start costs a few ``stat`` calls and one query
  instead of importing the whole builder; any change rebuilds it. It also keeps the exported
  skill links current.
- **Stop / SessionEnd** observe the transcript incrementally (``follow.observe_new``). By default
  the work runs in a detached background process so the agent is never kept waiting
  (``hooks.background``); the hook itself only validates its input and starts it.

This module imports only the standard library at load time; click and PyYAML are never loaded on
the fast paths.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Literal

from ..bootstrap_cache import _last_built, cached_bootstrap
from ..paths import layout
from ..proc import append_log, spawn_detached
from .news import learned_news

Harness = Literal["claude-code", "codex"]
Event = Literal["SessionStart", "Stop", "SessionEnd"]
HARNESSES: tuple[str, ...] = ("claude-code", "codex")
EVENTS: tuple[str, ...] = ("SessionStart", "Stop", "SessionEnd")
MODULE = "slowloop.integrations.hooks_runtime"
MAX_STDIN = 1 << 20


# -- the command the harness runs -------------------------------------------------------------

def _quote(arg: str) -> str:
    if arg and all(c.isalnum() or c in "-_./:=@+" for c in arg):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`") + '"'


def command_for(harness: str, event: str, *, agent: str, skills_dir: Path | None = None,
                python: str | None = None, home: Path | None = None,
                agents_md: Path | None = None, project: Path | None = None,
                scope: str | None = None) -> str:
    """The shell command installed for one hook. ``MODULE`` in it is how slowloop recognises its
    own entries when it removes or updates them."""
    parts = [python or sys.executable, "-m", MODULE, harness, event, "--agent", agent]
    if skills_dir is not None:
        parts += ["--skills-dir", str(skills_dir)]
    if agents_md is not None:
        parts += ["--agents-md", str(agents_md)]
    if home is not None:
        parts += ["--home", str(home)]
    if project is not None:
        parts += ["--project", str(project)]
    if scope is not None:
        parts += ["--scope", scope]
    return " ".join(_quote(p) for p in parts)


def is_ours(command: Any) -> bool:
    return isinstance(command, str) and MODULE in command


# -- logging ------------------------------------------------------------------------------------

def _home(explicit: str | None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    from ..paths import home

    return home()


def log(home: Path, message: str) -> None:
    """One line in ``<home>/logs/hooks.log``; never raises."""
    append_log(home, "hooks.log", message)


# -- input --------------------------------------------------------------------------------------

class HookInputError(ValueError):
    pass


def read_payload(stream=None) -> dict[str, Any]:
    """The harness's JSON on stdin: an object, at most 1 MB (an empty stdin is an empty object)."""
    raw = (stream or sys.stdin.buffer).read(MAX_STDIN + 1)
    if len(raw) > MAX_STDIN:
        raise HookInputError("hook input is larger than 1 MB")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise HookInputError(f"hook input is not JSON: {exc}") from None
    except RecursionError:
        raise HookInputError("hook input nests deeper than JSON can be read") from None
    if not isinstance(data, dict):
        raise HookInputError(f"hook input is a JSON {type(data).__name__}, expected an object")
    return data


def transcript_of(payload: dict[str, Any]) -> Path | None:
    value = payload.get("transcript_path")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise HookInputError(f"transcript_path is {value!r}, expected a file path")
    return Path(value).expanduser()


# -- SessionStart -------------------------------------------------------------------------------

def record_impressions(store, agent: str, skills: list[str]) -> None:
    if not skills:
        return
    from .. import clock
    from ..store import ledger

    ledger.record_impressions(store, store.agent_id(agent), skills, at=clock.iso(),
                              bootstrap_id=f"{clock.iso(micro=True)}-{os.getpid()}")


def _skills_of(home: Path, agent: str) -> Path:

    return layout(agent, home).skills


def _session_marker(home: Path, agent: str, session_id: str) -> Path:
    digest = hashlib.sha256(session_id.encode("utf-8", "replace")).hexdigest()[:24]
    return home / "cache" / "sessions" / agent / digest


def _already_bootstrapped(home: Path, agent: str, payload: dict[str, Any]) -> bool:
    """A resumed session that got the bootstrap at its start still has it in its context."""
    sid = payload.get("session_id")
    if not isinstance(sid, str) or not sid:
        return False
    marker = _session_marker(home, agent, sid)
    if payload.get("source") == "resume" and marker.exists():
        return True
    from ..errors import DataError
    from ..fsutil import confine

    try:
        confine(marker)  # a cache folder planted as a link out of the home is not written through
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except (OSError, DataError):
        pass
    return False


def session_start(home: Path, agent: str, skills_dir: Path | None, payload: dict[str, Any] | None = None,
                  project: Path | None = None, harness: str = "claude-code") -> str | None:
    """The payload to print (None: nothing to say)."""
    from ..errors import DataError
    from ..store import open_store

    payload = payload or {}
    if skills_dir is not None:
        from ..places.skills_export import sync

        try:
            sync(_skills_of(home, agent), skills_dir)
        except OSError as exc:
            # The links are a convenience; the bootstrap is the point of this hook. A skills folder
            # we cannot write (a file in its place, a read-only checkout) must not cost the session
            # its memo and skill index.
            log(home, f"SessionStart {agent}: could not link skills into {skills_dir}: {exc}")
    if _already_bootstrapped(home, agent, payload):
        log(home, f"SessionStart {agent}: resumed session {payload.get('session_id')} already has the"
                  " bootstrap; not sent again")
        return None
    # Claude Code and Codex list the linked skills (name and description) in their own prompt
    # (checked with both real clients): the index would say it twice.
    host_lists = skills_dir is not None and skills_dir.is_dir()
    try:
        store = open_store(home=home)
    except DataError as exc:
        # A ledger on a server this machine cannot reach now (a laptop offline): the session
        # still starts with what was learned, as last built here; turns are observed later.
        text = _last_built(home, agent, project, host_lists)
        log(home, f"SessionStart {agent}: FAILED to open the ledger ({exc.message}); "
                  + ("sent the bootstrap built last" if text else "nothing built yet to send"))
        if not text:
            return None
        return json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                  "additionalContext": text}}, ensure_ascii=False)
    with store:
        text, shown = cached_bootstrap(home, agent, store, project=project, host_lists_skills=host_lists)
        news = learned_news(home, agent, store)
        if not text.strip() and not news:
            return None
        record_impressions(store, agent, shown)
    out: dict[str, Any] = {}
    if text.strip():
        out["hookSpecificOutput"] = {"hookEventName": "SessionStart", "additionalContext": text}
    if news:
        out["systemMessage"] = news
    return json.dumps(out, ensure_ascii=False)


def defer_to_project(home: Path, harness: str, scope: str | None, payload: dict[str, Any]) -> dict | None:
    """A user-level hook gives way to a project-level install covering the session's folder, so a
    session is observed (and bootstrapped) once, under the project's agent."""
    if scope != "user":
        return None
    from ..places.targets import project_install_covering

    cwd = payload.get("cwd")
    return project_install_covering(home, harness, cwd if isinstance(cwd, str) else None)


# -- Stop / SessionEnd --------------------------------------------------------------------------

def observe_transcript(home: Path, agent: str, transcript: Path, skills_dir: Path | None,
                       agents_md: Path | None = None, project: Path | None = None) -> str:
    """Observe what is new in ``transcript``; refresh recall, the bootstrap cache, the skill links.
    Returns a one-line summary for the log."""
    from ..config import load_config
    from ..selfobs import is_reflector_transcript
    from ..store import open_store
    from .follow import observe_new

    if is_reflector_transcript(transcript, [home / "reflector"]):
        return "a slowloop reflection's own session: not observed"
    cfg = load_config(home)
    caught_up = _catch_up(home, agent, cfg, skip=transcript)
    weakness = None
    if layout(agent, home).memo.exists():
        from ..ingest import default_weakness

        weakness = default_weakness(agent, home=home)
    from .recorded import turns_recorded

    with open_store(home=home) as store:
        res = observe_new(transcript, agent=agent, store=store, cfg=cfg, weakness=weakness, home=home)
        after = turns_recorded(home, agent, store, cfg, changed=res.new + res.updated,
                               why=f"turns from {transcript.name}", skills_dir=skills_dir, agents_md=agents_md,
                               project=project)
        started = after.reflection_pid
        for note in after.notes:
            log(home, f"{agent}: {note}")
    summary = (f"{res.turns} turn(s) from byte {res.start}: {res.new} new, {res.updated} updated,"
               f" {res.unchanged} unchanged; next offset {res.offset}")
    if caught_up:
        summary += f"; caught up on {caught_up} turn(s) a failed hook had missed"
    if res.reset:
        summary += f"; read from the start ({res.reset})"
    if res.skipped:
        summary += f"; skipped: {res.skipped}"
    if after.memory:
        summary += f"; {after.memory}"
    for p in res.problems[:5]:
        summary += f"; problem: {p}"
    if started:
        summary += f"; reflecting in background pid {started}"
    return summary


def _missed_file(home: Path) -> Path:
    return home / "cache" / "missed-transcripts.json"


def note_missed(home: Path, agent: str, transcript: Path) -> None:
    """A hook failed before observing ``transcript`` (a broken config.toml, a full disk…): the
    next hook that runs catches up on it, even when that session has ended long since."""
    from ..fsutil import atomic_write

    path = _missed_file(home)
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    listed = [p for p in data.get(agent, []) if isinstance(p, str)]
    if str(transcript) not in listed:
        data[agent] = listed + [str(transcript)]
        atomic_write(path, json.dumps(data))


def _catch_up(home: Path, agent: str, cfg, *, skip: Path) -> int:
    """Observe the transcripts earlier hooks of ``agent`` failed on; returns the turns recorded."""
    from ..fsutil import atomic_write
    from ..store import open_store
    from .follow import observe_new

    path = _missed_file(home)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    if not isinstance(data, dict) or not data.get(agent):
        return 0
    left, recorded = [], 0
    with open_store(home=home) as store:
        for name in data[agent]:
            p = Path(name)
            if p == skip or not p.is_file():
                continue
            try:
                recorded += observe_new(p, agent=agent, store=store, cfg=cfg, home=home).new
            except Exception as exc:  # noqa: BLE001 — still missed: kept for the next hook
                log(home, f"{agent}: catching up on {p} failed again: {exc}")
                left.append(name)
    data[agent] = left
    atomic_write(path, json.dumps({k: v for k, v in data.items() if v}))
    return recorded


def _background(home: Path) -> bool:
    """``hooks.background``, read without parsing TOML when no config file mentions it (the Stop
    hook's budget is a few milliseconds beyond the interpreter's start)."""
    env = os.environ.get("SLOWLOOP_HOOKS__BACKGROUND")
    if env is None:
        try:
            if "background" not in (home / "config.toml").read_text(encoding="utf-8"):
                return True
        except FileNotFoundError:
            return True
    from ..config import load_config

    return bool(load_config(home).hooks.background)


def spawn_worker(home: Path, agent: str, transcript: Path, skills_dir: Path | None,
                 agents_md: Path | None = None, project: Path | None = None) -> int:
    """Start the observation in a detached process that outlives the hook (and the session)."""
    args = ["-m", MODULE, "--worker", "--agent", agent, "--home", str(home),
            "--transcript", str(transcript)]
    if skills_dir is not None:
        args += ["--skills-dir", str(skills_dir)]
    if agents_md is not None:
        args += ["--agents-md", str(agents_md)]
    if project is not None:
        args += ["--project", str(project)]
    return spawn_detached(home, args, "hooks.log")


# -- entry point --------------------------------------------------------------------------------

def _parse(argv: list[str]) -> dict[str, Any]:
    """A tiny argument parser (argparse would print usage to stdout/stderr and exit non-zero)."""
    opts: dict[str, Any] = {"positional": [], "agent": "default", "skills_dir": None, "home": None,
                            "transcript": None, "agents_md": None, "worker": False, "project": None,
                            "scope": None}
    it = iter(argv)
    for arg in it:
        if arg == "--worker":
            opts["worker"] = True
        elif arg in ("--agent", "--skills-dir", "--home", "--transcript", "--agents-md", "--project", "--scope"):
            try:
                opts[arg[2:].replace("-", "_")] = next(it)
            except StopIteration:
                raise HookInputError(f"{arg} needs a value") from None
        else:
            opts["positional"].append(arg)
    return opts


def run(argv: list[str], stdin=None, stdout=None) -> int:
    """Run one hook; always returns 0. ``stdout`` receives only the protocol payload."""
    out = stdout or sys.stdout
    started = time.perf_counter()
    home: Path | None = None
    missed: tuple[str, Path] | None = None  # (agent, transcript) to catch up on if this run fails
    what = " ".join(argv[:2])
    from ..selfobs import active

    if active():  # a slowloop reflection running the person's own agent: never observe ourselves
        return 0
    try:
        opts = _parse(argv)
        home = _home(opts["home"])
        from ..paths import LOST_HOME_HINT, lost_home

        if lost_home(home) is not None:
            log(home, f"the slowloop home {home} was gone: {LOST_HOME_HINT}")
        from ..paths import validate_agent_name

        agent = validate_agent_name(opts["agent"])
        skills_dir = Path(opts["skills_dir"]).expanduser() if opts["skills_dir"] else None
        md = Path(opts["agents_md"]).expanduser() if opts["agents_md"] else None
        project = Path(opts["project"]).expanduser() if opts["project"] else None
        if opts["worker"]:
            what = "worker"
            worker_transcript = Path(opts["transcript"] or "")
            missed = (agent, worker_transcript)
            summary = observe_transcript(home, agent, worker_transcript, skills_dir, md, project)
            log(home, f"worker {agent} {worker_transcript}: {summary} ({_ms(started)} ms)")
            return 0
        if len(opts["positional"]) != 2:
            raise HookInputError(f"expected HARNESS EVENT, got {opts['positional']!r}")
        harness, event = opts["positional"]
        if harness not in HARNESSES:
            raise HookInputError(f"unknown harness {harness!r} (known: {', '.join(HARNESSES)})")
        if event not in EVENTS:
            raise HookInputError(f"unknown event {event!r} (known: {', '.join(EVENTS)})")
        payload = read_payload(stdin)
        _remember_install(home, harness, agent, opts["scope"], skills_dir, md, project)
        if project is not None and not _inside(payload.get("cwd"), project):
            log(home, f"{harness} {event} {agent}: session in {payload.get('cwd')!r}, not in project"
                      f" {project}; nothing to do")
            return 0
        owner = defer_to_project(home, harness, opts["scope"], payload)
        if owner is not None:
            log(home, f"{harness} {event} {agent}: the project install for {owner.get('project')}"
                      f" (agent {owner.get('agent')}) covers this session; the user-level hook stands aside")
            return 0
        if event == "SessionStart":
            text = session_start(home, agent, skills_dir, payload, project, harness)
            if text:
                out.write(text + "\n")
                out.flush()
            log(home, f"{harness} SessionStart {agent}: {'bootstrap sent' if text else 'nothing to send'}"
                      f" ({_ms(started)} ms)")
            return 0
        transcript = transcript_of(payload)
        if transcript is None or not transcript.is_file():
            log(home, f"{harness} {event} {agent}: no transcript file ({transcript}); nothing to observe")
            return 0
        missed = (agent, transcript)
        if _background(home):
            pid = spawn_worker(home, agent, transcript, skills_dir, md, project)
            log(home, f"{harness} {event} {agent}: observing {transcript} in worker pid {pid}"
                      f" ({_ms(started)} ms)")
        else:
            summary = observe_transcript(home, agent, transcript, skills_dir, md, project)
            log(home, f"{harness} {event} {agent} {transcript}: {summary} ({_ms(started)} ms)")
        return 0
    except BaseException as exc:  # fail-open: the user's session must never break because of us
        if isinstance(exc, KeyboardInterrupt):
            return 0
        try:
            if missed is not None and home is not None:
                note_missed(home, *missed)  # the turns are not lost: the next hook catches up
        except BaseException:
            pass
        try:
            where = home or _home(None)
            detail = str(exc) if isinstance(exc, HookInputError) else traceback.format_exc().strip()
            log(where, f"{what}: FAILED (the session went on without slowloop): {detail}")
        except BaseException:
            pass
        return 0


def _inside(cwd: Any, project: Path) -> bool:
    """Whether the session's folder is the project or inside it (no cwd given: assume so)."""
    if not isinstance(cwd, str) or not cwd:
        return True
    p = str(project).rstrip(os.sep)
    return cwd == p or cwd.startswith(p + os.sep)


def _remember_install(home: Path, harness: str, agent: str, scope: str | None, skills_dir: Path | None,
                      agents_md: Path | None, project: Path | None) -> None:
    """Record this install among the places to refresh after a reflection (once; cheap after)."""
    try:
        from ..places.targets import known_like, register

        t = {"harness": harness, "scope": scope or ("project" if project else None), "agent": agent,
             "settings": None, "skills_dir": skills_dir, "agents_md": agents_md, "project": project}
        if not known_like(home, t):
            register(home, t)
    except Exception as exc:  # noqa: BLE001 — a convenience; the hook's job goes on
        log(home, f"{harness} {agent}: could not record the install: {exc}")


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def main() -> None:
    code = run(sys.argv[1:])
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    sys.exit(code)


if __name__ == "__main__":
    main()
