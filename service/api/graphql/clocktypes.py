"""The typed clock of a timed table (``Game.clock``, ``Game.clockAt``, ``ReplayStep.clock``):
the same for every game kind, built from ``service.app.clocks.clock_view``."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import Enum
from typing import Any

import strawberry


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


@strawberry.type(description="One seat's clock.")
class SeatClock:
    seat: int = strawberry.field(description="The seat.")
    remaining_ms: int = strawberry.field(
        description="Time the seat has left now (its whole time for its next turn while it "
        "is not on the clock), in milliseconds."
    )
    deadline: datetime | None = strawberry.field(
        description="When the seat's time runs out, while it must act (else null)."
    )
    running: bool = strawberry.field(description="The seat is on the clock now.")
    taken_over: bool = strawberry.field(
        description="A bot plays the seat since its time ran out (zombie), until its player "
        "reclaims it."
    )
    timed_out: bool = strawberry.field(
        description="The seat's time ran out at least once in this game (it counts as a loss)."
    )
    thinking_ms: int = strawberry.field(
        description="Time the seat's player spent on its turns so far, in milliseconds."
    )
    turns: int = strawberry.field(description="How many of the seat's turns were timed.")


@strawberry.type(description="A timed table's clock: the time control and every seat's time.")
class GameClock:
    mode: TimeControl = strawberry.field(description="How the clock runs.")
    move_ms: int | None = strawberry.field(description="The time of each move (`MOVE`).")
    bank_ms: int | None = strawberry.field(description="Each seat's starting bank (`BANK`).")
    increment_ms: int | None = strawberry.field(
        description="Added to a seat's bank after each of its turns (`BANK`)."
    )
    on_expiry: ExpiryPolicy = strawberry.field(description="What a seat's expiry does.")
    bot: str = strawberry.field(description="The level of the bot that takes a seat over.")
    now: datetime | None = strawberry.field(
        description="The time the clock was read at (for `clockAt` and replays: the latest "
        "time the log had recorded then; null before the clock first ran)."
    )
    deadline: datetime | None = strawberry.field(
        description="The earliest deadline of a seat on the clock (null: nobody is)."
    )
    seats: list[SeatClock] = strawberry.field(description="Every seat's clock, by seat.")


def instant(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, UTC)


def game_clock(view: dict[str, Any] | None) -> GameClock | None:
    """The typed clock of ``clock_view``'s JSON (``None``: no clock)."""
    if view is None:
        return None
    return GameClock(
        mode=TimeControl(view["mode"]),
        move_ms=view["move_ms"],
        bank_ms=view["bank_ms"],
        increment_ms=view["increment_ms"],
        on_expiry=ExpiryPolicy(view["on_expiry"]),
        bot=view["bot"],
        now=instant(view["now"]),
        deadline=instant(view["deadline"]),
        seats=[
            SeatClock(
                seat=s["seat"],
                remaining_ms=s["remaining_ms"],
                deadline=instant(s["deadline"]),
                running=s["running"],
                taken_over=s["taken_over"],
                timed_out=s["timed_out"],
                thinking_ms=s["thinking_ms"],
                turns=s["turns"],
            )
            for s in view["seats"]
        ],
    )
