"""Players: registration and the caller (API.md "Players")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from service.api.rest.models import Player, PlayerSession, RegisterPlayer
from service.api.rest.problems import errors
from service.api.rest.routing import Caller, JsonRoute, Runtime, run
from service.app.errors import Unauthenticated

router = APIRouter(route_class=JsonRoute)


@router.post(
    "/players",
    tags=["players"],
    operation_id="registerPlayer",
    summary="Register a player; the token is shown once",
    status_code=201,
    response_model=PlayerSession,
    responses=errors(422),
)
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
