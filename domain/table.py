"""The generic life of a game table, whatever the game (issue #2, API.md "Games").

A table is created open, its seats are taken by players or bots, the game starts by itself
when the last seat fills (the rules' setup events follow), the rules' events are folded into
the game state, and the table finishes when the rules give an outcome (or is abandoned).

Table events are ``Event``s whose type is one of ``TABLE_EVENTS``; every other event belongs
to the game and is handed to the rules' ``evolve``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.contract import JSON, Event, Outcome, Rules

OPEN, ACTIVE, FINISHED, ABANDONED = "OPEN", "ACTIVE", "FINISHED", "ABANDONED"

TABLE_CREATED = "table_created"
SEAT_TAKEN = "seat_taken"
GAME_STARTED = "game_started"
GAME_FINISHED = "game_finished"
GAME_ABANDONED = "game_abandoned"
TABLE_EVENTS = frozenset({TABLE_CREATED, SEAT_TAKEN, GAME_STARTED, GAME_FINISHED, GAME_ABANDONED})


@dataclass(slots=True)
class Holder:
    """Who holds a seat: a registered player, or a server-side bot (``bot`` names its strategy)."""

    player_id: str | None
    name: str
    bot: str | None = None


@dataclass(slots=True)
class Table:
    kind: str
    seats: int
    options: JSON
    seed: str
    seed_commitment: str
    created_by: str | None
    rules_version: str
    status: str = OPEN
    holders: list[Holder | None] = field(default_factory=list)
    game: Any = None
    outcome: Outcome | None = None
    abandoned_reason: str | None = None

    def seat_of(self, player_id: str) -> int | None:
        """The first seat the player holds (a player may hold several, e.g. hot-seat tests)."""
        for seat, holder in enumerate(self.holders):
            if holder is not None and holder.player_id == player_id:
                return seat
        return None

    def seats_of(self, player_id: str) -> list[int]:
        return [
            seat
            for seat, holder in enumerate(self.holders)
            if holder is not None and holder.player_id == player_id
        ]

    def free_seats(self) -> list[int]:
        return [seat for seat, holder in enumerate(self.holders) if holder is None]

    def bot_seats(self) -> list[int]:
        return [s for s, h in enumerate(self.holders) if h is not None and h.bot is not None]


def created(
    kind: str,
    seats: int,
    options: JSON,
    seed: str,
    seed_commitment: str,
    created_by: str | None,
    rules_version: str,
) -> Event:
    return Event(
        TABLE_CREATED,
        {
            "kind": kind,
            "seats": seats,
            "options": options,
            "seed": seed,
            "seed_commitment": seed_commitment,
            "created_by": created_by,
            "rules_version": rules_version,
        },
    )


def start(event: Event) -> Table:
    d = event.data
    return Table(
        kind=d["kind"],
        seats=d["seats"],
        options=d["options"],
        seed=d["seed"],
        seed_commitment=d["seed_commitment"],
        created_by=d["created_by"],
        rules_version=d["rules_version"],
        holders=[None] * d["seats"],
    )


def evolve(table: Table, event: Event, rules: Rules[Any]) -> Table:
    """Apply one event to the table (mutating it). Game events go to the rules."""
    kind = event.type
    if kind == SEAT_TAKEN:
        d = event.data
        table.holders[d["seat"]] = Holder(d["player_id"], d["name"], d.get("bot"))
    elif kind == GAME_STARTED:
        table.status = ACTIVE
        table.game = rules.initial(table.seats, table.options)
    elif kind == GAME_FINISHED:
        d = event.data
        table.status = FINISHED
        table.outcome = Outcome(list(d["scores"]), list(d["winners"]), list(d["ranks"]))
    elif kind == GAME_ABANDONED:
        table.status = ABANDONED
        table.abandoned_reason = event.data.get("reason")
    elif kind == TABLE_CREATED:
        pass  # handled by ``start``
    else:
        table.game = rules.evolve(table.game, event)
    return table


def finished(outcome: Outcome) -> Event:
    return Event(
        GAME_FINISHED,
        {"scores": outcome.scores, "winners": outcome.winners, "ranks": outcome.ranks},
    )


def view_table_event(event: Event, full: bool) -> Event:
    """Table events as anybody may see them: the seed stays secret until the game is over."""
    if event.type == TABLE_CREATED and not full:
        data = {k: event.data[k] for k in PUBLIC_CREATION_FIELDS}
        return Event(event.type, data, event.seat)
    return event


#: what everybody may see of a table's creation while the game runs (the seed is not among them)
PUBLIC_CREATION_FIELDS = (
    "kind",
    "seats",
    "options",
    "seed_commitment",
    "created_by",
    "rules_version",
)
