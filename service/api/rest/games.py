"""Games: listing, opening and filling tables, and playing (docs/API.md "Games")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request

from service.api.rest import typedactions
from service.api.rest.caching import game_answer
from service.api.rest.commands import command, omissible
from service.api.rest.models import AbandonGame, Act, AddBot, CreateGame, JoinGame, ReclaimSeat
from service.api.rest.params import GameId, MaybeCount
from service.api.rest.presenters import present_events, present_game, presented
from service.api.rest.problems import errors
from service.api.rest.readmodels import Listed, summary_page
from service.api.rest.responses import ActResult, Game, GamePage
from service.api.rest.routing import Caller, JsonRoute, Runtime, run
from service.app import numbering
from service.app.errors import BadInput

router = APIRouter(route_class=JsonRoute)


@router.get(
    "/games",
    tags=["games"],
    operation_id="games",
    summary="List games, newest first",
    response_model=GamePage,
    responses=errors(401, 422),
)
async def games(rt: Runtime, caller: Caller, listed: Listed) -> Any:
    tables = rt.app.tables

    async def shown(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # one trip to the workers, not two a game
        def page() -> list[tuple[Any, numbering.Timeline]]:
            return [numbering.game_log(tables, row["game_id"], caller) for row in rows]

        now = rt.app.clocks.now()
        return [present_game(game, caller, log, now) for game, log in await run(rt, page)]

    return await summary_page(rt, listed, items=shown)


command(
    router,
    "/games",
    CreateGame,
    lambda app, caller, body: app.seating.create_game(
        caller, body.kind, body.seats, body.options, body.seed
    ),
    tags=["games"],
    operation_id="createGame",
    summary="Open a new table (the creator is not seated)",
    status_code=201,
    responses=errors(401, 422),
)


@router.get(
    "/games/{id}",
    tags=["games"],
    operation_id="game",
    summary="A game as the caller may see it",
    response_model=Game,
    responses=errors(401, 404, 422),
)
async def game(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    request: Request,
    min_version: Annotated[
        MaybeCount,
        Query(
            alias="minVersion",
            description="Read your own writes on any server: the game at least at this version "
            "of your log (an act's `version`); a server that has not heard of it yet asks the "
            "store.",
        ),
    ] = None,
) -> Any:
    found = await run(rt, rt.app.tables.get, game_id)
    if min_version is not None:
        found = await run(rt, numbering.at_least, rt.app.tables, found, caller, min_version)
    return game_answer(request, found, Game, await presented(rt, found, caller))


command(
    router,
    "/games/{id}/seats",
    omissible(JoinGame),
    lambda app, caller, game_id, body: app.seating.join_game(caller, game_id, body.seat),
    tags=["games"],
    operation_id="joinGame",
    summary="Take a seat (the first free one if none is given)",
    responses=errors(401, 404, 409, 422),
)
command(
    router,
    "/games/{id}/bots",
    omissible(AddBot),
    lambda app, caller, game_id, body: app.seating.add_bot(
        caller, game_id, body.seat, body.strategy
    ),
    tags=["games"],
    operation_id="addBot",
    summary="A server-side bot takes a seat",
    description="403 FORBIDDEN past the caller's bounds on bots (tables with bots, searching "
    "bots: the problem's detail names the bound), and for the last free seat of a table where "
    "no person sits.",
    responses=errors(401, 403, 404, 409, 422),
)
command(
    router,
    "/games/{id}/abandon",
    omissible(AbandonGame),
    lambda app, caller, game_id, body: app.seating.abandon_game(caller, game_id, body.reason),
    tags=["games"],
    operation_id="abandonGame",
    summary="Close the table without a result",
    responses=errors(401, 403, 404, 409, 422),
)
command(
    router,
    "/games/{id}/reclaim",
    omissible(ReclaimSeat),
    lambda app, caller, game_id, body: app.clocks.reclaim(caller, game_id, body.seat),
    tags=["games"],
    operation_id="reclaimSeat",
    summary="Take back your seat that a bot plays since your time ran out",
    description="A timed table whose policy is `takeover`: the bot stops, and you are on the "
    "clock again from the seat's next turn with a full move or bank. The game still counts as "
    "a loss for you in ratings.",
    responses=errors(401, 403, 404, 409, 422),
)


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
    action, typed_kind = chosen_action(body)
    game, records = await run(
        rt,
        rt.app.play.act,
        caller,
        game_id,
        action,
        body.expected_version,
        idempotency_key,
        body.seat,
        typed_kind,
    )
    log = await run(rt, numbering.timeline, rt.app.tables, game, caller)  # the caller's log
    return {
        "game": present_game(game, caller, log, rt.app.clocks.now()),
        "events": present_events(game.table, records, caller, log),
    }


def chosen_action(body: Act) -> tuple[dict[str, Any], str | None]:
    """The action ``act`` plays, and the game kind it names if it was typed (``Play.act``
    refuses it for a game of another kind); BAD_INPUT unless exactly one form is sent."""
    if body.action is not None and body.typed_action is not None:
        raise BadInput("Send the action once: either `action` (JSON) or `typedAction`, not both.")
    if body.typed_action is None:
        if body.action is None:
            raise BadInput("Send an action: `action` (JSON) or `typedAction`.")
        return body.action, None
    kind, action = typedactions.action_of(body.typed_action)
    return action, kind
