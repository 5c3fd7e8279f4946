"""The mutations: players, tables, play, undo, import and forks (API.md)."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.context import Info
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


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Open registration; the token is shown once.")
    async def register_player(self, info: Info, name: str) -> PlayerSession:
        caller, token = await info.context.run(info.context.app.accounts.register_player, name)
        assert caller.player_id is not None and caller.name is not None
        return PlayerSession(
            player=Player(id=strawberry.ID(caller.player_id), name=caller.name), token=token
        )

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
    ) -> ActResult:
        caller: Caller = info.context.caller
        found, records = await info.context.run(
            info.context.app.play.act,
            caller,
            str(game_id),
            action,
            expected_version,
            idempotency_key,
        )
        return ActResult(
            game=game_of(info, found),
            events=[GameEvent.of(views.event(found.table, r, caller)) for r in records],
        )
