"""A game's timeline: its audit log, replay, verification, export and import, undo, forks."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request

from service.api.rest.caching import final_answer, is_final
from service.api.rest.games import GameId
from service.api.rest.models import (
    AnswerUndo,
    EventPage,
    ForkGame,
    Game,
    ReplayPage,
    RequestUndo,
    Verification,
)
from service.api.rest.params import Count, JsonObject, Limit, MaybeVersion
from service.api.rest.presenters import present_clock, present_event, presented
from service.api.rest.problems import errors
from service.api.rest.routing import Caller, JsonRoute, Runtime, body_limit, run
from service.app import numbering, views
from service.app.clocks import clock_view_at

router = APIRouter(route_class=JsonRoute)


@router.get(
    "/games/{id}/events",
    tags=["audit"],
    operation_id="events",
    summary="The audit log as the caller may see it",
    response_model=EventPage,
    responses=errors(401, 404, 422),
)
async def events(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    request: Request,
    after: Count = 0,
    limit: Limit = 100,
) -> Any:
    game, log = await run(rt, numbering.game_log, rt.app.tables, game_id, caller)
    shown, more = await run(rt, numbering.page, rt.app.tables, game, caller, log, after, limit)
    items = [present_event(e) for e in shown]
    page = {"items": items, "nextAfter": items[-1]["version"] if more and items else None}
    return final_answer(request, EventPage, page) if is_final(game.table.status) else page


@router.get(
    "/games/{id}/state",
    tags=["audit"],
    operation_id="stateAt",
    summary="The state, now or right after event `version`, as the caller sees it",
    response_model=JsonObject,
    responses=errors(401, 404, 422),
)
async def state_at(
    rt: Runtime, caller: Caller, game_id: GameId, version: MaybeVersion = None
) -> Any:
    game = await run(rt, rt.app.tables.get, game_id)
    if version is None:
        return views.state(game.table, caller)
    log = await run(rt, numbering.timeline, rt.app.tables, game, caller)  # `version`: its number
    past = await run(rt, rt.app.tables.past, game, log.version_of(version))
    return views.state(past.table, caller, revealed=views.is_revealed(game.table))


@router.get(
    "/games/{id}/replay",
    tags=["audit"],
    operation_id="replay",
    summary="Events after `after`, each with the state right after it",
    response_model=ReplayPage,
    responses=errors(401, 404, 422),
)
async def replay(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    request: Request,
    after: Count = 0,
    limit: Limit = 100,
) -> Any:
    current, log = await run(rt, numbering.game_log, rt.app.tables, game_id, caller)
    revealed = views.is_revealed(current.table)
    window = numbering.replay_window(log, after, limit)

    def steps() -> list[dict[str, Any]]:
        if window is None:
            return []
        return [
            {
                "event": present_event(views.event(current.table, entry, caller, log)),
                "state": views.state(table, caller, revealed=revealed),
                "clock": present_clock(clock_view_at(table)),
            }
            for table, entry in rt.app.audit.replay(str(current.id), *window)
            if log.sees(entry.version)
        ]

    items = await run(rt, steps)
    last = items[-1]["event"]["version"] if items else None
    page = {"items": items, "nextAfter": last if last is not None and last < log.version else None}
    return final_answer(request, ReplayPage, page) if is_final(current.table.status) else page


@router.get(
    "/games/{id}/verify",
    tags=["audit"],
    operation_id="verifyLog",
    summary="Recompute the hash chain, check the seed and replay the rules",
    response_model=Verification,
    responses=errors(401, 404, 422),
)
async def verify_log(rt: Runtime, caller: Caller, game_id: GameId) -> Any:
    finding = await run(rt, rt.app.audit.verify, game_id)
    shown = await run(rt, numbering.verification, rt.app.tables, game_id, finding, caller)
    return {
        "ok": shown["ok"],
        "checkedEvents": shown["checked_events"],
        "badVersion": shown["bad_version"],
        "reason": shown["reason"],
    }


@router.get(
    "/games/{id}/export",
    tags=["audit"],
    operation_id="exportGame",
    summary="A finished game as one portable JSON document",
    response_model=JsonObject,
    responses=errors(404, 409, 422),
)
async def export_game(rt: Runtime, game_id: GameId, request: Request) -> Any:
    # only a finished game is exported: the document no longer changes
    return final_answer(request, None, await run(rt, rt.app.archive.export, game_id))


@router.post(
    "/games/import",
    tags=["audit"],
    operation_id="importGame",
    summary="Check an exported game and store it as a new finished game",
    status_code=201,
    response_model=Game,
    responses=errors(401, 422),
)
@body_limit("max_import_bytes")
async def import_game(
    rt: Runtime,
    caller: Caller,
    document: Annotated[JsonObject, Body(description="What `exportGame` gave.")],
) -> Any:
    return await presented(rt, await run(rt, rt.app.archive.import_game, caller, document), caller)


@router.post(
    "/games/{id}/undo",
    tags=["play"],
    operation_id="requestUndo",
    summary="Take actions back (default: your last action)",
    response_model=Game,
    responses=errors(401, 403, 404, 409, 422),
)
async def request_undo(
    rt: Runtime,
    caller: Caller,
    game_id: GameId,
    body: Annotated[RequestUndo, Body(default_factory=RequestUndo)],
) -> Any:
    game = await run(rt, rt.app.undo.request_undo, caller, game_id, body.to_version)
    return await presented(rt, game, caller)


@router.post(
    "/games/{id}/undo/answer",
    tags=["play"],
    operation_id="answerUndo",
    summary="Accept or refuse the pending undo request",
    response_model=Game,
    responses=errors(401, 403, 404, 409, 422),
)
async def answer_undo(rt: Runtime, caller: Caller, game_id: GameId, body: AnswerUndo) -> Any:
    game = await run(rt, rt.app.undo.answer_undo, caller, game_id, body.accept)
    return await presented(rt, game, caller)


@router.post(
    "/games/{id}/fork",
    tags=["games"],
    operation_id="forkGame",
    summary="A sandbox table starting from a game at a version",
    description="Anybody may fork a finished game (its events are replayed). A game that is not "
    "finished may be forked only by one of its players: the fork starts from what that player's "
    "seats could see, everything hidden from them re-dealt from the fork's own seed, and seats "
    "the player at those seats.",
    status_code=201,
    response_model=Game,
    responses=errors(401, 403, 404, 422),
)
async def fork_game(rt: Runtime, caller: Caller, game_id: GameId, body: ForkGame) -> Any:
    game = await run(rt, rt.app.forks.fork, caller, game_id, body.at_version)
    return await presented(rt, game, caller)
