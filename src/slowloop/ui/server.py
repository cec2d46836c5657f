"""The review page's server: the standard library's ``http.server`` on 127.0.0.1 only.

Every request, page or form, must carry this run's secret token: in the URL ``slowloop ui`` printed
(the first load moves it into a cookie and out of the address bar), or in that cookie. The Host must
be this server's own address (a page elsewhere cannot reach it through a name of its own pointing at
127.0.0.1). A write is a POST whose form repeats the token and whose Origin is this server: a page
on another site can neither read the token nor forge the form. Nothing is loaded from elsewhere
(the Content-Security-Policy says so to the browser).

One request at a time (a person and their browser): each opens the ledger, answers, closes it.
"""

from __future__ import annotations

import hmac
import re
import secrets
import sys
import traceback
from dataclasses import dataclass, field
from http import cookies
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from ..config import load_config
from ..errors import SlowloopError, UserError
from . import pages, views

MAX_FORM = 1 << 20  # a skill's body is the largest thing a form sends
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'")


@dataclass
class Settings:
    home: Path
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    port: int = 0

    @property
    def cookie(self) -> str:
        return f"slowloop_ui_{self.port}"

    def origins(self) -> set[str]:
        return {f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}"}


class Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class Handler(BaseHTTPRequestHandler):
    server: UIServer
    server_version = "slowloop-ui"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's signature
        return  # nothing on the terminal per request: the person watches for the URL and Ctrl-C

    def log_error(self, format: str, *args: Any) -> None:  # noqa: A002
        sys.stderr.write(f"slowloop ui: {format % args}\n")

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        st = self.server.settings
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            self._check_host(st)
            given = query.pop("token", None)
            if given is not None and method == "GET" and _same(given, st.token):
                rest = "&".join(f"{k}={quote(v)}" for k, v in query.items())
                return self._redirect(url.path + (f"?{rest}" if rest else ""), set_cookie=True)
            if not _same(self._cookie(st) or given or "", st.token):
                raise Refused(403, "this request does not carry the token of this `slowloop ui` run")
            if method == "POST":
                form = self._form(st)
                return self._redirect(_after(url.path, form, self.server.write(url.path, form)))
            if url.path == "/favicon.ico":
                return self._send(204, "", "text/plain")
            if url.path == "/static/style.css":
                return self._send(200, _STYLE, "text/css; charset=utf-8")
            status, body = self.server.read(url.path, query)
            return self._send(status, body)
        except Refused as exc:
            return self._send(exc.status, pages.refused(str(exc)))
        except Exception as exc:  # a bug: said on the page and the terminal, the server goes on
            self.log_error("%s %s failed: %s", method, url.path, traceback.format_exc())
            return self._send(500, pages.refused(f"this request failed: {exc!r}"))

    def _check_host(self, st: Settings) -> None:
        if "http://" + (self.headers.get("Host") or "") not in st.origins():
            raise Refused(403, "this server answers only at 127.0.0.1 (the Host of the request is another name)")

    def _cookie(self, st: Settings) -> str | None:
        jar = cookies.SimpleCookie()
        try:
            jar.load(self.headers.get("Cookie") or "")
        except cookies.CookieError:
            return None
        morsel = jar.get(st.cookie)
        return morsel.value if morsel is not None else None

    def _form(self, st: Settings) -> dict[str, str]:
        origin = self.headers.get("Origin")
        if origin not in st.origins():
            raise Refused(403, f"a write must come from this page (Origin {origin or 'missing'})")
        if self.headers.get("Sec-Fetch-Site") not in (None, "same-origin"):
            raise Refused(403, "a write must come from this page (sent from another site)")
        if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/x-www-form-urlencoded":
            raise Refused(415, "a write is a form of this page")
        length = self.headers.get("Content-Length") or "0"
        size = int(length) if length.isdigit() else -1
        if not 0 <= size <= MAX_FORM:
            raise Refused(413, f"a form is at most {MAX_FORM} bytes (Content-Length {length!r})")
        form = {k: v[-1] for k, v in parse_qs(self.rfile.read(size).decode("utf-8", "replace"),
                                              keep_blank_values=True).items()}
        if not _same(form.pop("csrf", ""), st.token):
            raise Refused(403, "the form does not carry this page's token (reload the page)")
        return form

    def _headers(self, status: int, ctype: str, length: int) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(length))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "same-origin")  # "no-referrer" makes a form's Origin "null"
        self.send_header("Cache-Control", "no-store")

    def _send(self, status: int, body: str, ctype: str = "text/html; charset=utf-8") -> None:
        data = body.encode("utf-8")
        self._headers(status, ctype, len(data))
        self.end_headers()
        self.wfile.write(data)

    def _redirect(self, where: str, *, set_cookie: bool = False) -> None:
        st = self.server.settings
        self._headers(303, "text/plain", 0)
        self.send_header("Location", where)
        if set_cookie:
            self.send_header("Set-Cookie", f"{st.cookie}={st.token}; HttpOnly; SameSite=Strict; Path=/")
        self.end_headers()


def _same(given: str, token: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode())


def _after(path: str, form: dict[str, str], outcome: tuple[str, str]) -> str:
    """Where a write sends the browser back: the page the form was on (one of this server's own
    paths), saying what happened."""
    key, message = outcome
    back = form.get("back", "")
    if not re.fullmatch(r"/a/[^?#\\]*", back) or "//" in back:
        m = re.match(AGENT, path)
        back = m[0] if m else "/"
    return f"{back}?{key}={quote(message)}"


# -- routes -----------------------------------------------------------------------------------

AGENT = r"/a/(?P<agent>[^/]+)"


class UIServer(HTTPServer):
    allow_reuse_address = False

    def __init__(self, settings: Settings) -> None:
        super().__init__(("127.0.0.1", settings.port), Handler)
        settings.port = self.server_address[1]
        self.settings = settings

    def _ctx(self) -> tuple[views.Ctx, Any]:
        from ..store import open_store

        store = open_store(home=self.settings.home)
        return views.Ctx(self.settings.home, store, load_config(self.settings.home)), store

    def read(self, path: str, query: dict[str, str]) -> tuple[int, str]:
        ctx, store = self._ctx()
        try:
            page = pages.Page(self.settings.token, agents=ctx.agents(), here=path)
            note = {k: query[k] for k in ("ok", "error") if query.get(k)}
            if path == "/":
                names = ctx.agents()
                return 200, pages.start(page, str(ctx.home), [views.summary(ctx, a) for a in names])
            m = re.fullmatch(AGENT + r"(?P<rest>/.*)?", path)
            if m is None:
                return 404, page.frame("Not found", f"<p>No page at {pages._e(path)}.</p>")
            page.agent = ctx.known(_unquote(m["agent"]))
            try:
                return 200, _page(ctx, page, m["rest"] or "", query, note)
            except SlowloopError as exc:
                return 200, page.frame("Could not show this", "", note={"error": _said(exc)})
        except SlowloopError as exc:
            return 404, pages.Page(self.settings.token).frame("Could not show this", "", note={"error": _said(exc)})
        finally:
            store.close()

    def write(self, path: str, form: dict[str, str]) -> tuple[str, str]:
        """Do what the form asks; (``ok`` or ``error``, the line to show)."""
        ctx, store = self._ctx()
        try:
            m = re.fullmatch(AGENT + r"(?P<rest>/.+)", path)
            if m is None:
                raise UserError(f"nothing to do at {path!r}", hint="use the buttons of the page")
            agent = ctx.known(_unquote(m["agent"]))
            return "ok", _do(ctx, agent, m["rest"], form)
        except SlowloopError as exc:
            return "error", _said(exc)
        finally:
            store.close()


def _said(exc: SlowloopError) -> str:
    return exc.message + (f" — {exc.hint}" if exc.hint else "")


def _unquote(text: str) -> str:
    from urllib.parse import unquote

    return unquote(text)


def _page(ctx: views.Ctx, page: pages.Page, rest: str, query: dict[str, str], note: dict[str, str]) -> str:
    agent = page.agent or ""
    if rest in ("", "/"):
        return pages.overview(page, views.summary(ctx, agent), views.lessons(ctx, agent), note)
    if rest == "/review":
        decided = [p for p in views.review_queue(ctx, agent, decided=True) if p["status"] != "pending"]
        return pages.review(page, views.review_queue(ctx, agent), decided[:20], note,
                            quarantined=views.quarantined(ctx, agent))
    if rest == "/memo":
        return pages.memo(page, views.memo(ctx, agent), note)
    if rest == "/skills":
        return pages.skills(page, views.skills(ctx, agent), note)
    if m := re.fullmatch(r"/skills/([^/]+)", rest):
        return pages.skill(page, views.skill(ctx, agent, _unquote(m[1])), note)
    if rest == "/memory":
        return pages.memory(page, views.memory(ctx, agent), note)
    if rest == "/history":
        return pages.history(page, views.changes(ctx, agent), note)
    if rest == "/search":
        q = query.get("q", "").strip()
        hits, problems = views.search(ctx, agent, q) if q else (None, [])
        return pages.search(page, q, hits, problems, note)
    return page.frame("Not found", f"<p>No page at {pages._e(rest)}.</p>")


def _do(ctx: views.Ctx, agent: str, rest: str, form: dict[str, str]) -> str:
    if m := re.fullmatch(r"/review/(\d+)/(approve|decline)", rest):
        if m[2] == "approve":
            return views.approve(ctx, agent, int(m[1]), form.get("text"))
        return views.decline(ctx, agent, int(m[1]))
    if m := re.fullmatch(r"/quarantine/(\d+)/(accept|drop)", rest):
        if m[2] == "accept":
            return views.quarantine_accept(ctx, agent, int(m[1]), form.get("dangerous") == "yes")
        return views.quarantine_drop(ctx, agent, int(m[1]))
    if m := re.fullmatch(r"/memo/(replace|remove)", rest):
        section, expect = form.get("section", ""), form.get("expect", "")
        number = int(form["n"]) if form.get("n", "").isdigit() else 0
        if m[1] == "replace":
            return views.memo_replace(ctx, agent, section, number, expect, form.get("text", ""))
        return views.memo_remove(ctx, agent, section, number, expect)
    if m := re.fullmatch(r"/skills/([^/]+)/(edit|retire)", rest):
        name = _unquote(m[1])
        if m[2] == "edit":
            return views.skill_edit(ctx, agent, name, form.get("body", ""))
        return views.skill_retire(ctx, agent, name, form.get("reason", ""))
    if rest == "/undo":
        return views.undo(ctx, agent, form.get("change", ""))
    raise UserError(f"nothing to do at {rest!r}", hint="use the buttons of the page")


_STYLE = resources.files(__package__).joinpath("style.css").read_text(encoding="utf-8")
