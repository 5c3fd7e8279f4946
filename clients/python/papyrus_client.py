"""The Python SDK of the Papyrus API: a synchronous and an asyncio client, typed actions, and
the game's pushes on one websocket per client.

It knows the server only through its public contract (``docs/API.md``, ``schema.graphql``): it
imports nothing of the server and needs only ``httpx`` and ``websockets``
(``pip install ./clients/python``; docs/clients.md "Python SDK").

* ``PapyrusClient`` (blocking) and ``AsyncPapyrusClient`` (``async``/``await``) have the same
  methods: ``register``, ``create_game``, ``join``, ``add_bot``, ``game``, ``act``, ``events``,
  ``export``, ``lobby``, ``action_catalog``, ``typed_action``, and the pushes ``changes`` (the
  ``gameChanged`` subscription), ``lobby_changes`` (``lobbyChanged``) and ``wait_for_change``.
* **Typed actions.** ``act(game_id, typed=...)`` sends ``typedAction`` (one ``ActionInput``
  member per game kind and action). ``typed_action(kind, action)`` turns any ``legalActions``
  entry into that form, from what the server publishes (``actionCatalog``: each action's JSON
  Schema; read once per kind): no list of actions is written here, so a game or an action the
  server adds is typed too.
* **One websocket.** Every subscription of a client is multiplexed on one ``graphql-transport-ws``
  connection (``Socket``), opened on the first one. A dropped connection is opened again (with a
  growing pause) and each subscription sent again with ``afterVersion`` = the last version it
  delivered: nothing is missed and nothing is delivered twice.
* **Errors** raise ``PapyrusError`` (a subclass per stable code: ``Conflict``, ``NotYourTurn``,
  ...) whose ``code`` is the server's ``extensions.code`` (``ErrorCode``).
* **Trusted documents.** The GraphQL documents are the constants below, all of them in
  ``DOCUMENTS``; the server trusts them (docs/API.md "Trusted documents": its manifest is
  generated from ``DOCUMENTS``), so the client sends each by its id (``document_id``); a server
  that does not know one answers ``UNKNOWN_DOCUMENT``, and the client sends that document's text
  from then on.

    client = PapyrusClient("http://127.0.0.1:8000")
    client.register("alice")
    game = client.create_game("IMHOTEP", seats=2)
    client.join(game.id)
    client.add_bot(game.id)
    game = client.game(game.id)
    for change in client.changes(game.id, after_version=game.version):
        ...  # change.legal_actions, change.state; client.act(game.id, typed=...)

Each request method is written once, without input or output (a generator that yields the
document and variables it sends and is given the answer's ``data``); the two clients drive it
over ``httpx.Client`` or ``httpx.AsyncClient``. The websocket runs on asyncio; the blocking
client runs it on an event loop of its own in a daemon thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import random
import threading
import uuid
from collections.abc import AsyncGenerator, Callable, Coroutine, Generator, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

import httpx

__version__ = "0.2.0"

JSON = Any
T = TypeVar("T")

GAME_FIELDS = """
  id kind status version mySeat activeSeats state legalActions options
  seats { seat isBot player { id name } }
  result { scores winners ranks }
"""
EVENT_FIELDS = "version at seat type data"
SUMMARY_FIELDS = (
    "gameId kind status options freeSeats activeSeats scores winners version ranked "
    "unrankedReason seats { seat playerId name isBot }"
)

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
ACT_TYPED = (
    "mutation($g: ID!, $t: ActionInput!, $v: Int, $k: String, $s: Int) "
    "{ act(gameId: $g, typedAction: $t, expectedVersion: $v, idempotencyKey: $k, seat: $s) "
    f"{{ game {{ {GAME_FIELDS} }} events {{ {EVENT_FIELDS} }} }} }}"
)
ACT_SEAT = (
    "mutation($g: ID!, $a: JSON!, $v: Int, $k: String, $s: Int) "
    "{ act(gameId: $g, action: $a, expectedVersion: $v, idempotencyKey: $k, seat: $s) "
    f"{{ game {{ {GAME_FIELDS} }} events {{ {EVENT_FIELDS} }} }} }}"
)
EVENTS = (
    "query($g: ID!, $f: Int, $c: String) { game(id: $g) { events(first: $f, after: $c)"
    f" {{ nodes {{ {EVENT_FIELDS} }} pageInfo {{ hasNextPage endCursor }} }} }} }}"
)
EXPORT = "query($g: ID!) { exportGame(gameId: $g) }"
ACTION_CATALOG = "query($k: GameKind!) { actionCatalog(kind: $k) { name schema } }"
LOBBY = (
    "query($k: GameKind, $f: Int, $c: String) { lobby(kind: $k, first: $f, after: $c) "
    f"{{ nodes {{ {SUMMARY_FIELDS} }} pageInfo {{ hasNextPage endCursor }} }} }}"
)
GAME_EVENTS = (
    "subscription($g: ID!, $v: Int) { gameEvents(gameId: $g, afterVersion: $v) { version } }"
)
GAME_CHANGED = (
    "subscription($g: ID!, $v: Int) { gameChanged(gameId: $g, afterVersion: $v) "
    f"{{ version status activeSeats state legalActions event {{ {EVENT_FIELDS} }} }} }}"
)
LOBBY_CHANGED = f"subscription($k: GameKind) {{ lobbyChanged(kind: $k) {{ {SUMMARY_FIELDS} }} }}"

#: every document this client sends, by name (the server's trusted documents include them)
DOCUMENTS: dict[str, str] = {
    "register": REGISTER,
    "createGame": CREATE_GAME,
    "joinGame": JOIN_GAME,
    "addBot": ADD_BOT,
    "game": GAME,
    "act": ACT,
    "actSeat": ACT_SEAT,
    "actTyped": ACT_TYPED,
    "events": EVENTS,
    "export": EXPORT,
    "actionCatalog": ACTION_CATALOG,
    "lobby": LOBBY,
    "gameEvents": GAME_EVENTS,
    "gameChanged": GAME_CHANGED,
    "lobbyChanged": LOBBY_CHANGED,
}


def document_id(text: str) -> str:
    """A document's id, as the server keys its trusted documents: the SHA-256 of its text."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


#: the id of each of ``DOCUMENTS``, by text (computed once)
IDS = {text: document_id(text) for text in DOCUMENTS.values()}


# -- errors -----------------------------------------------------------------------------------


class ErrorCode(StrEnum):
    """The API's stable error codes (docs/API.md "Errors")."""

    BAD_INPUT = "BAD_INPUT"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    FORBIDDEN = "FORBIDDEN"
    NOT_FOUND = "NOT_FOUND"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    ILLEGAL_ACTION = "ILLEGAL_ACTION"
    CONFLICT = "CONFLICT"
    GAME_NOT_ACTIVE = "GAME_NOT_ACTIVE"
    TABLE_FULL = "TABLE_FULL"
    RATE_LIMITED = "RATE_LIMITED"
    UNKNOWN_DOCUMENT = "UNKNOWN_DOCUMENT"
    UNAVAILABLE = "UNAVAILABLE"
    INTERNAL = "INTERNAL"


#: the error code of a ``documentId`` the server does not know
UNKNOWN_DOCUMENT = ErrorCode.UNKNOWN_DOCUMENT.value


class PapyrusError(Exception):
    """An error the server answered: ``code`` is one of the API's stable error codes
    (``ErrorCode``: ``BAD_INPUT``, ``CONFLICT``, ``NOT_YOUR_TURN``, ...), ``None`` when the
    answer carried none (not a Papyrus server, a proxy's page). Each code has its subclass
    (``Conflict``, ``NotYourTurn``, ...): catch the ones you handle. ``rule``: the rule an
    ``ILLEGAL_ACTION`` broke; ``retry_after``: the seconds a ``RATE_LIMITED`` caller waits;
    ``request_id``: the server's id of the request (its logs name it)."""

    def __init__(
        self,
        message: str,
        code: str | None = None,
        *,
        rule: str | None = None,
        retry_after: float | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.rule = rule
        self.retry_after = retry_after
        self.request_id = request_id


class BadInput(PapyrusError):
    """``BAD_INPUT``: the request itself is wrong (the message says what)."""


class Unauthenticated(PapyrusError):
    """``UNAUTHENTICATED``: a token is needed, or the one sent is not (or no longer) valid."""


class Forbidden(PapyrusError):
    """``FORBIDDEN``: the caller may not do this (another player's seat, ...)."""


class NotFound(PapyrusError):
    """``NOT_FOUND``: no such game or player."""


class NotYourTurn(PapyrusError):
    """``NOT_YOUR_TURN``: another seat must act first."""


class IllegalAction(PapyrusError):
    """``ILLEGAL_ACTION``: the rules forbid the action (``rule`` names the rule)."""


class Conflict(PapyrusError):
    """``CONFLICT``: the game moved on since ``expected_version``: read it again."""


class GameNotActive(PapyrusError):
    """``GAME_NOT_ACTIVE``: the game has not started or is over."""


class TableFull(PapyrusError):
    """``TABLE_FULL``: no free seat (or not the one asked for)."""


class RateLimited(PapyrusError):
    """``RATE_LIMITED``: too many requests; try again after ``retry_after`` seconds."""


class UnknownDocument(PapyrusError):
    """``UNKNOWN_DOCUMENT``: the server does not know a ``documentId`` (the clients then send
    the text by themselves: this reaches a caller only for a document it sent itself)."""


class Unavailable(PapyrusError):
    """``UNAVAILABLE``: the store is unreachable or the server is stopping: send the same request
    again (with the same idempotency key)."""


class Internal(PapyrusError):
    """``INTERNAL``: a bug of the server."""


#: the subclass of each code
ERRORS: dict[str, type[PapyrusError]] = {
    ErrorCode.BAD_INPUT: BadInput,
    ErrorCode.UNAUTHENTICATED: Unauthenticated,
    ErrorCode.FORBIDDEN: Forbidden,
    ErrorCode.NOT_FOUND: NotFound,
    ErrorCode.NOT_YOUR_TURN: NotYourTurn,
    ErrorCode.ILLEGAL_ACTION: IllegalAction,
    ErrorCode.CONFLICT: Conflict,
    ErrorCode.GAME_NOT_ACTIVE: GameNotActive,
    ErrorCode.TABLE_FULL: TableFull,
    ErrorCode.RATE_LIMITED: RateLimited,
    ErrorCode.UNKNOWN_DOCUMENT: UnknownDocument,
    ErrorCode.UNAVAILABLE: Unavailable,
    ErrorCode.INTERNAL: Internal,
}


def error(message: str, code: str | None, **details: Any) -> PapyrusError:
    """The exception of ``code`` (its subclass; ``PapyrusError`` for a code this SDK does not
    know)."""
    return ERRORS.get(code or "", PapyrusError)(message, code, **details)


def graphql_error(raw: Any) -> PapyrusError:
    """The exception of one GraphQL error (``{"message", "extensions": {"code", ...}}``)."""
    if not isinstance(raw, dict):
        return PapyrusError(f"the server answered an error: {raw!r}")
    extensions = raw.get("extensions") or {}
    return error(
        str(raw.get("message", "error")),
        extensions.get("code"),
        rule=extensions.get("rule"),
        retry_after=extensions.get("retryAfter"),
        request_id=extensions.get("requestId"),
    )


# -- what the server answers ------------------------------------------------------------------


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


@dataclass(frozen=True)
class GameChange:
    """One push of ``gameChanged``: the game right after one event of the caller's log."""

    version: int
    status: str
    active_seats: list[int]
    state: JSON
    legal_actions: list[JSON]
    event: Event

    @property
    def over(self) -> bool:
        return self.status in ("FINISHED", "ABANDONED")

    @classmethod
    def parse(cls, raw: dict[str, Any]) -> GameChange:
        return cls(
            version=raw["version"],
            status=raw["status"],
            active_seats=list(raw["activeSeats"]),
            state=raw["state"],
            legal_actions=list(raw["legalActions"]),
            event=Event.parse(raw["event"]),
        )


@dataclass(frozen=True)
class SummarySeat:
    seat: int
    player_id: str | None
    name: str | None
    is_bot: bool


@dataclass(frozen=True)
class Table:
    """A table of the lobby (a ``GameSummary``): public facts only."""

    game_id: str
    kind: str
    status: str
    options: JSON
    seats: list[SummarySeat]
    free_seats: int
    active_seats: list[int]
    scores: list[int]
    winners: list[int] | None
    version: int
    ranked: bool
    unranked_reason: str | None

    @classmethod
    def parse(cls, raw: dict[str, Any]) -> Table:
        return cls(
            game_id=raw["gameId"],
            kind=raw["kind"],
            status=raw["status"],
            options=raw["options"],
            seats=[
                SummarySeat(s["seat"], s.get("playerId"), s.get("name"), s["isBot"])
                for s in raw["seats"]
            ],
            free_seats=raw["freeSeats"],
            active_seats=list(raw["activeSeats"]),
            scores=list(raw["scores"]),
            winners=raw.get("winners"),
            version=raw["version"],
            ranked=raw["ranked"],
            unranked_reason=raw.get("unrankedReason"),
        )


# -- typed actions ----------------------------------------------------------------------------


def camel(snake: str) -> str:
    """A GraphQL name as the server makes it from a Python one (``amun_re_bid`` ->
    ``amunReBid``)."""
    first, *rest = snake.split("_")
    return first + "".join(part.capitalize() if part else "_" for part in rest)


def enum_name(value: str) -> str:
    """The GraphQL enum value of a catalog string (``burial_chamber`` -> ``BURIAL_CHAMBER``)."""
    name = "".join(c if c.isalnum() else "_" for c in value).upper()
    return name if name[:1].isalpha() else f"V_{name}"


class ActionCatalog:
    """One game kind's actions as the server publishes them (``actionCatalog(kind)``: each
    action's name and JSON Schema), and the typed form of any of its actions.

    ``ActionInput`` has one member per game kind and action, named after both in camelCase
    (``imhotep`` + ``place_stone`` -> ``imhotepPlaceStone``); its fields are the parameters in
    camelCase, a string of a closed set is an enum value (upper-cased), an object an input of
    its fields, an array a list; an action without parameters is the member ``true``."""

    def __init__(self, kind: str, specs: list[dict[str, Any]]) -> None:
        self.kind = kind
        self.schemas: dict[str, dict[str, Any]] = {
            str(spec["name"]): dict(spec["schema"]) for spec in specs
        }

    def member(self, action_type: str) -> str:
        """The ``ActionInput`` member of one action (``imhotepPlaceStone``)."""
        return camel(f"{self.kind.lower()}_{action_type}")

    def typed(self, action: dict[str, Any]) -> dict[str, Any]:
        """The ``typedAction`` of a JSON action (one of ``legalActions``)."""
        name = action.get("type") if isinstance(action, dict) else None
        schema = self.schemas.get(str(name))
        if schema is None:
            raise BadInput(
                f"{self.kind} has no action {name!r} (its actions: {', '.join(self.schemas)}).",
                ErrorCode.BAD_INPUT,
            )
        params = {k: v for k, v in schema.get("properties", {}).items() if k != "type"}
        if not params:
            return {self.member(str(name)): True}
        return {self.member(str(name)): {camel(k): typed(p, action[k]) for k, p in params.items()}}


def typed(schema: dict[str, Any], value: Any) -> Any:
    """A parameter's value as its typed field takes it, from the parameter's JSON Schema."""
    if value is None:
        return None
    kind = schema.get("type")
    if kind == "object":
        return {camel(k): typed(s, value[k]) for k, s in schema.get("properties", {}).items()}
    if kind == "array":
        return [typed(schema.get("items", {}), v) for v in value]
    if kind == "string" and "enum" in schema:
        return enum_name(str(value))
    return value


# -- the requests, once for both clients --------------------------------------------------------

#: a request written once: it yields (document, variables), is sent the answer's ``data``
Call = Generator[tuple[str, dict[str, Any]], dict[str, Any], T]


class Requests:
    """What both clients send and read; the clients drive these generators over HTTP."""

    token: str | None
    player_id: str | None
    catalogs: dict[str, ActionCatalog]

    def _register(self, name: str) -> Call[str]:
        data = yield REGISTER, {"n": name}
        self.token = data["registerPlayer"]["token"]
        self.player_id = str(data["registerPlayer"]["player"]["id"])
        return self.player_id

    def _create_game(
        self, kind: str, seats: int, options: JSON = None, seed: str | None = None
    ) -> Call[Game]:
        game_input: dict[str, Any] = {"kind": kind, "seats": seats}
        if options is not None:
            game_input["options"] = options
        if seed is not None:
            game_input["seed"] = seed
        data = yield CREATE_GAME, {"i": game_input}
        return Game.parse(data["createGame"])

    def _join(self, game_id: str, seat: int | None) -> Call[Game]:
        data = yield JOIN_GAME, {"g": game_id, "s": seat}
        return Game.parse(data["joinGame"])

    def _add_bot(self, game_id: str, seat: int | None, strategy: str | None) -> Call[Game]:
        data = yield ADD_BOT, {"g": game_id, "s": seat, "st": strategy}
        return Game.parse(data["addBot"])

    def _game(self, game_id: str, min_version: int | None) -> Call[Game]:
        data = yield GAME, {"id": game_id, "v": min_version}
        if data["game"] is None:
            raise NotFound(f"There is no game {game_id}.", ErrorCode.NOT_FOUND)
        return Game.parse(data["game"])

    def _act(
        self,
        game_id: str,
        action: JSON,
        typed: dict[str, Any] | None,
        expected_version: int | None,
        idempotency_key: str | None,
        seat: int | None,
    ) -> Call[ActResult]:
        if (action is None) == (typed is None):
            raise BadInput("act takes an action or a typed action, one of the two.", "BAD_INPUT")
        variables: dict[str, Any] = {
            "g": game_id,
            "v": expected_version,
            "k": idempotency_key or uuid.uuid4().hex,
        }
        if typed is not None:
            document, variables["t"], variables["s"] = ACT_TYPED, typed, seat
        elif seat is not None:
            document, variables["a"], variables["s"] = ACT_SEAT, action, seat
        else:
            document, variables["a"] = ACT, action
        data = yield document, variables
        act = data["act"]
        return ActResult(Game.parse(act["game"]), [Event.parse(e) for e in act["events"]])

    def _events(self, game_id: str, after: int, page: int) -> Call[list[Event]]:
        found: list[Event] = []
        cursor: str | None = None
        while True:
            data = yield EVENTS, {"g": game_id, "f": page, "c": cursor}
            if data["game"] is None:
                raise NotFound(f"There is no game {game_id}.", ErrorCode.NOT_FOUND)
            events = data["game"]["events"]
            found += [Event.parse(e) for e in events["nodes"] if e["version"] > after]
            if not events["pageInfo"]["hasNextPage"]:
                return found
            cursor = events["pageInfo"]["endCursor"]

    def _export(self, game_id: str) -> Call[dict[str, Any]]:
        data = yield EXPORT, {"g": game_id}
        return dict(data["exportGame"])

    def _lobby(self, kind: str | None, page: int) -> Call[list[Table]]:
        found: list[Table] = []
        cursor: str | None = None
        while True:
            data = yield LOBBY, {"k": kind, "f": page, "c": cursor}
            found += [Table.parse(t) for t in data["lobby"]["nodes"]]
            if not data["lobby"]["pageInfo"]["hasNextPage"]:
                return found
            cursor = data["lobby"]["pageInfo"]["endCursor"]

    def _action_catalog(self, kind: str) -> Call[ActionCatalog]:
        key = kind.upper()
        if key not in self.catalogs:
            data = yield ACTION_CATALOG, {"k": key}
            self.catalogs[key] = ActionCatalog(kind.lower(), list(data["actionCatalog"]))
        return self.catalogs[key]


def answer(response: httpx.Response) -> dict[str, Any]:
    """The ``data`` of a GraphQL answer; its first error raised with its code."""
    try:
        body = response.json()
    except ValueError:
        code = ErrorCode.UNAVAILABLE if response.status_code in (502, 503, 504) else None
        raise error(f"HTTP {response.status_code}: {response.text[:200]}", code) from None
    errors = body.get("errors") if isinstance(body, dict) else None
    if errors:
        raise graphql_error(errors[0])
    if response.status_code >= 400 or not isinstance(body.get("data"), dict):
        raise PapyrusError(f"HTTP {response.status_code}", None)
    return dict(body["data"])


def websocket_url(base_url: str) -> str:
    return "ws" + base_url.removeprefix("http") + "/graphql"


class Base(Requests):
    """What the two clients share: the token, the documents the server refused, the catalogs."""

    def __init__(self, base_url: str, token: str | None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.player_id: str | None = None
        #: documents of ``DOCUMENTS`` this server does not trust: sent as text
        self.untrusted: set[str] = set()
        #: ``actionCatalog`` by kind, read once
        self.catalogs: dict[str, ActionCatalog] = {}

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def operation(self, query: str) -> dict[str, str]:
        """How ``query`` is named in a request: by its id when it is one of ``DOCUMENTS`` the
        server has not refused, else by its text."""
        if query in IDS and query not in self.untrusted:
            return {"documentId": IDS[query]}
        return {"query": query}

    def init_payload(self) -> dict[str, Any] | None:
        """The websocket's ``connection_init`` payload: the token, read at each (re)connection."""
        return {"authorization": f"Bearer {self.token}"} if self.token else None


# -- the websocket ----------------------------------------------------------------------------

#: close codes after which connecting again cannot help (docs/API.md "Websocket close codes"):
#: the subscriptions fail with the code. The others (1012 the server stopping, 1011 a ping
#: unanswered, 1008 a slow consumer, a dropped connection) are reconnected and resumed.
FATAL_CLOSES: dict[int, ErrorCode] = {
    4400: ErrorCode.BAD_INPUT,  # a message the server cannot read
    4401: ErrorCode.UNAUTHENTICATED,  # an operation before the acknowledgement
    4403: ErrorCode.UNAUTHENTICATED,  # connection_init refused (its reason names the code)
    4406: ErrorCode.BAD_INPUT,  # no subprotocol the server speaks
    4409: ErrorCode.BAD_INPUT,  # an operation id twice
    4429: ErrorCode.BAD_INPUT,  # a second connection_init
}


def closed_error(code: int, reason: str) -> PapyrusError:
    """The exception of a fatal close: the code its reason starts with (``UNAUTHENTICATED: This
    token is not valid...``), else the code of ``FATAL_CLOSES``."""
    named, _, said = reason.partition(": ")
    if named in ERRORS and said:
        return error(f"the server closed the websocket ({code}): {said}", named)
    return error(
        f"the server closed the websocket ({code}{': ' + reason if reason else ''})",
        FATAL_CLOSES.get(code),
    )


_DONE = object()


class Subscription:
    """One operation on the shared ``Socket``: an async iterator of its ``data``.

    ``resume`` (a variable name): after a dropped connection it is sent again with that variable
    set to the last ``version`` it delivered, and an entry at or before that version (delivered
    again by a server that resends more) is dropped: nothing missed, nothing twice."""

    def __init__(
        self,
        socket: Socket,
        query: str,
        variables: dict[str, Any],
        field: str,
        resume: str | None,
    ) -> None:
        self.socket = socket
        self.query = query
        self.variables = dict(variables)
        self.field = field
        self.resume = resume
        self.id = ""
        self.last: int | None = variables.get(resume) if resume else None
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.sent_on = -1  #: the socket's generation it was last sent on
        self.by_id = False  #: whether it was last sent by its document's id
        self.finished = False
        self.started = asyncio.Event()  #: sent to the server once, or failed

    def payload(self) -> dict[str, Any]:
        variables = dict(self.variables)
        if self.resume and self.last is not None:
            variables[self.resume] = self.last
        operation = self.socket.client.operation(self.query)
        self.by_id = "documentId" in operation
        return {**operation, "variables": variables}

    def deliver(self, data: dict[str, Any]) -> None:
        value = data.get(self.field) if isinstance(data, dict) else None
        if self.resume and isinstance(value, dict) and isinstance(value.get("version"), int):
            if self.last is not None and value["version"] <= self.last:
                return  # delivered before the connection dropped
            self.last = value["version"]
        self.queue.put_nowait(value)

    def fail(self, failure: BaseException) -> None:
        if not self.finished:
            self.finished = True
            self.queue.put_nowait(failure)
        self.started.set()

    def finish(self) -> None:
        if not self.finished:
            self.finished = True
            self.queue.put_nowait(_DONE)
        self.started.set()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Any:
        item = await self.queue.get()
        if item is _DONE:
            self.queue.put_nowait(_DONE)  # asked again: still over
            raise StopAsyncIteration
        if isinstance(item, BaseException):
            self.queue.put_nowait(item)
            raise item
        return item

    async def aclose(self) -> None:
        """Stops it (a ``complete`` to the server); the socket stays open for the others."""
        await self.socket.unsubscribe(self)


class Socket:
    """One client's websocket (graphql-transport-ws on ``/graphql``), shared by all its
    subscriptions, opened on the first one and kept open until the client closes.

    A connection that drops (a restart, a proxy, the network) is opened again after a pause that
    grows from 0.1 s to 5 s, and every subscription still running is sent again (``resume``).
    A close with one of ``FATAL_CLOSES`` fails the subscriptions with its code instead, and so do
    ``attempts`` connections in a row that fail (``UNAVAILABLE``)."""

    def __init__(self, client: Base, *, open_timeout: float = 20, attempts: int = 12) -> None:
        self.client = client
        self.url = websocket_url(client.base_url)
        self.open_timeout = open_timeout
        self.attempts = attempts
        self.subscriptions: dict[str, Subscription] = {}
        self.ids = itertools.count(1)
        self.ws: Any = None
        self.generation = 0  #: connections acknowledged so far
        self.task: asyncio.Task[None] | None = None
        self.wanted = asyncio.Event()
        self.closed = False

    async def subscribe(
        self, query: str, variables: dict[str, Any], field: str, resume: str | None = None
    ) -> Subscription:
        subscription = Subscription(self, query, variables, field, resume)
        subscription.id = str(next(self.ids))
        self.subscriptions[subscription.id] = subscription
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run(), name="papyrus-websocket")
        self.wanted.set()
        if self.ws is not None:
            await self.send_subscribe(subscription)
        await subscription.started.wait()  # what happens from now on is pushed
        return subscription

    async def unsubscribe(self, subscription: Subscription) -> None:
        if self.subscriptions.pop(subscription.id, None) is not None and self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.send(json.dumps({"id": subscription.id, "type": "complete"}))
        subscription.finish()

    async def send_subscribe(self, subscription: Subscription) -> None:
        if subscription.sent_on == self.generation or self.ws is None:
            return
        subscription.sent_on = self.generation
        message = {"id": subscription.id, "type": "subscribe", "payload": subscription.payload()}
        await self.ws.send(json.dumps(message))
        subscription.started.set()

    async def close(self) -> None:
        self.closed = True
        self.wanted.set()
        for subscription in list(self.subscriptions.values()):
            subscription.finish()
        self.subscriptions.clear()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task

    def fail_all(self, failure: PapyrusError) -> None:
        for subscription in list(self.subscriptions.values()):
            subscription.fail(failure)
        self.subscriptions.clear()

    async def run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

        pause, failures = 0.1, 0
        while not self.closed:
            if not self.subscriptions:
                self.wanted.clear()
                await self.wanted.wait()
                continue
            code: int | None = None
            reason = ""
            try:
                async with connect(
                    self.url,
                    subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
                    open_timeout=self.open_timeout,
                    max_size=None,
                ) as ws:
                    init: dict[str, Any] = {"type": "connection_init"}
                    if (payload := self.client.init_payload()) is not None:
                        init["payload"] = payload
                    await ws.send(json.dumps(init))
                    while True:  # the acknowledgement (pings may come first)
                        first = json.loads(await asyncio.wait_for(ws.recv(), self.open_timeout))
                        if first.get("type") == "ping":
                            await ws.send(json.dumps({"type": "pong"}))
                        elif first.get("type") == "connection_ack":
                            break
                    self.ws = ws
                    self.generation += 1
                    pause, failures = 0.1, 0
                    for subscription in list(self.subscriptions.values()):
                        await self.send_subscribe(subscription)
                    with contextlib.suppress(Exception):
                        async for raw in ws:
                            await self.dispatch(json.loads(raw))
                    code, reason = ws.close_code, ws.close_reason or ""
            except ConnectionClosed as closed:  # before the acknowledgement (4403: a bad token)
                code = closed.rcvd.code if closed.rcvd else None
                reason = closed.rcvd.reason if closed.rcvd else ""
                failures += 1
            except InvalidStatus as refused:
                status = refused.response.status_code
                if status not in (429, 502, 503, 504):  # those pass: try again later
                    refusal = ErrorCode.FORBIDDEN if status == 403 else None  # the origin
                    self.fail_all(error(f"the websocket was refused with HTTP {status}", refusal))
                failures += 1
            except (OSError, TimeoutError, InvalidHandshake, ValueError):
                failures += 1
            except Exception:  # anything else: a fresh connection is the remedy too
                failures += 1
            finally:
                self.ws = None
            if self.closed:
                return
            if code in FATAL_CLOSES:
                self.fail_all(closed_error(code, reason))
                continue
            if failures >= self.attempts:
                self.fail_all(
                    Unavailable(
                        f"the websocket {self.url} could not be opened ({failures} attempts)",
                        ErrorCode.UNAVAILABLE,
                    )
                )
                failures = 0
                continue
            await asyncio.sleep(pause * (0.5 + random.random()))
            pause = min(pause * 2, 5)

    async def dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "ping":
            await self.ws.send(json.dumps({"type": "pong"}))
            return
        subscription = self.subscriptions.get(str(message.get("id")))
        if subscription is None:
            return
        if kind == "next":
            payload = message.get("payload") or {}
            if payload.get("errors"):
                self.subscriptions.pop(subscription.id, None)
                subscription.fail(graphql_error(payload["errors"][0]))
            else:
                subscription.deliver(payload.get("data") or {})
        elif kind == "error":
            errors = message.get("payload")
            first = errors[0] if isinstance(errors, list) and errors else errors
            failure = graphql_error(first)
            self.subscriptions.pop(subscription.id, None)
            if failure.code == UNKNOWN_DOCUMENT and subscription.by_id:
                # a server that does not trust it: the text, under a fresh operation id
                self.client.untrusted.add(subscription.query)
                subscription.id = str(next(self.ids))
                self.subscriptions[subscription.id] = subscription
                subscription.sent_on = -1
                await self.send_subscribe(subscription)
            else:
                subscription.fail(failure)
        elif kind == "complete":
            self.subscriptions.pop(subscription.id, None)
            subscription.finish()


# -- the asyncio client -----------------------------------------------------------------------


class AsyncPapyrusClient(Base):
    """One player's (or a spectator's) connection to a Papyrus server, for asyncio: the same
    methods as ``PapyrusClient``, awaited; ``changes`` and ``lobby_changes`` are async
    iterators."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 60) -> None:
        super().__init__(base_url, token)
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout)
        self._socket: Socket | None = None

    async def __aenter__(self) -> AsyncPapyrusClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()
        await self.http.aclose()

    @property
    def socket(self) -> Socket:
        """The client's one websocket (opened by the first subscription)."""
        if self._socket is None:
            self._socket = Socket(self)
        return self._socket

    @property
    def connections(self) -> int:
        """How many times the websocket was opened (1, or more after drops)."""
        return self._socket.generation if self._socket else 0

    async def graphql(self, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """Runs one GraphQL document (see ``PapyrusClient.graphql``)."""
        try:
            return await self.post(self.operation(query), variables)
        except UnknownDocument:
            if query not in IDS or query in self.untrusted:
                raise
            self.untrusted.add(query)
            return await self.post({"query": query}, variables)

    async def post(
        self, operation: dict[str, str], variables: dict[str, Any] | None
    ) -> dict[str, Any]:
        body = {**operation, "variables": variables or {}}
        return answer(await self.http.post("/graphql", json=body, headers=self.headers()))

    async def run(self, call: Call[T]) -> T:
        """Drives one request of ``Requests`` over HTTP."""
        try:
            document, variables = next(call)
            while True:
                document, variables = call.send(await self.graphql(document, variables))
        except StopIteration as done:
            return done.value

    async def register(self, name: str) -> str:
        return await self.run(self._register(name))

    async def create_game(
        self, kind: str, seats: int, options: JSON = None, seed: str | None = None
    ) -> Game:
        return await self.run(self._create_game(kind, seats, options, seed))

    async def join(self, game_id: str, seat: int | None = None) -> Game:
        return await self.run(self._join(game_id, seat))

    async def add_bot(
        self, game_id: str, seat: int | None = None, strategy: str | None = None
    ) -> Game:
        return await self.run(self._add_bot(game_id, seat, strategy))

    async def game(self, game_id: str, min_version: int | None = None) -> Game:
        return await self.run(self._game(game_id, min_version))

    async def act(
        self,
        game_id: str,
        action: JSON = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        *,
        typed: dict[str, Any] | None = None,
        seat: int | None = None,
    ) -> ActResult:
        return await self.run(
            self._act(game_id, action, typed, expected_version, idempotency_key, seat)
        )

    async def events(self, game_id: str, after: int = 0, page: int = 100) -> list[Event]:
        return await self.run(self._events(game_id, after, page))

    async def export(self, game_id: str) -> dict[str, Any]:
        return await self.run(self._export(game_id))

    async def lobby(self, kind: str | None = None, page: int = 100) -> list[Table]:
        return await self.run(self._lobby(kind, page))

    async def action_catalog(self, kind: str) -> ActionCatalog:
        return await self.run(self._action_catalog(kind))

    async def typed_action(self, kind: str, action: JSON) -> dict[str, Any]:
        return (await self.action_catalog(kind)).typed(action)

    async def changes(
        self, game_id: str, after_version: int | None = None
    ) -> AsyncGenerator[GameChange, None]:
        """The game's ``gameChanged`` pushes after ``after_version`` (``None``: from now on),
        until the game is over, on the client's one websocket (resumed after a drop)."""
        subscription = await self.socket.subscribe(
            GAME_CHANGED, {"g": game_id, "v": after_version}, "gameChanged", resume="v"
        )
        try:
            async for raw in subscription:
                yield GameChange.parse(raw)
        finally:
            await subscription.aclose()

    async def lobby_changes(self, kind: str | None = None) -> AsyncGenerator[Table, None]:
        """Tables as they are created, seated, started, finished (``lobbyChanged``). After a
        dropped connection it goes on from then: read ``lobby`` again if a change in between
        matters."""
        subscription = await self.socket.subscribe(LOBBY_CHANGED, {"k": kind}, "lobbyChanged")
        try:
            async for raw in subscription:
                yield Table.parse(raw)
        finally:
            await subscription.aclose()

    async def wait_for_change(self, game_id: str, after_version: int, timeout: float = 60) -> None:
        """Returns once the game has an event after ``after_version`` (or is over);
        ``TimeoutError`` after ``timeout`` seconds."""
        subscription = await self.socket.subscribe(
            GAME_EVENTS, {"g": game_id, "v": after_version}, "gameEvents", resume="v"
        )
        try:
            async with asyncio.timeout(timeout):
                async for _ in subscription:
                    return
        finally:
            await subscription.aclose()


# -- the blocking client ----------------------------------------------------------------------


class Loop:
    """An asyncio event loop in a daemon thread: where a blocking client's websocket runs."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="papyrus-websocket", daemon=True
        )
        self.thread.start()

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        if not self.thread.is_alive():
            self.loop.close()


class Pushes(Iterator[T]):
    """A subscription of a blocking client: an iterator (``next`` waits at most ``timeout``
    seconds: ``TimeoutError``); ``close()`` (or leaving its ``with``) stops it."""

    def __init__(
        self,
        loop: Loop,
        subscription: Subscription,
        parse: Callable[[dict[str, Any]], T],
        timeout: float | None,
    ) -> None:
        self.loop = loop
        self.subscription = subscription
        self.parse = parse
        self.timeout = timeout

    def __iter__(self) -> Pushes[T]:
        return self

    def __next__(self) -> T:
        try:
            raw = self.loop.call(self.subscription.__anext__(), self.timeout)
        except StopAsyncIteration:
            raise StopIteration from None
        return self.parse(raw)

    def close(self) -> None:
        if not self.loop.loop.is_closed():
            self.loop.call(self.subscription.aclose(), 10)

    def __enter__(self) -> Pushes[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class PapyrusClient(Base):
    """One player's (or a spectator's) connection to a Papyrus server (blocking calls; its
    websocket runs in a thread of its own, opened by the first subscription)."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 60) -> None:
        super().__init__(base_url, token)
        self.http = httpx.Client(base_url=self.base_url, timeout=timeout)
        self._loop: Loop | None = None
        self._socket: Socket | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> PapyrusClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._loop is not None:
            if self._socket is not None:
                with contextlib.suppress(Exception):
                    self._loop.call(self._socket.close(), 10)
            self._loop.stop()
            self._loop = None
        self.http.close()

    def _websocket(self) -> tuple[Loop, Socket]:
        with self._lock:
            if self._loop is None:
                self._loop = Loop()
            if self._socket is None:
                self._socket = self._loop.call(self._make_socket())
            return self._loop, self._socket

    async def _make_socket(self) -> Socket:
        return Socket(self)  # made on the loop it runs on

    @property
    def connections(self) -> int:
        """How many times the websocket was opened (1, or more after drops)."""
        return self._socket.generation if self._socket else 0

    def graphql(self, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """Runs one GraphQL document; a GraphQL error raises ``PapyrusError`` with its code.
        One of ``DOCUMENTS`` is sent by its id; if the server does not know it, once more as
        text (and as text from then on)."""
        try:
            return self.post(self.operation(query), variables)
        except UnknownDocument:
            if query not in IDS or query in self.untrusted:
                raise
            self.untrusted.add(query)
            return self.post({"query": query}, variables)

    def post(self, operation: dict[str, str], variables: dict[str, Any] | None) -> dict[str, Any]:
        body = {**operation, "variables": variables or {}}
        return answer(self.http.post("/graphql", json=body, headers=self.headers()))

    def run(self, call: Call[T]) -> T:
        """Drives one request of ``Requests`` over HTTP."""
        try:
            document, variables = next(call)
            while True:
                document, variables = call.send(self.graphql(document, variables))
        except StopIteration as done:
            return done.value

    # -- players ------------------------------------------------------------------------------

    def register(self, name: str) -> str:
        """Registers a player and keeps its token for every later call; returns its id."""
        return self.run(self._register(name))

    # -- games --------------------------------------------------------------------------------

    def create_game(
        self, kind: str, seats: int, options: JSON = None, seed: str | None = None
    ) -> Game:
        """A new open table (``kind``: ``IMHOTEP``, ``AMUN_RE``, any of ``gameKinds``); the
        creator is not seated."""
        return self.run(self._create_game(kind, seats, options, seed))

    def join(self, game_id: str, seat: int | None = None) -> Game:
        return self.run(self._join(game_id, seat))

    def add_bot(self, game_id: str, seat: int | None = None, strategy: str | None = None) -> Game:
        """A server-side bot takes a seat (the first free one if none is given)."""
        return self.run(self._add_bot(game_id, seat, strategy))

    def game(self, game_id: str, min_version: int | None = None) -> Game:
        """The game as the caller may see it. ``min_version``: at least this version of the
        caller's log (an ``act``'s ``game.version``), even from a server behind a load balancer
        that has not heard of that write yet."""
        return self.run(self._game(game_id, min_version))

    def act(
        self,
        game_id: str,
        action: JSON = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        *,
        typed: dict[str, Any] | None = None,
        seat: int | None = None,
    ) -> ActResult:
        """One action for the caller's seat: ``action`` as JSON (one of ``legalActions``) or
        ``typed`` (``typedAction``: ``typed_action`` makes it), one of the two.
        ``expected_version``: refused with ``CONFLICT`` if the game moved on since;
        ``idempotency_key`` (a fresh one by default): a retry with the same key gives the first
        result instead of acting twice; ``seat``: which of the caller's seats acts."""
        return self.run(self._act(game_id, action, typed, expected_version, idempotency_key, seat))

    def events(self, game_id: str, after: int = 0, page: int = 100) -> list[Event]:
        """The game's log as the caller may see it, every event after version ``after``."""
        return self.run(self._events(game_id, after, page))

    def export(self, game_id: str) -> dict[str, Any]:
        """A finished game as one document (what ``papyrus verify`` checks offline)."""
        return self.run(self._export(game_id))

    def lobby(self, kind: str | None = None, page: int = 100) -> list[Table]:
        """The open tables (every page), of one kind or all."""
        return self.run(self._lobby(kind, page))

    def action_catalog(self, kind: str) -> ActionCatalog:
        """``actionCatalog(kind)``, read once per client."""
        return self.run(self._action_catalog(kind))

    def typed_action(self, kind: str, action: JSON) -> dict[str, Any]:
        """The ``typedAction`` of a JSON action of a game of ``kind`` (``Game.kind``)."""
        return self.action_catalog(kind).typed(action)

    # -- pushes -------------------------------------------------------------------------------

    def changes(
        self, game_id: str, after_version: int | None = None, timeout: float | None = None
    ) -> Pushes[GameChange]:
        """The game's ``gameChanged`` pushes after ``after_version`` (``None``: from now on),
        until the game is over, on the client's one websocket (resumed after a drop, nothing
        missed or twice). ``timeout``: the longest wait for one (``TimeoutError``)."""
        loop, socket = self._websocket()
        subscription = loop.call(
            socket.subscribe(
                GAME_CHANGED, {"g": game_id, "v": after_version}, "gameChanged", resume="v"
            )
        )
        return Pushes(loop, subscription, GameChange.parse, timeout)

    def lobby_changes(self, kind: str | None = None, timeout: float | None = None) -> Pushes[Table]:
        """Tables as they are created, seated, started, finished (``lobbyChanged``). After a
        dropped connection it goes on from then: read ``lobby`` again if a change in between
        matters."""
        loop, socket = self._websocket()
        subscription = loop.call(socket.subscribe(LOBBY_CHANGED, {"k": kind}, "lobbyChanged"))
        return Pushes(loop, subscription, Table.parse, timeout)

    def wait_for_change(self, game_id: str, after_version: int, timeout: float = 60) -> None:
        """Returns once the game has an event after ``after_version`` (or is over), waiting on
        the ``gameEvents`` subscription (on the client's one websocket) instead of polling;
        ``TimeoutError`` after ``timeout`` seconds."""
        loop, socket = self._websocket()
        subscription = loop.call(
            socket.subscribe(
                GAME_EVENTS, {"g": game_id, "v": after_version}, "gameEvents", resume="v"
            )
        )
        with Pushes(loop, subscription, lambda raw: raw, timeout) as pushes:
            next(pushes, None)


def unknown_document(errors: Any) -> bool:
    """Whether a websocket ``error`` payload says the server does not know a ``documentId``."""
    return (
        isinstance(errors, list)
        and bool(errors)
        and isinstance(errors[0], dict)
        and (errors[0].get("extensions") or {}).get("code") == UNKNOWN_DOCUMENT
    )
