"""The web client by keyboard alone, with what a screen reader hears (issue #24).

A whole Imhotep game against a bot, played with ``page.keyboard`` only (Tab, Shift+Tab, Enter,
Space, typing): register, create the table, add a bot, every move until the game ends. The test
reads the page to know where the focus is (``document.activeElement``) and presses Tab until it
is on the control it wants; it never clicks. After every action the focus is somewhere sensible,
never on ``<body>``; every turn change is said in the live region (``#announcements``, whose
every addition an init script records with a MutationObserver); the bot's moves are said in
words, by its name with its level ("Bot 2 (random)"), the name the lobby, the board and the
replay give it too; seats are numbered from 1.
"""

from __future__ import annotations

import re
from typing import Any

from tests.client import Client, register
from tests.web.conftest import Web

#: every paragraph added to the live regions, recorded from the start of each document
RECORD = """
window.__announced = [];
new MutationObserver((records) => {
  for (const record of records) {
    const region = record.target;
    if (!region || (region.id !== 'announcements' && region.id !== 'alerts')) continue;
    for (const node of record.addedNodes) {
      window.__announced.push({region: region.id, text: node.textContent});
    }
  }
}).observe(document, {childList: true, subtree: true});
"""

ACTIVE = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return {body: true};
  return {body: false, tag: a.tagName, id: a.id, testid: a.getAttribute('data-testid'),
    action: a.getAttribute('data-action'), move: a.getAttribute('data-move'),
    label: a.getAttribute('aria-label'), text: (a.textContent || '').slice(0, 80)};
}"""

MY_MOVE = "[data-action], [data-move]"
UNDO_ENABLED = """() => {
  const button = document.querySelector('[data-testid=undo-request-button]');
  return !!button && !button.disabled;
}"""


def active(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(ACTIVE))


def focus_not_on_body(page: Any, after: str) -> dict[str, Any]:
    now = active(page)
    assert not now["body"], f"the focus fell back to <body> after {after}"
    return now


def announced(page: Any) -> list[str]:
    return [
        a["text"]
        for a in page.evaluate("() => window.__announced")
        if a["region"] == "announcements"
    ]


def tab_to(page: Any, test: str, limit: int = 60, back: bool = False) -> int:
    """Press Tab (Shift+Tab with ``back``) until ``test`` (a JS predicate of the focused
    element) holds; the number of presses."""
    for presses in range(limit + 1):
        if page.evaluate(
            f"() => {{ const a = document.activeElement; return !!a && ({test})(a); }}"
        ):
            return presses
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"{limit} Tabs did not reach {test}; the focus is on {active(page)}")


def wait_said(page: Any, since: int, pattern: str, timeout: float = 20000) -> str:
    """Until an announcement after the first ``since`` ones matches ``pattern``; it."""
    page.wait_for_function(
        "([since, pattern]) => window.__announced.filter((a) => a.region === 'announcements')"
        ".slice(since).some((a) => new RegExp(pattern).test(a.text))",
        arg=[since, pattern],
        timeout=timeout,
    )
    return next(t for t in announced(page)[since:] if re.search(pattern, t))


def version(page: Any) -> int:
    return int(page.evaluate("() => document.querySelector('main').dataset.version || '0'"))


def status(page: Any) -> str:
    return str(page.evaluate("() => document.querySelector('main').dataset.status || ''"))


def test_a_whole_imhotep_game_by_keyboard_alone_with_every_turn_announced(
    web: Web, shoot: Any
) -> None:
    """Keya registers, creates a 2-seat Imhotep table, seats a random bot (the fastest level)
    and plays the whole game, by keyboard only; once she takes her last action back (undo)."""
    context = web.context()
    context.add_init_script(RECORD)
    page = context.new_page()
    page.on("pageerror", lambda error: web.console_errors.append(str(error)))
    page.goto(f"{web.server.url}/")
    page.wait_for_selector("[data-testid=register-form]")
    page.wait_for_selector("[data-testid=open-tables][data-loaded]")

    # register: the page opens with the focus on its heading; the name field comes right after
    # the links to the lists
    page.wait_for_function("() => document.activeElement.tagName === 'H1'")
    presses = tab_to(page, "(a) => a.id === 'register-name'")
    assert presses <= 3, presses
    page.keyboard.type("Keya")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=whoami]').textContent.includes('Keya')"
    )
    page.wait_for_function("() => document.activeElement.id === 'create-kind'")
    focus_not_on_body(page, "Register")
    wait_said(page, 0, "Registered as Keya")
    token = page.evaluate("() => localStorage.getItem('papyrus.token')")
    keya = Client(web.server.url, token)

    # create the table: the game and the seats come first, then "Create the table"
    assert page.locator("#create-kind").input_value() == "IMHOTEP"
    assert page.locator("#create-seats").input_value() == "2"
    presses = tab_to(page, "(a) => a.dataset.testid === 'create'")
    assert presses <= 3, presses
    shoot(page, "keyboard-lobby-create-focused")
    said = len(announced(page))
    page.keyboard.press("Enter")
    wait_said(page, said, "Table created: Imhotep for 2, you sit in seat 1")
    page.wait_for_function("() => document.activeElement.closest('li.table')")
    now = focus_not_on_body(page, "Create")
    assert now["testid"].startswith("bot-level-"), now
    game_id = now["testid"][len("bot-level-") :]
    row = page.get_by_test_id("open-tables").get_by_test_id(f"table-{game_id}")
    assert "Seat 1: Keya" in row.inner_text() and "Seat 2: free" in row.inner_text()

    # add a bot of the fastest level (random, the menu's first): the game page opens with the
    # focus on its heading, not on a move, and says so
    assert page.locator(f"#bot-level-{game_id}").input_value() == "random"
    tab_to(page, f"(a) => a.dataset.testid === 'bot-{game_id}'")
    said = len(announced(page))
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/games/{game_id}")
    page.wait_for_selector("[data-testid=board-svg]")
    page.wait_for_function("() => document.activeElement.dataset.testid === 'game-heading'")
    focus_not_on_body(page, "Add a bot")
    wait_said(page, said, "The table is full: the game starts")
    wait_said(
        page, said, r"Imhotep: you are Keya, seat 1\..*(Your turn|Bot 2 \(random\) is playing)"
    )
    # who is who: the same bot name on the board as in the lobby's words
    assert "Bot 2 (random)" in page.get_by_test_id("board").inner_text()
    assert "Keya (seat 1)" in page.get_by_test_id("you").inner_text()
    first_version = version(page)

    # "Skip to the board", a few Shift+Tabs back at the top of the page, takes the focus there
    tab_to(page, "(a) => a.id === 'skip-board'", back=True, limit=12)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.id === 'board'")
    assert page.url.endswith(f"/games/{game_id}")  # no fragment: still the same page

    moves = 0
    since = said  # announcements before the viewer's last action
    undone = False
    keys = ["Enter", "Space"]
    shot = False
    while True:
        page.wait_for_function(
            "(sel) => document.querySelector('main').dataset.status === 'FINISHED'"
            " || document.querySelector(sel)",
            arg=MY_MOVE,
            timeout=30000,
        )
        if status(page) == "FINISHED":
            break
        # the turn change was said since the viewer's last action (or arrival)
        wait_said(page, since, "Your turn")
        if moves >= 8 and not undone and page.evaluate(UNDO_ENABLED):
            # once, take the last action back (the bot's reply with it): the focus waits on
            # the status line, the page says so, and the turn is the viewer's again
            tab_to(page, "(a) => a.dataset.testid === 'undo-request-button'", limit=250)
            before = version(page)
            said = len(announced(page))
            page.keyboard.press("Enter")
            focus_not_on_body(page, "the undo request")
            wait_said(page, said, "Your last action is taken back|You asked to undo")
            page.wait_for_function(
                "(v) => Number(document.querySelector('main').dataset.version) > v", arg=before
            )
            focus_not_on_body(page, "the undo")
            wait_said(page, said, "Your turn")
            since = said
            undone = True
            continue
        tab_to(page, "(a) => a.hasAttribute('data-action') || a.hasAttribute('data-move')")
        target = active(page)
        assert target["label"] or target["tag"] == "BUTTON", target  # a named control
        if moves % 5 == 3 and target["action"] is not None:
            # the arrow keys go from place to place on the board, and back
            places = page.locator("[data-testid=board] [role=button][tabindex='0']").count()
            page.keyboard.press("ArrowRight")
            place = ("testid", "action")  # (two equal market cards: one action, two places)
            if places > 1:
                moved = active(page)
                assert [moved[k] for k in place] != [target[k] for k in place], target
            page.keyboard.press("ArrowLeft")
            back = active(page)
            assert [back[k] for k in place] == [target[k] for k in place]
        if not shot and moves == 6:
            shoot(page, "keyboard-play-focus-on-a-move")
            shot = True
        before = version(page)
        said = len(announced(page))
        page.keyboard.press(keys[moves % 2])
        focus_not_on_body(page, f"move {moves + 1} ({target['label'] or target['text']})")
        page.wait_for_function(
            "(v) => Number(document.querySelector('main').dataset.version) > v"
            " || document.querySelector('[data-testid=error]')",
            arg=before,
            timeout=20000,
        )
        errors = page.locator("[data-testid=error]")
        assert not errors.count(), errors.first.inner_text()
        focus_not_on_body(page, f"move {moves + 1} drawn")
        # the next turn change is said: the viewer's turn again, another seat's, or the end
        wait_said(page, said, r"Your turn|Bot 2 \(random\) is playing|The game is over")
        since = said
        moves += 1
        assert moves < 400, "the game did not end in 400 moves"

    wait_said(page, 0, r"The game is over: .* won\.")
    focus_not_on_body(page, "the last move")
    shoot(page, "keyboard-play-finished")

    # every turn change after the page opened was said: each of the viewer's turns ("Your
    # turn"), each of the bot's (what it played, by its name)
    nodes: list[dict[str, Any]] = []
    after = None
    while True:
        page_of = keya.gql(
            "query($g: ID!, $a: String) { game(id: $g) { status events(first: 200, after: $a) {"
            " pageInfo { hasNextPage endCursor } nodes { version seat bySeat automatic type } } } }",
            {"g": game_id, "a": after},
        )["game"]
        assert page_of["status"] == "FINISHED"
        nodes += page_of["events"]["nodes"]
        if not page_of["events"]["pageInfo"]["hasNextPage"]:
            break
        after = page_of["events"]["pageInfo"]["endCursor"]
    runs: list[int] = []
    for event in nodes:
        actor = event["bySeat"] if event["bySeat"] is not None else event["seat"]
        if event["version"] <= first_version or event["automatic"] or actor is None:
            continue
        if event["type"] in {"seat_taken", "game_started"}:
            continue
        if not runs or runs[-1] != actor:
            runs.append(actor)
    texts = announced(page)
    bot_said = [t for t in texts if "Bot 2 (random): " in t]
    yours = [t for t in texts if "Your turn" in t]
    assert len(bot_said) >= runs.count(1), (runs, bot_said[-5:])
    assert len(yours) >= runs.count(0), (runs, yours[-5:])
    assert undone and moves >= runs.count(0) - 1
    assert re.search(
        r"Bot 2 \(random\): (placed a stone on ship \d, slot \d|took \d stones?)",
        " ".join(bot_said),
    )
    assert web.console_errors == []
    assert not web.outside, web.outside
    keya.close()


def test_the_lobby_puts_the_main_actions_first_and_numbers_seats_from_one(web: Web) -> None:
    """Signed in, "Create the table" is a few Tabs from the top of the page (right after the
    game and the seats, before the other options); a bot added from the lobby is named by its seat and level there,
    as on the board; joining moves the focus to the table's next control."""
    lee = register(web.server.url, "Lena")
    game_id = lee.gql(
        'mutation { createGame(input: {kind: IMHOTEP, seats: 3, seed: "kb-lobby"}) { id } }'
    )["createGame"]["id"]
    mo = register(web.server.url, "Moss")
    context = web.context(token=mo.token)
    context.add_init_script(RECORD)
    page = context.new_page()
    page.goto(f"{web.server.url}/")
    page.wait_for_selector(f"[data-testid=open-tables] [data-testid=table-{game_id}]")
    page.wait_for_function("() => document.activeElement.tagName === 'H1'")  # the page's heading
    presses = tab_to(page, "(a) => a.dataset.testid === 'create'", limit=8)
    assert presses <= 5, presses
    assert page.get_by_test_id("side-pyramids").is_visible()  # the options come after it
    # the open tables are a jump away (a link near the top takes the focus to their heading),
    # and joining moves the focus on to the table's next control (the bot level)
    tab_to(page, "(a) => a.dataset.testid === 'jump-open-title'", back=True, limit=8)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.id === 'open-title'")
    assert tab_to(page, f"(a) => a.dataset.testid === 'join-{game_id}'", limit=3) == 1
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.activeElement.dataset.testid === 'bot-level-{game_id}'", timeout=10000
    )
    wait_said(page, 0, "You took seat 1")
    tab_to(page, f"(a) => a.dataset.testid === 'bot-{game_id}'")
    page.keyboard.press("Enter")
    wait_said(page, 0, r"Bot 2 \(random\) takes seat 2\. 1 seat still free\.")
    row = page.get_by_test_id("open-tables").get_by_test_id(f"table-{game_id}")
    page.wait_for_function(
        "(id) => document.querySelector(`[data-testid=table-${id}]`).textContent"
        ".includes('Seat 2: Bot 2 (random)')",
        arg=game_id,
    )
    assert "Seat 1: Moss" in row.inner_text() and "Seat 3: free" in row.inner_text()
    assert active(page)["testid"] == f"bot-{game_id}"  # ready for another bot
    assert web.console_errors == []
    lee.close()
    mo.close()


def test_an_error_page_takes_the_focus_to_its_heading(web: Web) -> None:
    """A page that cannot be drawn (no such game) says so in an alert and puts the focus on
    its heading, not on ``<body>``: the next Tab reaches "Back to the lobby"."""
    page = web.open("/games/00000000-0000-4000-8000-000000000000")
    page.get_by_test_id("error").wait_for()
    assert "There is no game" in page.get_by_test_id("error").inner_text()
    now = focus_not_on_body(page, "an error page")
    assert now["tag"] == "H1", now
    page.keyboard.press("Tab")
    assert active(page)["text"] == "Back to the lobby"
    web.console_errors.clear()  # the page's own failed request, logged by Chromium


def test_every_page_opens_with_the_focus_on_its_heading(web: Web) -> None:
    """Issue #24: a page that did not place the focus itself (the leaderboards, my games, a
    page reached by a link its redraw removed) gets it on its heading, never on ``<body>``."""
    for path, heading in (("/leaderboards", "Leaderboards"), ("/my-games", "My games")):
        page = web.open(path)
        page.locator("h1").first.wait_for()
        page.wait_for_function("document.activeElement && document.activeElement.tagName === 'H1'")
        now = focus_not_on_body(page, f"opening {path}")
        assert heading in now["text"], now
