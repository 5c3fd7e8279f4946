"""The application layer: load, decide, save (STYLE.md, cosmicpython's handler shape).

Every command loads the game table from the store, decides with the pure domain
(``domain.engine``), records the resulting events on the aggregate and saves them in one
transaction. A concurrent writer makes the save fail on the version key; the command is then
decided again on the fresh state (or answered with ``CONFLICT`` when the client named the
version it expected). Idempotency keys are recorded in the events themselves, so a retried
command finds its original result in the game it already changed.
"""

from __future__ import annotations

import copy
import random
import re
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from domain import table as tables
from domain.audit import FORK
from domain.contract import JSON, Event, Rules, RulesError
from domain.engine import Step, apply_events, deal_fork, play, run_automatic
from domain.log import Entry
from domain.randomness import commitment, rng_for
from domain.registry import KINDS, rules_for
from service.app.errors import (
    BadInput,
    Conflict,
    Forbidden,
    GameNotActive,
    NotFound,
    PapyrusError,
    Unauthenticated,
)
from service.store import (
    Credential,
    GameTable,
    Player,
    credential_id,
    entry_of,
    open_table,
    token_hash,
)
from service.store.database import Store

MAX_RETRIES = 8
BOT_STRATEGIES = ("random",)
MAX_NAME_LENGTH = 40
MAX_KEY_LENGTH = 200
#: signed-in callers remembered per process (a miss costs two reads)
TOKEN_CACHE = 10_000


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is asking: a registered player, or nobody (a spectator)."""

    player_id: str | None = None
    name: str | None = None

    @property
    def is_player(self) -> bool:
        return self.player_id is not None


SPECTATOR = Caller()


Recorded = Entry  # a stored event, as read back from the log


Listener = Callable[[str, int], None]


class Games:
    """Commands and queries on games and players, over one ``Store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._listeners: list[Listener] = []
        self._tokens: OrderedDict[str, Caller] = OrderedDict()  # token hash -> caller (LRU)
        self._tokens_lock = threading.Lock()
        self._game_locks = [threading.Lock() for _ in range(64)]

    # -- notifications ------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """``listener(game_id, version)`` is called after each successful save."""
        self._listeners.append(listener)

    def _saved(self, game: GameTable) -> None:
        for listener in self._listeners:
            listener(str(game.id), game.version)

    # -- players ------------------------------------------------------------------------------

    def register_player(self, name: str) -> tuple[Caller, str]:
        name = " ".join(name.split())
        if not name:
            raise BadInput("A player name must not be empty.")
        if len(name) > MAX_NAME_LENGTH:
            raise BadInput(f"A player name has at most {MAX_NAME_LENGTH} characters.")
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        player = Player(name=name, token_hash=hashed)
        credential = Credential(token_hash=hashed, player_id=str(player.id))
        self.store.save(player, credential)
        return Caller(str(player.id), name), token

    def authenticate(self, authorization: str | None) -> Caller:
        """The caller named by an ``Authorization: Bearer <token>`` value (spectator if none)."""
        if authorization is None or not authorization.strip():
            return SPECTATOR
        match = re.fullmatch(r"\s*Bearer\s+(\S+)\s*", authorization, flags=re.IGNORECASE)
        if match is None:
            raise Unauthenticated("The Authorization header must be 'Bearer <token>'.")
        hashed = token_hash(match.group(1))
        with self._tokens_lock:
            known = self._tokens.get(hashed)
            if known is not None:
                self._tokens.move_to_end(hashed)
        if known is not None:
            return known
        try:
            credential: Any = self.store.repository.get(credential_id(hashed))
            player: Any = self.store.repository.get(uuid.UUID(credential.player_id))
        except AggregateNotFoundError:
            raise Unauthenticated("This token is not valid; register to get one.") from None
        caller = Caller(str(player.id), player.name)
        with self._tokens_lock:
            self._tokens[hashed] = caller
            while len(self._tokens) > TOKEN_CACHE:
                self._tokens.popitem(last=False)
        return caller

    def player_name(self, player_id: str) -> str | None:
        try:
            name: str = self.store.repository.get(uuid.UUID(player_id)).name
            return name
        except (AggregateNotFoundError, ValueError):
            return None

    # -- queries ------------------------------------------------------------------------------

    def get(self, game_id: str) -> GameTable:
        """The current game, as a private copy that later events cannot change under a reader."""
        try:
            ident = uuid.UUID(str(game_id))
        except ValueError:
            raise NotFound(f"There is no game with id {game_id!r}.") from None
        try:
            game: Any = self._copy_of(ident)
        except AggregateNotFoundError:
            raise NotFound(f"There is no game with id {game_id!r}.") from None
        if not isinstance(game, GameTable):
            raise NotFound(f"There is no game with id {game_id!r}.")
        return game

    def events(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Recorded]:
        """Stored events after version ``after`` (one query; the game is not loaded)."""
        try:
            ident = uuid.UUID(str(game_id))
        except ValueError:
            raise NotFound(f"There is no game with id {game_id!r}.") from None
        stored = list(self.store.events.get(ident, gt=after, limit=limit))
        if (not stored and after == 0) or not all(
            isinstance(e, GameTable.Opened | GameTable.Recorded) for e in stored
        ):  # the id of a player, say, is not the id of a game
            raise NotFound(f"There is no game with id {game_id!r}.")
        return [entry_of(e) for e in stored]

    def at_version(self, game_id: str, version: int) -> GameTable:
        game = self.get(game_id)
        if not 1 <= version <= game.version:
            raise BadInput(f"Version must be between 1 and {game.version}, not {version}.")
        past: GameTable = self.store.repository.get(game.id, version=version)
        return past

    # -- commands -----------------------------------------------------------------------------

    def create_game(
        self,
        caller: Caller,
        kind: str,
        seats: int,
        options: JSON | None,
        seed: str | None,
    ) -> GameTable:
        require_player(caller)
        if kind not in KINDS:
            raise BadInput(f"Unknown game kind {kind!r}; choose one of {', '.join(KINDS)}.")
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
            normalized = rules.normalize_options(seats, options)
        except RulesError as refused:
            raise BadInput(str(refused)) from None
        if seed is not None and (not seed or len(seed) > 200):
            raise BadInput("A seed is a non-empty string of at most 200 characters.")
        game = self.new_table(caller, kind, seats, normalized, seed, undo_allowed=undo_allowed)
        self.save_new(game)
        return game

    def new_table(
        self,
        caller: Caller,
        kind: str,
        seats: int,
        options: JSON,
        seed: str | None = None,
        *,
        undo_allowed: bool = True,
        forked_from: JSON | None = None,
    ) -> GameTable:
        """An open table created by ``caller`` (not saved yet); a fresh secret seed if none."""
        seed = seed if seed is not None else secrets.token_hex(16)
        rules = rules_for(kind)
        opened = tables.created(
            kind,
            seats,
            options,
            seed,
            commitment(seed),
            caller.player_id,
            rules.version,
            undo_allowed=undo_allowed,
            forked_from=forked_from,
        )
        return open_table(opened, rules_version=rules.version, actor=caller.player_id, seed=seed)

    def save_new(self, game: GameTable) -> None:
        """Store a table made here (not through ``command``) and tell the subscribers."""
        self.store.save(game)
        self._saved(game)

    def seat(
        self, game: GameTable, seat: int, player_id: str | None, name: str, bot: str | None
    ) -> None:
        """Record a seat taken; the game starts by itself when the last seat fills."""
        game.record(
            Event(
                tables.SEAT_TAKEN,
                {"seat": seat, "player_id": player_id, "name": name, "bot": bot},
                seat,
            ),
            actor=player_id,
        )
        if not game.table.free_seats():
            self._start(game)

    def join_game(self, caller: Caller, game_id: str, seat: int | None) -> GameTable:
        require_player(caller)
        assert caller.player_id is not None and caller.name is not None
        return self._take_seat(game_id, seat, caller.player_id, caller.name, None)

    def add_bot(
        self, caller: Caller, game_id: str, seat: int | None, strategy: str | None
    ) -> GameTable:
        require_player(caller)
        strategy = strategy or "random"
        if strategy not in BOT_STRATEGIES:
            raise BadInput(
                f"Unknown bot strategy {strategy!r}; choose one of {', '.join(BOT_STRATEGIES)}."
            )
        game = self.get(game_id)
        table = game.table
        if caller.player_id != table.created_by and not table.seats_of(caller.player_id or ""):
            raise Forbidden("Only the creator of a table or a seated player may add a bot.")
        return self._take_seat(game_id, seat, None, f"Bot ({strategy})", strategy)

    def _take_seat(
        self, game_id: str, seat: int | None, player_id: str | None, name: str, bot: str | None
    ) -> GameTable:
        def decide(game: GameTable) -> None:
            table = game.table
            if table.status != tables.OPEN:
                raise GameNotActive("This table is no longer open: every seat is taken.")
            free = table.free_seats()
            if seat is None:
                chosen = free[0]
            elif not 0 <= seat < table.seats:
                raise BadInput(f"Seats are numbered 0 to {table.seats - 1}, not {seat}.")
            elif seat not in free:
                raise Conflict(f"Seat {seat} is already taken.")
            else:
                chosen = seat
            self.seat(game, chosen, player_id, name, bot)
            self.run_bots(game)

        game, _ = self.command(game_id, decide)
        return game

    def abandon_game(self, caller: Caller, game_id: str, reason: str | None) -> GameTable:
        """Close a table without a result: its creator while it is open, a seated player after."""
        require_player(caller)
        assert caller.player_id is not None
        if reason is not None and len(reason) > 200:
            raise BadInput("A reason has at most 200 characters.")

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
                Event(tables.GAME_ABANDONED, {"reason": reason or "abandoned", "by": caller.name}),
                actor=caller.player_id,
            )

        game, _ = self.command(game_id, decide)
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
        events = rules.setup(table.seats, table.options, rng)
        for event in events:
            game.record(event, command=command)
        steps, _ = run_automatic(rules, copy.deepcopy(game.table.game), rng)
        for step in steps:
            game.record(step.event, automatic=True, command=command)
        self._finish_if_over(game, rules)

    def _start_fork(self, game: GameTable, rules: Rules[Any]) -> None:
        """A fork starts from its source's game as it was at the fork's version.

        The fork of a finished game replays the source's events. The fork of a game that was
        not finished starts from one ``fork`` event: the position as the forking seats saw it,
        with everything hidden from them re-dealt from the fork's own seed.
        """
        table = game.table
        forked_from: dict[str, Any] = table.forked_from  # type: ignore[assignment]
        source = self.at_version(forked_from["game_id"], forked_from["version"])
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
        self._finish_if_over(game, rules)

    def act(
        self,
        caller: Caller,
        game_id: str,
        action: Any,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> tuple[GameTable, list[Recorded]]:
        require_player(caller)
        assert caller.player_id is not None
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadInput('An action is a JSON object with a "type", e.g. {"type": "pass"}.')
        if idempotency_key is not None and not 0 < len(idempotency_key) <= MAX_KEY_LENGTH:
            raise BadInput(f"An idempotency key has 1 to {MAX_KEY_LENGTH} characters.")
        command = (
            f"{caller.player_id}:{idempotency_key}"
            if idempotency_key is not None
            else f"{caller.player_id}:{uuid.uuid4()}"
        )
        span: list[int] = []

        def decide(game: GameTable) -> None:
            if command in game.commands:
                raise AlreadyDone
            table = game.table
            seats = table.seats_of(caller.player_id or "")
            if not seats:
                raise Forbidden("You do not hold a seat at this table; spectators cannot act.")
            if table.status != tables.ACTIVE:
                raise GameNotActive(f"This game is {table.status.lower()}; no action is possible.")
            rules = rules_for(table.kind)
            seat = pick_seat(rules, table.game, seats)
            if (
                expected_version is not None
                and expected_version != game.version
                and not self._simultaneous_since(game, seat, expected_version)
            ):
                raise Conflict(
                    f"The game is at version {game.version}, not {expected_version}: "
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
            self._record_steps(game, steps, seat, action, caller.player_id, command)
            self._finish_if_over(game, rules)
            span[:] = [first, game.version]
            self.run_bots(game)

        try:
            game, saved = self.command(game_id, decide)
        except AlreadyDone as done:
            first, last = done.game.commands[command]
            return self.get(game_id), self._range(game_id, first, last)
        return game, [e for e in saved if span[0] <= e.version <= span[1]]

    def command(
        self, game_id: str, decide: Callable[[GameTable], None]
    ) -> tuple[GameTable, list[Entry]]:
        """Load, decide, save (the shape of every command). ``decide`` records the entries on
        the game or raises; when another writer saved first, the command is decided again on
        the fresh game (whose own checks tell a real conflict from a harmless one)."""
        for _ in range(MAX_RETRIES):
            game = self._load_for_command(game_id)
            try:
                decide(game)
            except AlreadyDone as done:
                done.game = game
                raise
            saved = self._try_save(game)
            if saved is not None:
                return game, saved
        raise Conflict("The game changed too often while deciding; try again.")

    # -- internals ----------------------------------------------------------------------------

    def _simultaneous_since(self, game: GameTable, seat: int, version: int) -> bool:
        """Not a real conflict: since ``version`` only *other* seats acted in a simultaneous
        step in which ``seat`` already had to act, and nothing was drawn or revealed, so the
        caller decided on what is still true (Amun-Re's secret offering, API.md ``act``)."""
        table = game.table
        if not 0 < version < game.version or version < table.barrier:
            return False
        since = [e for e in table.history if e.version > version]
        if len(since) != game.version - version:  # a table step (an undo...) came in between
            return False
        if any(e.by_seat is None or e.by_seat == seat for e in since):
            return False
        past: Any = self.store.repository.get(game.id, version=version)
        active = rules_for(table.kind).active_seats(past.table.game) if past.table.game else []
        return len(active) > 1 and seat in active

    def _copy_of(self, ident: uuid.UUID) -> Any:
        """A private copy of the cached aggregate. The cache fast-forwards its aggregate in
        place, and the library copies it after releasing its own lock: both happen here under
        one lock per game, so no copy is taken half-way through a fast-forward."""
        with self._game_locks[ident.int % len(self._game_locks)]:
            return self.store.repository.get(ident)

    def _load_for_command(self, game_id: str) -> GameTable:
        """A private copy of the game to decide on (the cached one stays untouched)."""
        missing = NotFound(f"There is no game with id {game_id!r}.")
        try:
            game: Any = self._copy_of(uuid.UUID(str(game_id)))
        except (AggregateNotFoundError, ValueError):
            raise missing from None
        if not isinstance(game, GameTable):
            raise missing
        return game

    def _try_save(self, game: GameTable) -> list[Recorded] | None:
        """The saved events, or ``None`` when another writer got there first."""
        try:
            recordings = self.store.save(game)
        except IntegrityError:
            return None
        self._saved(game)
        return [entry_of(r.domain_event) for r in recordings]

    def _range(self, game_id: str, first: int, last: int) -> list[Recorded]:
        return [e for e in self.events(game_id, after=first - 1, limit=last - first + 1)]

    def _record_steps(
        self,
        game: GameTable,
        steps: Sequence[Step],
        seat: int,
        action: JSON,
        actor: str | None,
        command: str,
    ) -> None:
        """Record one decided command: its action is kept on its first entry (for audits)."""
        for number, step in enumerate(steps):
            game.record(
                step.event,
                automatic=step.automatic,
                by_seat=seat,
                command=command,
                action=action if number == 0 else None,
                actor=actor,
            )

    def _finish_if_over(self, game: GameTable, rules: Rules[Any]) -> None:
        table = game.table
        if table.status == tables.ACTIVE and table.game is not None:
            outcome = rules.outcome(table.game)
            if outcome is not None:
                game.record(tables.finished(outcome))

    def run_bots(self, game: GameTable) -> None:
        """Let server-side bots play while one of their seats must act (in the same save)."""
        table = game.table
        if table.status != tables.ACTIVE or not table.bot_seats():
            return
        rules = rules_for(table.kind)
        bots = set(table.bot_seats())
        while table.status == tables.ACTIVE:
            due = [s for s in rules.active_seats(table.game) if s in bots]
            if not due:
                return
            seat = due[0]
            chooser = random.Random(f"bot:{table.seed}:{game.version}")
            legal = rules.legal_actions(table.game, seat)
            action = chooser.choice(legal)
            steps, _ = play(
                rules, copy.deepcopy(table.game), seat, action, rng_for(table.seed, game.version)
            )
            self._record_steps(game, steps, seat, action, None, f"bot:{seat}:{game.version}")
            self._finish_if_over(game, rules)
            table = game.table


class AlreadyDone(Exception):
    """The command's idempotency key is already in the game: answer with what it did."""

    game: GameTable


def require_player(caller: Caller) -> None:
    if not caller.is_player:
        raise Unauthenticated("Sign in first: send 'Authorization: Bearer <token>'.")


def pick_seat(rules: Rules[Any], state: Any, seats: list[int]) -> int:
    """The caller's seat that must act now (a player usually holds one seat)."""
    active = rules.active_seats(state)
    for seat in seats:
        if seat in active:
            return seat
    return seats[0]


def replay_table(entries: Sequence[Entry]) -> tables.Table:
    """The table rebuilt from its stored entries alone (for checks and audits)."""
    table = tables.start(entries[0])
    rules = rules_for(table.kind)
    for entry in entries[1:]:
        table = tables.evolve(table, entry, rules)
    return table


__all__ = ["SPECTATOR", "Caller", "Entry", "Games", "Recorded", "apply_events", "replay_table"]
