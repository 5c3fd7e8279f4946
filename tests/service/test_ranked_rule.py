"""Ratings that keep their word (docs/API.md "Games": ``ranked``, ``unrankedReason``).

``Game.ranked`` is true only where the game will be rated: two or more human players, each
holding one seat, a seed nobody chose, not a fork, not an imported copy (``domain.table
.why_unrated``); ``unrankedReason`` says why not. The ratings projection applies the same
rule (``projections.ratings.rated_seats``), so the field and the leaderboard agree: checked
over a real server (a table against a bot says so and stays off the leaderboard; a two-human
table is rated and on it; random tables, played to their end, are rated exactly when they said
``ranked``) and on random seatings of the rule itself. The web client's table form and lobby
say the same (a real Chromium on a real server).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from domain import table as tables
from projections import games as summaries
from projections import ratings
from tests.client import Client, register
from tests.service.secrecy.test_seed_commitment import open_game, play_out
from tests.web.conftest import Web, browser  # noqa: F401 - ``browser``: the fixture

RANKED = "query($g: ID!) { game(id: $g) { status ranked unrankedReason } }"
SUMMARY = """query($p: Int) { gameSummaries(first: 50, minPosition: $p) {
  nodes { gameId ranked unrankedReason } } }"""
BOARD = """{ leaderboard(kind: IMHOTEP, first: 50) { totalCount nodes { playerId games } }
  readModels { storePosition readModels { name position } } }"""


def caught_up_board(client: Client) -> dict[str, int]:
    """The Imhotep leaderboard (games by player id) once every read model has read the whole
    log (read models follow the store a few milliseconds behind)."""
    deadline = time.monotonic() + 60
    while True:
        data = client.gql(BOARD)
        store = data["readModels"]["storePosition"]
        if all(m["position"] >= store for m in data["readModels"]["readModels"]):
            return {n["playerId"]: n["games"] for n in data["leaderboard"]["nodes"]}
        assert time.monotonic() < deadline, data["readModels"]
        time.sleep(0.05)


def said(client: Client, game_id: str) -> tuple[bool, str | None]:
    """``ranked`` and ``unrankedReason`` as GraphQL, REST and the game's summary say them
    (all three the same, else the test fails)."""
    game = client.gql(RANKED, {"g": game_id})["game"]
    rest = client.rest("GET", f"/games/{game_id}").json()
    assert (rest["ranked"], rest["unrankedReason"]) == (game["ranked"], game["unrankedReason"])
    head = client.gql("{ readModels { storePosition } }")["readModels"]["storePosition"]
    (summary,) = [
        s
        for s in client.gql(SUMMARY, {"p": head})["gameSummaries"]["nodes"]
        if s["gameId"] == game_id
    ]
    assert (summary["ranked"], summary["unrankedReason"]) == (
        game["ranked"],
        game["unrankedReason"],
    )
    return game["ranked"], game["unrankedReason"]


def test_a_table_against_a_bot_says_unranked_and_why_and_stays_off_the_board(
    sqlite_server: Any,
) -> None:
    alice = register(sqlite_server.url, "Alice")
    try:
        created = alice.gql(
            "mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id ranked } }"
        )["createGame"]
        game_id = created["id"]
        assert created["ranked"] is True  # two free seats: two people may still come
        alice.gql("mutation($g: ID!) { joinGame(gameId: $g) { id } }", {"g": game_id})
        assert said(alice, game_id) == (True, None)
        alice.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
        assert said(alice, game_id) == (False, tables.UNRANKED_FEW_HUMANS)
        assert tables.UNRANKED_FEW_HUMANS == "fewer than two human players"
        play_out([alice], game_id, random.Random(5))
        assert said(alice, game_id) == (False, "fewer than two human players")
        assert caught_up_board(alice) == {}
    finally:
        alice.close()


def test_a_two_human_table_is_ranked_rated_and_on_the_board(sqlite_server: Any) -> None:
    players = [register(sqlite_server.url, name) for name in ("Ana", "Bo")]
    try:
        game_id = open_game(players, 0, None)
        assert said(players[0], game_id) == (True, None)
        play_out(players, game_id, random.Random(7))
        assert said(players[0], game_id) == (True, None)
        board = caught_up_board(players[0])
        assert board == {p.player_id: 1 for p in players}  # type: ignore[attr-defined]
    finally:
        for p in players:
            p.close()


def test_random_tables_are_rated_exactly_when_they_said_ranked(sqlite_server: Any) -> None:
    """Seatings in a random order, each played to its end with random moves (two people; a
    person and a bot; two people and a bot; one person in two seats; two people at a seeded
    table): the leaderboard counts a game for its players iff the game said ``ranked``."""
    rng = random.Random(2323)
    players = [register(sqlite_server.url, f"P{n}") for n in range(2)]
    seatings: list[tuple[list[Client], int, str | None]] = [
        (players, 0, None),
        (players[:1], 1, None),
        (players, 1, None),
        ([players[0], players[0]], 0, None),
        (players, 0, "rule-seeded"),
    ]
    rng.shuffle(seatings)
    answers: list[tuple[bool, str | None]] = []
    try:
        for seated, bots, seed in seatings:
            before = caught_up_board(players[0])
            game_id = open_game(seated, bots, seed)
            ranked, reason = said(players[0], game_id)
            assert ranked == (reason is None)
            play_out(seated, game_id, rng)
            after = caught_up_board(players[0])
            rated = {pid for pid in after if after[pid] != before.get(pid, 0)}
            humans = {p.player_id for p in seated}  # type: ignore[attr-defined]
            assert rated == (humans if ranked else set()), (seed, bots, reason, rated)
            answers.append((ranked, reason))
        assert sorted(answers, key=str) == sorted(
            [
                (True, None),
                (False, tables.UNRANKED_FEW_HUMANS),
                (True, None),
                (False, tables.UNRANKED_SEATS_SHARED),
                (False, tables.UNRANKED_CHOSEN_SEED),
            ],
            key=str,
        )
    finally:
        for p in players:
            p.close()


def test_the_field_and_the_projection_apply_one_rule_on_random_seatings() -> None:
    """Pure: random tables (free, bot and human seats, a player in several seats, a chosen
    seed, a fork, an imported copy): ``Table.unrated_reason`` (the field), the ratings
    projection's ``rated_seats`` of the game's finished summary and the summary row's reason
    (``projections.games.read``) agree on every one."""
    rng = random.Random(23)
    reasons: set[str | None] = set()
    for n in range(2000):
        seats = rng.randint(2, 5)
        table = tables.Table(
            kind="imhotep",
            seats=seats,
            options={},
            seed="s",
            seed_commitment="c",
            created_by="p0",
            rules_version="1",
            forked_from={"game_id": "g", "version": 3} if rng.random() < 0.1 else None,
            seed_chosen=rng.random() < 0.1,
        )
        imported = rng.random() < 0.1
        table.holders = [
            rng.choice(
                [
                    None,
                    tables.Holder(None, "Bot", "random"),
                    *(tables.Holder(f"p{i}", f"P{i}") for i in range(4)),
                ]
            )
            for _ in range(seats)
        ]
        reason = table.unrated_reason(imported=imported)
        reasons.add(reason)
        players = [
            {
                "seat": s,
                "player_id": h.player_id if h else None,
                "name": h.name if h else None,
                "bot": h.bot if h else None,
            }
            for s, h in enumerate(table.holders)
        ]
        row = {
            "players": players,
            "forked_from": table.forked_from,
            "imported": imported,
            "unranked_reason": table.unranked_reason(imported=imported),
            "ranks": list(range(1, seats + 1)),
        }
        assert summaries.read(dict(row))["unranked_reason"] == reason, (n, row)
        if all(h is not None for h in table.holders):  # a finished game: every seat taken
            rated = ratings.rated_seats(row)
            assert bool(rated) == (reason is None), (n, row, reason)
    assert reasons == {
        None,
        tables.UNRANKED_FEW_HUMANS,
        tables.UNRANKED_SEATS_SHARED,
        tables.UNRANKED_CHOSEN_SEED,
        tables.UNRANKED_FORK,
        tables.UNRANKED_IMPORTED,
    }


@pytest.fixture
def web_client(sqlite_server: Any, browser: Any) -> Iterator[Web]:  # noqa: F811 - the fixture
    """A browser context on the web client (``tests.web.conftest``'s ``web``, on this
    module's server)."""
    session = Web(sqlite_server, browser)
    try:
        yield session
    finally:
        session.close()
    session.assert_secure()


def test_the_web_client_says_what_the_rule_says(web_client: Web) -> None:
    """The lobby's table form says when a table will be rated (a seed: unranked; else two
    people, each in one seat), and the lobby lists a table against a bot as unranked, with
    the server's reason, as soon as the bot sits."""
    page = web_client.open("/")
    page.get_by_label("Name").fill("Ria")
    page.get_by_test_id("register").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=whoami]').textContent.includes('Ria')"
    )
    rating = page.get_by_test_id("create-ranked")
    assert "Rated if two or more people play" in rating.inner_text()
    assert "fewer than two human players" in rating.inner_text()
    page.get_by_test_id("create-seed").fill("my seed")
    assert rating.inner_text() == "Unranked: the creator chose the seed."
    page.get_by_test_id("create-seed").fill("")
    assert "Rated if" in rating.inner_text()
    page.get_by_test_id("create-sit").uncheck()
    page.get_by_test_id("create").click()  # Imhotep for 2, both seats free
    page.wait_for_selector("[data-testid=open-tables] [data-testid^=table-]")
    row = page.locator("[data-testid=open-tables] [data-testid^=table-]").first
    assert "unranked" not in row.inner_text()  # two free seats: two people may come
    page.locator("[data-testid=open-tables] button[data-testid^=bot-]").first.click()
    # a bot in one seat: one person at most is left to come
    page.wait_for_function(
        "() => document.querySelector('[data-testid=open-tables]').textContent"
        ".includes('unranked (fewer than two human players)')"
    )
