"""The replay viewer of the web client (issue #16): a finished game of each kind scrubbed from its
first event to its last (buttons, keyboard, play at a speed, jump to a round), the scores drawn
at the end equal to the game's ``result``; a shared link ``/games/<id>?v=<n>`` opened by a
spectator with no account; the log's verdict with the hash chain's head; the export link.

Real server, headless Chromium, every request to another origin recorded and aborted
(tests/web/conftest.py). The games are played to their end by a host and random bots.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.client import Client, events_of, register
from tests.service.play import finished_against_bots
from tests.web.conftest import PHONE, Web


def finished_game(server: Any, kind: str, seats: int, seed: str) -> str:
    """A game played to its end by a host and ``random`` bots (``finished_against_bots``)."""
    return finished_against_bots(server.database_url, kind, seats, seed, heard_by=server.url)


@pytest.fixture(scope="module")
def games(web_server: Any) -> dict[str, str]:
    return {
        "AMUN_RE": finished_game(web_server, "AMUN_RE", 3, "replay-amun-re"),
        "IMHOTEP": finished_game(web_server, "IMHOTEP", 2, "replay-imhotep"),
    }


def shown(page: Any) -> int:
    return int(page.locator("[data-testid=replay-version]").get_attribute("data-version"))


def wait_version(page: Any, version: int, timeout: float = 20000) -> None:
    """Until the slider says ``version`` and the board drawn is the one right after it."""
    page.wait_for_function(
        "(v) => document.querySelector('[data-testid=replay-version]')?.dataset.version === String(v)"
        " && document.querySelector('[data-testid=replay-board]')?.dataset.version === String(v)",
        arg=version,
        timeout=timeout,
    )


def drawn_scores(page: Any, seats: int) -> list[int]:
    scores = []
    for seat in range(seats):
        text = page.locator(
            f"[data-testid=replay-board] [data-testid=score-{seat}]"
        ).first.text_content()
        match = re.search(r"-?\d+", text or "")
        assert match, text
        scores.append(int(match.group()))
    return scores


@pytest.mark.parametrize("kind", ["AMUN_RE", "IMHOTEP"])
def test_a_finished_game_is_scrubbed_from_start_to_end_and_its_drawn_scores_are_its_result(
    web: Web, games: dict[str, str], kind: str, shoot: Any
) -> None:
    """Issue #16 acceptance 1: slider, step buttons, the arrow keys and play at a speed go
    from the first event to the last; at the end the board's scores equal ``result`` (§13 /
    R15); a finished game shows the whole truth (every event, R7.9 lifted once over)."""
    game = games[kind]
    spectator = Client(web.server.url)
    facts = spectator.gql(
        "query($g: ID!) { game(id: $g) { version seats { seat } result { scores winners } } }",
        {"g": game},
    )["game"]
    last, seats, result = facts["version"], len(facts["seats"]), facts["result"]
    events = events_of(spectator, game, "version type hash")
    assert [e["version"] for e in events] == list(range(1, last + 1))

    page = web.open(f"/games/{game}")  # a finished game opens in the replay viewer, at its end
    wait_version(page, last)
    assert page.url.endswith(f"/games/{game}?v={last}")
    assert drawn_scores(page, seats) == result["scores"]
    shoot(page, f"replay-{kind.lower()}-end-desktop")

    # the verdict of the log, with the head of its hash chain
    verdict = page.locator("[data-testid=verify]")
    assert verdict.get_attribute("data-ok") == "true"
    assert f"Log verified: {last} events" in verdict.inner_text()
    assert page.locator("[data-testid=chain-head]").get_attribute("data-hash") == events[-1]["hash"]
    assert page.locator("[data-testid=event-list] li").count() == last
    # ...signed by the server's key (issue #25), linked to where its public key is
    (key,) = spectator.rest("GET", "/keys").json()["keys"]
    signed = page.locator("[data-testid=signed-by]")
    assert signed.inner_text() == key["keyId"] and signed.get_attribute("href") == "/api/v1/keys"

    # from the start: the first event, then stepping by the buttons and the keyboard
    page.locator("[data-testid=replay-first]").click()
    wait_version(page, 1)
    assert page.locator("[data-testid=replay-empty]").count() == 1  # the table before the game
    page.locator("[data-testid=replay-forward]").click()
    wait_version(page, 2)
    page.locator("[data-testid=replay-slider]").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_version(page, 4)
    page.keyboard.press("ArrowLeft")
    wait_version(page, 3)
    assert page.url.endswith("?v=3")
    assert page.locator("[data-testid=event-list] li.current").get_attribute("data-version") == "3"

    # ...then played at the fastest speed to the very end, drawing every version on the way
    page.locator("[data-testid=replay-speed]").select_option("50")
    page.locator("[data-testid=replay-play]").click()
    wait_version(page, last, timeout=25000)
    page.wait_for_selector('[data-testid=replay-play][aria-pressed="false"]', timeout=5000)
    assert drawn_scores(page, seats) == result["scores"]
    assert page.url.endswith(f"?v={last}")

    # jump to a round: the version of that round's start
    rounds = [e["version"] for e in events if e["type"] == "round_started"]
    page.locator("[data-testid=replay-round]").select_option(str(rounds[-1]))
    wait_version(page, rounds[-1])
    assert web.console_errors == []
    assert not web.outside, web.outside


def test_a_shared_link_opens_that_version_for_a_spectator(
    web: Web, games: dict[str, str], shoot: Any
) -> None:
    """A shareable link (`/games/<id>?v=57`) opened with no account shows that version: the
    board as a spectator may see it then (the same facts as `viewAt`), the export to download."""
    game = games["AMUN_RE"]
    spectator = Client(web.server.url)
    at = 150
    view = spectator.gql(
        """query($g: ID!, $v: Int!) { game(id: $g) { version viewAt(version: $v) {
          ... on AmunReState { round phase players { seat vp } provinces { id owner } } } } }""",
        {"g": game, "v": at},
    )["game"]
    expected = view["viewAt"]

    page = web.open(f"/games/{game}?v={at}")
    wait_version(page, at)
    assert shown(page) == at
    assert page.locator("[data-testid=whoami]").inner_text().startswith("Spectator")
    assert page.url.endswith(f"/games/{game}?v={at}")
    assert (
        f"Event {at} of {view['version']}"
        in page.locator("[data-testid=replay-version]").inner_text()
    )
    board = page.locator("[data-testid=replay-board]")
    assert f"Round {expected['round']} of 6" in (
        board.locator("[data-testid=phase]").text_content() or ""
    )
    assert drawn_scores(page, len(expected["players"])) == [p["vp"] for p in expected["players"]]
    for province in expected["provinces"]:
        owner = board.locator(f"[data-testid=owner-{province['id'].lower()}]")
        if province["owner"] is None:
            assert owner.count() == 0
        else:
            assert owner.get_attribute("data-owner") == str(province["owner"])
    assert page.locator("[data-testid=share-link]").get_attribute("href") == f"/games/{game}?v={at}"

    # the export of the finished game, as the link downloads it
    href = page.locator("[data-testid=export-link]").get_attribute("href")
    exported = httpx.get(f"{web.server.url}{href}", timeout=30)
    assert exported.status_code == 200
    document = exported.json()
    assert document["kind"] == "amun_re"
    assert len(document["events"]) == view["version"]
    assert len(document["result"]["scores"]) == len(expected["players"])

    phone = web.open(f"/games/{game}?v={at}", viewport=PHONE)
    wait_version(phone, at)
    shoot(phone, "replay-amun_re-shared-phone")
    imhotep = web.open(f"/games/{games['IMHOTEP']}?v=60", viewport=PHONE)
    wait_version(imhotep, 60)
    shoot(imhotep, "replay-imhotep-shared-phone")
    assert web.console_errors == []
    assert not web.outside, web.outside


def test_a_running_game_is_replayed_as_the_spectator_sees_it(web: Web) -> None:
    """A game still running: a spectator's replay link shows the spectator's log (no seat's
    secrets: no hand, no gold of anyone, R7.9), no export yet, and a way back to the live game."""
    owner = register(web.server.url, "Host")
    game = owner.gql(
        'mutation { createGame(input: {kind: AMUN_RE, seats: 3, seed: "replay-live"}) { id } }'
    )["createGame"]["id"]
    owner.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game})
    for seat in (1, 2):
        owner.gql(
            "mutation($g: ID!, $s: Int) { addBot(gameId: $g, seat: $s) { id } }",
            {"g": game, "s": seat},
        )
    version = Client(web.server.url).gql(
        "query($g: ID!) { game(id: $g) { version } }", {"g": game}
    )["game"]["version"]
    page = web.open(f"/games/{game}?v={version}")
    wait_version(page, version)
    assert page.locator("[data-testid=export-note]").count() == 1
    assert page.locator("[data-testid=live-link]").get_attribute("href") == f"/games/{game}"
    board = page.locator("[data-testid=replay-board]")
    for seat in range(3):
        facts = board.locator(f"[data-testid=gold-{seat}]").text_content() or ""
        assert "gold ?" in facts, facts
    assert board.locator("[data-testid^=card-]").count() == 0
    assert not web.outside, web.outside


def test_a_link_to_a_game_that_does_not_exist_shows_the_servers_error(web: Web) -> None:
    """A replay link to no game: the page shows the error as the server words it, with its code."""
    page = web.open("/games/no-such-game?v=3")
    error = page.locator("[data-testid=error]")
    error.wait_for(timeout=20000)
    assert re.search(r"\((NOT_FOUND|BAD_INPUT)\)", error.inner_text()), error.inner_text()
    assert not web.outside, web.outside
