"""CORS in a real browser: a page on another origin plays over GraphQL, REST and a websocket.

Capability "browsers and CORS" (docs/configuration.md "Browsers and CORS"; docs/API.md
"Transport"): one setting, ``allowed_origins`` / ``PAPYRUS_ALLOWED_ORIGINS``, admits a page's
origin to GraphQL and REST over ``fetch`` (preflight included: ``Authorization``,
``Content-Type``, ``Idempotency-Key`` and ``X-Request-Id`` may be sent, ``X-Request-Id`` can be
read back) and to the websocket handshake;
by default only the same origin is allowed.

Debian's headless chromium (``/usr/bin/chromium``) is driven by Playwright; the page is served by
a tiny HTTP server on a second loopback port, so it is a different origin from the Papyrus
server. Every request to a host other than the loopback is aborted. A screenshot of each case
is saved to a folder the test prints.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from service.settings import Settings
from tests.browser import chromium
from tests.client import register, wait_game
from tests.conftest import Server, free_port

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}

#: the page's script: the few graphql-transport-ws messages are written out by hand
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Papyrus from another origin</title>
<style>body { font: 14px monospace; margin: 1em; } pre { white-space: pre-wrap; }</style>
</head><body>
<h1>A page on another origin</h1>
<p id="origin"></p>
<pre id="log">(not run yet)</pre>
<script>
document.getElementById("origin").textContent = "this page: " + location.origin;
const lines = [];
function note(line) {
  lines.push(line);
  document.getElementById("log").textContent = lines.join("\\n");
}

async function graphql(base, query, variables, token) {
  const headers = {"Content-Type": "application/json", "X-Request-Id": "page-" + Date.now()};
  if (token) headers["Authorization"] = "Bearer " + token;
  const response = await fetch(base + "/graphql", {
    method: "POST", headers, body: JSON.stringify({query, variables}),
  });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return {data: body.data, requestId: response.headers.get("X-Request-Id"),
          sentId: headers["X-Request-Id"]};
}

async function rest(base, method, path, token, body, extra) {
  const headers = {"Authorization": "Bearer " + token, ...(extra || {})};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(base + "/api/v1" + path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {status: response.status, body: await response.json(),
          requestId: response.headers.get("X-Request-Id")};
}

// graphql-transport-ws by hand: connection_init, connection_ack, subscribe, next
function subscribe(wsUrl, token, gameId, afterVersion) {
  let opened = false;
  let socket;
  const first = new Promise((resolve) => {
    socket = new WebSocket(wsUrl, "graphql-transport-ws");
    const guard = setTimeout(() => resolve({outcome: "no event", opened}), 20000);
    socket.onopen = () => {
      opened = true;
      socket.send(JSON.stringify(
        {type: "connection_init", payload: {authorization: "Bearer " + token}}));
    };
    socket.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.type === "connection_ack") {
        socket.send(JSON.stringify({id: "1", type: "subscribe", payload: {
          query: "subscription($g: ID!, $v: Int) " +
                 "{ gameEvents(gameId: $g, afterVersion: $v) { version type } }",
          variables: {g: gameId, v: afterVersion},
        }}));
      } else if (data.type === "ping") {
        socket.send(JSON.stringify({type: "pong"}));
      } else if (data.type === "next") {
        clearTimeout(guard);
        resolve({outcome: "event", opened, event: data.payload.data.gameEvents});
        socket.close();
      } else if (data.type === "error") {
        clearTimeout(guard);
        resolve({outcome: "error", opened, errors: data.payload});
      }
    };
    socket.onclose = (event) => {
      clearTimeout(guard);
      resolve({outcome: "closed", opened, code: event.code});
    };
  });
  return first;
}

async function attempt(step, work) {
  try {
    const value = await work();
    note(step + ": ok " + JSON.stringify(value).slice(0, 160));
    return {ok: true, value};
  } catch (failure) {
    note(step + ": refused (" + failure + ")");
    return {ok: false, error: String(failure)};
  }
}

// the whole client journey, from this origin: register, open a table, seat a bot and
// ourselves, subscribe, play one action, receive its event
async function play(base, wsUrl) {
  const result = {};
  result.register = await attempt("register over GraphQL", () => graphql(base,
    "mutation($n: String!) { registerPlayer(name: $n) { token player { id } } }",
    {n: "Browser"}));
  if (!result.register.ok) return result;
  const token = result.register.value.data.registerPlayer.token;
  result.create = await attempt("create a game over REST",
    () => rest(base, "POST", "/games", token, {kind: "IMHOTEP", seats: 2}));
  const gameId = result.create.value.body.id;
  result.join = await attempt("join over REST",
    () => rest(base, "POST", "/games/" + gameId + "/seats", token, {seat: 0}));
  result.bot = await attempt("add a bot over REST",
    () => rest(base, "POST", "/games/" + gameId + "/bots", token, {}));
  let game = result.bot.value.body;
  // the bot replies in its own command, a moment later, if its seat begins: wait for our turn
  for (let tries = 0; !game.legalActions.length && tries < 1200; tries++) {
    await new Promise((done) => setTimeout(done, 50));
    game = (await rest(base, "GET", "/games/" + gameId, token)).body;
  }
  const live = subscribe(wsUrl, token, gameId, game.version);
  result.act = await attempt("act over REST", () => rest(base, "POST",
    "/games/" + gameId + "/actions", token,
    {action: game.legalActions[0], expectedVersion: game.version},
    {"Idempotency-Key": "browser-" + gameId}));
  result.subscription = await live;
  note("websocket: " + JSON.stringify(result.subscription));
  return result;
}

// a refused origin: the same three transports, with a token and game made elsewhere
async function refused(base, wsUrl, token, gameId, version) {
  const result = {};
  result.graphql = await attempt("GraphQL", () => graphql(base, "{ me { id } }", {}, token));
  result.rest = await attempt("REST act", () => rest(base, "POST",
    "/games/" + gameId + "/actions", token, {action: {type: "pass"}, expectedVersion: version}));
  result.subscription = await subscribe(wsUrl, token, gameId, 0);
  note("websocket: " + JSON.stringify(result.subscription));
  return result;
}
</script></body></html>
"""


class Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class OriginServer(Server):
    """The real Papyrus server in a thread, with ``allowed_origins`` of its own."""

    def __init__(self, database_url: str, allowed_origins: tuple[str, ...]) -> None:
        import uvicorn

        from service.asgi import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/graphql"
        settings = Settings(database_url=database_url, allowed_origins=allowed_origins)
        config = uvicorn.Config(
            create_app(settings),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)


@pytest.fixture(scope="module")
def page_origin() -> Iterator[str]:
    """The test page, served from a second loopback origin."""
    httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("cors-screenshots")
    print(f"\nCORS screenshots: {folder}")
    return folder


def open_page(browser: Any, page_origin: str) -> tuple[Any, Any, list[str]]:
    """A fresh context whose requests to anything but the loopback are aborted."""
    context = browser.new_context()
    aborted: list[str] = []

    def outside(route: Any) -> None:
        aborted.append(route.request.url)
        route.abort()

    context.route(lambda url: urlsplit(url).hostname not in LOOPBACK, outside)
    page = context.new_page()
    page.goto(f"{page_origin}/")
    return context, page, aborted


@pytest.mark.parametrize("allowed", ["the page's origin", "*"])
def test_a_page_on_an_allowed_origin_plays_over_graphql_rest_and_websockets(
    allowed: str, sqlite_url: str, browser: Any, page_origin: str, screenshots: Any
) -> None:
    """allowed_origins lists the page's origin (or is ``*``): the browser's preflights pass,
    the page registers over GraphQL, creates a game, joins, adds a bot and acts over REST
    (Authorization, Content-Type, Idempotency-Key, X-Request-Id sent; X-Request-Id read back)
    and receives the action's event over graphql-transport-ws."""
    origins = (page_origin,) if allowed != "*" else ("*",)
    with OriginServer(sqlite_url, origins) as server:
        context, page, aborted = open_page(browser, page_origin)
        try:
            result = page.evaluate("([base, ws]) => play(base, ws)", [server.url, server.ws_url])
            name = "allowed-star" if allowed == "*" else "allowed-origin"
            page.screenshot(path=str(screenshots / f"{name}.png"), full_page=True)
        finally:
            context.close()
    summary = json.dumps(result, indent=1)[:3000]
    registered = result["register"]
    assert registered["ok"], summary
    # X-Request-Id crosses both ways: sent by the page, echoed, readable (exposed)
    assert registered["value"]["requestId"] == registered["value"]["sentId"], summary
    for step, status in (("create", 201), ("join", 200), ("bot", 200), ("act", 200)):
        assert result[step]["ok"] and result[step]["value"]["status"] == status, summary
        assert result[step]["value"]["requestId"], summary
    played = result["act"]["value"]["body"]
    assert played["events"], summary
    subscription = result["subscription"]
    assert subscription["outcome"] == "event" and subscription["opened"], summary
    assert subscription["event"]["version"] == played["events"][0]["version"], summary
    assert aborted == []


def test_a_page_on_another_origin_is_refused_by_default(
    sqlite_url: str, browser: Any, page_origin: str, screenshots: Any
) -> None:
    """allowed_origins unset (the default: same origin only): from the page's origin the
    GraphQL fetch and the REST fetch reject (their preflights fail, so nothing is played)
    and the websocket handshake is refused; the same requests without a browser still work."""
    with OriginServer(sqlite_url, ()) as server:
        alice = register(server.url, "Alice")
        created = alice.rest("POST", "/games", json={"kind": "IMHOTEP", "seats": 2}).json()
        alice.rest("POST", f"/games/{created['id']}/seats", json={"seat": 0})
        alice.rest("POST", f"/games/{created['id']}/bots", json={})
        wait_game(alice, created["id"])  # the bot replies in its own command if its seat began
        game = alice.rest("GET", f"/games/{created['id']}").json()
        context, page, aborted = open_page(browser, page_origin)
        try:
            result = page.evaluate(
                "([base, ws, token, id, version]) => refused(base, ws, token, id, version)",
                [server.url, server.ws_url, alice.token, game["id"], game["version"]],
            )
            page.screenshot(path=str(screenshots / "refused.png"), full_page=True)
        finally:
            context.close()
        after = alice.rest("GET", f"/games/{game['id']}").json()
        # what the browser refused is the origin, not the requests: without one they pass
        assert alice.gql("{ me { id } }")["me"]["id"] == alice.player_id  # type: ignore[attr-defined]
        preflight = httpx.options(
            f"{server.url}/api/v1/games/{game['id']}/actions",
            headers={
                "Origin": page_origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type",
            },
        )
        alice.close()
    summary = json.dumps(result, indent=1)[:3000]
    assert not result["graphql"]["ok"] and "Failed to fetch" in result["graphql"]["error"]
    assert not result["rest"]["ok"] and "Failed to fetch" in result["rest"]["error"], summary
    assert after["version"] == game["version"]  # the preflight failed: no action was sent
    assert result["subscription"]["outcome"] == "closed", summary
    assert not result["subscription"]["opened"], summary
    assert "access-control-allow-origin" not in preflight.headers
    assert aborted == []
