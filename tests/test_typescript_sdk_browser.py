"""The SDK in Chromium: the web client's page loads it (``api.js`` is built on it: one client,
not two), and the module works on its own there, under the page's Content-Security-Policy: ``gql``
with a trusted document sent by id, and a subscription over the browser's own WebSocket.

The whole web client's browser tests (tests/web/) run on the same module; this one checks the
SDK itself in the page.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import chromium, distinct, watch_policy
from tests.conftest import Server

QUERIES = (
    Path(__file__).resolve().parent.parent / "service" / "api" / "web" / "static" / "queries.js"
)

#: in the page: the SDK module imported as the page imports it, used on its own
USE_THE_SDK = """
async () => {
  const sdk = await import("/app/sdk/papyrus.js");
  const api = await import("/app/api.js");
  const queries = await import("/app/queries.js");
  const client = new sdk.PapyrusClient();
  const session = await client.register("browser-sdk");
  const kinds = await client.gql(queries.GAME_KINDS);
  const seen = new Promise((resolve, reject) => {
    const stop = client.lobbyChanged(null, (summary) => { stop(); resolve(summary); }, reject);
  });
  // the subscription is started once the socket is acknowledged: create the table after that
  await new Promise((resolve) => setTimeout(resolve, 300));
  const created = await client.createGame({kind: "IMHOTEP", seats: 2});
  const summary = await seen;
  let code = null;
  try {
    await client.joinGame("no-such-game");
  } catch (failure) {
    code = failure instanceof api.ApiError ? failure.code : `not an ApiError: ${failure}`;
  }
  client.close();
  return {
    player: session.player.name,
    kinds: kinds.gameKinds.map((k) => k.kind),
    created: created.id,
    summary: summary.gameId,
    code,
    oneModule: sdk.ApiError === api.ApiError,
  };
}
"""


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def test_the_page_loads_the_sdk_and_it_works_there(sqlite_url: str, browser: Any) -> None:
    with Server(sqlite_url) as server:
        context = browser.new_context()
        violations = watch_policy(context)
        page = context.new_page()
        loaded: list[str] = []
        bodies: list[dict[str, Any]] = []
        page.on("request", lambda request: loaded.append(request.url))

        def posted(request: Any) -> None:
            if request.method == "POST" and request.url.endswith("/graphql"):
                bodies.append(json.loads(request.post_data or "{}"))

        page.on("request", posted)
        page.goto(f"{server.url}/", wait_until="networkidle")
        assert f"{server.url}/app/sdk/papyrus.js" in loaded, "the web client does not load the SDK"
        assert f"{server.url}/app/api.js" in loaded

        bodies.clear()
        result = page.evaluate(USE_THE_SDK)
        context.close()
    assert result["player"] == "browser-sdk"
    assert "IMHOTEP" in result["kinds"]
    assert result["summary"] == result["created"], "the subscription saw the new table"
    assert result["code"] == "NOT_FOUND"
    assert result["oneModule"], "api.js and the page share one SDK module"
    # 127.0.0.1 is a secure context: the trusted GAME_KINDS went by its id alone
    text = re.search(r"export const GAME_KINDS = `(.*?)`;", QUERIES.read_text(), re.S)
    assert text is not None
    kinds_id = "sha256:" + hashlib.sha256(text.group(1).encode()).hexdigest()
    assert {"documentId": kinds_id, "variables": {}} in bodies, bodies
    assert not any("query GameKinds" in b.get("query", "") for b in bodies), bodies
    assert distinct(violations) == []
