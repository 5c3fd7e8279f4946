"""Game summaries: one row per game for listings, the lobby and player search.

``summarize`` is the pure event-to-row mapping. It sees a table entry and the *public* facts
after it (status, who must act, the public score track), never a game's secrets.
"""

from __future__ import annotations

from typing import Any

from domain import table as tables

Row = dict[str, Any]


def summarize(row: Row | None, game_id: str, entry: Any, public: dict[str, Any]) -> Row:
    """The summary row of ``game_id`` after ``entry`` (a ``domain.log.Entry``)."""
    d = entry.data
    if entry.type == tables.TABLE_CREATED:
        row = {
            "game_id": game_id,
            "kind": d["kind"],
            "seats": d["seats"],
            "options": d["options"],
            "undo_allowed": d.get("undo_allowed", True),
            "forked_from": d.get("forked_from"),
            "players": [
                {"seat": s, "player_id": None, "name": None, "bot": None} for s in range(d["seats"])
            ],
            "free_seats": d["seats"],
            "created_at": entry.at,
            "winners": None,
            "ranks": None,
        }
    elif row is None:
        raise ValueError(f"{entry.type} (version {entry.version}) of a game never created")
    else:
        row = dict(row)
    if entry.type == tables.SEAT_TAKEN:
        players = [dict(p) for p in row["players"]]
        players[d["seat"]] = {
            "seat": d["seat"],
            "player_id": d["player_id"],
            "name": d["name"],
            "bot": d.get("bot"),
        }
        row["players"] = players
        row["free_seats"] = sum(1 for p in players if p["name"] is None)
    elif entry.type == tables.GAME_FINISHED:
        row.update(winners=list(d["winners"]), ranks=list(d["ranks"]))
    row.update(
        status=public["status"],
        active_seats=list(public["active_seats"]),
        scores=list(public["scores"]),
        version=entry.version,
        updated_at=entry.at,
    )
    return row


def is_open(row: Row) -> bool:
    """In the lobby: a table still waiting for players."""
    return bool(row["status"] == tables.OPEN and row["free_seats"] > 0)


def matches_options(row: Row, wanted: dict[str, Any] | None) -> bool:
    """Every wanted option has the wanted value (nested objects compared key by key)."""
    if not wanted:
        return True
    return contains(row["options"], wanted)


def contains(have: Any, want: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(have, dict) and all(
            k in have and contains(have[k], v) for k, v in want.items()
        )
    return bool(have == want)
