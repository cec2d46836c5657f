"""``slowloop ui``: a local page to see and steer what an agent learned.

Server-rendered HTML from the standard library's ``http.server`` (no dependency, nothing to build,
starts in milliseconds), plain forms (it works with scripts off), every decision through the same
library functions as the CLI. :mod:`.server` holds the security rules, :mod:`.views` what is read
and done, :mod:`.pages` the HTML, :mod:`.chart` the weekly picture.
"""

from __future__ import annotations

import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from .server import Settings, UIServer

__all__ = ["Settings", "UIServer", "start", "url_of"]


def url_of(server: UIServer, agent: str | None = None) -> str:
    st = server.settings
    path = f"/a/{quote(agent, safe='')}" if agent else "/"
    return f"http://127.0.0.1:{st.port}{path}?token={st.token}"


def start(home: Path, *, port: int = 0) -> UIServer:
    """Bind the server on 127.0.0.1 (``port`` 0: a free one) with a fresh token; not serving yet."""
    from ..errors import UserError

    try:
        return UIServer(Settings(home=home, port=port))
    except OSError as exc:
        raise UserError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}",
                                 hint="leave --port out for a free port, or pick another") from None


def open_browser(url: str, *, say: Callable[[str], None]) -> None:
    """Open the page in the person's browser, in the background (the URL is printed anyway)."""
    def run() -> None:
        try:
            if not webbrowser.open(url):
                say("no browser found to open: open the address above yourself")
        except Exception as exc:  # noqa: BLE001 — the page is served either way; say why
            say(f"could not open a browser ({exc}): open the address above yourself")

    threading.Thread(target=run, daemon=True).start()
