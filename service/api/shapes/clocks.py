"""The shapes of a timed table's clock (``service.app.clocks.clock_view``, whose keys are the
fields' names): the same for every game kind."""

from __future__ import annotations

from service.api.shapes.declare import Choice, Instant, described, shape


class TimeControl(Choice):
    """How a timed table's clock runs (the table option `clock.mode`)."""

    ids = ("move", "bank")


class ExpiryPolicy(Choice):
    """What happens when a seat's time runs out (`clock.onExpiry`)."""

    ids = ("takeover", "abandon")


@shape("One seat's clock.")
class SeatClock:
    seat: int = described("The seat.")
    remaining_ms: int = described(
        "Time the seat has left now (its whole time for its next turn while it is not on the "
        "clock), in milliseconds."
    )
    deadline: Instant | None = described(
        "When the seat's time runs out, while it must act (else null)."
    )
    running: bool = described("The seat is on the clock now.")
    taken_over: bool = described(
        "A bot plays the seat since its time ran out (zombie), until its player reclaims it."
    )
    timed_out: bool = described(
        "The seat's time ran out at least once in this game (it counts as a loss)."
    )
    thinking_ms: int = described(
        "Time the seat's player spent on its turns so far, in milliseconds."
    )
    turns: int = described("How many of the seat's turns were timed.")


@shape("A timed table's clock: the time control and every seat's time.")
class GameClock:
    mode: TimeControl = described("How the clock runs.")
    move_ms: int | None = described(
        "The time of each move (`MOVE`).", rest_description='The time of each move ("move").'
    )
    bank_ms: int | None = described(
        "Each seat's starting bank (`BANK`).",
        rest_description='Each seat\'s starting bank ("bank").',
    )
    increment_ms: int | None = described(
        "Added to a seat's bank after each of its turns (`BANK`).",
        rest_description='Added to a seat\'s bank after each of its turns ("bank").',
    )
    on_expiry: ExpiryPolicy = described("What a seat's expiry does.")
    bot: str = described("The level of the bot that takes a seat over.")
    now: Instant | None = described(
        "The time the clock was read at (for `clockAt` and replays: the latest time the log had "
        "recorded then; null before the clock first ran).",
        rest_description="The time the clock was read at (for a replay: the latest time the log "
        "had recorded then; null before the clock first ran).",
    )
    deadline: Instant | None = described(
        "The earliest deadline of a seat on the clock (null: nobody is)."
    )
    seats: list[SeatClock] = described("Every seat's clock, by seat.")
