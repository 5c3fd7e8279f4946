"""The table lifecycle: opening a table, taking seats, starting, abandoning (``domain.table``).

A table is open until its last seat is taken; then the game starts by itself in the same
command: the rules' setup, then every automatic step, all drawn from the table's secret seed.
A fork starts from its source instead (``start_fork``).

The server draws every table's secret salt, and the seed of every table whose creator chose none,
from a CSPRNG (``secrets``); a creator-chosen seed (tests, reproducible sandboxes) makes the
table unranked (``domain.table.why_unranked``).
"""

from __future__ import annotations

import copy
import secrets
from datetime import datetime
from typing import Any

from domain import clock as clocks
from domain import table as tables
from domain.audit import FORK
from domain.contract import JSON, Event, Rules, RulesError
from domain.engine import deal_fork, run_automatic
from domain.randomness import SALT_BYTES, rng_for
from domain.redaction import UNSEALED, unsealed
from domain.registry import kinds, rules_for
from service.app.bots import check_strategy
from service.app.bots.bounds import SeatedBots
from service.app.caller import Caller, require_player
from service.app.errors import BadInput, Conflict, Forbidden, GameNotActive, TableFull
from service.app.tables import Tables, finish_if_over
from service.store import GameTable, open_table
from service.store.entries import stamp

MAX_SEED_LENGTH = 200
MAX_REASON_LENGTH = 200


class Seating:
    """Commands that open, fill, start and close tables."""

    def __init__(self, tables_: Tables, bots: SeatedBots | None = None) -> None:
        """``bots``: the per-account bounds on bots checked before one is seated (none by
        default)."""
        self.tables = tables_
        self.bots = bots or SeatedBots()

    def create_game(
        self,
        caller: Caller,
        kind: str,
        seats: int,
        options: JSON | None,
        seed: str | None,
    ) -> GameTable:
        require_player(caller)
        if kind not in kinds():
            raise BadInput(f"Unknown game kind {kind!r}; choose one of {', '.join(kinds())}.")
        rules = rules_for(kind)
        if not rules.min_seats <= seats <= rules.max_seats:
            raise BadInput(
                f"{kind} is played by {rules.min_seats} to {rules.max_seats} players, not {seats}."
            )
        if options is not None and not isinstance(options, dict):
            raise BadInput("options must be a JSON object.")
        options = dict(options or {})
        undo_allowed = options.pop("undo", True)
        if not isinstance(undo_allowed, bool):
            raise BadInput('The table option "undo" is true (default) or false (ranked play).')
        try:
            clock = clocks.control_of(options.pop("clock", None))
        except ValueError as refused:
            raise BadInput(str(refused)) from None
        if clock is not None:
            clock["bot"] = check_strategy(clock["bot"])
        try:
            normalized = rules.normalize_options(seats, options)
        except RulesError as refused:
            raise BadInput(str(refused)) from None
        if seed is not None and (not seed or len(seed) > MAX_SEED_LENGTH):
            raise BadInput(f"A seed is a non-empty string of at most {MAX_SEED_LENGTH} characters.")
        at = stamp(self.tables.clock.now_ms())  # the application's time, as every command's
        game = new_table(
            caller, kind, seats, normalized, seed, undo_allowed=undo_allowed, clock=clock, at=at
        )
        self.tables.save_new(game)
        return game

    def join_game(self, caller: Caller, game_id: str, seat: int | None) -> GameTable:
        require_player(caller)
        assert caller.player_id is not None and caller.name is not None
        return self._take_seat(game_id, seat, caller.player_id, caller.name, None)

    def add_bot(
        self, caller: Caller, game_id: str, seat: int | None, strategy: str | None
    ) -> GameTable:
        """A bot of level ``strategy`` takes a seat, counted against the caller's bounds
        (``bots.bounds``); never the last free seat of a table no person holds a seat at."""
        require_player(caller)
        assert caller.player_id is not None
        strategy = check_strategy(strategy)
        table = self.tables.get(game_id).table
        if caller.player_id != table.created_by and not table.seats_of(caller.player_id):
            raise Forbidden("Only the creator of a table or a seated player may add a bot.")
        with self.bots.seating(caller.player_id, game_id, strategy):
            return self._take_seat(
                game_id, seat, None, f"Bot ({strategy})", strategy, caller.player_id
            )

    def _take_seat(
        self,
        game_id: str,
        seat: int | None,
        player_id: str | None,
        name: str,
        bot: str | None,
        seated_by: str | None = None,
    ) -> GameTable:
        def decide(game: GameTable) -> None:
            table = game.table
            if table.status == tables.ACTIVE or (
                table.status == tables.OPEN and not table.free_seats()
            ):
                raise TableFull("This table is full: every seat is taken.")
            if table.status != tables.OPEN:
                raise GameNotActive(f"This game is {table.status.lower()}; no seat can be taken.")
            free = table.free_seats()
            if seat is None:
                chosen = free[0]
            elif not 0 <= seat < table.seats:
                raise BadInput(f"Seats are numbered 0 to {table.seats - 1}, not {seat}.")
            elif seat not in free:
                raise Conflict(f"Seat {seat} is already taken.")
            else:
                chosen = seat
            if (
                bot is not None
                and free == [chosen]
                and not any(holder is not None and holder.bot is None for holder in table.holders)
            ):
                raise Forbidden(
                    "A table needs at least one player: the last free seat of a table where "
                    "only bots sit cannot go to a bot too (a game of bots alone would play by "
                    "itself, with nobody to play against it or abandon it). Take the seat "
                    "yourself (joinGame), or leave it for another player."
                )
            self.seat(game, chosen, player_id, name, bot, seated_by)

        game, _ = self.tables.command(game_id, decide)
        return game

    def seat(
        self,
        game: GameTable,
        seat: int,
        player_id: str | None,
        name: str,
        bot: str | None,
        seated_by: str | None = None,
    ) -> None:
        """Record a seat taken (a bot's entry names who seated it, ``seated_by``, as its
        actor: the bounds count it against them); the game starts by itself when the last seat
        fills."""
        game.record(
            Event(
                tables.SEAT_TAKEN,
                {"seat": seat, "player_id": player_id, "name": name, "bot": bot}
                # a player's name is left out of the hash, so that deleting the account can
                # erase it (``domain.redaction``); a bot's stays sealed
                | ({UNSEALED: unsealed(tables.SEAT_TAKEN)} if player_id is not None else {}),
                seat,
            ),
            actor=player_id if player_id is not None else seated_by,
        )
        if not game.table.free_seats():
            self._start(game)

    def abandon_game(self, caller: Caller, game_id: str, reason: str | None) -> GameTable:
        """Close a table without a result: its creator while it is open, a seated player after."""
        require_player(caller)
        assert caller.player_id is not None
        if reason is not None and len(reason) > MAX_REASON_LENGTH:
            raise BadInput(f"A reason has at most {MAX_REASON_LENGTH} characters.")

        def decide(game: GameTable) -> None:
            table = game.table
            if table.status not in (tables.OPEN, tables.ACTIVE):
                raise GameNotActive(f"This game is already {table.status.lower()}.")
            seated = bool(table.seats_of(caller.player_id or ""))
            if table.status == tables.OPEN and caller.player_id != table.created_by and not seated:
                raise Forbidden("Only the creator or a seated player may close an open table.")
            if table.status == tables.ACTIVE and not seated:
                raise Forbidden("Only a seated player may abandon a running game.")
            game.record(
                Event(
                    tables.GAME_ABANDONED,
                    {
                        "reason": reason or "abandoned",
                        "by": caller.name,
                        UNSEALED: unsealed(tables.GAME_ABANDONED),  # erasable: see ``seat``
                    },
                ),
                actor=caller.player_id,
            )

        game, _ = self.tables.command(game_id, decide)
        return game

    def _start(self, game: GameTable) -> None:
        table = game.table
        rules = rules_for(table.kind)
        if table.forked_from is not None:
            self._start_fork(game, rules)
            return
        command = f"start:{game.version + 1}"
        game.record(Event(tables.GAME_STARTED, {"seats": table.seats}), command=command)
        rng = rng_for(table.seed, game.version)
        for event in rules.setup(table.seats, table.options, rng):
            game.record(event, command=command)
        steps, _ = run_automatic(rules, copy.deepcopy(game.table.game), rng)
        for step in steps:
            game.record(step.event, automatic=True, command=command)
        finish_if_over(game, rules)

    def _start_fork(self, game: GameTable, rules: Rules[Any]) -> None:
        """A fork starts from its source's game as it was at the fork's version.

        The fork of a finished game replays the source's events. The fork of a game that was
        not finished starts from one ``fork_dealt`` event: the position as the forking seats
        saw it, with everything hidden from them re-dealt from the fork's own seed.
        """
        table = game.table
        forked_from: dict[str, Any] = table.forked_from  # type: ignore[assignment]
        source = self.tables.at_version(forked_from["game_id"], forked_from["version"])
        game.record(Event(tables.GAME_STARTED, {"seats": table.seats}), command=FORK)
        if "seats" not in forked_from:
            for entry in source.table.history:
                game.record(entry.event, automatic=entry.automatic, command=FORK)
        else:
            seats = forked_from["seats"]
            game.record(
                deal_fork(rules, source.table.game, seats, table.seed, game.version), command=FORK
            )
            rng = rng_for(table.seed, game.version)  # the automatic steps, checked by verifyLog
            steps, _ = run_automatic(rules, copy.deepcopy(game.table.game), rng)
            for step in steps:
                game.record(step.event, automatic=True, command=FORK)
        finish_if_over(game, rules)


def new_table(
    caller: Caller,
    kind: str,
    seats: int,
    options: JSON,
    seed: str | None = None,
    *,
    undo_allowed: bool = True,
    forked_from: JSON | None = None,
    clock: JSON | None = None,
    at: datetime | None = None,
) -> GameTable:
    """An open table created by ``caller`` (not saved yet). The salt of its commitment is always
    fresh secret entropy; the seed too unless the creator chose one (the table is then unranked).
    """
    chosen = seed is not None
    seed = seed if seed is not None else secrets.token_hex(16)
    rules = rules_for(kind)
    opened = tables.created(
        kind,
        seats,
        options,
        seed,
        secrets.token_hex(SALT_BYTES),
        caller.player_id,
        rules.version,
        undo_allowed=undo_allowed,
        forked_from=forked_from,
        seed_chosen=chosen,
        clock=clock,
    )
    return open_table(opened, rules_version=rules.version, actor=caller.player_id, seed=seed, at=at)
