"""Trusted documents (docs/API.md "Trusted documents"; service/api/graphql/trusted.py): a client
may name one of the server's own clients' documents by its id (``documentId``) instead of
sending its text, and the answer is the text's, byte for byte.

Against a real server (HTTP and real websockets): by id and by text the same answers (queries,
mutations, a GET, the refusals of bad variables), the same pushes on a subscription; an id the
server does not know is ``UNKNOWN_DOCUMENT`` (HTTP 422, a websocket ``error``), an id and a text
both ``BAD_INPUT``; the Python SDK sends its documents by id and falls back to text on a server
that does not know them. The committed manifest is what its sources make (as schema.graphql is
checked against the code).
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from service.api.graphql import trusted
from service.api.graphql.http import PapyrusGraphQL
from tests.client import acknowledged
from tests.conftest import Server


def load_sdk() -> ModuleType:
    """clients/python/papyrus_client.py, imported as tests/test_python_client.py imports it
    (its folder on ``sys.path``: it is not a package), so that both share one module."""
    folder = str(trusted.SDK.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module("papyrus_client")


SDK = load_sdk()
#: the web client's documents as it sends them (``NAME`` or ``NAME@board``)
WEB = trusted.web_documents()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("trusted")
    with Server(f"sqlite:///{folder / 'papyrus.sqlite'}") as running:
        yield running


def post(server: Server, body: Any, token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{server.url}/graphql", json=body, headers=headers, timeout=60)


def by_id(text: str, **rest: Any) -> dict[str, Any]:
    return {"documentId": trusted.document_id(text), **rest}


def by_text(text: str, **rest: Any) -> dict[str, Any]:
    return {"query": text, **rest}


def without_request_ids(body: Any) -> Any:
    """An answer without what differs per request (each error's ``extensions.requestId``)."""
    if isinstance(body, dict):
        return {k: without_request_ids(v) for k, v in body.items() if k != "requestId"}
    if isinstance(body, list):
        return [without_request_ids(v) for v in body]
    return body


def both_ways(server: Server, text: str, token: str | None = None, **rest: Any) -> Any:
    """``text`` sent by its id, then as text: the same status and the same answer; that answer."""
    named, sent = (
        post(server, by_id(text, **rest), token),
        post(server, by_text(text, **rest), token),
    )
    assert named.status_code == sent.status_code, (named.text, sent.text)
    assert without_request_ids(named.json()) == without_request_ids(sent.json())
    return named.json()


def register(server: Server, name: str) -> tuple[str, str]:
    """A new player, registered by the web client's trusted ``REGISTER``: its token and id."""
    answer = post(server, by_id(WEB["REGISTER"], variables={"name": name}))
    assert answer.status_code == 200, answer.text
    session = answer.json()["data"]["registerPlayer"]
    return session["token"], session["player"]["id"]


# -- the manifest -----------------------------------------------------------------------------


def test_the_committed_manifest_matches_its_sources() -> None:
    committed = trusted.MANIFEST.read_text(encoding="utf-8")
    assert committed == trusted.generated(), (
        "service/api/graphql/trusted_documents.json is out of date: "
        "run `python -m service.api.graphql.trusted`"
    )
    assert trusted.main(["--check"]) == 0


def test_the_manifest_holds_every_document_of_the_clients_by_its_sha256() -> None:
    manifest = json.loads(trusted.MANIFEST.read_text(encoding="utf-8"))
    assert list(manifest) == sorted(manifest)
    for key, text in manifest.items():
        assert key == "sha256:" + hashlib.sha256(text.encode()).hexdigest()
        assert trusted.document(key) == text and trusted.is_trusted(text)
    typescript = trusted.typescript_documents()  # the TypeScript SDK's (its compiled module)
    assert typescript["act"] in manifest.values()
    sources = {**WEB, **SDK.DOCUMENTS, **{f"ts:{k}": v for k, v in typescript.items()}}
    assert set(manifest.values()) == set(sources.values())
    # a document holding the board's part, once per board; a fragment alone is no document
    assert {"GAME@imhotep", "GAME@amun_re", "GAME@generic", "REPLAY_STEPS@generic"} <= set(WEB)
    assert "GAME_FIELDS" not in WEB and "SUMMARY_FIELDS" not in WEB
    assert trusted.document("sha256:" + "0" * 64) is None
    assert not trusted.is_trusted(WEB["ME"] + " ")


def test_a_drifted_manifest_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--check`` is real: a manifest one document short fails it, and writing mends it."""
    stale = tmp_path / "trusted_documents.json"
    short = dict(list(trusted.sources().items())[1:])
    stale.write_text(trusted.render(short), encoding="utf-8")
    monkeypatch.setattr(trusted, "MANIFEST", stale)
    assert trusted.main(["--check"]) == 1
    assert trusted.main([]) == 0
    assert stale.read_text(encoding="utf-8") == trusted.generated()
    assert trusted.main(["--check"]) == 0


# -- over HTTP --------------------------------------------------------------------------------


def test_by_id_the_answers_are_the_texts(served: Server) -> None:
    """Queries and mutations by id answer exactly what their texts answer: two players, a game
    of Imhotep created and joined, read (the web client's game page, the SDK's), an action (with
    one idempotency key, so the text's ``act`` answers the first one's result)."""
    alice, _ = register(served, "Alice")
    bob, bob_id = register(served, "Bob")
    me = both_ways(served, WEB["ME"], bob)
    assert me == {"data": {"me": {"id": bob_id, "name": "Bob"}}}
    created = post(
        served, by_id(SDK.CREATE_GAME, variables={"i": {"kind": "IMHOTEP", "seats": 2}}), alice
    ).json()["data"]["createGame"]
    game_id = created["id"]
    for seat, token in enumerate((alice, bob)):
        joined = post(served, by_id(SDK.JOIN_GAME, variables={"g": game_id, "s": seat}), token)
        assert joined.json()["data"]["joinGame"]["mySeat"] == seat, joined.text
    game = both_ways(served, SDK.GAME, alice, variables={"id": game_id})["data"]["game"]
    assert game["status"] == "ACTIVE"
    page = both_ways(served, WEB["GAME@imhotep"], alice, variables={"id": game_id})
    assert page["data"]["game"]["view"]["__typename"] == "ImhotepState"
    both_ways(served, WEB["GAME@generic"], None, variables={"id": game_id}, operationName="Game")
    (seat,) = game["activeSeats"]
    token = (alice, bob)[seat]
    game = both_ways(served, SDK.GAME, token, variables={"id": game_id})["data"]["game"]
    action = game["legalActions"][0]
    variables = {"g": game_id, "a": action, "v": game["version"], "k": "trusted-1"}
    acted = both_ways(served, SDK.ACT, token, variables=variables)
    assert acted["data"]["act"]["game"]["version"] > game["version"]
    after = both_ways(served, SDK.GAME, bob, variables={"id": game_id})["data"]["game"]
    assert after["version"] == acted["data"]["act"]["game"]["version"]
    events = both_ways(served, SDK.EVENTS, bob, variables={"g": game_id, "f": 100, "c": None})
    assert events["data"]["game"]["events"]["nodes"]


def test_by_id_every_check_still_applies(served: Server) -> None:
    """The text's refusals are the id's: a missing variable, a wrong one, an operation name the
    document lacks, a subscription over HTTP, an anonymous mutation that needs a player."""
    for text, rest in [
        (SDK.GAME, {}),
        (SDK.GAME, {"variables": {"id": {"not": "an id"}}}),
        (WEB["ME"], {"operationName": "NoSuchOperation"}),
        (WEB["GAME_CHANGED"], {"variables": {"gameId": "1"}}),
        (SDK.JOIN_GAME, {"variables": {"g": "1"}}),
    ]:
        answer = both_ways(served, text, **rest)
        assert answer["errors"], (text, answer)


def test_an_unknown_id_is_unknown_document(served: Server) -> None:
    for named in ["sha256:" + "0" * 64, trusted.document_id("{ __typename }"), "whatever"]:
        answer = post(served, {"documentId": named})
        assert answer.status_code == 422, answer.text
        (error,) = answer.json()["errors"]
        assert error["extensions"]["code"] == "UNKNOWN_DOCUMENT"
        assert "query" in error["message"]
        assert answer.json()["data"] is None
    # any other document still runs as text
    assert post(served, {"query": "{ __typename }"}).json() == {"data": {"__typename": "Query"}}


def test_an_id_and_a_text_both_or_an_id_that_is_no_text_are_bad_input(served: Server) -> None:
    for body in [
        {"documentId": trusted.document_id(WEB["ME"]), "query": WEB["ME"]},
        {"documentId": trusted.document_id(WEB["ME"]), "query": "{ __typename }"},
        {"documentId": 5},
        {"documentId": ["sha256:0"]},
    ]:
        answer = post(served, body)
        assert answer.status_code == 422, (body, answer.text)
        (error,) = answer.json()["errors"]
        assert error["extensions"]["code"] == "BAD_INPUT", (body, error)
    # a null documentId is one not sent (as on the websocket)
    answer = post(served, {"documentId": None, "query": "{ __typename }"})
    assert answer.json() == {"data": {"__typename": "Query"}}


def test_a_get_by_id_answers_as_the_text(served: Server) -> None:
    """``GET /graphql?documentId=...`` runs a query as ``?query=...`` does; a mutation is
    refused on GET by id as by text; an unknown id is UNKNOWN_DOCUMENT."""
    variables = json.dumps({"first": 5})

    def get(**params: str) -> httpx.Response:
        return httpx.get(f"{served.url}/graphql", params=params, timeout=60)

    text = WEB["LOBBY"]
    named = get(documentId=trusted.document_id(text), variables=variables)
    sent = get(query=text, variables=variables)
    assert named.status_code == sent.status_code == 200, named.text
    assert named.json() == sent.json() and "lobby" in named.json()["data"]
    mutation = WEB["REGISTER"]
    refused = get(documentId=trusted.document_id(mutation), variables=json.dumps({"name": "X"}))
    as_text = get(query=mutation, variables=json.dumps({"name": "X"}))
    assert refused.status_code == as_text.status_code != 200
    assert without_request_ids(refused.json()) == without_request_ids(as_text.json())
    unknown = get(documentId="sha256:" + "1" * 64)
    assert unknown.status_code == 422
    assert unknown.json()["errors"][0]["extensions"]["code"] == "UNKNOWN_DOCUMENT"
    both = get(documentId=trusted.document_id(text), query=text)
    assert both.status_code == 422
    assert both.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"


# -- over websockets --------------------------------------------------------------------------


async def pushes(ws_url: str, payload: dict[str, Any], until: int) -> list[Any]:
    """``gameChanged`` on a socket of its own, subscribed with ``payload``, up to ``until``."""
    async with acknowledged(ws_url) as ws:
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        seen: list[Any] = []
        while not seen or seen[-1]["version"] < until:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))
                continue
            assert message["type"] == "next", message
            assert "errors" not in message["payload"], message
            seen.append(message["payload"]["data"]["gameChanged"])
        return seen


async def test_a_subscription_by_id_is_pushed_what_the_text_is(served: Server) -> None:
    """The web client's ``GAME_CHANGED`` by id and by text, from the start of a game that has
    moved: the same pushes (the catch-up, each event of the log)."""
    alice, _ = await asyncio.to_thread(register, served, "Carol")
    bob, _ = await asyncio.to_thread(register, served, "Dave")

    def started() -> tuple[str, int]:
        made = post(
            served, by_id(SDK.CREATE_GAME, variables={"i": {"kind": "IMHOTEP", "seats": 2}}), alice
        ).json()["data"]["createGame"]
        for seat, token in enumerate((alice, bob)):
            post(served, by_id(SDK.JOIN_GAME, variables={"g": made["id"], "s": seat}), token)
        game = post(served, by_id(SDK.GAME, variables={"id": made["id"]}), alice).json()
        (seat,) = game["data"]["game"]["activeSeats"]
        token = (alice, bob)[seat]
        game = post(served, by_id(SDK.GAME, variables={"id": made["id"]}), token).json()
        game = game["data"]["game"]
        variables = {"g": made["id"], "a": game["legalActions"][0], "v": game["version"]}
        acted = post(served, by_id(SDK.ACT, variables=variables), token).json()
        return made["id"], acted["data"]["act"]["game"]["version"]

    game_id, version = await asyncio.to_thread(started)
    text = WEB["GAME_CHANGED"]
    variables = {"gameId": game_id, "afterVersion": 0}
    named = await pushes(served.ws_url, by_id(text, variables=variables), version)
    sent = await pushes(served.ws_url, by_text(text, variables=variables), version)
    assert named == sent and len(named) >= 2


async def test_an_unknown_id_on_the_websocket_is_an_error_of_that_operation(
    served: Server,
) -> None:
    """An ``error`` message for the operation, coded UNKNOWN_DOCUMENT; the socket goes on."""
    async with acknowledged(served.ws_url) as ws:
        unknown = {"documentId": "sha256:" + "2" * 64}
        await ws.send(json.dumps({"id": "u", "type": "subscribe", "payload": unknown}))
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert message["type"] == "error" and message["id"] == "u", message
        (error,) = message["payload"]
        assert error["extensions"] == {"code": "UNKNOWN_DOCUMENT"}
        assert "query" in error["message"]
        # the same id again, now with the text; and a trusted query by id
        again = {"query": "{ __typename }"}
        await ws.send(json.dumps({"id": "u", "type": "subscribe", "payload": again}))
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert message == {"id": "u", "type": "next", "payload": {"data": {"__typename": "Query"}}}
        assert json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] == "complete"
        kinds = by_id(WEB["GAME_KINDS"])
        await ws.send(json.dumps({"id": "k", "type": "subscribe", "payload": kinds}))
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert message["type"] == "next" and message["payload"]["data"]["gameKinds"], message


@pytest.mark.parametrize(
    "payload",
    [
        {"documentId": "sha256:" + "0" * 64, "query": "{ __typename }"},
        {"documentId": 5},
        {"variables": {}},
    ],
    ids=["an id and a text", "an id that is a number", "neither"],
)
async def test_an_odd_payload_on_the_websocket_closes_with_4400(
    served: Server, payload: dict[str, Any]
) -> None:
    async with acknowledged(served.ws_url) as ws:
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
        assert closed.value.rcvd.reason


async def test_the_older_graphql_ws_takes_ids_too(served: Server) -> None:
    async with websockets.connect(served.ws_url, subprotocols=["graphql-ws"]) as ws:  # type: ignore[list-item]
        await ws.send(json.dumps({"type": "connection_init"}))

        async def receive() -> dict[str, Any]:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] != "ka":
                    return dict(message)

        assert (await receive())["type"] == "connection_ack"
        # (subscriptions only on this protocol: one of a game there is not, answered the same)
        answers = []
        for operation, payload in [
            ("i", by_id(WEB["GAME_CHANGED"], variables={"gameId": "987654"})),
            ("t", by_text(WEB["GAME_CHANGED"], variables={"gameId": "987654"})),
        ]:
            await ws.send(json.dumps({"id": operation, "type": "start", "payload": payload}))
            message = await receive()
            assert message["id"] == operation and message["payload"]["errors"], message
            answers.append(without_request_ids({**message, "id": None}))
            assert (await receive())["type"] == "complete"
        assert answers[0] == answers[1]
        assert answers[0]["payload"]["errors"][0]["extensions"]["code"] == "NOT_FOUND"
        unknown = {"documentId": "sha256:" + "3" * 64}
        await ws.send(json.dumps({"id": "u", "type": "start", "payload": unknown}))
        message = await receive()
        assert message["type"] == "error" and message["id"] == "u", message
        assert message["payload"]["extensions"] == {"code": "UNKNOWN_DOCUMENT"}


# -- the Python SDK ---------------------------------------------------------------------------


class Recorded:
    """The GraphQL bodies a ``PapyrusClient`` posts (an httpx request hook)."""

    def __init__(self, client: Any) -> None:
        self.bodies: list[dict[str, Any]] = []
        client.http.event_hooks["request"] = [self.hook]

    def hook(self, request: httpx.Request) -> None:
        if request.url.path == "/graphql":
            self.bodies.append(json.loads(request.content))


def test_the_sdk_sends_its_documents_by_id(served: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every body the SDK posts names its document by id, never by text, and the server runs
    them (a game created, joined, read, acted in as JSON and typed); its subscriptions
    (``gameEvents``, ``gameChanged``, on one websocket) name their documents by id."""
    named: list[str] = []

    def recording(document_id: str) -> str | None:
        named.append(document_id)
        return trusted.document(document_id)

    monkeypatch.setattr(PapyrusGraphQL, "trusted_document", staticmethod(recording))
    with SDK.PapyrusClient(served.url) as alice, SDK.PapyrusClient(served.url) as bob:
        recorded = [Recorded(alice), Recorded(bob)]
        alice.register("Erin")
        bob.register("Frank")
        game = alice.create_game("IMHOTEP", 2)
        alice.join(game.id)
        bob.join(game.id)
        actor = (alice, bob)[alice.game(game.id).active_seats[0]]
        game = actor.game(game.id)
        result = actor.act(game.id, game.legal_actions[0], expected_version=game.version)
        assert result.game.version > game.version
        assert alice.events(game.id)
        alice.wait_for_change(game.id, 0, timeout=30)
        with alice.changes(game.id, 0, timeout=30) as pushes:
            assert next(pushes).version == 1
        actor = (alice, bob)[actor is alice]  # the other seat: its turn now
        game = actor.game(game.id)
        typed = actor.typed_action(game.kind, game.legal_actions[0])
        assert actor.act(game.id, typed=typed, expected_version=game.version).events
        bodies = [body for record in recorded for body in record.bodies]
        assert len(bodies) >= 11
        ids = {SDK.document_id(text) for text in SDK.DOCUMENTS.values()}
        for body in bodies:
            assert "query" not in body and body["documentId"] in ids, body
        assert {SDK.document_id(SDK.ACT_TYPED), SDK.document_id(SDK.ACTION_CATALOG)} <= {
            body["documentId"] for body in bodies
        }
        # the subscriptions', both on alice's one websocket
        assert named == [SDK.document_id(SDK.GAME_EVENTS), SDK.document_id(SDK.GAME_CHANGED)]
        assert alice.connections == 1
        assert not alice.untrusted and not bob.untrusted


def test_the_sdk_sends_the_text_to_a_server_that_does_not_know_the_id(
    served: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server without trusted documents (an older one): the first request of each document
    is refused UNKNOWN_DOCUMENT and sent again as text, later ones as text at once; the
    subscriptions likewise."""
    monkeypatch.setattr(trusted, "document", lambda document_id: None)
    monkeypatch.setattr(PapyrusGraphQL, "trusted_document", staticmethod(lambda _: None))
    with SDK.PapyrusClient(served.url) as client:
        recorded = Recorded(client)
        client.register("Grace")
        game = client.create_game("IMHOTEP", 2)
        client.game(game.id)
        client.game(game.id)
        kinds = [("documentId" in body, "query" in body) for body in recorded.bodies]
        assert kinds == [
            (True, False),  # register by id: unknown
            (False, True),  # then as text
            (True, False),  # createGame by id: unknown
            (False, True),
            (True, False),  # game by id: unknown
            (False, True),
            (False, True),  # game again: text at once
        ]
        assert client.untrusted == {SDK.REGISTER, SDK.CREATE_GAME, SDK.GAME}
        client.join(game.id)
        with SDK.PapyrusClient(served.url) as other:
            other.register("Heidi")
            other.join(game.id)
        client.wait_for_change(game.id, 0, timeout=30)
        assert SDK.GAME_EVENTS in client.untrusted
        with client.changes(game.id, 0, timeout=30) as pushes:
            assert next(pushes).version == 1
        assert SDK.GAME_CHANGED in client.untrusted
