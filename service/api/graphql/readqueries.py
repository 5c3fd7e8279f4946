"""The queries of the read models: game summaries, the lobby, profiles, the leaderboard,
statistics and how far the read models have come (docs/API.md "Games", "Players"; read models).

``ReadModelQueries`` is a part of the schema's ``Query`` type (``service.api.graphql.queries``
combines it with ``GameQueries``): it is never a type of the schema by itself, and its fields
keep their place in ``Query``. ``listing`` reads a page of summaries for ``games`` too.
"""

from __future__ import annotations

from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.context import Info
from service.api.graphql.pages import Counter
from service.api.graphql.queryargs import (
    After,
    First,
    Kind,
    KindFilter,
    PlayerFilter,
    StatusFilter,
    argument,
)
from service.api.graphql.readtypes import (
    GameStatistics,
    GameSummary,
    GameSummaryConnection,
    PlayerProfile,
    PlayerRating,
    Rating,
    RatingConnection,
    ReadModelPosition,
    ReadModelStatus,
    ScoreSource,
)
from service.api.graphql.types import GameKind, GameStatus, decode_cursor, page_size
from service.app.errors import BadInput

MinPosition = Annotated[
    int | None,
    argument(
        "Read your own writes: wait (5 s at most) until the read models have applied this "
        "store position (`readModels.storePosition` after your write)."
    ),
]


@strawberry.type
class ReadModelQueries:
    @strawberry.field(
        description="Game summaries from the read model (public facts only), newest first; "
        "`player` finds the games a player sat at."
    )
    async def game_summaries(
        self,
        info: Info,
        kind: KindFilter = None,
        status: StatusFilter = None,
        player: PlayerFilter = None,
        first: First = None,
        after: After = None,
        min_position: MinPosition = None,
    ) -> GameSummaryConnection:
        await wait_for(info, min_position)
        return summary_page(after, *await listing(info, first, after, kind, status, player))

    @strawberry.field(description="Open tables with free seats, newest first.")
    async def lobby(
        self,
        info: Info,
        kind: KindFilter = None,
        options: Annotated[
            JSON | None,
            argument(
                "Only tables whose options include these (a JSON object of option: value; "
                "null: any options)."
            ),
        ] = None,
        first: First = None,
        after: After = None,
        min_position: MinPosition = None,
    ) -> GameSummaryConnection:
        await wait_for(info, min_position)
        if options is not None and not isinstance(options, dict):
            raise BadInput("options must be a JSON object of the options to match.")
        listed = await listing(info, first, after, kind, lobby=True, options=options)
        return summary_page(after, *listed)

    @strawberry.field(description="A player's profile: games played and won, average score.")
    async def player(
        self, info: Info, id: Annotated[strawberry.ID, argument("The player's id.")]
    ) -> PlayerProfile | None:
        row = await info.context.run(info.context.app.readmodels.profile, str(id))
        return PlayerProfile.of(row) if row else None

    @strawberry.field(description="Ratings (multi-player Elo) of one game, best first.")
    async def leaderboard(
        self, info: Info, kind: Kind, first: First = None, after: After = None
    ) -> RatingConnection:
        limit = page_size(first)
        offset = decode_cursor("rank", after) or 0
        models = info.context.app.readmodels
        rows = await info.context.run(models.leaderboard, kind.value, limit + 1, offset)
        nodes = [Rating.of(offset + n + 1, r) for n, r in enumerate(rows[:limit])]

        async def count() -> int:
            return await info.context.run(models.count_ratings, kind.value)

        more = len(rows) > limit
        return RatingConnection.of(
            nodes, [r.rank for r in nodes], prefix="rank", after=after, more=more, count=count
        )

    @strawberry.field(
        description="A player's ratings, one per game kind they were rated in, each with its "
        "place on the leaderboard and its recent history (the profile's chart)."
    )
    async def player_ratings(
        self, info: Info, player: Annotated[strawberry.ID, argument("The player's id.")]
    ) -> list[PlayerRating]:
        found = await info.context.run(info.context.app.readmodels.player_ratings, str(player))
        return [PlayerRating.of(rank, row) for rank, row in found]

    @strawberry.field(description="Points by scoring source over the finished games of a kind.")
    async def statistics(self, info: Info, kind: Kind) -> GameStatistics:
        found = await info.context.run(info.context.app.readmodels.statistics, kind.value)
        return GameStatistics(
            kind=kind,
            games=found["games"],
            sources=[ScoreSource(**s) for s in found["sources"]],
        )

    @strawberry.field(description="How far each read model has applied the event store.")
    async def read_models(self, info: Info) -> ReadModelStatus:
        models = info.context.app.readmodels

        def status() -> ReadModelStatus:
            head, positions = models.public_positions()
            return ReadModelStatus(
                store_position=head,
                read_models=[ReadModelPosition(name=n, position=p) for n, p in positions.items()],
            )

        return await info.context.run(status)


async def wait_for(info: Info, position: int | None) -> None:
    """Read your writes: wait (5 s at most) until the read models have applied ``position``."""
    if position is not None:
        await info.context.run(info.context.app.readmodels.wait_for_public, position)


async def listing(
    info: Info,
    first: int | None,
    after: str | None,
    kind: GameKind | None,
    status: GameStatus | None = None,
    player: strawberry.ID | None = None,
    *,
    lobby: bool = False,
    options: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], bool, Counter]:
    """A page of the read model's game summaries that match these filters, newest first, after
    the cursor ``after``: its rows, whether more follow, and the ``totalCount`` of every page
    (counted only when the query selects it)."""
    limit = page_size(first)
    before = decode_cursor("game", after)
    where: dict[str, Any] = {
        "kind": kind.value if kind else None,
        "status": status.value if status else None,
        "player_id": str(player) if player else None,
        "lobby": lobby,
        "options": options,
    }
    models = info.context.app.readmodels
    rows = await info.context.run(
        lambda: models.summaries(**where, limit=limit + 1, before_seq=before)
    )

    async def count() -> int:
        return await info.context.run(lambda: models.count_summaries(**where))

    return rows[:limit], len(rows) > limit, count


def summary_page(
    after: str | None, rows: list[dict[str, Any]], more: bool, count: Counter
) -> GameSummaryConnection:
    """The page of summaries of ``listing``'s rows, read after the cursor ``after``."""
    nodes = [GameSummary.of(r) for r in rows]
    positions = [r["seq"] for r in rows]
    return GameSummaryConnection.of(
        nodes, positions, prefix="game", after=after, more=more, count=count
    )
