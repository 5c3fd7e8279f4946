"""The operator's view of each request: its id, the real client address and one log line.

``RequestLog`` is a pure ASGI middleware around the whole server. For every HTTP request (and
every websocket, logged when it closes) it

* takes the caller's ``X-Request-Id`` when it is sane (``REQUEST_ID``), else makes one, and
  sends it back in the ``X-Request-Id`` response header;
* keeps a ``Record`` of the request in a context variable (``current()``), which the
  transports fill in: GraphQL its operation, root fields and game id, REST its operationId and
  game id (read from the route), the application the game kind and the acting seat (through
  the metrics' observer, on worker threads that see the request's context:
  ``service.api.contextpool``), and error answers their code and the request id they carry
  (GraphQL ``extensions.requestId``, REST problem ``requestId``);
* logs one line on ``papyrus.request`` when the answer is sent, and hands the record to
  the metrics.

``client_address(scope)`` is the one place the client's address is read from:
``service.api.forwarded`` has already replaced a trusted proxy's address by the client it
forwards (``X-Forwarded-For`` read from the right, ``--forwarded-allow-ips``). No header
value, token or password is logged (``redact`` masks bearer tokens and URL passwords in any
line, as a last guard).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOG = logging.getLogger("papyrus.request")

#: a request id we accept from the caller: what request-id schemes use, at most 128 characters
REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:=@+/-]{0,127}")
#: longest client-given value (operation name, game id) in a log line
MAX_LOGGED = 100
#: the error code of an answer that carries none (a plain 404 outside the APIs...)
CODE_OF_STATUS = {
    400: "BAD_INPUT",
    401: "UNAUTHENTICATED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "BAD_INPUT",
    409: "CONFLICT",
    413: "BAD_INPUT",
    422: "BAD_INPUT",
    429: "RATE_LIMITED",
    503: "UNAVAILABLE",
}


def client_address(scope: Scope) -> str | None:
    """The client's IP address (the proxy's client when the proxy is trusted: see the module
    docstring); ``None`` when the server does not know it (a unix socket)."""
    client = scope.get("client")
    return str(client[0]) if client else None


@dataclass
class Record:
    """What is known of one request (``current()`` while it runs)."""

    request_id: str
    transport: str  # graphql, rest, websocket or http
    method: str
    path: str
    client: str | None
    operation: str | None = None  # GraphQL operation name or first field, REST operationId
    fields: list[str] = field(default_factory=list)  # GraphQL root fields (schema names only)
    game_id: str | None = None
    kind: str | None = None
    seat: int | None = None
    status: int | None = None
    code: str | None = None  # the (first) error code of the answer
    duration_ms: float = 0.0

    def note_code(self, code: str) -> None:
        """An error answer with ``code``; the first one named is kept."""
        if self.code is None:
            self.code = code

    def note_game(self, game_id: Any) -> None:
        if self.game_id is None and isinstance(game_id, str | int):
            self.game_id = printable(str(game_id))

    @property
    def error_code(self) -> str | None:
        """The code of a failed request (from its status when no layer named one)."""
        if self.code is not None:
            return self.code
        status = self.status or 0
        if status < 400:
            return None
        return CODE_OF_STATUS.get(status, "INTERNAL" if status >= 500 else "BAD_INPUT")

    def fields_for_log(self) -> dict[str, Any]:
        return {
            "request_id": self.request_id,
            "transport": self.transport,
            "operation": self.operation,
            "game_id": self.game_id,
            "kind": self.kind,
            "seat": self.seat,
            "status": self.status,
            "code": self.error_code,
            "duration_ms": round(self.duration_ms, 2),
            "client": self.client,
            "method": self.method,
            "path": self.path,
        }


_CURRENT: contextvars.ContextVar[Record | None] = contextvars.ContextVar(
    "papyrus_request", default=None
)


def current() -> Record | None:
    """The request being answered (``None`` outside of one: workers, scripts, tests)."""
    return _CURRENT.get()


def current_request_id() -> str | None:
    record = _CURRENT.get()
    return record.request_id if record is not None else None


def printable(value: str) -> str:
    """A client-given value as it may appear in a log line: no control characters, short."""
    if value.isprintable():  # nearly always: one call in C, not one per character
        return value[:MAX_LOGGED]
    cleaned = "".join(c if c.isprintable() else "?" for c in value)
    return cleaned[:MAX_LOGGED]


def request_id_of(scope: Scope) -> str:
    """The caller's ``X-Request-Id`` when it is sane, else a new one."""
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = value.decode("latin-1").strip()
            if REQUEST_ID.fullmatch(text):
                return text
            break
    return new_request_id()


def new_request_id() -> str:
    """A fresh id: 128 random bits in hex, like a uuid4's, drawn from the ``random`` module's
    generator (seeded from the OS at start and again in a forked child) rather than from
    ``uuid4``'s ``os.urandom``: that system call lets go of the interpreter lock, and on a busy
    server the event loop then queues behind the worker threads to get it back, on every
    request. A request id is a label for logs, not a secret (a caller may choose its own)."""
    return f"{random.getrandbits(128):032x}"


def transport_of(scope: Scope) -> str:
    path = scope.get("path", "")
    if path == "/graphql" or path.startswith("/graphql/"):
        return "websocket" if scope["type"] == "websocket" else "graphql"
    if path == "/api/v1" or path.startswith("/api/v1/"):
        return "rest"
    return "websocket" if scope["type"] == "websocket" else "http"


def routed(record: Record, scope: Scope) -> None:
    """What the router found: REST's operationId and game id, the route of other paths."""
    route = scope.get("route")
    if record.transport == "rest":
        operation = getattr(route, "operation_id", None)
        record.operation = operation if isinstance(operation, str) else "unmatched"
        params = scope.get("path_params") or {}
        if "/games/" in record.path and "id" in params:
            record.note_game(params["id"])
    elif record.transport == "http" and record.operation is None:
        path = getattr(route, "path", None)
        record.operation = path if isinstance(path, str) and path else "unmatched"


# -- the middleware ----------------------------------------------------------------------------

Finished = Callable[[Record], None]


class RequestLog:
    """Request ids, records and one log line per request (see the module docstring).
    ``finished(record)`` is called for each (the metrics); ``opened(+1 / -1)`` as websockets
    are accepted and closed."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        finished: Finished | None = None,
        opened: Callable[[int], None] | None = None,
        cancelled: Callable[[Scope], ASGIApp] | None = None,
    ) -> None:
        self.app = app
        self.finished = finished
        self.opened = opened
        self.cancelled = cancelled

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        record = Record(
            request_id=request_id_of(scope),
            transport=transport_of(scope),
            method=scope.get("method", "GET") if scope["type"] == "http" else "WEBSOCKET",
            path=printable(scope.get("path", "")),
            client=client_address(scope),
        )
        header = (b"x-request-id", record.request_id.encode("ascii"))
        accepted = False

        async def sending(message: Message) -> None:
            nonlocal accepted
            kind = message["type"]
            if kind in ("http.response.start", "websocket.accept"):
                message = {**message, "headers": [*message.get("headers", ()), header]}
                record.status = message.get("status", 101)
                if kind == "websocket.accept" and not accepted:
                    accepted = True
                    self._opened(+1)
            elif kind == "websocket.close" and record.status is None:
                record.status = 403  # refused before the handshake completed
            await send(message)

        token = _CURRENT.set(record)
        started = time.perf_counter()
        try:
            await self.app(scope, receive, sending)
        except asyncio.CancelledError:
            # uvicorn cancels the requests still running --shutdown-timeout seconds after it
            # was told to stop: one not answered yet gets ``cancelled``'s answer (UNAVAILABLE)
            # instead of uvicorn's 500 and traceback, and its task ends as answered
            task = asyncio.current_task()
            if (
                self.cancelled is None
                or scope["type"] != "http"
                or record.status is not None
                or task is None
                or not task.cancelling()
            ):
                raise
            task.uncancel()
            await self.cancelled(scope)(scope, receive, sending)
        except Exception:  # a bug: the server answers 500 (if it has not answered yet)
            if record.status is None:
                record.status = 500
            record.note_code("INTERNAL")
            raise
        finally:
            _CURRENT.reset(token)
            record.duration_ms = (time.perf_counter() - started) * 1000
            if accepted:
                self._opened(-1)
            routed(record, scope)
            log_request(record)
            if self.finished is not None:
                self.finished(record)

    def _opened(self, change: int) -> None:
        if self.opened is not None:
            self.opened(change)


def log_request(record: Record) -> None:
    if not LOG.isEnabledFor(logging.INFO):
        return
    status = record.status if record.status is not None else "-"
    named = record.operation and record.operation != record.path
    operation = f" {record.operation}" if named else ""
    LOG.info(
        "%s %s %s%s",
        record.method,
        record.path,
        status,
        operation,
        extra={"fields": record.fields_for_log()},
    )
