"""The shapes of the read models (summaries, the lobby, profiles, ratings, statistics, how far
the read models are) and the snake_case data both transports build them from."""

from __future__ import annotations

from typing import Any

from service.api.shapes.declare import Id, Json, Kind, Status, Timestamp, described, shape

GAMES_WON = "Of those, games won (a shared win counts)."
AVERAGE_SCORE = "Average final score (0 without games)."


@shape("A seat of a game summary (public facts only).")
class SummarySeat:
    seat: int = described("The seat number, 0-based in seating order.")
    player_id: Id | None = described("The seated player's id; null for a free seat or a bot.")
    name: str | None = described("The seated player's (or bot's) name; null for a free seat.")
    is_bot: bool = described("A server-side bot holds the seat.")


@shape(
    "A game as the read model keeps it: public facts only (what a spectator sees).",
    rest_order=(
        *("game_id", "kind", "status", "options", "seats", "free_seats", "active_seats"),
        *("scores", "winners", "version", "ranked", "unranked_reason", "created_at"),
        "last_activity",
    ),
)
class GameSummary:
    game_id: Id = described(
        "The game's id (`game(id:)`).", rest_description="The game's id (`GET /games/{id}`)."
    )
    kind: Kind = described("Which game.")
    status: Status = described("Where the table is in its life.")
    options: Json = described("The table options (as `Game.options`).")
    seats: list[SummarySeat] = described("Every seat, in seat order.")
    free_seats: int = described("Seats still free (0 once the game starts).")
    active_seats: list[int] = described("Whose turn it is.")
    scores: list[int] = described("The public score track, by seat.")
    winners: list[int] | None = described("The winning seats; null until the game is finished.")
    version: int = described(
        "The game version this summary reflects: the number of the last event a spectator sees "
        "(a spectator's `Game.version`)."
    )
    created_at: Timestamp = described("When the table was created (ISO 8601, UTC).")
    last_activity: Timestamp = described("Time of the last event a spectator sees (ISO 8601, UTC).")
    forked_from: Id | None = described(
        "The game this one was forked from; null for an original game.", rest=False
    )
    ranked: bool = described(
        "The game will be rated when it finishes (the rule of `Game.ranked`: two or more "
        "human players, each holding one seat, a seed nobody chose, not a fork, not a copy)."
    )
    unranked_reason: str | None = described(
        'Why it will not be: "the creator chose the seed", "a fork", "an imported copy", '
        '"fewer than two human players" or "a player holds several seats"; null for a ranked '
        "game."
    )


@shape("A player's record in one game kind (ranked finished games).", rest=False)
class KindRecord:
    kind: Kind = described("Which game.")
    games_played: int = described("Ranked games finished.")
    games_won: int = described(GAMES_WON)
    average_score: float = described(AVERAGE_SCORE)


@shape("One of a player's recently finished ranked games.", rest=False)
class RecentGame:
    game_id: Id = described("The game's id.")
    kind: Kind = described("Which game.")
    seat: int = described("The player's seat in it.")
    score: int = described("The player's final score.")
    rank: int | None = described("The player's final rank (1 = first); null when unknown.")
    won: bool = described("The player won (or shared the win).")
    finished_at: Timestamp = described("When the game finished (ISO 8601, UTC).")


@shape(
    "A player's public profile, kept from ranked finished games (unranked tables: forks, "
    "imported copies, chosen seeds, do not count).",
    graphql="PlayerProfile",
    rest="Profile",
)
class Profile:
    player_id: Id = described("The player's id.")
    name: str = described("The player's name.")
    games_played: int = described("Ranked games finished, every kind.")
    games_won: int = described(GAMES_WON)
    average_score: float = described(AVERAGE_SCORE)
    by_kind: list[KindRecord] = described(
        "The same record per game kind.",
        rest_type=dict[str, Json],
        rest_description="The same record per game kind (its games played, games won and "
        "total score), by kind.",
    )
    recent_games: list[RecentGame] = described(
        "The most recently finished games, newest first.", rest_type=list[Json]
    )
    average_thinking_ms: float | None = described(
        "Average thinking time per timed turn over the player's finished games at timed "
        "tables, in milliseconds (null: none yet).",
        default=None,
    )


@shape(
    "A leaderboard line: multi-player Elo (every pair of a game's players counts as one match, "
    "K 32, start 1500) over ranked games without bots."
)
class Rating:
    rank: int = described("Place on the leaderboard, 1 = best rating.")
    player_id: Id = described("The player's id.")
    name: str = described("The player's name.")
    rating: float = described("The current Elo rating.")
    games: int = described("Rated games played in this kind.")
    wins: int = described(GAMES_WON)
    peak: float = described("The highest rating the player ever had.")


@shape("A player's rating right after one rated game.", rest=False)
class RatingPoint:
    game_id: Id = described("The rated game (`game(id:)`; its replay).")
    rating: float = described("The player's Elo rating right after it.")
    at: Timestamp | None = described("When the game finished (ISO 8601, UTC).")


@shape(
    "A player's rating in one game kind, with its history (the latest rated games).",
    rest=False,
)
class PlayerRating:
    kind: Kind = described("Which game.")
    rank: int = described("The player's place on the kind's leaderboard, 1 = best rating.")
    rating: float = described("The current Elo rating.")
    games: int = described("Rated games played in this kind.")
    wins: int = described(GAMES_WON)
    peak: float = described("The highest rating the player ever had.")
    history: list[RatingPoint] = described(
        "The rating after each of the player's latest rated games of this kind (up to 60), "
        "oldest first; the rating before the first one is 1500 when `games` is their count."
    )


@shape(
    "Points scored from one source over the finished games of a kind.",
    graphql="ScoreSource",
    rest="ScoringSource",
)
class ScoreSource:
    source: str = described(
        'Where the points came from: the scoring item or site the game\'s scoring event names '
        '("pyramids", "temple" …), else the scoring event\'s name; "other" for the rest.'
    )
    points: int = described("Points from this source, all games together.")
    average_per_game: float = described("`points` divided by the games.")


@shape(
    "Where the points of finished games of one kind came from.",
    graphql="GameStatistics",
    rest="Statistics",
)
class Statistics:
    kind: Kind = described("Which game.", rest_type=str)
    games: int = described("Finished games counted.")
    sources: list[ScoreSource] = described("Points by scoring source.")


@shape("How far one read model has applied the store's notifications.", rest=False)
class ReadModelPosition:
    name: str = described("The read model's name.")
    position: int = described(
        "How far it has applied the store, as a public position: the number of game events "
        "everybody sees up to there (another seat's private steps do not count)."
    )


@shape(
    "How far the read models (summaries, lobby, profiles, ratings) lag behind the store: pass "
    "a position as `minPosition` to read your own writes."
)
class ReadModelStatus:
    store_position: int = described(
        "The store's public position: the number of game events everybody sees (another "
        "seat's private steps do not count)."
    )
    read_models: list[ReadModelPosition] = described(
        "Each read model's position.",
        rest_type=dict[str, int],
        rest_description="How far each read model has applied the store, as a public position.",
    )


# -- the data of the shapes, from the read models' rows ------------------------------------------


def average(total: float, count: int) -> float:
    return total / count if count else 0.0


def summary(row: dict[str, Any]) -> dict[str, Any]:
    """A ``GameSummary`` of a row of the summaries."""
    forked_from = row.get("forked_from")
    return {
        "game_id": row["game_id"],
        "kind": row["kind"],
        "status": row["status"],
        "options": row["options"],
        "seats": [
            {
                "seat": p["seat"],
                "player_id": p["player_id"],
                "name": p["name"],
                "is_bot": bool(p["bot"]),
            }
            for p in row["players"]
        ],
        **{key: row[key] for key in SUMMARY_AS_IS},
        "last_activity": row["updated_at"],
        "forked_from": forked_from["game_id"] if forked_from else None,
        "ranked": row["unranked_reason"] is None,
        "unranked_reason": row["unranked_reason"],
    }


SUMMARY_AS_IS = ("free_seats", "active_seats", "scores", "winners", "version", "created_at")


def profile(row: dict[str, Any]) -> dict[str, Any]:
    """A ``Profile`` of a player's row of the profiles."""
    return {
        "player_id": row["player_id"],
        "name": row["name"],
        "games_played": row["games_played"],
        "games_won": row["games_won"],
        "average_score": average(row["total_score"], row["games_played"]),
        "by_kind": [
            {
                "kind": kind,
                "games_played": k["games_played"],
                "games_won": k["games_won"],
                "average_score": average(k["total_score"], k["games_played"]),
            }
            for kind, k in sorted(row["by_kind"].items())
        ],
        "recent_games": row["recent"],
        "average_thinking_ms": row["thinking_ms"] / row["timed_turns"]
        if row.get("timed_turns")
        else None,
    }


RATING_MEMBERS = ("player_id", "name", "rating", "games", "wins", "peak")


def rating(rank: int, row: dict[str, Any]) -> dict[str, Any]:
    """A ``Rating``: the leaderboard's ``row`` at place ``rank``."""
    return {"rank": rank, **{key: row[key] for key in RATING_MEMBERS}}


def player_rating(rank: int, row: dict[str, Any]) -> dict[str, Any]:
    """A ``PlayerRating``: a player's ``row`` of the ratings, at place ``rank``."""
    return {
        "kind": row["kind"],
        "rank": rank,
        **{key: round(row[key], 2) for key in ("rating", "peak")},
        "games": row["games"],
        "wins": row["wins"],
        "history": [
            {"game_id": p["game_id"], "rating": round(p["rating"], 2), "at": p.get("at")}
            for p in row.get("history", [])
        ],
    }
