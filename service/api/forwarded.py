"""The client's address behind proxies (``--forwarded-allow-ips``): what rate limits, the
websocket admission and the log lines count per address.

A proxy appends the address of its own peer to ``X-Forwarded-For``; everything to the left of
that entry is what the client (or an earlier proxy) wrote, so only entries written by a proxy
we trust can be believed. ``ForwardedClient`` therefore reads the header **from the right**:
when the peer is a trusted proxy, the client is the rightmost entry that is not itself a
trusted proxy (when every entry is, the leftmost: the chain of trust reaches that far). A
client that sends its own ``X-Forwarded-For`` only adds entries to the left of the one its
proxy writes, which are never read.

``*`` believes every peer, but only for the entry it adds: the client is the rightmost entry
(uvicorn's own ``"*"`` takes the leftmost, which the client writes). The addresses and networks
listed are believed for any number of hops.

This replaces uvicorn's ``ProxyHeadersMiddleware`` (``papyrus serve`` runs uvicorn with
``proxy_headers`` off), so that the rule is ours, the same under any ASGI server, and tested
(``tests/service/transport/test_proxy.py``).
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

#: what ``X-Forwarded-Proto`` may set the scheme to
SCHEMES = frozenset({"http", "https", "ws", "wss"})


class Proxies:
    """The trusted proxies: addresses and networks (``10.0.0.0/8``), and ``*`` (any peer)."""

    def __init__(self, trusted: Iterable[str]) -> None:
        items = [item.strip() for item in trusted if item.strip()]
        self.any_peer = "*" in items
        self.networks = tuple(
            ipaddress.ip_network(item, strict=False) for item in items if item != "*"
        )
        self.is_trusted = functools.lru_cache(maxsize=4096)(self._is_trusted)

    def __bool__(self) -> bool:
        return self.any_peer or bool(self.networks)

    def _is_trusted(self, host: str) -> bool:
        """A listed address or an address of a listed network (``*`` aside)."""
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def trusts_peer(self, host: str | None) -> bool:
        if host is None:
            return False
        return self.any_peer or self.is_trusted(host)

    def client(self, peer: str | None, forwarded_for: str) -> tuple[str, int] | None:
        """The client's address and port when ``peer`` is a trusted proxy that forwarded
        ``forwarded_for`` (every ``X-Forwarded-For`` value, joined by commas); ``None``: the
        peer itself is the client."""
        if not self.trusts_peer(peer):
            return None
        hops = [hop.strip() for hop in forwarded_for.split(",")]
        found: tuple[str, int] | None = None
        for hop in reversed(hops):
            parsed = host_and_port(hop)
            if parsed is None:  # a trusted proxy forwarded what is not an address: stop there
                break
            found = parsed
            if not self.is_trusted(parsed[0]):
                break
        return found


def host_and_port(hop: str) -> tuple[str, int] | None:
    """An ``X-Forwarded-For`` entry as an IP address and a port (0 when none is given):
    ``203.0.113.7``, ``203.0.113.7:5100``, ``2001:db8::1``, ``[2001:db8::1]:5100``; ``None``
    for anything else (``unknown``, an obfuscated name, garbage)."""
    host, port = hop, "0"
    if hop.startswith("["):
        host, _, rest = hop[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                return None
            port = rest[1:]
    elif hop.count(":") == 1:
        host, _, port = hop.partition(":")
    try:
        address = ipaddress.ip_address(host)
        number = int(port)
    except ValueError:
        return None
    if not 0 <= number <= 65535:
        return None
    return str(address), number


class ForwardedClient:
    """ASGI middleware: ``scope["client"]`` and ``scope["scheme"]`` as the trusted proxies
    forwarded them (``X-Forwarded-For``, ``X-Forwarded-Proto``); untouched otherwise."""

    def __init__(self, app: ASGIApp, *, proxies: Proxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = self.forwarded(scope)
        await self.app(scope, receive, send)

    def forwarded(self, scope: Scope) -> Scope:
        client = scope.get("client")
        peer = str(client[0]) if client else None
        if not self.proxies.trusts_peer(peer):
            return scope
        forwarded_for: list[bytes] = []
        proto: bytes | None = None
        for name, value in scope.get("headers", ()):
            if name == b"x-forwarded-for":
                forwarded_for.append(value)
            elif name == b"x-forwarded-proto":
                proto = value
        changed = dict(scope)
        if proto is not None:
            scheme = proto.decode("latin-1").split(",")[-1].strip().lower()
            if scheme in SCHEMES:
                if scope["type"] == "websocket":
                    scheme = scheme.replace("http", "ws")
                changed["scheme"] = scheme
        if forwarded_for:
            joined = b",".join(forwarded_for).decode("latin-1")
            found = self.proxies.client(peer, joined)
            if found is not None:
                changed["client"] = found
        return changed
