"""Privacy by default: bundles go only to this machine unless the user allowed a remote host.

The check runs when a provider is built, before any connection: an endpoint is loopback when its
host is a loopback address (127.0.0.0/8, ::1) or a name whose every resolved address is loopback
("localhost" usually). Anything else — including a name that does not resolve — is remote, and a
remote endpoint is refused unless ``privacy.allow_remote`` lists its *host* (``api.openai.com``,
or ``.example.com`` for every host under it). A provider's name proves nothing: ``name =
"openai"`` with ``base_url = https://attacker.example`` is attacker.example. And since a name can
resolve differently a moment later, the request itself checks the address it connected to
(:func:`slowloop.providers.http_json.post_json` with ``loopback_only``).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..errors import PrivacyError, UserError


@dataclass(frozen=True)
class Endpoint:
    url: str          # base URL without a trailing slash
    host: str
    loopback: bool
    destination: str  # the sentence reflection prints: what left the machine and to whom


def _is_loopback_ip(text: str) -> bool:
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])  # drop an IPv6 zone id
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def resolve_loopback(host: str) -> tuple[bool, str]:
    """(is loopback, why) for a host name or address literal."""
    host = host.strip("[]")
    if _is_loopback_ip(host):
        return True, "loopback address"
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
        return False, "not a loopback address"
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, OSError):
        return False, "the name does not resolve, so it cannot be shown to stay on this machine"
    addresses = sorted({a for info in infos if isinstance(a := info[4][0], str)})
    if addresses and all(_is_loopback_ip(a) for a in addresses):
        return True, f"resolves to {', '.join(addresses)}"
    remote = [a for a in addresses if not _is_loopback_ip(a)]
    return False, f"resolves to {', '.join(remote[:3])}"


def check_endpoint(base_url: str, *, name: str, allow_remote: Iterable[str]) -> Endpoint:
    """Validate ``base_url`` and apply the privacy rule; raises before any socket is opened."""
    url = base_url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UserError(f"provider.base_url = {base_url!r} is not an http(s) URL",
                        hint="e.g. http://127.0.0.1:8080/v1 for a llama.cpp server")
    host = parts.hostname
    loopback, why = resolve_loopback(host)
    if loopback:
        port = f":{parts.port}" if parts.port else ""
        shown = f"[{host}]" if ":" in host else host
        return Endpoint(url, host, True, f"{parts.scheme}://{shown}{port} (loopback)")
    allowed = [str(a) for a in allow_remote]
    if not host_allowed(host, allowed):
        listed = ", ".join(repr(a) for a in allowed) or "nothing"
        raise PrivacyError(
            f"provider {name!r} would send reflection bundles to {host} ({why}), "
            f"and privacy.allow_remote lists {listed}",
            hint=(f"to allow it, put `allow_remote = [\"{host}\"]` under [privacy] in config.toml "
                  "(hosts, not provider names); or point provider.base_url at a local server "
                  "(llama.cpp, Ollama) on 127.0.0.1"),
        )
    return Endpoint(url, host, False, f"{host} (remote, allowed by host)")


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """``api.openai.com`` matches itself; ``.openai.com`` matches every host under openai.com."""
    h = host.strip("[]").lower().rstrip(".")
    for entry in allowed:
        e = entry.strip().lower().rstrip(".")
        if not e:
            continue
        if e.startswith(".") and (h.endswith(e) or h == e[1:]):
            return True
        if h == e.strip("[]"):
            return True
    return False
