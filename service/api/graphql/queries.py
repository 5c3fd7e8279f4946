"""The queries (API.md "Games", "Players"; read models; audits)."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.board import DESCRIPTION as CATALOG_DESCRIPTION
from service.api.graphql.board import board_catalog
from service.api.graphql.catalog import ActionSpec, action_catalog
from service.api.graphql.context import Info
from service.api.graphql.game import Game, GameConnection, GameEdge, game_of
from service.api.graphql.readtypes import (
    Counter,
    GameStatistics,
    GameSummary,
    GameSummaryConnection,
    GameSummaryEdge,
    PlayerProfile,
    Rating,
    RatingConnection,
    RatingEdge,
    ReadModelPosition,
    ReadModelStatus,
    ScoreSource,
)
from service.api.graphql.types import (
    GameID,
    GameKind,
    GameStatus,
    LogVerification,
    Node,
    PageInfo,
    Player,
    decode_cursor,
    encode_cursor,
    page_size,
)
from service.app import numbering
from service.app.errors import BadInput


def argument(description: str) -> Any:
    return strawberry.argument(description=description)


Kind = Annotated[GameKind, argument("Which game.")]
KindFilter = Annotated[GameKind | None, argument("Only games of this kind (null: every kind).")]
StatusFilter = Annotated[
    GameStatus | None, argument("Only games with this status (null: any status).")
]
PlayerFilter = Annotated[
    strawberry.ID | None, argument("Only the games this player (a `Player.id`) sat at.")
]
First = Annotated[int | None, argument("Page size, 0-200 (default 50).")]
After = Annotated[
    str | None, argument("A cursor of the previous page (`endCursor`): the page starts after it.")
]
MinPosition = Annotated[
    int | None,
    argument(
        "Read your own writes: wait (5 s at most) until the read models have applied this "
        "store position (`readModels.storePosition` after your write)."
    ),
]


@strawberry.type(description="The read operations: games, catalogs, read models and audits.")
class Query:
    @strawberry.field(description="The caller; null for a spectator.")
    def me(self, info: Info) -> Player | None:
        caller = info.context.caller
        if caller.player_id is None:
            return None
        return Player(id=strawberry.ID(caller.player_id), name=caller.name or "")

    @strawberry.field(
        description="Every action of a game kind: its parameters, label, rule and JSON Schema "
        "(the vocabulary of `legalActions` and `act`)."
    )
    def action_catalog(self, kind: Kind) -> list[ActionSpec]:
        return action_catalog(kind)

    @strawberry.field(description=CATALOG_DESCRIPTION)
    def catalog(self, kind: Kind) -> JSON:
        return board_catalog(kind)

    @strawberry.field(description="The game as the caller may see it; null if there is none.")
    async def game(self, info: Info, id: GameID) -> Game | None:
        from service.app.errors import NotFound

        context = info.context
        found = context.app.tables.peek(str(id))  # current and known here: no trip to a worker
        try:
            if found is None:
                found = await context.run(context.app.tables.get, str(id))
        except NotFound:
            return None
        return game_of(info, found)  # the caller is settled before any resolver runs

    @strawberry.field(
        description="The object with this global id (Relay), or null: every node is a `Game`."
    )
    async def node(
        self, info: Info, id: Annotated[strawberry.ID, argument("A global id (a game's id).")]
    ) -> Node | None:
        from service.app.errors import NotFound

        try:
            found = await info.context.run(info.context.app.tables.get, str(id))
        except NotFound:
            return None
        return game_of(info, found)

    @strawberry.field(description="Games, newest first, with Relay cursor pagination.")
    async def games(
        self,
        info: Info,
        kind: KindFilter = None,
        status: StatusFilter = None,
        first: First = None,
        after: After = None,
        player: PlayerFilter = None,
    ) -> GameConnection:
        rows, has_next = await summary_page(info, kind, status, player, False, first, after)
        edges = []
        for row in rows:
            found = await info.context.run(info.context.app.tables.get, row["game_id"])
            edges.append(
                GameEdge(cursor=encode_cursor("game", row["seq"]), node=game_of(info, found))
            )
        return GameConnection(
            edges=edges,
            nodes=[e.node for e in edges],
            page_info=PageInfo.of([e.cursor for e in edges], after, has_next),
            _count=summary_count(info, kind, status, player, False),
        )

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
        rows, has_next = await summary_page(info, kind, status, player, False, first, after)
        count = summary_count(info, kind, status, player, False)
        return summary_connection(rows, has_next, after, count)

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
        rows, has_next = await summary_page(info, kind, None, None, True, first, after, options)
        count = summary_count(info, kind, None, None, True, options)
        return summary_connection(rows, has_next, after, count)

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
        rows = await info.context.run(
            info.context.app.readmodels.leaderboard, kind.value, limit + 1, offset
        )
        nodes = [
            Rating(
                rank=offset + n + 1,
                player_id=strawberry.ID(r["player_id"]),
                name=r["name"],
                rating=round(r["rating"], 2),
                games=r["games"],
                wins=r["wins"],
                peak=round(r["peak"], 2),
            )
            for n, r in enumerate(rows[:limit])
        ]
        edges = [RatingEdge(cursor=encode_cursor("rank", r.rank), node=r) for r in nodes]
        models = info.context.app.readmodels

        async def count() -> int:
            return await info.context.run(models.count_ratings, kind.value)

        return RatingConnection(
            edges=edges,
            nodes=nodes,
            page_info=PageInfo.of([e.cursor for e in edges], after, len(rows) > limit),
            _count=count,
        )

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
            return ReadModelStatus(
                store_position=models.store_position(),
                read_models=[
                    ReadModelPosition(name=n, position=p) for n, p in models.positions().items()
                ],
            )

        return await info.context.run(status)

    @strawberry.field(
        description="Recompute the hash chain, check the seed against its commitment and replay "
        "every event through the rules; reports the first event that does not hold."
    )
    async def verify_log(self, info: Info, game_id: GameID) -> LogVerification:
        context = info.context
        finding = await context.run(context.app.audit.verify, str(game_id))
        shown = await context.run(
            numbering.verification, context.app.tables, str(game_id), finding, context.caller
        )
        return LogVerification(**shown)

    @strawberry.field(description="A finished game as one portable JSON document.")
    async def export_game(self, info: Info, game_id: GameID) -> JSON:
        return JSON(await info.context.run(info.context.app.archive.export, str(game_id)))


async def wait_for(info: Info, position: int | None) -> None:
    """Read your writes: wait (5 s at most) until the read models have applied ``position``."""
    if position is not None:
        await info.context.run(info.context.app.readmodels.wait_for, position)


async def summary_page(
    info: Info,
    kind: GameKind | None,
    status: GameStatus | None,
    player: strawberry.ID | None,
    lobby: bool,
    first: int | None,
    after: str | None,
    options: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    limit = page_size(first)
    before = decode_cursor("game", after)
    where = filters(kind, status, player, lobby, options)
    rows = await info.context.run(
        lambda: info.context.app.readmodels.summaries(**where, limit=limit + 1, before_seq=before)
    )
    return rows[:limit], len(rows) > limit


def filters(
    kind: GameKind | None,
    status: GameStatus | None,
    player: strawberry.ID | None,
    lobby: bool,
    options: dict[str, Any] | None,
) -> dict[str, Any]:
    """A listing's filters as the read model takes them (``summaries``, ``count_summaries``)."""
    return {
        "kind": kind.value if kind else None,
        "status": status.value if status else None,
        "player_id": str(player) if player else None,
        "lobby": lobby,
        "options": options,
    }


def summary_count(
    info: Info,
    kind: GameKind | None,
    status: GameStatus | None,
    player: strawberry.ID | None,
    lobby: bool,
    options: dict[str, Any] | None = None,
) -> Counter:
    """The ``totalCount`` of a listing: the games its filters match, counted when selected."""

    where = filters(kind, status, player, lobby, options)

    async def count() -> int:
        return await info.context.run(lambda: info.context.app.readmodels.count_summaries(**where))

    return count


def summary_connection(
    rows: list[dict[str, Any]], has_next: bool, after: str | None, count: Counter
) -> GameSummaryConnection:
    edges = [
        GameSummaryEdge(cursor=encode_cursor("game", str(r["seq"])), node=GameSummary.of(r))
        for r in rows
    ]
    return GameSummaryConnection(
        edges=edges,
        nodes=[e.node for e in edges],
        page_info=PageInfo.of([e.cursor for e in edges], after, has_next),
        _count=count,
    )
