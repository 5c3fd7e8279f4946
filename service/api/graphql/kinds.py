"""The games the server plays, as their registrations declare them (``gameKinds``): what a
client needs to offer a game it was not written for (its name, seat range, rules version) and the
web client's board module for it (``/app/boards/<kind>.js``)."""

from __future__ import annotations

import strawberry

from domain import registry
from service.api.graphql.types import GameKind


@strawberry.type(description="A game the server plays (`gameKinds`), as its package declares it.")
class GameKindInfo:
    kind: GameKind = strawberry.field(description="The game's kind.")
    name: str = strawberry.field(description='Its display name ("Amun-Re").')
    summary: str = strawberry.field(description="One line for people choosing a game.")
    min_seats: int = strawberry.field(description="The fewest seats a table of it may have.")
    max_seats: int = strawberry.field(description="The most seats a table of it may have.")
    rules_version: str = strawberry.field(
        description="The rules version new games are created with (`Game.rulesVersion`)."
    )
    board_module: str = strawberry.field(
        description="The URL path of the web client's board for it: an ES module exporting "
        "`drawBoard`, the game's own or, for a game that has none, the generic board (the JSON "
        "`state` and every legal action as a button)."
    )
    has_own_board: bool = strawberry.field(
        description="Whether `boardModule` is the game's own board (false: the generic one)."
    )


def game_kinds() -> list[GameKindInfo]:
    """Every registered game, in the registry's order."""
    return [
        GameKindInfo(
            kind=GameKind(game.kind),
            name=game.name,
            summary=game.summary,
            min_seats=game.rules.min_seats,
            max_seats=game.rules.max_seats,
            rules_version=game.rules.version,
            board_module=f"/app/boards/{game.kind}.js",
            has_own_board=game.web_board is not None,
        )
        for game in registry.games()
    ]
