"""Forks: an unranked sandbox table that starts from a game at one of its versions.

A finished game is public: its fork replays the source's events up to that version and anybody
may fork it. A game that is not finished may be forked only by one of its players, on what their
seats may see (``Rules.fork``): everything hidden from them is re-dealt from the fork's own seed
when the fork starts, and they are seated at those seats at once.
"""

from __future__ import annotations

from typing import Any

from domain import audit
from domain import table as tables
from service.app import numbering
from service.app.caller import Caller, require_player
from service.app.errors import BadInput, Forbidden
from service.app.seating import Seating, new_table
from service.app.tables import Tables
from service.store import GameTable


class Forks:
    """``forkGame``."""

    def __init__(self, tables_: Tables, seating: Seating) -> None:
        self.tables = tables_
        self.seating = seating

    def fork(self, caller: Caller, game_id: str, at_version: int) -> GameTable:
        """A sandbox starting from the game at ``at_version``: unranked, marked as a fork.
        The forking player keeps the seats whose secrets the fork shows, so no one else ever
        plays their hidden hand."""
        require_player(caller)
        assert caller.player_id is not None and caller.name is not None
        source = self.tables.get(game_id)
        finished = source.table.status == tables.FINISHED
        seats = [] if finished else source.table.seats_of(caller.player_id)
        if not finished and not seats:
            raise Forbidden(
                "Only a player of this game may fork it while it is not finished (the fork "
                "shows what that player's seats may see); anybody may fork it once it is over."
            )
        if not finished:  # a number of the caller's log (``numbering.Timeline``)
            at_version = numbering.timeline(self.tables, source, caller).version_of(at_version)
        past = fork_point(self.tables, source, at_version)
        forked_from: dict[str, Any] = {"game_id": str(source.id), "version": at_version}
        if not finished:
            forked_from["seats"] = seats
        game = new_table(caller, past.kind, past.seats, past.options, forked_from=forked_from)
        for seat in seats:
            self.seating.seat(game, seat, caller.player_id, caller.name, None)
        self.tables.save_new(game)
        return game


def fork_point(tables_: Tables, source: GameTable, at_version: int) -> tables.Table:
    """The source's table at ``at_version``, or ``BAD_INPUT`` if no fork may start there:
    the game was not running, the version is inside an action, or inside a fork's start."""
    past = tables_.past(source, at_version).table  # the source as read: no second load
    if past.status != tables.ACTIVE:
        raise BadInput(f"At version {at_version} the game was not running.")
    this, *following = tables_.events(str(source.id), after=at_version - 1, limit=2)
    if following and this.command == audit.FORK and following[0].command == audit.FORK:
        raise BadInput(
            f"Version {at_version} is part of this fork's start, which came from game "
            f"{source.table.forked_from['game_id']}: fork that game, or this one after "  # type: ignore[index]
            "its start."
        )
    if following and this.command is not None and following[0].command == this.command:
        raise BadInput(
            f"Version {at_version} is in the middle of an action (version "
            f"{following[0].version} belongs to it too); fork at a version that ends one."
        )
    return past
