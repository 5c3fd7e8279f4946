"""Compiled plans of the trusted documents answer exactly as graphql-core (issue #22, "the hot
documents"; service/api/graphql/operations.py).

The differential test: every query and mutation of the trusted set (the web client's, for every
board, and the Python SDK's: ``trusted_documents.json``) is sent over real HTTP to a real
server, once with plans and once with graphql-core alone, by every seat and a spectator, on
games of both kinds played to random points, with variables drawn at random (good ones, and
ones that are refused: unknown games, bad actions, wrong versions, out-of-range pages), over
HTTP or over a websocket (each a way of its own to the executor). The answers are compared whole: data, errors, messages, paths, locations and codes (a request's
own id aside).

A query is answered twice on the same game. A mutation changes what it acts on, so a mutation
that succeeds is sent to one of two twin games (the same seed, seats and history), with plans
to one and without to the other, and the answers compared with the twins' ids swapped; one
that is refused is sent twice to the same game. A deliberately wrong plan is caught by the
same comparison.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from graphql import OperationDefinitionNode, TypeNode, parse, print_ast

from service.api.graphql import operations, trusted
from tests.client import Client, register, subscribe
from tests.conftest import Server
from tests.service.limits.test_subscription_work import NO_BUDGET
from tests.service.play import create_table

MOVERS = "query($g: ID!) { game(id: $g) { version activeSeats mySeat legalActions } }"
ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version } } }"


def documents() -> dict[str, tuple[str, OperationDefinitionNode]]:
    """Every trusted query and mutation by id, with its operation."""
    found = {}
    for document_id, text in trusted.manifest().items():
        (operation,) = [d for d in parse(text).definitions if isinstance(d, OperationDefinitionNode)]
        if operation.operation.value in ("query", "mutation"):
            found[document_id] = (text, operation)
    return found


def type_name(node: TypeNode) -> str:
    return print_ast(node)


class Table:
    """A game and its players; ``twin``: the same game played identically (a mutation that
    succeeds is compared across the two)."""

    def __init__(self, game_id: str, players: list[Client], ids: list[str], twin: str) -> None:
        self.game_id, self.players, self.player_ids, self.twin = game_id, players, ids, twin

    def version(self) -> int:
        return int(self.players[0].gql(MOVERS, {"g": self.game_id})["game"]["version"])

    def movers(self, game_id: str) -> list[tuple[Client, list[Any]]]:
        found = []
        for player in self.players:
            game = player.gql(MOVERS, {"g": game_id})["game"]
            if game["legalActions"]:
                found.append((player, game["legalActions"]))
        return found

    def play(self, moves: int, rng: random.Random) -> None:
        """``moves`` random legal moves, the same in both twins."""
        for _ in range(moves):
            movers = self.movers(self.game_id)
            if not movers:
                return
            player, actions = rng.choice(movers)
            action = rng.choice(actions)
            for game_id in (self.game_id, self.twin):
                player.gql(ACT, {"g": game_id, "a": action})


def variables_for(
    operation: OperationDefinitionNode, table: Table, caller: Client, rng: random.Random
) -> dict[str, Any]:
    """Variables for ``operation`` on ``table``, by name and type: mostly good, sometimes
    refused."""
    version = table.version()
    chosen: dict[str, Any] = {}
    for definition in operation.variable_definitions or ():
        name, kind = definition.variable.name.value, type_name(definition.type)
        if kind.startswith("ID"):
            if name in ("player",):
                chosen[name] = rng.choice([*table.player_ids, "nobody"])
            else:
                chosen[name] = rng.choices([table.game_id, "no-such-game"], [9, 1])[0]
        elif name in ("after",) and kind.startswith("Int"):
            chosen[name] = rng.choice([0, version // 2, version, version + 5])
        elif name in ("first", "f"):
            chosen[name] = rng.choice([None, 1, 3, 20, -1])
        elif kind.startswith("Int") and name in ("seat", "s"):
            chosen[name] = rng.choice([None, 0, 1, 7])
        elif kind.startswith("Int"):  # an expected or minimum version
            chosen[name] = rng.choice([None, version, version - 1])
        elif name in ("after", "c") or kind == "String":
            chosen[name] = rng.choice([None, "not-a-cursor", "mcts", "random"])
        elif kind.startswith("String"):
            chosen[name] = f"Plan {rng.randrange(10**6)}"
        elif kind.startswith("JSON"):
            actions = caller.gql(MOVERS, {"g": table.game_id})["game"]["legalActions"]
            chosen[name] = rng.choice([*actions[:3], {"type": "no_such_action"}])
        elif kind.startswith("GameKind"):
            chosen[name] = rng.choice(["IMHOTEP", "AMUN_RE", None][: 3 if kind[-1] != "!" else 2])
        elif kind.startswith("GameStatus"):
            chosen[name] = rng.choice(["OPEN", "ACTIVE", "FINISHED", None])
        elif kind.startswith("ActionInput"):
            chosen[name] = None  # the typed action of a JSON one: see tests/service/test_typed_moves.py
        elif kind.startswith("Boolean"):
            chosen[name] = rng.choice([True, False])
        elif kind.startswith("CreateGameInput"):
            chosen[name] = {"kind": rng.choice(["IMHOTEP", "AMUN_RE"]), "seats": 3}
        else:  # pragma: no cover - a new trusted document: give its variables a rule
            raise AssertionError(f"no rule for ${name}: {kind}")
    return chosen


def answer(
    caller: Client, text: str, variables: dict[str, Any], plans: bool, over: str = "http"
) -> dict[str, Any]:
    """The answer to ``text`` by HTTP, or over a graphql-transport-ws websocket (strawberry's
    ``stream``, another way to the executor), with plans or with graphql-core alone."""
    operations.ENABLED = plans
    try:
        if over == "http":
            body = caller.raw(text, variables)
        else:
            ws_url = caller.base_url.replace("http://", "ws://") + "/graphql"
            (body,) = asyncio.run(subscribe(ws_url, text, variables, caller.token))
    finally:
        operations.ENABLED = True
    for error in body.get("errors") or ():
        (error.get("extensions") or {}).pop("requestId", None)  # each request's own
    return body


#: what differs between twin games played identically: when each entry was written
TIMES = frozenset({"at", "createdAt", "lastActivity"})


def swapped(body: Any, one: str, other: str) -> Any:
    """``body`` with the ids of two twin games swapped (the twin's answer, as the first's) and
    the times of their entries left out."""
    if isinstance(body, dict):
        return {k: swapped(v, one, other) for k, v in body.items() if k not in TIMES}
    if isinstance(body, list):
        return [swapped(v, one, other) for v in body]
    if body == other:
        return one
    return body


def compared(table: Table, rng: random.Random, rounds: int) -> Iterator[str]:
    """Every trusted query and mutation by every caller on ``table``, with plans and
    without: the differences found."""
    spectator = Client(table.players[0].base_url)
    callers = [*table.players, spectator]
    for _ in range(rounds):
        for document_id, (text, operation) in sorted(documents().items()):
            caller = rng.choice(callers)
            variables = variables_for(operation, table, caller, rng)
            mutation = operation.operation.value == "mutation"
            over = rng.choice(["http", "ws"])
            first = answer(caller, text, variables, plans=True, over=over)
            if mutation and not first.get("errors"):  # it acted: the twin acts without plans
                twin = {k: table.twin if v == table.game_id else v for k, v in variables.items()}
                first = swapped(first, table.game_id, table.twin)
                second = answer(caller, text, twin, plans=False, over=over)
                second = swapped(second, table.game_id, table.twin)
                if second.get("errors") is None and "registerPlayer" in (first.get("data") or {}):
                    continue  # a new player each time: its token and id are its own
                if "createGame" in (first.get("data") or {}):
                    first["data"]["createGame"].pop("id")
                    second["data"]["createGame"].pop("id")
            else:
                second = answer(caller, text, variables, plans=False, over=over)
            if first != second:
                name = operation.name.value if operation.name else document_id[:15]
                yield f"{name} {variables} ({over}): plans {first} / graphql-core {second}"


def sync_twins(table: Table) -> None:
    """The twins are still equal (every mutation that acted on one acted on the other)."""
    left = table.players[0].gql(MOVERS, {"g": table.game_id})["game"]
    right = table.players[0].gql(MOVERS, {"g": table.twin})["game"]
    assert left == right, "the twin games drifted apart"


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, list[Table]]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('operation-plans') / 'papyrus.sqlite'}"
    with Server(url, **NO_BUDGET) as server:
        found = []
        for kind, seats in (("IMHOTEP", 4), ("AMUN_RE", 3)):
            players = [register(server.url, f"{kind} {n}") for n in range(seats)]
            ids = [player.gql("query { me { id } }")["me"]["id"] for player in players]
            game_id = create_table(players, kind, seed=f"operation-plans-{kind}")
            twin = create_table(players, kind, seed=f"operation-plans-{kind}")
            found.append(Table(game_id, players, ids, twin))
        yield server, found


def test_trusted_documents_are_queries_and_mutations_with_plans() -> None:
    """Every trusted query and mutation compiles (none falls back to graphql-core whole)."""
    from service.api.graphql.schema import schema

    found = documents()
    assert len(found) >= 20
    for text, operation in found.values():
        name = operation.name.value if operation.name else None
        compiled = operations.plan_for(schema._schema, parse(text), text, name)
        assert compiled is not None, text


def test_plans_answer_exactly_as_graphql_core(tables: tuple[Server, list[Table]]) -> None:
    _server, found = tables
    rng = random.Random(2212)
    operations._plans.clear()
    differences: list[str] = []
    for table in found:
        for moves in (0, 6, 15):  # random versions: the twins played on, identically
            table.play(moves, rng)
            differences += compared(table, rng, rounds=2)
            sync_twins(table)  # what acted on one twin acted alike on the other
    assert differences == [], "\n".join(differences[:5])
    used = [p for p in operations._plans.values() if p is not None]
    assert len(used) >= len(documents()) - 2, "the trusted documents were not run by plans"


def test_a_wrong_plan_is_caught(
    tables: tuple[Server, list[Table]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plan that completes an enum by its Python name (``ACTIVE`` as ``active``) and one
    that drops a field's error code are both reported by the comparison above."""
    _server, found = tables
    real = operations.OperationPlan.completer

    def wrong(self: operations.OperationPlan, type_: Any, nodes: Any, parent: Any, name: Any) -> Any:
        complete = real(self, type_, nodes, parent, name)
        if getattr(type_, "name", None) == "GameStatus":
            return lambda run, path, value, info: str(complete(run, path, value, info)).lower()
        return complete

    monkeypatch.setattr(operations.OperationPlan, "completer", wrong)
    operations._plans.clear()
    try:
        differences = list(compared(found[0], random.Random(5), rounds=1))
    finally:
        operations._plans.clear()
    assert any("status" in d for d in differences), differences


def test_an_operators_manifest_is_trusted_too(tmp_path: Any) -> None:
    """``--trusted-documents FILE``: a third party's documents by id, run by plans; a file
    whose ids are not its texts' is refused before the server starts."""
    from service.settings import Settings

    text = "query Mine($g: ID!) { game(id: $g) { id version status } }"
    manifest = tmp_path / "mine.json"
    manifest.write_text(json.dumps({trusted.document_id(text): text}))
    url = f"sqlite:///{tmp_path / 'papyrus.sqlite'}"
    try:
        with Server(url, trusted_documents=str(manifest)) as server:
            players = [register(server.url, f"Mine {n}") for n in range(2)]
            game_id = create_table(players, "IMHOTEP", seed="mine")
            operations._plans.clear()
            answer = players[0].http.post(
                "/graphql",
                json={"documentId": trusted.document_id(text), "variables": {"g": game_id}},
                headers=players[0].headers(),
            ).json()
            plain = players[0].gql("query($g: ID!) { game(id: $g) { id version status } }", {"g": game_id})
            assert answer == {"data": plain} and plain["game"]["status"] == "ACTIVE"
            assert [p for p in operations._plans.values() if p is not None]
    finally:
        trusted.added.clear()

    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({trusted.document_id(text): text + " "}))
    with pytest.raises(ValueError, match="is not its document's id"):
        Settings(database_url=url, trusted_documents=str(forged))
