"""What live subscribers are pushed is computed once per entry and caller, and each caller is
still pushed only its own (issue #22: the push path; service/api/graphql/gamestream.py
``fold``, streaming.py ``EventExecution``).

Over a real server and real websockets: a player with two sockets, the other player, and three
anonymous spectators follow a game with ``gameChanged`` (state, typed view, legal actions) while
it is played. Each caller's view is computed once per entry, not once per socket; every socket
of a caller is pushed the same, a catch-up made afterwards agrees with what was pushed live,
and no caller is pushed another's secrets or legal actions.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from service.app import views
from tests.client import Client, acknowledged, register
from tests.conftest import Server
from tests.service.play import create_table
from tests.service.transport.test_push import CHANGED

GAME = "query($g: ID!) { game(id: $g) { version activeSeats legalActions } }"
ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v) "
    "{ game { version } } }"
)
MOVES = 6


async def follow(
    ws_url: str, token: str | None, game_id: str, after: int, until: Callable[[], int]
) -> list[Any]:
    """``gameChanged`` from ``after`` on one socket until version ``until()``: the payloads."""
    async with acknowledged(ws_url, token) as ws:
        payload = {"query": CHANGED, "variables": {"g": game_id, "a": after}}
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        seen: list[Any] = []
        while not seen or seen[-1]["version"] < until():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
            except TimeoutError:
                continue  # nothing new: is the end known by now?
            if message["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))
                continue
            assert message["type"] == "next", message
            assert "errors" not in message["payload"], message
            seen.append(message["payload"]["data"]["gameChanged"])
        return seen


def test_each_callers_push_is_computed_once_and_stays_its_own(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Server(sqlite_url) as server:
        players = [register(server.url, "Ann"), register(server.url, "Bob")]
        game_id = create_table(players, "IMHOTEP", seed="shared-pushes")
        start = players[0].gql(GAME, {"g": game_id})["game"]["version"]
        counted: list[str] = []
        real_state = views.state

        def state(table: Any, caller: Any, **kwargs: Any) -> Any:
            counted.append(caller.player_id or "spectator")
            return real_state(table, caller, **kwargs)

        sockets = [players[0].token, players[0].token, players[1].token, None, None, None]

        async def watch() -> tuple[list[list[Any]], int]:
            ended: list[int] = []  # the version after the last move, once it is made
            followers = [
                asyncio.create_task(
                    follow(
                        server.ws_url, t, game_id, start - 1, lambda: ended[0] if ended else 1 << 30
                    )
                )
                for t in sockets
            ]
            await asyncio.sleep(1.0)  # every socket subscribed, its first push received
            monkeypatch.setattr(views, "state", state)  # the live pushes only are counted
            ended.append(await asyncio.to_thread(play, players, game_id, MOVES))
            return list(await asyncio.wait_for(asyncio.gather(*followers), 60)), ended[0]

        pushed, last = asyncio.run(watch())
        ann, ann_again, bob, *spectators = pushed
        entries = len([p for p in ann if p["version"] > start])
        assert entries >= MOVES
        # every socket of a caller is pushed the same; callers differ
        assert ann == ann_again
        assert all(s == spectators[0] for s in spectators)
        assert ann != bob and ann != spectators[0]
        # once per entry and caller (Ann, Bob, the spectators): not once per socket (6)
        assert len(counted) <= 3 * entries + 3, (len(counted), entries)
        assert {who for who in counted} <= {players[0].player_id, players[1].player_id, "spectator"}  # type: ignore[attr-defined]
        # nobody is pushed another's legal actions; spectators none
        for change in spectators[0]:
            assert change["legalActions"] == []
        for mine, theirs in zip(ann, bob, strict=True):
            assert not (mine["legalActions"] and theirs["legalActions"])
        # what was pushed live is what a catch-up made afterwards shows (the game goes on)
        for token, live in (
            (players[0].token, ann),
            (players[1].token, bob),
            (None, spectators[0]),
        ):
            again = asyncio.run(follow(server.ws_url, token, game_id, start, lambda: last))
            assert again == [c for c in live if c["version"] > start]


def play(players: list[Client], game_id: str, moves: int) -> int:
    """``moves`` first legal actions of whoever must act: the version after the last."""
    version = 0
    for _ in range(moves):
        for player in players:
            game = player.gql(GAME, {"g": game_id})["game"]
            if game["legalActions"]:
                acted = player.gql(
                    ACT, {"g": game_id, "a": game["legalActions"][0], "v": game["version"]}
                )
                version = acted["act"]["game"]["version"]
                break
    return version


def test_spectators_woken_together_share_one_trip_to_a_worker(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty spectators of one game: after each move, the first woken makes the one trip to
    a worker that reads and computes the news, and the others are answered from memory on the
    loop (``gamestream.woken_news``); every one is pushed the same, every entry once, and
    each entry's data is completed and written as JSON once for them all, not once each
    (``streaming``'s shared memo, ``answers.Encoded``)."""
    from service.api.graphql import answers as graphql_http
    from service.api.graphql import gamestream

    with Server(sqlite_url) as server:
        players = [register(server.url, "Ann"), register(server.url, "Bob")]
        game_id = create_table(players, "IMHOTEP", seed="spectators")
        start = players[0].gql(GAME, {"g": game_id})["game"]["version"]
        trips: list[int] = []
        real_news = gamestream.news

        def news(*args: Any, **kwargs: Any) -> Any:
            trips.append(1)
            return real_news(*args, **kwargs)

        written: list[int] = []
        real_dumps = graphql_http.dumps

        def dumps(value: Any) -> str:
            if isinstance(value, dict) and value.get("type") == "next":  # a whole message
                value_data = (value.get("payload") or {}).get("data") or {}
                if "gameChanged" in value_data:
                    written.append(value_data["gameChanged"]["version"])
            elif isinstance(value, dict) and "gameChanged" in value:  # the data alone
                written.append(value["gameChanged"]["version"])
            return real_dumps(value)

        async def watch() -> tuple[list[list[Any]], int]:
            ended: list[int] = []
            spectators = [
                asyncio.create_task(
                    follow(
                        server.ws_url, None, game_id, start - 1,
                        lambda: ended[0] if ended else 1 << 30,
                    )
                )
                for _ in range(20)
            ]  # fmt: skip
            await asyncio.sleep(1.5)  # every spectator subscribed and pushed the game as it is
            monkeypatch.setattr(gamestream, "news", news)
            monkeypatch.setattr(graphql_http, "dumps", dumps)
            ended.append(await asyncio.to_thread(play, players, game_id, 3))
            return list(await asyncio.wait_for(asyncio.gather(*spectators), 60)), ended[0]

        pushed, last = asyncio.run(watch())
    assert all(p == pushed[0] for p in pushed)
    versions = [c["version"] for c in pushed[0]]
    assert versions == sorted(set(versions)) and versions[-1] == last
    # three moves, each woken up to twice (this process's save, then its feed): a trip or two
    # per wake-up of the whole group, not one per spectator (60 and more)
    print(f"{len(trips)} trips for 20 spectators over 3 moves")
    assert 1 <= len(trips) <= 12, len(trips)
    # each entry pushed after the moves began written once per group woken (20 pushes each)
    live = [v for v in versions if v in written]
    assert live and len(written) <= 2 * len(set(written)), sorted(written)
