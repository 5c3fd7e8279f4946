"""The typed clock of a timed table (``Game.clock``, ``Game.clockAt``, ``ReplayStep.clock``):
the same for every game kind, built from ``service.app.clocks.clock_view``. The fields are
declared once, for both transports, in ``service.api.shapes.clocks``."""

from __future__ import annotations

from enum import Enum
from typing import Any

import strawberry

from service.api.graphql.shaped import Derived, build, graphql_type
from service.api.shapes import clocks as shapes


@strawberry.enum(description="How a timed table's clock runs (the table option `clock.mode`).")
class TimeControl(Enum):
    MOVE = strawberry.enum_value("move", description="Every turn has `moveMs` (a deadline).")
    BANK = strawberry.enum_value(
        "bank", description="Each seat has a bank of `bankMs`, plus `incrementMs` per turn."
    )


@strawberry.enum(description="What happens when a seat's time runs out (`clock.onExpiry`).")
class ExpiryPolicy(Enum):
    TAKEOVER = strawberry.enum_value(
        "takeover",
        description="A bot of level `bot` plays the seat until its player reclaims it "
        "(`reclaimSeat`); the game counts as a loss for that player in ratings.",
    )
    ABANDON = strawberry.enum_value(
        "abandon", description="The game is abandoned, recording the seat that timed out."
    )


@graphql_type(shapes.SeatClock)
class SeatClock(Derived):
    pass


@graphql_type(
    shapes.GameClock, enums={shapes.TimeControl: TimeControl, shapes.ExpiryPolicy: ExpiryPolicy}
)
class GameClock(Derived):
    pass


def game_clock(view: dict[str, Any] | None) -> GameClock | None:
    """The typed clock of ``clock_view``'s JSON (``None``: no clock), whose keys are the
    fields' names: the times in milliseconds since the epoch become instants."""
    return None if view is None else build(GameClock, view)
