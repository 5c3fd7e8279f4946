"""Amun-Re R11.1 / §17 over the API: during the offering, nothing another seat (or a spectator)
can read tells a seat's commitment or gold before the reveal — not the state, the events, the
legal actions, REST, the subscription or an error message.

Two tables are played identically from the same seed; only seat 0's secret commitment differs.
Everything the other callers read must be identical between the two tables."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

from tests.client import Client, subscribe
from tests.service.play import create_table, seated

READ = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions state } }"
ALL = (
    "query($g: ID!) { game(id: $g) { state legalActions activeSeats "
    "events(first: 200) { nodes { version type seat data automatic bySeat } } } }"
)
ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"
EVENTS = "subscription($g: ID!) { gameEvents(gameId: $g, afterVersion: 0) { version type seat data } }"


def to_offering(players: list[Client], game_id: str, rng: random.Random) -> None:
    for _ in range(5000):
        game = players[0].gql(READ, {"g": game_id})["game"]
        if game["state"].get("phase") == "offering" and len(game["activeSeats"]) == len(players):
            return
        seat = rng.choice(game["activeSeats"])
        legal = players[seat].gql(READ, {"g": game_id})["game"]["legalActions"]
        players[seat].gql(ACT, {"g": game_id, "a": rng.choice(legal)})
    raise AssertionError("no offering reached")


def scrub(value: Any) -> Any:
    """Ids and timestamps differ between the two tables; nothing else may."""
    text = repr(value)
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>", text)
    return re.sub(r"\d{4}-\d\d-\d\dT[\d:.+]+", "<time>", text)


def test_other_seats_cannot_tell_a_commitment_before_the_reveal(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    players = seated(sqlite_server.url, 3)
    spectator = Client(sqlite_server.url)
    tables = []
    for gold in (1, 2):
        game_id = create_table(players, "AMUN_RE", seed="same-seed")
        to_offering(players, game_id, random.Random(4))
        legal = players[0].gql(READ, {"g": game_id})["game"]["legalActions"]
        commits = [a for a in legal if a["type"] == "commit_gold"]
        choice = commits[0] if gold == 1 else commits[-1]
        marks = [a for a in legal if a["type"] == "mark_for_sale"]
        if gold == 2 and marks:  # a private step too, on one table only
            players[0].gql(ACT, {"g": game_id, "a": marks[0]})
            legal = players[0].gql(READ, {"g": game_id})["game"]["legalActions"]
            choice = [a for a in legal if a["type"] in ("commit_gold", "commit_theft")][-1]
        players[0].gql(ACT, {"g": game_id, "a": choice})
        tables.append(game_id)
    seen = []
    for game_id in tables:
        views = {}
        for name, caller in (("seat 1", players[1]), ("spectator", spectator)):
            views[name] = caller.gql(ALL, {"g": game_id})["game"]
            views[name + " rest"] = caller.rest("GET", f"/games/{game_id}").json()
            views[name + " rest events"] = caller.rest("GET", f"/games/{game_id}/events?limit=200").json()
            views[name + " live"] = [
                p["data"]["gameEvents"]
                for p in asyncio.run(
                    subscribe(sqlite_server.ws_url, EVENTS, {"g": game_id}, caller.token, until=lambda p: len(p) >= 3, timeout=20)
                )
            ]
        failure = players[1].error(ACT, {"g": game_id, "a": {"type": "commit_gold", "gold": 999}})
        views["error"] = (failure.code, str(failure))
        seen.append(views)
    first, second = seen
    for key in first:
        if key.endswith("rest") or key.endswith("rest events"):
            a, b = first[key], second[key]
            for drop in ("version", "updatedAt", "createdAt", "seedCommitment"):
                if isinstance(a, dict):
                    a.pop(drop, None)
                    b.pop(drop, None)
            if "items" in a:  # versions shift by the private step: compare the visible events
                a = [{k: e[k] for k in ("type", "seat", "data")} for e in a["items"] if e["type"] != "hidden"]
                b = [{k: e[k] for k in ("type", "seat", "data")} for e in b["items"] if e["type"] != "hidden"]
        elif key == "error":
            a, b = first[key], second[key]
        else:
            a, b = first[key], second[key]
            if isinstance(a, dict) and "events" in a:
                a = {**a, "events": [{k: e[k] for k in ("type", "seat", "data", "automatic")} for e in a["events"]["nodes"] if e["type"] != "hidden"]}
                b = {**b, "events": [{k: e[k] for k in ("type", "seat", "data", "automatic")} for e in b["events"]["nodes"] if e["type"] != "hidden"]}
            if isinstance(a, list):
                a = [{k: e[k] for k in ("type", "seat", "data")} for e in a if e["type"] != "hidden"]
                b = [{k: e[k] for k in ("type", "seat", "data")} for e in b if e["type"] != "hidden"]
        assert scrub(a) == scrub(b), f"{key} differs between the two commitments"
