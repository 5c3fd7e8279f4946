"""The web client's lobby (issue #16 "Lobby"): register (the token kept in localStorage),
create tables with options of both games, see them listed with their options and free seats,
and a live update (lobbyChanged over the websocket) when another client joins through the API.
"""

from __future__ import annotations

from typing import Any

from tests.client import Client, register
from tests.web.conftest import TOKEN_KEY, Web


def table_ids(page: Any) -> list[str]:
    ids = page.eval_on_selector_all(
        "[data-testid=open-tables] [data-testid^=table-]",
        "nodes => nodes.map(n => n.dataset.testid.slice('table-'.length))",
    )
    return list(ids)


def listed(page: Any, game_id: str) -> Any:
    return page.get_by_test_id("open-tables").get_by_test_id(f"table-{game_id}")


def test_register_create_tables_and_see_another_client_join_live(web: Web) -> None:
    """Erin registers on the page (the token lands in localStorage and the page says who she
    is), creates a 3-player Imhotep table with pyramids on side B, the Wrath of the Pharaoh
    and seat 1 to start (§2), taking seat 0, and an Amun-Re table with the Afterlife and
    Pharaoh modules (§16). Both are listed with their options and free seats; the server holds
    exactly those options. When Frank joins the Imhotep table through the API, the page shows
    him and one seat fewer free without being reloaded (lobbyChanged)."""
    page = web.open("/")
    page.get_by_label("Name").fill("Erin")
    page.get_by_test_id("register").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=whoami]').textContent.includes('Erin')"
    )
    token = page.evaluate(f"() => localStorage.getItem('{TOKEN_KEY}')")
    assert token
    erin = Client(web.server.url, token)
    assert erin.gql("{ me { name } }")["me"]["name"] == "Erin"

    page.get_by_test_id("create-seats").select_option("3")
    page.get_by_test_id("side-pyramids").select_option("B")
    page.get_by_test_id("opt-wrath").check()
    page.get_by_test_id("create-start").select_option("1")
    page.get_by_test_id("create").click()
    page.wait_for_selector("[data-testid=open-tables] [data-testid^=table-]")
    (imhotep,) = table_ids(page)
    row = listed(page, imhotep)
    options = row.get_by_test_id("options").inner_text()
    assert "Pyramids B" in options and "Wrath of the Pharaoh" in options
    assert "seat 2 starts" in options  # seats counted from 1
    assert row.get_by_test_id("free-seats").inner_text() == "2 free"
    assert "Seat 1: Erin" in row.inner_text()

    page.get_by_test_id("create-kind").select_option("AMUN_RE")
    page.get_by_test_id("opt-afterlife").check()
    page.get_by_test_id("opt-pharaoh").check()
    page.get_by_test_id("create-sit").uncheck()
    page.get_by_test_id("create").click()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=open-tables] [data-testid^=table-]').length == 2"
    )
    (amun_re,) = [t for t in table_ids(page) if t != imhotep]
    amun_row = listed(page, amun_re)
    assert amun_row.get_by_test_id("options").inner_text() == "Afterlife module · Pharaoh module"
    assert amun_row.get_by_test_id("free-seats").inner_text() == "3 free"

    query = "query($g: ID!) { game(id: $g) { kind options seats { seat } } }"
    held = erin.gql(query, {"g": imhotep})["game"]
    assert held["kind"] == "IMHOTEP" and len(held["seats"]) == 3
    assert held["options"]["sides"]["pyramids"] == "B"
    assert held["options"]["sides"]["temple"] == "A"
    assert held["options"]["wrath_of_the_pharaoh"] is True
    assert held["options"]["start_player"] == 1
    held = erin.gql(query, {"g": amun_re})["game"]
    assert held["kind"] == "AMUN_RE"
    assert held["options"]["afterlife"] and held["options"]["pharaoh"]
    assert not held["options"]["statues"]

    frank = register(web.server.url, "Frank")
    frank.gql("mutation($g: ID!) { joinGame(gameId: $g) { id } }", {"g": imhotep})
    page.wait_for_function(
        "(id) => document.querySelector("
        "`[data-testid=open-tables] [data-testid=table-${id}] [data-testid=free-seats]`)"
        ".textContent === '1 free'",
        arg=imhotep,
        timeout=10000,
    )
    assert "Seat 2: Frank" in listed(page, imhotep).inner_text()
    assert web.outside == []
    assert web.console_errors == []
    erin.close()
    frank.close()


def test_a_refused_request_is_shown_as_the_server_words_it(web: Web) -> None:
    """Two seats with the same Imhotep colour are refused by the server (§2); the page shows its
    message and code, and lists no new table."""
    alice = register(web.server.url, "Gina")
    page = web.open("/", token=alice.token)
    page.wait_for_selector("[data-testid=open-tables][data-loaded]")
    before = table_ids(page)
    page.get_by_test_id("opt-colour-1").select_option("black")
    page.get_by_test_id("create").click()
    error = page.get_by_test_id("error")
    error.wait_for()
    text = error.inner_text()
    assert "(BAD_INPUT)" in text and "colour" in text
    assert table_ids(page) == before
    alice.close()


def test_join_and_add_a_bot_from_the_lobby_then_play(web: Web) -> None:
    """Kim joins an open table from the lobby (the first free seat), then seats a bot there; the
    table is full, the game starts and the page moves to it, with Kim at seat 0."""
    lee = register(web.server.url, "Lee")
    game_id = lee.gql(
        'mutation { createGame(input: {kind: IMHOTEP, seats: 2, seed: "web-join"}) { id } }'
    )["createGame"]["id"]
    kim = register(web.server.url, "Kim")
    page = web.open("/", token=kim.token)
    listed(page, game_id).wait_for()
    page.get_by_test_id(f"join-{game_id}").first.click()
    page.wait_for_function(
        "(id) => document.querySelector("
        "`[data-testid=open-tables] [data-testid=table-${id}] [data-testid=free-seats]`)"
        ".textContent === '1 free'",
        arg=game_id,
    )
    assert "Seat 1: Kim" in listed(page, game_id).inner_text()
    assert not listed(page, game_id).get_by_test_id(f"join-{game_id}").count()  # seated
    listed(page, game_id).get_by_test_id(f"bot-{game_id}").click()
    page.wait_for_url(f"**/games/{game_id}")
    page.wait_for_selector("[data-testid=board-svg]")
    assert "Kim (seat 1)" in page.get_by_test_id("you").inner_text()
    game = kim.gql(
        "query($g: ID!) { game(id: $g) { status mySeat seats { isBot } } }", {"g": game_id}
    )["game"]
    assert game["status"] == "ACTIVE" and game["mySeat"] == 0
    assert [s["isBot"] for s in game["seats"]] == [False, True]
    assert web.console_errors == []
    lee.close()
    kim.close()


def seated_at_an_open_table(web: Web, name: str, seed: str) -> tuple[Client, str, Any]:
    """``name`` registered, at seat 0 of a new 2-player Imhotep table, and the lobby open on
    the page with that table listed."""
    player = register(web.server.url, name)
    game_id = player.gql(
        "mutation($s: String!) { createGame(input: {kind: IMHOTEP, seats: 2, seed: $s}) { id } }",
        {"s": seed},
    )["createGame"]["id"]
    player.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game_id})
    page = web.open("/", token=player.token)
    listed(page, game_id).wait_for()
    return player, game_id, page


def test_a_bot_level_chosen_in_the_lobby_stays_chosen_when_the_list_is_drawn_again(
    web: Web,
) -> None:
    """Mia picks the mcts level for the bot of her open table; before she clicks "Add a bot",
    another client creates a table, and the lobby's lists are drawn again (lobbyChanged): the
    bot she adds is still an mcts one (issue #16 "Lobby": a bot of a chosen level)."""
    mia, game_id, page = seated_at_an_open_table(web, "Mia", "web-level")
    page.get_by_test_id(f"bot-level-{game_id}").select_option("mcts")
    other = register(web.server.url, "Ned")
    second = other.gql(
        'mutation { createGame(input: {kind: AMUN_RE, seats: 3, seed: "web-level-2"}) { id } }'
    )["createGame"]["id"]
    listed(page, second).wait_for()  # the list was drawn again
    assert page.get_by_test_id(f"bot-level-{game_id}").input_value() == "mcts"
    listed(page, game_id).get_by_test_id(f"bot-{game_id}").click()
    page.wait_for_url(f"**/games/{game_id}")
    seats = mia.gql("query($g: ID!) { game(id: $g) { seats { isBot strategy } } }", {"g": game_id})[
        "game"
    ]["seats"]
    assert [(s["isBot"], s["strategy"]) for s in seats] == [(False, None), (True, "mcts")]
    assert web.console_errors == []
    mia.close()
    other.close()


def test_a_redraw_of_the_lobby_keeps_the_keyboard_focus_where_it_was(web: Web) -> None:
    """Oli has tabbed to the bot-level menu of his open table, then to its "Add a bot" button;
    each time another client opens a table the lists are drawn again (lobbyChanged), and the
    focus stays on the same control, so Enter still adds the bot (issue #16 "Lobby"; a redraw
    used to drop the focus to the page)."""
    oli, game_id, page = seated_at_an_open_table(web, "Oli", "web-focus")
    other = register(web.server.url, "Pia")

    def focused() -> Any:
        return page.evaluate("document.activeElement && document.activeElement.dataset.testid")

    for n, control in enumerate((f"bot-level-{game_id}", f"bot-{game_id}")):
        page.get_by_test_id(control).focus()
        assert focused() == control
        created = other.gql(
            "mutation($s: String!) { createGame(input: {kind: AMUN_RE, seats: 3, seed: $s}) "
            "{ id } }",
            {"s": f"web-focus-{n}"},
        )["createGame"]["id"]
        listed(page, created).wait_for()  # the list was drawn again
        assert focused() == control
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/games/{game_id}")
    seats = oli.gql("query($g: ID!) { game(id: $g) { seats { isBot } } }", {"g": game_id})["game"][
        "seats"
    ]
    assert [s["isBot"] for s in seats] == [False, True]
    assert web.console_errors == []
    oli.close()
    other.close()
