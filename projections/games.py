"""Game summaries: one row per game for listings, the lobby and player search.

``summarize`` is the pure event-to-row mapping. It sees a table entry and the *public* facts
after it (status, who must act, the public score track, whether the game is an imported copy),
never a game's secrets. A row says whether its game is ranked (``domain.table.why_unranked``;
``read`` adds the seats, as the ratings do: ``domain.table.why_unrated``).
"""

from __future__ import annotations

from typing import Any

from domain import table as tables
from projections import ratings

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
            "unranked_reason": tables.why_unranked(
                imported=bool(public.get("imported")),
                forked=d.get("forked_from") is not None,
                seed_chosen=d.get("seed_chosen") is True,
            ),
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
        log_version=entry.version,
    )
    # a spectator's log (``domain.visibility``): an entry private to a seat is not part of it,
    # so the version (its number there) and the last activity do not move with it; once the
    # game is over every entry is
    if public["status"] == tables.FINISHED:
        row.update(version=entry.version, updated_at=entry.at)
    elif public.get("visible", True):
        row.update(version=row.get("version", 0) + 1, updated_at=entry.at)
    return row


def read(row: Row) -> Row:
    """A stored row as the queries answer it, its ``unranked_reason`` the rating rule's
    (``projections.ratings.unrated_reason``: the table's own reason, then its seats), as
    ``Game.unrankedReason`` says it. Rows written before summaries said whether their game is
    ranked say it of forks (an imported copy of that time is not known as one until
    ``papyrus projections rebuild``)."""
    if "unranked_reason" not in row:
        row["unranked_reason"] = tables.UNRANKED_FORK if row.get("forked_from") else None
    row["unranked_reason"] = ratings.unrated_reason(row)
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
