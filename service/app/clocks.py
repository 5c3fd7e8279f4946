"""Timed tables: the expiry and reclaim commands and the clock as callers read it
(``domain.clock`` holds the rules of the clock itself; ``service.app.scheduler`` the scheduler
that fires expirations, ``Scheduler``, also importable from here).

**Expiry.** ``Clocks.expire(game_id)`` is a command like any other (``Tables.command``): it
loads the game, asks the pure clock which seats are past their deadline at the application's
``now``, and records ``time_expired`` for each, earliest deadline first, then what the table's
policy says: ``seat_taken_over`` (a bot of the table's level plays the seat from then on:
``Table.bot_level``) or ``game_abandoned`` (``reason: "time"``, ``timed_out``: the seat).
Once every person's seat is taken over, no bot plays the game (nobody plays against them); it
waits a seat's full time for one of them to reclaim their seat, then ``expire`` ends it:
``game_abandoned`` with the reason ``only bots left`` (``Table.unattended_until``).
Several processes may fire the same expiry: the store's version key lets exactly one save
through, and the loser decides again on the fresh game, finds no seat past its deadline and
records nothing.

**Reclaim.** A taken-over seat's player takes it back with ``reclaimSeat`` (an explicit
command: a bot plays a taken-over seat at once whenever it must act, so the player would never
find the seat waiting for them). The bot stops; the player is on the clock again from the seat's
next turn (at once if the seat must act now), with a full move or a full bank. The game still
counts as a loss for them in ratings.
"""

from __future__ import annotations

from domain import clock as clocks
from domain import table as tables
from domain.contract import JSON, Event
from service.app.caller import Caller, require_player
from service.app.errors import Conflict, Forbidden, GameNotActive
from service.app.recording import command_time
from service.app.scheduler import Scheduler as Scheduler
from service.app.tables import Recorded, Tables
from service.store import GameTable


class NothingToDo(Exception):
    """The command found nothing to record (no seat past its deadline, say)."""


class Clocks:
    """The commands and reads of timed tables."""

    def __init__(self, tables_: Tables) -> None:
        self.tables = tables_

    def now(self) -> int:
        return self.tables.clock.now_ms()

    def expire(self, game_id: str) -> list[Recorded]:
        """Record the expiry of every seat of the game past its deadline now (none: nothing is
        recorded and ``[]`` returned)."""

        def decide(game: GameTable) -> None:
            table = game.table
            clock = table.clock
            if clock is None or table.status != tables.ACTIVE:
                raise NothingToDo
            now = command_time(game, self.now())
            late = clocks.expired(clock, now)
            if not late:
                until = table.unattended_until()
                if until is None or now < until:
                    raise NothingToDo
                # every person's seat is taken over and none came back: nobody plays it
                at = max(now, clock.now)
                game.record(tables.abandoned_for_bots(at), command=f"clock:{game.version + 1}")
                return
            command = f"clock:{game.version + 1}"
            for seat in late:
                if game.table.status != tables.ACTIVE:
                    break
                for event in clocks.expire(clock, seat, now):
                    game.record(event, command=command)
                if clock.control["on_expiry"] == clocks.ABANDON:
                    game.record(abandoned_for_time(seat), command=command)

        try:
            _, saved = self.tables.command(game_id, decide)
        except NothingToDo:
            return []
        return saved

    def reclaim(self, caller: Caller, game_id: str, seat: int | None = None) -> GameTable:
        """The caller takes back their seat that a bot plays since their time ran out."""
        require_player(caller)
        player = caller.player_id or ""

        def decide(game: GameTable) -> None:
            table = game.table
            held = table.seats_of(player)
            if not held:
                raise Forbidden("You do not hold a seat at this table.")
            if table.status != tables.ACTIVE:
                raise GameNotActive(f"This game is {table.status.lower()}; no seat to reclaim.")
            if seat is not None and seat not in held:
                raise Forbidden(f"You do not hold seat {seat} at this table.")
            taken = table.clock.taken_over if table.clock is not None else []
            mine = [s for s in ([seat] if seat is not None else held) if s in taken]
            if not mine or table.clock is None:
                raise Conflict("None of your seats is taken over by a bot: nothing to reclaim.")
            for chosen in mine:
                now = command_time(game, self.now())
                game.record(clocks.reclaim(table.clock, chosen, now), actor=player)

        game, _ = self.tables.command(game_id, decide)
        return game


def abandoned_for_time(seat: int) -> Event:
    return Event(
        tables.GAME_ABANDONED,
        {"reason": clocks.TIME_REASON, "timed_out": seat, "by": None},
    )


def clock_view(table: tables.Table, now: int) -> JSON | None:
    """The table's clock as every caller may see it at ``now`` (``None``: no clock): the time
    control, each seat's remaining time, deadline, thinking time and take-over, and the
    earliest deadline."""
    clock = table.clock
    if clock is None:
        return None
    control = clock.control
    running = table.status == tables.ACTIVE
    seats = []
    for seat in range(table.seats):
        used, turns = clocks.thinking(clock, seat)
        seats.append(
            {
                "seat": seat,
                "remaining_ms": clocks.remaining(clock, seat, now),
                "deadline": clocks.deadline(clock, seat) if running else None,
                "running": running and seat in clock.started,
                "taken_over": seat in clock.taken_over,
                "timed_out": seat in clock.timed_out,
                "thinking_ms": used,
                "turns": turns,
            }
        )
    return {
        "mode": control["mode"],
        "move_ms": control.get("move_ms"),
        "bank_ms": control.get("bank_ms"),
        "increment_ms": control.get("increment_ms"),
        "on_expiry": control["on_expiry"],
        "bot": control["bot"],
        "now": now if now > 0 else None,  # a log that has recorded no time yet
        "deadline": clocks.next_deadline(clock) if running else None,
        "seats": seats,
    }


def clock_view_at(table: tables.Table) -> JSON | None:
    """The clock of a table as it was at some version of its log (a replay, ``clockAt``): read
    at the latest time the log had recorded then."""
    return None if table.clock is None else clock_view(table, table.clock.now)
