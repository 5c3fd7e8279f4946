"""GraphQL types of the read models: summaries, the lobby, profiles, ratings, stats."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.types import GameKind, GameStatus, PageInfo


@strawberry.type
class SummarySeat:
    seat: int
    player_id: strawberry.ID | None
    name: str | None
    is_bot: bool


@strawberry.type
class GameSummary:
    """A game as the read model keeps it: public facts only."""

    game_id: strawberry.ID
    kind: GameKind
    status: GameStatus
    options: JSON
    seats: list[SummarySeat]
    free_seats: int
    active_seats: list[int] = strawberry.field(description="Whose turn it is.")
    scores: list[int]
    winners: list[int] | None
    version: int = strawberry.field(
        description="The game version this summary reflects: the number of the last event a "
        "spectator sees (a spectator's `Game.version`)."
    )
    created_at: str
    last_activity: str
    forked_from: strawberry.ID | None
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


@strawberry.type
class GameSummaryEdge:
    cursor: str
    node: GameSummary


@strawberry.type
class GameSummaryConnection:
    edges: list[GameSummaryEdge]
    nodes: list[GameSummary]
    page_info: PageInfo


@strawberry.type
class KindRecord:
    kind: GameKind
    games_played: int
    games_won: int
    average_score: float


@strawberry.type
class RecentGame:
    game_id: strawberry.ID
    kind: GameKind
    seat: int
    score: int
    rank: int | None
    won: bool
    finished_at: str


@strawberry.type
class PlayerProfile:
    player_id: strawberry.ID
    name: str
    games_played: int
    games_won: int
    average_score: float
    by_kind: list[KindRecord]
    recent_games: list[RecentGame]

    @classmethod
    def of(cls, row: dict[str, Any]) -> PlayerProfile:
        played = row["games_played"]
        return cls(
            player_id=strawberry.ID(row["player_id"]),
            name=row["name"],
            games_played=played,
            games_won=row["games_won"],
            average_score=row["total_score"] / played if played else 0.0,
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


@strawberry.type
class Rating:
    rank: int
    player_id: strawberry.ID
    name: str
    rating: float
    games: int
    wins: int
    peak: float


@strawberry.type
class RatingEdge:
    cursor: str
    node: Rating


@strawberry.type
class RatingConnection:
    edges: list[RatingEdge]
    nodes: list[Rating]
    page_info: PageInfo


@strawberry.type
class ScoreSource:
    source: str
    points: int
    average_per_game: float


@strawberry.type
class GameStatistics:
    kind: GameKind
    games: int = strawberry.field(description="Finished games counted.")
    sources: list[ScoreSource] = strawberry.field(description="Points by scoring source.")


@strawberry.type
class ReadModelPosition:
    name: str
    position: int = strawberry.field(description="Last notification of the store applied.")


@strawberry.type
class ReadModelStatus:
    store_position: int = strawberry.field(description="Last notification in the store.")
    read_models: list[ReadModelPosition]
