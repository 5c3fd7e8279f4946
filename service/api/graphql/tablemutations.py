"""The mutations of tables and play: creating, joining, bots, abandoning, reclaiming a seat,
undo, import, forks and ``act`` (docs/API.md "Tables", "Play", "Undo", "Forks").

``TableMutations`` is a part of the schema's ``Mutation`` type (``service.api.graphql.mutations``
combines it with ``PlayerMutations``): it is never a type of the schema by itself, and the fields
keep their place in ``Mutation`` (the generated schema is the same as when they were declared
there). Every field calls one command of the application and answers the game it changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.actioninput import ActionInput, action_of
from service.api.graphql.context import Info
from service.api.graphql.game import Game, game_of
from service.api.graphql.types import CreateGameInput, GameEvent, GameID
from service.app import views
from service.app.caller import Caller
from service.app.errors import BadInput
from service.app.tables import GameTable

SeatArgument = Annotated[
    int | None,
    strawberry.argument(description="The seat number (0-based); null: the first free seat."),
]


@strawberry.type(description="What `act` did.")
class ActResult:
    game: Game = strawberry.field(
        description="The game right after the action (bots reply afterwards, in their own "
        "commands: watch `gameChanged` or poll `version`)."
    )
    events: list[GameEvent] = strawberry.field(
        description="The events of the command, as the caller may see them: the caller's own "
        "action (and the end of the game if it came); bots' moves are not among them."
    )


@strawberry.type
class TableMutations:
    @strawberry.mutation(description="A new open table; the creator is not seated automatically.")
    async def create_game(
        self,
        info: Info,
        input: Annotated[CreateGameInput, strawberry.argument(description="The table to create.")],
    ) -> Game:
        return await changed(
            info,
            info.context.app.seating.create_game,
            input.kind.value,
            input.seats,
            input.options,
            input.seed,
        )

    @strawberry.mutation(description="Take a seat (the first free one if none is given).")
    async def join_game(self, info: Info, game_id: GameID, seat: SeatArgument = None) -> Game:
        return await changed(info, info.context.app.seating.join_game, str(game_id), seat)

    @strawberry.mutation(
        description="A server-side bot takes a seat and plays when it must. `strategy` is its "
        'level: "random" (the default), "greedy" or "mcts" (docs/bots.md "Bot levels"). FORBIDDEN '
        "past the caller's bounds (tables with bots, searching bots: the message names the "
        "bound), and for the last free seat of a table where no person sits."
    )
    async def add_bot(
        self,
        info: Info,
        game_id: GameID,
        seat: SeatArgument = None,
        strategy: Annotated[
            str | None,
            strawberry.argument(
                description='The bot\'s level: "random" (null: the default), "greedy" or "mcts".'
            ),
        ] = None,
    ) -> Game:
        return await changed(info, info.context.app.seating.add_bot, str(game_id), seat, strategy)

    @strawberry.mutation(
        description="Close a table without a result: its creator while it is open, "
        "a seated player once it runs."
    )
    async def abandon_game(
        self,
        info: Info,
        game_id: GameID,
        reason: Annotated[
            str | None,
            strawberry.argument(description="Why, in words (kept with the table; optional)."),
        ] = None,
    ) -> Game:
        return await changed(info, info.context.app.seating.abandon_game, str(game_id), reason)

    @strawberry.mutation(
        description="Take back your seat that a bot plays since your time ran out (a timed "
        "table whose policy is `takeover`): the bot stops, and you are on the clock again "
        "from the seat's next turn with a full move or bank. `seat`: which of your seats "
        "(default: every one taken over). The game still counts as a loss for you in ratings."
    )
    async def reclaim_seat(
        self,
        info: Info,
        game_id: GameID,
        seat: Annotated[
            int | None,
            strawberry.argument(description="Which of your seats; null: every one taken over."),
        ] = None,
    ) -> Game:
        return await changed(info, info.context.app.clocks.reclaim, str(game_id), seat)

    @strawberry.mutation(
        description="Take actions back to right after `toVersion` (default: your last action). "
        "Your own last actions go at once; across another seat's action every other human seat "
        "must accept (answerUndo). Never across a random draw or a reveal."
    )
    async def request_undo(
        self,
        info: Info,
        game_id: GameID,
        to_version: Annotated[
            int | None,
            strawberry.argument(
                description="Return to right after this event number of your log; null: "
                "before your last action."
            ),
        ] = None,
    ) -> Game:
        return await changed(info, info.context.app.undo.request_undo, str(game_id), to_version)

    @strawberry.mutation(description="Accept or refuse the pending undo request.")
    async def answer_undo(
        self,
        info: Info,
        game_id: GameID,
        accept: Annotated[
            bool, strawberry.argument(description="True accepts the undo, false refuses it.")
        ],
    ) -> Game:
        return await changed(info, info.context.app.undo.answer_undo, str(game_id), accept)

    @strawberry.mutation(
        description="Check an exported game by re-running the rules and store it as a new "
        "finished game; BAD_INPUT says exactly what does not hold."
    )
    async def import_game(
        self,
        info: Info,
        document: Annotated[
            JSON, strawberry.argument(description="A document `exportGame` produced.")
        ],
    ) -> Game:
        return await changed(info, info.context.app.archive.import_game, document)

    @strawberry.mutation(
        description="A new sandbox table that starts from a game as it was at `atVersion` "
        "(unranked, marked as a fork). Anybody may fork a finished game (its events are "
        "replayed). A game that is not finished may be forked only by one of its players: the "
        "fork starts from what that player's seats could see, everything hidden from them "
        "re-dealt from the fork's own seed, and seats the player at those seats; the other "
        "seats are open (players or bots). Once over, a fork reveals its whole log like any "
        "game, the forking player's hidden items at the fork included."
    )
    async def fork_game(
        self,
        info: Info,
        game_id: GameID,
        at_version: Annotated[
            int,
            strawberry.argument(
                description="Fork the game as it was right after this event number."
            ),
        ],
    ) -> Game:
        return await changed(info, info.context.app.forks.fork, str(game_id), at_version)

    @strawberry.mutation(
        description="One action for the caller's seat: as JSON in `action` (one of "
        "`legalActions`) or typed in `typedAction`, exactly one of the two (BAD_INPUT otherwise)."
    )
    async def act(
        self,
        info: Info,
        game_id: GameID,
        action: Annotated[
            JSON | None,
            strawberry.argument(
                description='The action as JSON, `{"type": "snake_case_name", ...parameters}`: '
                "one of `legalActions`, its shape in `actionCatalog`. Omit it to send "
                "`typedAction` instead."
            ),
        ] = None,
        expected_version: Annotated[
            int | None,
            strawberry.argument(
                description="Refuse (CONFLICT) unless the game is at this version "
                "(`Game.version`); null: no check."
            ),
        ] = None,
        idempotency_key: Annotated[
            str | None,
            strawberry.argument(
                description="A key of yours for this action: sent again, the same key answers "
                "the first result without acting twice; reused with another action, BAD_INPUT."
            ),
        ] = None,
        seat: Annotated[
            int | None,
            strawberry.argument(
                description="Which of the caller's seats acts (for a player holding several; "
                "FORBIDDEN if the caller does not hold it). Default: the seat that must act now."
            ),
        ] = None,
        typed_action: Annotated[
            Any,
            strawberry.argument(
                description="The action, typed (one member per game kind and action); the same "
                "action as the JSON `action` would be. Send it instead of `action`, for a game "
                "of the member's kind.",
                graphql_type=ActionInput | None,
            ),
        ] = None,
    ) -> ActResult:
        caller: Caller = await info.context.resolved_caller()
        action, typed_kind = chosen_action(action, typed_action)
        found, records = await info.context.run(
            info.context.app.play.act,
            caller,
            str(game_id),
            action,
            expected_version,
            idempotency_key,
            seat,
            typed_kind,
        )
        # the caller's log: its own entries numbered as it sees them (``numbering.Timeline``)
        game = game_of(info, found)
        log = await game._seen(info)
        return ActResult(
            game=game,
            events=[
                GameEvent.of(views.event(found.table, r, caller, log))
                for r in records
                if log.sees(r.version)
            ],
        )


async def changed(info: Info, command: Callable[..., GameTable], *args: Any) -> Game:
    """What a table mutation does: run one command of the application for the caller, on a
    worker (the store is synchronous), and answer the game it changed as the caller sees it."""
    return game_of(info, await info.context.run(command, info.context.caller, *args))


def chosen_action(action: Any, typed: Any) -> tuple[Any, str | None]:
    """The action ``act`` plays: the JSON one, or the typed one as the same JSON with the game
    kind it names (``Play.act`` refuses it for a game of another kind); BAD_INPUT unless
    exactly one of the two is sent."""
    if action is not None and typed is not None:
        raise BadInput("Send the action once: either `action` (JSON) or `typedAction`, not both.")
    if typed is None:
        if action is None:
            raise BadInput("Send an action: `action` (JSON) or `typedAction`.")
        return action, None
    kind, plain = action_of(typed)
    return plain, kind
