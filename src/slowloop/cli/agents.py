"""``slowloop agents``: who learns here, how much they saw, what waits for reflection."""

from __future__ import annotations

import click

from .common import echo_json, get_app, json_option


def agent_rows(store, cfg) -> list[dict]:
    """One row per agent; what waits for reflection is the scheduler's own reading
    (:func:`slowloop.reflect.scheduler.pending_many` and ``pending_score``), so ``slowloop agents`` and
    ``slowloop schedule`` can never disagree."""
    from ..reflect.scheduler import pending_many, pending_score
    from ..store import ledger

    counts = ledger.turn_counts(store)
    agents = store.agents()
    waiting = pending_many(store, agents)
    rows = []
    for a in agents:
        p = waiting[int(a["id"])]
        turns, last_turn_at = counts.get(int(a["id"]), (0, None))
        rows.append({"name": a["name"], "turns": turns,
                     "waiting_for_reflection": len(p.worthy),
                     "pending_edits": len(p.edits),
                     "pending_score": pending_score(p, cfg),
                     "last_turn_at": last_turn_at,
                     "last_reflected_at": a["last_reflected_at"], "created_at": a["created_at"]})
    return rows


@click.command()
@json_option
def agents(as_json: bool) -> None:
    """List agents with their turn counts and what waits for reflection.

    The pending score is the scheduler's (reflect-worthy new turns plus explicit user edits), the
    same figure ``slowloop schedule`` compares with the threshold.

    \b
    Example:
      slowloop agents
      slowloop agents --json
    """
    app = get_app()
    rows = agent_rows(app.store, app.config)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("no agents yet — record some turns with `slowloop ingest PATH`")
        return
    click.echo(f"{'agent':<20} {'turns':>6} {'waiting':>8} {'edits':>6} {'score':>7}  last reflection")
    for r in rows:
        click.echo(f"{r['name']:<20} {r['turns']:>6} {r['waiting_for_reflection']:>8} "
                   f"{r['pending_edits']:>6} {r['pending_score']:>7g}  "
                   f"{r['last_reflected_at'] or 'never'}")
