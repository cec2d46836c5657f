"""``slowloop schedule``: every agent, due for reflection or not, and why."""

from __future__ import annotations

import click

from .common import echo_json, get_app, json_option


@click.command()
@json_option
def schedule(as_json: bool) -> None:
    """Show which agents the next reflection cycle would take, and why the others wait.

    For each agent: due or not, the reasons in plain words (dirty or clean, cooling down until
    when, forced after a long time without reflection, the pending score against the threshold),
    and whether a reflector holds it right now. Nothing is changed and no model is called.

    \b
    Example:
      slowloop schedule
      slowloop schedule --json | jq '.agents[] | select(.due)'
    """
    from .. import clock
    from ..reflect import lease as leases
    from ..reflect.scheduler import all_statuses, next_cycle_at, plan_cycle

    app = get_app()
    store, cfg = app.store, app.config
    now = clock.now()
    statuses = all_statuses(store, cfg, now=now)
    plan = [s.agent for s in plan_cycle(store, cfg, now=now)]
    nxt = next_cycle_at(store, cfg, now)
    from ..reflect.daemon import daemon_running

    running = daemon_running(app.home)
    held = {s.agent: leases.current(store, leases.agent_lease_name(s.agent), now=now)
            for s in statuses}
    if as_json:
        agents = []
        for s in statuses:
            d = s.to_dict()
            d["in_next_cycle"] = s.agent in plan
            lease = held[s.agent]
            d["reflecting_now"] = lease.describe() if lease else None
            agents.append(d)
        echo_json({"now": clock.iso(now), "next_cycle_at": nxt, "daemon_running": running,
                   "max_agents_per_cycle": cfg.scheduler.max_agents_per_cycle,
                   "next_cycle": plan, "agents": agents})
        return
    if not statuses:
        click.echo("no agents yet — record some turns with `slowloop ingest PATH`")
        return
    if running:
        click.echo(f"next cycle: {nxt} (every {cfg.scheduler.interval}, at most "
                   f"{cfg.scheduler.max_agents_per_cycle} agents)")
    else:
        auto = ("reflection starts by itself after each recorded turn that makes an agent due"
                if cfg.reflect.auto else "automatic reflection is off ([reflect] auto = false)")
        click.echo(f"no `slowloop daemon` runs for this home, so no cycle is scheduled: {auto}; "
                   f"`slowloop daemon` would run one every {cfg.scheduler.interval} (next at {nxt})")
    for s in statuses:
        if s.agent in plan:
            state = "DUE (next cycle)" if running else "DUE"
        elif s.due:
            state = "due (over the per-cycle cap: waits for a later cycle)"
        else:
            state = "not due"
        click.echo("")
        click.echo(f"{s.agent}: {state}")
        click.echo(f"  pending: {s.pending_turns} turns ({s.worthy_turns} reflect-worthy), "
                   f"{s.pending_edits} edits, score {s.pending_score:g}; last reflection: "
                   f"{s.last_reflected_at or 'never'}")
        for reason in s.reasons:
            click.echo(f"  - {reason}")
        lease = held[s.agent]
        if lease:
            click.echo(f"  - reflecting now: {lease.describe()}")
