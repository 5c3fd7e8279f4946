"""Push for REST clients: ``GET /api/v1/games/{id}/stream``, a game as Server-Sent Events
(docs/API.md "Push for REST clients (Server-Sent Events)").

A REST client that plays would otherwise poll ``/games/{id}/events``; this stream pushes what
the websocket's ``gameChanged`` pushes, from the same machinery (``graphql.gamestream``): the
hub wakes the stream on every new entry of the game, whichever process recorded it, and the
entries are read after the last one delivered, so each comes exactly once and in order. What a
caller is shown is what every read path shows it: the entries of its own log, numbered as it
numbers them, redacted for its seats (``steps.fold``, ``views``); a spectator (no token) sees
what a spectator sees.

The wire (``text/event-stream``):

* ``event: change`` with ``id:`` the entry's number in the caller's log and ``data:`` a
  ``GameChange`` (the entry as ``/events`` shows it, and the caller's state, legal actions,
  moves and clock right after it): one event per entry, so that a client redraws from the last
  one alone;
* ``event: end`` once the game is over and its last entry was sent; the stream then closes
  (and a stream asked for after the end of a finished game is answered 204, which tells an
  ``EventSource`` to stop reconnecting);
* ``event: problem`` when the stream cannot go on (a token revoked meanwhile, the store
  unavailable, the server stopping: ``UNAVAILABLE``, reconnect to resume): ``data`` is the
  problem's ``code`` and ``detail``, then the stream closes;
* a comment line every ``HEARTBEAT`` seconds, so that proxies and clients keep a quiet stream
  open.

It starts after ``Last-Event-ID`` (what an ``EventSource`` sends when it reconnects), else after
``?after=``, else from now on (as ``gameChanged`` without ``afterVersion``): a client resuming
with the last id it read misses nothing and gets nothing twice.

Limits are the websocket's (deploy/OPERATIONS.md "Protocol limits"): a stream is a live
subscription, started and caught up against the subscription budget (``graphql.budget``: the
same cost as the equivalent ``gameChanged`` selection) and counted in ``max_subscriptions``;
the streams open at once per client address are bounded by ``max_websockets_per_client``
(counted apart from the websockets). Everything that refuses a stream does it before the first
byte, as a problem with its code: 401 for a bad token, 404 for an unknown game, 422 for a bad
``after``/``Last-Event-ID``, 429 past a limit.

The events' data, their bytes on the wire and the stream's OpenAPI wording are
``streamevents``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from service.api.bodies import dumps_bytes
from service.api.connections import Admission
from service.api.httpprotocol import STOP
from service.api.observability import client_address
from service.api.rest.caching import FINAL
from service.api.rest.params import MAX_INT, GameId, MaybeCount
from service.api.rest.problems import errors
from service.api.rest.routing import Caller, JsonRoute, Runtime, run
from service.api.rest.streamevents import (
    HEARTBEAT,
    MEDIA_TYPE,
    PATH,
    STREAM_DESCRIPTION,
    GameChange,
    StreamEnd,
    StreamProblem,
    change,
    message,
    problem,
)
from service.app import numbering
from service.app.errors import BadInput, PapyrusError, RateLimited, Unavailable

log = logging.getLogger("papyrus.rest")
router = APIRouter(route_class=JsonRoute)

#: what an ``EventSource`` waits before it reconnects, in milliseconds (the ``retry:`` field)
RETRY_MS = 2000
#: changes made ahead of a client that does not read (then the stream waits for it)
AHEAD = 4
#: the GraphQL selection a stream's event costs as much as (``event_cost``)
EQUIVALENT = """subscription($g: ID!) { gameChanged(gameId: $g) {
  version status activeSeats state legalActions
  event { version at seat type data automatic bySeat undone hash }
  clock { mode moveMs bankMs incrementMs onExpiry bot now deadline
          seats { seat remainingMs deadline running takenOver timedOut thinkingMs turns } }
} }"""
#: seconds a stream refused for the streams of its address is told to wait
ADDRESS_RETRY = 10
#: the problem a stream ends with when the server stops
STOPPING = "The server is stopping: reconnect with Last-Event-ID to resume where you were."


def event_cost(rt: Any) -> int:
    """What one event of a stream costs: the equivalent ``gameChanged`` selection's cost (the
    push machinery is GraphQL's, handed over by the runtime: ``rt.push``)."""
    return int(rt.push.cost_of(EQUIVALENT))


def admission(request: Request, limit: int) -> Admission:
    """The REST application's count of open streams per client address."""
    state = request.app.state
    if getattr(state, "streams", None) is None:
        state.streams = Admission(limit)
    admitted: Admission = state.streams
    return admitted


def start_of(last_event_id: str | None, after: int | None) -> int | None:
    """Where the stream starts: after ``Last-Event-ID`` (a reconnecting ``EventSource``), else
    after ``after``; ``None``: from now on."""
    if last_event_id is None or not last_event_id.strip():
        return after
    text = last_event_id.strip()
    if not text.isdigit() or len(text) > 10 or int(text) > MAX_INT:
        raise BadInput(
            f"Last-Event-ID must be the id of an event of this stream (a number), not "
            f"{text[:40]!r}."
        )
    return int(text)


@router.get(
    PATH,
    tags=["play"],
    operation_id="gameStream",
    summary="The game's changes as they happen (Server-Sent Events)",
    description=STREAM_DESCRIPTION,
    responses={
        200: {
            # every data model, so that FastAPI writes their components (``documented``)
            "model": GameChange | StreamEnd | StreamProblem,
            "description": "The stream (`text/event-stream`).",
        },
        204: {"description": "The game is over and the caller has every entry already."},
        **errors(401, 404, 422, 429),
    },
)
async def game_stream(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    request: Request,
    after: Annotated[
        MaybeCount,
        Query(
            description="Start after this number of the caller's log (0: from the first "
            "entry); default: from now on. `Last-Event-ID` wins over it."
        ),
    ] = None,
    last_event_id: Annotated[
        str | None,
        Header(
            alias="Last-Event-ID",
            description="The `id` of the last event read: the stream resumes after it.",
            json_schema_extra={"maxLength": 20},
        ),
    ] = None,
) -> Response:
    start = start_of(last_event_id, after)
    game, log = await run(rt, numbering.game_log, rt.app.tables, game_id, caller)
    if start is not None and start > log.version:
        raise BadInput(
            f"The stream cannot start after {start} (Last-Event-ID or after): your log of this "
            f"game ends at {log.version}."
        )
    if start is None:  # from now on: from what was just read, so that nothing is missed
        start, catch_up = log.version, 0
    else:
        catch_up = log.version - start
    if game.table.status in FINAL and start >= log.version:
        return Response(status_code=204)
    context = rt.context(request.headers.get("authorization"), request)
    context._caller = caller  # authenticated already (``Caller``)
    address = client_address(request.scope) or "unknown"
    streams = admission(request, rt.settings.max_websockets_per_client)
    if not streams.admit(address):  # first: a refused stream spends none of the budget
        raise RateLimited(
            f"This address already has {streams.limit} event streams open, the most one "
            "address may open (max_websockets_per_client): close one first.",
            retry_after=ADDRESS_RETRY,
        )
    # the websocket's budget: the start, then the catch-up (before the first byte, so that a
    # refusal is a problem with its code, not a broken stream)
    try:
        cost = event_cost(rt)
        await rt.push.charge(context, cost, 0)
        if catch_up:
            await rt.push.charge(context, cost, catch_up)
    except BaseException:
        streams.leave(address)
        raise
    context.budget = None  # charged above: ``game_entries`` charges nothing more
    kind = game.table.kind
    del game, log
    return EventStream(
        events(rt, context, game_id, start, kind, request.scope.setdefault("state", {})),
        leave=lambda: streams.leave(address),
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


class EventStream(StreamingResponse):
    """A stream of Server-Sent Events, its generator closed (and its address's count left)
    as soon as the answer ends, the client gone or not (not whenever it is collected)."""

    media_type = MEDIA_TYPE

    def __init__(
        self, content: AsyncGenerator[bytes, None], leave: Callable[[], None], **kwargs: Any
    ) -> None:
        super().__init__(content, **kwargs)
        self.generator, self.leave = content, leave

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            try:
                await self.generator.aclose()
            finally:
                self.leave()


async def events(
    rt: Any, context: Any, game_id: str, start: int, kind: str, state: dict[str, Any]
) -> AsyncGenerator[bytes, None]:
    """The stream's bytes: the entries made by a task of their own (``game_entries``, the
    runtime's ``push.entries``, runs in
    one task from start to end, as a websocket's subscription does), a heartbeat whenever none
    came for ``HEARTBEAT`` seconds. ``state``: the request's, where the server's HTTP protocol
    finds what to call when it stops (``httpprotocol.STOP``): the entries stop, and the stream
    ends with an ``UNAVAILABLE`` problem that says to reconnect."""
    queue: asyncio.Queue[bytes | None] = asyncio.Queue(AHEAD)
    stopping = False

    async def produce() -> None:
        last: Any = None
        push = rt.push
        try:
            async for step in push.entries(context, game_id, start, event_cost(rt), push.needs):
                await queue.put(change(step, kind))
                last = step
            # ``game_entries`` ends only once the game is over and its last entry was sent
            if last is not None:
                end = StreamEnd.model_validate(
                    {"status": last.status, "version": last.event["version"]}
                )
                await queue.put(message("end", dumps_bytes(end.model_dump(by_alias=True))))
        except asyncio.CancelledError:
            if not stopping:  # the client gone: nobody reads the queue any more
                raise
            await queue.put(problem(Unavailable(STOPPING)))
        except PapyrusError as stopped:
            await queue.put(problem(stopped))
        except Exception:  # a bug: said as INTERNAL, logged with its traceback
            log.exception("the event stream of game %s failed", game_id)
            await queue.put(problem(PapyrusError("Something went wrong on the server.")))
        # not on cancellation (the client gone): nobody reads the queue any more
        await queue.put(None)

    producer = asyncio.create_task(produce())

    def stop() -> None:
        nonlocal stopping
        stopping = True
        producer.cancel()

    state[STOP] = stop
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        while True:
            try:
                async with asyncio.timeout(HEARTBEAT):
                    item = await queue.get()
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            if item is None:
                return
            yield item
    finally:
        state.pop(STOP, None)
        producer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await producer
