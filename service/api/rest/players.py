"""Players: registration, the caller, their token and their account (API.md "Players";
README "Accounts")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from service.api.rest.models import Player, PlayerSession, RegisterPlayer
from service.api.rest.problems import errors
from service.api.rest.routing import Caller, JsonRoute, Runtime, registration, run
from service.app.errors import Unauthenticated

router = APIRouter(route_class=JsonRoute)


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
    caller, token = await run(rt, rt.app.accounts.register_player, body.name)
    return {"player": {"id": caller.player_id, "name": caller.name}, "token": token}


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
    return {"id": caller.player_id, "name": caller.name}


@router.post(
    "/me/token",
    tags=["players"],
    operation_id="rotateToken",
    summary="A new token for the caller; the one sent stops working at once",
    response_model=PlayerSession,
    responses=errors(401, 429),
)
async def rotate_token(caller: Caller, rt: Runtime) -> Any:
    rotated, token = await run(rt, rt.app.accounts.rotate_token, caller)
    return {"player": {"id": rotated.player_id, "name": rotated.name}, "token": token}


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
