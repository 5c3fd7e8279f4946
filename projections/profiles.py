"""Player profiles: games played and won, average score, recent games.

``record_game`` is the pure mapping from a finished game's summary to one player's profile.
"""

from __future__ import annotations

from typing import Any

Row = dict[str, Any]
RECENT = 10


def record_game(profile: Row | None, player_id: str, name: str, summary: Row) -> Row:
    """The profile after the finished game ``summary`` (a ``projections.games`` row)."""
    seats = [p["seat"] for p in summary["players"] if p["player_id"] == player_id]
    profile = dict(
        profile
        or {
            "player_id": player_id,
            "name": name,
            "games_played": 0,
            "games_won": 0,
            "total_score": 0,
            "by_kind": {},
            "recent": [],
        }
    )
    winners = set(summary["winners"] or [])
    score = max(summary["scores"][s] for s in seats)
    absent = set(summary.get("timed_out") or [])  # a seat whose time ran out lost
    won = any(s in winners and s not in absent for s in seats)
    kind = summary["kind"]
    by_kind = {k: dict(v) for k, v in profile["by_kind"].items()}
    mine = by_kind.setdefault(kind, {"games_played": 0, "games_won": 0, "total_score": 0})
    mine["games_played"] += 1
    mine["games_won"] += int(won)
    mine["total_score"] += score
    recent = [
        {
            "game_id": summary["game_id"],
            "kind": kind,
            "seat": seats[0],
            "score": score,
            "rank": summary["ranks"][seats[0]] if summary["ranks"] else None,
            "won": won,
            "finished_at": summary["updated_at"],
        },
        *profile["recent"],
    ][:RECENT]
    thinking = summary.get("thinking") or []  # timed tables only (``domain.clock``)
    profile.update(
        thinking_ms=profile.get("thinking_ms", 0)
        + sum(thinking[s]["ms"] for s in seats if thinking),
        timed_turns=profile.get("timed_turns", 0)
        + sum(thinking[s]["turns"] for s in seats if thinking),
    )
    profile.update(
        name=name,
        games_played=profile["games_played"] + 1,
        games_won=profile["games_won"] + int(won),
        total_score=profile["total_score"] + score,
        by_kind=by_kind,
        recent=recent,
    )
    return profile


def average_score(profile: Row) -> float:
    played = profile["games_played"]
    return float(profile["total_score"]) / played if played else 0.0


def average_thinking_ms(profile: Row) -> float | None:
    """The player's average thinking time per timed turn, over their finished timed games
    (``None``: none yet)."""
    turns = profile.get("timed_turns", 0)
    return float(profile.get("thinking_ms", 0)) / turns if turns else None
