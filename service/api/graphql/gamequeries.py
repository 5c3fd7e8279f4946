"""The queries of games and catalogs: the caller, the action and board catalogs, a game by its
id (``game``, Relay's ``node``) and the listing of games (docs/API.md "Games", "Players").

``GameQueries`` is a part of the schema's ``Query`` type (``service.api.graphql.queries``
combines it with ``ReadModelQueries``): it is never a type of the schema by itself, and its
fields keep their place in ``Query``.
"""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.board import DESCRIPTION as CATALOG_DESCRIPTION
from service.api.graphql.board import board_catalog
from service.api.graphql.catalog import ActionSpec, action_catalog
from service.api.graphql.context import Info
from service.api.graphql.game import Game, current_table, game_of
from service.api.graphql.kinds import GameKindInfo, game_kinds
from service.api.graphql.pages import Connection, paged
from service.api.graphql.queryargs import (
    After,
    First,
    Kind,
    KindFilter,
    PlayerFilter,
    StatusFilter,
    argument,
)
from service.api.graphql.readqueries import listing
from service.api.graphql.types import GameID, Node, Player
from service.app import numbering
from service.app.errors import NotFound

MinVersion = Annotated[
    int | None,
    argument(
        "Read your own writes on any server: the game at least at this version of your log "
        "(an `act`'s `game.version`). A server that has not heard of it yet asks the store."
    ),
]


@paged(
    "A page of games (Relay connection).",
    edges="The page's games with cursors.",
    nodes="The page's games.",
    total_count="How many games match the filters, over every page (not this page alone).",
    edge="A game of a page, with its cursor.",
    cursor="Pass as `after` to read the games after it.",
    node="The game.",
)
class GameConnection(Connection[Game]):
    """A page of ``games``."""


@strawberry.type
class GameQueries:
    @strawberry.field(description="The caller; null for a spectator.")
    def me(self, info: Info) -> Player | None:
        return Player.of(info.context.caller)

    @strawberry.field(
        description="Every action of a game kind: its parameters, label, rule and JSON Schema "
        "(the vocabulary of `legalActions` and `act`)."
    )
    def action_catalog(self, kind: Kind) -> list[ActionSpec]:
        return action_catalog(kind)

    @strawberry.field(description=CATALOG_DESCRIPTION)
    def catalog(self, kind: Kind) -> JSON:
        return board_catalog(kind)

    @strawberry.field(
        description="Every game the server plays, as its package registers it: names, seat "
        "ranges, rules versions and the web client's board for each."
    )
    def game_kinds(self) -> list[GameKindInfo]:
        return game_kinds()

    @strawberry.field(description="The game as the caller may see it; null if there is none.")
    async def game(self, info: Info, id: GameID, min_version: MinVersion = None) -> Game | None:
        context = info.context
        try:
            found = await current_table(info, str(id))
            if min_version is not None:
                found = await context.run(
                    numbering.at_least, context.app.tables, found, context.caller, min_version
                )
        except NotFound:
            return None
        return game_of(info, found)  # the caller is settled before any resolver runs

    @strawberry.field(
        description="The object with this global id (Relay), or null: every node is a `Game`."
    )
    async def node(
        self, info: Info, id: Annotated[strawberry.ID, argument("A global id (a game's id).")]
    ) -> Node | None:
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
        rows, more, count = await listing(info, first, after, kind, status, player)
        tables = info.context.app.tables
        nodes = [game_of(info, await info.context.run(tables.get, r["game_id"])) for r in rows]
        return GameConnection.of(
            nodes, [r["seq"] for r in rows], prefix="game", after=after, more=more, count=count
        )
