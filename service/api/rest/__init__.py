"""The REST mirror of the GraphQL API under ``/api/v1`` (API.md), with its OpenAPI document.

Handlers are as thin as the resolvers: parse, call ``service.app.games.Games``, present through
``service.app.views``. Failures are ``application/problem+json`` (RFC 9457) with the same ``code``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from domain import table as tables
from service.api.rest.openapi import OPENAPI
from service.app import views
from service.app.errors import BadInput, NotFound, PapyrusError, Unauthenticated
from service.app.games import Caller

MAX_LIMIT = 200
KINDS = {"imhotep": "imhotep", "amun_re": "amun_re"}
STATUSES = (tables.OPEN, tables.ACTIVE, tables.FINISHED, tables.ABANDONED)

Handler = Callable[[Request], Awaitable[Response]]


def problem(error: PapyrusError) -> JSONResponse:
    body: dict[str, Any] = {
        "type": f"https://papyrus.example/errors/{error.code.lower()}",
        "title": error.code.replace("_", " ").capitalize(),
        "status": error.status,
        "detail": error.message,
        "code": error.code,
    }
    if error.rule:
        body["rule"] = error.rule
    return JSONResponse(body, status_code=error.status, media_type="application/problem+json")


def endpoint(handler: Handler) -> Handler:
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except PapyrusError as refused:
            return problem(refused)

    return wrapped


def runtime(request: Request) -> Any:
    return request.app.state.runtime


async def run(request: Request, fn: Callable[..., Any], *args: Any) -> Any:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(
        runtime(request).executor, lambda: runtime(request).breaker.call(fn, *args)
    )


async def caller_of(request: Request) -> Caller:
    return await run(
        request, runtime(request).games.authenticate, request.headers.get("authorization")
    )


async def body_of(request: Request, limit: int | None = None) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > (limit or runtime(request).settings.max_body_bytes):
        raise BadInput("The request body is too large.")
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadInput("The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise BadInput("The request body must be a JSON object.")
    return body


#: the largest integer a parameter may carry (GraphQL's Int; the stores' columns hold it)
MAX_INT = 2**31 - 1


def int_param(value: Any, name: str, *, minimum: int = 0, maximum: int = MAX_INT) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise BadInput(f"{name} must be an integer.")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise BadInput(f"{name} must be an integer, not {value!r}.") from None
    if not minimum <= number <= maximum:
        raise BadInput(f"{name} must be between {minimum} and {maximum}, not {number}.")
    return number


def str_param(value: Any, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise BadInput(f"{name} must be a string.")
    return value


def present_game(game: Any, caller: Caller) -> dict[str, Any]:
    table = game.table
    return {
        "id": str(game.id),
        "kind": table.kind.upper(),
        "status": table.status,
        "options": table.options,
        "version": game.version,
        "seedCommitment": table.seed_commitment,
        "rulesVersion": table.rules_version,
        "seats": [
            {
                "seat": s["seat"],
                "player": {"id": s["player_id"], "name": s["name"]} if s["player_id"] else None,
                "isBot": s["is_bot"],
                "strategy": s["strategy"],
            }
            for s in views.seat_list(table)
        ],
        "mySeat": views.my_seat(table, caller),
        "activeSeats": views.active_seats(table),
        "state": views.state(table, caller),
        "legalActions": views.legal_actions(table, caller),
        "scores": views.scores(table),
        "result": views.result(table),
        "forkedFrom": fork_source(table.forked_from),
        "createdAt": game.created_on.isoformat(),
        "updatedAt": game.modified_on.isoformat(),
    }


def fork_source(source: dict[str, Any] | None) -> dict[str, Any] | None:
    if source is None:
        return None
    return {"gameId": source["game_id"], "version": source["version"], "seats": source.get("seats")}


def present_event(shown: dict[str, Any]) -> dict[str, Any]:
    return {
        "version": shown["version"],
        "at": shown["at"].isoformat(),
        "seat": shown["seat"],
        "type": shown["type"],
        "data": shown["data"],
        "automatic": shown["automatic"],
        "bySeat": shown["by_seat"],
        "undone": shown["undone"],
        "hash": shown["hash"],
    }


@endpoint
async def register(request: Request) -> Response:
    body = await body_of(request)
    name = body.get("name")
    if not isinstance(name, str):
        raise BadInput('Send {"name": "..."}.')
    caller, token = await run(request, runtime(request).games.register_player, name)
    return JSONResponse(
        {"player": {"id": caller.player_id, "name": caller.name}, "token": token}, status_code=201
    )


@endpoint
async def me(request: Request) -> Response:
    caller = await caller_of(request)
    if not caller.is_player:
        raise Unauthenticated("No token was sent: you are a spectator.")
    return JSONResponse({"id": caller.player_id, "name": caller.name})


@endpoint
async def create_game(request: Request) -> Response:
    caller = await caller_of(request)
    body = await body_of(request)
    kind = body.get("kind")
    if not isinstance(kind, str) or kind.lower() not in KINDS:
        raise BadInput('kind must be "IMHOTEP" or "AMUN_RE".')
    seats = int_param(body.get("seats"), "seats", minimum=1, maximum=100)
    if seats is None:
        raise BadInput("seats is required.")
    seed = str_param(body.get("seed"), "seed")
    game = await run(
        request,
        runtime(request).games.create_game,
        caller,
        KINDS[kind.lower()],
        seats,
        body.get("options"),
        seed,
    )
    return JSONResponse(present_game(game, caller), status_code=201)


def kind_in_path(request: Request) -> str:
    kind = str(request.path_params["kind"]).lower()
    if kind not in KINDS:
        raise NotFound(f'There is no game kind {kind!r}: use "imhotep" or "amun_re".')
    return kind


def json_param(value: str | None, name: str) -> dict[str, Any] | None:
    if value is None:
        return None
    try:
        parsed = json.loads(value)
    except ValueError:
        raise BadInput(f"{name} must be a JSON object.") from None
    if not isinstance(parsed, dict):
        raise BadInput(f"{name} must be a JSON object.")
    return parsed


def listing_filters(request: Request) -> dict[str, Any]:
    q = request.query_params
    kind = q.get("kind")
    if kind is not None and kind.lower() not in KINDS:
        raise BadInput('kind must be "IMHOTEP" or "AMUN_RE".')
    status = q.get("status")
    if status is not None and status.upper() not in STATUSES:
        raise BadInput(f"status must be one of {', '.join(STATUSES)}.")
    return {
        "kind": KINDS[kind.lower()] if kind else None,
        "status": status.upper() if status else None,
        "player_id": q.get("player"),
        "options": json_param(q.get("options"), "options"),
        "limit": int_param(q.get("limit"), "limit", minimum=1, maximum=MAX_LIMIT) or 50,
        "before_seq": int_param(q.get("cursor"), "cursor", minimum=0),
    }


async def summary_rows(request: Request, lobby: bool = False) -> tuple[list[Any], str | None]:
    filters = listing_filters(request)
    limit = filters["limit"]
    position = int_param(request.query_params.get("minPosition"), "minPosition")
    models = runtime(request).readmodels
    if position is not None:
        await run(request, models.wait_for, position)
    rows = await run(
        request, lambda: models.summaries(**{**filters, "limit": limit + 1}, lobby=lobby)
    )
    next_cursor = str(rows[limit - 1]["seq"]) if len(rows) > limit else None
    return rows[:limit], next_cursor


@endpoint
async def list_games(request: Request) -> Response:
    caller = await caller_of(request)
    rows, next_cursor = await summary_rows(request)
    items = []
    for row in rows:
        game = await run(request, runtime(request).games.get, row["game_id"])
        items.append(present_game(game, caller))
    return JSONResponse({"items": items, "nextCursor": next_cursor})


def present_summary(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "gameId": row["game_id"],
        "kind": row["kind"].upper(),
        "status": row["status"],
        "options": row["options"],
        "seats": [
            {
                "seat": p["seat"],
                "playerId": p["player_id"],
                "name": p["name"],
                "isBot": bool(p["bot"]),
            }
            for p in row["players"]
        ],
        "freeSeats": row["free_seats"],
        "activeSeats": row["active_seats"],
        "scores": row["scores"],
        "winners": row["winners"],
        "version": row["version"],
        "createdAt": row["created_at"],
        "lastActivity": row["updated_at"],
    }


@endpoint
async def list_summaries(request: Request) -> Response:
    rows, next_cursor = await summary_rows(request)
    return JSONResponse({"items": [present_summary(r) for r in rows], "nextCursor": next_cursor})


@endpoint
async def lobby(request: Request) -> Response:
    rows, next_cursor = await summary_rows(request, lobby=True)
    return JSONResponse({"items": [present_summary(r) for r in rows], "nextCursor": next_cursor})


@endpoint
async def profile(request: Request) -> Response:
    row = await run(request, runtime(request).readmodels.profile, request.path_params["id"])
    if row is None:
        raise NotFound("This player has no finished game yet, or does not exist.")
    played = row["games_played"]
    return JSONResponse(
        {
            "playerId": row["player_id"],
            "name": row["name"],
            "gamesPlayed": played,
            "gamesWon": row["games_won"],
            "averageScore": row["total_score"] / played if played else 0.0,
            "byKind": row["by_kind"],
            "recentGames": row["recent"],
        }
    )


@endpoint
async def leaderboard(request: Request) -> Response:
    kind = kind_in_path(request)
    q = request.query_params
    limit = int_param(q.get("limit"), "limit", minimum=1, maximum=MAX_LIMIT) or 50
    offset = int_param(q.get("offset"), "offset") or 0
    rows = await run(request, runtime(request).readmodels.leaderboard, kind, limit, offset)
    return JSONResponse(
        {
            "items": [
                {
                    "rank": offset + n + 1,
                    **{k: r[k] for k in ("player_id", "name", "rating", "games", "wins", "peak")},
                }
                for n, r in enumerate(rows)
            ]
        }
    )


@endpoint
async def statistics(request: Request) -> Response:
    kind = kind_in_path(request)
    return JSONResponse(await run(request, runtime(request).readmodels.statistics, kind))


@endpoint
async def read_models(request: Request) -> Response:
    models = runtime(request).readmodels
    positions = await run(request, models.positions)
    head = await run(request, models.store_position)
    return JSONResponse({"storePosition": head, "readModels": positions})


@endpoint
async def get_game(request: Request) -> Response:
    caller = await caller_of(request)
    game = await run(request, runtime(request).games.get, request.path_params["id"])
    return JSONResponse(present_game(game, caller))


@endpoint
async def join(request: Request) -> Response:
    caller = await caller_of(request)
    body = await body_of(request)
    seat = int_param(body.get("seat"), "seat")
    game = await run(
        request, runtime(request).games.join_game, caller, request.path_params["id"], seat
    )
    return JSONResponse(present_game(game, caller))


@endpoint
async def add_bot(request: Request) -> Response:
    caller = await caller_of(request)
    body = await body_of(request)
    seat = int_param(body.get("seat"), "seat")
    strategy = str_param(body.get("strategy"), "strategy")
    game = await run(
        request, runtime(request).games.add_bot, caller, request.path_params["id"], seat, strategy
    )
    return JSONResponse(present_game(game, caller))


@endpoint
async def abandon(request: Request) -> Response:
    caller = await caller_of(request)
    body = await body_of(request)
    reason = str_param(body.get("reason"), "reason")
    game = await run(
        request, runtime(request).games.abandon_game, caller, request.path_params["id"], reason
    )
    return JSONResponse(present_game(game, caller))


@endpoint
async def act(request: Request) -> Response:
    caller = await caller_of(request)
    body = await body_of(request)
    if "action" not in body:
        raise BadInput('Send {"action": {"type": ...}, "expectedVersion": N}.')
    expected = int_param(body.get("expectedVersion"), "expectedVersion")
    key = request.headers.get("idempotency-key")
    game, records = await run(
        request,
        runtime(request).games.act,
        caller,
        request.path_params["id"],
        body["action"],
        expected,
        key,
    )
    return JSONResponse(
        {
            "game": present_game(game, caller),
            "events": [present_event(views.event(game.table, r, caller)) for r in records],
        }
    )


@endpoint
async def list_events(request: Request) -> Response:
    caller = await caller_of(request)
    q = request.query_params
    after = int_param(q.get("after"), "after") or 0
    limit = int_param(q.get("limit"), "limit", minimum=1, maximum=MAX_LIMIT) or 100
    games = runtime(request).games
    game = await run(request, games.get, request.path_params["id"])
    records = await run(request, games.events, str(game.id), after, limit + 1)
    items = [present_event(views.event(game.table, r, caller)) for r in records[:limit]]
    next_after = items[-1]["version"] if len(records) > limit else None
    return JSONResponse({"items": items, "nextAfter": next_after})


@endpoint
async def state_at(request: Request) -> Response:
    caller = await caller_of(request)
    games = runtime(request).games
    game = await run(request, games.get, request.path_params["id"])
    version = int_param(request.query_params.get("version"), "version", minimum=1)
    if version is None:
        return JSONResponse(views.state(game.table, caller))
    past = await run(request, games.at_version, str(game.id), version)
    return JSONResponse(views.state(past.table, caller, revealed=views.is_revealed(game.table)))


def timeline(request: Request) -> Any:
    return runtime(request).timeline


@endpoint
async def export_game(request: Request) -> Response:
    document = await run(request, timeline(request).export, request.path_params["id"])
    return JSONResponse(document)


@endpoint
async def import_game(request: Request) -> Response:
    caller = await caller_of(request)
    document = await body_of(request, limit=runtime(request).settings.max_import_bytes)
    game = await run(request, timeline(request).import_game, caller, document)
    return JSONResponse(present_game(game, caller), status_code=201)


@endpoint
async def verify_log(request: Request) -> Response:
    finding = await run(request, timeline(request).verify, request.path_params["id"])
    return JSONResponse(
        {
            "ok": finding.ok,
            "checkedEvents": finding.checked,
            "badVersion": finding.version,
            "reason": finding.reason,
        }
    )


@endpoint
async def replay(request: Request) -> Response:
    caller = await caller_of(request)
    q = request.query_params
    after = int_param(q.get("after"), "after") or 0
    limit = int_param(q.get("limit"), "limit", minimum=1, maximum=MAX_LIMIT) or 100
    games = runtime(request).games
    current = await run(request, games.get, request.path_params["id"])
    revealed = views.is_revealed(current.table)

    def steps() -> list[dict[str, Any]]:
        return [
            {
                "event": present_event(views.event(current.table, entry, caller)),
                "state": views.state(table, caller, revealed=revealed),
            }
            for table, entry in timeline(request).replay(str(current.id), after, limit)
        ]

    return JSONResponse({"items": await run(request, steps)})


@endpoint
async def request_undo(request: Request) -> Response:
    caller = await caller_of(request)
    body = await body_of(request)
    to_version = int_param(body.get("toVersion"), "toVersion")
    game = await run(
        request, timeline(request).request_undo, caller, request.path_params["id"], to_version
    )
    return JSONResponse(present_game(game, caller))


@endpoint
async def answer_undo(request: Request) -> Response:
    caller = await caller_of(request)
    body = await body_of(request)
    accept = body.get("accept")
    if not isinstance(accept, bool):
        raise BadInput('Send {"accept": true} or {"accept": false}.')
    game = await run(
        request, timeline(request).answer_undo, caller, request.path_params["id"], accept
    )
    return JSONResponse(present_game(game, caller))


@endpoint
async def fork_game(request: Request) -> Response:
    caller = await caller_of(request)
    body = await body_of(request)
    at_version = int_param(body.get("atVersion"), "atVersion", minimum=1)
    if at_version is None:
        raise BadInput("atVersion is required.")
    game = await run(request, timeline(request).fork, caller, request.path_params["id"], at_version)
    return JSONResponse(present_game(game, caller), status_code=201)


async def openapi(request: Request) -> Response:
    return JSONResponse(OPENAPI)


async def not_found(request: Request) -> Response:
    return problem(NotFound(f"There is no resource at {request.url.path}."))


def rest_routes() -> list[Route]:
    return [
        Route("/openapi.json", openapi),
        Route("/players", register, methods=["POST"]),
        Route("/me", me),
        Route("/games", list_games, methods=["GET"]),
        Route("/summaries", list_summaries),
        Route("/lobby", lobby),
        Route("/players/{id}/profile", profile),
        Route("/leaderboards/{kind}", leaderboard),
        Route("/statistics/{kind}", statistics),
        Route("/read-models", read_models),
        Route("/games", create_game, methods=["POST"]),
        Route("/games/{id}", get_game),
        Route("/games/{id}/seats", join, methods=["POST"]),
        Route("/games/{id}/bots", add_bot, methods=["POST"]),
        Route("/games/{id}/actions", act, methods=["POST"]),
        Route("/games/{id}/abandon", abandon, methods=["POST"]),
        Route("/games/{id}/events", list_events),
        Route("/games/{id}/state", state_at),
        Route("/games/{id}/replay", replay),
        Route("/games/{id}/verify", verify_log),
        Route("/games/{id}/export", export_game),
        Route("/games/import", import_game, methods=["POST"]),
        Route("/games/{id}/undo", request_undo, methods=["POST"]),
        Route("/games/{id}/undo/answer", answer_undo, methods=["POST"]),
        Route("/games/{id}/fork", fork_game, methods=["POST"]),
    ]
