"""GraphQL types of the read models: summaries, the lobby, profiles, ratings, stats.

Their fields are declared once, for both transports, in ``service.api.shapes.readmodels``;
here they are derived (``service.api.graphql.shaped``), with the builders GraphQL needs."""

from __future__ import annotations

from typing import Any

from service.api.graphql.pages import Connection, paged
from service.api.graphql.shaped import Derived, build, graphql_type
from service.api.shapes import readmodels as shapes


@graphql_type(shapes.SummarySeat)
class SummarySeat(Derived):
    pass


@graphql_type(shapes.GameSummary)
class GameSummary(Derived):
    """A game as the read model keeps it: public facts only."""

    @classmethod
    def of(cls, row: dict[str, Any]) -> GameSummary:
        return build(cls, shapes.summary(row))


@paged(
    "A page of game summaries (Relay connection).",
    edges="The page's summaries, with cursors.",
    nodes="The page's summaries.",
    total_count="How many games match the filters, over every page (not this page alone).",
    edge="A game summary of a page, with its cursor.",
    cursor="Pass as `after` to read the summaries after it.",
    node="The summary.",
)
class GameSummaryConnection(Connection[GameSummary]):
    """A page of ``gameSummaries`` and ``lobby``."""


@graphql_type(shapes.KindRecord)
class KindRecord(Derived):
    pass


@graphql_type(shapes.RecentGame)
class RecentGame(Derived):
    pass


@graphql_type(shapes.Profile)
class PlayerProfile(Derived):
    @classmethod
    def of(cls, row: dict[str, Any]) -> PlayerProfile:
        return build(cls, shapes.profile(row))


@graphql_type(shapes.Rating)
class Rating(Derived):
    @classmethod
    def of(cls, rank: int, row: dict[str, Any]) -> Rating:
        """The leaderboard's ``row`` at place ``rank``."""
        line = shapes.rating(rank, row)
        return build(
            cls, {**line, "rating": round(line["rating"], 2), "peak": round(line["peak"], 2)}
        )


@graphql_type(shapes.RatingPoint)
class RatingPoint(Derived):
    pass


@graphql_type(shapes.PlayerRating)
class PlayerRating(Derived):
    @classmethod
    def of(cls, rank: int, row: dict[str, Any]) -> PlayerRating:
        """A player's ``row`` of the ratings at place ``rank``."""
        return build(cls, shapes.player_rating(rank, row))


@paged(
    "A page of the leaderboard (Relay connection).",
    edges="The page's lines, with cursors.",
    nodes="The page's lines.",
    total_count="How many players the leaderboard ranks, over every page.",
    edge="A leaderboard line of a page, with its cursor.",
    cursor="Pass as `after` to read the lines after it.",
    node="The line.",
)
class RatingConnection(Connection[Rating]):
    """A page of ``leaderboard``."""


@graphql_type(shapes.ScoreSource)
class ScoreSource(Derived):
    pass


@graphql_type(shapes.Statistics)
class GameStatistics(Derived):
    pass


@graphql_type(shapes.ReadModelPosition)
class ReadModelPosition(Derived):
    pass


@graphql_type(shapes.ReadModelStatus)
class ReadModelStatus(Derived):
    pass
