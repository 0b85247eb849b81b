"""The SSRF guard for agent endpoints. Django-free.

A URL is accepted when its scheme is http or https, it carries no credentials, and *every* address its
host resolves to is a global unicast address: loopback, private, link-local, shared (CGNAT), reserved,
multicast, unspecified and cloud-metadata addresses are refused unless they fall in one of the
`allowed_networks` (the AGENT_ALLOWED_NETWORKS setting: networks, or address:port pairs that allow that one port
only, e.g. `127.0.0.1:8765` for the demo agent). IPv4 addresses embedded in IPv6 (mapped,
6to4, NAT64) are judged by the embedded address.

The client connects to the address checked here (not to a second resolution), so a DNS answer that
changes between the check and the connection cannot redirect the call (DNS rebinding).
"""
from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: Instance-metadata services of the common clouds (refused even though some count as "global").
METADATA_ADDRESSES = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "169.254.169.253", "100.100.100.200", "192.0.0.192", "fd00:ec2::254"))
_SIX_TO_FOUR = ipaddress.ip_network("2002::/16")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")

Resolver = Callable[..., list]


class UrlRefused(ValueError):
    """The URL may not be called; the message says why (shown to the team, safe to log)."""


@dataclass(frozen=True)
class Target:
    """A checked URL: `address` is the resolved, allowed IP the client must connect to.

    `host` is the name to send as Host and TLS SNI; `port` is explicit (80/443 by default).
    """

    url: str
    scheme: str
    host: str
    port: int
    address: str

    @property
    def origin(self) -> tuple[str, str, int]:
        return self.scheme, self.host, self.port


@dataclass(frozen=True)
class AllowedNetwork:
    """A non-public network the platform may call: every port of it, or only `port` when one is given."""

    network: ipaddress.IPv4Network | ipaddress.IPv6Network
    port: int | None = None

    def admits(self, ip: IPAddress, port: int) -> bool:
        return ip.version == self.network.version and ip in self.network and self.port in (None, port)


def parse_networks(values: Iterable[str]) -> tuple[AllowedNetwork, ...]:
    """Networks the platform may call though they are not public: CIDRs or single addresses, each optionally with
    one port ("127.0.0.1:8765", "[::1]:8765", "10.1.0.0/16", "10.1.0.0/16:443"). Raises ValueError naming a bad
    entry."""
    allowed = []
    for value in (v.strip() for v in values if v and v.strip()):
        text, port = value, None
        if value.startswith("["):  # [v6]:port
            text, _, rest = value[1:].partition("]")
            port = int(rest[1:]) if rest.startswith(":") and rest[1:].isascii() and rest[1:].isdigit() else None
        elif value.count(":") == 1:  # v4:port or v4/len:port
            text, _, port_text = value.partition(":")
            if not (port_text.isascii() and port_text.isdigit()):
                raise ValueError(f"bad port in allowed network {value!r}")
            port = int(port_text)
        if port is not None and not 0 < port < 65536:
            raise ValueError(f"bad port in allowed network {value!r}")
        allowed.append(AllowedNetwork(ipaddress.ip_network(text, strict=False), port))
    return tuple(allowed)


def _embedded_v4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    if ip.version != 6:
        return None
    if ip.ipv4_mapped:
        return ip.ipv4_mapped
    if ip in _SIX_TO_FOUR:
        return ip.sixtofour
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_problem(ip: IPAddress) -> str | None:
    """Why an address may not be called ('loopback', 'private', ...), or None when it is a global address."""
    inner = _embedded_v4(ip)
    if inner is not None:
        return address_problem(inner)
    if ip in METADATA_ADDRESSES:
        return "a cloud metadata address"
    for check, label in ((ip.is_loopback, "a loopback address"), (ip.is_unspecified, "an unspecified address"),
                         (ip.is_link_local, "a link-local address"), (ip.is_multicast, "a multicast address"),
                         (ip.is_private, "a private address"), (ip.is_reserved, "a reserved address")):
        if check:
            return label
    if not ip.is_global:
        return "a non-global address"
    return None


def address_allowed(ip: IPAddress, port: int, allowed_networks: Iterable[AllowedNetwork] = ()) -> str | None:
    """None when `ip` may be called on `port`: a global address, or one an AllowedNetwork admits (on that port,
    when the entry names one); else the reason."""
    problem = address_problem(ip)
    if problem is None or any(allowed.admits(ip, port) for allowed in allowed_networks):
        return None
    return problem


def _resolve(host: str, port: int, resolver: Resolver | None) -> list[IPAddress]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = (resolver or socket.getaddrinfo)(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise UrlRefused(f"the host {host!r} cannot be resolved ({reason})") from exc
    addresses = []
    for info in infos:
        try:
            addresses.append(ipaddress.ip_address(info[4][0].split("%", 1)[0]))
        except ValueError:
            continue
    if not addresses:
        raise UrlRefused(f"the host {host!r} resolves to no usable address")
    return list(dict.fromkeys(addresses))


def check_url(url: str, *, allowed_networks: Iterable = (), resolver: Resolver | None = None) -> Target:
    """Check `url` and resolve its host; return the Target to connect to. Raises UrlRefused.

    `allowed_networks` are ip_network objects (see `parse_networks`). Every resolved address must pass,
    so a name with one private and one public address is refused. `resolver` defaults to
    socket.getaddrinfo (looked up at call time).
    """
    if not isinstance(url, str) or not url or len(url) > 2000 or any(c in url for c in "\r\n\t\x00 "):
        raise UrlRefused("the URL is empty, too long or holds spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UrlRefused(f"the URL cannot be parsed ({exc})") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise UrlRefused(f"only http:// and https:// URLs are accepted, not {scheme or 'a URL without scheme'}")
    if parts.username is not None or parts.password is not None:
        raise UrlRefused("the URL may not carry a user name or password: register the secret separately")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise UrlRefused("the URL has no host")
    if port == 0:  # was taken for "no port", the scheme's default (the ninth break-it pass of issue 13)
        raise UrlRefused("port 0 is no port: give the one the service listens on, or none for the scheme's default")
    port = port or (443 if scheme == "https" else 80)
    networks = tuple(allowed_networks)
    addresses = _resolve(host, port, resolver)
    for ip in addresses:
        problem = address_allowed(ip, port, networks)
        if problem:
            shown = host if str(ip) == host else f"{host} ({ip})"
            raise UrlRefused(f"{shown} is {problem}; the platform only calls public addresses (and, on this site, "
                             "the address:port pairs its AGENT_ALLOWED_NETWORKS lists)")
    return Target(url=url, scheme=scheme, host=host, port=port, address=str(addresses[0]))
