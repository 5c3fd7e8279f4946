"""Bots with a fair share (issue #20: "one account starves everyone's bots"): the bot driver
serves accounts in turn, a cheap bot never waits behind searches, a burst of searches thinks in
shares of a bounded time, every account has bounds on its bots, and a game only bots play ends.

The driver's order of service is checked on its own (deterministic); the replies a player sees
under a flood are measured on a real server against a baseline measured in the same test, from
the log's own timestamps (``at``), so polling adds nothing to them.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import pytest

from domain import table as tables
from service.app.application import Application
from service.app.bots.budget import FLOOR_SECONDS, ThinkLimits
from service.app.bots.driver import BotDriver
from service.app.caller import Caller
from service.store.database import open_store
from tests.client import Client, events_of, register
from tests.conftest import Server
from tests.service.games.test_clocks import Time, create

GAME = "query($g: ID!) { game(id: $g) { version status activeSeats legalActions } }"
ACT = "mutation($g: ID!, $a: JSON!) { act(gameId: $g, action: $a) { game { version activeSeats } } }"
ADD_BOT = "mutation($g: ID!, $s: String) { addBot(gameId: $g, strategy: $s) { id } }"
ENTRY = "version type seat bySeat at data"


def bot_table(app: Application, player: Caller, level: str, kind: str = "imhotep") -> str:
    """A 2-seat table: ``player`` at seat 0, a bot of ``level`` at seat 1, which begins."""
    game_id = str(app.seating.create_game(player, kind, 2, {"start_player": 1}, None).id)
    app.seating.join_game(player, game_id, 0)
    app.seating.add_bot(player, game_id, 1, level)
    return game_id


def taken_over(player: Client, game_id: str) -> int:
    return sum(e["type"] == "seat_taken_over" for e in events_of(player, game_id))


def new_table(player: Client, kind: str, seats: int, options: dict[str, Any]) -> str:
    """A table of ``player``, who sits at seat 0."""
    game_id = str(
        player.gql(
            "mutation($i: CreateGameInput!) { createGame(input: $i) { id } }",
            {"i": {"kind": kind, "seats": seats, "options": options}},
        )["createGame"]["id"]
    )
    player.gql("mutation($g: ID!) { joinGame(gameId: $g, seat: 0) { id } }", {"g": game_id})
    return game_id


def wait_until(check: Any, seconds: float = 60.0, pause: float = 0.02) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(pause)
    return None


# -- the driver's order of service ---------------------------------------------------------------


def test_the_search_lane_serves_accounts_in_turn(sqlite_url: str) -> None:
    """One account's five tables of searching bots, woken first, do not hold back another
    account's one: it is served second (accounts in turn), the five after in their order."""
    app = Application(open_store(sqlite_url))
    flooder = app.accounts.register_player("Flooder")[0]
    other = app.accounts.register_player("Other")[0]
    flood = [bot_table(app, flooder, "mcts") for _ in range(5)]
    alone = bot_table(app, other, "mcts")
    driver = BotDriver(app.tables, think=ThinkLimits(move_seconds=0.2, round_seconds=0.2))
    app.subscribe(driver.wake)
    for game_id in [*flood, alone]:
        driver.wake(game_id)
    driver.start()
    try:
        assert wait_until(lambda: len(driver.played) == 6), driver.played
    finally:
        driver.stop()
    assert [game_id for game_id, _, _ in driver.played] == [flood[0], alone, *flood[1:]]


class HeldSearches:
    """A driver's tables whose commands on some games wait until released: the searches of
    those games are thought through but cannot be recorded meanwhile."""

    def __init__(self, tables_: Any, held: list[str]) -> None:
        self.tables = tables_
        self.held = set(held)
        self.arrived = threading.Event()
        self.release = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tables, name)

    def command(self, game_id: str, decide: Any) -> Any:
        if game_id in self.held:
            self.arrived.set()
            self.release.wait(timeout=60)
        return self.tables.command(game_id, decide)


def test_a_random_bot_does_not_wait_behind_searches(sqlite_url: str) -> None:
    """Three tables of searching bots are woken before another player's ``random`` bot; while
    the first search cannot even be recorded, the ``random`` bot plays (its own lane)."""
    app = Application(open_store(sqlite_url))
    flooder = app.accounts.register_player("Flooder")[0]
    other = app.accounts.register_player("Other")[0]
    flood = [bot_table(app, flooder, "mcts") for _ in range(3)]
    cheap = bot_table(app, other, "random")
    before = app.tables.get(cheap).version
    held = HeldSearches(app.tables, flood)
    driver = BotDriver(cast(Any, held))
    for game_id in [*flood, cheap]:
        driver.wake(game_id)
    driver.start()
    try:
        assert held.arrived.wait(timeout=60), "no search of the flood was recorded"
        moved = wait_until(lambda: app.tables.get(cheap).version > before, seconds=20)
    finally:
        held.release.set()
        driver.stop()
    assert moved, "the random bot waited behind the searches"


def test_a_game_another_process_saved_is_left_to_it_for_a_grace_period(sqlite_url: str) -> None:
    """The store's feed tells every process of every save (``heard``); the process that saved
    plays the bot that became due, so the others look only after a grace period, and only at a
    game still where that save left it: no two processes think about every move."""
    saving = Application(open_store(sqlite_url))  # the other process: it plays no bot here
    player = saving.accounts.register_player("Player")[0]
    due, moved_on = bot_table(saving, player, "random"), bot_table(saving, player, "random")
    here = Application(open_store(sqlite_url))
    driver = BotDriver(here.tables, think=ThinkLimits(move_seconds=0.2, round_seconds=1.0))
    driver.start()
    try:
        started = time.monotonic()
        driver.heard(moved_on, saving.tables.get(moved_on).version - 1)  # since moved past
        driver.heard(due, saving.tables.get(due).version)
        assert wait_until(lambda: driver.played, seconds=30), "nobody played the bot"
        waited = time.monotonic() - started
        time.sleep(0.5)
    finally:
        driver.stop()
    assert waited >= 0.9 * driver.grace, waited
    assert [game_id for game_id, _, _ in driver.played] == [due]


def test_the_think_bound_shares_what_is_left_of_the_reply_time() -> None:
    """``--bot-think-seconds`` bounds every move; ``--bot-reply-seconds`` is shared among the
    tables waiting, counted from the arrival of the one waiting longest; never below the
    floor."""
    limits = ThinkLimits(move_seconds=2.0, round_seconds=10.0)
    assert limits.bound(1) == 2.0  # alone: the move bound
    assert limits.bound(20) == pytest.approx(0.5)  # a burst of 20: a share of 10 s each
    assert limits.bound(10, waited=5.0) == pytest.approx(0.5)  # half the time is gone
    assert limits.bound(400) == FLOOR_SECONDS
    assert limits.bound(1, waited=30.0) == FLOOR_SECONDS
    assert limits.budget(20).bound == pytest.approx(0.5) and limits.budget(20).iterations == 200


# -- a game only bots play ------------------------------------------------------------------------


def test_a_running_game_that_only_bots_play_ends(sqlite_url: str) -> None:
    """A table whose seats are all bots (as logs from before such tables were refused hold)
    is not played on for nobody: the driver records ``game_abandoned`` with the reason
    ``only bots left`` instead of a move, and the log still verifies."""
    app = Application(open_store(sqlite_url))
    host = app.accounts.register_player("Host")[0]
    game_id = str(app.seating.create_game(host, "imhotep", 2, None, None).id)
    for seat in range(2):
        app.tables.command(
            game_id, lambda g, s=seat: app.seating.seat(g, s, None, "Bot (mcts)", "mcts")
        )
    assert app.tables.get(game_id).table.status == tables.ACTIVE
    version = app.tables.get(game_id).version
    driver = BotDriver(app.tables)
    assert driver.settle(game_id) == 1
    assert driver.played == []  # no bot move, only the end
    [ended] = app.tables.events(game_id, after=version)
    assert ended.type == tables.GAME_ABANDONED and ended.actor is None
    assert ended.data["reason"] == tables.BOTS_ONLY_REASON
    assert app.tables.get(game_id).table.status == tables.ABANDONED
    assert app.audit.verify(game_id).ok


def test_a_table_of_bots_alone_is_refused(sqlite_server: Server) -> None:
    """The last free seat of a table no person sits at cannot go to a bot (GraphQL and REST:
    ``FORBIDDEN``, saying why); a person may take it, and then the game runs."""
    host = register(sqlite_server.url, "Host")
    game_id = host.gql("mutation { createGame(input: {kind: AMUN_RE, seats: 3}) { id } }")[
        "createGame"
    ]["id"]
    host.gql(ADD_BOT, {"g": game_id, "s": "random"})
    host.gql(ADD_BOT, {"g": game_id, "s": "mcts"})
    refused = host.error(ADD_BOT, {"g": game_id, "s": "random"})
    assert refused.code == "FORBIDDEN" and "at least one player" in str(refused)
    answer = host.rest("POST", f"/games/{game_id}/bots", json={"strategy": "greedy"})
    assert answer.status_code == 403 and answer.json()["code"] == "FORBIDDEN", answer.text
    joined = host.gql(
        "mutation($g: ID!) { joinGame(gameId: $g) { status mySeat } }", {"g": game_id}
    )["joinGame"]
    assert joined == {"status": "ACTIVE", "mySeat": 2}


@pytest.fixture
def timed(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[Server, Time]]:
    """A server whose clocks read a time the test moves, with a short reply bound for bursts
    of searches (``--bot-reply-seconds``)."""
    clock = Time(tmp_path / "clock-offset")
    with Server(sqlite_url, clock_offset_file=str(clock.path), bot_reply_seconds=1.0) as running:
        yield running, clock


def test_a_timed_game_nobody_plays_waits_for_a_player_then_ends(
    timed: tuple[Server, Time],
) -> None:
    """Both players are away. The first one's seat is taken over and its bot plays; when the
    second one's time runs out too, no person plays any seat: no bot plays either (nothing
    thinks for nobody), the game waits. The player taken over last comes back within a move's
    time and reclaims the seat: the game goes on. Away again, taken over again, and a move's
    time later the game ends (``only bots left``), with a log that verifies."""
    server, clock = timed
    players = [register(server.url, "Ann"), register(server.url, "Bob")]
    ann = players[0]
    control = {"mode": "move", "moveMs": 60_000, "onExpiry": "takeover", "bot": "random"}
    game_id = create(players, "IMHOTEP", control)
    for expired in (1, 2):
        clock.advance(61_000)
        assert wait_until(lambda n=expired: taken_over(ann, game_id) == n, pause=0.1)
    log = events_of(ann, game_id, ENTRY)
    first = next(i for i, e in enumerate(log) if e["type"] == "seat_taken_over")
    assert any(e["bySeat"] == log[first]["seat"] for e in log[first:]), "the first bot played"
    assert log[-1]["type"] == "seat_taken_over"
    time.sleep(1.5)  # a bot due would have played within milliseconds
    assert events_of(ann, game_id, ENTRY) == log, "a bot played a game nobody plays"
    assert ann.gql(GAME, {"g": game_id})["game"]["status"] == "ACTIVE"

    clock.advance(30_000)  # within a move's time of the take-over, its player is back
    mine = log[-1]["seat"]  # the seat taken over last: it must act now
    back = players[mine]
    assert (
        back.gql(
            "mutation($g: ID!) { reclaimSeat(gameId: $g) { status seats { seat takenOver } } }",
            {"g": game_id},
        )["reclaimSeat"]["seats"][mine]["takenOver"]
        is False
    )
    clock.advance(61_000)  # away again: taken over again, nobody plays
    assert wait_until(lambda: taken_over(ann, game_id) == 3, pause=0.1)
    assert back.gql(GAME, {"g": game_id})["game"]["status"] == "ACTIVE"
    clock.advance(61_000)  # a move's time later, nobody came back
    assert wait_until(lambda: back.gql(GAME, {"g": game_id})["game"]["status"] == "ABANDONED")
    log = events_of(ann, game_id, ENTRY)
    assert [e["type"] for e in log[-2:]] == ["seat_taken_over", "game_abandoned"]
    ended = log[-1]["data"]
    assert ended["reason"] == tables.BOTS_ONLY_REASON
    assert ended["at"] >= log[-2]["data"]["at"] + 60_000
    verified = ann.gql("query($g: ID!) { verifyLog(gameId: $g) { ok reason } }", {"g": game_id})
    assert verified["verifyLog"]["ok"], verified


# -- per-account bounds ---------------------------------------------------------------------------


def test_an_account_seats_only_so_many_bots(sqlite_url: str) -> None:
    """``--bot-tables-per-account`` 2 and ``--search-bots-per-account`` 3: a fourth ``mcts``
    bot, and a bot at a third table, are refused with ``FORBIDDEN`` naming the bound (GraphQL
    and REST); lighter bots at a table already counted still sit; another account has its own
    bounds; abandoning a table frees its share."""
    with Server(sqlite_url, bot_tables_per_account=2, search_bots_per_account=3) as server:
        ann, bob = register(server.url, "Ann"), register(server.url, "Bob")

        first, second, third = (new_table(ann, "AMUN_RE", 5, {}) for _ in range(3))
        for level in ("mcts", "mcts"):
            ann.gql(ADD_BOT, {"g": first, "s": level})
        ann.gql(ADD_BOT, {"g": second, "s": "mcts"})
        refused = ann.error(ADD_BOT, {"g": second, "s": "mcts"})
        assert refused.code == "FORBIDDEN"
        assert "search-bots-per-account is 3" in str(refused), str(refused)
        ann.gql(ADD_BOT, {"g": second, "s": "random"})  # the same two tables: allowed
        answer = ann.rest("POST", f"/games/{third}/bots", json={"strategy": "random"})
        assert answer.status_code == 403, answer.text
        assert answer.json()["code"] == "FORBIDDEN"
        assert "bot-tables-per-account is 2" in answer.json()["detail"], answer.json()
        other = new_table(bob, "AMUN_RE", 5, {})  # Bob's bounds are his own
        for level in ("mcts", "mcts", "mcts"):
            bob.gql(ADD_BOT, {"g": other, "s": level})
        ann.gql("mutation($g: ID!) { abandonGame(gameId: $g) { status } }", {"g": first})
        assert (
            ann.rest("POST", f"/games/{third}/bots", json={"strategy": "mcts"}).status_code == 200
        )


# -- under a flood, on a real server ------------------------------------------------------------


def at(entry: dict[str, Any]) -> float:
    return datetime.fromisoformat(entry["at"]).timestamp()


def replies(player: Client, game_id: str, samples: int) -> list[float]:
    """The bot's replies (seconds, from the log's times) to ``samples`` moves of ``player``,
    who sits at seat 0 of a 2-seat table against it. A move after which seat 0 is still to play
    (a step of a longer action, a card's second action) asks the bot nothing: it is not a
    sample, the next one is made."""
    out: list[float] = []
    for sample in range(samples * 10):
        if len(out) == samples:
            break
        game = player.gql(GAME, {"g": game_id})["game"]
        assert game["activeSeats"] == [0], game
        action = game["legalActions"][sample % len(game["legalActions"])]
        acted = player.gql(ACT, {"g": game_id, "a": action})["act"]["game"]
        if 0 in acted["activeSeats"]:
            continue
        replied = wait_until(
            lambda: player.gql(GAME, {"g": game_id})["game"]["activeSeats"] == [0], seconds=120
        )
        assert replied, "the bot never replied"
        entries = [e for e in events_of(player, game_id, ENTRY) if e["version"] >= acted["version"]]
        theirs = next(e for e in entries if e["bySeat"] == 1)
        out.append(at(theirs) - at(entries[0]))
    assert len(out) == samples, f"{samples} moves of seat 0 that handed the bot its turn: {out}"
    return out


def test_another_players_bots_reply_under_a_flood_of_searches(sqlite_url: str) -> None:
    """Issue #20's flood: one account's ten 5-seat tables of four ``mcts`` bots each (bounds
    off for it) keep the search lane busy; another player's ``random`` bot still replies about
    as fast as before the flood, and their ``mcts`` bot within a few of its own searches
    (before: behind a search of every table of the flood)."""
    unbounded = {"bot_tables_per_account": 0, "search_bots_per_account": 0}
    with Server(sqlite_url, **unbounded) as server:
        player = register(server.url, "Player")
        mine = {}
        for level in ("random", "mcts"):
            mine[level] = new_table(player, "IMHOTEP", 2, {"start_player": 0})
            player.gql(ADD_BOT, {"g": mine[level], "s": level})
        baseline = {level: statistics.median(replies(player, mine[level], 3)) for level in mine}
        flooder = register(server.url, "Flooder")
        flood = [new_table(flooder, "AMUN_RE", 5, {"start_player": 1}) for _ in range(10)]
        for game_id in flood:
            for _ in range(4):
                flooder.gql(ADD_BOT, {"g": game_id, "s": "mcts"})
        flooded = {level: statistics.median(replies(player, mine[level], 3)) for level in mine}
        busy = sum(flooder.gql(GAME, {"g": g})["game"]["activeSeats"] != [0] for g in flood)
    assert flooded["random"] <= 5 * baseline["random"] + 0.5, (baseline, flooded)
    assert flooded["mcts"] <= 3 * baseline["mcts"] + 1.0, (baseline, flooded)
    assert busy >= 3, "the flood was over before the measurement ended: it measured nothing"


def test_a_mass_expiry_into_searching_bots_replies_at_every_table(
    timed: tuple[Server, Time],
) -> None:
    """Issue #20: twenty-four timed tables whose seats expire at once into ``mcts`` bots. Each
    table's bot replies within ten times what one take-over alone took in the same test
    (``--bot-reply-seconds`` 1: the burst thinks in shares of it), where before the last table
    waited for the twenty-three searches ahead of it."""
    server, clock = timed
    players = [register(server.url, "Ann"), register(server.url, "Bob")]
    control = {"mode": "move", "moveMs": 60_000, "onExpiry": "takeover", "bot": "mcts"}

    def reply(game_id: str) -> float | None:
        """From the take-over to the bot's move, by the log's times (``None``: not yet)."""
        log = events_of(players[0], game_id, ENTRY)
        taken = next((e for e in log if e["type"] == "seat_taken_over"), None)
        if taken is None:
            return None
        after = [e for e in log if e["version"] > taken["version"]]
        moved = next((e for e in after if e["bySeat"] == taken["seat"]), None)
        return None if moved is None else at(moved) - at(taken)

    alone = create(players, "IMHOTEP", control)
    clock.advance(61_000)
    baseline = wait_until(lambda: reply(alone), pause=0.1)
    assert baseline, "the take-over's bot never played"
    burst = [create(players, "IMHOTEP", control) for _ in range(24)]
    clock.advance(61_000)
    found: dict[str, float] = {}
    deadline = time.monotonic() + 180
    while len(found) < len(burst) and time.monotonic() < deadline:
        for game_id in burst:
            if game_id not in found and (seconds := reply(game_id)) is not None:
                found[game_id] = seconds
        time.sleep(0.2)
    assert len(found) == len(burst), f"{len(burst) - len(found)} tables never got a reply"
    assert max(found.values()) <= 10 * baseline, (baseline, sorted(found.values()))
