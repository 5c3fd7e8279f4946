"""Queries, mutations and the ``gameEvents`` subscription (API.md)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from typing import Any

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
from service.api.graphql.context import Context
from service.api.graphql.errors import PublicErrors, is_unexpected
from service.api.graphql.readtypes import (
    GameStatistics,
    GameSummary,
    GameSummaryConnection,
    GameSummaryEdge,
    PlayerProfile,
    Rating,
    RatingConnection,
    RatingEdge,
    ReadModelPosition,
    ReadModelStatus,
    ScoreSource,
)
from service.api.graphql.types import (
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
from service.app import views
from service.app.errors import BadInput
from service.app.games import Caller

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
        from service.app.errors import NotFound

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
        player: strawberry.ID | None = None,
    ) -> GameConnection:
        rows, has_next = await summary_page(info, kind, status, player, False, first, after)
        edges = []
        for row in rows:
            found = await info.context.run(info.context.games.get, row["game_id"])
            edges.append(
                GameEdge(cursor=encode_cursor("game", row["seq"]), node=game_of(info, found))
            )
        return GameConnection(
            edges=edges,
            nodes=[e.node for e in edges],
            page_info=PageInfo(
                has_next_page=has_next, end_cursor=edges[-1].cursor if edges else after
            ),
        )

    @strawberry.field(
        description="Game summaries from the read model (public facts only), newest first; "
        "`player` finds the games a player sat at."
    )
    async def game_summaries(
        self,
        info: Info,
        kind: GameKind | None = None,
        status: GameStatus | None = None,
        player: strawberry.ID | None = None,
        first: int | None = None,
        after: str | None = None,
        min_position: int | None = None,
    ) -> GameSummaryConnection:
        await wait_for(info, min_position)
        rows, has_next = await summary_page(info, kind, status, player, False, first, after)
        return summary_connection(rows, has_next, after)

    @strawberry.field(description="Open tables with free seats, newest first.")
    async def lobby(
        self,
        info: Info,
        kind: GameKind | None = None,
        options: JSON | None = None,
        first: int | None = None,
        after: str | None = None,
        min_position: int | None = None,
    ) -> GameSummaryConnection:
        await wait_for(info, min_position)
        if options is not None and not isinstance(options, dict):
            raise BadInput("options must be a JSON object of the options to match.")
        rows, has_next = await summary_page(info, kind, None, None, True, first, after, options)
        return summary_connection(rows, has_next, after)

    @strawberry.field(description="A player's profile: games played and won, average score.")
    async def player(self, info: Info, id: strawberry.ID) -> PlayerProfile | None:
        row = await info.context.run(info.context.readmodels.profile, str(id))
        return PlayerProfile.of(row) if row else None

    @strawberry.field(description="Ratings (multi-player Elo) of one game, best first.")
    async def leaderboard(
        self, info: Info, kind: GameKind, first: int | None = None, after: str | None = None
    ) -> RatingConnection:
        limit = page_size(first)
        offset = decode_cursor("rank", after) or 0
        rows = await info.context.run(
            info.context.readmodels.leaderboard, kind.value, limit + 1, offset
        )
        nodes = [
            Rating(
                rank=offset + n + 1,
                player_id=strawberry.ID(r["player_id"]),
                name=r["name"],
                rating=round(r["rating"], 2),
                games=r["games"],
                wins=r["wins"],
                peak=round(r["peak"], 2),
            )
            for n, r in enumerate(rows[:limit])
        ]
        edges = [RatingEdge(cursor=encode_cursor("rank", r.rank), node=r) for r in nodes]
        return RatingConnection(
            edges=edges,
            nodes=nodes,
            page_info=PageInfo(
                has_next_page=len(rows) > limit, end_cursor=edges[-1].cursor if edges else after
            ),
        )

    @strawberry.field(description="Points by scoring source over the finished games of a kind.")
    async def statistics(self, info: Info, kind: GameKind) -> GameStatistics:
        found = await info.context.run(info.context.readmodels.statistics, kind.value)
        return GameStatistics(
            kind=kind,
            games=found["games"],
            sources=[ScoreSource(**s) for s in found["sources"]],
        )

    @strawberry.field(description="How far each read model has applied the event store.")
    async def read_models(self, info: Info) -> ReadModelStatus:
        models = info.context.readmodels

        def status() -> ReadModelStatus:
            return ReadModelStatus(
                store_position=models.store_position(),
                read_models=[
                    ReadModelPosition(name=n, position=p) for n, p in models.positions().items()
                ],
            )

        return await info.context.run(status)

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

    @strawberry.subscription(
        description="Tables as they are created, seated, started, finished or abandoned "
        "(the summary after the change; a table left the lobby when it is no longer OPEN)."
    )
    async def lobby_changed(
        self, info: Info, kind: GameKind | None = None
    ) -> AsyncGenerator[GameSummary, None]:
        context = info.context
        queue = context.hub.lobby_queue()
        try:
            while True:
                game_id, version = await queue.get()
                row = await summary_after(context, game_id, version)
                if row is not None and (kind is None or row["kind"] == kind.value):
                    yield GameSummary.of(row)
        finally:
            context.hub.release_lobby(queue)


DEPTH_RULE = create_validator(MAX_DEPTH, None, None)
#: how long a lobby change waits for the read model to show it (another process may be
#: applying that entry right now), and how often it looks
LOBBY_WAIT, LOBBY_POLL = 5.0, 0.02


async def summary_after(context: Context, game_id: str, version: int) -> dict[str, Any] | None:
    """The game's summary once the read model shows entry ``version`` or later; after
    ``LOBBY_WAIT`` seconds the latest there is. Waits on the event loop, not on a worker."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + LOBBY_WAIT
    while True:
        row = await context.run(context.readmodels.summary, game_id)
        if (row is not None and row["version"] >= version) or loop.time() > deadline:
            return row
        await asyncio.sleep(LOBBY_POLL)


async def wait_for(info: Info, position: int | None) -> None:
    """Read your writes: wait (5 s at most) until the read models have applied ``position``."""
    if position is not None:
        await info.context.run(info.context.readmodels.wait_for, position)


async def summary_page(
    info: Info,
    kind: GameKind | None,
    status: GameStatus | None,
    player: strawberry.ID | None,
    lobby: bool,
    first: int | None,
    after: str | None,
    options: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    limit = page_size(first)
    before = decode_cursor("game", after)
    rows = await info.context.run(
        lambda: info.context.readmodels.summaries(
            kind=kind.value if kind else None,
            status=status.value if status else None,
            player_id=str(player) if player else None,
            lobby=lobby,
            options=options,
            limit=limit + 1,
            before_seq=before,
        )
    )
    return rows[:limit], len(rows) > limit


def summary_connection(
    rows: list[dict[str, Any]], has_next: bool, after: str | None
) -> GameSummaryConnection:
    edges = [
        GameSummaryEdge(cursor=encode_cursor("game", str(r["seq"])), node=GameSummary.of(r))
        for r in rows
    ]
    return GameSummaryConnection(
        edges=edges,
        nodes=[e.node for e in edges],
        page_info=PageInfo(has_next_page=has_next, end_cursor=edges[-1].cursor if edges else after),
    )


class PapyrusSchema(strawberry.Schema):
    def process_errors(self, errors: list[Any], execution_context: Any = None) -> None:
        """Log bugs only: a refused command or a bad query is the client's business."""
        unexpected = [e for e in errors if is_unexpected(e)]
        if unexpected:
            super().process_errors(unexpected, execution_context)


schema = PapyrusSchema(
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
