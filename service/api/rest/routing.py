"""How a REST handler reaches the application, and how request bodies are read.

The application is reached in exactly two ways, so that the handlers stay thin:

* ``runtime(request)`` (as the ``Runtime`` dependency): what ``rest_app``'s ``runtime_of``
  gives, the running ``service.asgi.Runtime`` (its ``games``, ``timeline``, ``readmodels``);
* ``run(rt, fn, *args)``: store work on the runtime's executor, through its circuit breaker.

``caller`` (as the ``Caller`` dependency) authenticates the ``Authorization`` header. FastAPI
solves dependencies before it checks parameters and bodies, so a wrong token is refused first,
as it always was.

``JsonRoute`` reads a body the lenient way this API always has, whatever its content type: an
empty body is ``{}``, and a body over the size limit or that is no JSON is handed to validation
as an ``Unreadable``, which refuses it (after authentication) with its own message.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.routing import APIRoute
from starlette.responses import Response

from service.api.rest.models import Unreadable


def runtime(request: Request) -> Any:
    """The running application (``request.app`` is the REST sub-application here)."""
    return request.app.state.runtime_of()


Runtime = Annotated[Any, Depends(runtime)]


async def run(rt: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` on the runtime's worker threads, through its circuit breaker."""
    work = functools.partial(fn, **kwargs) if kwargs else fn
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(rt.executor, lambda: rt.app.breaker.call(work, *args))


async def caller(request: Request, rt: Runtime) -> Any:
    return await run(rt, rt.app.accounts.authenticate, request.headers.get("authorization"))


Caller = Annotated[Any, Depends(caller)]

Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])


def body_limit(setting: str) -> Callable[[Endpoint], Endpoint]:
    """The ``Settings`` member that limits this endpoint's body (default ``max_body_bytes``)."""

    def mark(endpoint: Endpoint) -> Endpoint:
        endpoint.body_limit = setting  # type: ignore[attr-defined]
        return endpoint

    return mark


async def read_json(request: Request, limit: int) -> Any:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size <= limit:
            chunks.append(chunk)
    if size > limit:
        return Unreadable("The request body is too large.")
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return Unreadable("The request body is not valid JSON.")


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
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()
        if self.body_field is None:
            return handle
        setting = getattr(self.endpoint, "body_limit", "max_body_bytes")

        async def lenient(request: Request) -> Response:
            limit = int(getattr(runtime(request).settings, setting))
            return await handle(ReadRequest(request, await read_json(request, limit)))

        return lenient
