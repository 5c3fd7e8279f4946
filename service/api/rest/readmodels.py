"""Queries on the read models: summaries, the lobby, profiles, leaderboards, statistics."""

from __future__ import annotations

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


async def summary_count(rt: Any, listed: Listing, *, lobby: bool = False) -> int:
    """How many games the listing's filters match, over every page (one SQL ``COUNT``)."""
    return int(await run(rt, rt.app.readmodels.count_summaries, **listed.filters(lobby)))


async def summary_rows(
    rt: Any, listed: Listing, *, lobby: bool = False
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of summary rows, and the cursor of the next page (None on the last)."""
    models = rt.app.readmodels
    if listed.min_position is not None:
        await run(rt, models.wait_for, listed.min_position)
    rows = await run(
        rt,
        models.summaries,
        **listed.filters(lobby),
        limit=listed.limit + 1,
        before_seq=listed.before_seq,
    )
    limit = listed.limit
    next_cursor = str(rows[limit - 1]["seq"]) if len(rows) > limit else None
    return rows[:limit], next_cursor


def kind_in_path(kind: Annotated[KindInPath, Path()]) -> str:
    if kind.lower() not in KINDS:
        raise NotFound(f'There is no game kind {kind.lower()!r}: use "imhotep" or "amun_re".')
    return KINDS[kind.lower()]


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
    rows, next_cursor = await summary_rows(rt, listed)
    total = await summary_count(rt, listed)
    return {
        "items": [present_summary(r) for r in rows],
        "nextCursor": next_cursor,
        "totalCount": total,
    }


@router.get(
    "/lobby",
    tags=["read models"],
    operation_id="lobby",
    summary="Open tables with free seats, newest first",
    response_model=SummaryPage,
    responses=errors(422),
)
async def lobby(rt: Runtime, listed: Listed) -> Any:
    rows, next_cursor = await summary_rows(rt, listed, lobby=True)
    total = await summary_count(rt, listed, lobby=True)
    return {
        "items": [present_summary(r) for r in rows],
        "nextCursor": next_cursor,
        "totalCount": total,
    }


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
    return {**present_ratings(rows, offset), "totalCount": total}


@router.get(
    "/statistics/{kind}",
    tags=["read models"],
    operation_id="statistics",
    summary="Points by scoring source",
    response_model=Statistics,
    responses=errors(404, 422),
)
async def statistics(rt: Runtime, kind: KindOfPath) -> Any:
    return await run(rt, rt.app.readmodels.statistics, kind)


@router.get(
    "/read-models",
    tags=["read models"],
    operation_id="readModels",
    summary="How far each read model has applied the store",
    response_model=ReadModelStatus,
    responses=errors(),
)
async def read_models(rt: Runtime) -> Any:
    positions = await run(rt, rt.app.readmodels.positions)
    head = await run(rt, rt.app.readmodels.store_position)
    return {"storePosition": head, "readModels": positions}
