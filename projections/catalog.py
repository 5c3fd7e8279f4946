"""The game catalog read model: one summary row per game, for listings and the lobby.

``summarize`` is the pure event-to-row mapping; it sees only public table events (never a
game's secrets: rules events only move the version and the last-activity time).
"""

from __future__ import annotations

from typing import Any

from domain import table as tables

Row = dict[str, Any]


def summarize(row: Row | None, game_id: str, version: int, at: str, type_: str, data: Any) -> Row:
    """The summary row after one event of game ``game_id``."""
    if type_ == tables.TABLE_CREATED:
        return {
            "game_id": game_id,
            "kind": data["kind"],
            "seats": data["seats"],
            "options": data["options"],
            "status": tables.OPEN,
            "players": [None] * data["seats"],
            "bots": [False] * data["seats"],
            "free_seats": data["seats"],
            "created_at": at,
            "updated_at": at,
            "version": version,
            "winners": None,
            "scores": None,
        }
    if row is None:
        raise ValueError(f"event {type_} of unknown game {game_id}")
    row = {**row, "version": version, "updated_at": at}
    if type_ == tables.SEAT_TAKEN:
        players = list(row["players"])
        bots = list(row["bots"])
        players[data["seat"]] = data["name"]
        bots[data["seat"]] = data.get("bot") is not None
        row.update(players=players, bots=bots, free_seats=row["free_seats"] - 1)
    elif type_ == tables.GAME_STARTED:
        row["status"] = tables.ACTIVE
    elif type_ == tables.GAME_FINISHED:
        row.update(status=tables.FINISHED, winners=data["winners"], scores=data["scores"])
    elif type_ == tables.GAME_ABANDONED:
        row["status"] = tables.ABANDONED
    return row
