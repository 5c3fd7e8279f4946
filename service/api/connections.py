"""Connection limits against a hostile client (deploy/OPERATIONS.md "Protocol limits").

* ``Admission``: websockets open at once per client address (``max_websockets_per_client``);
  one more is refused in its handshake with 429 ``RATE_LIMITED``.
* ``TransportWSHandler`` / ``LegacyWSHandler``: operations running at once on one websocket
  (``max_subscriptions_per_connection``); one more is answered with an error whose
  ``extensions.code`` is ``RATE_LIMITED`` and whose message names the limit (strawberry's own
  check says only "Subscription limit reached", without a code). A message of a shape its
  protocol does not define closes the connection with 4400 and the reason (``frames``); a
  client gone mid-answer is one info line (``service.api.disconnects``). An operation may name
  a trusted document by its ``documentId`` instead of sending its text (docs/API.md "Trusted
  documents"): it runs as that text; an id the server does not know is answered with an
  error coded ``UNKNOWN_DOCUMENT``.
* Every close says why, with a code of the table in docs/API.md ("Websocket close codes"):
  ``ReasonedClose`` gives strawberry's closes reasons a client can act on (a refused
  ``connection_init`` is 4403 with the error's code and message, in both protocols).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol, cast

from graphql import GraphQLError
from starlette.types import Receive, Scope, Send

from service.api.disconnects import QuietDisconnects
from service.api.frames import INVALID_MESSAGE, legacy_ws_problem, transport_ws_problem
from service.api.graphql.strawberry_private import (
    BaseGraphQLTransportWSHandler,
    BaseGraphQLWSHandler,
)

# -- websockets per client address ------------------------------------------------------------


class Admission:
    """Counts the open websockets of each client address (on the event loop: no lock)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()

    def admit(self, address: str) -> bool:
        if self.open[address] >= self.limit:
            return False
        self.open[address] += 1
        return True

    def leave(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


async def refuse_websocket(scope: Scope, receive: Receive, send: Send, message: str) -> None:
    """Refuse a websocket handshake: 429 with a GraphQL error body where the server can send
    one (the ASGI ``websocket.http.response`` extension), else a plain refusal (403)."""
    connect = await receive()
    if connect["type"] != "websocket.connect":
        return
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
        return
    body = json.dumps(
        {"data": None, "errors": [{"message": message, "extensions": {"code": "RATE_LIMITED"}}]}
    ).encode()
    await send(
        {
            "type": "websocket.http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "websocket.http.response.body", "body": body})


# -- operations per websocket -----------------------------------------------------------------


def too_many_operations(limit: int) -> GraphQLError:
    return GraphQLError(
        f"This connection already runs {limit} subscriptions or operations, the most one "
        f"connection may run at once (max_subscriptions_per_connection): complete one first, "
        f"or open another connection.",
        extensions={"code": "RATE_LIMITED"},
    )


def unknown_document(document_id: str) -> GraphQLError:
    return GraphQLError(
        f"This server does not know the document {document_id[:80]!r}: send the document's "
        "text as query instead.",
        extensions={"code": "UNKNOWN_DOCUMENT"},
    )


class Trusting(Protocol):
    """What the handlers need of their view (``PapyrusGraphQL``): the text of a trusted
    document by its id (``None``: unknown)."""

    def trusted_document(self, document_id: str, /) -> str | None: ...


def with_trusted_text(message: Any, document: Callable[[str], str | None]) -> Any:
    """``message`` (an operation's start, its shape checked by ``frames``) with the text of
    the trusted document its payload names by ``documentId`` in place of the id, as if the
    text had been sent as ``query``; ``None`` for an id ``document`` does not know. A payload
    with a query is the message itself."""
    payload = message["payload"]
    named = payload.get("documentId")
    if named is None:
        return message
    text = document(named)
    if text is None:
        return None
    trusted = {key: value for key, value in payload.items() if key != "documentId"}
    return {**message, "payload": {**trusted, "query": text}}


# -- close codes and reasons ------------------------------------------------------------------

#: RFC 6455: a close frame's reason is at most 123 bytes of UTF-8
MAX_REASON = 123
#: where ``on_ws_connect`` leaves why it refused a ``connection_init`` (``Context.extra``)
REFUSAL = "connection_refusal"
#: what a client refused for its token may do next
REFUSAL_HINT = " Send a valid token, or none to watch."


def fitted(reason: str) -> str:
    """``reason`` cut to what a close frame holds (``MAX_REASON`` bytes, whole characters)."""
    data = reason.encode()
    if len(data) <= MAX_REASON:
        return reason
    return data[: MAX_REASON - 3].decode(errors="ignore").rstrip() + "..."


def refusal_reason(code: str, message: str) -> str:
    """The reason of a 4403 close: the error's code and message (``UNAUTHENTICATED: This token
    is not valid; register to get one.``), and what to do, as far as a close frame holds."""
    said = f"{code}: {message}"
    hinted = said + REFUSAL_HINT
    return hinted if len(hinted.encode()) <= MAX_REASON else fitted(said)


INIT_PAYLOAD = (
    'The connection_init payload must be an object, e.g. {"authorization": "Bearer <token>"}.'
)

#: strawberry's close reasons reworded to say what to do (docs/API.md "Websocket close codes"):
#: (code, strawberry's reason) -> (code, ours)
REWORDED: dict[tuple[int, str], tuple[int, str]] = {
    (4401, "Unauthorized"): (
        4401,
        "Unauthorized: send connection_init and wait for connection_ack before an operation.",
    ),
    (4400, "Invalid connection init payload"): (4400, INIT_PAYLOAD),
    (4408, "Connection initialisation timeout"): (
        4408,
        "Connection initialisation timeout: send connection_init within a minute of opening.",
    ),
    (4429, "Too many initialisation requests"): (
        4429,
        "Too many initialisation requests: send connection_init once per connection.",
    ),
    # graphql-ws: the client's connection_terminate (a bad connection_init payload, the other
    # close strawberry makes with 1000, is refused before: ``LegacyWSHandler``)
    (1000, ""): (1000, "connection_terminate: closed as the client asked."),
}


class ReasonedClose:
    """strawberry's websocket adapter, whose closes say why and what to do: a refused
    ``connection_init`` closes with 4403 and the refusal (both protocols: strawberry's
    graphql-ws closes it with 1011 and no reason), the reasons of ``REWORDED`` reworded; any
    other close as strawberry makes it, its reason cut to what a close frame holds."""

    def __init__(self, websocket: Any, context: Any) -> None:
        self._websocket = websocket
        self._context = context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._websocket, name)

    async def close(self, code: int, reason: str) -> None:
        refusal = getattr(self._context, "extra", {}).get(REFUSAL)
        if refusal is not None and (code, reason) in ((4403, "Forbidden"), (1011, "")):
            code, reason = 4403, refusal
        else:
            code, reason = REWORDED.get((code, reason), (code, reason))
        await self._websocket.close(code=code, reason=fitted(reason))


class ClosesWithReasons:
    """Mixed into strawberry's websocket protocol handlers: their closes go through
    ``ReasonedClose``."""

    websocket: Any
    context: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.websocket = ReasonedClose(self.websocket, self.context)


class TransportWSHandler(
    ClosesWithReasons, QuietDisconnects, BaseGraphQLTransportWSHandler[Any, Any]
):
    """``graphql-transport-ws``, with the per-connection limit answered by a coded error, and
    a trusted document named by its ``documentId`` run as its text (the view's
    ``trusted_document``: ``service.api.graphql.trusted``), an unknown id answered by an
    ``error`` with the code ``UNKNOWN_DOCUMENT`` (the client sends the text instead)."""

    async def handle_message(self, message: Any) -> None:
        problem = transport_ws_problem(message)
        if problem is not None:
            await self.handle_invalid_message(problem)
            return
        await super().handle_message(message)

    async def handle_subscribe(self, message: Any) -> None:
        limit = self.max_subscriptions_per_connection
        if (
            limit is not None
            and self.connection_acknowledged
            and message["id"] not in self.operations
            and len(self.operations) >= limit
        ):
            error = too_many_operations(limit).formatted
            await self.send_message({"id": message["id"], "type": "error", "payload": [error]})
            return
        trusted = with_trusted_text(message, cast(Trusting, self.view).trusted_document)
        if trusted is None:
            if self.connection_acknowledged and message["id"] not in self.operations:
                error = unknown_document(message["payload"]["documentId"]).formatted
                await self.send_message({"id": message["id"], "type": "error", "payload": [error]})
                return
            trusted = message  # refused by strawberry before the query is read (4401, 4409)
        await super().handle_subscribe(trusted)


class LegacyWSHandler(ClosesWithReasons, QuietDisconnects, BaseGraphQLWSHandler[Any, Any]):
    """The older ``graphql-ws``, likewise (an unknown ``documentId``: an ``error`` message
    whose payload is the coded error, as that protocol's errors are)."""

    async def handle_message(self, message: Any) -> None:
        problem = legacy_ws_problem(message)
        if (
            problem is None
            and message["type"] == "connection_init"
            and not isinstance(message.get("payload", {}), dict | None)
        ):
            problem = INIT_PAYLOAD  # strawberry would close with 1000, as if all were well
        if problem is not None:
            await self.websocket.close(code=INVALID_MESSAGE, reason=problem)
            return
        await super().handle_message(message)

    async def handle_start(self, message: Any) -> None:
        limit = self.max_subscriptions_per_connection
        if (
            limit is not None
            and self.connection_acknowledged
            and message["id"] not in self.tasks
            and len(self.tasks) >= limit
        ):
            error = too_many_operations(limit).formatted
            await self.send_message({"type": "error", "id": message["id"], "payload": error})
            return
        trusted = with_trusted_text(message, cast(Trusting, self.view).trusted_document)
        if trusted is None:
            if self.connection_acknowledged:
                error = unknown_document(message["payload"]["documentId"]).formatted
                await self.send_message({"type": "error", "id": message["id"], "payload": error})
                return
            trusted = message  # refused by strawberry before the query is read (4401)
        await super().handle_start(trusted)
