"""Queries on the read models: summaries, the lobby, profiles, leaderboards, statistics."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query

from service.api.rest.params import (
    KINDS,
    Kind,
    KindInPath,
    Limit,
    MaybeCount,
    Status,
    json_object,
    one_of,
)
from service.api.rest.params import Count as Offset
from service.api.rest.presenters import present_profile, present_ratings, present_summary
from service.api.rest.problems import errors
from service.api.rest.readbodies import (
    Leaderboard,
    Profile,
    ReadModelStatus,
    Statistics,
    SummaryPage,
)
from service.api.rest.routing import JsonRoute, Runtime, run
from service.api.rest.shaped import shown
from service.api.shapes import readmodels as shapes
from service.app.errors import NotFound

router = APIRouter(route_class=JsonRoute)


@dataclass(frozen=True, slots=True)
class Listing:
    """The filters and the page of a listing of games (newest first)."""

    kind: str | None
    status: str | None
    player_id: str | None
    options: dict[str, Any] | None
    limit: int
    before_seq: int | None
    min_position: int | None

    def filters(self, lobby: bool) -> dict[str, Any]:
        """The filters as the read model takes them (``summaries``, ``count_summaries``)."""
        return {
            "kind": self.kind,
            "status": self.status,
            "player_id": self.player_id,
            "options": self.options,
            "lobby": lobby,
        }


def listing(
    kind: Kind | None = None,
    status: Status | None = None,
    player: Annotated[str | None, Query(description="Only games this player is seated at.")] = None,
    options: Annotated[
        str | None,
        Query(
            description="Only tables with these options (a JSON object).",
            json_schema_extra={"contentMediaType": "application/json"},
        ),
    ] = None,
    limit: Limit = 50,
    cursor: Annotated[MaybeCount, Query(description="`nextCursor` of the previous page.")] = None,
    min_position: Annotated[
        MaybeCount,
        Query(
            alias="minPosition",
            description="Wait (5 s at most) until the read models have applied this position.",
        ),
    ] = None,
) -> Listing:
    wanted = json_object(options, "options")
    return Listing(kind, status, player, wanted, limit, cursor, min_position)


Listed = Annotated[Listing, Depends(listing)]


async def summary_page(
    rt: Any,
    listed: Listing,
    *,
    lobby: bool = False,
    items: Callable[[list[dict[str, Any]]], Awaitable[list[Any]]] | None = None,
) -> dict[str, Any]:
    """One page of the listing, newest first: its items (the summaries, or what ``items`` makes
    of their rows), the cursor of the next page (None on the last) and how many games the
    filters match over every page (one SQL ``COUNT``)."""
    models = rt.app.readmodels
    if listed.min_position is not None:
        await run(rt, models.wait_for_public, listed.min_position)
    filters = listed.filters(lobby)
    limit = listed.limit
    rows = await run(rt, models.summaries, **filters, limit=limit + 1, before_seq=listed.before_seq)
    next_cursor = str(rows[limit - 1]["seq"]) if len(rows) > limit else None
    rows = rows[:limit]
    page = [present_summary(r) for r in rows] if items is None else await items(rows)
    total = int(await run(rt, models.count_summaries, **filters))
    return {"items": page, "next_cursor": next_cursor, "total_count": total}


def kind_in_path(kind: Annotated[KindInPath, Path()]) -> str:
    if kind.lower() not in KINDS:
        raise NotFound(f"There is no game kind {kind.lower()!r}: use {one_of(KINDS)}.")
    return kind.lower()


KindOfPath = Annotated[str, Depends(kind_in_path)]


@router.get(
    "/summaries",
    tags=["read models"],
    operation_id="gameSummaries",
    summary="Game summaries from the read model, newest first",
    response_model=SummaryPage,
    responses=errors(422),
)
async def summaries(rt: Runtime, listed: Listed) -> Any:
    return await summary_page(rt, listed)


@router.get(
    "/lobby",
    tags=["read models"],
    operation_id="lobby",
    summary="Open tables with free seats, newest first",
    response_model=SummaryPage,
    responses=errors(422),
)
async def lobby(rt: Runtime, listed: Listed) -> Any:
    return await summary_page(rt, listed, lobby=True)


@router.get(
    "/players/{id}/profile",
    tags=["read models"],
    operation_id="player",
    summary="A player's games played and won, average score, recent games",
    response_model=Profile,
    responses=errors(404, 422),
)
async def profile(rt: Runtime, player_id: Annotated[str, Path(alias="id")]) -> Any:
    row = await run(rt, rt.app.readmodels.profile, player_id)
    if row is None:
        raise NotFound("This player has no finished game yet, or does not exist.")
    return present_profile(row)


@router.get(
    "/leaderboards/{kind}",
    tags=["read models"],
    operation_id="leaderboard",
    summary="Ratings (multi-player Elo), best first",
    response_model=Leaderboard,
    responses=errors(404, 422),
)
async def leaderboard(rt: Runtime, kind: KindOfPath, limit: Limit = 50, offset: Offset = 0) -> Any:
    rows = await run(rt, rt.app.readmodels.leaderboard, kind, limit, offset)
    total = await run(rt, rt.app.readmodels.count_ratings, kind)
    return {"items": present_ratings(rows, offset), "total_count": total}


@router.get(
    "/statistics/{kind}",
    tags=["read models"],
    operation_id="statistics",
    summary="Points by scoring source",
    response_model=Statistics,
    responses=errors(404, 422),
)
async def statistics(rt: Runtime, kind: KindOfPath) -> Any:
    return shown(shapes.Statistics, await run(rt, rt.app.readmodels.statistics, kind))


@router.get(
    "/read-models",
    tags=["read models"],
    operation_id="readModels",
    summary="How far each read model has applied the store",
    response_model=ReadModelStatus,
    responses=errors(),
)
async def read_models(rt: Runtime) -> Any:
    head, positions = await run(rt, rt.app.readmodels.public_positions)
    return shown(shapes.ReadModelStatus, {"store_position": head, "read_models": positions})
