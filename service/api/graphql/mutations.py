"""The mutations: players (and their tokens), tables, play, undo, import and forks (API.md),
and the rate limits every mutation request passes (``MutationLimits``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
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
from strawberry.extensions import SchemaExtension
from strawberry.scalars import JSON

from service.api.graphql.context import Context, Info
from service.api.graphql.game import ActResult, Game, game_of
from service.api.graphql.types import (
    CreateGameInput,
    GameEvent,
    GameID,
    Player,
    PlayerSession,
)
from service.app import numbering, views
from service.app.caller import Caller
from service.app.errors import PapyrusError


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Open registration; the token is shown once.")
    async def register_player(self, info: Info, name: str) -> PlayerSession:
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
    async def create_game(self, info: Info, input: CreateGameInput) -> Game:
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
    async def join_game(self, info: Info, game_id: GameID, seat: int | None = None) -> Game:
        found = await info.context.run(
            info.context.app.seating.join_game, info.context.caller, str(game_id), seat
        )
        return game_of(info, found)

    @strawberry.mutation(description="A server-side bot takes a seat and plays when it must.")
    async def add_bot(
        self,
        info: Info,
        game_id: GameID,
        seat: int | None = None,
        strategy: str | None = None,
    ) -> Game:
        found = await info.context.run(
            info.context.app.seating.add_bot, info.context.caller, str(game_id), seat, strategy
        )
        return game_of(info, found)

    @strawberry.mutation(
        description="Close a table without a result: its creator while it is open, "
        "a seated player once it runs."
    )
    async def abandon_game(self, info: Info, game_id: GameID, reason: str | None = None) -> Game:
        found = await info.context.run(
            info.context.app.seating.abandon_game, info.context.caller, str(game_id), reason
        )
        return game_of(info, found)

    @strawberry.mutation(
        description="Take actions back to right after `toVersion` (default: your last action). "
        "Your own last actions go at once; across another seat's action every other human seat "
        "must accept (answerUndo). Never across a random draw or a reveal."
    )
    async def request_undo(
        self, info: Info, game_id: GameID, to_version: int | None = None
    ) -> Game:
        found = await info.context.run(
            info.context.app.undo.request_undo, info.context.caller, str(game_id), to_version
        )
        return game_of(info, found)

    @strawberry.mutation(description="Accept or refuse the pending undo request.")
    async def answer_undo(self, info: Info, game_id: GameID, accept: bool) -> Game:
        found = await info.context.run(
            info.context.app.undo.answer_undo, info.context.caller, str(game_id), accept
        )
        return game_of(info, found)

    @strawberry.mutation(
        description="Check an exported game by re-running the rules and store it as a new "
        "finished game; BAD_INPUT says exactly what does not hold."
    )
    async def import_game(self, info: Info, document: JSON) -> Game:
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
    async def fork_game(self, info: Info, game_id: GameID, at_version: int) -> Game:
        found = await info.context.run(
            info.context.app.forks.fork, info.context.caller, str(game_id), at_version
        )
        return game_of(info, found)

    @strawberry.mutation(description="One action for the caller's seat.")
    async def act(
        self,
        info: Info,
        game_id: GameID,
        action: JSON,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        seat: Annotated[
            int | None,
            strawberry.argument(
                description="Which of the caller's seats acts (for a player holding several; "
                "FORBIDDEN if the caller does not hold it). Default: the seat that must act now."
            ),
        ] = None,
    ) -> ActResult:
        caller: Caller = info.context.caller
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
        log = await info.context.run(numbering.timeline, info.context.app.tables, found, caller)
        game = game_of(info, found)
        game._log = log
        return ActResult(
            game=game,
            events=[
                GameEvent.of(views.event(found.table, r, caller, log))
                for r in records
                if log.sees(r.version)
            ],
        )


class MutationLimits(SchemaExtension):
    """The rate limits of mutations (``service.app.limits``), counted once per request before
    any of its mutations runs: one per mutation field, against the caller and the client
    address (``registerPlayer`` also as a registration). Over a limit, nothing runs: the
    answer is ``RATE_LIMITED`` with ``retryAfter``, and over HTTP status 429 with a
    ``Retry-After`` header.

    On a websocket, whose context lives as long as the connection, every query or mutation
    first checks the connection's token again (``Context.recheck``): one revoked since the
    connection opened is refused (subscriptions check it whenever they have news)."""

    async def on_execute(self) -> AsyncIterator[None]:
        execution = self.execution_context
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
        yield


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
