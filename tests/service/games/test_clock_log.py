"""The clock on the log, in one process with a fake clock (issue #15): the pure clock functions,
a simultaneous step charging each seat, ``verifyLog`` re-checking the clock entries against
the log's own times, and two applications racing for one expiry (exactly one is recorded)."""

from __future__ import annotations

import dataclasses
import random
import threading
from typing import Any

import pytest

from domain import clock as clocks
from domain.audit import verify
from domain.log import Entry, entry_hash
from domain.registry import rules_for
from service.app.application import Application
from service.app.caller import Caller
from service.app.clocks import Scheduler
from service.app.now import FakeClock
from service.store.database import open_store
from tests.conftest import settle_bots

START = 1_700_000_000_000


def control(**overrides: Any) -> dict[str, Any]:
    raw = {"mode": "move", "moveMs": 10_000, "onExpiry": "takeover", "bot": "random"}
    return clocks.control_of({**raw, **overrides}) or {}


def test_the_pure_clock() -> None:
    """Deadlines, charges and expiry from explicit times only (the domain reads no clock)."""
    bank = clocks.control_of({"mode": "bank", "bankMs": 5_000, "incrementMs": 1_000})
    assert bank == {
        "mode": "bank",
        "bank_ms": 5_000,
        "increment_ms": 1_000,
        "on_expiry": "takeover",
        "bot": "random",
    }
    state = clocks.new_state(bank, 2)
    [started] = clocks.settle(state, [0], START)
    assert started.type == clocks.CLOCK_STARTED and started.data == {"at": START, "seats": [0]}
    clocks.apply(state, started.type, started.data)
    assert clocks.deadline(state, 0) == START + 5_000 and clocks.deadline(state, 1) is None
    assert clocks.expired(state, START + 4_999) == []
    assert clocks.expired(state, START + 5_000) == [0]
    assert clocks.remaining(state, 0, START + 1_500) == 3_500
    charged, begun = clocks.settle(state, [1], START + 2_000)  # seat 0's turn ended
    assert charged.data == {
        "seat": 0,
        "at": START + 2_000,
        "started": START,
        "used_ms": 2_000,
        "remaining_ms": 3_000 + 1_000,  # the bank less the turn, plus the increment
    }
    for event in (charged, begun):
        clocks.apply(state, event.type, event.data)
    assert clocks.deadline(state, 1) == START + 2_000 + 5_000
    assert clocks.thinking(state, 0) == (2_000, 1)
    # a clock that goes back (another process's skew) never takes the log back in time
    assert clocks.settle(state, [0], START)[0].data["at"] == START + 2_000
    with pytest.raises(ValueError):
        clocks.control_of({"mode": "move"})
    assert clocks.control_of({"mode": "none"}) is None and clocks.control_of(None) is None


def new_app(url: str, clock: FakeClock) -> Application:
    return Application(open_store(url), clock=clock)


def players(app: Application, n: int) -> list[Caller]:
    return [app.accounts.register_player(f"P{i}")[0] for i in range(n)]


def timed_game(app: Application, seated: list[Caller], kind: str, clock: dict[str, Any]) -> str:
    game = app.seating.create_game(seated[0], kind, len(seated), {"clock": clock}, "clock-seed")
    for seat, player in enumerate(seated):
        app.seating.join_game(player, str(game.id), seat)
    return str(game.id)


def play_moves(
    app: Application,
    clock: FakeClock,
    seated: list[Caller],
    game_id: str,
    moves: int,
    think_ms: int,
    rng: random.Random,
) -> int:
    """``moves`` random legal actions, each after ``think_ms`` of thinking; the last seat."""
    rules = rules_for(app.tables.get(game_id).table.kind)
    seat = -1
    for _ in range(moves):
        table = app.tables.get(game_id).table
        seat = rules.active_seats(table.game)[0]
        clock.advance(think_ms)
        app.play.act(seated[seat], game_id, rng.choice(rules.legal_actions(table.game, seat)))
    return seat


def test_a_simultaneous_step_charges_each_seat(sqlite_url: str) -> None:
    """Amun-Re's Offering (R11.1): every seat that must act is on the clock at once and each is
    charged for its own time when its own turn ends; the clock entries of one seat make no
    conflict for another seat that decided on what it saw before them."""
    clock = FakeClock(START)
    app = new_app(sqlite_url, clock)
    seated = players(app, 3)
    control_ = {"mode": "bank", "bankMs": 600_000, "incrementMs": 0}
    game_id = timed_game(app, seated, "amun_re", control_)
    rules, rng = rules_for("amun_re"), random.Random(3)
    for _ in range(2000):
        table = app.tables.get(game_id).table
        active = rules.active_seats(table.game)
        if len(active) > 1:
            break
        clock.advance(100)
        app.play.act(
            seated[active[0]], game_id, rng.choice(rules.legal_actions(table.game, active[0]))
        )
    else:
        raise AssertionError("no simultaneous step")
    assert table.clock is not None
    assert sorted(table.clock.started) == sorted(active)  # every seat of the step runs
    times = {seat: 1_000 * (n + 1) for n, seat in enumerate(active)}
    version, base = app.tables.get(game_id).version, clock.now_ms()
    spent: dict[int, int] = {}
    for seat in active:  # each seat finishes its offering after its own time
        clock.set(base + times[seat])
        before = table.clock.used[seat]
        while seat in rules.active_seats(app.tables.get(game_id).table.game):
            state = app.tables.get(game_id).table.game
            actions = rules.legal_actions(state, seat)
            done = [a for a in actions if "commit" in a["type"] or "done" in a["type"]]
            app.play.act(seated[seat], game_id, (done or actions)[0], expected_version=version)
        table = app.tables.get(game_id).table
        assert table.clock is not None
        spent[seat] = table.clock.used[seat] - before
    assert len(set(spent.values())) == len(active), spent  # each charged its own time
    entries = app.tables.stored_events(game_id)
    assert verify(entries, rules_for).ok


def forged(entries: list[Entry], version: int, data: dict[str, Any]) -> list[Entry]:
    """The log with entry ``version``'s data replaced and the chain sealed again from there
    (a forger who knows the seed: only the clock check can catch it)."""
    opened = entries[0].data
    out, prev = [], entries[0].hash
    out.append(entries[0])
    for entry in entries[1:]:
        if entry.version == version:
            entry = dataclasses.replace(entry, data=data)
        if entry.version >= version:
            entry = dataclasses.replace(
                entry, hash=entry_hash(entry, prev, opened["seed"], opened.get("seed_salt"))
            )
        out.append(entry)
        prev = entry.hash
    return out


def test_verify_log_rechecks_the_clock(sqlite_url: str) -> None:
    """``verifyLog`` checks each clock entry against the log's own times: an expiry before the
    deadline the log gives, a charge that does not add up, or a take-over the policy does not
    allow is found, at its version, even with the hash chain sealed again."""
    clock = FakeClock(START)
    app = new_app(sqlite_url, clock)
    seated = players(app, 2)
    game_id = timed_game(app, seated, "imhotep", {"mode": "move", "moveMs": 10_000})
    play_moves(app, clock, seated, game_id, 3, 1_234, random.Random(5))
    clock.advance(10_001)
    assert [e.type for e in app.clocks.expire(game_id)][:2] == ["time_expired", "seat_taken_over"]
    entries = app.tables.stored_events(game_id)
    assert verify(entries, rules_for).ok
    assert forged(entries, 3, entries[2].data).__len__() == len(entries)
    assert verify(forged(entries, 3, entries[2].data), rules_for).ok  # resealing alone is fine

    expiry = next(e for e in entries if e.type == clocks.TIME_EXPIRED)
    early = {**expiry.data, "at": expiry.data["deadline"] - 1, "used_ms": 9_999}
    finding = verify(forged(entries, expiry.version, early), rules_for)
    assert not finding.ok and finding.version == expiry.version, finding
    charge = next(e for e in entries if e.type == clocks.CLOCK_CHARGED)
    cheap = {**charge.data, "used_ms": charge.data["used_ms"] - 1_000}
    finding = verify(forged(entries, charge.version, cheap), rules_for)
    assert not finding.ok and finding.version == charge.version
    assert finding.reason is not None  # issue #25: the charge and what the times give
    assert finding.reason.startswith("charge 234 ms but the times give 1,234 ms"), finding
    taken = next(e for e in entries if e.type == clocks.SEAT_TAKEN_OVER)
    other = {**taken.data, "bot": "mcts"}
    finding = verify(forged(entries, taken.version, other), rules_for)
    assert not finding.ok and finding.version == taken.version


def test_a_player_who_abandons_giving_the_reason_time_leaves_a_log_that_verifies(
    sqlite_url: str,
) -> None:
    """A reason is the player's own words: "time" given by a player is not the clock's
    abandonment (whose entry no player records), so ``verifyLog`` does not hold it to the
    clock's rule (it did: the player's game no longer verified)."""
    clock = FakeClock(START)
    app = new_app(sqlite_url, clock)
    seated = players(app, 2)
    for options in ({"mode": "move", "moveMs": 10_000, "onExpiry": "abandon"}, None):
        if options is None:
            game_id = str(app.seating.create_game(seated[0], "imhotep", 2, None, "s").id)
            for seat, player in enumerate(seated):
                app.seating.join_game(player, game_id, seat)
        else:
            game_id = timed_game(app, seated, "imhotep", options)
        app.seating.abandon_game(seated[1], game_id, clocks.TIME_REASON)
        entries = app.tables.stored_events(game_id)
        [abandoned] = [e for e in entries if e.type == "game_abandoned"]
        assert abandoned.actor == seated[1].player_id
        assert verify(entries, rules_for).ok, verify(entries, rules_for)


def test_acting_after_the_deadline_is_refused(sqlite_url: str) -> None:
    """A seat past its deadline cannot act any more (the expiry is the scheduler's)."""
    clock = FakeClock(START)
    app = new_app(sqlite_url, clock)
    seated = players(app, 2)
    game_id = timed_game(app, seated, "imhotep", {"mode": "move", "moveMs": 5_000})
    table = app.tables.get(game_id).table
    seat = rules_for("imhotep").active_seats(table.game)[0]
    clock.advance(5_000)
    action = rules_for("imhotep").legal_actions(table.game, seat)[0]
    with pytest.raises(Exception) as refused:
        app.play.act(seated[seat], game_id, action)
    assert getattr(refused.value, "code", None) == "NOT_YOUR_TURN"


def test_two_schedulers_record_one_expiry(sqlite_url: str) -> None:
    """Two applications over one store (two processes) fire the same deadline at once: the
    store's version key lets one save through; the other decides again, sees nothing to do."""
    clock = FakeClock(START)
    first, second = new_app(sqlite_url, clock), new_app(sqlite_url, clock)
    seated = players(first, 2)
    game_ids = [
        timed_game(first, seated, "imhotep", {"mode": "move", "moveMs": 5_000 + n})
        for n in range(3)
    ]
    schedulers = [
        Scheduler(app.clocks, lambda: list(game_ids), poll_seconds=0.05) for app in (first, second)
    ]
    for scheduler in schedulers:
        scheduler.rebuild()
    clock.advance(6_000)
    go = threading.Barrier(2)

    def run(scheduler: Scheduler) -> None:
        go.wait()
        scheduler.run_due()

    threads = [threading.Thread(target=run, args=(s,)) for s in schedulers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for game_id in game_ids:
        types = [e.type for e in first.tables.stored_events(game_id)]
        assert types.count(clocks.TIME_EXPIRED) == 1, types
    fired = [g for s in schedulers for g, _ in s.fired]
    assert sorted(fired) == sorted(game_ids)  # each fired by exactly one of them
    for scheduler in schedulers:  # each fired its deadlines earliest first
        deadlines = [d for _, d in scheduler.fired]
        assert deadlines == sorted(deadlines)


@pytest.mark.parametrize(("kind", "seats"), [("imhotep", 2), ("amun_re", 3)])
def test_random_timed_games_verify(sqlite_url: str, kind: str, seats: int) -> None:
    """Whole games with thinking times, expiries, take-overs and reclaims at random: every log
    verifies, and the clock's sums are the sums of its charges."""
    clock = FakeClock(START)
    app = new_app(sqlite_url, clock)
    seated = players(app, seats)
    control_ = {"mode": "bank", "bankMs": 8_000, "incrementMs": 500, "onExpiry": "takeover"}
    game_id = timed_game(app, seated, kind, control_)
    rules, rng = rules_for(kind), random.Random(kind)
    for _ in range(3000):
        table = app.tables.get(game_id).table
        if table.status != "ACTIVE":
            break
        assert table.clock is not None
        if table.clock.taken_over and (rng.random() < 0.5 or not table.human_seats()):
            # nobody plays a game whose persons are all taken over: one comes back before its
            # end (``Table.unattended_until``; no driver plays the bots here)
            app.clocks.reclaim(seated[rng.choice(table.clock.taken_over)], game_id)
            continue
        humans = table.clock_due(rules)
        if not humans or rng.random() < 0.03:
            clock.advance(9_000)  # past every running deadline
            assert app.clocks.expire(game_id) or not humans
            continue
        seat = rng.choice(humans)
        clock.advance(rng.randint(0, 1_500))
        if seat in clocks.expired(table.clock, clock.now_ms()):
            app.clocks.expire(game_id)
            continue
        app.play.act(seated[seat], game_id, rng.choice(rules.legal_actions(table.game, seat)))
    table = app.tables.get(game_id).table
    assert table.status == "FINISHED"
    entries = app.tables.stored_events(game_id)
    assert verify(entries, rules_for).ok
    kinds = {e.type for e in entries}
    assert {clocks.TIME_EXPIRED, clocks.SEAT_TAKEN_OVER, clocks.SEAT_RECLAIMED} <= kinds
    assert table.clock is not None and not table.clock.started  # every turn was charged
    for seat in range(seats):
        spent = [
            e.data["used_ms"]
            for e in entries
            if e.type in (clocks.CLOCK_CHARGED, clocks.TIME_EXPIRED) and e.data["seat"] == seat
        ]
        assert table.clock.used[seat] == sum(spent) and table.clock.turns[seat] == len(spent)


def test_undo_on_a_timed_table_verifies(sqlite_url: str) -> None:
    """Taking an action back gives the turn back: the clock follows who must act (the seat is
    charged when its turn ends and started again when it must act again), and the log with the
    undo and its clock entries verifies."""
    clock = FakeClock(START)
    app = new_app(sqlite_url, clock)
    seated = players(app, 2)
    game_id = timed_game(app, seated, "imhotep", {"mode": "bank", "bankMs": 60_000})
    seat = play_moves(app, clock, seated, game_id, 4, 700, random.Random(2))
    app.undo.request_undo(seated[seat], game_id, None)
    table = app.tables.get(game_id).table
    assert table.clock is not None
    assert sorted(table.clock.started) == table.clock_due(rules_for("imhotep")) == [seat]
    entries = app.tables.stored_events(game_id)
    assert [e.type for e in entries][-3:] == ["actions_undone", "clock_charged", "clock_started"]
    assert verify(entries, rules_for).ok


def test_a_game_whose_players_are_all_taken_over_ends_after_a_seats_full_time(
    sqlite_url: str,
) -> None:
    """Issue #20: once every person's seat is taken over, nobody plays the game; it ends a
    seat's full time (here a 10 s move) after the last take-over unless someone reclaims, not a
    moment before (``Clocks.expire``, fired by the scheduler at ``Table.unattended_until``);
    ``verifyLog`` finds an end recorded before that time, even with the chain sealed again."""
    clock = FakeClock(START)
    app = new_app(sqlite_url, clock)
    seated = players(app, 2)
    raw = {"mode": "move", "moveMs": 10_000, "onExpiry": "takeover", "bot": "random"}
    game_id = timed_game(app, seated, "imhotep", raw)
    scheduler = Scheduler(app.clocks, lambda: [game_id])
    app.subscribe(scheduler.notify)  # every save: the game's deadline is read again
    scheduler.rebuild()
    taken_at = 0
    while len(app.tables.get(game_id).table.clock.taken_over) < 2:  # type: ignore[union-attr]
        clock.advance(10_001)
        assert scheduler.run_due() == 1
        table = app.tables.get(game_id).table
        taken_at = table.clock.now  # type: ignore[union-attr]
        if table.human_seats():  # the bot of the seat taken over plays, as the driver would
            settle_bots(app, game_id)
    table = app.tables.get(game_id).table
    assert table.status == "ACTIVE" and table.unattended_until() == taken_at + 10_000
    assert scheduler.next_deadline() == taken_at + 10_000
    clock.advance(9_999 - (clock.now_ms() - taken_at))
    assert scheduler.run_due() == 0 and app.tables.get(game_id).table.status == "ACTIVE"
    clock.advance(1)
    assert scheduler.run_due() == 1
    entries = app.tables.stored_events(game_id)
    ended = entries[-1]
    assert ended.type == "game_abandoned" and ended.actor is None
    assert ended.data == {"reason": "only bots left", "by": None, "at": taken_at + 10_000}
    assert verify(entries, rules_for).ok
    early = forged(entries, ended.version, {**ended.data, "at": taken_at + 9_999})
    finding = verify(early, rules_for)
    assert (finding.ok, finding.version) == (False, ended.version), finding
