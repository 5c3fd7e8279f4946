"""One subscriber's stream of a game's log: the catch-up after ``afterVersion``, then live.

Every entry is delivered exactly once and in order: the subscriber reads the store after the
last version it delivered whenever the hub wakes it (``service.api.hub``), so lost or
repeated wake-ups change nothing. Each entry comes as a ``Step``: the entry as the caller may
see it, and what the subscription selected of the table right after it (the caller's view,
typed view, legal actions, clock), computed only when selected.

The work runs on worker threads, not on the event loop: the entries are read and folded into
the table in batches of ``BATCH`` (one trip to a worker each), and an event's selection is
executed on a worker too unless a compiled plan completes it, a plain walk of the step
(``streaming.EventExecution``), so a long catch-up gives the loop a turn between batches. A
catch-up costing more than a tenth of the cost limit
(``Limits.costly``) runs on the costly pool, as a costly query does, so that however many
clients ask for one, the common pool stays free for everybody else.

Between wake-ups a live subscriber holds only the table right after its last entry: the game,
its log and the caller's numbering are read again on the next wake-up. A live wake-up is one trip
to a worker (the news and their steps together); the steps are shared by every subscriber of the
same caller and selection (``steps.fold``), and a selection of plain data is completed on the
loop by a compiled plan (``plans``, ``streaming``). Spectators woken together share one trip: the
first makes it, the others then find everything in memory and are answered on the loop
(``woken_news``), where nothing is read or computed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from typing import Any

from domain import table as tables
from service.api.graphql.budget import charge
from service.api.graphql.context import Context
from service.api.graphql.limits import COSTLY_LANE
from service.api.graphql.steps import CLOCK as CLOCK
from service.api.graphql.steps import LEGAL_ACTIONS as LEGAL_ACTIONS
from service.api.graphql.steps import STATE as STATE
from service.api.graphql.steps import VIEW as VIEW
from service.api.graphql.steps import Step, Unknown, fold
from service.app import numbering, views
from service.app.errors import BadInput
from service.app.tables import GameTable, Recorded

#: a live subscriber that was not woken re-reads the store after this long all the same
RECHECK_SECONDS = 30.0
#: entries read from the store at once, and folded into the table per trip to a worker
#: (small: a subscriber whose client does not read holds one batch of views, waiting)
READ, BATCH = 20, 10


async def game_entries(
    context: Context,
    game_id: str,
    after_version: int | None,
    cost: int,
    needs: frozenset[str] = frozenset(),
) -> AsyncGenerator[Step, None]:
    """The caller's entries of a game after its number ``after_version`` (catch-up; default:
    the current version), then live, until the game is over. ``cost``: what delivering one
    entry costs (the subscription's selection), charged for the catch-up before it starts
    (``budget.charge``); ``needs``: what each ``Step`` holds of the table (``STATE``...)."""
    games, caller = context.app.tables, context.caller
    await charge(context, cost, 0)  # before the store is read at all
    game = await context.run(games.get, game_id)
    if after_version is not None and after_version < 0:
        raise BadInput("afterVersion must not be negative.")
    # versions are numbers of the caller's log: its entries only (``numbering.Timeline``)
    log = await context.run(numbering.timeline, games, game, caller)
    last = game.version if after_version is None else log.after(after_version)
    floor = log.version if after_version is None else after_version
    catch_up = max(0, log.version - floor)
    if catch_up:  # the start was charged above: one event's worth, once
        await charge(context, cost, catch_up)
    table = await context.run(table_at, games, game, last)
    key = str(game.id)
    del game, log  # held until the first read otherwise
    costly = context.limits.costly_pool if cost * catch_up > context.limits.costly else None
    COSTLY_LANE.set(costly)  # this operation's task only: each subscription runs in its own
    waiter = context.hub.waiter(key)
    try:
        while True:
            waiter.clear()
            # a live subscriber's wake-up is one trip to a worker: the news and its steps
            woken = await woken_news(context, key, last, (table, floor, needs))
            records, current, log_now, folded = woken
            if records:
                assert current is not None and log_now is not None
                revealed = views.is_revealed(current.table)  # over: everything is public
                for start in range(0, len(records), BATCH):
                    batch = records[start : start + BATCH]
                    if folded is not None:
                        table, steps = folded
                    else:
                        table, steps = await context.run(
                            fold, table, batch, current, caller, log_now, floor, revealed,
                            needs, context.hub.shared,
                        )  # fmt: skip
                    last = batch[-1].version
                    for step in steps:
                        yield step
                if current.table.status in (tables.FINISHED, tables.ABANDONED) and (
                    last >= current.version
                ):
                    return
                continue
            COSTLY_LANE.set(None)  # caught up: live events go to the common pool
            del records, current, log_now
            # ``asyncio.timeout``, not ``wait_for``: on Python 3.11 ``wait_for`` drops a
            # cancellation (the client gone) that lands in the same turn as the wake-up, and
            # the subscription would run on, unseen, for ever
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(RECHECK_SECONDS):
                    await waiter.wait()
    finally:
        COSTLY_LANE.set(None)
        context.hub.release(key, waiter)


def table_at(games: Any, game: GameTable, version: int) -> tables.Table | None:
    """The table right after entry ``version`` of ``game`` (``None`` before its first; read,
    never changed: ``fold`` copies it before it folds an entry into it)."""
    if version == game.version:
        return game.table  # ``game`` is this subscriber's own copy
    if version > 0:
        return games.past(game, version).table
    return None


After = tuple[tables.Table | None, int, frozenset[str]]
Woken = tuple[
    list[Recorded],
    GameTable | None,
    numbering.Timeline | None,
    tuple[tables.Table | None, list[Step]] | None,
]


async def woken_news(context: Context, key: str, last: int, after: After) -> Woken:
    """``news`` for a woken subscriber. A spectator's is answered on the loop when another
    subscriber already computed its steps (``known_news``), and the spectators of a game woken
    together wait for the one trip the first of them makes rather than each making its own:
    a thousand spectators cost one worker trip, not a thousand."""
    known = known_news(context, key, last, after)
    if known is not None:
        return known
    if not context.caller.is_player:
        flights = context.hub.flights
        ident = (key, last, after[2])
        running = flights.get(ident)
        if running is not None:
            await asyncio.shield(running)
            known = known_news(context, key, last, after)
            if known is not None:
                return known
        else:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            flights[ident] = done
            try:
                return await context.run(news, context, key, last, after)
            finally:
                flights.pop(ident, None)
                done.set_result(None)
    return await context.run(news, context, key, last, after)


def known_news(context: Context, key: str, last: int, after: After) -> Woken | None:
    """``news`` when it needs neither the store nor any work: a spectator's, whose entries are
    in this process's memory (``Tails``), its log known and every step shared already
    (``fold``); ``None`` otherwise (a player's token must be checked again on a worker)."""
    caller, games = context.caller, context.app.tables
    current = games.peek(key)
    if caller.is_player or current is None:
        return None
    if current.version <= last:
        return [], None, None, None
    records = games.tails.after(key, last, current.version, READ)
    redaction = games.redaction
    if records is None or len(records) > BATCH:
        return None
    if redaction is not None and redaction.known_deleted() != frozenset():
        return None  # entries may need redacting (a worker's job)
    log = numbering.known_timeline(games, current, caller)
    if log is None:
        return None
    table, floor, needs = after
    revealed = views.is_revealed(current.table)
    try:
        steps = fold(
            table, records, current, caller, log, floor, revealed, needs, context.hub.shared,
            known_only=True,
        )  # fmt: skip
    except Unknown:
        return None
    return records, current, log, steps


def news(
    context: Context, key: str, last: int, after: After
) -> tuple[
    list[Recorded],
    GameTable | None,
    numbering.Timeline | None,
    tuple[tables.Table | None, list[Step]] | None,
]:
    """The entries after ``last`` this process knows of, the game now, the caller's log now
    and, when they are one batch (a live subscriber's wake-up), their steps folded on
    ``after`` (the table, ``floor`` and ``needs`` of ``fold``): one trip to a worker; no
    entries: nothing else is read."""
    games = context.app.tables
    # the cache's own game when it is current (read only, never changed: no copy of its log
    # per subscriber), else a copy brought up to date
    current = games.peek(key) or games.get(key)
    if current.version <= last:
        return [], None, None, None
    # the store may hold entries this process does not know of yet (a save committing here,
    # or another process's, not yet heard): the caller's log is the game's as this process
    # knows it, so entries past it wait for the wake-up that follows once the game here is
    # current (``Hub``). The entries this process saved or read last answer without a query
    records = games.recent(key, last, current.version, READ)
    if not records:
        return [], None, None, None
    context.recheck()  # a token revoked meanwhile ends the subscription
    log = numbering.timeline(games, current, context.caller)
    if len(records) > BATCH:
        return records, current, log, None
    table, floor, needs = after
    revealed = views.is_revealed(current.table)
    steps = fold(
        table, records, current, context.caller, log, floor, revealed, needs, context.hub.shared
    )
    return records, current, log, steps
