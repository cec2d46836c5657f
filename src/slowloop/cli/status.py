"""``slowloop status``: on one screen, per agent — what was seen, what waits and why, what was
learned last and when the next reflection can come."""

from __future__ import annotations

import click

from .common import echo_json, get_app, json_option


def _share(r: dict) -> str:
    return f"{r['violated']} of {r['relevant']}" + (f" ({r['rate']:.0%})" if r["rate"] is not None else "")


def _echo_rules(a: dict) -> None:
    r, m = a["rules"], a["repeated_mistakes"]
    if not r["rules"] and not r["archived"]:
        return
    click.echo(f"  rules: {r['rules']} read by the agent ({r['checkable']} checkable from its actions): "
               f"{len(r['working'])} followed and never broken, {len(r['escalated']) + len(r['broken_again'])} "
               f"broken after they were learned, {len(r['never_relevant'])} not relevant yet, "
               f"{r['not_checkable']} not checkable — details: `slowloop memo show`")
    for b in r["broken_again"]:
        click.echo(f"    broken again after it was escalated — yours to look at: {b['text']} "
                   f"(turn {b['turn_id']}: `{b['action']}`)")
    for t in r["escalated"]:
        click.echo(f"    escalated (now first in each session start): {t}")
    for t in r["possibly_stale"]:
        click.echo(f"    possibly stale (what it names left the recent work): {t}")
    for x in r["archived"]:
        click.echo(f"    archived, never relevant: {x['text']} — restore: `{x['restore']}`")
    if m["rules_checked"]:
        click.echo(f"  repeated mistakes: before its rule existed {_share(m['before'])} of the situations; "
                   f"after, {_share(m['after'])}")
        weeks = "; ".join(f"{w['week']} before {_share(w['before'])}, after {_share(w['after'])}"
                          for w in m["weeks"][-4:])
        click.echo(f"    by week: {weeks}")


def _sync_state(home, name: str) -> dict | None:
    from ..paths import agent_dir
    from ..sync import conflicted_skills, remote_url

    repo = agent_dir(name, home)
    if not (repo / ".git").is_dir():
        return None
    try:
        return {"remote": remote_url(repo), "conflicts": conflicted_skills(repo)}
    except Exception as exc:  # noqa: BLE001 — git missing or broken: say so, show the rest
        return {"remote": None, "conflicts": [], "problem": str(exc)}


@click.command()
@click.option("--agent", "-a", "agents", multiple=True, help="Only this agent (repeatable).")
@json_option
def status(agents: tuple[str, ...], as_json: bool) -> None:
    """What slowloop has seen and learned, per agent, on one screen.

    For each agent: turns recorded, what is pending and why (or why not yet), the last reflection
    and what it changed, which learned rules are followed, broken, stale or archived, how often a
    corrected mistake came back before and after its rule (per week), when the next reflection can
    come, and where its bootstrap is installed.

    \b
    Example:
      slowloop status
      slowloop status --agent myproj --json
    """
    from .. import clock
    from ..paths import validate_agent_name
    from ..reflect.overview import agent_summary

    app = get_app()
    store, cfg = app.store, app.config
    now = clock.now()
    names = [validate_agent_name(a) for a in agents] or [r["name"] for r in store.agents()]
    missing = [n for n in names if store.agent(n) is None]
    if missing:
        from ..errors import UserError

        raise UserError(f"no agent named {missing[0]!r} yet",
                        hint="agents appear when their first turn is recorded; `slowloop status` lists them")
    out = [agent_summary(store, cfg, app.home, n, now) for n in names]
    ledger = {"backend": store.backend, "where": store.where}
    if as_json:
        echo_json({"agents": out, "provider": cfg.provider.kind, "ledger": ledger})
        return
    if not out:
        click.echo("nothing recorded yet — install the hooks (`slowloop hooks install claude-code`) or "
                   "record turns with `slowloop ingest PATH`")
        return
    kind = cfg.provider.kind
    shared = store.shared
    offline = ("the offline distiller (no model call)" if shared
               else "the offline distiller (nothing leaves this machine)")
    click.echo(f"reflection: {'automatic' if out[0]['auto_reflect'] else 'manual'}, with "
               f"{offline if kind == 'offline' else kind}")
    if shared:
        click.echo(f"ledger: PostgreSQL at {store.where} — every recorded turn, signal and change is "
                   "stored on that server (SLOWLOOP_DATABASE_URL or [ledger] database_url)")
    for a in out:
        click.echo("")
        click.echo(f"{a['agent']}: {a['turns']} turn(s) recorded" +
                   (f", last at {a['last_turn_at']}" if a["last_turn_at"] else ""))
        p = a["pending"]
        if p["turns"] or p["edits"]:
            click.echo(f"  pending: {p['turns']} turn(s) ({p['worthy_turns']} worth reflecting on), "
                       f"{p['edits']} edit(s), score {p['score']:g} — {p['reasons'][0]}")
        else:
            click.echo("  pending: nothing new since the last reflection")
        lr = a["last_reflection"]
        if lr:
            what = lr["summary"] or lr["error"] or ""
            click.echo(f"  last reflection: R{lr['id']} {lr['status']} at {lr['finished_at'] or lr['started_at']}"
                       f" — {what}")
        else:
            click.echo("  last reflection: none yet")
        ll = a["last_learned"]
        if ll:
            when = "" if lr and ll["id"] == lr["id"] else f" (R{ll['id']} at {ll['finished_at']})"
            click.echo(f"  last learned{when}:")
            for lesson in ll["lessons"] or [ll["summary"]]:
                click.echo(f"    - {lesson}")
            click.echo(f"    undo: `slowloop history undo R{ll['id']}`; details: `slowloop history`")
        _echo_rules(a)
        click.echo(f"  next reflection: {a['next_reflection']}")
        w = a["waiting"]
        if w["proposals"]:
            unl = (f", {w['unlearned']} of them correction(s) no rule was learned from"
                   if w["unlearned"] else "")
            click.echo(f"  waiting for you: {w['proposals']} proposal(s){unl} — `slowloop review`")
        for t in a["installs"]:
            where = t["project"] or "every project"
            click.echo(f"  installed: {t['harness']} ({t['scope']}) for {where}")
        if a["sync"]:
            click.echo(f"  shared with: {a['sync']['remote'] or '(no remote)'}")
            for c in a["sync"]["conflicts"]:
                click.echo(f"  conflict to settle in skill {c} (both versions are in its SKILL.md)")
            for q in a["sync"]["quarantined"]:
                click.echo(f"  not merged from the remote: {q['path']} from {q['by']} ({q['reason']}) — "
                           f"`slowloop sync show {q['id']} --agent {a['agent']}`")
