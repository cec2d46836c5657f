"""``slowloop agents``: who learns here, how much they saw, what waits for reflection."""

from __future__ import annotations

import click

from .common import echo_json, get_app, json_option


def agent_rows(store) -> list[dict]:
    rows = store.query(
        "SELECT a.name, a.created_at, a.last_reflected_at, a.last_seen_turn_id,"
        " COUNT(t.id) AS turns,"
        " COALESCE(SUM(CASE WHEN t.reflect = 1 AND t.id > a.last_seen_turn_id THEN 1 ELSE 0 END), 0) AS waiting,"
        " COALESCE(SUM(CASE WHEN t.id > a.last_seen_turn_id THEN t.score * t.reflect ELSE 0 END), 0) AS pending_score,"
        " MAX(t.recorded_at) AS last_turn_at"
        " FROM agents a LEFT JOIN turns t ON t.agent_id = a.id GROUP BY a.id ORDER BY a.name")
    return [{"name": r["name"], "turns": r["turns"], "waiting_for_reflection": r["waiting"],
             "pending_score": round(r["pending_score"], 3), "last_turn_at": r["last_turn_at"],
             "last_reflected_at": r["last_reflected_at"], "created_at": r["created_at"]} for r in rows]


@click.command()
@json_option
def agents(as_json: bool) -> None:
    """List agents with their turn counts and the turns waiting for reflection.

    \b
    Example:
      slowloop agents
      slowloop agents --json
    """
    rows = agent_rows(get_app().store)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("no agents yet — record some turns with `slowloop ingest PATH`")
        return
    click.echo(f"{'agent':<20} {'turns':>6} {'waiting':>8} {'score':>7}  last reflection")
    for r in rows:
        click.echo(f"{r['name']:<20} {r['turns']:>6} {r['waiting_for_reflection']:>8} "
                   f"{r['pending_score']:>7g}  {r['last_reflected_at'] or 'never'}")
