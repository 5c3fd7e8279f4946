"""Reading your own write on another replica (``game(id, minVersion)``; REST ``?minVersion=``).

Replicas behind one load balancer follow each other's writes through the store's feed, a few
milliseconds behind: the fleet soak (``bench/soak.py``) counted about one read in seven, sent
right after its reader's own ``act`` to another replica, that showed the game before it. The
window is made to last here, deterministically: a write held in flight (a real insert of the
store, its transaction kept open) keeps the sealed horizon of replica B below every later id, so
B cannot hear of the action played on replica A. B's plain read is stale, as it may be in
production for some milliseconds; with ``minVersion`` it asks the store and shows the action.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from service.store.database import open_store
from tests.client import Client
from tests.service.fleet.test_notification_order import insert_held
from tests.service.play import create_table, seated
from tests.serving import processes

GAME = "query($g: ID!, $v: Int) { game(id: $g, minVersion: $v) { version activeSeats mySeat } }"
LEGAL = "query($g: ID!) { game(id: $g) { version activeSeats legalActions } }"
ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"


def on(server_url: str, player: Client) -> Client:
    return Client(server_url, player.token)


@pytest.mark.postgres
def test_a_write_on_one_replica_is_read_on_another_with_min_version(postgres_url: str) -> None:
    with processes(postgres_url, count=2) as (a, b):
        players = seated(a.url, 2)
        game_id = create_table(players, "IMHOTEP", {"start_player": 0})
        first = on(a.url, players[0])
        seen_on_b = on(b.url, players[0])
        before = seen_on_b.gql(GAME, {"g": game_id, "v": None})["game"]["version"]
        # B knows the game as it is now; from here it hears of no later write
        store = open_store(postgres_url)
        recorder: Any = store.recorder
        try:
            with (
                recorder.datastore.get_connection() as connection,
                connection.transaction(force_rollback=True),
            ):
                insert_held(recorder, connection, f"tests:Held{uuid.uuid4().hex}")
                legal = first.gql(LEGAL, {"g": game_id})["game"]["legalActions"]
                acted = first.gql(ACT, {"g": game_id, "a": legal[0]})["act"]["game"]
                assert acted["version"] > before
                plain = seen_on_b.gql(GAME, {"g": game_id, "v": None})["game"]
                assert plain["version"] == before, "B heard of the write past the horizon"
                mine = seen_on_b.gql(GAME, {"g": game_id, "v": acted["version"]})["game"]
                assert mine["version"] == acted["version"]
                # and B's cache now holds it for everybody
                again = seen_on_b.gql(GAME, {"g": game_id, "v": None})["game"]
                assert again["version"] == acted["version"]
                # the REST mirror, for the other player, who had not read the game on B
                other = on(b.url, players[1])
                answer = other.rest("GET", f"/games/{game_id}?minVersion={acted['version']}")
                assert answer.status_code == 200, answer.text
                assert answer.json()["version"] == acted["version"]
        finally:
            store.close()


@pytest.mark.postgres
def test_a_min_version_past_the_game_or_negative(postgres_url: str) -> None:
    """A number past the game's last entry is answered with the game as it is; a negative one
    is BAD_INPUT, over GraphQL and REST."""
    with processes(postgres_url, count=1) as (a,):
        players = seated(a.url, 2)
        game_id = create_table(players, "IMHOTEP")
        now = players[0].gql(GAME, {"g": game_id, "v": None})["game"]["version"]
        ahead = players[0].gql(GAME, {"g": game_id, "v": now + 50})["game"]
        assert ahead["version"] == now
        failure = players[0].error(GAME, {"g": game_id, "v": -1})
        assert failure.errors[0]["extensions"]["code"] == "BAD_INPUT", failure.errors
        assert "minVersion" in failure.errors[0]["message"]
        answer = players[0].rest("GET", f"/games/{game_id}?minVersion=-1")
        assert answer.status_code == 422 and answer.json()["code"] == "BAD_INPUT", answer.text
