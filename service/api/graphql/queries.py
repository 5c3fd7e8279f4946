"""The queries (docs/API.md "Games", "Players"; read models; audits).

The fields are declared by area, each in its own module: ``GameQueries`` (the caller, the
catalogs and games, ``service.api.graphql.gamequeries``) and ``ReadModelQueries`` (summaries,
the lobby, profiles, ratings and statistics, ``service.api.graphql.readqueries``). ``Query`` is
the one root type of the schema that inherits both and adds the audits, in the order the schema
has always listed them (strawberry lists the fields of its bases first, in the order they are
named, then its own).
"""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from service.api.graphql.context import Info
from service.api.graphql.gamequeries import GameQueries
from service.api.graphql.readqueries import ReadModelQueries
from service.api.graphql.types import GameID, LogVerification
from service.app import numbering


@strawberry.type(description="The read operations: games, catalogs, read models and audits.")
class Query(GameQueries, ReadModelQueries):
    @strawberry.field(
        description="Recompute the hash chain, check the seed against its commitment and replay "
        "every event through the rules; reports the first event that does not hold."
    )
    async def verify_log(self, info: Info, game_id: GameID) -> LogVerification:
        context = info.context
        finding = await context.run(context.app.audit.verify, str(game_id))
        shown = await context.run(
            numbering.verification, context.app.tables, str(game_id), finding, context.caller
        )
        signed = await context.run(context.app.signing.verdict, str(game_id), finding.ok)
        return LogVerification(**shown, **signed)

    @strawberry.field(description="A finished game as one portable JSON document.")
    async def export_game(self, info: Info, game_id: GameID) -> JSON:
        return JSON(await info.context.run(info.context.app.archive.export, str(game_id)))
