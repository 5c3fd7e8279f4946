"""Players: registration, the caller, their token and their account (docs/API.md "Players";
docs/accounts.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from service.api.rest.models import RegisterPlayer
from service.api.rest.problems import errors
from service.api.rest.responses import Player, PlayerSession
from service.api.rest.routing import Caller, JsonRoute, Runtime, registration, run
from service.api.rest.shaped import shown
from service.api.shapes import players
from service.app.errors import Unauthenticated

router = APIRouter(route_class=JsonRoute)


def player(who: Any) -> dict[str, Any]:
    """A player as every answer shows one: the id and the name, nothing of the token."""
    return shown(players.Player, players.player(who.player_id, who.name))


def session(who: Any, token: str) -> dict[str, Any]:
    """A player with their new token: the one time the token is shown."""
    return shown(players.PlayerSession, players.session(who.player_id, who.name, token))


@router.post(
    "/players",
    tags=["players"],
    operation_id="registerPlayer",
    summary="Register a player; the token is shown once",
    status_code=201,
    response_model=PlayerSession,
    responses=errors(422, 429),  # registrations are rate limited per client address
)
@registration
async def register_player(body: RegisterPlayer, rt: Runtime) -> Any:
    return session(*await run(rt, rt.app.accounts.register_player, body.name))


@router.get(
    "/me",
    tags=["players"],
    operation_id="me",
    summary="The caller",
    response_model=Player,
    responses=errors(401),
)
async def me(caller: Caller) -> Any:
    if not caller.is_player:
        raise Unauthenticated("No token was sent: you are a spectator.")
    return player(caller)


@router.post(
    "/me/token",
    tags=["players"],
    operation_id="rotateToken",
    summary="A new token for the caller; the one sent stops working at once",
    response_model=PlayerSession,
    responses=errors(401, 429),
)
async def rotate_token(caller: Caller, rt: Runtime) -> Any:
    return session(*await run(rt, rt.app.accounts.rotate_token, caller))


@router.post(
    "/me/logout",
    tags=["players"],
    operation_id="logout",
    summary="Revoke the token sent (the caller's only one), at once in every process",
    status_code=204,
    response_class=Response,
    responses=errors(401, 429),
)
async def logout(caller: Caller, rt: Runtime) -> Response:
    await run(rt, rt.app.accounts.log_out, caller)
    return Response(status_code=204)


@router.delete(
    "/me",
    tags=["players"],
    operation_id="deleteAccount",
    summary="Delete the caller's account: the token stops working, the name is shown as "
    "'Deleted player' everywhere; refused while seated at a game that is not over",
    status_code=204,
    response_class=Response,
    responses=errors(401, 403, 429),
)
async def delete_account(caller: Caller, rt: Runtime) -> Response:
    await run(rt, rt.app.accounts.delete_account, caller)
    return Response(status_code=204)
