"""Playing: one player action for the caller's seat (docs/API.md ``act``).

The action is decided by the pure engine (``domain.engine.play``) on a private copy of the game,
with the randomness drawn from the table's seed at this version, and recorded with the command
id that makes a retry with the same idempotency key answer what the first attempt did. The
command records only what the caller's action caused (the action, the end of the game if it
came): the bots that become due reply afterwards in their own commands (``bots.driver``).
"""

from __future__ import annotations

import copy
import json
import random
import time
import uuid
from typing import Any

from domain import clock as clocks
from domain import table as tables
from domain.contract import Rules, RulesError
from domain.engine import play
from domain.randomness import rng_for
from domain.registry import rules_for
from service.app import numbering
from service.app.caller import Caller, require_player
from service.app.errors import BadInput, Conflict, Forbidden, GameNotActive, PapyrusError
from service.app.recording import command_time
from service.app.tables import AlreadyDone, Recorded, Tables, finish_if_over, record_steps
from service.store import GameTable
from service.store.failures import is_store_failure

MAX_KEY_LENGTH = 200


class Play:
    """The ``act`` command."""

    def __init__(self, tables_: Tables) -> None:
        self.tables = tables_

    def act(
        self,
        caller: Caller,
        game_id: str,
        action: Any,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        seat: int | None = None,
        typed_kind: str | None = None,
    ) -> tuple[GameTable, list[Recorded]]:
        """The action, timed for the tables' observer with the game's kind and the seat
        (``seat``: which of the caller's seats acts, for a player holding several;
        ``typed_kind``: the game kind a typed action names, BAD_INPUT for a game of another)."""
        acting: list[Any] = ["unknown", None]  # the game's kind and the acting seat, once known
        started, code = time.perf_counter(), "OK"
        try:
            return self._act(
                caller, game_id, action, expected_version, idempotency_key, acting, seat, typed_kind
            )
        except PapyrusError as refused:
            code = refused.code
            raise
        except Exception as failure:
            code = "UNAVAILABLE" if is_store_failure(failure) else "INTERNAL"
            raise
        finally:
            kind, seat = acting
            self.tables.observer.acted(kind, seat, code, time.perf_counter() - started)

    def _act(
        self,
        caller: Caller,
        game_id: str,
        action: Any,
        expected_version: int | None,
        idempotency_key: str | None,
        acting: list[Any],
        wanted: int | None = None,
        typed_kind: str | None = None,
    ) -> tuple[GameTable, list[Recorded]]:
        require_player(caller)
        assert caller.player_id is not None
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadInput('An action is a JSON object with a "type", e.g. {"type": "pass"}.')
        if idempotency_key is not None and not 0 < len(idempotency_key) <= MAX_KEY_LENGTH:
            raise BadInput(f"An idempotency key has 1 to {MAX_KEY_LENGTH} characters.")
        command = f"{caller.player_id}:{idempotency_key or command_id()}"
        span: list[int] = []

        def decide(game: GameTable) -> None:
            acting[0] = game.table.kind
            if command in game.commands:
                raise AlreadyDone
            table = game.table
            if typed_kind is not None and typed_kind != table.kind:
                raise BadInput(
                    f"typedAction is an action of {typed_kind}, but this game is {table.kind}: "
                    f"use the {table.kind} members."
                )
            seats = table.seats_of(caller.player_id or "")
            if not seats:
                raise Forbidden("You do not hold a seat at this table; spectators cannot act.")
            if table.status != tables.ACTIVE:
                raise GameNotActive(f"This game is {table.status.lower()}; no action is possible.")
            rules = rules_for(table.kind)
            seat = pick_seat(rules, table.game, seats, wanted)
            acting[1] = seat
            if table.clock is not None and seat in clocks.expired(
                table.clock, command_time(game, self.tables.clock.now_ms())
            ):  # the expiry is the scheduler's to record (``service.app.clocks``)
                raise PapyrusError(
                    f"Seat {seat}'s time ran out: the table's policy applies now.",
                    code="NOT_YOUR_TURN",
                )
            if expected_version is not None:
                log = numbering.timeline(self.tables, game, caller)  # the caller's log's numbers
                if expected_version != log.version and not self._simultaneous_since(
                    game, seat, log, expected_version
                ):
                    raise Conflict(
                        f"The game is at version {log.version}, not {expected_version}: "
                        "reload it and decide again."
                    )
            first = game.version + 1
            try:
                steps, _ = play(
                    rules,
                    copy.deepcopy(table.game),
                    seat,
                    action,
                    rng_for(table.seed, game.version),
                )
            except RulesError as refused:
                raise PapyrusError(refused.message, code=refused.code, rule=refused.rule) from None
            record_steps(game, steps, seat, action, caller.player_id, command)
            finish_if_over(game, rules)
            span[:] = [first, game.version]

        try:
            game, saved = self.tables.command(game_id, decide)
        except AlreadyDone as done:
            first, last = done.game.commands[command]
            caused = self._caused(done.game, first, last)
            if caused and not same_action(caused[0].action, action):
                raise BadInput(
                    "This idempotency key was already used for another action: "
                    "use a new key for a new action."
                ) from None
            return self.tables.get(game_id), caused
        # every entry the command caused: the caller's action and the end of the game if it came
        return game, [e for e in saved if e.version >= span[0]]

    def _caused(self, game: GameTable, first: int, last: int) -> list[Recorded]:
        """A retried command's entries ``first`` to ``last`` and the end of the game recorded
        in the same save right after them (``finish_if_over``: an entry with no command)."""
        entries = self.tables.events(str(game.id), first - 1, last - first + 2)
        caused = [e for e in entries if e.version <= last]
        caused += [e for e in entries[len(caused) :] if e.type == tables.GAME_FINISHED]
        return caused

    def _simultaneous_since(
        self, game: GameTable, seat: int, log: numbering.Timeline, number: int
    ) -> bool:
        """Not a real conflict: since the caller's entry ``number`` only *other* seats acted in
        a simultaneous step in which ``seat`` already had to act, and nothing was drawn or
        revealed, so the caller decided on what is still true (Amun-Re's secret offering,
        docs/API.md ``act``). Entries the caller does not see (other seats' private steps, and their
        undos) never make a conflict: they change nothing it sees."""
        table = game.table
        if not 0 < number < log.version:
            return False
        version = log.version_of(number)
        if version < table.barrier:
            return False
        kept = {e.version: e for e in table.history if e.version > version}
        ticks: set[int] | None = None  # the clock's entries since (read only if needed)
        for later in range(version + 1, game.version + 1):
            entry = kept.get(later)
            if entry is None:  # a table step (an undo...) or an entry undone since
                if log.sees(later):
                    if ticks is None:
                        ticks = self._clock_ticks(game, version)
                    if later not in ticks:
                        return False
            elif entry.by_seat is None or entry.by_seat == seat:
                return False
        past = self.tables.past(game, version)
        active = rules_for(table.kind).active_seats(past.table.game) if past.table.game else []
        return len(active) > 1 and seat in active

    def _clock_ticks(self, game: GameTable, version: int) -> set[int]:
        """The versions after ``version`` of the clock entries that only follow who must act
        (a turn charged, a turn started: ``domain.clock``); they make no conflict either."""
        if game.table.clock is None:
            return set()
        return {
            e.version
            for e in self.tables.events(str(game.id), after=version)
            if e.type in (clocks.CLOCK_STARTED, clocks.CLOCK_CHARGED)
        }


def same_action(recorded: Any, action: Any) -> bool:
    """Whether a retried action is the one first recorded under its idempotency key (compared
    as JSON: the store gives tuples back as lists)."""
    return json.dumps(recorded, sort_keys=True) == json.dumps(action, sort_keys=True)


def pick_seat(rules: Rules[Any], state: Any, seats: list[int], wanted: int | None = None) -> int:
    """The caller's seat that acts: ``wanted`` if given (it must be one the caller holds),
    else the one that must act now (a player usually holds one seat)."""
    if wanted is not None:
        if wanted not in seats:
            raise Forbidden(f"You do not hold seat {wanted} at this table.")
        return wanted
    active = rules.active_seats(state)
    for seat in seats:
        if seat in active:
            return seat
    return seats[0]


def command_id() -> uuid.UUID:
    """The id of a command sent without an idempotency key: a version-4 uuid whose 128 random
    bits come from the ``random`` module's generator (seeded from the OS, again in a forked
    child), not ``uuid4``'s ``os.urandom``: that system call lets go of the interpreter lock on
    every ``act``, and the worker then queues behind the other threads to get it back. The id
    only tells this caller's commands apart (it follows the caller's player id): no secret."""
    return uuid.UUID(int=random.getrandbits(128), version=4)
