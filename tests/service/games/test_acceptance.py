"""Both games, with every side and module, through the real HTTP server:
complete games played over GraphQL end with the result the rules give for their events."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from domain.registry import rules_for
from tests.client import Client, GraphQLFailure
from tests.service.play import create_table, seated

READ = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions } }"
ACT = "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) { game { version } } }"


def play_concurrently(
    players: list[Client], game_id: str, seed: int
) -> tuple[dict[str, Any], list[str]]:
    """Play to the end; when several seats must act at once, each acts from its own thread
    with the version it saw. Returns the final game and every error code met."""
    rng = random.Random(seed)
    errors: list[str] = []
    simultaneous = 0
    for _ in range(20_000):
        game = players[0].gql(READ, {"g": game_id})["game"]
        if game["status"] != "ACTIVE":
            return game, errors
        active = game["activeSeats"]
        if len(active) == 1:
            seat = active[0]
            mine = players[seat].gql(READ, {"g": game_id})["game"]
            players[seat].gql(
                ACT, {"g": game_id, "a": rng.choice(mine["legalActions"]), "v": mine["version"]}
            )
            continue
        simultaneous += 1

        def seat_plays(seat: int, seed: int) -> None:
            own = random.Random(seed)
            while True:
                mine = players[seat].gql(READ, {"g": game_id})["game"]
                if not mine["legalActions"]:
                    return
                try:
                    players[seat].gql(
                        ACT,
                        {"g": game_id, "a": own.choice(mine["legalActions"]), "v": mine["version"]},
                    )
                except GraphQLFailure as failure:
                    errors.append(str(failure.code))

        threads = [threading.Thread(target=seat_plays, args=(s, rng.random())) for s in active]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    raise AssertionError("the game did not end")


def result_from_events(client: Client, game_id: str) -> tuple[list[int], list[int]]:
    """Fold the (now fully revealed) log through the rules, independently of the server."""
    entries: list[dict[str, Any]] = []
    after = None
    while True:
        page = client.gql(
            "query($g: ID!, $a: String) { game(id: $g) { kind options seats { seat } "
            "events(first: 200, after: $a) { nodes { type seat data undone } pageInfo { endCursor hasNextPage } } } }",
            {"g": game_id, "a": after},
        )["game"]
        entries += page["events"]["nodes"]
        if not page["events"]["pageInfo"]["hasNextPage"]:
            break
        after = page["events"]["pageInfo"]["endCursor"]
    rules = rules_for(page["kind"].lower())
    options = {k: v for k, v in page["options"].items() if k != "undo"}
    state = rules.initial(len(page["seats"]), options)
    from domain.contract import Event
    from domain.table import TABLE_EVENTS

    for e in entries:
        assert e["type"] != "hidden", "everything is revealed once the game is over"
        if e["type"] not in TABLE_EVENTS and not e["undone"]:
            state = rules.evolve(state, Event(e["type"], e["data"], e["seat"]))
    outcome = rules.outcome(state)
    assert outcome is not None
    return outcome.scores, outcome.winners


def check_result(client: Client, game_id: str, final: dict[str, Any]) -> None:
    result = client.gql(
        "query($g: ID!) { game(id: $g) { result { scores winners } } verifyLog(gameId: $g) { ok } }",
        {"g": game_id},
    )
    scores, winners = result_from_events(client, game_id)
    assert result["game"]["result"] == {"scores": scores, "winners": winners}
    assert result["verifyLog"]["ok"] is True


def test_imhotep_with_b_sides_everywhere_and_wrath_over_graphql(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Imhotep: four seats, every site on side B, Wrath of the Pharaoh."""
    players = seated(sqlite_server.url, 4)
    game_id = create_table(players, "IMHOTEP", {"sides": "B", "wrath_of_the_pharaoh": True})
    final, errors = play_concurrently(players, game_id, seed=3)
    assert final["status"] == "FINISHED" and errors == []
    check_result(players[0], game_id, final)


@pytest.mark.parametrize("store", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_amun_re_five_players_commit_their_offerings_concurrently(store, request) -> None:  # type: ignore[no-untyped-def]
    """Amun-Re: five seats; the secret offering is committed from five threads at
    once with the version each saw: no spurious CONFLICT (R11.1 simultaneous commitment)."""
    from tests.conftest import Server

    url = request.getfixturevalue("sqlite_url" if store == "sqlite" else "postgres_url")
    with Server(url) as server:
        players = seated(server.url, 5)
        game_id = create_table(players, "AMUN_RE")
        final, errors = play_concurrently(players, game_id, seed=5)
        assert final["status"] == "FINISHED"
        assert "CONFLICT" not in errors, errors
        check_result(players[0], game_id, final)


def test_amun_re_with_every_expansion_module_over_graphql(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Amun-Re's Expanded Pack: four seats with Afterlife, Statues, Pharaoh and the promo cards."""
    players = seated(sqlite_server.url, 4)
    options = {"afterlife": True, "statues": True, "pharaoh": True, "promo_favours": True}
    game_id = create_table(players, "AMUN_RE", options)
    final, errors = play_concurrently(players, game_id, seed=8)
    assert final["status"] == "FINISHED" and "CONFLICT" not in errors
    check_result(players[0], game_id, final)
