"""A small typed client for the Papyrus API (GraphQL over HTTP, the subscription over websockets).

It knows the server only through its public contract (``docs/API.md``, ``schema.graphql``):
it imports nothing of the server. Needs ``httpx``; ``wait_for_change`` needs ``websockets``.

Its GraphQL documents are the constants below, all of them in ``DOCUMENTS``. The server trusts
them (docs/API.md "Trusted documents": its manifest is generated from ``DOCUMENTS``), so the
client sends each by its id (``document_id``) rather than its text; a server that does not
know one answers ``UNKNOWN_DOCUMENT``, and the client sends that document's text from then on.

    client = PapyrusClient("http://127.0.0.1:8000")
    client.register("alice")
    game = client.create_game("IMHOTEP", seats=2)
    client.join(game.id)
    client.add_bot(game.id)
    game = client.game(game.id)
    result = client.act(game.id, game.legal_actions[0], expected_version=game.version)
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

JSON = Any

GAME_FIELDS = """
  id kind status version mySeat activeSeats state legalActions options
  seats { seat isBot player { id name } }
  result { scores winners ranks }
"""
EVENT_FIELDS = "version at seat type data"

REGISTER = "mutation($n: String!) { registerPlayer(name: $n) { player { id name } token } }"
CREATE_GAME = f"mutation($i: CreateGameInput!) {{ createGame(input: $i) {{ {GAME_FIELDS} }} }}"
JOIN_GAME = f"mutation($g: ID!, $s: Int) {{ joinGame(gameId: $g, seat: $s) {{ {GAME_FIELDS} }} }}"
ADD_BOT = (
    "mutation($g: ID!, $s: Int, $st: String) "
    f"{{ addBot(gameId: $g, seat: $s, strategy: $st) {{ {GAME_FIELDS} }} }}"
)
GAME = f"query($id: ID!, $v: Int) {{ game(id: $id, minVersion: $v) {{ {GAME_FIELDS} }} }}"
ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int, $k: String) "
    "{ act(gameId: $g, action: $a, expectedVersion: $v, idempotencyKey: $k) "
    f"{{ game {{ {GAME_FIELDS} }} events {{ {EVENT_FIELDS} }} }} }}"
)
EVENTS = (
    "query($g: ID!, $f: Int, $c: String) { game(id: $g) { events(first: $f, after: $c)"
    f" {{ nodes {{ {EVENT_FIELDS} }} pageInfo {{ hasNextPage endCursor }} }} }} }}"
)
GAME_EVENTS = (
    "subscription($g: ID!, $v: Int) { gameEvents(gameId: $g, afterVersion: $v) { version } }"
)

#: every document this client sends, by name (the server's trusted documents include them)
DOCUMENTS: dict[str, str] = {
    "register": REGISTER,
    "createGame": CREATE_GAME,
    "joinGame": JOIN_GAME,
    "addBot": ADD_BOT,
    "game": GAME,
    "act": ACT,
    "events": EVENTS,
    "gameEvents": GAME_EVENTS,
}

#: the error code of a ``documentId`` the server does not know
UNKNOWN_DOCUMENT = "UNKNOWN_DOCUMENT"


def document_id(text: str) -> str:
    """A document's id, as the server keys its trusted documents: the SHA-256 of its text."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


#: the id of each of ``DOCUMENTS``, by text (computed once)
IDS = {text: document_id(text) for text in DOCUMENTS.values()}


class PapyrusError(Exception):
    """An error the server answered: ``code`` is one of the API's stable error codes
    (``BAD_INPUT``, ``CONFLICT``, ``NOT_YOUR_TURN``, ...)."""

    def __init__(self, message: str, code: str | None) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Seat:
    seat: int
    is_bot: bool
    player_id: str | None
    player_name: str | None


@dataclass(frozen=True)
class Result:
    scores: list[int]
    winners: list[int]
    ranks: list[int]


@dataclass(frozen=True)
class Game:
    """A game as the caller may see it."""

    id: str
    kind: str
    status: str
    version: int
    my_seat: int | None
    active_seats: list[int]
    state: JSON
    legal_actions: list[JSON]
    options: JSON
    seats: list[Seat]
    result: Result | None

    @property
    def over(self) -> bool:
        return self.status in ("FINISHED", "ABANDONED")

    @classmethod
    def parse(cls, raw: dict[str, Any]) -> Game:
        result = raw.get("result")
        return cls(
            id=raw["id"],
            kind=raw["kind"],
            status=raw["status"],
            version=raw["version"],
            my_seat=raw["mySeat"],
            active_seats=list(raw["activeSeats"]),
            state=raw["state"],
            legal_actions=list(raw["legalActions"]),
            options=raw["options"],
            seats=[
                Seat(
                    seat=s["seat"],
                    is_bot=s["isBot"],
                    player_id=(s.get("player") or {}).get("id"),
                    player_name=(s.get("player") or {}).get("name"),
                )
                for s in raw["seats"]
            ],
            result=Result(result["scores"], result["winners"], result["ranks"]) if result else None,
        )


@dataclass(frozen=True)
class Event:
    version: int
    at: str
    seat: int | None
    type: str
    data: JSON

    @classmethod
    def parse(cls, raw: dict[str, Any]) -> Event:
        return cls(raw["version"], raw["at"], raw["seat"], raw["type"], raw["data"])


@dataclass(frozen=True)
class ActResult:
    game: Game
    events: list[Event] = field(default_factory=list)


class PapyrusClient:
    """One player's (or a spectator's) connection to a Papyrus server."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 60) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.player_id: str | None = None
        self.http = httpx.Client(base_url=self.base_url, timeout=timeout)
        #: documents of ``DOCUMENTS`` this server does not trust: sent as text
        self.untrusted: set[str] = set()

    def __enter__(self) -> PapyrusClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def operation(self, query: str) -> dict[str, str]:
        """How ``query`` is named in a request: by its id when it is one of ``DOCUMENTS`` the
        server has not refused, else by its text."""
        if query in IDS and query not in self.untrusted:
            return {"documentId": IDS[query]}
        return {"query": query}

    def graphql(self, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """Runs one GraphQL document; a GraphQL error raises ``PapyrusError`` with its code.
        One of ``DOCUMENTS`` is sent by its id; if the server does not know it, once more as
        text (and as text from then on)."""
        try:
            return self.post(self.operation(query), variables)
        except PapyrusError as refused:
            if refused.code != UNKNOWN_DOCUMENT or query not in IDS:
                raise
            self.untrusted.add(query)
            return self.post({"query": query}, variables)

    def post(self, operation: dict[str, str], variables: dict[str, Any] | None) -> dict[str, Any]:
        response = self.http.post(
            "/graphql", json={**operation, "variables": variables or {}}, headers=self.headers()
        )
        try:
            body = response.json()
        except ValueError:
            raise PapyrusError(
                f"HTTP {response.status_code}: {response.text[:200]}", None
            ) from None
        errors = body.get("errors") if isinstance(body, dict) else None
        if errors:
            first = errors[0]
            raise PapyrusError(
                first.get("message", "error"), first.get("extensions", {}).get("code")
            )
        if response.status_code >= 400 or not isinstance(body.get("data"), dict):
            raise PapyrusError(f"HTTP {response.status_code}", None)
        return dict(body["data"])

    # -- players ------------------------------------------------------------------------------

    def register(self, name: str) -> str:
        """Registers a player and keeps its token for every later call; returns its id."""
        data = self.graphql(REGISTER, {"n": name})
        self.token = data["registerPlayer"]["token"]
        self.player_id = data["registerPlayer"]["player"]["id"]
        return str(self.player_id)

    # -- games --------------------------------------------------------------------------------

    def create_game(
        self, kind: str, seats: int, options: JSON = None, seed: str | None = None
    ) -> Game:
        """A new open table (``kind``: ``IMHOTEP`` or ``AMUN_RE``); the creator is not seated."""
        game_input: dict[str, Any] = {"kind": kind, "seats": seats}
        if options is not None:
            game_input["options"] = options
        if seed is not None:
            game_input["seed"] = seed
        data = self.graphql(CREATE_GAME, {"i": game_input})
        return Game.parse(data["createGame"])

    def join(self, game_id: str, seat: int | None = None) -> Game:
        data = self.graphql(JOIN_GAME, {"g": game_id, "s": seat})
        return Game.parse(data["joinGame"])

    def add_bot(self, game_id: str, seat: int | None = None, strategy: str | None = None) -> Game:
        """A server-side bot takes a seat (the first free one if none is given)."""
        data = self.graphql(ADD_BOT, {"g": game_id, "s": seat, "st": strategy})
        return Game.parse(data["addBot"])

    def game(self, game_id: str, min_version: int | None = None) -> Game:
        """The game as the caller may see it. ``min_version``: at least this version of the
        caller's log (an ``act``'s ``game.version``), even from a server behind a load balancer
        that has not heard of that write yet."""
        data = self.graphql(GAME, {"id": game_id, "v": min_version})
        if data["game"] is None:
            raise PapyrusError(f"There is no game {game_id}.", "NOT_FOUND")
        return Game.parse(data["game"])

    def act(
        self,
        game_id: str,
        action: JSON,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> ActResult:
        """One action for the caller's seat. ``expected_version``: refused with ``CONFLICT``
        if the game moved on since; ``idempotency_key`` (a fresh one by default): a retry with
        the same key gives the first result instead of acting twice."""
        data = self.graphql(
            ACT,
            {
                "g": game_id,
                "a": action,
                "v": expected_version,
                "k": idempotency_key or uuid.uuid4().hex,
            },
        )
        act = data["act"]
        return ActResult(Game.parse(act["game"]), [Event.parse(e) for e in act["events"]])

    def events(self, game_id: str, after: int = 0, page: int = 100) -> list[Event]:
        """The game's log as the caller may see it, every event after version ``after``."""
        found: list[Event] = []
        cursor: str | None = None
        while True:
            data = self.graphql(EVENTS, {"g": game_id, "f": page, "c": cursor})
            if data["game"] is None:
                raise PapyrusError(f"There is no game {game_id}.", "NOT_FOUND")
            events = data["game"]["events"]
            found += [Event.parse(e) for e in events["nodes"] if e["version"] > after]
            if not events["pageInfo"]["hasNextPage"]:
                return found
            cursor = events["pageInfo"]["endCursor"]

    def export(self, game_id: str) -> dict[str, Any]:
        """A finished game as one document (what ``papyrus verify`` checks offline)."""
        response = self.http.get(f"/api/v1/games/{game_id}/export", headers=self.headers())
        body = response.json()
        if response.status_code != 200:
            raise PapyrusError(body.get("detail", f"HTTP {response.status_code}"), body.get("code"))
        return dict(body)

    def wait_for_change(self, game_id: str, after_version: int, timeout: float = 60) -> None:
        """Returns once the game has an event after ``after_version`` (or is over), waiting on
        the ``gameEvents`` subscription (graphql-transport-ws) instead of polling."""
        from websockets.sync.client import connect

        ws_url = "ws" + self.base_url.removeprefix("http") + "/graphql"
        init: dict[str, Any] = {"type": "connection_init"}
        if self.token:
            init["payload"] = {"authorization": f"Bearer {self.token}"}
        variables = {"g": game_id, "v": after_version}
        with connect(ws_url, subprotocols=["graphql-transport-ws"], open_timeout=timeout) as ws:  # type: ignore[list-item]
            ws.send(json.dumps(init))
            ack = json.loads(ws.recv(timeout))
            if ack.get("type") != "connection_ack":
                raise PapyrusError(f"the websocket was refused: {ack}", None)
            operation = self.operation(GAME_EVENTS)
            payload = {**operation, "variables": variables}
            ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
            while True:
                message = json.loads(ws.recv(timeout))
                kind = message.get("type")
                if kind == "ping":
                    ws.send(json.dumps({"type": "pong"}))
                elif kind == "next":
                    errors = message["payload"].get("errors")
                    if errors:
                        code = errors[0].get("extensions", {}).get("code")
                        raise PapyrusError(errors[0].get("message", "error"), code)
                    return
                elif kind == "error":
                    if "documentId" in operation and unknown_document(message.get("payload")):
                        # a server that does not trust it: the text, on a fresh operation id
                        self.untrusted.add(GAME_EVENTS)
                        operation = {"query": GAME_EVENTS}
                        payload = {**operation, "variables": variables}
                        ws.send(json.dumps({"id": "2", "type": "subscribe", "payload": payload}))
                        continue
                    raise PapyrusError(f"the subscription failed: {message.get('payload')}", None)
                elif kind == "complete":
                    return


def unknown_document(errors: Any) -> bool:
    """Whether a websocket ``error`` payload says the server does not know a ``documentId``."""
    return (
        isinstance(errors, list)
        and bool(errors)
        and isinstance(errors[0], dict)
        and (errors[0].get("extensions") or {}).get("code") == UNKNOWN_DOCUMENT
    )
