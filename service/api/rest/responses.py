"""The REST bodies of successful responses as pydantic models: players and their sessions,
games (seats, clock, result, fork source, moves), events and the pages that list them, replays
and verifications.

Each is ``Shown`` (``service.api.rest.models``): built by a presenter, it forbids undeclared
members, so a presenter that adds one without declaring it here fails instead of losing it
silently. FastAPI writes the OpenAPI components from these (one per class, by its name).

The members of a game, a player, a session, a seat, a clock, a result, a fork source, a move,
a verification, an event and a replay step are declared once, for both transports, in
``service.api.shapes`` (``players``, ``games``, ``clocks``, ``events``) and derived here
(``service.api.rest.shaped``); a docstring is REST's own wording of the shape. The pages are
one generic ``Page``.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import Field

from service.api.rest.models import Shown
from service.api.rest.shaped import rest_model
from service.api.shapes import clocks, events, games, players

#: what a page lists
Item = TypeVar("Item")


class Page(Shown, Generic[Item]):
    """A page of a list: its items, then what each kind of page adds to read on. Every page is
    a subclass naming its items, ``class EventPage(Page[GameEvent])``: the OpenAPI component
    takes its name and its docstring as the page's wording."""

    items: list[Item]


class CursorPage(Page[Item], Generic[Item]):
    """A page of a filtered list of games, read on with a cursor (games, summaries)."""

    next_cursor: str | None = Field(description="Send it as `cursor` for the next page.")
    total_count: int = Field(
        description="How many games match the filters, over every page (not this page alone)."
    )


@rest_model(players.Player)
class Player(Shown):
    pass


@rest_model(players.PlayerSession)
class PlayerSession(Shown):
    pass


@rest_model(games.Seat)
class Seat(Shown):
    pass


@rest_model(clocks.SeatClock)
class SeatClock(Shown):
    pass


@rest_model(clocks.GameClock)
class GameClock(Shown):
    """A timed table's clock (the table option `clock`): its time control, every seat's time."""


@rest_model(games.GameResult)
class GameResult(Shown):
    pass


@rest_model(games.ForkSource)
class ForkSource(Shown):
    """The game a sandbox was forked from; ``seats`` are the seats whose view a fork of an
    unfinished game was dealt from (null for the fork of a finished game, which replays it)."""


@rest_model(games.Move)
class Move(Shown):
    pass


@rest_model(games.Game)
class Game(Shown):
    """A game (a table) as the caller may see it: seats, status, the caller's state and legal
    actions, the clock of a timed table."""


@rest_model(events.GameEvent)
class GameEvent(Shown):
    pass


class GamePage(CursorPage[Game]):
    """A page of games, as the caller may see each."""


class ActResult(Shown):
    game: Game
    events: list[GameEvent]


class EventPage(Page[GameEvent]):
    """A page of a game's log, as the caller may see it."""

    next_after: int | None = Field(description="Send it as `after` for the next page.")


@rest_model(events.ReplayStep)
class ReplayStep(Shown):
    """One step of a replay: an event and the state right after it."""


class ReplayPage(Page[ReplayStep]):
    """A page of a replay: the steps after `after`."""

    next_after: int | None = Field(
        None, description="Send it as `after` for the next page (null on the last page)."
    )


@rest_model(games.Verification)
class Verification(Shown):
    pass
