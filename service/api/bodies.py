"""Request bodies as a hostile client sends them: JSON that is too deep or not UTF-8, bodies
larger than the limit (with or without a ``Content-Length``), clients that go away mid-body.

* ``parse_json`` reads JSON for both transports: anything that is not JSON this server takes
  (not JSON, not UTF-8, nested more than ``MAX_JSON_DEPTH`` levels, which Python's ``json``
  would otherwise answer with a ``RecursionError`` at about 1,000, or holding more than
  ``MAX_JSON_CONTAINERS`` arrays and objects) raises ``NotJson`` with a sentence for the
  caller, so that it is answered ``BAD_INPUT``, never ``INTERNAL``. A body within the byte
  limit can still be costly to read: 2 MB of ``[[[...]]]`` is a million lists, about a second
  of work that held the event loop (issue #20: ``/healthz`` stalled 1.1 s), whether or not
  anything used them. The arrays and objects are counted first, by their brackets (C speed,
  strings included: an overcount only for text full of brackets), and a large body is read on
  a worker thread (``parse_large_json``), so that its walk gives the loop its turns.
* ``limited(receive, limit)`` counts the body bytes actually received (``Transfer-Encoding:
  chunked`` carries no length to check first) and raises ``BodyTooLarge`` as soon as they pass
  ``limit``, before the rest is read: each reader (GraphQL, REST) stops at its own limit.
* ``BodyLimit`` is a pure ASGI middleware around the whole server: no body is read past the
  largest limit of any route, whoever reads it, and a client that disconnects before its body
  is complete costs one ``info`` line rather than a traceback (the request's own log line shows
  499, nginx's "client closed request": no answer reached anyone).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import orjson
from starlette.requests import ClientDisconnect
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("papyrus.http")

#: the deepest JSON a request may carry (a game's exported log is about 8 levels deep)
MAX_JSON_DEPTH = 64
#: the most arrays and objects one body or websocket message may hold (an exported game of
#: 415 events, 160 KB, holds 1,308; an 8 MiB import in that proportion about 65,000)
MAX_JSON_CONTAINERS = 100_000
#: a body larger than this is read on a worker thread (``parse_large_json``)
LARGE_BODY = 64 * 1024
#: the status of a request whose client went away before it was answered (nginx's)
CLIENT_GONE = 499


class NotJson(ValueError):
    """A body (or websocket message) this server does not read as JSON; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BodyTooLarge(Exception):
    """More than ``limit`` body bytes arrived."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"The request body is larger than {limit} bytes.")
        self.limit = limit


def dumps(value: object) -> str:
    """``value`` as compact JSON text, by ``orjson`` (several times faster on the answers of
    every request), or by ``json`` for what ``orjson`` refuses: an integer past 64 bits, or a
    lone surrogate (which a JSON string may escape, ``"\\ud800"``, but no UTF-8 text may
    carry), written escaped so that the answer still encodes."""
    return dumps_bytes(value).decode()


def dumps_bytes(value: object) -> bytes:
    """``dumps`` as UTF-8 bytes, what an HTTP answer's body is (no text in between)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(value, separators=(",", ":")).encode()


def parse_json(raw: bytes | str) -> Any:
    """``raw`` as JSON, or ``NotJson``: by ``orjson`` when it reads it (nearly always), else by
    ``json``, which takes what ``orjson`` does not (an integer past 64 bits) and says what is
    wrong with the rest (not UTF-8, nested too deeply, too many arrays and objects, a lone
    surrogate)."""
    if containers(raw) > MAX_JSON_CONTAINERS:
        raise NotJson(
            f"The request body holds more than {MAX_JSON_CONTAINERS} JSON arrays and objects, "
            "the most one request may carry."
        )
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    else:
        if depth_exceeds(value, MAX_JSON_DEPTH):
            raise NotJson(too_deep())
        return value
    try:
        value = json.loads(
            raw, parse_int=bounded_int, parse_float=finite_float, parse_constant=no_constant
        )
    except RecursionError:
        raise NotJson(too_deep()) from None
    except UnicodeDecodeError:
        raise NotJson("The request body is not valid JSON: it is not UTF-8 text.") from None
    except NotJson:
        raise
    except ValueError:
        raise NotJson("The request body is not valid JSON.") from None
    if depth_exceeds(value, MAX_JSON_DEPTH):
        raise NotJson(too_deep())
    if not is_text(value):
        raise NotJson(LONE_SURROGATE)
    return value


#: the most digits an integer of a body may have (an Int has 10; Python reads 4,300 at most)
MAX_INTEGER_DIGITS = 100


def bounded_int(text: str) -> int:
    """An integer of a body ``orjson`` did not read (one past 64 bits): refused past
    ``MAX_INTEGER_DIGITS``, before Python's own limit would fail on it."""
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise NotJson(
            f"The request body has a number of {digits} digits; numbers have at most "
            f"{MAX_INTEGER_DIGITS} here (an Int at most 10)."
        )
    return int(text)


def finite_float(text: str) -> float:
    """A number past what a double holds (``1e400``) is refused, not read as infinity."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise NotJson(f"The request body has a number too large to read ({len(text)} characters).")
    return value


def no_constant(text: str) -> Any:
    """``NaN`` and ``Infinity`` are not JSON (Python's ``json`` reads them unless told)."""
    raise NotJson(f"The request body is not valid JSON: {text} is not a JSON value.")


async def parse_large_json(raw: bytes | str) -> Any:
    """``parse_json``, on a worker thread when ``raw`` is larger than ``LARGE_BODY`` bytes."""
    if len(raw) <= LARGE_BODY:
        return parse_json(raw)
    return await asyncio.get_running_loop().run_in_executor(None, parse_json, raw)


def containers(raw: bytes | str) -> int:
    """At least the number of arrays and objects in ``raw`` (their opening brackets, counted
    in strings too)."""
    if isinstance(raw, str):
        return raw.count("[") + raw.count("{")
    return raw.count(b"[") + raw.count(b"{")


#: why a body whose strings escape half of a surrogate pair is refused
LONE_SURROGATE = (
    "The request body is not valid JSON text: a string escapes a lone surrogate (\\ud800 to "
    "\\udfff without its pair), which is no Unicode character."
)


def is_text(value: Any) -> bool:
    """Whether every string of ``value`` (keys too) is Unicode text: ``json`` reads an escaped
    lone surrogate into a string that no UTF-8 text can hold, and the log, whose entries are
    hashed as UTF-8, could not record it (``orjson`` refuses such a body already)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def too_deep() -> str:
    return f"The request body is nested too deeply: at most {MAX_JSON_DEPTH} levels are read."


def depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` levels deep (without
    recursion: the value may be as deep as ``json`` could parse)."""
    if not isinstance(value, dict | list):
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, dict | list):
                if depth >= limit:
                    return True
                stack.append((child, depth + 1))
    return False


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length``, when it sends a valid one (past 18 digits, more than
    any limit: counted as such without reading every digit)."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            if not value.isdigit():
                return None
            return int(value) if len(value) <= 18 else 10**18
    return None


def has_body(scope: Scope) -> bool:
    """Whether the request sends a body (a length above 0, or chunks)."""
    if any(name.lower() == b"transfer-encoding" for name, _ in scope.get("headers", ())):
        return True
    return (declared_length(scope) or 0) > 0


def limited(receive: Receive, limit: int) -> Receive:
    """``receive`` that raises ``BodyTooLarge`` once more than ``limit`` body bytes came."""
    received = 0

    async def counted() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                raise BodyTooLarge(limit)
        return message

    return counted


class BodyLimit:
    """No request body is read past ``limit`` (answered by ``refuse(scope, limit)``, 413), and
    a client gone before its body is complete is logged in one line."""

    def __init__(
        self, app: ASGIApp, *, limit: int, refuse: Callable[[Scope, int], Response]
    ) -> None:
        self.app = app
        self.limit = limit
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = declared_length(scope)
        if length is not None and length > self.limit:
            await self.refuse(scope, self.limit)(scope, receive, send)
            return
        started = complete = gone = False

        async def watched_receive() -> Message:
            nonlocal complete, gone
            message = await counted()
            if message["type"] == "http.request" and not message.get("more_body", False):
                complete = True
            elif message["type"] == "http.disconnect" and not complete:
                gone = True
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        counted = limited(receive, self.limit)
        try:
            await self.app(scope, watched_receive, watched_send)
        except BodyTooLarge:
            if started:
                raise
            await self.refuse(scope, self.limit)(scope, receive, send)
        except ClientDisconnect:  # no one to answer: the server drops what is sent now
            if not started:
                await Response(status_code=CLIENT_GONE)(scope, receive, send)
        if gone:
            client = scope.get("client")
            if has_body(scope):
                when = "before its request body was complete"
            else:
                when = "while its answer was being sent" if started else "before it was answered"
            log.info(  # the client's business, not the server's: no warning
                "%s %s: the client%s went away %s",
                scope.get("method"),
                scope.get("path"),
                f" {client[0]}:{client[1]}" if client else "",
                when,
            )
