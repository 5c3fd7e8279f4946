"""A deadline on request headers against a hostile client (deploy/OPERATIONS.md "Protocol limits").

* ``http_protocol(header_timeout)``: uvicorn's HTTP protocol with a deadline on the request
  headers (slowloris: uvicorn has a keep-alive timeout between requests, but none while the
  headers of a request trickle in, nor before the first byte). A connection whose headers are
  not complete ``header_timeout`` seconds after the server began waiting for them is answered
  408 and closed.
* A server that stops tells the answers still streaming (an event stream) at once: each
  registers a callback under ``STOP`` in its request's ``scope["state"]``, which the protocol
  calls when uvicorn begins its graceful shutdown, so that the stream ends itself with a word
  to its client instead of being cut when ``--shutdown-timeout`` runs out.

The websocket limits are ``service.api.connections``'s.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

log = logging.getLogger("papyrus.http")
#: the key, in a request's ``scope["state"]``, of what a long answer does when the server stops
STOP = "papyrus.stop"


# -- a deadline on request headers ------------------------------------------------------------


def uvicorn_http_protocol() -> Any:
    """The protocol uvicorn's ``http="auto"`` picks: httptools when installed, else h11."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] installs httptools
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol
    return HttpToolsProtocol


def timed_out_response(timeout: float) -> bytes:
    body = json.dumps(
        {
            "type": "https://papyrus.example/errors/bad_input",
            "title": "Bad input",
            "status": 408,
            "detail": f"The request headers did not arrive within {timeout:g} seconds.",
            "code": "BAD_INPUT",
        }
    ).encode()
    head = (
        b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/problem+json\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n"
    )
    return head + body


def http_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol, closing a connection whose request headers are not complete
    ``header_timeout`` seconds after the server began waiting for them: from the connection's
    start, and from the first byte of each later request on it (between requests, uvicorn's
    keep-alive timeout applies)."""
    base = uvicorn_http_protocol()

    class HeaderDeadline(base):  # type: ignore[misc, valid-type]
        """Waiting for headers: no request cycle yet, or the last one answered."""

        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            cycle = self.cycle
            if self._deadline is None and (cycle is None or cycle.response_complete):
                self._arm()  # the first bytes of another request
            super().data_received(data)
            if self._deadline is not None and (
                self.cycle is not cycle or self.transport.get_protocol() is not self
            ):  # the headers are complete: a new request cycle, or a websocket upgrade
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def shutdown(self) -> None:
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                stop = cycle.scope.get("state", {}).get(STOP)
                if stop is not None:  # a long answer ends itself (the module's docstring)
                    stop()
            super().shutdown()

        def _arm(self) -> None:
            self._deadline = self.loop.call_later(header_timeout, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return
            client = self.client
            log.warning(
                "%sthe request headers did not arrive within %g s: connection closed",
                f"{client[0]}:{client[1]}: " if client else "",
                header_timeout,
            )
            self.transport.write(timed_out_response(header_timeout))
            self.transport.close()

    return HeaderDeadline
