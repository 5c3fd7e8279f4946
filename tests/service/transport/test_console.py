"""The GraphiQL console (docs/API.md "Transport": GraphiQL on GET /graphql, subscriptions over the
websocket): served from our own files so it works with no internet, opening with example
operations for a first game; a subscription sent over HTTP is refused with BAD_INPUT.

The browser test drives a real headless Chromium (Debian's, /usr/bin/chromium) through
Playwright against a real server, with every request to a host other than the loopback aborted.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
from graphql import OperationDefinitionNode, parse, validate

from service.api.graphql import console
from service.api.graphql.schema import schema
from tests.browser import chromium, distinct, watch_policy
from tests.client import acknowledged, register

SUBSCRIPTION = 'subscription { gameEvents(gameId: "nope") { version } }'


def screenshots() -> Path:
    folder = Path(os.environ.get("PAPYRUS_SCREENSHOTS", "/tmp/papyrus-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"GraphiQL screenshots in {folder}")
    return folder


def assert_websocket_hint(body: dict[str, Any]) -> None:
    assert body["data"] is None
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "BAD_INPUT", error
    assert "websocket" in error["message"]
    assert "graphql-transport-ws" in error["message"]
    assert "/graphql" in error["message"]


def test_a_subscription_over_post_is_refused_with_the_websocket_hint(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Subscriptions over POST: BAD_INPUT 422 before execution, naming the websocket."""
    with httpx.Client(base_url=sqlite_server.url, timeout=30) as http:
        response = http.post("/graphql", json={"query": SUBSCRIPTION})
        assert response.status_code == 422, response.text
        assert_websocket_hint(response.json())

        # the operation chosen by name counts, wherever it stands in the document
        document = "query Me { me { id } }\n" + SUBSCRIPTION.replace(
            "subscription", "subscription Live"
        )
        named = http.post("/graphql", json={"query": document, "operationName": "Live"})
        assert named.status_code == 422, named.text
        assert_websocket_hint(named.json())
        # ...and the query beside it still runs
        query = http.post("/graphql", json={"query": document, "operationName": "Me"})
        assert query.status_code == 200, query.text
        assert query.json() == {"data": {"me": None}}

        # multipart (incremental delivery) Accept headers reach no resolver either
        streamed = http.post(
            "/graphql",
            json={"query": SUBSCRIPTION},
            headers={"accept": "multipart/mixed;subscriptionSpec=1.0, application/json"},
        )
        assert streamed.status_code == 422, streamed.text
        assert_websocket_hint(streamed.json())


def test_a_subscription_over_get_is_refused_with_the_websocket_hint(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Subscriptions over GET: BAD_INPUT 422 too, never INTERNAL."""
    with httpx.Client(base_url=sqlite_server.url, timeout=30) as http:
        response = http.get(
            "/graphql", params={"query": SUBSCRIPTION}, headers={"accept": "application/json"}
        )
        assert response.status_code == 422, response.text
        assert_websocket_hint(response.json())


def test_the_example_operations_are_valid_against_the_schema() -> None:
    """The console's examples cover a first game and every one of them validates."""
    document = parse(console.EXAMPLES)
    assert validate(schema._schema, document) == []
    names = [
        d.name.value
        for d in document.definitions
        if isinstance(d, OperationDefinitionNode) and d.name
    ]
    assert names == [
        "RegisterPlayer",
        "CreateGame",
        "JoinGame",
        "AddBot",
        "Game",
        "Act",
        "ActTyped",
        "GameEvents",
        "Replay",
    ]
    assert "Headers pane" in console.EXAMPLES
    assert json.loads(console.VARIABLES)["name"]


def example_operations() -> dict[str, str]:
    """Each operation of the console's examples, by name, as the page runs it: the whole
    document with that operation's name (GraphiQL sends the document and the name)."""
    document = parse(console.EXAMPLES)
    return {
        d.name.value: d.operation.value
        for d in document.definitions
        if isinstance(d, OperationDefinitionNode) and d.name
    }


async def first_messages(
    ws_url: str, token: str, payload: dict[str, Any], count: int
) -> list[dict[str, Any]]:
    """The first ``count`` messages of one operation over graphql-transport-ws, as GraphiQL
    runs it (the Headers pane's token in ``connection_init``)."""
    messages: list[dict[str, Any]] = []
    async with acknowledged(ws_url, token) as ws:
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        while len(messages) < count:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] != "ping":
                messages.append(message)
    return messages


def test_the_examples_run_in_order_from_a_fresh_table(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """Each example, in the order the page lists them, run against a real fresh server as its
    comments say, with the Variables pane's values and the ids and moves the answers before it
    gave: none errors; ActTyped after Act plays a move's typedAction; GameEvents runs over the
    websocket; Replay's version shows the started game, not the empty table (``{}``)."""
    operations = example_operations()
    variables = json.loads(console.VARIABLES)
    headers: dict[str, str] = {}
    answers: dict[str, Any] = {}

    def run(name: str) -> Any:
        body = {"query": console.EXAMPLES, "operationName": name, "variables": variables}
        with httpx.Client(base_url=sqlite_server.url, timeout=30) as http:
            answer = http.post("/graphql", json=body, headers=headers).json()
        assert not answer.get("errors"), (name, answer)
        return answer["data"]

    def my_moves() -> list[dict[str, Any]]:
        """Game, run again until it is the caller's turn (the bot replies after each move)."""
        for _ in range(500):
            game = run("Game")["game"]
            assert game["status"] == "ACTIVE", game
            if game["mySeat"] in game["activeSeats"]:
                assert game["moves"], game
                return list(game["moves"])
        raise AssertionError("it never was the caller's turn")

    for name, kind in operations.items():
        if name == "RegisterPlayer":
            token = run(name)["registerPlayer"]["token"]
            headers["Authorization"] = f"Bearer {token}"
        elif name == "CreateGame":
            variables["gameId"] = run(name)["createGame"]["id"]
        elif name == "Act":
            variables["action"] = my_moves()[0]["action"]
            answers[name] = run(name)["act"]
        elif name == "ActTyped":
            variables["typedAction"] = my_moves()[0]["typedAction"]
            answers[name] = run(name)["act"]
            assert answers[name]["events"], answers
        elif kind == "subscription":
            payload = {"query": console.EXAMPLES, "operationName": name, "variables": variables}
            first = asyncio.run(first_messages(sqlite_server.ws_url, token, payload, 3))
            assert [m["type"] for m in first] == ["next"] * 3, first
            assert [m["payload"]["data"]["gameEvents"]["version"] for m in first] == [1, 2, 3]
        else:
            answers[name] = run(name)
    assert {"Act", "ActTyped", "Replay"} <= set(answers)
    state = answers["Replay"]["game"]["stateAt"]
    assert state, "Replay's version shows the game, not the empty table"


def test_graphiql_page_loads_only_our_own_assets(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """GET /graphql in a browser: our page, every asset it names served by us, with licences."""
    with httpx.Client(base_url=sqlite_server.url, timeout=30) as http:
        page = http.get("/graphql", headers={"accept": "text/html"})
        assert page.status_code == 200
        assert "text/html" in page.headers["content-type"]
        assert "unpkg" not in page.text and "https://" not in page.text
        for name in (*console.SCRIPTS, *console.STYLES):
            assert f'"/graphql/assets/{name}"' in page.text
            asset = http.get(f"/graphql/assets/{name}")
            assert asset.status_code == 200, name
            assert len(asset.content) > 1000, name
            licence = console.STATIC / name.split("/")[0] / "LICENSE"
            assert "MIT" in licence.read_text(), licence


def _editor_text(page: Any, pane: str) -> str:
    return str(
        page.evaluate(
            "(pane) => document.querySelector(pane + ' .CodeMirror').CodeMirror.getValue()", pane
        )
    )


def _run_operation(page: Any, name: str) -> None:
    """Press GraphiQL's play button and pick the operation by name, as a user does."""
    page.locator(".graphiql-execute-button").click()
    page.get_by_role("menuitem", name=name, exact=True).click()


def assert_secured_page(headers: dict[str, str]) -> None:
    """The console's page carries its policy: scripts from this origin only, no framing; the
    one thing inline allowed is GraphiQL's own ``<style>`` elements (service/api/
    security_headers.py ``CONSOLE_POLICY`` says why)."""
    policy = headers["content-security-policy"]
    directives = {
        name: value
        for name, _, value in (part.strip().partition(" ") for part in policy.split(";"))
    }
    assert directives["script-src"] == "'self'", policy
    assert directives["default-src"] == "'none'", policy
    assert directives["style-src-attr"] == "'none'", policy
    assert [n for n, v in directives.items() if "unsafe" in v] == ["style-src-elem"], policy
    assert directives["frame-ancestors"] == "'none'", policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def _use_the_rest_of_the_console(page: Any) -> None:
    """What else a user does in GraphiQL, each of which may style or script: the settings and
    short-keys dialogs, prettify, and autocompletion in the editor."""
    for label in ("Open settings dialog", "Open short keys dialog"):
        page.locator(f".graphiql-sidebar button[aria-label='{label}']").click()
        dialog = page.get_by_role("dialog")
        dialog.wait_for(state="visible", timeout=30_000)
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden", timeout=30_000)
    page.locator("button[aria-label='Prettify query (Shift-Ctrl-P)']").click()
    editor = page.locator(".graphiql-query-editor .CodeMirror")
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nquery Typed { gam")
    page.keyboard.press("Control+Space")
    page.locator(".CodeMirror-hint").first.wait_for(state="visible", timeout=30_000)
    page.keyboard.press("Escape")
    page.evaluate(
        "(text) => document.querySelector('.graphiql-query-editor .CodeMirror')"
        ".CodeMirror.setValue(text)",
        console.EXAMPLES,
    )


def test_graphiql_works_offline_in_a_real_browser(sqlite_server) -> None:  # type: ignore[no-untyped-def]
    """GraphiQL renders with the outside network cut, runs registerPlayer over HTTP and a
    gameEvents subscription over the websocket that receives a live event."""
    folder = screenshots()
    outside: list[str] = []
    failed: list[str] = []

    def loopback(url: str) -> bool:
        return urlparse(url).hostname in ("127.0.0.1", "localhost")

    def route(route: Any) -> None:
        if loopback(route.request.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    # a game, set up over HTTP by two players; the browser watches it as a spectator
    alice = register(sqlite_server.url, "alice")
    bob = register(sqlite_server.url, "bob")
    game_id = alice.gql("mutation { createGame(input: {kind: IMHOTEP, seats: 2}) { id } }")[
        "createGame"
    ]["id"]
    for player in (alice, bob):
        player.gql("mutation($g: ID!) { joinGame(gameId: $g) { id } }", {"g": game_id})
    shown = "query($g: ID!) { game(id: $g) { version status activeSeats mySeat legalActions } }"

    with chromium() as browser:
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 900})
            context.route("**/*", route)
            violations = watch_policy(context)
            page = context.new_page()
            page.on("requestfailed", lambda request: failed.append(request.url))
            sockets: list[str] = []
            page.on("websocket", lambda ws: sockets.append(ws.url))

            opened = page.goto(f"{sqlite_server.url}/graphql", wait_until="networkidle")
            assert_secured_page(opened.headers)
            editor = page.locator(".graphiql-query-editor .CodeMirror")
            editor.wait_for(state="visible", timeout=30_000)
            page.screenshot(path=str(folder / "1-opened.png"))
            text = _editor_text(page, ".graphiql-query-editor")
            for example in (
                "RegisterPlayer",
                "CreateGame",
                "JoinGame",
                "AddBot",
                "Act",
                "GameEvents",
                "Replay",
                "Headers pane",
            ):
                assert example in text, example
            # the schema was fetched over HTTP (introspection) from our server: the docs work
            page.locator(
                ".graphiql-sidebar button[aria-label='Show Documentation Explorer']"
            ).click()
            page.get_by_text("A GraphQL schema provides a root type").wait_for(timeout=30_000)
            page.locator(
                ".graphiql-sidebar button[aria-label='Hide Documentation Explorer']"
            ).click()
            _use_the_rest_of_the_console(page)

            # an example operation, run from the page: its answer shows in the response pane
            _run_operation(page, "RegisterPlayer")
            page.wait_for_function(
                "() => document.querySelector('.graphiql-response .CodeMirror')"
                ".CodeMirror.getValue().includes('\"token\"')",
                timeout=30_000,
            )
            answer = json.loads(_editor_text(page, ".graphiql-response"))
            assert answer["data"]["registerPlayer"]["player"]["name"] == "alice"
            page.screenshot(path=str(folder / "2-registered.png"))

            # the example subscription, over the websocket, sees the catch-up then a live event
            version = alice.gql(shown, {"g": game_id})["game"]["version"]
            page.evaluate(
                "(v) => document.querySelector('.graphiql-editor-tool .CodeMirror')"
                ".CodeMirror.setValue(v)",
                json.dumps({"gameId": game_id}),
            )
            _run_operation(page, "GameEvents")
            page.wait_for_function(
                "(v) => document.querySelector('.graphiql-response .CodeMirror')"
                ".CodeMirror.getValue().includes('\"version\": ' + v)",
                arg=version,
                timeout=30_000,
            )
            mover = next(
                p
                for p in (alice, bob)
                if p.gql(shown, {"g": game_id})["game"]["mySeat"]
                in alice.gql(shown, {"g": game_id})["game"]["activeSeats"]
            )
            action = mover.gql(shown, {"g": game_id})["game"]["legalActions"][0]
            moved = mover.gql(
                "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { events { version type } } }",
                {"g": game_id, "a": action},
            )["act"]["events"]
            assert moved and moved[0]["version"] == version + 1
            page.wait_for_function(
                "(v) => document.querySelector('.graphiql-response .CodeMirror')"
                ".CodeMirror.getValue().includes('\"version\": ' + v)",
                arg=moved[-1]["version"],
                timeout=30_000,
            )
            live = json.loads(_editor_text(page, ".graphiql-response"))
            assert live["data"]["gameEvents"]["type"] == moved[-1]["type"]
            page.screenshot(path=str(folder / "3-live-event.png"))
            assert sockets and all(loopback(url) for url in sockets), sockets
            # the console worked under its Content-Security-Policy: nothing was refused
            assert violations == [], "\n".join(distinct(violations))
            assert all(
                url.startswith("ws://127.0.0.1") and url.endswith("/graphql") for url in sockets
            )
        except Exception:
            page.screenshot(path=str(folder / "failed.png"))
            raise
    assert outside == [], f"the console tried to reach the outside: {outside}"
    assert failed == [], f"requests that failed: {failed}"
    for player in (alice, bob):
        player.close()


def test_the_subscription_check_answers_per_text_and_operation_name() -> None:
    """``subscription_over_http`` is remembered per (text, operation name): one document with a
    query and a subscription is refused by the subscription's name only, however often it is
    asked and in whichever order; a document too long to be remembered is still checked."""
    both = "query Q { lobby { totalCount } } subscription S { gameUpdated(gameId: 1) { version } }"
    for _ in range(2):
        assert console.subscription_over_http(both, "Q") is None
        assert console.subscription_over_http(both, "S") == console.SUBSCRIPTION_OVER_HTTP
    assert console.subscription_over_http("subscription { x }", None) is not None
    assert console.subscription_over_http("{ not parsed", None) is None
    padding = "#" * console.REMEMBERED_TEXT + "\n"
    long_one = padding + "subscription S { gameUpdated(gameId: 1) { version } }"
    before = console._subscription_check.cache_info().currsize
    assert console.subscription_over_http(long_one, None) == console.SUBSCRIPTION_OVER_HTTP
    assert console.subscription_over_http(padding + "{ lobby { totalCount } }", None) is None
    assert console._subscription_check.cache_info().currsize == before
