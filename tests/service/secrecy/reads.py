"""Everything one caller can read of one game over the real server, for secrecy comparisons.

``everything`` reads every read path of a game as one caller (GraphQL ``game`` with its
version, times, state, typed view, legal actions, events and their pages, replay, ``stateAt``,
undo status and fork source, ``verifyLog``, the summary read model; the ``gameEvents``
subscription; REST game, events and their pages, state, replay and summaries), errors
included. ``normalised`` replaces what differs between any two games anyway (ids, hashes,
seed commitments, times) by placeholders numbered in order of first appearance, so that the
comparison stays strict about everything else, equal ids and hashes included; times are checked
separately by ``check_times`` (the game's last change is the time of its last visible event).
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from graphql import GraphQLObjectType, get_named_type

from service.api.graphql.schema import schema
from tests.client import Client, subscribe

EVENT = "version at seat type data automatic bySeat undone hash"


def selection(type_name: str) -> str:
    """Every field of a GraphQL object type, nested objects included."""

    def of(graphql_type: GraphQLObjectType) -> str:
        parts = []
        for name, field in graphql_type.fields.items():
            named = get_named_type(field.type)
            parts.append(
                f"{name} {{ {of(named)} }}" if isinstance(named, GraphQLObjectType) else name
            )
        return " ".join(parts)

    found = schema._schema.get_type(type_name)
    assert isinstance(found, GraphQLObjectType)
    return of(found)


GAME = (
    "query($g: ID!) { game(id: $g) { id kind status options version updatedAt createdAt mySeat "
    "activeSeats state legalActions scores seedCommitment seats { seat isBot player { id name } } "
    "forkedFrom { gameId version seats } canUndo { allowed immediate toVersion reason } "
    "undoRequest { version seat toVersion waiting } "
    f"events(first: 200) {{ totalCount pageInfo {{ hasNextPage endCursor }} "
    f"edges {{ cursor node {{ {EVENT} }} }} }} "
    f"replay(first: 200) {{ event {{ {EVENT} }} state }} }} }}"
)
VIEW = f"query($g: ID!) {{ game(id: $g) {{ view {{ __typename ... on AmunReState {{ {selection('AmunReState')} }} }} }} }}"
PAGE = (
    "query($g: ID!, $n: Int!, $a: String) { game(id: $g) { events(first: $n, after: $a) "
    f"{{ totalCount pageInfo {{ hasNextPage endCursor }} nodes {{ {EVENT} }} }} }} }}"
)
REPLAY = f"query($g: ID!, $a: Int!) {{ game(id: $g) {{ replay(after: $a, first: 3) {{ event {{ {EVENT} }} state }} }} }}"
STATE_AT = "query($g: ID!, $v: Int!) { game(id: $g) { stateAt(version: $v) } }"
VERIFY = "query($g: ID!) { verifyLog(gameId: $g) { ok checkedEvents badVersion reason } }"
SUMMARIES = (
    "query($p: Int) { gameSummaries(first: 50, minPosition: $p) { nodes { gameId kind status "
    "options freeSeats activeSeats scores winners version createdAt lastActivity forkedFrom "
    "seats { seat playerId name isBot } } } }"
)
LIVE = f"subscription($g: ID!) {{ gameEvents(gameId: $g, afterVersion: 0) {{ {EVENT} }} }}"


def outcome(client: Client, query: str, variables: dict[str, Any]) -> Any:
    """The data, or the error code and message (an error message must not differ either)."""
    body = client.raw(query, variables)
    if body.get("errors"):
        return {
            "error": [(e.get("extensions", {}).get("code"), e["message"]) for e in body["errors"]]
        }
    return body["data"]


def rest(client: Client, path: str) -> Any:
    response = client.rest("GET", path)
    return {"status": response.status_code, "body": response.json()}


def everything(client: Client, ws_url: str, game_id: str) -> dict[str, Any]:
    """Every read path of one game as ``client`` sees it (see the module docstring)."""
    seen: dict[str, Any] = {"game": client.gql(GAME, {"g": game_id})["game"]}
    version = seen["game"]["version"]
    seen["view"] = outcome(client, VIEW, {"g": game_id})
    first = client.gql(PAGE, {"g": game_id, "n": 5, "a": None})["game"]["events"]
    seen["pages"] = [first]
    after = first["pageInfo"]["endCursor"]
    for _ in range(2):
        page = outcome(client, PAGE, {"g": game_id, "n": 7, "a": after})
        seen["pages"].append(page)
        after = page["game"]["events"]["pageInfo"]["endCursor"]
    for label, step in (("0", 0), ("v-3", version - 3), ("v-1", version - 1), ("v", version)):
        seen[f"replay after {label}"] = outcome(client, REPLAY, {"g": game_id, "a": max(step, 0)})
    seen["replay after v+2"] = outcome(client, REPLAY, {"g": game_id, "a": version + 2})
    for label, at in (("1", 1), ("v/2", version // 2), ("v-1", version - 1), ("v", version)):
        seen[f"stateAt {label}"] = outcome(client, STATE_AT, {"g": game_id, "v": at})
    seen["stateAt v+1"] = outcome(client, STATE_AT, {"g": game_id, "v": version + 1})
    seen["verifyLog"] = outcome(client, VERIFY, {"g": game_id})
    seen["live"] = [
        p.get("data", p)
        for p in asyncio.run(
            subscribe(
                ws_url,
                LIVE,
                {"g": game_id},
                client.token,
                until=lambda p: len(p) >= version,
                timeout=30,
            )
        )
    ]
    head = client.gql("query { readModels { storePosition } }")["readModels"]["storePosition"]
    summaries = client.gql(SUMMARIES, {"p": head})["gameSummaries"]["nodes"]
    seen["summary"] = [s for s in summaries if s["gameId"] == game_id]
    base = f"/games/{game_id}"
    seen["rest game"] = rest(client, base)
    seen["rest events"] = rest(client, f"{base}/events?limit=200")
    seen["rest events page"] = rest(client, f"{base}/events?after={max(version - 4, 0)}&limit=2")
    seen["rest state"] = rest(client, f"{base}/state")
    for label, at in (("1", 1), ("v-1", version - 1), ("v", version), ("v+1", version + 1)):
        seen[f"rest state {label}"] = rest(client, f"{base}/state?version={at}")
    seen["rest replay"] = rest(client, f"{base}/replay?limit=200")
    seen["rest replay tail"] = rest(client, f"{base}/replay?after={max(version - 2, 0)}&limit=5")
    seen["rest summaries"] = [
        s for s in rest(client, "/summaries?limit=50")["body"]["items"] if s["gameId"] == game_id
    ]
    return seen


UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
HASH = r"\b[0-9a-f]{64}\b"
TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?"


def normalised(value: Any) -> str:
    """``value`` as canonical JSON with ids, hashes and times replaced by placeholders; ids and
    hashes keep their equality relations (numbered by first appearance), times do not (two
    entries recorded in the same microsecond are chance)."""
    text = json.dumps(value, sort_keys=True)
    for pattern, name in ((UUID, "id"), (HASH, "hash")):
        numbers: dict[str, int] = {}
        text = re.sub(
            pattern, lambda m, n=numbers, k=name: f"<{k}{n.setdefault(m.group(0), len(n))}>", text
        )
    text = re.sub(r'"requestId": "[^"]*"', '"requestId": "<request>"', text)  # per request
    return re.sub(TIME, "<time>", text)


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The read paths whose normalised answers differ."""
    assert a.keys() == b.keys()
    return [key for key in a if normalised(a[key]) != normalised(b[key])]


def assert_alike(first: dict[str, Any], second: dict[str, Any], what: str) -> None:
    """Each caller's reads of two tables (``{caller: everything(...)}``) are the same."""
    for name in first:
        differ = differences(first[name], second[name])
        assert not differ, f"{name} can tell {what}: {differ} differ: " + "; ".join(
            first_difference(normalised(first[name][k]), normalised(second[name][k]))
            for k in differ
        )


def first_difference(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return f"...{a[max(at - 300, 0) : at + 200]} != ...{b[max(at - 300, 0) : at + 200]}"


def legal(player: Client, game_id: str) -> list[dict[str, Any]]:
    """The actions ``act`` accepts from ``player`` now."""
    query = "query($g: ID!) { game(id: $g) { legalActions } }"
    return list(player.gql(query, {"g": game_id})["game"]["legalActions"])


def check_times(seen: dict[str, Any]) -> None:
    """The game's last change is the time of the last event the caller sees, on every path."""
    game = seen["game"]
    last = game["events"]["edges"][-1]["node"]["at"]
    assert game["updatedAt"] == last, "updatedAt is not the time of the last visible event"
    body = seen["rest game"]["body"]
    assert body["updatedAt"] == seen["rest events"]["body"]["items"][-1]["at"]
    if game["mySeat"] is None:  # the summaries are what a spectator sees
        assert [s["version"] for s in seen["summary"] + seen["rest summaries"]] == [
            game["version"]
        ] * 2
        for summary in seen["summary"] + seen["rest summaries"]:
            assert same_time(summary["lastActivity"], last), "lastActivity is not the last time"


def same_time(a: str, b: str) -> bool:
    from datetime import datetime

    return datetime.fromisoformat(a) == datetime.fromisoformat(b)
