"""What the REST responses show of games, events and summaries: the snake_case data of their
shapes (``service.api.shapes``), as ``shaped.shown`` makes it for their bodies (``responses``,
``readbodies``)."""

from __future__ import annotations

from typing import Any

from domain import actions
from service.api.rest.routing import run
from service.api.rest.shaped import shown
from service.api.rest.typedactions import typed_of
from service.api.shapes import events, games, readmodels
from service.app import numbering, views
from service.app.clocks import clock_view, clock_view_at

#: who is asking (``service.app``'s ``Caller``); typed loosely so that the REST layer does not
#: depend on where the application keeps it
Caller = Any


async def presented(rt: Any, game: Any, caller: Caller) -> dict[str, Any]:
    """``present_game`` with the caller's log (``numbering.Timeline``), read on the workers."""
    log = await run(rt, numbering.timeline, rt.app.tables, game, caller)
    return present_game(game, caller, log, rt.app.clocks.now())


def present_game(
    game: Any, caller: Caller, log: numbering.Timeline | None = None, now: int | None = None
) -> dict[str, Any]:
    """``log``: the caller's log, whose numbers and last time the game shows (default: the log
    itself, for a game that hides no entry from the caller); ``now``: the application's time,
    for a timed table's clock (default: the latest time its log recorded)."""
    table = game.table
    log = log or numbering.Timeline(game.version, game.modified_on)
    legal = views.legal_actions(table, caller)
    unranked_reason = table.unrated_reason(imported=game.imported_by is not None)
    source = table.forked_from and log.fork_source(table.forked_from)
    data = {
        "id": str(game.id),
        "kind": table.kind,
        "status": table.status,
        "options": table.options,
        "version": log.version,
        "seed_commitment": table.seed_commitment,
        "rules_version": table.rules_version,
        "seats": [games.seat(s) for s in views.seat_list(table)],
        "my_seat": views.my_seat(table, caller),
        "active_seats": views.active_seats(table),
        "state": views.state(table, caller),
        "legal_actions": legal,
        "moves": moves(table.kind, legal),
        "scores": views.scores(table),
        "result": views.result(table),
        "forked_from": games.fork_source(source) if source else None,
        "ranked": unranked_reason is None,
        "unranked_reason": unranked_reason,
        "created_at": game.created_on,
        "updated_at": log.updated,
        "clock": clock_view_at(table) if now is None else clock_view(table, now),
    }
    return shown(games.Game, data)


def moves(kind: str, legal: list[Any]) -> list[dict[str, Any]]:
    catalog = actions.catalog_for(kind)
    return [
        {
            "action": a,
            "label": actions.label(catalog, a),
            "type": a["type"],
            "typed_action": typed_of(kind, a),
        }
        for a in legal
    ]


def present_event(event: dict[str, Any]) -> dict[str, Any]:
    """An entry of the log as ``views.event`` shows it, as a ``GameEvent`` body."""
    return shown(events.GameEvent, event)


def present_step(
    event: dict[str, Any], state: dict[str, Any], clock: dict[str, Any] | None
) -> dict[str, Any]:
    """A replay step as a ``ReplayStep`` body: the entry as ``views.event`` shows it, the state
    right after it and the clock then (``clock_view_at``; ``None``: no clock)."""
    return shown(events.ReplayStep, {"event": event, "state": state, "clock": clock})


def present_events(
    table: Any, records: list[Any], caller: Caller, log: numbering.Timeline | None = None
) -> list[dict[str, Any]]:
    """The records the caller sees (all of them without ``log``), numbered in its log."""
    return [
        present_event(views.event(table, r, caller, log))
        for r in records
        if log is None or log.sees(r.version)
    ]


def present_summary(row: dict[str, Any]) -> dict[str, Any]:
    """A row of the summaries as a ``GameSummary`` body (snake_case members)."""
    return shown(readmodels.GameSummary, readmodels.summary(row))


def present_profile(row: dict[str, Any]) -> dict[str, Any]:
    """A player's row of the profiles as a ``Profile`` body: REST shows the records by kind as
    the read model keeps them (games played, won, total score)."""
    return shown(readmodels.Profile, {**readmodels.profile(row), "by_kind": row["by_kind"]})


def present_ratings(rows: list[dict[str, Any]], offset: int) -> list[dict[str, Any]]:
    """The leaderboard's ``rows`` from place ``offset + 1`` as ``Rating`` bodies."""
    return [
        shown(readmodels.Rating, readmodels.rating(offset + n + 1, r)) for n, r in enumerate(rows)
    ]
