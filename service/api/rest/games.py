"""Games: listing, opening and filling tables, and playing (API.md "Games")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Path, Request

from service.api.rest.caching import final_answer, is_final
from service.api.rest.models import (
    AbandonGame,
    Act,
    ActResult,
    AddBot,
    CreateGame,
    Game,
    GamePage,
    JoinGame,
    ReclaimSeat,
)
from service.api.rest.presenters import present_events, present_game, presented
from service.api.rest.problems import errors
from service.api.rest.readmodels import Listed, summary_count, summary_rows
from service.api.rest.routing import Caller, JsonRoute, Runtime, run
from service.app import numbering

router = APIRouter(route_class=JsonRoute)

#: the ``{id}`` of a game in a path
GameId = Annotated[str, Path(alias="id", description="The game's id.")]


@router.get(
    "/games",
    tags=["games"],
    operation_id="games",
    summary="List games, newest first",
    response_model=GamePage,
    responses=errors(401, 422),
)
async def games(rt: Runtime, caller: Caller, listed: Listed) -> Any:
    rows, next_cursor = await summary_rows(rt, listed)
    tables = rt.app.tables

    def page() -> list[tuple[Any, numbering.Timeline]]:  # one trip to the workers, not two a game
        return [numbering.game_log(tables, row["game_id"], caller) for row in rows]

    now = rt.app.clocks.now()
    items = [present_game(game, caller, log, now) for game, log in await run(rt, page)]
    total = await summary_count(rt, listed)
    return {"items": items, "nextCursor": next_cursor, "totalCount": total}


@router.post(
    "/games",
    tags=["games"],
    operation_id="createGame",
    summary="Open a new table (the creator is not seated)",
    status_code=201,
    response_model=Game,
    responses=errors(401, 422),
)
async def create_game(rt: Runtime, caller: Caller, body: CreateGame) -> Any:
    game = await run(
        rt, rt.app.seating.create_game, caller, body.kind, body.seats, body.options, body.seed
    )
    return await presented(rt, game, caller)


@router.get(
    "/games/{id}",
    tags=["games"],
    operation_id="game",
    summary="A game as the caller may see it",
    response_model=Game,
    responses=errors(401, 404, 422),
)
async def game(rt: Runtime, caller: Caller, game_id: GameId, request: Request) -> Any:
    found = await run(rt, rt.app.tables.get, game_id)
    shown = await presented(rt, found, caller)
    return final_answer(request, Game, shown) if is_final(found.table.status) else shown


@router.post(
    "/games/{id}/seats",
    tags=["games"],
    operation_id="joinGame",
    summary="Take a seat (the first free one if none is given)",
    response_model=Game,
    responses=errors(401, 404, 409, 422),
)
async def join_game(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    body: Annotated[JoinGame, Body(default_factory=JoinGame)],
) -> Any:
    game = await run(rt, rt.app.seating.join_game, caller, game_id, body.seat)
    return await presented(rt, game, caller)


@router.post(
    "/games/{id}/bots",
    tags=["games"],
    operation_id="addBot",
    summary="A server-side bot takes a seat",
    response_model=Game,
    responses=errors(401, 403, 404, 409, 422),
)
async def add_bot(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    body: Annotated[AddBot, Body(default_factory=AddBot)],
) -> Any:
    game = await run(rt, rt.app.seating.add_bot, caller, game_id, body.seat, body.strategy)
    return await presented(rt, game, caller)


@router.post(
    "/games/{id}/abandon",
    tags=["games"],
    operation_id="abandonGame",
    summary="Close the table without a result",
    response_model=Game,
    responses=errors(401, 403, 404, 409, 422),
)
async def abandon_game(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    body: Annotated[AbandonGame, Body(default_factory=AbandonGame)],
) -> Any:
    game = await run(rt, rt.app.seating.abandon_game, caller, game_id, body.reason)
    return await presented(rt, game, caller)


@router.post(
    "/games/{id}/reclaim",
    tags=["games"],
    operation_id="reclaimSeat",
    summary="Take back your seat that a bot plays since your time ran out",
    description="A timed table whose policy is `takeover`: the bot stops, and you are on the "
    "clock again from the seat's next turn with a full move or bank. The game still counts as "
    "a loss for you in ratings.",
    response_model=Game,
    responses=errors(401, 403, 404, 409, 422),
)
async def reclaim_seat(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    body: Annotated[ReclaimSeat, Body(default_factory=ReclaimSeat)],
) -> Any:
    game = await run(rt, rt.app.clocks.reclaim, caller, game_id, body.seat)
    return await presented(rt, game, caller)


@router.post(
    "/games/{id}/actions",
    tags=["play"],
    operation_id="act",
    summary="One action for the caller's seat",
    response_model=ActResult,
    responses=errors(401, 403, 404, 409, 422),
)
async def act(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    body: Act,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="Sent again with the same action, it is not played twice.",
            json_schema_extra={"maxLength": 200},
        ),
    ] = None,
) -> Any:
    game, records = await run(
        rt,
        rt.app.play.act,
        caller,
        game_id,
        body.action,
        body.expected_version,
        idempotency_key,
        body.seat,
    )
    log = await run(rt, numbering.timeline, rt.app.tables, game, caller)  # the caller's log
    return {
        "game": present_game(game, caller, log, rt.app.clocks.now()),
        "events": present_events(game.table, records, caller, log),
    }
