"""Websockets that a client cannot pin: keepalive with a ping timeout, and a bounded send
buffer per connection (deploy/OPERATIONS.md "Protocol limits").

uvicorn's websocket protocol (``websockets-sansio``, what ``ws="auto"`` picks) already pings
every ``ping_interval`` seconds and waits for the client to read once its send buffer passes
the transport's high-water mark. What it lacks, and a client that never reads (nor answers a
ping) exploits (issue #20: ten such sockets held 146 MB for good):

* a ping left unanswered ``ping_timeout`` seconds closes the connection with
  ``transport.close()``, which waits for the send buffer to drain: it never does, so the
  socket, its buffer and every subscription behind it stayed, the application never told;
* a client whose buffer stays full is waited for without end: the subscriptions sending to it
  hold what they were sending (a catch-up's entries, the game) for as long as it likes.

``websocket_protocol(send_buffer, send_timeout)`` is that protocol with the bounds:

* the send buffer: at most ``send_buffer`` bytes are queued for one connection (its
  high-water mark; a message being sent then waits for the client to read);
* a connection whose buffer stays full ``send_timeout`` seconds is a slow consumer: it is
  dropped with close code ``SLOW_CONSUMER`` (1008, "policy violation");
* a ping left unanswered ``ping_timeout`` seconds drops it likewise (code 1011, as uvicorn
  says it);
* a server that stops closes every websocket with 1012 (uvicorn's code) and a reason that
  says what to do (``STOPPING_REASON``; uvicorn gives none).

Dropping a connection tells the application at once (``websocket.disconnect``): strawberry ends
the connection's operations, each subscription leaves the hub, and everything they held is
freed. The client gets what was queued and the close frame as far as it reads; the transport
is aborted ``send_timeout`` seconds later (10 at most, uvicorn's ``close_timeout``) whatever is
left, one whose client never acknowledges a close the application sent ``close_timeout``
seconds later, and one still full when the server stops at once: nothing waits on a buffer
nobody reads.

This module owns the uvicorn internals it relies on (``WebSocketsSansIOProtocol``, uvicorn
0.55; ``tests/service/transport/test_silent_sockets.py`` pins the behaviour).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("papyrus.http")

#: the close code of a slow consumer: RFC 6455's "policy violation" (a client that does not
#: read broke the send-buffer policy). graphql-ws clients take a 1008 as final and do not
#: reconnect by themselves: a client that stopped reading for ``send_timeout`` seconds should
#: look at why before it subscribes again (with ``afterVersion``, it misses nothing)
SLOW_CONSUMER = 1008
#: the close code of a ping left unanswered (uvicorn's and the websockets library's)
PING_TIMEOUT = 1011
#: the close code of every websocket when the server stops (uvicorn's: "service restart"),
#: with a reason (uvicorn's has none)
SERVER_STOPPING = 1012
STOPPING_REASON = "The server is stopping: reconnect, and resubscribe with afterVersion to resume."


def websocket_protocol(send_buffer: int, send_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's websocket protocol with a bounded send buffer per connection (module
    docstring); the ping interval and timeout are uvicorn's own settings."""

    class BoundedWebSocket(WebSocketsSansIOProtocol):
        _stalled: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            # sends wait for the client past this (the low-water mark: a quarter of it)
            transport.set_write_buffer_limits(high=send_buffer)

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._stalled is None:
                self._stalled = self.loop.call_later(send_timeout, self._slow_consumer)

        def resume_writing(self) -> None:
            super().resume_writing()
            self._unstall()

        def connection_lost(self, exc: Exception | None) -> None:
            self._unstall()
            super().connection_lost(exc)

        def keepalive_timeout(self) -> None:
            self.pong_timer = None
            self.pending_ping_payload = None
            self.drop(PING_TIMEOUT, "keepalive ping timeout")

        def shutdown(self) -> None:
            if not self.close_sent and self.handshake_complete and self.initial_response is None:
                # uvicorn's stop, its 1012 with a reason (uvicorn sends none)
                self.stop_keepalive()
                self.queue.put_nowait({"type": "websocket.disconnect", "code": SERVER_STOPPING})
                self.conn.send_close(SERVER_STOPPING, STOPPING_REASON)
                self.transport.write(b"".join(self.conn.data_to_send()))
                self.transport.close()
            else:
                super().shutdown()
            if not self.writable.is_set():  # a buffer nobody reads would hold the stop
                self.transport.abort()

        async def send(self, message: Any) -> None:
            await super().send(message)
            timer = self.close_timer
            if message.get("type") == "websocket.close" and timer is not None:
                # the client has ``close_timeout`` seconds to acknowledge the close; then the
                # connection goes whatever its buffer holds (uvicorn's close would wait)
                timer.cancel()
                self.close_timer = self.loop.call_later(self.close_timeout, self.transport.abort)

        def _unstall(self) -> None:
            if self._stalled is not None:
                self._stalled.cancel()
                self._stalled = None

        def _slow_consumer(self) -> None:
            self._stalled = None
            self.drop(
                SLOW_CONSUMER,
                f"slow consumer: the send buffer stayed full for {send_timeout:g} s",
            )

        def drop(self, code: int, reason: str) -> None:
            """Close with ``code``: the application is told at once (its sends fail from now
            on), the client gets what is queued and the close frame as far as it reads, and
            the transport is aborted ``send_timeout`` seconds later (``close_timeout``, 10, at
            most) whatever is left."""
            if self.close_sent or self.transport.is_closing():
                return
            client = self.client
            log.info(
                "%swebsocket dropped (%d): %s",
                f"{client[0]}:{client[1]}: " if client else "",
                code,
                reason,
            )
            self.conn.fail(code, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.disconnected = True
            self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
            self.writable.set()  # a send waiting for the client fails now (ClientDisconnected)
            self.transport.close()
            grace = min(self.close_timeout, send_timeout)
            self.close_timer = self.loop.call_later(grace, self.transport.abort)

    return BoundedWebSocket
