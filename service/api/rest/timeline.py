"""A game's timeline: its audit log, replay, verification, export and import, undo, forks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request

from service.api.rest.caching import final_answer, game_answer
from service.api.rest.commands import command, omissible
from service.api.rest.models import AnswerUndo, ForkGame, RequestUndo
from service.api.rest.params import Count, GameId, JsonObject, Limit, MaybeVersion
from service.api.rest.presenters import present_event, present_step
from service.api.rest.problems import errors
from service.api.rest.responses import EventPage, ReplayPage, Verification
from service.api.rest.routing import Caller, JsonRoute, Runtime, run
from service.app import numbering, views
from service.app.clocks import clock_view_at

router = APIRouter(route_class=JsonRoute)


@dataclass(frozen=True, slots=True)
class LogPage:
    """What a page of the caller's log asks: the game, the caller's log of it, and the page
    (entries after ``after``, ``limit`` at most)."""

    game: Any
    log: numbering.Timeline
    after: int
    limit: int


async def log_page(
    rt: Runtime, caller: Caller, game_id: GameId, after: Count = 0, limit: Limit = 100
) -> LogPage:
    """The page that ``events`` and ``replay`` take (a dependency: their parameters are
    declared once), with the game and the caller's log of it read on the workers."""
    game, log = await run(rt, numbering.game_log, rt.app.tables, game_id, caller)
    return LogPage(game, log, after, limit)


Paged = Annotated[LogPage, Depends(log_page)]


@router.get(
    "/games/{id}/events",
    tags=["audit"],
    operation_id="events",
    summary="The audit log as the caller may see it",
    response_model=EventPage,
    responses=errors(401, 404, 422),
)
async def events(rt: Runtime, caller: Caller, request: Request, asked: Paged) -> Any:
    game, log = asked.game, asked.log
    shown, more = await run(
        rt, numbering.page, rt.app.tables, game, caller, log, asked.after, asked.limit
    )
    items = [present_event(e) for e in shown]
    page = {"items": items, "nextAfter": items[-1]["version"] if more and items else None}
    return game_answer(request, game, EventPage, page)


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
async def replay(rt: Runtime, caller: Caller, request: Request, asked: Paged) -> Any:
    current, log = asked.game, asked.log
    revealed = views.is_revealed(current.table)
    window = numbering.replay_window(log, asked.after, asked.limit)

    def steps() -> list[dict[str, Any]]:
        if window is None:
            return []
        return [
            present_step(
                views.event(current.table, entry, caller, log),
                views.state(table, caller, revealed=revealed),
                clock_view_at(table),
            )
            for table, entry in rt.app.audit.replay(str(current.id), *window)
            if log.sees(entry.version)
        ]

    items = await run(rt, steps)
    last = items[-1]["event"]["version"] if items else None
    page = {"items": items, "nextAfter": last if last is not None and last < log.version else None}
    return game_answer(request, current, ReplayPage, page)


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
    signed = await run(rt, rt.app.signing.verdict, game_id, finding.ok)
    return {
        "ok": shown["ok"],
        "checkedEvents": shown["checked_events"],
        "badVersion": shown["bad_version"],
        "reason": shown["reason"],
        "signedBy": signed["signed_by"],
        "signature": signed["signature"],
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


command(
    router,
    "/games/import",
    Annotated[JsonObject, Body(title="Document", description="What `exportGame` gave.")],
    lambda app, caller, document: app.archive.import_game(caller, document),
    tags=["audit"],
    operation_id="importGame",
    summary="Check an exported game and store it as a new finished game",
    status_code=201,
    responses=errors(401, 422),
    limit="max_import_bytes",
)
command(
    router,
    "/games/{id}/undo",
    omissible(RequestUndo),
    lambda app, caller, game_id, body: app.undo.request_undo(caller, game_id, body.to_version),
    tags=["play"],
    operation_id="requestUndo",
    summary="Take actions back (default: your last action)",
    responses=errors(401, 403, 404, 409, 422),
)
command(
    router,
    "/games/{id}/undo/answer",
    AnswerUndo,
    lambda app, caller, game_id, body: app.undo.answer_undo(caller, game_id, body.accept),
    tags=["play"],
    operation_id="answerUndo",
    summary="Accept or refuse the pending undo request",
    responses=errors(401, 403, 404, 409, 422),
)
command(
    router,
    "/games/{id}/fork",
    ForkGame,
    lambda app, caller, game_id, body: app.forks.fork(caller, game_id, body.at_version),
    tags=["games"],
    operation_id="forkGame",
    summary="A sandbox table starting from a game at a version",
    description="Anybody may fork a finished game (its events are replayed). A game that is not "
    "finished may be forked only by one of its players: the fork starts from what that player's "
    "seats could see, everything hidden from them re-dealt from the fork's own seed, and seats "
    "the player at those seats.",
    status_code=201,
    responses=errors(401, 403, 404, 422),
)
