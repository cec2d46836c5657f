"""Privacy by default: bundles go only to this machine unless the user allowed a remote by name.

The check runs when a provider is built, before any connection: an endpoint is loopback when its
host is a loopback address (127.0.0.0/8, ::1) or a name whose every resolved address is loopback
("localhost" usually). Anything else — including a name that does not resolve — is remote, and a
remote endpoint is refused unless ``privacy.allow_remote`` lists the provider's name.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Iterable
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
    addresses = sorted({info[4][0] for info in infos})
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
    if name not in allowed:
        listed = ", ".join(repr(a) for a in allowed) or "nothing"
        raise PrivacyError(
            f"provider {name!r} would send reflection bundles to {host} ({why}), "
            f"and privacy.allow_remote lists {listed}",
            hint=(f"to allow it, put `allow_remote = [\"{name}\"]` under [privacy] in config.toml; "
                  "or point provider.base_url at a local server (llama.cpp, Ollama) on 127.0.0.1"),
        )
    return Endpoint(url, host, False, f"{host} (remote, allowed as {name!r})")
