"""What the REST responses show of games, events and summaries (shapes: ``models``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from domain import actions
from service.api.rest.routing import run
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
    return {
        "id": str(game.id),
        "kind": table.kind.upper(),
        "status": table.status,
        "options": table.options,
        "version": log.version,
        "seedCommitment": table.seed_commitment,
        "rulesVersion": table.rules_version,
        "seats": [
            {
                "seat": s["seat"],
                "player": {"id": s["player_id"], "name": s["name"]} if s["player_id"] else None,
                "isBot": s["is_bot"],
                "strategy": s["strategy"],
                "takenOver": s["taken_over"],
            }
            for s in views.seat_list(table)
        ],
        "mySeat": views.my_seat(table, caller),
        "activeSeats": views.active_seats(table),
        "state": views.state(table, caller),
        "legalActions": legal,
        "moves": moves(table.kind, legal),
        "scores": views.scores(table),
        "result": views.result(table),
        "forkedFrom": fork_source(table.forked_from and log.fork_source(table.forked_from)),
        **ranking(table.unranked_reason(imported=game.imported_by is not None)),
        "createdAt": game.created_on.isoformat(),
        "updatedAt": log.updated.isoformat(),
        "clock": present_clock(clock_view_at(table) if now is None else clock_view(table, now)),
    }


def present_clock(view: dict[str, Any] | None) -> dict[str, Any] | None:
    """A timed table's clock (``service.app.clocks.clock_view``) as REST shows it."""
    if view is None:
        return None

    def instant(ms: int | None) -> str | None:
        return None if ms is None else datetime.fromtimestamp(ms / 1000, UTC).isoformat()

    return {
        "mode": view["mode"],
        "moveMs": view["move_ms"],
        "bankMs": view["bank_ms"],
        "incrementMs": view["increment_ms"],
        "onExpiry": view["on_expiry"],
        "bot": view["bot"],
        "now": instant(view["now"]),
        "deadline": instant(view["deadline"]),
        "seats": [
            {
                "seat": s["seat"],
                "remainingMs": s["remaining_ms"],
                "deadline": instant(s["deadline"]),
                "running": s["running"],
                "takenOver": s["taken_over"],
                "timedOut": s["timed_out"],
                "thinkingMs": s["thinking_ms"],
                "turns": s["turns"],
            }
            for s in view["seats"]
        ],
    }


def moves(kind: str, legal: list[Any]) -> list[dict[str, Any]]:
    catalog = actions.catalog_for(kind)
    return [{"action": a, "label": actions.label(catalog, a), "type": a["type"]} for a in legal]


def ranking(unranked_reason: str | None) -> dict[str, Any]:
    return {"ranked": unranked_reason is None, "unrankedReason": unranked_reason}


def fork_source(source: dict[str, Any] | None) -> dict[str, Any] | None:
    if source is None:
        return None
    return {"gameId": source["game_id"], "version": source["version"], "seats": source.get("seats")}


def present_event(shown: dict[str, Any]) -> dict[str, Any]:
    return {
        "version": shown["version"],
        "at": shown["at"].isoformat(),
        "seat": shown["seat"],
        "type": shown["type"],
        "data": shown["data"],
        "automatic": shown["automatic"],
        "bySeat": shown["by_seat"],
        "undone": shown["undone"],
        "hash": shown["hash"],
    }


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
    return {
        "gameId": row["game_id"],
        "kind": row["kind"].upper(),
        "status": row["status"],
        "options": row["options"],
        "seats": [
            {
                "seat": p["seat"],
                "playerId": p["player_id"],
                "name": p["name"],
                "isBot": bool(p["bot"]),
            }
            for p in row["players"]
        ],
        "freeSeats": row["free_seats"],
        "activeSeats": row["active_seats"],
        "scores": row["scores"],
        "winners": row["winners"],
        "version": row["version"],
        **ranking(row["unranked_reason"]),
        "createdAt": row["created_at"],
        "lastActivity": row["updated_at"],
    }


def present_profile(row: dict[str, Any]) -> dict[str, Any]:
    played = row["games_played"]
    return {
        "playerId": row["player_id"],
        "name": row["name"],
        "gamesPlayed": played,
        "gamesWon": row["games_won"],
        "averageScore": row["total_score"] / played if played else 0.0,
        "byKind": row["by_kind"],
        "recentGames": row["recent"],
        "averageThinkingMs": row["thinking_ms"] / row["timed_turns"]
        if row.get("timed_turns")
        else None,
    }


RATING_MEMBERS = ("player_id", "name", "rating", "games", "wins", "peak")


def present_ratings(rows: list[dict[str, Any]], offset: int) -> dict[str, Any]:
    return {
        "items": [
            {"rank": offset + n + 1, **{k: r[k] for k in RATING_MEMBERS}}
            for n, r in enumerate(rows)
        ]
    }
