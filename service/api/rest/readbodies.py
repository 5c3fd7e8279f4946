"""The bodies of the read-model routes: summaries, the lobby, profiles, ratings, statistics.

Their members are declared once, for both transports, in ``service.api.shapes.readmodels``;
here they are derived (``service.api.rest.shaped``). A docstring is REST's own wording of the
shape. The pages are the generic ``responses.Page``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from service.api.rest.models import Shown
from service.api.rest.responses import CursorPage, Page
from service.api.rest.shaped import rest_model
from service.api.shapes import readmodels as shapes


@rest_model(shapes.SummarySeat)
class SummarySeat(Shown):
    pass


@rest_model(shapes.GameSummary)
class GameSummary(Shown):
    pass


class SummaryPage(CursorPage[GameSummary]):
    """A page of game summaries."""


@rest_model(shapes.Profile)
class Profile(Shown):
    pass


@rest_model(shapes.Rating)
class Rating(BaseModel):
    """A leaderboard line (snake_case members, as the read model has them)."""

    model_config = ConfigDict(extra="forbid")


class Leaderboard(Page[Rating]):
    """A page of a game kind's leaderboard, best rating first."""

    total_count: int = Field(description="How many players the leaderboard ranks, every page.")


@rest_model(shapes.ScoreSource)
class ScoringSource(BaseModel):
    model_config = ConfigDict(extra="allow")


@rest_model(shapes.Statistics)
class Statistics(BaseModel):
    """Points by scoring source, as the read model has them (snake_case members)."""

    model_config = ConfigDict(extra="allow")


@rest_model(shapes.ReadModelStatus)
class ReadModelStatus(Shown):
    pass
