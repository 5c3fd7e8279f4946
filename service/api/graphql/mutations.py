"""The mutations: players (and their tokens), tables, play, undo, import and forks (API.md),
and the rate limits every mutation request passes (``limit_mutations``)."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry
from graphql import (
    DocumentNode,
    ExecutionResult,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationType,
    get_operation_ast,
)
from strawberry.scalars import JSON

from service.api.graphql.actioninput import ActionInput, action_of
from service.api.graphql.context import Context, Info
from service.api.graphql.game import ActResult, Game, game_of
from service.api.graphql.types import (
    CreateGameInput,
    GameEvent,
    GameID,
    Player,
    PlayerSession,
)
from service.app import views
from service.app.caller import Caller
from service.app.errors import BadInput, PapyrusError

SeatArgument = Annotated[
    int | None,
    strawberry.argument(description="The seat number (0-based); null: the first free seat."),
]


@strawberry.type(description="The write operations: players, tables, play, undo, import, forks.")
class Mutation:
    @strawberry.mutation(description="Open registration; the token is shown once.")
    async def register_player(
        self,
        info: Info,
        name: Annotated[
            str, strawberry.argument(description="The name shown to others (not unique).")
        ],
    ) -> PlayerSession:
        caller, token = await info.context.run(info.context.app.accounts.register_player, name)
        assert caller.player_id is not None and caller.name is not None
        return PlayerSession(
            player=Player(id=strawberry.ID(caller.player_id), name=caller.name), token=token
        )

    @strawberry.mutation(
        description="A new token for the caller; the one sent with this request stops working "
        "at once, in every server process. Shown once, like the first."
    )
    async def rotate_token(self, info: Info) -> PlayerSession:
        caller, token = await info.context.run(
            info.context.app.accounts.rotate_token, info.context.caller
        )
        assert caller.player_id is not None and caller.name is not None
        return PlayerSession(
            player=Player(id=strawberry.ID(caller.player_id), name=caller.name), token=token
        )

    @strawberry.mutation(
        description="Revoke the token sent with this request, at once in every server "
        "process. A player has one token at a time and no password, so this signs the player "
        "out for good; to change a token and keep playing, use rotateToken."
    )
    async def logout(self, info: Info) -> bool:
        return await info.context.run(info.context.app.accounts.log_out, info.context.caller)

    @strawberry.mutation(
        description="Delete the caller's account: the token stops working and the name is "
        "shown as 'Deleted player' everywhere (seats, events, summaries, profiles, "
        "leaderboards, exports); finished games stay and still verify. Refused (FORBIDDEN) "
        "while the caller holds a seat at a game that is not over: finish or abandon it first."
    )
    async def delete_account(self, info: Info) -> bool:
        return await info.context.run(info.context.app.accounts.delete_account, info.context.caller)

    @strawberry.mutation(description="A new open table; the creator is not seated automatically.")
    async def create_game(
        self,
        info: Info,
        input: Annotated[CreateGameInput, strawberry.argument(description="The table to create.")],
    ) -> Game:
        options = input.options
        found = await info.context.run(
            info.context.app.seating.create_game,
            info.context.caller,
            input.kind.value,
            input.seats,
            options,
            input.seed,
        )
        return game_of(info, found)

    @strawberry.mutation(description="Take a seat (the first free one if none is given).")
    async def join_game(self, info: Info, game_id: GameID, seat: SeatArgument = None) -> Game:
        found = await info.context.run(
            info.context.app.seating.join_game, info.context.caller, str(game_id), seat
        )
        return game_of(info, found)

    @strawberry.mutation(
        description="A server-side bot takes a seat and plays when it must. `strategy` is its "
        'level: "random" (the default), "greedy" or "mcts" (README "Bot levels").'
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
        found = await info.context.run(
            info.context.app.seating.add_bot, info.context.caller, str(game_id), seat, strategy
        )
        return game_of(info, found)

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
        found = await info.context.run(
            info.context.app.seating.abandon_game, info.context.caller, str(game_id), reason
        )
        return game_of(info, found)

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
        found = await info.context.run(
            info.context.app.clocks.reclaim, info.context.caller, str(game_id), seat
        )
        return game_of(info, found)

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
        found = await info.context.run(
            info.context.app.undo.request_undo, info.context.caller, str(game_id), to_version
        )
        return game_of(info, found)

    @strawberry.mutation(description="Accept or refuse the pending undo request.")
    async def answer_undo(
        self,
        info: Info,
        game_id: GameID,
        accept: Annotated[
            bool, strawberry.argument(description="True accepts the undo, false refuses it.")
        ],
    ) -> Game:
        found = await info.context.run(
            info.context.app.undo.answer_undo, info.context.caller, str(game_id), accept
        )
        return game_of(info, found)

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
        found = await info.context.run(
            info.context.app.archive.import_game, info.context.caller, document
        )
        return game_of(info, found)

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
        found = await info.context.run(
            info.context.app.forks.fork, info.context.caller, str(game_id), at_version
        )
        return game_of(info, found)

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
        action = await chosen_action(info, str(game_id), action, typed_action)
        found, records = await info.context.run(
            info.context.app.play.act,
            caller,
            str(game_id),
            action,
            expected_version,
            idempotency_key,
            seat,
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


async def chosen_action(info: Info, game_id: str, action: Any, typed: Any) -> Any:
    """The action ``act`` plays: the JSON one, or the typed one as the same JSON (for a game of
    its kind); BAD_INPUT unless exactly one of the two is sent."""
    if action is not None and typed is not None:
        raise BadInput("Send the action once: either `action` (JSON) or `typedAction`, not both.")
    if typed is None:
        if action is None:
            raise BadInput("Send an action: `action` (JSON) or `typedAction`.")
        return action
    kind, plain = action_of(typed)
    tables_ = info.context.app.tables
    found = tables_.peek(game_id)
    if found is None:
        found = await info.context.run(tables_.get, game_id)
    if found.table.kind != kind:
        raise BadInput(
            f"typedAction is an action of {kind}, but this game is {found.table.kind}: "
            f"use the {found.table.kind} members."
        )
    return plain


async def limit_mutations(execution: Any) -> None:
    """The rate limits of mutations (``service.app.limits``), counted once per request before
    any of its mutations runs: one per mutation field, against the caller and the client
    address (``registerPlayer`` also as a registration). Over a limit, nothing runs: the
    answer is ``RATE_LIMITED`` with ``retryAfter``, and over HTTP status 429 with a
    ``Retry-After`` header.

    On a websocket, whose context lives as long as the connection, every query or mutation
    first checks the connection's token again (``Context.recheck``): one revoked since the
    connection opened is refused (subscriptions check it whenever they have news)."""
    document = execution.graphql_document
    operation = get_operation_ast(document, execution.operation_name) if document else None
    context: Context = execution.context
    try:
        if (
            operation is not None
            and operation.operation is not OperationType.SUBSCRIPTION
            and context.is_connection
        ):
            await context.run(context.recheck)
        if operation is not None and operation.operation is OperationType.MUTATION:
            fields = root_fields(document, execution.operation_name)
            await context.limit_mutations(len(fields), fields.count("registerPlayer"))
    except PapyrusError as refused:
        execution.result = ExecutionResult(
            data=None, errors=[GraphQLError(refused.message, original_error=refused)]
        )


def root_fields(document: DocumentNode | None, operation_name: str | None) -> list[str]:
    """The names of the root fields an operation selects (through its fragments too)."""
    operation = get_operation_ast(document, operation_name) if document is not None else None
    if operation is None or document is None:
        return []
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    names: list[str] = []

    def walk(selections: Any, seen: frozenset[str]) -> None:
        for selection in selections:
            if isinstance(selection, FieldNode):
                if selection.name.value != "__typename":
                    names.append(selection.name.value)
            elif isinstance(selection, InlineFragmentNode):
                walk(selection.selection_set.selections, seen)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                if name in fragments and name not in seen:
                    walk(fragments[name].selection_set.selections, seen | {name})

    walk(operation.selection_set.selections, frozenset())
    return names
