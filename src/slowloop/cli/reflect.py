"""``slowloop reflect`` (one cycle, for cron/systemd) and ``slowloop daemon`` (long-running)."""

from __future__ import annotations

import signal
import threading

import click

from .common import echo_json, get_app, json_option, warn


def _print_outcome(o, as_json: bool) -> None:
    if as_json:
        return
    head = f"{o.agent}: {o.status}" + (f" (R{o.reflection_id})" if o.reflection_id else "")
    click.echo(f"{head} — {o.reason}")
    if o.reflection_id:
        verb = "was to go to" if o.status == "failed" else "sent to"
        click.echo(f"  {verb}: {o.sent_to} ({o.bundle_tokens} tokens)")
    for note in o.recovered:
        click.echo(f"  recovered: {note}")
    for a in o.applied:
        act = a["action"]
        what = act.get("text") or act.get("new") or act.get("description") or ""
        click.echo(f"  + {act['type']} {act.get('name') or act.get('into') or act.get('section')}: "
                   f"{what[:140]}")
        click.echo(f"    why: {act.get('reason', '')[:160]}  [change {', '.join(map(str, a['changes']))}]")
        for ev in a.get("evicted", []):
            click.echo(f"    evicted {ev['name']}: {ev['reason']} (archived; "
                       f"`slowloop skills restore {ev['name']}`)")
    for p in o.planned:
        act = p["action"]
        click.echo(f"  would {act['type']} {act.get('name') or act.get('into') or act.get('section')}: "
                   f"{(act.get('text') or act.get('new') or act.get('description') or '')[:140]}")
    for r in o.rejected:
        act = r["action"]
        label = act.get("type", "output") if isinstance(act, dict) else "output"
        click.echo(f"  - rejected {label}: {r['reason']}")
    for h in o.held:
        act = h["action"]
        pid = f"P{h['proposal']} " if h.get("proposal") else ""
        click.echo(f"  ? {pid}waits for approval ({act['type']} "
                   f"{act.get('name') or act.get('into') or act.get('section')}): {h['reason']}"
                   + (f" — `slowloop review approve {h['proposal']}`" if h.get("proposal") else ""))
    for n in o.notes:
        click.echo(f"  note: {n}")
    if o.limits and o.status in ("applied", "nothing", "dry-run"):
        click.echo(f"  limits: {o.limits}")


@click.command()
@click.option("--agent", "-a", "agents", multiple=True, help="Only this agent (repeatable).")
@click.option("--due", "mode", flag_value="due", default=True,
              help="Reflect on the agents that are due (default).")
@click.option("--now", "mode", flag_value="now",
              help="Reflect now, ignoring cooldown and score (never the dirty gate).")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@json_option
def reflect(agents: tuple[str, ...], mode: str, dry_run: bool, as_json: bool) -> None:
    """Run one reflection cycle: for each due agent, bundle its new activity, ask the model (or the
    offline distiller), validate what comes back, and apply it to skills and memo as one unit.

    An agent with nothing new since its last reflection is skipped without any model call. Says
    what left the machine and to whom.

    \b
    Exit status: 0 when every reflection ran (or nothing was due), 1 when one failed.

    \b
    Example:
      slowloop reflect                      # what cron or a systemd timer runs
      slowloop reflect --agent myproj --now --dry-run
    """
    from ..reflect.cycle import reflect_agent, run_cycle

    app = get_app()
    from ..paths import validate_agent_name

    for a in agents:
        validate_agent_name(a)
    if mode == "now":
        names = list(agents) or [r["name"] for r in app.store.agents()]
        outcomes = [reflect_agent(n, home=app.home, store=app.store, cfg=app.config, dry_run=dry_run,
                                  force=True) for n in names]
    else:
        outcomes = run_cycle(home=app.home, cfg=app.config, agents=list(agents) or None,
                             dry_run=dry_run)
        if not outcomes:
            if as_json:
                echo_json([])
            else:
                click.echo("no agent is due — see `slowloop schedule` for why")
            return
    if as_json:
        echo_json([o.to_dict() for o in outcomes])
    else:
        for o in outcomes:
            _print_outcome(o, as_json)
    if any(o.status == "failed" for o in outcomes):
        # cron and systemd see it; a transient failure still leaves the agent due for next time
        click.get_current_context().exit(1)


@click.command()
@click.option("--poll", default=60.0, show_default=True,
              type=click.FloatRange(min=0.05, max=86400),  # 0 or less would spin a core
              help="Seconds between schedule checks.")
def daemon(poll: float) -> None:
    """Run reflection cycles in the background until SIGTERM/SIGINT (a clean stop between
    agents). A crash mid-cycle is picked up at the next start.

    \b
    Example:
      slowloop daemon &
      systemd: ExecStart=slowloop daemon
    """
    from ..reflect.daemon import serve

    app = get_app()
    stop = threading.Event()

    def _stop(signum, _frame):
        warn(f"slowloop daemon: {signal.Signals(signum).name} received, stopping after the current step")
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    warn(f"slowloop daemon: home {app.home}; cycle every {app.config.scheduler.interval}")
    serve(stop, home=app.home, cfg=app.config, poll_seconds=poll,
          on_event=lambda m: warn(f"slowloop daemon: {m}"))
    warn("slowloop daemon: stopped")
