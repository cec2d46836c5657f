"""``slowloop ui``: the local review page (see docs/ui.md)."""

from __future__ import annotations

import click

from .common import get_app, warn


@click.command()
@click.option("--agent", "-a", default=None, envvar="SLOWLOOP_AGENT",
              help="Open this agent's page (all agents of the home are served either way).")
@click.option("--port", type=click.IntRange(1, 65535), default=None,
              help="Listen on this port (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the address only; do not open a browser.")
def ui(agent: str | None, port: int | None, no_browser: bool) -> None:
    """A local page to see and steer what your agents learned: each lesson with the words that
    taught it, the review queue (accept, edit, reject), the memo, skills, memory, history and undo,
    search, and corrections per week.

    It listens on 127.0.0.1 only; the address it prints carries a secret token every request needs.
    Ctrl-C stops it.

    \b
    Example:
      slowloop ui
      slowloop ui --agent myproj --no-browser --port 8765
    """
    from ..paths import ensure_home, validate_agent_name
    from ..ui import open_browser, start, url_of

    app = get_app()
    if agent is not None:
        agent = validate_agent_name(agent)
    ensure_home(app.home)
    server = start(app.home, port=port or 0)
    url = url_of(server, agent)
    click.echo(url)
    warn(f"slowloop ui: serving {app.home} on 127.0.0.1:{server.settings.port} — Ctrl-C stops it")
    if not no_browser:
        open_browser(url, say=warn)
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        warn("slowloop ui: stopped")
    finally:
        server.server_close()
