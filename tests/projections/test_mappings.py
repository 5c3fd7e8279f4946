"""Each read model's event-to-row mapping as a pure function."""

from __future__ import annotations

import pytest

from domain.log import Entry
from projections import bots, games, profiles, ratings, stats


def entry(version: int, type_: str, data: dict, at: str = "2026-11-29T10:00:00+00:00") -> Entry:  # type: ignore[type-arg]
    return Entry(version=version, at=at, type=type_, data=data)


CREATED = entry(
    1,
    "table_created",
    {
        "kind": "imhotep",
        "seats": 2,
        "options": {"sides": {"market": "B"}},
        "undo_allowed": True,
        "forked_from": None,
    },
)
OPEN = {"status": "OPEN", "active_seats": [], "scores": [0, 0]}


def test_a_created_table_is_an_open_summary_with_free_seats() -> None:
    row = games.summarize(None, "g1", CREATED, OPEN)
    assert row["status"] == "OPEN" and row["free_seats"] == 2 and row["version"] == 1
    assert games.is_open(row)
    assert [p["name"] for p in row["players"]] == [None, None]


def test_taking_seats_fills_the_summary_and_starting_leaves_the_lobby() -> None:
    row = games.summarize(None, "g1", CREATED, OPEN)
    row = games.summarize(
        row,
        "g1",
        entry(2, "seat_taken", {"seat": 1, "player_id": "p", "name": "Ana", "bot": None}),
        OPEN,
    )
    assert row["free_seats"] == 1 and row["players"][1]["name"] == "Ana"
    row = games.summarize(
        row,
        "g1",
        entry(3, "seat_taken", {"seat": 0, "player_id": None, "name": "Bot", "bot": "random"}),
        OPEN,
    )
    started = {"status": "ACTIVE", "active_seats": [1], "scores": [0, 0]}
    row = games.summarize(
        row, "g1", entry(4, "game_started", {"seats": 2}, at="2026-11-29T10:05:00+00:00"), started
    )
    assert not games.is_open(row)
    assert row["active_seats"] == [1] and row["updated_at"].startswith("2026-11-29T10:05")


def test_the_summary_never_sees_a_secret_only_public_facts() -> None:
    row = games.summarize(None, "g1", CREATED, OPEN)
    secret = entry(2, "game_prepared", {"deck": ["lever", "sail"], "round_cards": [1, 2]})
    after = games.summarize(
        row, "g1", secret, {"status": "ACTIVE", "active_seats": [0], "scores": [0, 0]}
    )
    assert "lever" not in str(after) and "deck" not in str(after)


def test_a_finished_game_records_winners() -> None:
    row = games.summarize(None, "g1", CREATED, OPEN)
    done = entry(9, "game_finished", {"scores": [30, 41], "winners": [1], "ranks": [2, 1]})
    row = games.summarize(
        row, "g1", done, {"status": "FINISHED", "active_seats": [], "scores": [30, 41]}
    )
    assert row["winners"] == [1] and row["status"] == "FINISHED" and row["scores"] == [30, 41]


def test_options_filter_matches_nested_values() -> None:
    row = games.summarize(None, "g1", CREATED, OPEN)
    assert games.matches_options(row, {"sides": {"market": "B"}})
    assert not games.matches_options(row, {"sides": {"market": "A"}})
    assert games.matches_options(row, None)


FINISHED = {
    "game_id": "g1",
    "kind": "imhotep",
    "players": [
        {"seat": 0, "player_id": "a", "name": "Ana", "bot": None},
        {"seat": 1, "player_id": "b", "name": "Bo", "bot": None},
        {"seat": 2, "player_id": None, "name": "Bot", "bot": "random"},
    ],
    "scores": [30, 41, 12],
    "winners": [1],
    "ranks": [2, 1, 3],
    "forked_from": None,
    "updated_at": "2026-11-29T11:00:00+00:00",
}


def test_a_profile_counts_games_wins_and_the_average_score() -> None:
    first = profiles.record_game(None, "b", "Bo", FINISHED)
    second = profiles.record_game(
        first,
        "b",
        "Bo",
        {**FINISHED, "game_id": "g2", "scores": [50, 21, 3], "winners": [0], "ranks": [1, 2, 3]},
    )
    assert (second["games_played"], second["games_won"], second["total_score"]) == (2, 1, 62)
    assert profiles.average_score(second) == 31
    assert [g["game_id"] for g in second["recent"]] == ["g2", "g1"]
    assert second["by_kind"]["imhotep"] == {"games_played": 2, "games_won": 1, "total_score": 62}


def test_multi_player_elo_worked_example_checked_by_hand() -> None:
    """Three players at 1500, 1600 and 1400 finish in ranks 1, 2, 3 (K = 32, n - 1 = 2).

    Expected scores, E(a vs b) = 1 / (1 + 10 ** ((b - a) / 400)):
      E(1500 vs 1600) = 0.359935, E(1500 vs 1400) = 0.640065, E(1600 vs 1400) = 0.759747.
    Player 1 (1500): (1 - 0.359935) + (1 - 0.640065) = 1.000000 -> +16 * 1.000000 = 1516.00
    Player 2 (1600): (0 - 0.640065) + (1 - 0.759747) = -0.399812 -> 1600 - 6.40 = 1593.60
    Player 3 (1400): (0 - 0.359935) + (0 - 0.240253) = -0.600188 -> 1400 - 9.60 = 1390.40
    """
    after = ratings.elo([1500.0, 1600.0, 1400.0], [1, 2, 3])
    assert after == pytest.approx([1516.00, 1593.60, 1390.40], abs=0.01)
    assert sum(after) == pytest.approx(4500.0)  # rating points only move between players


def test_a_tie_between_equal_ratings_changes_nothing() -> None:
    assert ratings.elo([1500.0, 1500.0], [1, 1]) == [1500.0, 1500.0]


def test_bots_forks_and_one_player_on_several_seats_are_not_rated() -> None:
    rows = ratings.rate_game({}, FINISHED)
    assert set(rows) == {"a", "b"}  # the bot seat is left out
    assert rows["b"]["rating"] > 1500 > rows["a"]["rating"]
    assert ratings.rate_game({}, {**FINISHED, "forked_from": {"game_id": "x", "version": 3}}) == {}
    assert ratings.rate_game({}, {**FINISHED, "imported": True}) == {}  # a copy: rated once
    same = [{**p, "player_id": "a"} for p in FINISHED["players"][:2]]
    assert ratings.rate_game({}, {**FINISHED, "players": same}) == {}


def test_points_by_source_add_up_to_the_score_change() -> None:
    kingdom = {
        "players": [
            {"seat": 0, "pyramids": 3, "farmers": 2, "total": 5, "schemes_scored": []},
            {"seat": 1, "pyramids": 0, "farmers": 1, "total": 1, "schemes_scored": []},
        ]
    }
    assert stats.score_sources("kingdom_scored", kingdom, [10, 10], [15, 11]) == {
        0: {"pyramids": 3, "farmers": 2},
        1: {"farmers": 1},
    }
    assert stats.score_sources("stone_delivered", {"site": "pyramids"}, [0, 0], [2, 0]) == {
        0: {"pyramids": 2}
    }
    assert stats.score_sources("temple_scored", {"points": [1, 3]}, [5, 5], [6, 8]) == {
        0: {"temple": 1},
        1: {"temple": 3},
    }
    odd = {"players": [{"seat": 0, "pyramids": 1, "total": 1}]}
    assert stats.score_sources("kingdom_scored", odd, [0], [4]) == {0: {"pyramids": 1, "other": 3}}


def test_a_bot_counts_against_the_account_that_seated_it_until_its_game_is_over() -> None:
    """``projections.bots``: a bot's ``seat_taken`` is a row for its ``actor`` (who called
    addBot), or the table's creator for entries recorded before bots had one; a person's seat is
    none; the game's end removes its rows."""
    bot = {"seat": 1, "player_id": None, "name": "Bot (mcts)", "bot": "mcts"}
    seated = Entry(version=2, at="2026-11-29T10:00:00+00:00", type="seat_taken", data=bot)
    assert bots.seated_bot(seated, "creator") == {"seat": 1, "account": "creator", "level": "mcts"}
    by_actor = Entry(version=2, at=seated.at, type="seat_taken", data=bot, actor="adder")
    assert bots.seated_bot(by_actor, "creator") == {"seat": 1, "account": "adder", "level": "mcts"}
    person = {"seat": 0, "player_id": "p1", "name": "Ann", "bot": None}
    assert bots.seated_bot(entry(2, "seat_taken", person), "creator") is None
    assert bots.seated_bot(seated, None) is None  # nobody to count it against
    assert bots.ends(entry(9, "game_abandoned", {"reason": "abandoned"}))
    assert bots.ends(entry(9, "game_finished", {"scores": [1], "winners": [0], "ranks": [1]}))
    assert not bots.ends(seated)


def test_a_rating_keeps_its_history_point_by_point() -> None:
    first = ratings.rate_game({}, FINISHED)
    second = ratings.rate_game(first, {**FINISHED, "game_id": "g2", "ranks": [1, 2, 3]})
    history = second["b"]["history"]
    assert [p["game_id"] for p in history] == ["g1", "g2"]
    assert history[0]["rating"] == first["b"]["rating"] > 1500
    assert history[-1]["rating"] == second["b"]["rating"] < history[0]["rating"]
    assert history[0]["at"] == FINISHED["updated_at"]
