"""The shapes of a game's log that both transports show: an event as the caller may see it
(``service.app.views.event``, whose keys are the fields' names) and a step of a replay."""

from __future__ import annotations

from service.api.shapes.clocks import GameClock
from service.api.shapes.declare import Json, Moment, Own, described, shape


@shape("One entry of a game's log, as the caller may see it.")
class GameEvent:
    version: int = described(
        "The event's number in the game's log (1 = first; `Game.version` is the last)."
    )
    at: Moment = described("When the event was recorded (UTC).")
    seat: int | None = described("The seat the event is about; null for events no seat caused.")
    type: str = described("The event type in snake_case (each game's rules spec names them).")
    data: Json = described(
        "The event's data, redacted for the caller (hidden information becomes a count or is "
        "left out)."
    )
    automatic: bool = described(
        "True for a step nobody chose (the only legal option, applied at once)."
    )
    by_seat: int | None = described(
        "The seat whose action recorded this event (null for table steps)."
    )
    undone: bool = described("Taken back by a later undo.")
    hash: str = described(
        "SHA-256 sealing this event to the one before (see verifyLog).",
        rest_description="SHA-256 sealing this event to the one before (see "
        "`GET /games/{id}/verify`).",
    )


@shape("One step of `Game.replay`: an event and the state after it.")
class ReplayStep:
    event: GameEvent = described("The event (as the caller may see it).")
    state: Json = described("The state right after the event.")
    view: Own = described(
        "The state right after the event as typed GraphQL (the same information as `state`); "
        "null before the game starts.",
        rest=False,
        default=None,
    )
    clock: GameClock | None = described(
        "A timed table's clock right after the event (each seat's thinking time so far and "
        "remaining time, from the log's own times); null without a time control.",
        rest_description="A timed table's clock right after the event (null: no clock).",
        default=None,
    )
