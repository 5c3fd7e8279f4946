"""How a REST handler reaches the application, and how request bodies are read.

The application is reached in exactly two ways, so that the handlers stay thin:

* ``runtime(request)`` (as the ``Runtime`` dependency): what ``rest_app``'s ``runtime_of``
  gives, the running ``service.asgi.Runtime`` (its ``games``, ``timeline``, ``readmodels``);
* ``run(rt, fn, *args)``: store work on the runtime's executor, through its circuit breaker.

``caller`` (as the ``Caller`` dependency) authenticates the ``Authorization`` header. FastAPI
solves dependencies before it checks parameters and bodies, so a wrong token is refused first,
as it always was.

Every ``JsonRoute`` that changes something (POST, PUT, PATCH, DELETE) first passes the rate
limits (``service.app.limits``): ``limit_mutation``, or ``limit_registration`` for an endpoint
marked ``registration``; over a limit the answer is ``RATE_LIMITED`` with ``Retry-After``.

``JsonRoute`` reads a body the lenient way this API always has, whatever its content type: an
empty body is ``{}``, and a body that is no JSON we read (``service.api.bodies.parse_json``: not
JSON, not UTF-8, nested too deeply) is handed to validation as an ``Unreadable``, which refuses
it (after authentication) with its own message. A body over the size limit is answered 413 as
soon as its bytes pass the limit (``Content-Length`` or not), without reading the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.routing import APIRoute
from starlette.requests import ClientDisconnect
from starlette.responses import Response

from service.api.bodies import CLIENT_GONE, BodyTooLarge, NotJson, parse_large_json
from service.api.bridge import on_worker
from service.api.observability import client_address
from service.api.rest.models import Unreadable
from service.api.rest.problems import problem
from service.app.errors import BadInput


def runtime(request: Request) -> Any:
    """The running application (``request.app`` is the REST sub-application here)."""
    return request.app.state.runtime_of()


Runtime = Annotated[Any, Depends(runtime)]


async def run(rt: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` on the runtime's worker threads, through its circuit breaker
    (``service.api.bridge``)."""
    return await on_worker(rt.executor, rt.app.breaker, fn, *args, **kwargs)


async def caller(request: Request, rt: Runtime) -> Any:
    return await run(
        rt,
        rt.app.accounts.authenticate,
        request.headers.get("authorization"),
        client_address(request.scope),
    )


Caller = Annotated[Any, Depends(caller)]

#: the methods of the routes that count as mutations for the rate limits
MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def limit_mutation(request: Request, rt: Runtime, who: Caller) -> None:
    """A mutation counts against its player and its address (``service.app.limits``)."""
    await run(rt, rt.app.limiter.mutations, who.player_id, client_address(request.scope), 1)


async def limit_registration(request: Request, rt: Runtime) -> None:
    """A registration counts against its address, as a mutation and as a registration."""
    await run(rt, rt.app.limiter.mutations, None, client_address(request.scope), 1, 1)


Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])


def registration(endpoint: Endpoint) -> Endpoint:
    """This endpoint registers players: it is rate-limited as a registration."""
    endpoint.registration = True  # type: ignore[attr-defined]
    return endpoint


def body_limit(setting: str) -> Callable[[Endpoint], Endpoint]:
    """The ``Settings`` member that limits this endpoint's body (default ``max_body_bytes``)."""

    def mark(endpoint: Endpoint) -> Endpoint:
        endpoint.body_limit = setting  # type: ignore[attr-defined]
        return endpoint

    return mark


async def read_json(request: Request, limit: int) -> Any:
    """The body as JSON (or an ``Unreadable``); ``BodyTooLarge`` past ``limit`` bytes."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise BodyTooLarge(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(limit)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        return await parse_large_json(raw)  # a large body off the event loop
    except NotJson as refused:
        return Unreadable(refused.message)


class ReadRequest(Request):
    """A request whose body ``JsonRoute`` has read already: FastAPI takes ``parsed``."""

    def __init__(self, request: Request, parsed: Any) -> None:
        headers = [(k, v) for k, v in request.scope["headers"] if k.lower() != b"content-type"]
        headers.append((b"content-type", b"application/json"))
        super().__init__({**request.scope, "headers": headers}, request.receive)
        self.parsed = parsed

    async def body(self) -> bytes:
        return b"{}"  # read already: never empty, so that FastAPI asks ``json()``

    async def json(self) -> Any:
        return self.parsed


class JsonRoute(APIRoute):
    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        """A route that changes something passes the rate limits first (after the caller is
        authenticated, before anything else: route dependencies are solved first)."""
        if {m.upper() for m in kwargs.get("methods") or ()} & MUTATING:
            registers = getattr(endpoint, "registration", False)
            limit = limit_registration if registers else limit_mutation
            kwargs["dependencies"] = [*(kwargs.get("dependencies") or ()), Depends(limit)]
        super().__init__(path, endpoint, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()
        if self.body_field is None:
            return handle
        setting = getattr(self.endpoint, "body_limit", "max_body_bytes")

        async def lenient(request: Request) -> Response:
            limit = int(getattr(runtime(request).settings, setting))
            try:
                parsed = await read_json(request, limit)
            except BodyTooLarge:  # here, or by the server's BodyLimit at the largest limit
                return problem(BadInput("The request body is too large."), status=413)
            except ClientDisconnect:  # gone mid-body: nobody reads this (BodyLimit logs it)
                return Response(status_code=CLIENT_GONE)
            return await handle(ReadRequest(request, parsed))

        return lenient
