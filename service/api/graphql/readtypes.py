"""GraphQL types of the read models: summaries, the lobby, profiles, ratings, stats."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.types import GameKind, GameStatus, PageInfo

#: counts what a connection's filters match, on every page; called only when `totalCount` is
#: selected (one ``COUNT`` in the read model's SQL)
Counter = Callable[[], Awaitable[int]]


@strawberry.type(description="A seat of a game summary (public facts only).")
class SummarySeat:
    seat: int = strawberry.field(description="The seat number, 0-based in seating order.")
    player_id: strawberry.ID | None = strawberry.field(
        description="The seated player's id; null for a free seat or a bot."
    )
    name: str | None = strawberry.field(
        description="The seated player's (or bot's) name; null for a free seat."
    )
    is_bot: bool = strawberry.field(description="A server-side bot holds the seat.")


@strawberry.type(
    description="A game as the read model keeps it: public facts only (what a spectator sees)."
)
class GameSummary:
    """A game as the read model keeps it: public facts only."""

    game_id: strawberry.ID = strawberry.field(description="The game's id (`game(id:)`).")
    kind: GameKind = strawberry.field(description="Which game.")
    status: GameStatus = strawberry.field(description="Where the table is in its life.")
    options: JSON = strawberry.field(description="The table options (as `Game.options`).")
    seats: list[SummarySeat] = strawberry.field(description="Every seat, in seat order.")
    free_seats: int = strawberry.field(description="Seats still free (0 once the game starts).")
    active_seats: list[int] = strawberry.field(description="Whose turn it is.")
    scores: list[int] = strawberry.field(description="The public score track, by seat.")
    winners: list[int] | None = strawberry.field(
        description="The winning seats; null until the game is finished."
    )
    version: int = strawberry.field(
        description="The game version this summary reflects: the number of the last event a "
        "spectator sees (a spectator's `Game.version`)."
    )
    created_at: str = strawberry.field(description="When the table was created (ISO 8601, UTC).")
    last_activity: str = strawberry.field(
        description="Time of the last event a spectator sees (ISO 8601, UTC)."
    )
    forked_from: strawberry.ID | None = strawberry.field(
        description="The game this one was forked from; null for an original game."
    )
    ranked: bool = strawberry.field(
        description="The game counts in ratings, profiles and statistics."
    )
    unranked_reason: str | None = strawberry.field(
        description='Why it does not: "the creator chose the seed", "a fork" or "an imported '
        'copy"; null for a ranked game.'
    )

    @classmethod
    def of(cls, row: dict[str, Any]) -> GameSummary:
        return cls(
            game_id=strawberry.ID(row["game_id"]),
            kind=GameKind(row["kind"]),
            status=GameStatus(row["status"]),
            options=JSON(row["options"]),
            seats=[
                SummarySeat(
                    seat=p["seat"],
                    player_id=strawberry.ID(p["player_id"]) if p["player_id"] else None,
                    name=p["name"],
                    is_bot=bool(p["bot"]),
                )
                for p in row["players"]
            ],
            free_seats=row["free_seats"],
            active_seats=row["active_seats"],
            scores=row["scores"],
            winners=row["winners"],
            version=row["version"],
            created_at=row["created_at"],
            last_activity=row["updated_at"],
            forked_from=strawberry.ID(row["forked_from"]["game_id"])
            if row.get("forked_from")
            else None,
            ranked=row["unranked_reason"] is None,
            unranked_reason=row["unranked_reason"],
        )


@strawberry.type(description="A game summary of a page, with its cursor.")
class GameSummaryEdge:
    cursor: str = strawberry.field(description="Pass as `after` to read the summaries after it.")
    node: GameSummary = strawberry.field(description="The summary.")


@strawberry.type(description="A page of game summaries (Relay connection).")
class GameSummaryConnection:
    edges: list[GameSummaryEdge] = strawberry.field(
        description="The page's summaries, with cursors."
    )
    nodes: list[GameSummary] = strawberry.field(description="The page's summaries.")
    page_info: PageInfo = strawberry.field(description="Where this page lies.")
    _count: strawberry.Private[Counter | None] = None

    @strawberry.field(
        description="How many games match the filters, over every page (not this page alone)."
    )
    async def total_count(self) -> int:
        assert self._count is not None, "a connection built without its count"
        return await self._count()


@strawberry.type(description="A player's record in one game kind (ranked finished games).")
class KindRecord:
    kind: GameKind = strawberry.field(description="Which game.")
    games_played: int = strawberry.field(description="Ranked games finished.")
    games_won: int = strawberry.field(description="Of those, games won (a shared win counts).")
    average_score: float = strawberry.field(description="Average final score (0 without games).")


@strawberry.type(description="One of a player's recently finished ranked games.")
class RecentGame:
    game_id: strawberry.ID = strawberry.field(description="The game's id.")
    kind: GameKind = strawberry.field(description="Which game.")
    seat: int = strawberry.field(description="The player's seat in it.")
    score: int = strawberry.field(description="The player's final score.")
    rank: int | None = strawberry.field(
        description="The player's final rank (1 = first); null when unknown."
    )
    won: bool = strawberry.field(description="The player won (or shared the win).")
    finished_at: str = strawberry.field(description="When the game finished (ISO 8601, UTC).")


@strawberry.type(
    description="A player's public profile, kept from ranked finished games (unranked tables: "
    "forks, imported copies, chosen seeds, do not count)."
)
class PlayerProfile:
    player_id: strawberry.ID = strawberry.field(description="The player's id.")
    name: str = strawberry.field(description="The player's name.")
    games_played: int = strawberry.field(description="Ranked games finished, every kind.")
    games_won: int = strawberry.field(description="Of those, games won (a shared win counts).")
    average_score: float = strawberry.field(description="Average final score (0 without games).")
    by_kind: list[KindRecord] = strawberry.field(description="The same record per game kind.")
    recent_games: list[RecentGame] = strawberry.field(
        description="The most recently finished games, newest first."
    )
    average_thinking_ms: float | None = strawberry.field(
        default=None,
        description="Average thinking time per timed turn over the player's finished games "
        "at timed tables, in milliseconds (null: none yet).",
    )

    @classmethod
    def of(cls, row: dict[str, Any]) -> PlayerProfile:
        played = row["games_played"]
        return cls(
            player_id=strawberry.ID(row["player_id"]),
            name=row["name"],
            games_played=played,
            games_won=row["games_won"],
            average_score=row["total_score"] / played if played else 0.0,
            average_thinking_ms=row["thinking_ms"] / row["timed_turns"]
            if row.get("timed_turns")
            else None,
            by_kind=[
                KindRecord(
                    kind=GameKind(kind),
                    games_played=k["games_played"],
                    games_won=k["games_won"],
                    average_score=k["total_score"] / k["games_played"]
                    if k["games_played"]
                    else 0.0,
                )
                for kind, k in sorted(row["by_kind"].items())
            ],
            recent_games=[
                RecentGame(
                    game_id=strawberry.ID(g["game_id"]),
                    kind=GameKind(g["kind"]),
                    seat=g["seat"],
                    score=g["score"],
                    rank=g["rank"],
                    won=g["won"],
                    finished_at=g["finished_at"],
                )
                for g in row["recent"]
            ],
        )


@strawberry.type(
    description="A leaderboard line: multi-player Elo (every pair of a game's players counts as "
    "one match, K 32, start 1500) over ranked games without bots."
)
class Rating:
    rank: int = strawberry.field(description="Place on the leaderboard, 1 = best rating.")
    player_id: strawberry.ID = strawberry.field(description="The player's id.")
    name: str = strawberry.field(description="The player's name.")
    rating: float = strawberry.field(description="The current Elo rating.")
    games: int = strawberry.field(description="Rated games played in this kind.")
    wins: int = strawberry.field(description="Of those, games won (a shared win counts).")
    peak: float = strawberry.field(description="The highest rating the player ever had.")


@strawberry.type(description="A leaderboard line of a page, with its cursor.")
class RatingEdge:
    cursor: str = strawberry.field(description="Pass as `after` to read the lines after it.")
    node: Rating = strawberry.field(description="The line.")


@strawberry.type(description="A page of the leaderboard (Relay connection).")
class RatingConnection:
    edges: list[RatingEdge] = strawberry.field(description="The page's lines, with cursors.")
    nodes: list[Rating] = strawberry.field(description="The page's lines.")
    page_info: PageInfo = strawberry.field(description="Where this page lies.")
    _count: strawberry.Private[Counter | None] = None

    @strawberry.field(description="How many players the leaderboard ranks, over every page.")
    async def total_count(self) -> int:
        assert self._count is not None, "a connection built without its count"
        return await self._count()


@strawberry.type(description="Points scored from one source over the finished games of a kind.")
class ScoreSource:
    source: str = strawberry.field(
        description='Where the points came from: a scoring item (Amun-Re "pyramids", '
        '"temples" …), an Imhotep site ("pyramids", "temple" …), else the scoring event\'s '
        'name; "other" for the rest.'
    )
    points: int = strawberry.field(description="Points from this source, all games together.")
    average_per_game: float = strawberry.field(description="`points` divided by the games.")


@strawberry.type(description="Where the points of finished games of one kind came from.")
class GameStatistics:
    kind: GameKind = strawberry.field(description="Which game.")
    games: int = strawberry.field(description="Finished games counted.")
    sources: list[ScoreSource] = strawberry.field(description="Points by scoring source.")


@strawberry.type(description="How far one read model has applied the store's notifications.")
class ReadModelPosition:
    name: str = strawberry.field(description="The read model's name.")
    position: int = strawberry.field(description="Last notification of the store applied.")


@strawberry.type(
    description="How far the read models (summaries, lobby, profiles, ratings) lag behind "
    "the store: pass a position as `minPosition` to read your own writes."
)
class ReadModelStatus:
    store_position: int = strawberry.field(description="Last notification in the store.")
    read_models: list[ReadModelPosition] = strawberry.field(
        description="Each read model's position."
    )
