"""The generic life of a game table, whatever the game (docs/API.md "Games"; undo and forks).

A table is created open, its seats are taken by players or bots, the game starts by itself when
the last seat fills (the rules' setup entries follow), the rules' entries are folded into the
game state, and the table finishes when the rules give an outcome (or is abandoned).

Entries whose type is in ``TABLE_EVENTS`` belong to the table; every other entry belongs to the
game and is handed to the rules' ``evolve``. The table also keeps the game's *effective history*
(the game entries not undone) so that an undo (``actions_undone``) rebuilds the game state by
replaying it, and the *barrier*: the last version an undo may not cross (a random draw or a
reveal of hidden information, ``Rules.is_irreversible``).

The first entry holds the secret seed and its secret salt (``domain.randomness``: both handed in
by the service, revealed once the game is over) and whether the creator chose the seed: such a
table is unranked, like a fork or an imported copy (``unranked_reason``): it counts in no
rating, profile or statistic. A game is rated only if, besides, two or more persons play it,
each holding one seat (``why_unrated``: the one rule that ``Game.ranked`` states and the
ratings apply).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from domain import clock as clocks
from domain.contract import JSON, Event, Outcome, Rules
from domain.log import GENESIS, Entry
from domain.randomness import commitment

OPEN, ACTIVE, FINISHED, ABANDONED = "OPEN", "ACTIVE", "FINISHED", "ABANDONED"

TABLE_CREATED = "table_created"
SEAT_TAKEN = "seat_taken"
GAME_STARTED = "game_started"
GAME_FINISHED = "game_finished"
GAME_ABANDONED = "game_abandoned"
UNDO_REQUESTED = "undo_requested"
UNDO_ANSWERED = "undo_answered"
ACTIONS_UNDONE = "actions_undone"
TABLE_EVENTS = frozenset(
    {
        TABLE_CREATED,
        SEAT_TAKEN,
        GAME_STARTED,
        GAME_FINISHED,
        GAME_ABANDONED,
        UNDO_REQUESTED,
        UNDO_ANSWERED,
        ACTIONS_UNDONE,
        *clocks.EVENTS,
    }
)

#: the reason of a ``game_abandoned`` the server records (no ``actor``) when no person plays a
#: running game any more: at once when no person holds any seat (bots alone), or, when every
#: person's seat is taken over by a bot after its time ran out, once they have had a seat's
#: full time to come back (``Table.unattended_until``) and none did
BOTS_ONLY_REASON = "only bots left"

#: why a table counts in no rating, profile or statistic (``Game.unrankedReason``)
UNRANKED_IMPORTED = "an imported copy"
UNRANKED_FORK = "a fork"
UNRANKED_CHOSEN_SEED = "the creator chose the seed"
#: why a table that counts in profiles and statistics is still not rated (``why_unrated``)
UNRANKED_FEW_HUMANS = "fewer than two human players"
UNRANKED_SEATS_SHARED = "a player holds several seats"

#: a seat as the rating rule sees it: ``None`` while free, else (player id, held by a bot)
SeatHolder = tuple[str | None, bool] | None


def why_unranked(*, imported: bool, forked: bool, seed_chosen: bool) -> str | None:
    """``None`` for a ranked table, else why it is not (an imported copy first: it was played,
    and counted, where it came from)."""
    if imported:
        return UNRANKED_IMPORTED
    if forked:
        return UNRANKED_FORK
    if seed_chosen:
        return UNRANKED_CHOSEN_SEED
    return None


def why_unrated(table_reason: str | None, seats: list[SeatHolder]) -> str | None:
    """The one rating rule (``Game.ranked``, ``Game.unrankedReason`` and the ratings
    projection, ``projections.ratings.rated_seats``, all ask it): ``None`` for a table whose
    game will be rated when it finishes, else why it will not be. ``table_reason``: the
    table's own (``why_unranked``: a copy, a fork, a chosen seed), first; then its seats: the
    players rated are the persons holding a seat (bots are not rated), so a game needs two
    of them, each holding one seat. A free seat may still be taken by a person: an open table
    counts it as one, and says ``UNRANKED_FEW_HUMANS`` as soon as bots have taken the seats
    two persons would need."""
    if table_reason is not None:
        return table_reason
    persons = [seat[0] for seat in seats if seat is not None and seat[0] and not seat[1]]
    if len(set(persons)) != len(persons):
        return UNRANKED_SEATS_SHARED
    if len(persons) + sum(1 for seat in seats if seat is None) < 2:
        return UNRANKED_FEW_HUMANS
    return None


@dataclass(slots=True)
class Holder:
    """Who holds a seat: a registered player, or a server-side bot (``bot`` names its strategy)."""

    player_id: str | None
    name: str
    bot: str | None = None


@dataclass(slots=True)
class UndoRequest:
    """A pending request to go back to ``to_version``; ``waiting`` seats have not accepted yet."""

    version: int
    seat: int
    to_version: int
    waiting: list[int]


@dataclass(slots=True)
class Table:
    kind: str
    seats: int
    options: JSON
    seed: str
    seed_commitment: str
    created_by: str | None
    rules_version: str
    undo_allowed: bool = True
    forked_from: JSON | None = None
    seed_salt: str | None = None
    """The secret salt of the commitment; ``None`` in logs written before salts existed."""
    seed_chosen: bool = False
    """The creator chose the seed (a reproducible sandbox): the table is unranked."""
    status: str = OPEN
    holders: list[Holder | None] = field(default_factory=list)
    game: Any = None
    outcome: Outcome | None = None
    abandoned_reason: str | None = None
    history: list[Entry] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)
    undo_request: UndoRequest | None = None
    barrier: int = 0
    last_hash: str = GENESIS
    version: int = 0
    clock: clocks.ClockState | None = None
    """The table's time control and running clock (``domain.clock``); ``None``: no clock."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """Entries are immutable and shared; only the mutable parts are copied."""
        clone = copy.copy(self)
        clone.holders = copy.deepcopy(self.holders, memo)
        clone.game = copy.deepcopy(self.game, memo)
        clone.history = list(self.history)
        clone.undone = list(self.undone)
        clone.undo_request = copy.deepcopy(self.undo_request, memo)
        clone.clock = copy.deepcopy(self.clock, memo)
        return clone

    def unranked_reason(self, *, imported: bool = False) -> str | None:
        """Why this table counts in no rating, profile or statistic (``None``: it counts)."""
        return why_unranked(
            imported=imported, forked=self.forked_from is not None, seed_chosen=self.seed_chosen
        )

    def unrated_reason(self, *, imported: bool = False) -> str | None:
        """Why this table's game will not be rated (``why_unrated``; ``None``: it will be):
        what ``Game.ranked`` and ``Game.unrankedReason`` say."""
        return why_unrated(
            self.unranked_reason(imported=imported),
            [None if h is None else (h.player_id, h.bot is not None) for h in self.holders],
        )

    def seats_of(self, player_id: str) -> list[int]:
        return [
            seat
            for seat, holder in enumerate(self.holders)
            if holder is not None and holder.player_id == player_id
        ]

    def free_seats(self) -> list[int]:
        return [seat for seat, holder in enumerate(self.holders) if holder is None]

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot that plays ``seat`` now: its holder's, or the take-over level
        while the seat is taken over after its time ran out (``domain.clock``); ``None``: a
        person plays it."""
        holder = self.holders[seat]
        if holder is not None and holder.bot is not None:
            return holder.bot
        if self.clock is not None and seat in self.clock.taken_over:
            return str(self.clock.control["bot"])
        return None

    def bot_seats(self) -> list[int]:
        """The seats a bot plays now (bot holders, and seats taken over)."""
        return [s for s in range(len(self.holders)) if self.bot_level(s) is not None]

    def human_seats(self) -> list[int]:
        """The seats a person plays now (not taken over by a bot)."""
        return [
            s for s, h in enumerate(self.holders) if h is not None and self.bot_level(s) is None
        ]

    def person_seats(self) -> list[int]:
        """The seats a person holds (played by them, or by a bot while taken over)."""
        return [s for s, h in enumerate(self.holders) if h is not None and h.bot is None]

    def unattended_until(self) -> int | None:
        """When a running game whose persons' seats are all taken over (nobody plays it, no
        bot plays it for nobody) ends unless one of them reclaims their seat: a seat's full
        time (a move, or a bank) after the latest time its log recorded (the last take-over).
        ``None``: a person plays it, no person holds a seat, or the table has no clock."""
        if self.status != ACTIVE or self.clock is None:
            return None
        if self.human_seats() or not self.person_seats():
            return None
        return self.clock.now + clocks.full_time(self.clock.control)

    def clock_due(self, rules: Rules[Any]) -> list[int]:
        """The seats on the clock now: played by a person and bound to act (none unless the
        game runs)."""
        if self.status != ACTIVE or self.game is None:
            return []
        return [s for s in rules.active_seats(self.game) if self.bot_level(s) is None]


def created(
    kind: str,
    seats: int,
    options: JSON,
    seed: str,
    seed_salt: str,
    created_by: str | None,
    rules_version: str,
    *,
    undo_allowed: bool = True,
    forked_from: JSON | None = None,
    seed_chosen: bool = False,
    clock: JSON | None = None,
) -> Event:
    """The first entry of a table; ``seed`` and ``seed_salt`` are secrets the caller drew (the
    commitment to them is public, ``domain.randomness.commitment``)."""
    return Event(
        TABLE_CREATED,
        {
            "kind": kind,
            "seats": seats,
            "options": options,
            "seed": seed,
            "seed_salt": seed_salt,
            "seed_commitment": commitment(seed, seed_salt),
            "seed_chosen": seed_chosen,
            "created_by": created_by,
            "rules_version": rules_version,
            "undo_allowed": undo_allowed,
            "forked_from": forked_from,
        }
        # the time control (``domain.clock.control_of``); absent on a table without a clock,
        # so the first entry of such a table is what it was before clocks existed
        | ({"clock": clock} if clock is not None else {}),
    )


def start(entry: Entry) -> Table:
    d = entry.data
    return Table(
        kind=d["kind"],
        seats=d["seats"],
        options=d["options"],
        seed=d["seed"],
        seed_commitment=d["seed_commitment"],
        created_by=d["created_by"],
        rules_version=d["rules_version"],
        undo_allowed=d.get("undo_allowed", True),
        forked_from=d.get("forked_from"),
        seed_salt=d.get("seed_salt"),
        seed_chosen=d.get("seed_chosen", False) is True,
        holders=[None] * d["seats"],
        clock=clocks.new_state(d["clock"], d["seats"]) if d.get("clock") else None,
        last_hash=entry.hash,
        version=entry.version,
    )


def evolve(table: Table, entry: Entry, rules: Rules[Any]) -> Table:
    """Apply one entry to the table (mutating it). Game entries go to the rules."""
    kind = entry.type
    d = entry.data
    if kind == SEAT_TAKEN:
        table.holders[d["seat"]] = Holder(d["player_id"], d["name"], d.get("bot"))
    elif kind == GAME_STARTED:
        table.status = ACTIVE
        table.game = rules.initial(table.seats, table.options)
        table.barrier = entry.version
    elif kind == GAME_FINISHED:
        table.status = FINISHED
        table.outcome = Outcome(list(d["scores"]), list(d["winners"]), list(d["ranks"]))
        table.undo_request = None
    elif kind == GAME_ABANDONED:
        table.status = ABANDONED
        table.abandoned_reason = d.get("reason")
        table.undo_request = None
    elif kind == UNDO_REQUESTED:
        table.undo_request = UndoRequest(
            entry.version, d["seat"], d["to_version"], list(d["waiting"])
        )
    elif kind == UNDO_ANSWERED:
        request = table.undo_request
        if request is not None and request.version == d["request"]:
            if d["accept"]:
                request.waiting = [s for s in request.waiting if s != d["seat"]]
            else:
                table.undo_request = None
    elif kind == ACTIONS_UNDONE:
        undo(table, d["to_version"], rules, d.get("undone"))
    elif kind in clocks.EVENTS:
        if table.clock is not None:
            clocks.apply(table.clock, kind, d)
    elif kind != TABLE_CREATED:
        table.game = rules.evolve(table.game, entry.event)
        table.history.append(entry)
        table.undo_request = None  # the game moved on: a pending request no longer applies
        if is_irreversible(rules, entry.event):
            table.barrier = entry.version
    table.last_hash = entry.hash
    table.version = entry.version
    return table


def is_irreversible(rules: Rules[Any], event: Event) -> bool:
    """A game that does not say which events are safe to undo has none (the safe default)."""
    check = getattr(rules, "is_irreversible", None)
    return True if check is None else bool(check(event))


def undo(table: Table, to_version: int, rules: Rules[Any], undone: list[int] | None = None) -> None:
    """Go back to the game as it was right after ``to_version``: replay the kept history.
    ``undone``: the entries taken back (default: every one after ``to_version``); entries after
    ``to_version`` that it does not list stay (other seats' private steps, ``domain.undo``)."""
    gone = {e.version for e in table.history if e.version > to_version}
    if undone is not None:
        gone &= set(undone)
    kept = [e for e in table.history if e.version not in gone]
    table.undone.extend(e.version for e in table.history if e.version in gone)
    state = rules.initial(table.seats, table.options)
    for entry in kept:
        state = rules.evolve(state, entry.event)
    table.game = state
    table.history = kept
    table.undo_request = None


def abandoned_for_bots(at: int | None = None) -> Event:
    """The end of a game no person plays any more (``BOTS_ONLY_REASON``; recorded by the
    server, with no actor); ``at``: the time of an unattended game's end (``unattended_until``,
    checked by ``verifyLog``), none for a game of bots alone, which ends at once."""
    data: JSON = {"reason": BOTS_ONLY_REASON, "by": None}
    return Event(GAME_ABANDONED, data | ({"at": at} if at is not None else {}))


def finished(outcome: Outcome) -> Event:
    return Event(
        GAME_FINISHED,
        {"scores": outcome.scores, "winners": outcome.winners, "ranks": outcome.ranks},
    )


#: what everybody may see of a table's creation while the game runs (an allow-list: the seed
#: and its salt are not among them)
PUBLIC_CREATION_FIELDS = (
    "kind",
    "seats",
    "options",
    "seed_commitment",
    "seed_chosen",
    "created_by",
    "rules_version",
    "undo_allowed",
    "forked_from",
    "clock",
)


def view_table_event(event: Event, full: bool) -> Event:
    """Table events as anybody may see them: the seed and its salt stay secret until the game
    is over."""
    if event.type == TABLE_CREATED and not full:
        data = {
            k: event.data.get(k)
            for k in PUBLIC_CREATION_FIELDS
            if k in event.data or k != "clock"  # a table without a clock shows none
        }
        return Event(event.type, data, event.seat)
    return event
