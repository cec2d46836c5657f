"""``slowloop doctor``: find hand-broken skill files and memo problems."""

from __future__ import annotations

import sys

import click

from ..bootstrap import MEMO_READ_BYTES
from ..paths import agents_root, validate_agent_name
from .common import echo_json, get_app, json_option


@click.command()
@click.option("--agent", "-a", "agents", multiple=True, help="Only these agents (default: all).")
@json_option
def doctor(agents: tuple[str, ...], as_json: bool) -> None:
    """Check every agent's skills, memo and memory files; exit 3 when a file is broken.

    Broken files (bad YAML, a name that does not match its folder, a missing or overlong
    description…) are listed with file and line; everywhere else they are skipped, never fatal.
    Hand edits found on the way are recorded in `slowloop history`.

    \b
    Example:
      slowloop doctor --json
    """
    from ..memo import Memo
    from ..skills import SkillLibrary

    app = get_app()
    _check_ledger(app, as_json)
    root = agents_root(app.home)
    names = [validate_agent_name(a) for a in agents] or (
        sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else [])
    findings = []
    for agent in names:
        lib = SkillLibrary(agent, home=app.home, store=app.store, config=app.config)
        lib.list()  # records hand edits first
        for p in lib.problems():
            findings.append({"agent": agent, "path": p.path, "line": p.line,
                             "severity": p.severity, "message": p.message})
        memo = Memo(agent, home=app.home, config=app.config, store=app.store)
        memo.notice()
        size = memo.path.stat().st_size if memo.path.is_file() else 0
        if size > MEMO_READ_BYTES:
            findings.append({"agent": agent, "path": str(memo.path), "line": None,
                             "severity": "warning",
                             "message": f"the memo is {size // 1024} KB; a session start reads only "
                                        f"its first {MEMO_READ_BYTES // 1024} KB (and shows what "
                                        "fits the caps): move old entries out of it"})
        for line, message, severity in memo.problems():
            findings.append({"agent": agent, "path": str(memo.path), "line": line,
                             "severity": severity, "message": message})
        findings.extend({"agent": agent, **f} for f in _not_utf8(root / agent))
    findings.extend(_install_findings(app.home, names if agents else None))
    if app.store.transport() == "plaintext":
        findings.append({"agent": None, "path": app.store.where, "line": None, "severity": "warning",
                         "message": "the connection to the ledger's server is not encrypted: every "
                                    "recorded turn crosses the network in clear; add "
                                    "?sslmode=verify-full (or require) to SLOWLOOP_DATABASE_URL"})
    skew = app.store.clock_skew()
    if skew is not None and abs(skew) > CLOCK_SKEW_WARN:
        findings.append({"agent": None, "path": app.store.where, "line": None, "severity": "warning",
                         "message": f"this machine's clock is {abs(skew):.0f} s "
                                    f"{'behind' if skew > 0 else 'ahead of'} the ledger server's: "
                                    "leases and the dirty gate compare times written by different "
                                    "machines; keep the clocks in sync (NTP)"})
    from ..sync import CONFLICT_BEGIN, held

    for agent in names:
        for q in held(agent, app.home):
            findings.append({"agent": agent, "path": str(root / agent / q["path"]), "line": None,
                             "severity": "warning",
                             "message": f"a change from the remote by {q['by']} was not merged: {q['reason']}; "
                                        f"look at it with `slowloop sync show {q['id']} --agent {agent}`, then "
                                        "`sync accept` or `sync drop` it"})
        for skill_md in sorted((root / agent / "skills").glob("*/SKILL.md")):
            if not skill_md.is_file():
                continue  # a folder where the file should be: the skills check reports it
            text = skill_md.read_text(encoding="utf-8", errors="replace")
            if CONFLICT_BEGIN in text:
                findings.append({"agent": agent, "path": str(skill_md), "line": text[:text.find(CONFLICT_BEGIN)].count("\n") + 1,
                                 "severity": "warning",
                                 "message": "two machines changed this skill differently; both versions are "
                                            "here between slowloop:conflict markers — keep what is right"})
    errors = [f for f in findings if f["severity"] == "error"]
    if as_json:
        echo_json(findings)
    else:
        for f in findings:
            where = f"{f['path']}:{f['line']}" if f["line"] else f["path"]
            click.echo(f"{f['severity']}: {where}: {f['message']}")
        click.echo(f"{len(names)} agent(s) checked: {len(errors)} error(s), "
                   f"{len(findings) - len(errors)} warning(s)", err=True)
    if errors:
        sys.exit(3)


def _install_findings(home, only: list[str] | None) -> list[dict]:
    """The hooks slowloop installed: still there, and — for Codex — trusted, so Codex runs them."""
    from pathlib import Path

    from ..integrations import codex, settings_json
    from ..places import targets

    out = []
    for t in targets.load(home):
        if only is not None and t.get("agent") not in only or not t.get("settings"):
            continue
        path = Path(t["settings"])
        try:
            data, _ = settings_json.load(path)
        except Exception as exc:  # noqa: BLE001 — reported, never fatal here
            out.append({"agent": t["agent"], "path": str(path), "line": None, "severity": "error",
                        "message": f"cannot read the {t['harness']} hooks: {exc}"})
            continue
        mine = [e.command for e in settings_json.ours(data, t.get("project") if t["harness"] == "codex"
                                                        and t.get("scope") == "project" else settings_json.ANY)]
        if not mine:
            out.append({"agent": t["agent"], "path": str(path), "line": None, "severity": "warning",
                        "message": f"slowloop's {t['harness']} hooks are gone from this file: nothing is "
                                   f"observed there (`slowloop hooks install {t['harness']}` puts them back)"})
            continue
        if t["harness"] == "codex":
            states = codex.trust_status(path, mine, Path(t["project"]) if t.get("project") else None)
            bad = sorted({v for v in states.values() if v not in ("trusted", "managed")})
            if bad:
                out.append({"agent": t["agent"], "path": str(path), "line": None, "severity": "error",
                            "message": f"Codex will not run slowloop's hooks ({', '.join(bad)}): "
                                       + codex.trust_instructions(path, "modified" in bad)})
    return out


#: seconds between this machine's clock and a shared ledger server's before doctor warns
CLOCK_SKEW_WARN = 30.0


def _check_ledger(app, as_json: bool) -> None:
    """The ledger first: every other check records into it. Damaged or out of reach → say how to
    recover, exit 3."""
    import sqlite3

    from ..config import redact_url
    from ..errors import DataError
    from ..store.db import RECOVERY, database_url

    url = database_url(app.home)
    default_where = redact_url(url) if url else "slowloop.db"
    try:
        problems = app.store.integrity()
        where = app.store.where
    except DataError as exc:
        problems, where = [exc.message], exc.path or default_where
    except sqlite3.DatabaseError as exc:
        problems, where = [str(exc)], default_where
    if not problems:
        return
    if url:
        from ..store.postgres import PostgresStore

        what, recovery = "the ledger cannot be used", PostgresStore.recovery
    else:
        what, recovery = "the ledger is damaged", RECOVERY
    finding = {"agent": None, "path": where, "line": None, "severity": "error",
               "message": f"{what} ({'; '.join(problems[:3])}). To recover: {recovery}"}
    if as_json:
        echo_json([finding])
    else:
        click.echo(f"error: {where}: {finding['message']}")
    sys.exit(3)


# The files slowloop rewrites in place; one saved in another encoding is read with U+FFFD where
# its bytes were and every write to it is refused, so say so here before a command trips on it.
EDITABLE = ("memo.md", "skills/*/SKILL.md", "memory/*.md", "contexts/*/CONTEXT.md")


def _not_utf8(agent_root):
    for pattern in EDITABLE:
        for path in sorted(agent_root.glob(pattern)):
            if not path.is_file():
                continue  # a folder where the file should be: the skills check reports it
            data = path.read_bytes()
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield {"path": str(path), "line": data.count(b"\n", 0, exc.start) + 1,
                       "severity": "error",
                       "message": f"not UTF-8 text (byte {data[exc.start]:#04x}): slowloop will not "
                                  "rewrite it; save it as UTF-8"}
