"""Layouts and accessibility of the web client (issue #24), in Debian's Chromium.

At 390×844 and at 320×568 on a phone (``is_mobile``, ``has_touch``: ``pointer: coarse``
applies), on the lobby, an Imhotep and an Amun-Re game page (real games against bots, at moments
the viewer has places to click on the board: ships' slots, docks and market cards; the bid
track, then provinces and hand cards), the replay viewer of each game, the leaderboards and a
profile (two rated games between two people, ``tests.web.test_pages.finished_between``), and
"my games": no
horizontal scrolling, no visible control under 44×44 px, no text box over another in the same
row or panel, no board text under 12 px as drawn (tests/web/layout_probe.js measures them); and
axe-core, installed from npm (``tests/web/axe``: ``npm ci`` from its lock file) and run in the
page, reports no serious or critical violation there, at 390×844 and at 1280×800 (where the
page does not scroll sideways, no text overlaps and the board's text is 12 px or more too).
Screenshots of every page at every size are saved (tests/web/conftest.py ``shoot``) to be looked
at.

axe's source is evaluated by Playwright (the DevTools protocol), not added as a ``<script>``:
the pages' Content-Security-Policy refuses inline scripts, and the ``web`` fixture fails a test
whose page broke its policy.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.client import Client, register
from tests.conftest import IN_CI
from tests.service.play import finished_against_bots
from tests.web.conftest import PHONE, Web
from tests.web.test_pages import accounts, finished_between

AXE = Path(__file__).parent / "axe"
PROBE = (Path(__file__).parent / "layout_probe.js").read_text()
DESKTOP = {"width": 1280, "height": 800}
TOUCH = {"is_mobile": True, "has_touch": True}
TARGET = 44  # px: the smallest control a finger should have to hit
MIN_FONT = 12  # px: the smallest board text as drawn
GAME = "query($g: ID!) { game(id: $g) { version status activeSeats moves { type action } } }"
ACT = (
    "mutation($g: ID!, $a: JSON!, $v: Int) { act(gameId: $g, action: $a, expectedVersion: $v)"
    " { game { version } } }"
)


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's browser bundle, from ``npm ci`` in tests/web/axe (kept between runs)."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        reason = "node/npm are not installed: axe-core cannot be installed here"
        if IN_CI:
            pytest.fail(f"{reason} (CI=true: this check must run)")
        pytest.skip(reason)
    package = AXE / "node_modules" / "axe-core"
    locked = json.loads((AXE / "package-lock.json").read_text())
    wanted = locked["packages"]["node_modules/axe-core"]["version"]
    installed = package / "package.json"
    if not installed.exists() or json.loads(installed.read_text())["version"] != wanted:
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=AXE, check=True, timeout=300)
    return (package / "axe.min.js").read_text()


def state(client: Client, game: str) -> dict[str, Any]:
    return dict(client.gql(GAME, {"g": game})["game"])


def play_until(client: Client, game: str, done: Any, prefer: tuple[str, ...] = ()) -> None:
    """``client`` plays its first legal move (one of the types in ``prefer`` first) until
    ``done(moves)`` holds for its moves; the bots answer on their own."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        game_state = state(client, game)
        moves = game_state["moves"]
        if not moves:
            assert game_state["status"] == "ACTIVE", game_state["status"]
            time.sleep(0.05)
            continue
        if done(moves):
            return
        move = next((m for m in moves if m["type"] in prefer), moves[0])
        try:
            client.gql(ACT, {"g": game, "a": move["action"], "v": game_state["version"]})
        except Exception as failure:  # a bot moved first: read again
            if "CONFLICT" not in str(failure):
                raise
    raise AssertionError("the game never came to the wanted moment")


@pytest.fixture(scope="module")
def games(web_server: Any) -> dict[str, Any]:
    """Running games at a moment the viewer has places to click on the board, and finished
    ones for the replay viewer."""
    url = web_server.url
    alice = register(url, "Alice Longname")
    imhotep = alice.gql(
        "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }",
        {
            "i": {
                "kind": "IMHOTEP",
                "seats": 2,
                "seed": "layout-imhotep",
                "options": {"start_player": 0},
            }
        },
    )["createGame"]["id"]
    alice.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": imhotep})
    alice.gql('mutation($g: ID!) { addBot(gameId: $g, strategy: "random") { id } }', {"g": imhotep})
    # until a ship may sail: slots, docks and the market all have places on the board
    play_until(
        alice,
        imhotep,
        lambda moves: any(m["type"] == "sail" for m in moves),
        prefer=("place_stone", "get_stones"),
    )
    amunre = alice.gql(
        'mutation { createGame(input: {kind: AMUN_RE, seats: 3, seed: "layout-amunre"}) { id } }'
    )["createGame"]["id"]
    alice.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": amunre})
    for _ in range(2):
        alice.gql(
            'mutation($g: ID!) { addBot(gameId: $g, strategy: "random") { id } }', {"g": amunre}
        )
    # an auction where Alice bids on the bid track
    play_until(alice, amunre, lambda moves: any(m["type"] == "bid" for m in moves))
    # two rated games between two people: a leaderboard, profiles with a rating chart
    rhea, sam = accounts(web_server, "Rhea", "Sam")
    for seed in ("layout-rated-1", "layout-rated-2"):
        finished_between(web_server, [rhea, sam], seed)
    # an open table in the lobby, its bot level and "Add a bot" shown
    open_table = alice.gql("mutation { createGame(input: {kind: IMHOTEP, seats: 3}) { id } }")[
        "createGame"
    ]["id"]
    alice.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": open_table})
    return {
        "leaderboard": "/leaderboards",
        "profile": f"/players/{rhea.player_id}",
        "my-games": "/my-games",
        "alice": alice,
        "imhotep": imhotep,
        "amunre": amunre,
        "replay-imhotep": finished_against_bots(
            web_server.database_url, "IMHOTEP", 2, "layout-replay-i", heard_by=url
        ),
        "replay-amunre": finished_against_bots(
            web_server.database_url, "AMUN_RE", 3, "layout-replay-a", heard_by=url
        ),
    }


def open_page(
    web: Web, name: str, games: dict[str, Any], viewport: dict[str, int], **options: Any
) -> Any:
    alice = games["alice"]
    if name == "lobby":
        page = web.open("/", token=alice.token, viewport=viewport, **options)
        page.wait_for_selector("[data-testid=open-tables][data-loaded]")
    elif name in ("leaderboard", "profile", "my-games"):
        page = web.open(games[name], token=alice.token, viewport=viewport, **options)
        page.wait_for_selector(
            {
                "leaderboard": "table.leaderboard",
                "profile": "[data-testid=profile-name]",
                "my-games": "[data-testid=my-profile]",
            }[name]
        )
    elif name in ("imhotep", "amunre"):
        page = web.open(f"/games/{games[name]}", token=alice.token, viewport=viewport, **options)
        page.wait_for_selector("main[data-version] svg.board")
    else:
        page = web.open(
            f"/games/{games[name]}?v=1000000", token=alice.token, viewport=viewport, **options
        )
        page.wait_for_selector("[data-testid=replay-board][data-version] svg.board")
    page.wait_for_timeout(150)  # fonts and the last layout
    return page


def probe(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(PROBE, {"target": TARGET, "minFont": MIN_FONT}))


def assert_phone_layout(page: Any, where: str) -> None:
    found = probe(page)
    overflow = found["overflow"]
    # a phone's browser zooms a page wider than the screen out (its innerWidth grows): the
    # page must fit the screen's width itself
    width = page.viewport_size["width"]
    assert overflow["scrollWidth"] <= min(overflow["innerWidth"], width), (
        f"{where}: scrolls sideways {overflow}"
    )
    assert not found["small"], f"{where}: controls under {TARGET} px: {found['small'][:12]}"
    assert not found["overlaps"], f"{where}: text over text: {found['overlaps'][:12]}"
    assert not found["tinyText"], (
        f"{where}: board text under {MIN_FONT} px: {found['tinyText'][:12]}"
    )


def assert_axe(page: Any, axe_source: str, where: str) -> None:
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(axe_source)  # through the DevTools protocol: no inline script
    found = page.evaluate(
        """async () => {
          const result = await axe.run(document, {resultTypes: ["violations"]});
          return {
            rules: result.passes.length + result.violations.length,
            serious: result.violations
              .filter((v) => v.impact === "serious" || v.impact === "critical")
              .map((v) => `${v.id} (${v.impact}): ${v.help} — ` + v.nodes.slice(0, 4)
                .map((n) => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\\s+/g, " "))
                .join(" | ")),
          };
        }"""
    )
    assert found["rules"] > 20, f"{where}: axe checked only {found['rules']} rules"
    assert not found["serious"], f"{where}: axe: {found['serious']}"


PAGES = [
    *("lobby", "imhotep", "amunre", "replay-imhotep", "replay-amunre"),
    *("leaderboard", "profile", "my-games"),
]


@pytest.mark.parametrize("name", PAGES)
def test_a_page_holds_on_a_phone_and_passes_axe_at_both_sizes(
    name: str, web: Web, games: dict[str, Any], axe_source: str, shoot: Any
) -> None:
    """The page at 390×844 on a touch screen: no sideways scrolling, every control at least
    44×44 px, no text over text, board text at least 12 px; axe finds no serious or critical
    violation there nor at 1280×800."""
    phone = open_page(web, name, games, PHONE, **TOUCH)
    shoot(phone, f"a11y-{name}-phone")
    assert_phone_layout(phone, f"{name} at 390×844")
    assert_axe(phone, axe_source, f"{name} at 390×844")
    desktop = open_page(web, name, games, DESKTOP)
    shoot(desktop, f"a11y-{name}-desktop")
    found = probe(desktop)
    assert found["overflow"]["scrollWidth"] <= DESKTOP["width"], found["overflow"]
    assert not found["overlaps"], f"{name} at 1280×800: text over text: {found['overlaps'][:12]}"
    assert not found["tinyText"], f"{name} at 1280×800: small board text: {found['tinyText'][:12]}"
    assert_axe(desktop, axe_source, f"{name} at 1280×800")
    assert web.outside == []
    assert web.console_errors == []


SMALL_PHONE = {"width": 320, "height": 568}
TABLET = {"width": 800, "height": 1100}


@pytest.mark.parametrize("name", PAGES)
def test_a_page_holds_on_a_small_phone(
    name: str, web: Web, games: dict[str, Any], shoot: Any
) -> None:
    """The narrowest phones (320 px wide): the same layout checks as at 390 px."""
    page = open_page(web, name, games, SMALL_PHONE, **TOUCH)
    shoot(page, f"a11y-{name}-320")
    assert_phone_layout(page, f"{name} at 320×568")
    assert web.console_errors == []


@pytest.mark.parametrize("name", ["imhotep", "amunre", "replay-imhotep", "replay-amunre"])
def test_a_board_holds_on_a_tablet(name: str, web: Web, games: dict[str, Any], shoot: Any) -> None:
    """Between a phone and a desktop (800 px wide, a mouse): no sideways scrolling, no text over
    text, board text at least 12 px."""
    page = open_page(web, name, games, TABLET)
    shoot(page, f"a11y-{name}-800")
    found = probe(page)
    assert found["overflow"]["scrollWidth"] <= TABLET["width"], found["overflow"]
    assert not found["overlaps"], f"{name} at 800 px: text over text: {found['overlaps'][:12]}"
    assert not found["tinyText"], f"{name} at 800 px: small board text: {found['tinyText'][:12]}"
    assert web.console_errors == []


def test_amunre_places_on_provinces_and_cards_hold_on_a_phone(
    web: Web, games: dict[str, Any], shoot: Any
) -> None:
    """Later in the Amun-Re round the viewer's places are on the provinces and its hand
    (a farmer, a stone, a card to play): at 390×844 on a touch screen they are 44×44 px too,
    and the page keeps its layout."""
    alice = games["alice"]
    play_until(
        alice,
        games["amunre"],
        lambda moves: any("province" in m["action"] and m["type"] != "bid" for m in moves),
    )
    phone = open_page(web, "amunre", games, PHONE, **TOUCH)
    shoot(phone, "a11y-amunre-later-phone")
    assert_phone_layout(phone, "Amun-Re, places on provinces, at 390×844")
    assert web.console_errors == []
