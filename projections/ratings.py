"""Ratings and leaderboards: multi-player Elo, recomputable from history.

A game of n rated players counts as every pair of them playing once: the better-ranked player
of a pair scores 1, a tie 0.5 each. Each player's rating moves by
``K / (n - 1) * sum over opponents (score - expected)`` with
``expected = 1 / (1 + 10 ** ((opponent - player) / 400))``, so a 2-player game is plain Elo
and a rating change does not grow with the number of opponents. Everybody starts at 1500.
Bots, unranked tables (forks, imported copies, tables whose creator chose the seed), games
with fewer than two human players and games where one player holds several seats are not
rated: the rule is ``domain.table.why_unrated``, which ``Game.ranked`` and
``Game.unrankedReason`` state, so that they say what this projection does.
"""

from __future__ import annotations

from typing import Any

from domain import table as tables

Row = dict[str, Any]
START = 1500.0
K = 32.0
#: the rating points a row keeps (its ``history``, oldest first): the last ones
HISTORY = 60


def expected(player: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent - player) / 400.0))


def elo(ratings: list[float], ranks: list[int], k: float = K) -> list[float]:
    """New ratings after one game; ``ranks`` are competition ranks (1 = best, ties share)."""
    n = len(ratings)
    if n < 2:
        return list(ratings)
    new = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i == j:
                continue
            score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            total += score - expected(ratings[i], ratings[j])
        new.append(ratings[i] + k / (n - 1) * total)
    return new


def rated_seats(summary: Row) -> list[tuple[int, str, str]]:
    """(seat, player id, name) of the seats that count for ratings; empty if the game doesn't."""
    if not summary.get("ranks") or unrated_reason(summary) is not None:
        return []
    return [
        (p["seat"], p["player_id"], p["name"])
        for p in summary["players"]
        if p["player_id"] and not p["bot"]
    ]


def unrated_reason(summary: Row) -> str | None:
    """Why a game's summary is not rated (``domain.table.why_unrated``, the rule ``ranked``
    states too); ``None``: it is. A seat nobody took (``player_id`` and ``name`` null, no
    bot) is free."""
    table_reason = summary.get("unranked_reason")
    if table_reason is None and summary.get("forked_from"):  # rows older than the reason
        table_reason = tables.UNRANKED_FORK
    if table_reason is None and summary.get("imported"):
        table_reason = tables.UNRANKED_IMPORTED
    return tables.why_unrated(
        table_reason,
        [
            None
            if p["player_id"] is None and p.get("name") is None and not p["bot"]
            else (p["player_id"], bool(p["bot"]))
            for p in summary["players"]
        ],
    )


def rate_game(current: dict[str, Row | None], summary: Row) -> dict[str, Row]:
    """The rating rows of the game's rated players after it (``current``: rows by player id)."""
    seats = rated_seats(summary)
    if not seats:
        return {}
    kind = summary["kind"]
    rows = {
        pid: dict(
            current.get(pid)
            or {
                "kind": kind,
                "player_id": pid,
                "rating": START,
                "games": 0,
                "wins": 0,
                "peak": START,
            }
        )
        for _, pid, _ in seats
    }
    before = [rows[pid]["rating"] for _, pid, _ in seats]
    ranks = effective_ranks(summary)
    after = elo(before, [ranks[seat] for seat, _, _ in seats])
    for (seat, pid, name), rating in zip(seats, after, strict=True):
        row = rows[pid]
        point = {"game_id": summary["game_id"], "rating": rating, "at": summary.get("updated_at")}
        row.update(
            name=name,
            rating=rating,
            games=row["games"] + 1,
            wins=row["wins"] + int(ranks[seat] == 1),
            peak=max(row["peak"], rating),
            history=[*row.get("history", []), point][-HISTORY:],
        )
    return rows


def effective_ranks(summary: Row) -> list[int]:
    """The ranks that count for ratings: a seat whose time ran out (taken over by a bot,
    ``domain.clock``) lost, behind every seat that played to the end, whatever the bot made of
    it; absent seats keep their order among themselves."""
    ranks = list(summary["ranks"])
    absent = set(summary.get("timed_out") or [])
    if not absent:
        return ranks
    return [rank + (len(ranks) if seat in absent else 0) for seat, rank in enumerate(ranks)]
