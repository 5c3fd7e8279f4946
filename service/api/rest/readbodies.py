"""The bodies of the read-model routes: summaries, the lobby, profiles, ratings, statistics."""

from __future__ import annotations

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)

from service.api.rest.models import Shown, Timestamp
from service.api.rest.params import (
    JsonObject,
    KindName,
    StatusName,
)


class SummarySeat(Shown):
    seat: int
    player_id: str | None
    name: str | None
    is_bot: bool


class GameSummary(Shown):
    game_id: str
    kind: KindName
    status: StatusName
    options: JsonObject
    seats: list[SummarySeat]
    free_seats: int
    active_seats: list[int]
    scores: list[int]
    winners: list[int] | None
    version: int
    ranked: bool = Field(description="The game counts in ratings, profiles and statistics.")
    unranked_reason: str | None = Field(
        description='Why it does not: "the creator chose the seed", "a fork" or "an imported '
        'copy"; null for a ranked game.'
    )
    created_at: Timestamp
    last_activity: Timestamp


class SummaryPage(Shown):
    items: list[GameSummary]
    next_cursor: str | None = Field(description="Send it as `cursor` for the next page.")
    total_count: int = Field(
        description="How many games match the filters, over every page (not this page alone)."
    )


class Profile(Shown):
    player_id: str
    name: str
    games_played: int
    games_won: int
    average_score: float
    by_kind: dict[str, JsonObject]
    recent_games: list[JsonObject]
    average_thinking_ms: float | None = Field(
        None,
        description="Average thinking time per timed turn over the player's finished games at "
        "timed tables, in milliseconds (null: none yet).",
    )


class Rating(BaseModel):
    """A leaderboard line (snake_case members, as the read model has them)."""

    model_config = ConfigDict(extra="forbid")
    rank: int
    player_id: str
    name: str
    rating: float
    games: int
    wins: int
    peak: float


class Leaderboard(Shown):
    items: list[Rating]
    total_count: int = Field(description="How many players the leaderboard ranks, every page.")


class ScoringSource(BaseModel):
    model_config = ConfigDict(extra="allow")
    source: str
    points: int
    average_per_game: float


class Statistics(BaseModel):
    """Points by scoring source, as the read model has them (snake_case members)."""

    model_config = ConfigDict(extra="allow")
    kind: str
    games: int
    sources: list[ScoringSource]


class ReadModelStatus(Shown):
    store_position: int = Field(description="The last notification the event store holds.")
    read_models: dict[str, int] = Field(description="How far each read model has applied it.")
