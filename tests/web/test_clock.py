"""The web client and timed tables (issue #15 "Time controls", issue #16 "Lobby" and "Play"):
the lobby creates a table with a time control and adds a bot of a chosen level; the game page
shows every seat's clock, marks a seat a bot took over when its time ran out, and gives its
player the way back (``reclaimSeat``)."""

from __future__ import annotations

import time
from typing import Any

from tests.client import events_of, register
from tests.web.conftest import Web

SEATS = "query($g: ID!) { game(id: $g) { status seats { seat isBot strategy } } }"


def test_a_timed_table_with_a_greedy_bot_from_the_lobby(web: Web, shoot: Any) -> None:
    """Hana creates a 2-player Imhotep table with a 10 min + 20 s time bank whose take-over bot
    is greedy, taking seat 0, then adds an mcts bot from the table's level menu: the server
    holds the clock option and the bot's level; the lobby describes the time control; the game
    page shows both seats' clocks with Hana's full bank (the bot's seat is not on the clock:
    only people are timed)."""
    hana = register(web.server.url, "Hana")
    page = web.open("/", token=hana.token)
    page.wait_for_selector("[data-testid=open-tables][data-loaded]")
    page.get_by_test_id("clock-mode").select_option("bank")
    page.get_by_test_id("clock-bank").fill("10")
    page.get_by_test_id("clock-increment").fill("20")
    page.get_by_test_id("clock-bot").select_option("greedy")
    page.get_by_test_id("create").click()
    row = page.get_by_test_id("open-tables").locator("[data-testid^=table-]").first
    row.wait_for()
    game_id = (row.get_attribute("data-testid") or "").removeprefix("table-")
    described = row.get_by_test_id("options").inner_text()
    assert "10 min + 20 s per move" in described and "greedy bot takes over" in described

    clock = "query($g: ID!) { game(id: $g) { clock { mode bankMs incrementMs onExpiry bot } } }"
    assert hana.gql(clock, {"g": game_id})["game"]["clock"] == {
        "mode": "BANK",
        "bankMs": 600_000,
        "incrementMs": 20_000,
        "onExpiry": "TAKEOVER",
        "bot": "greedy",
    }
    page.get_by_test_id(f"bot-level-{game_id}").select_option("mcts")
    page.get_by_test_id(f"bot-{game_id}").click()
    page.wait_for_url(f"**/games/{game_id}")
    page.wait_for_selector("[data-testid=clock-0]")
    seats = hana.gql(SEATS, {"g": game_id})["game"]["seats"]
    assert [(s["isBot"], s["strategy"]) for s in seats] == [(False, None), (True, "mcts")]
    mine = page.get_by_test_id("clock-0").inner_text()
    assert "Hana" in mine and ("10:00" in mine or "9:5" in mine), mine
    assert "played by a bot" not in mine
    shoot(page, "imhotep-play-timed-desktop")
    assert web.outside == [] and web.console_errors == []
    hana.close()


def test_a_seat_taken_over_on_expiry_is_reclaimed_from_the_page(web: Web) -> None:
    """Ivo's table has a 1 s per-move clock with take-over by a random bot; his opponent is an
    mcts bot (it thinks in its own commands, so the game goes on for a while). Ivo does not
    move: his time runs out, a bot takes his seat over, and his page marks the seat and offers
    "Reclaim my seat"; his click records ``seat_reclaimed`` for seat 0 after the take-over
    (docs/clocks.md "Time controls and take-over")."""
    ivo = register(web.server.url, "Ivo")
    game_id = ivo.gql(
        "mutation($o: JSON) { createGame(input: {kind: IMHOTEP, seats: 2, options: $o}) { id } }",
        {
            "o": {
                "start_player": 0,
                "clock": {"mode": "move", "moveMs": 1000, "onExpiry": "takeover", "bot": "random"},
            }
        },
    )["createGame"]["id"]
    ivo.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game_id})
    page = web.open(f"/games/{game_id}", token=ivo.token)
    ivo.gql(
        'mutation($g: ID!) { addBot(gameId: $g, seat: 1, strategy: "mcts") { id } }',
        {"g": game_id},
    )
    page.get_by_test_id("taken-over-0").wait_for(timeout=20_000)
    reclaim = page.get_by_test_id("reclaim")
    reclaim.wait_for()
    reclaim.click()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        types = [e["type"] for e in events_of(ivo, game_id, "type")]
        if "seat_reclaimed" in types:
            break
        time.sleep(0.2)
    assert "seat_reclaimed" in types, types
    assert types.index("seat_taken_over") < types.index("seat_reclaimed")
    assert types.index("time_expired") < types.index("seat_taken_over")
    assert web.outside == [] and web.console_errors == []
    ivo.close()
