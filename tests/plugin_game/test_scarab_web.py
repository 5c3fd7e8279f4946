"""A game whose package brings no web board (``GameModule.web_board`` is ``None``) is offered,
played and replayed on the generic board (``service/api/web/static/boards/generic.js``): the web
client names no game, so a plug-in it was never written for works in it.

The game is Scarab, the test plug-in (this folder): a ``papyrus serve`` process finds it
through its distribution's ``papyrus.games`` entry point with ``tests/plugin_game`` on its path.
Headless Chromium, every request elsewhere recorded and aborted (tests/web/conftest.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client import Client, register
from tests.serving import ServeProcess
from tests.web.conftest import Web

PLUGINS = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def plugin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """``papyrus serve`` with Scarab registered (its plug-in folder on ``PYTHONPATH``)."""
    folder = tmp_path_factory.mktemp("generic-board-db")
    paths = [str(PLUGINS), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    served = ServeProcess(f"sqlite:///{folder / 'papyrus.sqlite'}", environment=environment)
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture
def plugin_web(plugin_server: ServeProcess, browser: Any) -> Iterator[Web]:
    session = Web(plugin_server, browser)  # type: ignore[arg-type]  # a server with a url
    try:
        yield session
    finally:
        session.close()
    session.assert_secure()


def moves_listed(page: Any) -> int:
    return int(page.locator("[data-testid=actions] button[data-move]").count())


def test_a_game_without_a_board_is_created_played_and_replayed_on_the_generic_board(
    plugin_web: Web, shoot: Any
) -> None:
    """Una creates a 2-seat Scarab table in the lobby (the game and its seat range from
    ``gameKinds``; no options to offer, no start player), seats a bot, and plays on the generic
    board: the JSON state as lists and tables with the seats' names, every legal action a
    button; a move played is answered by the bot. The replay draws the same board."""
    server = plugin_web.server
    anyone = Client(server.url)
    kinds = anyone.gql("{ gameKinds { kind name hasOwnBoard } }")["gameKinds"]
    anyone.close()
    scarab = next(k for k in kinds if k["kind"] == "SCARAB")
    assert scarab == {"kind": "SCARAB", "name": "Scarab", "hasOwnBoard": False}

    una = register(server.url, "Una")
    page = plugin_web.open("/", token=una.token)
    page.wait_for_selector("[data-testid=open-tables][data-loaded]")
    page.get_by_test_id("create-kind").select_option("SCARAB")
    seats = page.get_by_test_id("create-seats")
    assert seats.locator("option").all_inner_texts() == ["2 players", "3 players", "4 players"]
    assert page.get_by_test_id("default-options").is_visible()
    assert not page.get_by_test_id("create-start").is_visible()
    page.get_by_test_id("create").click()
    table = page.locator("[data-testid=open-tables] [data-kind=SCARAB]")
    table.wait_for()
    assert table.get_by_test_id("options").inner_text() == "default options"
    assert "Scarab" in table.inner_text()
    game_id = table.get_attribute("data-testid").removeprefix("table-")
    held = una.gql("query($g: ID!) { game(id: $g) { options seats { seat } } }", {"g": game_id})
    assert held["game"]["options"] == {} and len(held["game"]["seats"]) == 2

    table.get_by_test_id(f"bot-{game_id}").click()
    page.wait_for_url(f"**/games/{game_id}")
    board = page.get_by_test_id("generic-board")
    board.wait_for()
    assert page.locator("h1").first.inner_text().startswith("Scarab · ")
    assert board.get_by_role("heading", name="The game").is_visible()
    players = board.locator("table[data-key=players]")
    assert players.locator("th").first.inner_text() == "Seat"
    assert "Una (seat 1)" in players.inner_text()
    assert "Bot 2 (random)" in players.inner_text()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=actions] button[data-move]').length > 0"
    )
    legal = una.gql("query($g: ID!) { game(id: $g) { legalActions } }", {"g": game_id})
    assert moves_listed(page) == len(legal["game"]["legalActions"]) > 0
    shoot(page, "generic-board-play")

    before = int(page.evaluate("() => document.querySelector('main').dataset.version"))
    page.locator("[data-testid=actions] button[data-move]").first.click()
    page.wait_for_function(
        "(v) => Number(document.querySelector('main').dataset.version) >= v + 2",
        arg=before,
        timeout=20000,
    )  # Una's move and the bot's answer

    page.get_by_test_id("replay").click()
    replay = page.get_by_test_id("replay-board").get_by_test_id("generic-board")
    replay.wait_for()
    assert page.locator("h1").first.inner_text() == "Replay · Scarab"
    assert replay.locator("table[data-key=players]").count() == 1
    shoot(page, "generic-board-replay")
    assert plugin_web.outside == []
    assert plugin_web.console_errors == []
    una.close()
