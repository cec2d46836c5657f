"""One JSON POST over the stdlib, and the table that says which HTTP failures are worth a retry.

No SDKs: urllib is enough for two JSON APIs, and it keeps the runtime dependencies at click and
PyYAML. Redirects are never followed (a loopback server must not be able to bounce a bundle to
another host), and loopback requests ignore proxy variables for the same reason.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import socket
import ssl
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from ..errors import PrivacyError, ProviderError
from .base import RetryableError, excerpt

# 408 Request Timeout, 409 (Anthropic/OpenAI use it for transient conflicts), 425 Too Early,
# 429 rate limits, every 5xx, and 529 (Anthropic "overloaded").
TRANSIENT_STATUS = frozenset({408, 409, 425, 429}) | frozenset(range(500, 600))

USER_AGENT = "slowloop (+local reflection)"


@dataclass(frozen=True)
class HttpAnswer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))

    def error_text(self) -> str:
        """The server's own error message when it sent one, else the start of the body."""
        raw = self.body.decode("utf-8", "replace")
        try:
            data = json.loads(raw)
        except ValueError:
            return excerpt(raw) or "(empty body)"
        if isinstance(data, dict):
            err = data.get("error")
            if isinstance(err, dict) and err.get("message"):
                return excerpt(str(err["message"]))
            if isinstance(err, str):
                return excerpt(err)
            if "detail" in data:  # FastAPI-style validation errors (llama-cpp-python, vLLM)
                return excerpt(json.dumps(data["detail"], ensure_ascii=False))
            if data.get("message"):
                return excerpt(str(data["message"]))
        return excerpt(raw)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: D401, ANN001
        return None  # urllib then raises HTTPError with the 3xx code, which we report


class _Elsewhere(OSError):
    """The socket reached an address that is not the one the privacy check approved."""


def _check_peer(conn: http.client.HTTPConnection) -> None:
    """Once connected, the peer must be a loopback address: the check made when the provider was
    built resolved the name then, and a name can resolve somewhere else a moment later (DNS
    rebinding)."""
    from .privacy import _is_loopback_ip

    peer = conn.sock.getpeername()[0] if conn.sock is not None else ""
    if not _is_loopback_ip(str(peer)):
        conn.close()
        raise _Elsewhere(f"{conn.host} now resolves to {peer}, not a loopback address")


class _PinnedHTTP(http.client.HTTPConnection):
    def connect(self) -> None:
        super().connect()
        _check_peer(self)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def connect(self) -> None:
        super().connect()
        _check_peer(self)


class _LoopbackHTTP(urllib.request.HTTPHandler):
    def http_open(self, req):  # noqa: ANN001, D102
        return self.do_open(_PinnedHTTP, req)


class _LoopbackHTTPS(urllib.request.HTTPSHandler):
    def https_open(self, req):  # noqa: ANN001, D102
        return self.do_open(_PinnedHTTPS, req, context=self._context)


# A reflection's answer is a few kilobytes of JSON actions: a server that sends more than this, or
# that trickles its answer past the timeout (a byte a second resets a socket timeout forever), is
# cut off, never read into memory whole or waited on without end.
MAX_ANSWER_BYTES = 4 << 20


def _read_bounded(resp, url: str, timeout: float) -> bytes:  # noqa: ANN001 — an http.client response
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    size = 0
    while True:
        # read1: what has arrived (one read of the socket), so a trickle cannot hold a read for ever
        chunk = resp.read1(64 << 10) if hasattr(resp, "read1") else resp.read(64 << 10)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise ProviderError(f"{url} answered more than {MAX_ANSWER_BYTES >> 20} MB; the answer is not read",
                                transient=False, hint="a reflection's answer is a few kilobytes: check the server")
        if time.monotonic() > deadline:
            raise RetryableError(f"{url} did not finish its answer within {timeout:g}s (provider.timeout)")
        chunks.append(chunk)


def post_json(url: str, body: dict, *, headers: dict[str, str], timeout: float,
              use_env_proxy: bool, loopback_only: bool = False) -> HttpAnswer:
    """POST ``body``; return any HTTP answer, raise RetryableError for network-class failures.

    ``loopback_only``: the endpoint was approved as this machine, so the connection must reach a
    loopback address (checked on the connected socket), or nothing is sent.
    """
    handlers: list[urllib.request.BaseHandler] = [_NoRedirect()]
    if not use_env_proxy:
        handlers.append(urllib.request.ProxyHandler({}))
    if loopback_only:
        handlers += [_LoopbackHTTP(), _LoopbackHTTPS()]
    opener = urllib.request.build_opener(*handlers)
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    req = urllib.request.Request(url, data=data, method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json",
        "User-Agent": USER_AGENT, **headers,
    })
    try:
        with opener.open(req, timeout=timeout) as resp:
            return HttpAnswer(resp.status, {k.lower(): v for k, v in resp.headers.items()},
                              _read_bounded(resp, url, timeout))
    except urllib.error.HTTPError as exc:
        hdrs = {k.lower(): v for k, v in (exc.headers.items() if exc.headers else [])}
        try:
            payload = exc.read()
        except (OSError, http.client.HTTPException):
            payload = b""
        return HttpAnswer(exc.code, hdrs, payload)
    except TimeoutError:
        raise RetryableError(f"{url} did not answer within {timeout:g}s (provider.timeout)") from None
    except _Elsewhere as exc:
        raise PrivacyError(f"not sending to {url}: {exc}",
                           hint="the endpoint was approved as this machine; check provider.base_url "
                                "and the name's DNS") from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, _Elsewhere):
            raise PrivacyError(f"not sending to {url}: {reason}",
                               hint="the endpoint was approved as this machine; check "
                                    "provider.base_url and the name's DNS") from None
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise RetryableError(
                f"{url} did not answer within {timeout:g}s (provider.timeout)") from None
        if isinstance(reason, ssl.SSLCertVerificationError):
            raise ProviderError(f"TLS certificate of {url} failed verification: {reason}",
                                transient=False,
                                hint="check provider.base_url; slowloop never skips verification") from None
        if isinstance(reason, ConnectionRefusedError):
            raise RetryableError(f"connection to {url} refused",
                                 hint="is the model server running and listening on that port?") from None
        raise RetryableError(f"could not reach {url}: {reason}") from None
    except (ConnectionError, http.client.HTTPException, ssl.SSLError, OSError) as exc:
        # Reset mid-answer, remote closed without a response, TLS EOF: the network, not us.
        raise RetryableError(f"connection to {url} failed: {type(exc).__name__}: {exc}") from None


def retry_after_seconds(headers: dict[str, str], now: float | None = None) -> float | None:
    """Seconds from ``retry-after-ms`` / ``retry-after`` (delta or HTTP date); None if absent."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def raise_for_status(answer: HttpAnswer, *, url: str, key_env: str, secret: str | None,
                     model: str) -> None:
    """Turn a non-2xx answer into the right ProviderError, with a hint saying what to do."""
    status = answer.status
    if 200 <= status < 300:
        return
    said = answer.error_text()
    if secret:
        said = said.replace(secret, "***")  # some servers echo the key they rejected
    msg = f"{url} answered {status}: {said}"
    if status in TRANSIENT_STATUS:
        raise RetryableError(msg, retry_after=retry_after_seconds(answer.headers))
    if 300 <= status < 400:
        hint = (f"the server redirects to {answer.headers.get('location', '?')}; slowloop does not "
                "follow redirects, so set provider.base_url to the final address")
    elif status == 401:
        hint = (f"check the key in ${key_env}" if key_env else
                "this endpoint wants a key: set provider.api_key_env to the name of the "
                "environment variable that holds it")
    elif status == 403:
        hint = (f"the key in ${key_env} is not allowed to use this model or endpoint" if key_env
                else "the server refused the request; check its access settings")
    elif status == 404:
        hint = (f"check provider.base_url (OpenAI-compatible servers usually end in /v1) and "
                f"provider.model ({model!r})")
    elif status == 413:
        hint = "the bundle is too large for this server: lower bundle.token_budget"
    else:
        hint = "check provider.model, provider.max_output_tokens and the server's own logs"
    raise ProviderError(msg, transient=False, hint=hint)
