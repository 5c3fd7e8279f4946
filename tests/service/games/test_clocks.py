"""Time controls over the API with a controllable clock (issue #15, acceptance 1): a per-move
deadline and a time bank, expiry -> take-over -> the bot plays -> the player reclaims -> the game
ends; the log verifies (``verifyLog`` re-checks the clock entries) and a replay shows every step.

The server reads its time from ``PAPYRUS_CLOCK_OFFSET_FILE`` (a tests-only setting: the system
time plus the milliseconds written in the file), so a test moves time by writing the file; the
server's own scheduler (``service.app.clocks.Scheduler``) fires the expiries.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client import Client, GraphQLFailure, register, subscribe
from tests.conftest import Server

CLOCK = (
    "clock { mode moveMs bankMs incrementMs onExpiry bot now deadline "
    "seats { seat remainingMs deadline running takenOver timedOut thinkingMs turns } }"
)
GAME = f"""query($g: ID!) {{ game(id: $g) {{ id version status activeSeats mySeat legalActions
  seats {{ seat isBot takenOver }} {CLOCK} }} }}"""
ACT = """mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version status } } }"""
RECLAIM = """mutation($g: ID!) { reclaimSeat(gameId: $g) { seats { seat takenOver } clock {
  seats { seat takenOver running } } } }"""


class Time:
    """The server's clock offset, in milliseconds (written to the file the server reads)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        path.write_text("0")

    def advance(self, ms: int) -> None:
        self.offset += ms
        self.path.write_text(str(self.offset))


@pytest.fixture
def timed(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[Server, Time]]:
    clock = Time(tmp_path / "clock-offset")
    with Server(sqlite_url, clock_offset_file=str(clock.path)) as running:
        yield running, clock


def create(players: list[Client], kind: str, clock: dict[str, Any]) -> str:
    created = players[0].gql(
        "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }",
        {"i": {"kind": kind, "seats": len(players), "options": {"clock": clock}}},
    )["createGame"]
    for seat, player in enumerate(players):
        player.gql(
            "mutation($g: ID!, $s: Int) { joinGame(gameId: $g, seat: $s) { id } }",
            {"g": created["id"], "s": seat},
        )
    return str(created["id"])


def game(player: Client, game_id: str) -> dict[str, Any]:
    return dict(player.gql(GAME, {"g": game_id})["game"])


def events(player: Client, game_id: str) -> list[dict[str, Any]]:
    query = "query($g: ID!) { game(id: $g) { events(first: 200) { edges { node { version type data seat } } } } }"
    found: list[dict[str, Any]] = []
    page = player.gql(query, {"g": game_id})["game"]["events"]["edges"]
    found += [edge["node"] for edge in page]
    return found


def wait_for(check: Any, seconds: float = 15.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("the server's scheduler did not fire in time")


def play_one(players: list[Client], game_id: str, rng: random.Random) -> dict[str, Any]:
    """One action of a seat that must act and is played by its person; the game after it."""
    shown = game(players[0], game_id)
    humans = [s for s in shown["activeSeats"] if not shown["seats"][s]["takenOver"]]
    seat = rng.choice(humans)
    mine = game(players[seat], game_id)
    players[seat].gql(ACT, {"g": game_id, "a": rng.choice(mine["legalActions"])})
    return game(players[0], game_id)


@pytest.mark.parametrize(
    "control",
    [
        {"mode": "move", "moveMs": 60_000, "onExpiry": "takeover", "bot": "random"},
        {"mode": "bank", "bankMs": 60_000, "incrementMs": 5_000, "onExpiry": "takeover"},
    ],
    ids=["per-move deadline", "time bank"],
)
def test_expiry_take_over_reclaim_to_the_end(
    timed: tuple[Server, Time], control: dict[str, Any]
) -> None:
    """The absent seat's deadline passes: ``time_expired`` then ``seat_taken_over`` (R: issue
    #15 "What an expiry does"), the bot plays the seat at once, the views mark it (``Seat``
    and ``clock.seats[].takenOver``), its player reclaims it (``reclaimSeat``), and the game
    plays on to its end; every turn is charged from the log's own times."""
    server, clock = timed
    players = [register(server.url, "Ann"), register(server.url, "Bob")]
    game_id = create(players, "IMHOTEP", control)
    rng = random.Random(15)

    shown = game(players[0], game_id)
    first = shown["activeSeats"][0]
    seat_clock = shown["clock"]["seats"][first]
    assert shown["clock"]["mode"] == control["mode"].upper()
    assert seat_clock["running"] and seat_clock["deadline"] == shown["clock"]["deadline"]
    assert seat_clock["remainingMs"] <= 60_000

    for _ in range(3):  # a few timed turns, each with some thinking time
        clock.advance(2_000)
        shown = play_one(players, game_id, rng)
    thinking = sum(s["thinkingMs"] for s in shown["clock"]["seats"])
    assert thinking >= 3 * 2_000 and sum(s["turns"] for s in shown["clock"]["seats"]) >= 3

    absent = shown["activeSeats"][0]
    clock.advance(61_000)  # past every deadline of the turn that runs now
    taken = wait_for(lambda: game(players[0], game_id)["seats"][absent]["takenOver"])
    assert taken
    shown = game(players[0], game_id)
    assert shown["clock"]["seats"][absent]["takenOver"]
    assert shown["clock"]["seats"][absent]["timedOut"]
    assert absent not in shown["activeSeats"] or shown["status"] != "ACTIVE"  # the bot played
    types = [e["type"] for e in events(players[0], game_id)]
    expired_at = types.index("time_expired")
    assert types[expired_at + 1] == "seat_taken_over"
    after = events(players[0], game_id)[expired_at + 2 :]
    assert any(e["seat"] == absent for e in after if e["type"] not in ("clock_started",)), (
        "the bot played the taken-over seat"
    )

    reclaimed = players[absent].gql(RECLAIM, {"g": game_id})["reclaimSeat"]
    assert not reclaimed["seats"][absent]["takenOver"]
    assert not reclaimed["clock"]["seats"][absent]["takenOver"]
    again = players[absent].error(RECLAIM, {"g": game_id})
    assert again.code == "CONFLICT"  # nothing to reclaim any more

    for _ in range(400):
        if shown["status"] != "ACTIVE":
            break
        clock.advance(500)
        shown = play_one(players, game_id, rng)
    assert shown["status"] == "FINISHED"

    verified = players[1].gql(
        "query($g: ID!) { verifyLog(gameId: $g) { ok checkedEvents badVersion reason } }",
        {"g": game_id},
    )["verifyLog"]
    assert verified["ok"], verified
    logged = events(players[0], game_id)
    kinds = [e["type"] for e in logged]
    for kind in ("clock_started", "clock_charged", "time_expired", "seat_taken_over"):
        assert kind in kinds
    assert kinds.count("time_expired") == 1 and "seat_reclaimed" in kinds

    replay = players[0].gql(
        "query($g: ID!) { game(id: $g) { replay(first: 100) { event { version type } "
        f"{CLOCK} }} }} }}",
        {"g": game_id},
    )["game"]["replay"]
    assert [step["event"]["version"] for step in replay] == list(range(1, len(replay) + 1))
    charged = [s for s in replay if s["event"]["type"] == "clock_charged"]
    assert charged and all(s["clock"] is not None for s in charged)
    turns = [sum(seat["turns"] for seat in s["clock"]["seats"]) for s in charged]
    assert turns == sorted(turns) and turns[0] >= 1  # thinking time grows along the replay
    expiry = next(s for s in replay if s["event"]["type"] == "time_expired")
    assert expiry["clock"]["seats"][absent]["timedOut"]

    # the read models: the absent player lost (whatever the bot made of the seat), and each
    # player's average thinking time per timed turn
    board = wait_for(
        lambda: (
            (
                rows := players[0].gql(
                    "{ leaderboard(kind: IMHOTEP) { nodes { playerId rating wins } } }"
                )["leaderboard"]["nodes"]
            )
            and len(rows) == 2
            and rows
        )
    )
    rating = {row["playerId"]: row for row in board}
    ids = [getattr(player, "player_id") for player in players]  # noqa: B009 (set by register)
    assert rating[ids[absent]]["rating"] < rating[ids[1 - absent]]["rating"]
    assert rating[ids[absent]]["wins"] == 0
    for player, player_id in zip(players, ids, strict=True):
        profile = player.gql(
            "query($p: ID!) { player(id: $p) { gamesPlayed averageThinkingMs } }",
            {"p": player_id},
        )["player"]
        assert profile["gamesPlayed"] == 1 and profile["averageThinkingMs"] > 0


def test_time_bank_abandon_over_rest(timed: tuple[Server, Time]) -> None:
    """Policy ``abandon``: the expiry ends the game as ``ABANDONED`` with ``reason: "time"``
    and the seat that timed out; the REST game shows the clock too."""
    server, clock = timed
    players = [register(server.url, "Ann"), register(server.url, "Bob")]
    control = {"mode": "bank", "bankMs": 10_000, "incrementMs": 0, "onExpiry": "abandon"}
    game_id = create(players, "IMHOTEP", control)
    body = players[0].rest("GET", f"/games/{game_id}").json()
    assert body["clock"]["mode"] == "bank" and body["clock"]["onExpiry"] == "abandon"
    late = body["activeSeats"][0]
    assert body["clock"]["seats"][late]["running"]
    clock.advance(11_000)
    wait_for(lambda: game(players[0], game_id)["status"] == "ABANDONED")
    logged = events(players[0], game_id)
    abandoned = next(e for e in logged if e["type"] == "game_abandoned")
    assert abandoned["data"]["reason"] == "time" and abandoned["data"]["timed_out"] == late
    assert [e["type"] for e in logged].count("time_expired") == 1
    verified = players[1].rest("GET", f"/games/{game_id}/verify").json()
    assert verified["ok"], verified
    refused = players[late].rest("POST", f"/games/{game_id}/reclaim", json={})
    assert refused.status_code == 409

    # gameChanged carries the clock right after each event (here caught up from version 0)
    changes = asyncio.run(
        subscribe(
            server.ws_url,
            "subscription($g: ID!) { gameChanged(gameId: $g, afterVersion: 0) { status "
            "event { type } clock { seats { seat timedOut running } } } }",
            {"g": game_id},
            players[0].token,
            timeout=30,
        )
    )
    shown = [c["data"]["gameChanged"] for c in changes]
    expired = next(c for c in shown if c["event"]["type"] == "time_expired")
    assert expired["clock"]["seats"][late]["timedOut"]
    assert not expired["clock"]["seats"][late]["running"]
    assert shown[-1]["status"] == "ABANDONED"


@pytest.mark.parametrize(
    "clock_option",
    [
        "fast",
        {"mode": "sundial"},
        {"mode": "move"},
        {"mode": "move", "moveMs": 10},
        {"mode": "move", "moveMs": 60_000, "bankMs": 5},
        {"mode": "bank", "bankMs": 60_000, "incrementMs": -1},
        {"mode": "bank", "bankMs": 60_000, "onExpiry": "explode"},
        {"mode": "move", "moveMs": 60_000, "bot": "grandmaster"},
        {"mode": "move", "moveMs": 1.5},
        {"mode": ["move"], "moveMs": 60_000},  # not a string: was an INTERNAL (unhashable)
    ],
)
def test_bad_time_controls_are_bad_input(sqlite_server: Server, clock_option: Any) -> None:
    player = register(sqlite_server.url, "Ann")
    failure = player.error(
        "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }",
        {"i": {"kind": "IMHOTEP", "seats": 2, "options": {"clock": clock_option}}},
    )
    assert failure.code == "BAD_INPUT"


def test_a_table_without_a_clock_shows_none(sqlite_server: Server) -> None:
    players = [register(sqlite_server.url, "Ann"), register(sqlite_server.url, "Bob")]
    created = players[0].gql(
        "mutation($i: CreateGameInput!) { createGame(input: $i) { id clock { mode } } }",
        {"i": {"kind": "IMHOTEP", "seats": 2, "options": {"clock": {"mode": "none"}}}},
    )["createGame"]
    assert created["clock"] is None
    with pytest.raises(GraphQLFailure) as refused:
        players[0].gql(RECLAIM, {"g": created["id"]})
    assert refused.value.code in ("FORBIDDEN", "GAME_NOT_ACTIVE")
