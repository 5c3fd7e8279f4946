"""The web client's pages besides the lobby and the game (issue #24 "Missing pages"): the
leaderboards, a player's profile with a rating chart, "my games", the table form's undo policy
and the "your turn" signal of a hidden tab.

Acceptance 4 of the issue: a finished rated game between two people appears on both profiles
and moves the leaderboard (ratings read on the page before and after it), and its replay is one
click from the profile (the link clicked, the replay viewer shows that very game).

The rated games are played fast, straight into the database the server runs on (as
``tests.service.play.finished_against_bots`` does): two accounts registered there, each playing
listed legal actions drawn from a seeded generator, no seed chosen (a chosen seed makes a table
unranked, ``domain.table.why_unrated``). The browser signs in with those accounts' tokens.

Real server, headless Chromium, every request to another origin recorded and aborted, and every
page's Content-Security-Policy checked (tests/web/conftest.py).
"""

from __future__ import annotations

import base64
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domain import table as tables
from domain.registry import rules_for
from service.app.application import Application
from service.store.database import open_store
from tests.client import Client, wait_game
from tests.service.play import create_table
from tests.web.conftest import PHONE, Web

DESKTOP = {"width": 1280, "height": 800}


@dataclass
class Account:
    name: str
    player_id: str
    token: str


def accounts(server: Any, *names: str) -> list[Account]:
    store = open_store(server.database_url)
    try:
        app = Application(store)
        made = []
        for name in names:
            caller, token = app.accounts.register_player(name)
            assert caller.player_id is not None
            made.append(Account(name, caller.player_id, token))
        return made
    finally:
        store.close()


def finished_between(server: Any, players: list[Account], rng_seed: str) -> str:
    """A 2-player Imhotep game played to its end by ``players`` (seat by seat), written into the
    server's database; returned once the server shows it finished. No seed is chosen: rated."""
    store = open_store(server.database_url)
    try:
        app = Application(store)
        callers = [app.accounts.authenticate(f"Bearer {p.token}") for p in players]
        game_id = str(app.seating.create_game(callers[0], "imhotep", len(players), None, None).id)
        for seat, caller in enumerate(callers):
            app.seating.join_game(caller, game_id, seat)
        rng, rules = random.Random(rng_seed), rules_for("imhotep")
        while True:
            table = app.tables.get(game_id).table
            if table.status != tables.ACTIVE:
                break
            seat = rng.choice(list(rules.active_seats(table.game)))
            app.play.act(callers[seat], game_id, rng.choice(rules.legal_actions(table.game, seat)))
        assert table.status == tables.FINISHED, table.status
    finally:
        store.close()
    spectator = Client(server.url)
    try:
        wait_game(spectator, game_id, lambda game: game["status"] == "FINISHED")
    finally:
        spectator.close()
    return game_id


def decided(server: Any, game_id: str) -> bool:
    """The game has one winner (the seed is the server's: a tie, which moves no rating between
    equal players, can happen)."""
    spectator = Client(server.url)
    try:
        query = "query($g: ID!) { game(id: $g) { result { winners } } }"
        return len(spectator.gql(query, {"g": game_id})["game"]["result"]["winners"]) == 1
    finally:
        spectator.close()


def board_lines(page: Any) -> dict[str, tuple[int, int]]:
    """The Imhotep leaderboard as the page shows it: (rating, games) by player id."""
    page.wait_for_selector("h1")
    rows = page.eval_on_selector_all(
        "[data-testid=leaderboard-imhotep] tbody tr",
        "rows => rows.map(r => [r.dataset.player,"
        " r.querySelector('[data-testid=rating]').textContent,"
        " r.querySelector('[data-testid=games]').textContent])",
    )
    return {pid: (int(rating), int(games)) for pid, rating, games in rows}


def assert_fits_a_phone(page: Any) -> None:
    """No horizontal scrolling; every visible link, button and menu of the page's main part and
    of the header's navigation at least 44×44 px, without a touch screen (the rest of the header
    is the layout's: tests/web/ of issue #24's acceptance 1)."""
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{wide} px of horizontal overflow"
    small = page.evaluate(
        """() => [...document.querySelectorAll('main a, main button, main summary, main select, .pages-nav a')]
          .filter(n => n.offsetParent !== null)
          .map(n => [n.textContent.trim().slice(0, 30), n.getBoundingClientRect()])
          .filter(([, r]) => r.width < 44 || r.height < 44)
          .map(([t, r]) => `${t}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert not small, small


def listed_on(page: Any) -> None:
    """Until "my games" lists the finished games (else the page's text, to tell why not)."""
    try:
        page.wait_for_selector("[data-testid=mine-finished] li", timeout=15000)
    except Exception as failure:
        raise AssertionError(f"{page.url}: {page.inner_text('main')[:600]}") from failure


@pytest.fixture(scope="module")
def league(web_server: Any) -> dict[str, Any]:
    ana, bo = accounts(web_server, "Ana Pages", "Bo Pages")
    first = finished_between(web_server, [ana, bo], "pages-1")
    return {"ana": ana, "bo": bo, "first": first}


def test_a_rated_game_appears_on_both_profiles_moves_the_leaderboard_and_replays_in_one_click(
    web: Web, league: dict[str, Any], shoot: Callable[[Any, str], Path]
) -> None:
    ana, bo = league["ana"], league["bo"]
    page = web.open("/leaderboards/imhotep", viewport=DESKTOP)
    page.wait_for_selector("[data-testid=leaderboard-imhotep]")
    before = board_lines(page)
    assert before[ana.player_id][1] == before[bo.player_id][1] == 1
    if decided(web.server, league["first"]):  # a draw between equals moves no rating
        assert before[ana.player_id][0] != 1500  # a rated game moved them off the start

    second = finished_between(web.server, [bo, ana], "pages-2")  # Bo at seat 0 this time
    page.reload()
    page.wait_for_selector("[data-testid=leaderboard-imhotep]")
    after = board_lines(page)
    assert after[ana.player_id][1] == after[bo.player_id][1] == 2
    if decided(web.server, second):
        assert after[ana.player_id][0] != before[ana.player_id][0]
        assert after[bo.player_id][0] != before[bo.player_id][0]
    # the page ranks them as the server does
    api = Client(web.server.url)
    lines = api.gql(
        "{ leaderboard(kind: IMHOTEP, first: 50) { nodes { rank playerId rating games } } }"
    )["leaderboard"]["nodes"]
    shown_order = page.eval_on_selector_all(
        "[data-testid=leaderboard-imhotep] tbody tr", "rows => rows.map(r => r.dataset.player)"
    )
    assert shown_order == [line["playerId"] for line in lines]
    shoot(page, "pages-leaderboard-desktop")

    # from the leaderboard to Ana's profile: the player's name is a link
    page.get_by_test_id(f"player-{ana.player_id}").click()
    page.wait_for_url(f"**/players/{ana.player_id}")
    page.wait_for_selector("[data-testid=recent-games]")
    assert page.get_by_test_id("profile-name").inner_text() == "Ana Pages"
    assert page.get_by_test_id("games-played").inner_text() == "2"
    recent = page.eval_on_selector_all(
        "[data-testid=recent-games] li", "items => items.map(i => i.dataset.game)"
    )
    assert recent == [second, league["first"]]  # newest first
    chart = page.get_by_test_id("rating-imhotep-chart-svg")
    assert chart.get_attribute("role") == "img"
    sentence = page.locator("[data-testid=rating-imhotep-chart-svg] desc").text_content() or ""
    assert "over 2 rated games: from 1500 to" in sentence
    assert str(after[ana.player_id][0]) in sentence
    assert page.locator("[data-testid=rating-imhotep-chart-svg] circle").count() == 3  # 1500, +2
    # the chart's text alternative: every point as a table, each with its game's replay
    page.locator("[data-testid=rating-imhotep-chart] details summary").click()
    points = page.locator("[data-testid=rating-imhotep-chart] table tbody tr")
    assert points.count() == 2
    assert points.nth(1).get_by_role("link").get_attribute("href") == f"/games/{second}"
    shoot(page, "pages-profile-desktop")

    # Bo's profile has the same game, and its replay is one click away
    page.goto(f"{web.server.url}/players/{bo.player_id}")
    page.wait_for_selector("[data-testid=recent-games]")
    assert page.locator(f"[data-testid=recent-games] li[data-game='{second}']").count() == 1
    page.get_by_test_id(f"replay-{second}").click()
    page.wait_for_url(f"**/games/{second}")
    replay = page.locator(f"[data-testid=replay][data-game-id='{second}']")
    replay.wait_for()
    assert replay.get_attribute("data-kind") == "IMHOTEP"
    page.wait_for_selector("[data-testid=verify][data-ok=true]")

    # the same pages on a phone
    phone = web.open(f"/players/{ana.player_id}", viewport=PHONE)
    phone.wait_for_selector("[data-testid=recent-games]")
    assert_fits_a_phone(phone)
    shoot(phone, "pages-profile-phone")
    phone.goto(f"{web.server.url}/leaderboards")
    phone.wait_for_selector("[data-testid=leaderboard-imhotep]")
    assert phone.get_by_test_id("leaderboard-amun_re-empty").is_visible()
    assert_fits_a_phone(phone)
    shoot(phone, "pages-leaderboards-phone")
    assert not web.outside


def test_my_games_lists_open_running_and_finished_tables(
    web: Web, league: dict[str, Any], shoot: Callable[[Any, str], Path]
) -> None:
    ana, bo = league["ana"], league["bo"]
    ana_api, bo_api = Client(web.server.url, ana.token), Client(web.server.url, bo.token)
    open_table = ana_api.gql(
        "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }",
        {"i": {"kind": "AMUN_RE", "seats": 3}},
    )["createGame"]["id"]
    ana_api.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": open_table})
    running = create_table([ana_api, bo_api], "IMHOTEP")

    page = web.open("/", token=ana.token, viewport=DESKTOP)
    page.get_by_role("navigation", name="Pages").get_by_role("link", name="My games").click()
    page.wait_for_url("**/my-games")
    listed_on(page)

    def listed(section: str) -> list[str]:
        return list(
            page.eval_on_selector_all(
                f"[data-testid=mine-{section}] li", "items => items.map(i => i.dataset.game)"
            )
        )

    assert listed("open") == [open_table]
    assert listed("running") == [running]
    assert league["first"] in listed("finished")
    assert page.locator("h1").inner_text() == "My games"
    link = page.get_by_role("navigation", name="Pages").get_by_role("link", name="My games")
    assert link.get_attribute("aria-current") == "page"
    # the header's name is a link to the player's own profile
    assert page.get_by_test_id("whoami-profile").get_attribute("href") == (
        f"/players/{ana.player_id}"
    )
    shoot(page, "pages-mygames-desktop")

    phone = web.open("/my-games", token=ana.token, viewport=PHONE)
    listed_on(phone)
    assert_fits_a_phone(phone)
    shoot(phone, "pages-mygames-phone")

    # each list links to its game: the running one to the game page, a finished one to its replay
    page.get_by_test_id(f"go-{running}").click()
    page.wait_for_url(f"**/games/{running}")
    page.wait_for_selector("[data-testid=board]")
    page.go_back()
    listed_on(page)
    page.get_by_test_id(f"go-{league['first']}").click()
    page.locator(f"[data-testid=replay][data-game-id='{league['first']}']").wait_for()

    # signed out, the page says how to get a list
    spectator = web.open("/my-games", viewport=PHONE)
    spectator.get_by_test_id("mygames-signed-out").wait_for()
    assert_fits_a_phone(spectator)


def test_the_undo_policy_chosen_in_the_table_form_is_the_tables(
    web: Web, league: dict[str, Any], shoot: Callable[[Any, str], Path]
) -> None:
    ana = league["ana"]
    api = Client(web.server.url, ana.token)
    page = web.open("/", token=ana.token, viewport=PHONE)

    def open_the_form() -> None:
        """The lobby may fold the rarer options away ("More options"): unfold them."""
        page.get_by_test_id("create-undo").wait_for(state="attached")
        if not page.get_by_test_id("create-undo").is_visible():
            page.get_by_test_id("more-options-toggle").click()

    open_the_form()
    page.get_by_test_id("create-undo").select_option("off")
    assert page.get_by_label("Undo").input_value() == "off"  # the select has its label
    shoot(page, "pages-tableform-phone")
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the form with its undo menu scrolls {wide} px sideways on a phone"
    tables = "{ games(status: OPEN, first: 200) { nodes { id undoAllowed } } }"
    known = {g["id"] for g in api.gql(tables)["games"]["nodes"]}
    page.get_by_test_id("create").click()

    def created() -> list[dict[str, Any]]:
        """The table the form made (once it is made)."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            nodes = api.gql(tables)["games"]["nodes"]
            if fresh := [g for g in nodes if g["id"] not in known]:
                return fresh
            time.sleep(0.05)
        raise AssertionError("the form made no table")

    (made,) = created()
    assert made["undoAllowed"] is False
    page.wait_for_function(  # the form seats its maker too
        "(id) => document.querySelector(`[data-testid=my-games] [data-testid=table-${id}]`)",
        arg=made["id"],
    )
    page.goto(f"{web.server.url}/games/{made['id']}")
    page.get_by_test_id("undo").get_by_text("Undo is off at this table").wait_for()

    # left as it is, the policy is the server's default: undo allowed
    page.goto(f"{web.server.url}/")
    known |= {made["id"]}
    page.get_by_test_id("create").click()
    (default,) = created()
    assert default["undoAllowed"] is True


#: makes ``document.hidden`` the test's to set (``window.__hide(true)``): a headless page is
#: always visible, and Playwright cannot send a tab to the background
HIDDEN_SWITCH = """
(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: () => hidden});
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible")});
  window.__hide = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""


def test_your_turn_marks_the_title_and_favicon_of_a_hidden_tab(
    web: Web, league: dict[str, Any], screenshot_folder: Path
) -> None:
    """What this proves: the page's own logic, given ``document.hidden`` and the
    ``visibilitychange`` event as a browser sends them when a tab goes to the background (both
    simulated here, see HIDDEN_SWITCH), prefixes the title and swaps the favicon for a badge
    exactly while the tab is hidden and it is the player's turn, including when the turn comes
    while hidden (the other player moves through the API), and puts both back when the tab is
    visible again. It does not prove how a real browser's tab strip shows them."""
    ana, bo = league["ana"], league["bo"]
    ana_api, bo_api = Client(web.server.url, ana.token), Client(web.server.url, bo.token)
    game_id = create_table([ana_api, bo_api], "IMHOTEP")
    state = "query($g: ID!) { game(id: $g) { version activeSeats mySeat legalActions } }"
    first = ana_api.gql(state, {"g": game_id})["game"]
    (turn,) = first["activeSeats"]
    to_move, waiting = (ana_api, bo_api) if turn == 0 else (bo_api, ana_api)
    waiter = ana if waiting is ana_api else bo

    context = web.context(DESKTOP, waiter.token)
    context.add_init_script(HIDDEN_SWITCH)
    page = context.new_page()
    page.goto(f"{web.server.url}/games/{game_id}")
    page.wait_for_selector("[data-testid=board] svg")
    title = page.title()
    icon = "() => document.querySelector('link[rel~=icon]').getAttribute('href')"
    plain_icon = page.evaluate(icon)

    page.evaluate("() => window.__hide(true)")  # not this player's turn: nothing changes
    assert page.title() == title and page.evaluate(icon) == plain_icon

    mover = to_move.gql(state, {"g": game_id})["game"]
    to_move.gql(
        "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v)"
        " { game { version } } }",
        {"g": game_id, "a": mover["legalActions"][0], "v": mover["version"]},
    )
    page.wait_for_function("() => document.title.startsWith('(Your turn) ')")
    assert page.title() == f"(Your turn) {title}"
    badge = page.evaluate(icon)
    assert badge.startswith("data:image/png;base64,")
    (screenshot_folder / "pages-yourturn-favicon.png").write_bytes(
        base64.b64decode(badge.split(",", 1)[1])
    )

    page.evaluate("() => window.__hide(false)")  # back in front: cleared
    assert page.title() == title
    assert page.evaluate(icon) == plain_icon
    page.evaluate("() => window.__hide(true)")  # hidden again while still its turn: marked again
    assert page.title() == f"(Your turn) {title}"
    page.evaluate("() => window.__hide(false)")
    assert page.title() == title


def test_a_page_left_while_it_loads_does_not_draw_over_the_next(
    web: Web, league: dict[str, Any]
) -> None:
    """The lobby waits for the board modules before it draws; a player who follows the
    header's "Leaderboards" meanwhile gets the leaderboards, and keeps them once the lobby's
    modules arrive (the router draws the newer page again, app.js)."""
    held: list[Any] = []
    page = web.context(DESKTOP).new_page()

    def hold(route: Any) -> None:
        held.append(route)

    page.route("**/app/boards/**", hold)
    page.goto(f"{web.server.url}/")
    while not held:
        page.wait_for_timeout(20)
    page.get_by_role("navigation", name="Pages").get_by_role("link", name="Leaderboards").click()
    page.get_by_role("heading", level=1, name="Leaderboards").wait_for()
    for route in held:
        route.continue_()
    page.wait_for_function(
        "() => document.querySelector('h1')?.textContent === 'Leaderboards'"
        " && document.querySelector('[data-testid=leaderboard-imhotep]')"
    )
    page.wait_for_timeout(1500)  # the lobby, left, has had its modules and its answers
    assert page.locator("h1").inner_text() == "Leaderboards"
    assert page.url.endswith("/leaderboards")
