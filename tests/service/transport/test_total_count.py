"""``totalCount`` on the connections clients page through (``games``, ``gameSummaries``,
``lobby``, ``leaderboard``) and ``totalCount`` in the REST pages: the number of items the
filters match over every page, counted by the read model's SQL (on SQLite and PostgreSQL), and
only when the field is selected."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.readmodels import ReadModels
from tests.client import Client
from tests.service.play import create_table, play_graphql, seated

LISTING = """query($k: GameKind, $s: GameStatus, $p: ID, $o: JSON, $after: String, $pos: Int) {
  games(kind: $k, status: $s, player: $p, first: 2, after: $after) {
    totalCount nodes { id } pageInfo { hasNextPage endCursor } }
  gameSummaries(kind: $k, status: $s, player: $p, first: 2, minPosition: $pos) {
    totalCount nodes { gameId } }
  lobby(kind: $k, options: $o, first: 2) { totalCount nodes { gameId } }
}"""


def totals(client: Client, **variables: Any) -> dict[str, int]:
    found = client.gql(LISTING, variables)
    for connection in found.values():
        assert len(connection["nodes"]) <= 2
    return {name: connection["totalCount"] for name, connection in found.items()}


@pytest.fixture
def tables(server: Any) -> Any:
    """On a real server: 5 open Imhotep tables (2 with the B side of the market, §2), 2 open
    Amun-Re tables and one whole 3-seat Imhotep game played to the end (which ranks 3 players)."""
    players = seated(server.url, 3)
    first = players[0]
    create = "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }"
    for n in range(5):
        options = {"sides": {"market": "B"}} if n < 2 else None
        first.gql(create, {"i": {"kind": "IMHOTEP", "seats": 2, "options": options}})
    for _ in range(2):
        first.gql(create, {"i": {"kind": "AMUN_RE", "seats": 3}})
    game_id = create_table(players, "IMHOTEP")
    assert play_graphql(players, game_id, random.Random(5))["status"] == "FINISHED"
    head = first.gql("{ readModels { storePosition } }")["readModels"]["storePosition"]
    first.gql("query($p: Int) { gameSummaries(minPosition: $p) { nodes { gameId } } }", {"p": head})
    yield players, head
    for p in players:
        p.close()


def test_total_count_is_every_match_of_the_filters_not_the_page(
    tables: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With first=2, totalCount is the number of games the filters match: all of them, a kind,
    a status, a player's, the lobby (open tables with free seats) and the lobby by options;
    it is counted only when selected. The REST pages carry the same totals."""
    players, head = tables
    client = players[1]
    rest_pages_carry_the_same_total(players[2])
    assert totals(client, pos=head) == {"games": 8, "gameSummaries": 8, "lobby": 7}
    assert totals(client, k="IMHOTEP") == {"games": 6, "gameSummaries": 6, "lobby": 5}
    assert totals(client, k="AMUN_RE") == {"games": 2, "gameSummaries": 2, "lobby": 2}
    assert totals(client, s="FINISHED")["games"] == 1
    assert totals(client, s="OPEN")["gameSummaries"] == 7
    assert totals(client, p=client.player_id)["games"] == 1
    assert totals(client, o={"sides": {"market": "B"}})["lobby"] == 2
    assert totals(client, k="AMUN_RE", o={"sides": {"market": "B"}})["lobby"] == 0

    # paging through: the total stays the same on every page, and the pages hold that many
    seen: list[str] = []
    after = None
    while True:
        page = client.gql(LISTING, {"after": after})["games"]
        assert page["totalCount"] == 8
        seen += [n["id"] for n in page["nodes"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert len(seen) == len(set(seen)) == 8

    board = client.gql(
        "{ leaderboard(kind: IMHOTEP, first: 2) { totalCount nodes { rank } "
        "pageInfo { hasNextPage } } }"
    )["leaderboard"]
    assert board["totalCount"] == 3 and len(board["nodes"]) == 2
    assert board["pageInfo"]["hasNextPage"]
    empty = client.gql("{ leaderboard(kind: AMUN_RE, first: 2) { totalCount nodes { rank } } }")
    assert empty["leaderboard"] == {"totalCount": 0, "nodes": []}

    # the server runs in this process: the read model's count is called once per selected
    # ``totalCount`` and never for a page that does not ask for it
    calls: list[dict[str, Any]] = []
    count = ReadModels.count_summaries

    def counted(self: ReadModels, **filters: Any) -> int:
        calls.append(filters)
        return count(self, **filters)

    monkeypatch.setattr(ReadModels, "count_summaries", counted)
    client.gql("{ games(first: 2) { nodes { id } } gameSummaries { nodes { gameId } } }")
    assert calls == []
    client.gql("{ lobby(first: 1) { totalCount } gameSummaries { nodes { gameId } } }")
    assert [c["lobby"] for c in calls] == [True]


def rest_pages_carry_the_same_total(client: Client) -> None:
    """The REST lists (``/games``, ``/summaries``, ``/lobby``, ``/leaderboards/{kind}``) keep
    ``items`` and ``nextCursor`` and add ``totalCount``, the same number as GraphQL."""
    answers = {
        "/games?limit=2": 8,
        "/games?limit=2&kind=IMHOTEP&status=OPEN": 5,
        "/summaries?limit=2&kind=AMUN_RE": 2,
        "/lobby?limit=2": 7,
        '/lobby?limit=2&options={"sides":{"market":"B"}}': 2,
        "/leaderboards/imhotep?limit=2": 3,
    }
    for path, total in answers.items():
        response = client.rest("GET", path)
        assert response.status_code == 200, (path, response.text)
        body = response.json()
        assert body["totalCount"] == total, path
        assert len(body["items"]) == 2
        if not path.startswith("/leaderboards"):
            assert (body["nextCursor"] is not None) == (total > 2), path
