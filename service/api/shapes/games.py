"""The shapes of a game as the caller may see it (``Game``) and of its parts that both
transports show: its seats, its result, where a fork comes from, its moves, and the
verification of its log; with the snake_case data they are built from (``service.app.views``
and ``numbering`` give the rest as the fields' names already).

GraphQL resolves every field of ``Game`` (``service.api.graphql.game``); REST presents it from
the data (``service.api.rest.presenters.present_game``)."""

from __future__ import annotations

from typing import Any

from service.api.shapes import players
from service.api.shapes.clocks import GameClock
from service.api.shapes.declare import (
    Action,
    Id,
    Json,
    Kind,
    Moment,
    Own,
    Status,
    TypedForm,
    described,
    shape,
)
from service.api.shapes.players import Player


@shape("One seat of a table and who holds it.")
class Seat:
    seat: int = described("The seat number, 0-based in seating order.")
    player: Player | None = described("The player seated here; null for a free seat or a bot.")
    is_bot: bool = described("A server-side bot plays this seat (`addBot`).")
    strategy: str | None = described("The bot's strategy (`addBot`); null for a human seat.")
    taken_over: bool = described(
        "A bot of the table's take-over level plays the seat since its player's time ran out "
        "(zombie); `reclaimSeat` gives it back.",
        rest_description="A bot of the table's take-over level plays the seat since its "
        "player's time ran out (zombie); `POST /games/{id}/reclaim` gives it back.",
        default=False,
    )


@shape("The outcome of a finished game.")
class GameResult:
    scores: list[int] = described("Final score (points or VP) per seat.")
    winners: list[int] = described("The winning seats (several on a tie).")
    ranks: list[int] = described("Rank per seat, 1 = first; tied seats share a rank.")


@shape("Where a forked game (`forkGame`) comes from.")
class ForkSource:
    game_id: Id = described("The game it was forked from.")
    version: int = described("The version of that game it starts from.")
    seats: list[int] | None = described(
        "The seats whose view the fork of an unfinished game was dealt from (what they could "
        "not see was re-dealt); null for the fork of a finished game, which replays it exactly."
    )


@shape(
    "The result of `verifyLog`: the hash chain, the seed against its commitment and every "
    "event replayed through the rules.",
    graphql="LogVerification",
    rest="Verification",
)
class Verification:
    ok: bool = described("Every checked event holds.")
    checked_events: int = described("How many events were checked.")
    bad_version: int | None = described("The first event that does not hold.")
    reason: str | None = described("What does not hold at `badVersion`; null when ok.")
    signed_by: str | None = described(
        "The id of the server key that signs this finished game's chain head (its export "
        "carries the signature; the public keys are at `GET /api/v1/keys`); null for a game "
        "not finished, an imported copy, a log that does not hold, or a server without a "
        "signing key.",
        default=None,
    )
    signature: Json | None = described(
        "The signature of the chain head, as an export carries it: `{alg, keyId, gameId, "
        'head, value}` (docs/API.md, "Signed records"); null when `signedBy` is.',
        default=None,
    )


@shape("A legal action with a label for a user interface.")
class Move:
    action: Action = described("The action, exactly as `act` accepts it.")
    label: str = described('A human label, e.g. "Place a stone on ship 2, slot 3".')
    type: str = described(
        "The action's `type` (its `actionCatalog` name).",
        rest_description="The action's `type` (its name in the action catalog).",
    )
    typed_action: TypedForm = described(
        "The same action typed: exactly the value `act(typedAction:)` takes, one member of "
        '`ActionInput` (`{"imhotepPlaceStone": {"ship": 2, "slot": 3}}`, enum values by their '
        "GraphQL names); sent back as `typedAction` it plays the same action as `action`.",
        rest_description="The same action typed: exactly the `typedAction` that `act` takes, "
        'one member named by the game kind and the action (`{"imhotepPlaceStone": {"ship": 2, '
        '"slot": 3}}`), its parameters as in `action`; sent back as `typedAction` it plays '
        "the same action as `action`.",
    )


@shape(
    "A game (a table) as the caller may see it: seats, status, the caller's view (`state` as "
    "JSON, `view` typed), its legal actions, the audit log and time travel.",
    rest_order=(
        *("id", "kind", "status", "options", "version", "seed_commitment", "rules_version"),
        *("seats", "my_seat", "active_seats", "state", "legal_actions", "moves", "scores"),
        *("result", "forked_from", "ranked", "unranked_reason", "created_at", "updated_at"),
        "clock",
    ),
)
class Game:
    id: Id = described(
        "The game's id (its global `Node` id too).", rest_description="The game's id."
    )
    kind: Kind = described("Which game.")
    status: Status = described("Where the table is in its life.")
    options: Json = described(
        "The table options, complete (defaults filled in) as the rules normalised them at creation."
    )
    version: int = described(
        "Number of the last event of the log as the caller may see it: an event private to "
        "another seat is not part of it (every event is, once the game is over)."
    )
    undo_allowed: bool = described(
        "Undo is allowed at this table (false: ranked play).", rest=False
    )
    seed: str | None = described(
        "The secret seed, revealed once the game is over (else null).", rest=False
    )
    seed_salt: str | None = described(
        "The secret salt of the seed's commitment (hex), revealed with the seed once the game "
        "is over (else null; null too for games older than salts).",
        rest=False,
    )
    seed_commitment: str = described(
        "Commitment to the secret seed: hex SHA-256(salt || seed), salt the 32 bytes of "
        "seedSalt (domain/randomness.py; unsalted for games older than salts).",
        rest_description="Commitment to the secret seed: hex SHA-256(salt || seed), salt 32 "
        "secret bytes (domain/randomness.py; unsalted for games older than salts).",
    )
    ranked: bool = described(
        "The game will be rated (ratings and the leaderboard) when it finishes: two or more "
        "human players, each holding one seat, a seed nobody chose, not a fork, not an imported "
        "copy; free seats count as players to come (false: see unrankedReason). The ratings "
        "apply the same rule.",
        rest_description="The game will be rated (ratings and the leaderboard) when it "
        "finishes: two or more human players, each holding one seat, a seed nobody chose, not "
        "a fork, not an imported copy; free seats count as players to come. The ratings apply "
        "the same rule.",
    )
    unranked_reason: str | None = described(
        'Why the game will not be rated: "the creator chose the seed", "a fork" or "an '
        'imported copy" (then it counts in no profile or statistic either), "fewer than two '
        'human players" or "a player holds several seats"; null for a ranked game.',
        rest_description='Why it will not be rated: "the creator chose the seed", "a fork" or '
        '"an imported copy" (then it counts in no profile or statistic either), "fewer than two '
        'human players" or "a player holds several seats"; null for a ranked game.',
    )
    rules_version: str = described(
        "The version of the rules this game is played by (fixed at creation; "
        "`catalog(kind, rulesVersion)` gives its data).",
        rest_description="The version of the rules this game is played by (fixed at creation).",
    )
    created_at: Moment = described("When the table was created (UTC).")
    updated_at: Moment = described("Time of the last event of the log as the caller may see it.")
    seats: list[Seat] = described("Every seat, in seat order, and who holds it.")
    my_seat: int | None = described("The caller's seat; null for spectators.")
    active_seats: list[int] = described("Who must act now.")
    clock: GameClock | None = described(
        "The table's clock now (time control, every seat's remaining time, deadline, thinking "
        "time and take-over); null for a table without a time control.",
        rest_description="The table's clock now; null for a table without a time control.",
        default=None,
    )
    clock_at: Own = described(
        "Replay: the clock right after event `version` (its `now` is the latest time the log "
        "had recorded then); null for a table without a time control.",
        rest=False,
    )
    state: Json = described("The game state as the caller may see it.")
    view: Own = described(
        "The caller's view as typed GraphQL (the same information as `state`); null before the "
        "game starts.",
        rest=False,
    )
    legal_actions: list[Action] = described(
        "Exactly the actions `act` accepts from the caller now."
    )
    moves: Own = described(
        "`legalActions` in the same order, each with a label and its type.",
        rest_type=list[Move],
        rest_description="`legalActions` in the same order, with labels.",
    )
    scores: list[int] = described("The public score track, by seat.")
    result: GameResult | None = described("The outcome; null until the game is finished.")
    events: Own = described("The audit log, as the caller may see it.", rest=False)
    can_undo: Own = described(
        "Whether the caller may take back its last action now, and why.", rest=False
    )
    undo_request: Own = described("A pending request to take actions back.", rest=False)
    forked_from: ForkSource | None = described("The game this sandbox was forked from.")
    replay: Own = described(
        "Replay: events after `after` with the state right after each, as the caller may see "
        "it (everything once the game is over).",
        rest=False,
    )
    state_at: Own = described(
        "Replay: the state right after event `version`; null, with a BAD_INPUT error on this "
        "field alone, for a version the game does not have.",
        rest=False,
    )
    view_at: Own = described(
        "Replay: the typed view right after event `version` (the same information as "
        "`stateAt`); null before the game starts.",
        rest=False,
    )


# -- the data of the shapes ----------------------------------------------------------------------


def seat(shown: dict[str, Any]) -> dict[str, Any]:
    """A ``Seat`` of a seat as ``views.seat_list`` shows it."""
    holder = shown["player_id"]
    return {
        "seat": shown["seat"],
        "player": players.player(holder, shown["name"]) if holder else None,
        "is_bot": shown["is_bot"],
        "strategy": shown["strategy"],
        "taken_over": shown["taken_over"],
    }


def fork_source(shown: dict[str, Any]) -> dict[str, Any]:
    """A ``ForkSource`` of ``numbering.Timeline.fork_source``'s (``seats`` may be missing)."""
    return {"game_id": shown["game_id"], "version": shown["version"], "seats": shown.get("seats")}
