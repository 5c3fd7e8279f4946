"""The web client plays Imhotep (issue #16): a whole 2-player game against a bot, by clicking the
board; the page loads with the outside network cut off; screenshots of the play page.

Real server (tests.conftest ``Server``), headless Chromium, every request to another origin
recorded and aborted (tests/web/conftest.py). The bot is seated from the lobby page; the page
relies on ``gameChanged`` and re-reads the game, not on ``act``'s answer, so it follows the
bot's moves, which come a moment after the human's ``act`` in their own commands.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from service.api.graphql import trusted
from service.api.graphql.http import PapyrusGraphQL
from tests.client import Client, register
from tests.web.conftest import DESKTOP, PHONE, Web

NEXT_MOVE = "[data-action], [data-move]"


def new_table(
    web: Web, name: str, seed: str, options: dict[str, Any] | None = None
) -> tuple[Client, str]:
    player = register(web.server.url, name)
    game = player.gql(
        "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }",
        {"i": {"kind": "IMHOTEP", "seats": 2, "seed": seed, "options": options or {}}},
    )["createGame"]["id"]
    player.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game})
    return player, game


def wait_for_turn(page: Any) -> bool:
    """Until the viewer may act (True) or the game is over (False)."""
    page.wait_for_function(
        "(sel) => document.querySelector('main').dataset.status === 'FINISHED'"
        " || document.querySelector(sel)",
        arg=NEXT_MOVE,
        timeout=20000,
    )
    return page.evaluate("() => document.querySelector('main').dataset.status !== 'FINISHED'")


def play_one(page: Any) -> str:
    """Click the first legal place on the board (or the first listed move); wait for the next
    version to be drawn. Returns which kind of control was used."""
    before = page.evaluate("() => document.querySelector('main').dataset.version")
    on_board = page.locator("[data-action]")
    kind = "board" if on_board.count() else "list"
    target = on_board.first if kind == "board" else page.locator("[data-move]").first
    target.click()
    page.wait_for_function(
        "(v) => document.querySelector('main').dataset.version !== v"
        " || document.querySelector('[data-testid=error]')",
        arg=before,
        timeout=20000,
    )
    errors = page.locator("[data-testid=error]")
    assert not errors.count(), errors.first.inner_text()
    return kind


@pytest.mark.parametrize("side", ["A", "B"])
def test_a_whole_imhotep_game_against_a_bot_by_clicking_the_board(
    side: str, web: Web, shoot: Any
) -> None:
    """On every site's side A, then side B with the Wrath of the Pharaoh (§2, §8, §13):
    Alice opens the lobby, seats a bot at her table from there (the page moves to the game),
    then plays every turn by clicking the first highlighted place on the board (a ship's slot,
    a dock to sail to, a market card; the list of buttons only for actions with no place, e.g.
    "Take stones from the quarry" §6.1). At the end the scores drawn for each seat equal the
    game's ``result`` from the API (§12-13), and nothing was fetched from another host."""
    options = {"sides": side, "wrath_of_the_pharaoh": side == "B"}
    alice, game_id = new_table(web, "Alice", f"web-full-game-{side}", options)
    page = web.open("/", token=alice.token)
    page.locator(f"[data-testid='bot-{game_id}']").click()
    page.wait_for_url(f"**/games/{game_id}")
    page.wait_for_selector("[data-testid=board-svg]")
    used = {"board": 0, "list": 0}
    shot = False
    for _ in range(400):
        if not wait_for_turn(page):
            break
        used[play_one(page)] += 1
        if not shot and used["board"] + used["list"] == 12:
            shoot(page, f"imhotep-play-midgame-{side}")
            shot = True
    else:
        raise AssertionError("the game did not end in 400 moves")
    result = alice.gql(
        "query($g: ID!) { game(id: $g) { status result { scores } } }", {"g": game_id}
    )
    assert result["game"]["status"] == "FINISHED"
    scores = result["game"]["result"]["scores"]
    drawn = [
        int(page.locator(f"[data-testid=score-{seat}]").text_content() or "") for seat in range(2)
    ]
    assert drawn == scores
    assert page.locator("[data-testid=result]").inner_text() == "Final scores: " + " – ".join(
        map(str, scores)
    )
    assert used["board"] > used["list"], used  # the board's places, the list only as a fallback
    shoot(page, f"imhotep-play-finished-{side}")
    assert web.outside == []
    assert web.console_errors == []
    alice.close()


def test_the_lobby_and_a_game_page_load_with_the_outside_network_cut_off(web: Web) -> None:
    """Every request to another host is aborted (and recorded): the lobby and a running game's
    page (as a spectator, from a link, no account) load and draw, and no request to another host
    was even attempted; the page's own requests all went to the server's origin."""
    alice, game_id = new_table(web, "Carol", "web-offline")
    alice.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
    page = web.open("/")
    page.wait_for_selector("[data-testid=open-tables]")
    page.wait_for_selector("[data-testid=register-form]")
    watcher = web.open(f"/games/{game_id}")
    watcher.wait_for_selector("[data-testid=board-svg]")
    assert "spectator" in watcher.locator("[data-testid=you]").inner_text()
    assert watcher.locator(NEXT_MOVE).count() == 0  # a spectator has no move
    # live: Carol acts through the API, the spectator's page draws the new version by itself
    shown = watcher.evaluate("() => document.querySelector('main').dataset.version")
    game = alice.gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})["game"]
    assert shown == str(game["version"])
    alice.gql(
        'mutation($g: ID!, $v: Int) { act(gameId: $g, action: {type: "get_stones"},'
        " expectedVersion: $v) { game { version } } }",
        {"g": game_id, "v": game["version"]},
    )
    watcher.wait_for_function(
        "(v) => Number(document.querySelector('main').dataset.version) > v",
        arg=game["version"],
        timeout=10000,
    )
    assert web.outside == []
    assert web.requests and all(url.startswith(web.server.url) for url in web.requests)
    assert web.console_errors == []
    alice.close()


def test_screenshots_of_the_lobby_and_the_imhotep_board(web: Web, shoot: Any) -> None:
    """The lobby and a B-side Imhotep game's page at 1280x900 and 390x844 (the phone's board
    flows into one column, nothing wider than the screen)."""
    options = {"sides": "B", "wrath_of_the_pharaoh": True}
    alice, game_id = new_table(web, "Dora", "web-shots", options)
    alice.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        lobby = web.open("/", token=alice.token, viewport=viewport)
        lobby.wait_for_selector("[data-testid=create-form]")
        lobby.wait_for_selector("[data-testid=open-tables][data-loaded]")
        lobby.wait_for_selector(f"[data-testid=my-games] [data-testid=table-{game_id}]")
        shoot(lobby, f"lobby-{label}")
        width = lobby.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"lobby {label}: the page is {width} px wide"
        page = web.open(f"/games/{game_id}", token=alice.token, viewport=viewport)
        page.wait_for_selector("[data-testid=board-svg]")
        shoot(page, f"imhotep-{label}")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{label}: the page is {width} px wide"
    assert web.outside == []
    assert web.console_errors == []
    alice.close()


def test_undo_from_the_page_takes_the_last_action_back(web: Web) -> None:
    """At an unranked table (undo allowed), Alice places a stone on a ship's slot from the
    keyboard (the slot is focusable; Enter acts), then presses "Undo": the stone is gone from that slot on the board and in the game's state, and
    the undone events are marked so in the log (docs/API.md requestUndo)."""
    alice, game_id = new_table(web, "Hana", "web-undo")
    alice.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
    page = web.open(f"/games/{game_id}", token=alice.token)
    page.wait_for_selector("[data-testid=board-svg]")
    slot = page.locator("[data-action][data-testid^=ship-]").first
    testid = slot.get_attribute("data-testid")
    assert testid is not None
    # the board's places are keyboard controls: focus the slot, press Enter
    before = page.evaluate("() => document.querySelector('main').dataset.version")
    slot.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(v) => document.querySelector('main').dataset.version !== v", arg=before, timeout=10000
    )
    assert page.locator(f"[data-testid={testid}] .piece").count() == 1
    button = page.get_by_test_id("undo-request-button")
    button.wait_for()
    assert button.is_enabled(), page.get_by_test_id("undo").inner_text()
    button.click()
    # the page follows the game: the bot's reply to Alice's move may be drawn first (a new
    # version, the stone still there), then the undo that takes both back
    page.locator(f"[data-testid={testid}] .piece").wait_for(state="detached", timeout=10000)
    assert not page.locator("[data-testid=error]").count()
    ship, slot_number = (int(part) for part in testid.split("-")[1::2])
    state = alice.gql("query($g: ID!) { game(id: $g) { state } }", {"g": game_id})["game"]["state"]
    placed = next(s for s in state["ships"] if s["id"] == ship)["slots"][slot_number - 1]
    assert placed is None
    undone = alice.gql(
        "query($g: ID!) { game(id: $g) { events { nodes { undone } } } }", {"g": game_id}
    )["game"]["events"]["nodes"]
    assert any(event["undone"] for event in undone)
    alice.close()


def act_first(player: Client, game_id: str) -> int:
    """The player's first legal action through the API; the version after it."""
    game = player.gql("query($g: ID!) { game(id: $g) { version legalActions } }", {"g": game_id})[
        "game"
    ]
    played = player.gql(
        "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v)"
        " { game { version } } }",
        {"g": game_id, "a": game["legalActions"][0], "v": game["version"]},
    )
    return int(played["act"]["game"]["version"])


def test_an_undo_request_is_answered_from_the_page(web: Web) -> None:
    """Bob (API) asks to take back his last action and Alice's after it: the request reaches Alice's
    page live with "Accept" and "Refuse"; she accepts there, and the game goes back to right
    before Bob's action (docs/API.md requestUndo/answerUndo)."""
    alice, game_id = new_table(web, "Ines", "web-undo-answer")
    bob = register(web.server.url, "Jon")
    bob.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 1) { id } }", {"g": game_id})
    seats = {0: alice, 1: bob}
    first = alice.gql("query($g: ID!) { game(id: $g) { activeSeats } }", {"g": game_id})["game"]
    if first["activeSeats"] == [0]:
        act_first(alice, game_id)
    before_bob = alice.gql("query($g: ID!) { game(id: $g) { version } }", {"g": game_id})
    act_first(bob, game_id)
    act_first(seats[0], game_id)
    page = web.open(f"/games/{game_id}", token=alice.token)
    page.wait_for_selector("[data-testid=board-svg]")
    bob.gql(
        "mutation($g: ID!, $v: Int) { requestUndo(gameId: $g, toVersion: $v) { id } }",
        {"g": game_id, "v": before_bob["game"]["version"]},
    )
    accept = page.get_by_test_id("undo-accept")
    accept.wait_for(timeout=10000)
    assert "Jon (seat 2) asks" in page.get_by_test_id("undo-request").inner_text()
    assert page.get_by_test_id("undo-refuse").is_visible()
    accept.click()
    page.wait_for_function("() => !document.querySelector('[data-testid=undo-request]')")
    assert not page.locator("[data-testid=error]").count()
    game = alice.gql(
        "query($g: ID!) { game(id: $g) { undoRequest { seat } activeSeats"
        " events { nodes { version undone } } } }",
        {"g": game_id},
    )["game"]
    assert game["undoRequest"] is None and game["activeSeats"] == [1]
    undone = [e["version"] for e in game["events"]["nodes"] if e["undone"]]
    assert undone and min(undone) == before_bob["game"]["version"] + 1
    assert web.console_errors == []
    alice.close()
    bob.close()


class Sent:
    """What one page sends the server: its POST bodies to /graphql, its websocket messages."""

    def __init__(self, page: Any) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        page.on("request", self.request)
        page.on("websocket", lambda ws: ws.on("framesent", self.frame))

    def request(self, request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/graphql"):
            self.bodies.append(json.loads(request.post_data or "null"))

    def frame(self, payload: Any) -> None:
        self.messages.append(json.loads(payload if isinstance(payload, str) else payload.decode()))

    def subscribes(self) -> list[dict[str, Any]]:
        return [m["payload"] for m in self.messages if m.get("type") == "subscribe"]


def test_the_game_page_names_its_documents_by_id(web: Web) -> None:
    """The page is on the server's own (local) origin, a secure context: every document it
    sends (the game's kinds, head, the game with its board's view, an action, the
    subscription) names a trusted document by its id (docs/API.md "Trusted documents"), never
    its text."""
    alice, game_id = new_table(web, "Ivan", "web-trusted")
    alice.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
    page = web.context(token=alice.token).new_page()
    sent = Sent(page)
    page.goto(f"{web.server.url}/games/{game_id}")
    page.wait_for_selector("[data-testid=board-svg]")
    assert wait_for_turn(page)
    play_one(page)
    assert len(sent.bodies) >= 4 and sent.subscribes()
    for body in [*sent.bodies, *sent.subscribes()]:
        assert "query" not in body, body
        assert trusted.document(body["documentId"]) is not None, body
    operation = re.compile(r"(?:query|mutation|subscription) (\w+)")
    names = {
        operation.findall(trusted.document(body["documentId"]) or "")[0] for body in sent.bodies
    }
    assert {"GameKinds", "GameHead", "Game", "Act"} <= names, names
    assert web.console_errors == []
    alice.close()


def test_a_server_that_does_not_know_the_documents_is_sent_their_text(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server without these trusted documents (an older one) answers UNKNOWN_DOCUMENT: the
    page sends each document once more as its text, and as text from then on; it draws and
    follows the game as ever."""
    monkeypatch.setattr(trusted, "document", lambda document_id: None)
    monkeypatch.setattr(PapyrusGraphQL, "trusted_document", staticmethod(lambda _: None))
    alice, game_id = new_table(web, "Judy", "web-untrusted")
    alice.gql("mutation($g: ID!) { addBot(gameId: $g) { id } }", {"g": game_id})
    page = web.context(token=alice.token).new_page()
    sent = Sent(page)
    page.goto(f"{web.server.url}/games/{game_id}")
    page.wait_for_selector("[data-testid=board-svg]")
    assert wait_for_turn(page)
    play_one(page)
    texts = [body["query"] for body in sent.bodies if "query" in body]
    named = [body["documentId"] for body in sent.bodies if "documentId" in body]
    assert texts and len(set(named)) == len(named), named  # each id tried once
    assert {f"sha256:{hashlib.sha256(text.encode()).hexdigest()}" for text in texts} >= set(named)
    subscribes = sent.subscribes()
    assert "documentId" in subscribes[0] and "query" in subscribes[-1], subscribes
    assert web.console_errors == []
    alice.close()
