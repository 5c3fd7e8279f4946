"""Undo: taking actions back, by the table's undo policy (``domain.undo``).

One's own last actions go back at once; across another seat's action every other human seat
must accept first (bots accept). An undo never deletes anything: it records ``actions_undone``
and the undone entries stay in the log, marked.
"""

from __future__ import annotations

from domain import table as tables
from domain import undo
from domain.contract import Event
from service.app import numbering
from service.app.caller import Caller, require_player
from service.app.errors import BadInput, Forbidden, PapyrusError
from service.app.tables import Tables
from service.store import GameTable


class IllegalUndo(PapyrusError):
    code = "ILLEGAL_ACTION"


class Undo:
    """``requestUndo`` and ``answerUndo``."""

    def __init__(self, tables_: Tables) -> None:
        self.tables = tables_

    def request_undo(self, caller: Caller, game_id: str, to_version: int | None) -> GameTable:
        require_player(caller)
        assert caller.player_id is not None

        def decide(game: GameTable) -> None:
            table = game.table
            seats = table.seats_of(caller.player_id or "")
            if not seats:
                raise Forbidden("Only a seated player may ask to take actions back.")
            log = numbering.timeline(self.tables, game, caller)  # versions: its log's numbers
            wanted = to_version
            if wanted is not None and wanted >= 0:
                wanted = log.position(wanted)
            seat, target = undo_target(table, seats, wanted)
            verdict = undo.judge(table, seat, target, log.number)
            if verdict.allowed and undo.leaves_simultaneous_step(table, seat, target):
                verdict = undo.refuse(undo.SIMULTANEOUS)
            if not verdict.allowed:
                if not table.undo_allowed:
                    raise Forbidden(verdict.reason)
                raise IllegalUndo(verdict.reason, rule="undo policy")
            if verdict.immediate:
                take_back(game, seat, target, None, caller.player_id)
                return
            game.record(
                Event(
                    tables.UNDO_REQUESTED,
                    {"to_version": target, "seat": seat, "waiting": list(verdict.waiting)},
                    seat,
                ),
                by_seat=seat,
                actor=caller.player_id,
            )

        game, _ = self.tables.command(game_id, decide)
        return game

    def answer_undo(self, caller: Caller, game_id: str, accept: bool) -> GameTable:
        require_player(caller)
        assert caller.player_id is not None

        def decide(game: GameTable) -> None:
            table = game.table
            request = table.undo_request
            if request is None:
                raise IllegalUndo("There is no undo request to answer.", rule="undo policy")
            asked = [s for s in table.seats_of(caller.player_id or "") if s in request.waiting]
            if not asked:
                raise Forbidden("Your answer is not needed for this undo request.")
            for seat in asked:
                game.record(
                    Event(
                        tables.UNDO_ANSWERED,
                        {"request": request.version, "seat": seat, "accept": accept},
                        seat,
                    ),
                    by_seat=seat,
                    actor=caller.player_id,
                )
            pending = game.table.undo_request
            if accept and pending is not None and not pending.waiting:
                take_back(game, request.seat, request.to_version, request.version, None)

        game, _ = self.tables.command(game_id, decide)
        return game


def undo_target(table: tables.Table, seats: list[int], to_version: int | None) -> tuple[int, int]:
    """The requesting seat and the version to go back to (default: its last own action)."""
    if to_version is not None:
        if to_version < 0:
            raise BadInput("toVersion must not be negative.")
        last = table.history[-1] if table.history else None
        owner = last.by_seat if last is not None and last.by_seat in seats else seats[0]
        return owner, to_version
    for seat in seats:
        target = undo.last_own_start(table, seat)
        if target is not None:
            return seat, target
    raise IllegalUndo(
        "Your seat has no action of its own to take back at the moment.", rule="undo policy"
    )


def take_back(
    game: GameTable, seat: int, to_version: int, request: int | None, actor: str | None
) -> None:
    """Record the undo of every entry after ``to_version``; the bots then play on."""
    undone = undo.undone_by(game.table, seat, to_version)
    game.record(
        Event(
            tables.ACTIONS_UNDONE,
            {"to_version": to_version, "seat": seat, "request": request, "undone": undone},
            seat,
        ),
        by_seat=seat,
        actor=actor,
    )
