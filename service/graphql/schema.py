"""Queries, mutations and the ``gameEvents`` subscription (API.md)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator

import strawberry
from strawberry.extensions import (
    AddValidationRules,
    MaxTokensLimiter,
    ParserCache,
    ValidationCache,
)
from strawberry.extensions.query_depth_limiter import create_validator
from strawberry.scalars import JSON

from domain import table as tables
from service import views
from service.errors import BadInput
from service.games import Caller
from service.graphql.context import Context
from service.graphql.errors import PublicErrors
from service.graphql.types import (
    ActResult,
    CreateGameInput,
    Game,
    GameConnection,
    GameEdge,
    GameEvent,
    GameID,
    GameKind,
    GameStatus,
    LogVerification,
    PageInfo,
    Player,
    PlayerSession,
    decode_cursor,
    encode_cursor,
    page_size,
)

Info = strawberry.Info[Context, None]

MAX_DEPTH = 12
MAX_TOKENS = 2_000
#: a live subscriber also re-reads the store this often, to catch events saved by other processes
POLL_SECONDS = 1.0


def game_of(info: Info, game: object) -> Game:
    return Game(_game=game, _caller=info.context.caller)  # type: ignore[arg-type]


@strawberry.type
class Query:
    @strawberry.field(description="The caller; null for a spectator.")
    def me(self, info: Info) -> Player | None:
        caller = info.context.caller
        if caller.player_id is None:
            return None
        return Player(id=strawberry.ID(caller.player_id), name=caller.name or "")

    @strawberry.field(description="The game as the caller may see it; null if there is none.")
    async def game(self, info: Info, id: GameID) -> Game | None:
        from service.errors import NotFound

        try:
            found = await info.context.run(info.context.games.get, str(id))
        except NotFound:
            return None
        return game_of(info, found)

    @strawberry.field(description="Games, newest first, with Relay cursor pagination.")
    async def games(
        self,
        info: Info,
        kind: GameKind | None = None,
        status: GameStatus | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> GameConnection:
        limit = page_size(first)
        cursor = decode_cursor("game", after)
        before = int(cursor) if cursor is not None and cursor.isdigit() else None
        if cursor is not None and before is None:
            raise BadInput("The cursor is not one this server gave out.")
        rows = await info.context.run(
            info.context.catalog.list,
            kind.value if kind else None,
            status.value if status else None,
            limit + 1,
            before,
        )
        edges = []
        for row in rows[:limit]:
            found = await info.context.run(info.context.games.get, row["game_id"])
            edges.append(
                GameEdge(cursor=encode_cursor("game", row["seq"]), node=game_of(info, found))
            )
        return GameConnection(
            edges=edges,
            nodes=[e.node for e in edges],
            page_info=PageInfo(
                has_next_page=len(rows) > limit,
                end_cursor=edges[-1].cursor if edges else after,
            ),
        )

    @strawberry.field(
        description="Recompute the hash chain, check the seed against its commitment and replay "
        "every event through the rules; reports the first event that does not hold."
    )
    async def verify_log(self, info: Info, game_id: GameID) -> LogVerification:
        finding = await info.context.run(info.context.timeline.verify, str(game_id))
        return LogVerification(
            ok=finding.ok,
            checked_events=finding.checked,
            bad_version=finding.version,
            reason=finding.reason,
        )

    @strawberry.field(description="A finished game as one portable JSON document.")
    async def export_game(self, info: Info, game_id: GameID) -> JSON:
        return JSON(await info.context.run(info.context.timeline.export, str(game_id)))


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Open registration; the token is shown once.")
    async def register_player(self, info: Info, name: str) -> PlayerSession:
        caller, token = await info.context.run(info.context.games.register_player, name)
        assert caller.player_id is not None and caller.name is not None
        return PlayerSession(
            player=Player(id=strawberry.ID(caller.player_id), name=caller.name), token=token
        )

    @strawberry.mutation(description="A new open table; the creator is not seated automatically.")
    async def create_game(self, info: Info, input: CreateGameInput) -> Game:
        options = input.options
        found = await info.context.run(
            info.context.games.create_game,
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
            info.context.games.join_game, info.context.caller, str(game_id), seat
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
            info.context.games.add_bot, info.context.caller, str(game_id), seat, strategy
        )
        return game_of(info, found)

    @strawberry.mutation(
        description="Close a table without a result: its creator while it is open, "
        "a seated player once it runs."
    )
    async def abandon_game(self, info: Info, game_id: GameID, reason: str | None = None) -> Game:
        found = await info.context.run(
            info.context.games.abandon_game, info.context.caller, str(game_id), reason
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
            info.context.timeline.request_undo, info.context.caller, str(game_id), to_version
        )
        return game_of(info, found)

    @strawberry.mutation(description="Accept or refuse the pending undo request.")
    async def answer_undo(self, info: Info, game_id: GameID, accept: bool) -> Game:
        found = await info.context.run(
            info.context.timeline.answer_undo, info.context.caller, str(game_id), accept
        )
        return game_of(info, found)

    @strawberry.mutation(
        description="Check an exported game by re-running the rules and store it as a new "
        "finished game; BAD_INPUT says exactly what does not hold."
    )
    async def import_game(self, info: Info, document: JSON) -> Game:
        found = await info.context.run(
            info.context.timeline.import_game, info.context.caller, document
        )
        return game_of(info, found)

    @strawberry.mutation(
        description="A new open sandbox table that starts from a finished game as it was at "
        "`atVersion` (unranked, marked as a fork)."
    )
    async def fork_game(self, info: Info, game_id: GameID, at_version: int) -> Game:
        found = await info.context.run(
            info.context.timeline.fork, info.context.caller, str(game_id), at_version
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
            info.context.games.act, caller, str(game_id), action, expected_version, idempotency_key
        )
        return ActResult(
            game=game_of(info, found),
            events=[GameEvent.of(views.event(found.table, r, caller)) for r in records],
        )


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="Every event after `afterVersion` (catch-up; default: the current version), "
        "then live, as the caller may see it; completes after the game ends."
    )
    async def game_events(
        self, info: Info, game_id: GameID, after_version: int | None = None
    ) -> AsyncGenerator[GameEvent, None]:
        context = info.context
        games, caller = context.games, context.caller
        game = await context.run(games.get, str(game_id))
        if after_version is not None and after_version < 0:
            raise BadInput("afterVersion must not be negative.")
        last = game.version if after_version is None else after_version
        key = str(game.id)
        waiter = context.hub.waiter(key)
        try:
            while True:
                waiter.clear()
                records = await context.run(games.events, key, last, 500)
                if records:
                    current = await context.run(games.get, key)
                    for record in records:
                        yield GameEvent.of(views.event(current.table, record, caller))
                        last = record.version
                    if current.table.status in (tables.FINISHED, tables.ABANDONED) and (
                        last >= current.version
                    ):
                        return
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(waiter.wait(), timeout=POLL_SECONDS)
        finally:
            context.hub.release(key, waiter)


DEPTH_RULE = create_validator(MAX_DEPTH, None, None)

schema = strawberry.Schema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    extensions=[
        PublicErrors,
        # one rule class for every request, so that validation results can be cached
        lambda: AddValidationRules([DEPTH_RULE]),
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        # clients send the same few documents over and over: parse and validate each once
        lambda: ParserCache(maxsize=512),
        lambda: ValidationCache(maxsize=512),
    ],
)
