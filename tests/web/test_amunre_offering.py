"""Amun-Re in the web client (issue #16): two players in two browser contexts (and a bot) play
round 1 by clicking the board and the move list up to and into the Offering, where each seat's
gold is secret until every seat has committed (R11.1-R11.2; the view's allow-list, §17).

Neither page ever shows the other's commitment: not in the DOM, and not in any GraphQL answer
or websocket frame the page received (recorded with ``page.on("response")`` and
``page.on("websocket")``). Each page shows its own amount. Real server, headless Chromium,
every request to another origin aborted (tests/web/conftest.py).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.client import Client, register
from tests.web.conftest import PHONE, Web

GAME_STATE = "query($g: ID!) { game(id: $g) { version mySeat state moves { type label action } } }"


class Recorder:
    """Every GraphQL answer and websocket frame one page received."""

    def __init__(self, page: Any) -> None:
        self.responses: list[Any] = []
        self.frames: list[str] = []
        page.on("response", lambda response: self.responses.append(response))
        page.on("websocket", lambda ws: ws.on("framereceived", self.frame))

    def frame(self, payload: Any) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def documents(self) -> list[Any]:
        out = []
        for response in self.responses:
            if "/graphql" in response.url and response.request.method == "POST":
                out.append(json.loads(response.text()))
        out.extend(json.loads(frame) for frame in self.frames)
        return out


def walk(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def assert_no_commitment_of_others(documents: list[Any], seat: int) -> int:
    """What ``seat``'s page received holds no other seat's Offering amount (R11.2): every
    ``you``/``offer`` is its own, another seat's ``offering_committed`` carries no data, and no
    Offering has been revealed (``lastOffering``) yet. Returns how many objects were checked."""
    checked = 0
    for document in documents:
        for node in walk(document):
            checked += 1
            you = node.get("you")
            if isinstance(you, dict):
                assert you.get("seat") == seat, you
            if node.get("type") == "offering_committed" and node.get("seat") not in (None, seat):
                assert not node.get("data"), node
            for key in ("lastOffering", "last_offering"):
                assert node.get(key) is None, node
    return checked


def state_of(client: Client, game: str) -> dict[str, Any]:
    return dict(client.gql(GAME_STATE, {"g": game})["game"])


def wait_drawn(page: Any, version: int) -> None:
    page.wait_for_function(
        "(v) => Number(document.querySelector('main').dataset.version) >= v",
        arg=version,
        timeout=20000,
    )


def click_move(page: Any, index: int) -> None:
    """The move's place on the board, or its button in the list."""
    target = page.locator(f'[data-testid=board] [data-action="{index}"], [data-move="{index}"]')
    target.first.click()


def test_two_players_play_into_the_offering_and_never_see_each_others_commitment(
    web: Web, shoot: Any
) -> None:
    """R11.1-R11.2: the other seat's commitment shows only as "committed", on the page and in
    every answer the page got; each page shows its own amount; the reveal shows both."""
    ann, bob = register(web.server.url, "Ann"), register(web.server.url, "Bob")
    game = ann.gql(
        'mutation { createGame(input: {kind: AMUN_RE, seats: 3, seed: "offering-1"}) { id } }'
    )["createGame"]["id"]
    ann.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game})
    bob.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 1) { id } }", {"g": game})
    ann.gql("mutation($g: ID!) { addBot(gameId: $g, seat: 2) { id } }", {"g": game})

    pages, records = {}, {}
    for seat, player in ((0, ann), (1, bob)):  # recording from the very first request
        pages[seat] = web.context(token=player.token).new_page()
        records[seat] = Recorder(pages[seat])
        pages[seat].goto(f"{web.server.url}/games/{game}")
    clients = {0: ann, 1: bob}
    clicks = {"board": 0, "list": 0}
    shots: list[Any] = []

    # round 1 by the first legal move of whoever must act, until both humans are to commit
    for _ in range(80):
        states = {seat: state_of(client, game) for seat, client in clients.items()}
        if all(s["state"]["decision"] == "commit" and s["moves"] for s in states.values()):
            break
        movers = [seat for seat, s in states.items() if s["moves"]]
        if not movers:
            pages[0].wait_for_timeout(100)  # a bot acting on its own
            continue
        seat = movers[0]
        wait_drawn(pages[seat], states[seat]["version"])
        if states[seat]["state"]["phase"] == "auction" and not shots:
            shots.append(shoot(pages[seat], "amunre-play-auction-desktop"))
        board = pages[seat].locator('[data-testid=board] [data-action="0"]').count()
        clicks["board" if board else "list"] += 1
        click_move(pages[seat], 0)
        pages[seat].wait_for_function(
            "(v) => Number(document.querySelector('main').dataset.version) > v"
            " || document.querySelector('[data-testid=error]')",
            arg=states[seat]["version"],
            timeout=20000,
        )
        errors = pages[seat].locator("[data-testid=error]")
        # a bot that answers a moment later may have moved first: the page re-reads the game
        assert not errors.count() or "CONFLICT" in errors.first.inner_text(), (
            errors.first.inner_text()
        )
    else:
        raise AssertionError("never reached the Offering")
    assert clicks["board"] and clicks["list"], clicks
    assert states[0]["state"]["phase"] == "offering"

    # Ann commits an amount by its chip in the Offering panel
    ann_gold = states[0]["state"]["you"]["gold"]
    amount = 7 if ann_gold >= 7 else 1
    moves = states[0]["moves"]
    index = next(
        i for i, m in enumerate(moves) if m["action"] == {"type": "commit_gold", "gold": amount}
    )
    wait_drawn(pages[0], states[0]["version"])
    chip = pages[0].locator(f'[data-testid=offering] [data-action="{index}"]')
    assert chip.count() == 1, "the commitment is a place on the board (the Offering)"
    chip.click()

    # Bob's page learns that Ann committed, and nothing more
    pages[1].wait_for_selector('[data-testid=offering-0][data-committed="true"]', timeout=20000)
    pages[0].wait_for_selector('[data-testid=offering-0][data-committed="true"]', timeout=20000)
    bob_sees = pages[1].locator("[data-testid=offering-0]").text_content() or ""
    assert re.fullmatch(r"\D*: committed", bob_sees.strip()), bob_sees
    ann_sees = pages[0].locator("[data-testid=offering-0]").text_content() or ""
    assert f"you offer {amount} gold" in ann_sees, ann_sees
    body = pages[1].locator("main").inner_text()
    for leak in (f"offer {amount} gold", f"offered {amount}", f"Offer {amount} gold"):
        assert leak not in body
    assert bob.gql(GAME_STATE, {"g": game})["game"]["state"]["you"]["offer"] is None

    # every answer and frame each page got, up to here: nobody else's amount
    got = {seat: record.documents() for seat, record in records.items()}
    assert assert_no_commitment_of_others(got[1], 1) > 100
    assert assert_no_commitment_of_others(got[0], 0) > 100
    assert any(
        n.get("type") == "offering_committed" and n.get("seat") == 0
        for d in got[1]
        for n in walk(d)
    ), "Bob's page heard of Ann's commitment (without its amount)"

    shoot(pages[0], "amunre-play-offering-desktop")
    phone = web.open(f"/games/{game}", token=ann.token, viewport=PHONE)
    wait_drawn(phone, state_of(ann, game)["version"])
    shoot(phone, "amunre-play-offering-phone")

    # Bob commits too: the Offering is revealed (R11.3) and both pages show both amounts
    bob_state = state_of(bob, game)
    wait_drawn(pages[1], bob_state["version"])
    theft = next(i for i, m in enumerate(bob_state["moves"]) if m["type"] == "commit_gold")
    click_move(pages[1], theft)
    for page in pages.values():
        page.wait_for_selector("[data-testid=offering] >> text=Revealed", timeout=20000)
        assert (
            f"offered {amount} gold" in page.locator("[data-testid=offering-0]").text_content()
            or ""
        )
    assert not web.outside, web.outside


def test_the_leak_check_catches_another_seats_commitment() -> None:
    """The check above can fail: another seat's amount in an event, a ``you`` of another seat,
    or an Offering revealed early, wherever they sit in an answer or a frame."""
    fine = {"data": {"game": {"view": {"you": {"seat": 1, "offer": {"offer": "GOLD", "gold": 4}}}}}}
    assert assert_no_commitment_of_others([fine], 1) > 0
    leaks = [
        {
            "payload": {
                "data": {
                    "gameChanged": {
                        "event": {"type": "offering_committed", "seat": 0, "data": {"gold": 7}}
                    }
                }
            }
        },
        {"data": {"game": {"state": {"you": {"seat": 0, "offer": {"offer": "gold", "gold": 7}}}}}},
        {"data": {"game": {"view": {"lastOffering": [{"seat": 0, "offer": "GOLD", "gold": 7}]}}}},
    ]
    for leak in leaks:
        with pytest.raises(AssertionError):
            assert_no_commitment_of_others([leak], 1)
