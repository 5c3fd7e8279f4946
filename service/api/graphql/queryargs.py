"""The arguments the queries share (``Query``'s parts: ``gamequeries``, ``readqueries``), each
declared once with its description."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from service.api.graphql.types import GameKind, GameStatus


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
