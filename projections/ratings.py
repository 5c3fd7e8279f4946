"""Ratings and leaderboards: multi-player Elo, recomputable from history.

A game of n rated players counts as every pair of them playing once: the better-ranked player
of a pair scores 1, a tie 0.5 each. Each player's rating moves by
``K / (n - 1) * sum over opponents (score - expected)`` with
``expected = 1 / (1 + 10 ** ((opponent - player) / 400))``, so a 2-player game is plain Elo
and a rating change does not grow with the number of opponents. Everybody starts at 1500.
Bots, unranked tables (forks, imported copies, tables whose creator chose the seed) and games
where one player holds several seats are not rated.
"""

from __future__ import annotations

from typing import Any

Row = dict[str, Any]
START = 1500.0
K = 32.0


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
    if (
        summary.get("unranked_reason")
        or summary.get("forked_from")
        or summary.get("imported")
        or not summary.get("ranks")
    ):
        return []
    humans = [p for p in summary["players"] if p["player_id"] and not p["bot"]]
    ids = [p["player_id"] for p in humans]
    if len(set(ids)) != len(ids) or len(humans) < 2:
        return []
    return [(p["seat"], p["player_id"], p["name"]) for p in humans]


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
        row.update(
            name=name,
            rating=rating,
            games=row["games"] + 1,
            wins=row["wins"] + int(ranks[seat] == 1),
            peak=max(row["peak"], rating),
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
