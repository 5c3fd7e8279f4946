"""Client-ready pushes (docs/API.md "Games", subscriptions): a client that only listens to
``gameChanged`` over a real graphql-transport-ws websocket keeps exactly the game a fresh
``game { ... }`` query shows, for a seated player and for a spectator, each with its own log
numbering (``numbering.Timeline``) and no value hidden from it; ``act`` answers the events of its
command (the caller's own action), and the bots' moves follow in their own commands, seen on the
subscription; ``Game.viewAt`` and ``ReplayStep.view`` are the typed views of ``stateAt`` and
``replay``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
from typing import Any

from tests.client import Client, register, wait_game
from tests.service.transport.test_gameviews import object_type, selection

VIEW = (
    "view { __typename"
    f" ... on ImhotepState {{ {selection(object_type('ImhotepState'))} }}"
    " ... on AmunReState"
    f" {{ {selection(object_type('AmunReState'), object_type('ImhotepState'), (), set())} }} }}"
)
EVENT = "event { version type seat bySeat data hash }"
CHANGED = (
    "subscription($g: ID!, $a: Int) { gameChanged(gameId: $g, afterVersion: $a) "
    f"{{ version status activeSeats state legalActions {VIEW} {EVENT} }} }}"
)
GAME = (
    "query($g: ID!) { game(id: $g) { version status activeSeats state legalActions "
    f"{VIEW} }} }}"
)
REPLAY = (
    "query($g: ID!, $a: Int!, $n: Int) { game(id: $g) { replay(after: $a, first: $n) "
    f"{{ state {VIEW} {EVENT} }} }} }}"
)
VIEW_AT = (
    "query($g: ID!, $v: Int!) { game(id: $g) { stateAt(version: $v) "
    "viewAt(version: $v) { ... on AmunReState { phase round } } } }"
)
EVENTS = (
    "query($g: ID!, $a: String) { game(id: $g) { events(first: 200, after: $a) "
    "{ nodes { version type seat bySeat data hash } } } }"
)
ACT = (
    "mutation($g: ID!, $a: JSON!, $k: String) { act(gameId: $g, action: $a, idempotencyKey: $k) "
    "{ game { version status } "
    "events { version type seat bySeat data hash } } }"
)


class Listener:
    """One live ``gameChanged`` subscription, read as far as the caller's log goes."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.version = 0

    @classmethod
    async def open(cls, ws_url: str, game_id: str, token: str | None) -> Listener:
        import websockets

        ws = await websockets.connect(ws_url, subprotocols=["graphql-transport-ws"])  # type: ignore[list-item]
        init: dict[str, Any] = {"type": "connection_init"}
        if token:
            init["payload"] = {"authorization": f"Bearer {token}"}
        await ws.send(json.dumps(init))
        assert json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] == "connection_ack"
        payload = {"query": CHANGED, "variables": {"g": game_id, "a": 0}}
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        return cls(ws)

    async def up_to(self, version: int) -> list[dict[str, Any]]:
        """The changes after the last one read, up to the caller's log ``version``."""
        changes: list[dict[str, Any]] = []
        while self.version < version:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
            if message["type"] == "ping":
                await self.ws.send(json.dumps({"type": "pong"}))
                continue
            assert message["type"] == "next", message
            assert "errors" not in message["payload"], message
            change = message["payload"]["data"]["gameChanged"]
            assert change["version"] == change["event"]["version"] > self.version
            self.version = change["version"]
            changes.append(change)
        return changes


def cursor(number: int) -> str | None:
    return base64.urlsafe_b64encode(f"event:{number}".encode()).decode() if number else None


def check_changes(client: Client, game_id: str, changes: list[dict[str, Any]]) -> None:
    """Each change is the caller's replay step at its version (typed view too) and the last
    one is the game as a fresh query shows it to the same caller, field by field."""
    if not changes:
        return
    game = client.gql(GAME, {"g": game_id})["game"]
    if game["status"] != "ACTIVE":
        # the bots may have ended the game after the caller's last action, in their own
        # command: a player's log is the whole log once the game is over (``numbering``), so the
        # changes pushed before the end are numbered in the log as it was then; each is still
        # an entry of the game, and the last one (the end) is the game as it is now
        same = ("type", "seat", "bySeat", "data")
        entries: list[dict[str, Any]] = []
        while page := log_after(client, game_id, entries[-1]["version"] if entries else 0):
            entries += page
        logged = {tuple(json.dumps(e[k], sort_keys=True) for k in same) for e in entries}
        for change in changes:
            assert tuple(json.dumps(change["event"][k], sort_keys=True) for k in same) in logged
        changes = changes[-1:]
    first, last = changes[0]["version"], changes[-1]["version"]
    steps = client.gql(REPLAY, {"g": game_id, "a": first - 1, "n": last - first + 1})["game"][
        "replay"
    ]
    by_version = {s["event"]["version"]: s for s in steps}
    for change in changes:
        step = by_version[change["version"]]
        assert change["event"] == step["event"]
        assert change["state"] == step["state"]
        assert change["view"] == step["view"]
    final = changes[-1]
    for field in ("version", "status", "activeSeats", "state", "legalActions", "view"):
        assert final[field] == game[field], field


def log_after(client: Client, game_id: str, number: int) -> list[dict[str, Any]]:
    return list(client.gql(EVENTS, {"g": game_id, "a": cursor(number)})["game"]["events"]["nodes"])


async def play_and_listen(server: Any) -> dict[str, int]:
    human = register(server.url, "Listener")
    spectator = Client(server.url)
    game_id = human.gql(
        'mutation { createGame(input: {kind: AMUN_RE, seats: 3, seed: "push"}) { id } }'
    )["createGame"]["id"]
    seated = await Listener.open(server.ws_url, game_id, human.token)
    watching = await Listener.open(server.ws_url, game_id, None)
    human.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game_id})
    for _ in range(2):
        human.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
    rng = random.Random(7)
    counts = {"acts": 0, "bot_events_in_acts": 0, "bot_changes": 0, "changes": 0, "retried": 0}
    while True:
        await asyncio.to_thread(wait_game, human, game_id)  # the bots reply in their own commands
        for client, listener in ((human, seated), (spectator, watching)):
            version = (await asyncio.to_thread(client.gql, GAME, {"g": game_id}))["game"][
                "version"
            ]
            changes = await listener.up_to(version)
            counts["changes"] += len(changes)
            counts["bot_changes"] += sum(c["event"]["bySeat"] in (1, 2) for c in changes)
            await asyncio.to_thread(check_changes, client, game_id, changes)
        game = (await asyncio.to_thread(human.gql, GAME, {"g": game_id}))["game"]
        if game["status"] != "ACTIVE":
            break
        assert game["legalActions"], "the bots play until the human must act"
        action = rng.choice(game["legalActions"])
        sent = {"g": game_id, "a": action, "k": f"key-{counts['acts']}"}
        acted = (await asyncio.to_thread(human.gql, ACT, sent))["act"]
        counts["acts"] += 1
        if not counts["retried"]:
            # a retry with the same idempotency key answers the same events
            again = (await asyncio.to_thread(human.gql, ACT, sent))["act"]
            assert again["events"] == acted["events"]
            counts["retried"] += 1
        # the entries of the command, in the caller's numbers; the bots' replies follow them
        logged = await asyncio.to_thread(
            log_after, human, game_id, acted["events"][0]["version"] - 1
        )
        status = (await asyncio.to_thread(human.gql, GAME, {"g": game_id}))["game"]["status"]
        if status == "ACTIVE":  # still numbered as when act answered (``numbering``)
            caused = logged[: len(acted["events"])]
            assert acted["events"] == caused
            assert acted["game"]["version"] == caused[-1]["version"]
        else:  # the bots ended the game since: the caller's log is the whole log now
            same = ("type", "seat", "bySeat", "data")
            shown = [tuple(e[k] for k in same) for e in acted["events"]]
            whole = [tuple(e[k] for k in same) for e in logged]
            assert any(
                whole[i : i + len(shown)] == shown for i in range(len(whole))
            ), "act's entries are in the log"
        if acted["game"]["status"] == "ACTIVE":
            assert acted["events"][0]["version"] == game["version"] + 1
        counts["bot_events_in_acts"] += sum(e["bySeat"] in (1, 2) for e in acted["events"])
    assert game["status"] == "FINISHED"
    for listener in (seated, watching):
        # the subscription completes once the game is over
        message = json.loads(await asyncio.wait_for(listener.ws.recv(), 60))
        assert message["type"] == "complete", message
        await listener.ws.close()
    return counts


def test_game_changed_keeps_a_client_current_for_a_player_and_a_spectator(server) -> None:  # type: ignore[no-untyped-def]
    """gameChanged carries, per visible event, what `game { ... }` shows right after it."""
    counts = asyncio.run(play_and_listen(server))
    assert counts["acts"] > 10
    assert counts["bot_events_in_acts"] == 0, "act answers the caller's own events only"
    assert counts["bot_changes"] > 0, "the bots' moves come on the subscription"
    assert counts["changes"] > counts["acts"]
    assert counts["retried"] == 1


def test_view_at_is_the_typed_state_at(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Game.viewAt: the typed view of stateAt, for each version; null before the start."""
    human = register(sqlite_server.url, "Historian")
    game_id = human.gql(
        'mutation { createGame(input: {kind: AMUN_RE, seats: 3, seed: "past"}) { id } }'
    )["createGame"]["id"]
    human.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game_id})
    for _ in range(2):
        human.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
    version = human.gql(GAME, {"g": game_id})["game"]["version"]
    early = human.gql(VIEW_AT, {"g": game_id, "v": 1})["game"]
    assert early == {"stateAt": {}, "viewAt": None}
    now = human.gql(VIEW_AT, {"g": game_id, "v": version})["game"]
    # enums in the typed view: the domain id upper-cased
    assert now["viewAt"] == {
        "phase": now["stateAt"]["phase"].upper(),
        "round": now["stateAt"]["round"],
    }
