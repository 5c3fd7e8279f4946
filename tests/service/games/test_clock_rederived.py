"""The timed clock re-derived by the verifier (issue #25, "Verification that re-derives
everything"; ``domain.audit_clock`` and ``domain.audit_causes``), at the domain's level:

* no false alarm: random genuine timed games (both games, a per-move deadline or a bank,
  take-over or abandon on expiry, the table's bot playing taken-over seats, reclaims, deadlines
  met by a millisecond and missed by a lot) verify clean (``PAPYRUS_CLOCK_GAMES`` raises the
  number of games; a few seconds by default);
* what each rule of the verifier names, on a small real log;
* what the log alone cannot tell: every time of the log shifted at once (the creation's
  included) is a consistent record; the server's signature of the chain head pins it.
"""

from __future__ import annotations

import dataclasses
import os
import random
from datetime import datetime, timedelta
from typing import Any

import pytest

from domain import clock as clocks
from domain.audit import verify
from domain.audit_clock import ms_of, when
from domain.log import Entry, entry_hash
from domain.registry import rules_for
from service.app.application import Application
from service.app.caller import Caller
from service.app.errors import PapyrusError
from service.app.now import FakeClock
from service.store.database import open_store
from tests.conftest import settle_bots

START = 1_700_000_000_000
GAMES = int(os.environ.get("PAPYRUS_CLOCK_GAMES", "6"))


def resealed(entries: list[Entry]) -> list[Entry]:
    """The log numbered 1..n and its whole chain sealed again (a forger who knows the seed)."""
    opened = entries[0].data
    out: list[Entry] = []
    prev = "0" * 64
    for number, entry in enumerate(entries, start=1):
        entry = dataclasses.replace(entry, version=number)
        entry = dataclasses.replace(
            entry, hash=entry_hash(entry, prev, opened["seed"], opened.get("seed_salt"))
        )
        out.append(entry)
        prev = entry.hash
    return out


def random_control(rng: random.Random) -> dict[str, Any]:
    policy = rng.choice(["takeover", "takeover", "abandon"])
    if rng.random() < 0.5:
        return {"mode": "move", "moveMs": rng.randint(2, 20) * 1_000, "onExpiry": policy}
    return {
        "mode": "bank",
        "bankMs": rng.randint(5, 30) * 1_000,
        "incrementMs": rng.choice([0, 500, 2_000]),
        "onExpiry": policy,
    }


def play_random_game(app: Application, clock: FakeClock, seed: int) -> str:
    """One timed game as a scheduler, a bot driver and players would play it."""
    rng = random.Random(seed)
    kind, seats = rng.choice([("imhotep", 2), ("imhotep", 3), ("amun_re", 3)])
    seated = [app.accounts.register_player(f"G{seed}P{n}")[0] for n in range(seats)]
    control = random_control(rng)
    game = app.seating.create_game(seated[0], kind, seats, {"clock": control}, f"seed-{seed}")
    game_id = str(game.id)
    for seat, player in enumerate(seated):
        clock.advance(rng.randint(0, 5_000))
        app.seating.join_game(player, game_id, seat)
    rules = rules_for(kind)
    for _ in range(250):
        table = app.tables.get(game_id).table
        if table.status != "ACTIVE" or table.clock is None:
            break
        taken = table.clock.taken_over
        if taken and (rng.random() < 0.2 or not table.human_seats()):
            reclaim(app, seated, table.holders[rng.choice(taken)], game_id)
            continue
        humans = table.clock_due(rules)
        if not humans or rng.random() < 0.04:  # past every deadline: the scheduler fires
            clock.advance(table.clock.control.get("move_ms") or table.clock.control["bank_ms"])
            clock.advance(rng.randint(0, 3_000))
            app.clocks.expire(game_id)
            settle_bots(app, game_id)
            continue
        seat = rng.choice(humans)
        left = clocks.remaining(table.clock, seat, clock.now_ms())
        # most moves in good time, some a millisecond before the deadline
        think = left - 1 if rng.random() < 0.1 else rng.randint(0, max(0, min(left - 1, 3_000)))
        clock.advance(max(0, think))
        if app.clocks.expire(game_id):  # another seat's deadline passed meanwhile
            settle_bots(app, game_id)
            continue
        try:
            app.play.act(seated[seat], game_id, rng.choice(rules.legal_actions(table.game, seat)))
        except PapyrusError:
            continue  # its deadline passed: the scheduler's expiry comes next
        settle_bots(app, game_id)
    return game_id


def reclaim(app: Application, seated: list[Caller], holder: Any, game_id: str) -> None:
    player = next(p for p in seated if p.player_id == holder.player_id)
    app.clocks.reclaim(player, game_id)


@pytest.fixture
def app_and_clock(sqlite_url: str) -> tuple[Application, FakeClock]:
    clock = FakeClock(START)
    return Application(open_store(sqlite_url), clock=clock), clock


def test_random_genuine_timed_games_verify(app_and_clock: tuple[Application, FakeClock]) -> None:
    """No false positives (issue #25): every genuine timed log verifies, whatever its clock's
    history (issue #15's expiries, take-overs and reclaims, both policies)."""
    app, clock = app_and_clock
    seen: set[str] = set()
    for seed in range(GAMES):
        game_id = play_random_game(app, clock, seed)
        entries = app.tables.stored_events(game_id)
        seen |= {e.type for e in entries}
        finding = verify(entries, rules_for)
        assert finding.ok, (seed, finding)
    assert {clocks.CLOCK_CHARGED, clocks.TIME_EXPIRED} <= seen


@pytest.fixture
def taken_over_log(app_and_clock: tuple[Application, FakeClock]) -> list[Entry]:
    """Imhotep, 2 seats, a 10 s move: two moves, seat ``1``'s deadline missed by 5 s, its
    take-over and the bot's move, its reclaim."""
    app, clock = app_and_clock
    seated = [app.accounts.register_player(n)[0] for n in ("Ann", "Bob")]
    control = {"mode": "move", "moveMs": 10_000}
    game_id = str(app.seating.create_game(seated[0], "imhotep", 2, {"clock": control}, "s").id)
    for seat, player in enumerate(seated):
        app.seating.join_game(player, game_id, seat)
    rules, rng = rules_for("imhotep"), random.Random(1)
    for _ in range(2):
        table = app.tables.get(game_id).table
        seat = table.clock_due(rules)[0]
        clock.advance(3_000)
        app.play.act(seated[seat], game_id, rng.choice(rules.legal_actions(table.game, seat)))
    late = app.tables.get(game_id).table.clock_due(rules)[0]
    clock.advance(15_000)
    app.clocks.expire(game_id)
    assert settle_bots(app, game_id) >= 1
    app.clocks.reclaim(seated[late], game_id)
    entries = app.tables.stored_events(game_id)
    assert verify(entries, rules_for).ok
    return entries


def first(entries: list[Entry], kind: str) -> Entry:
    return next(e for e in entries if e.type == kind)


def test_the_policy_follows_an_expiry(taken_over_log: list[Entry]) -> None:
    """Issue #15: an expiry is followed at once by the table's policy (here the take-over)."""
    entries = [e for e in taken_over_log if e.type != clocks.SEAT_TAKEN_OVER]
    finding = verify(resealed(entries), rules_for)
    assert not finding.ok
    expiry = first(taken_over_log, clocks.TIME_EXPIRED)
    assert finding.version == expiry.version + 1
    assert "no seat_taken_over follows" in str(finding.reason)


def test_a_deleted_turn_start(taken_over_log: list[Entry]) -> None:
    """The clock agrees with who must act before every step: a turn whose start was deleted
    (its charge with it) is named at the seat's next move."""
    started = [e for e in taken_over_log if e.type == clocks.CLOCK_STARTED][1]
    charge = next(
        e for e in taken_over_log if e.type == clocks.CLOCK_CHARGED and e.version > started.version
    )
    entries = [e for e in taken_over_log if e.version not in (started.version, charge.version)]
    finding = verify(resealed(entries), rules_for)
    assert not finding.ok
    assert "must act but its turn is not on the clock" in str(finding.reason), finding


def test_a_reclaim_is_its_players(taken_over_log: list[Entry]) -> None:
    """``domain.audit_causes``: a reclaim recorded as submitted by somebody else."""
    reclaimed = first(taken_over_log, clocks.SEAT_RECLAIMED)
    entries = [
        dataclasses.replace(e, actor="somebody") if e.version == reclaimed.version else e
        for e in taken_over_log
    ]
    finding = verify(resealed(entries), rules_for)
    assert (finding.ok, finding.version) == (False, reclaimed.version)


def test_a_uniform_shift_of_every_time_is_a_consistent_record(
    taken_over_log: list[Entry],
) -> None:
    """What the log alone cannot tell (``domain.audit_clock``'s docstring): every time shifted
    by a day at once, the creation's included, is a record of the same game a day later; only
    the server's signature of the chain head (issue #25, "Signed records") rejects it. Shifted
    from the second entry on (the creation's time is the anchor), it is a clock that started a
    day after its entries were recorded: named."""
    day = 86_400_000

    def shift(entry: Entry, keep_stamp: bool) -> Entry:
        data = entry.data
        if entry.type in clocks.EVENTS:
            data = {
                k: v + day if k in ("at", "started", "deadline") else v for k, v in data.items()
            }
        at = entry.at
        if not keep_stamp:
            at = (datetime.fromisoformat(at) + timedelta(milliseconds=day)).isoformat()
        return dataclasses.replace(entry, data=data, at=at)

    everything = [shift(e, keep_stamp=False) for e in taken_over_log]
    assert verify(resealed(everything), rules_for).ok
    clock_only = [shift(e, keep_stamp=True) for e in taken_over_log]
    finding = verify(resealed(clock_only), rules_for)
    assert not finding.ok
    assert finding.version == first(taken_over_log, clocks.CLOCK_STARTED).version
    assert "is not the time it was recorded at" in str(finding.reason)


def test_times_in_messages() -> None:
    """The recorded times an audit reads (ISO 8601, UTC without a zone) and the times its
    messages show (UTC, to the millisecond)."""
    assert ms_of("2023-11-14T22:13:20.123000+00:00") == 1_700_000_000_123
    assert ms_of("2023-11-14T22:13:20.123") == 1_700_000_000_123
    assert ms_of("2023-11-15T00:13:20.123+02:00") == 1_700_000_000_123
    assert when(1_700_000_000_123) == "2023-11-14T22:13:20.123Z"
    with pytest.raises(ValueError):
        ms_of("yesterday")


def test_an_undo_just_past_anothers_deadline_leaves_a_log_that_verifies(
    app_and_clock: tuple[Application, FakeClock],
) -> None:
    """A genuine log must always verify. Ann moves; Bob's 10 s turn runs out, and before the
    scheduler records his expiry Ann takes her move back (at once: nobody acted since). That
    undo would end Bob's turn past his deadline with no ``time_expired`` before it, which the
    verifier rightly names as a missing expiry. So the server does not record it: the undo is
    refused with ``CONFLICT`` until the expiry is recorded, and the log verifies throughout."""
    app, clock = app_and_clock
    ann, bob = (app.accounts.register_player(n)[0] for n in ("Ann", "Bob"))
    control = {"mode": "move", "moveMs": 10_000, "onExpiry": "takeover"}
    game_id = str(app.seating.create_game(ann, "imhotep", 2, {"clock": control}, "undo-late").id)
    app.seating.join_game(ann, game_id, 0)
    app.seating.join_game(bob, game_id, 1)
    rules = rules_for("imhotep")
    table = app.tables.get(game_id).table
    first = table.clock_due(rules)[0]
    mover = (ann, bob)[first]
    clock.advance(1_000)
    app.play.act(mover, game_id, rules.legal_actions(table.game, first)[0])
    clock.advance(10_000 + 1)  # the other seat's deadline has passed; no expiry recorded yet
    with pytest.raises(PapyrusError) as refused:
        app.undo.request_undo(mover, game_id, None)
    assert refused.value.code == "CONFLICT"
    assert "time ran out" in refused.value.message
    assert verify(app.tables.stored_events(game_id), rules_for).ok
    assert app.clocks.expire(game_id)  # the scheduler's expiry, then the undo may be asked
    settle_bots(app, game_id)
    assert verify(app.tables.stored_events(game_id), rules_for).ok


def test_random_timed_games_with_undos_verify_after_every_command(
    app_and_clock: tuple[Application, FakeClock],
) -> None:
    """No false positive whatever the order of commands (issue #25): random timed games where
    players also ask and answer undos, sometimes just past another seat's deadline while the
    scheduler lags, seats are reclaimed and expiries fire late; the log verifies after every
    command (the refusals, ``CONFLICT`` among them, leave it as it was)."""
    app, clock = app_and_clock
    refused: dict[str, int] = {}
    undone = 0
    for seed in range(GAMES):
        rng = random.Random(5_000 + seed)
        kind, seats = rng.choice([("imhotep", 2), ("imhotep", 3), ("amun_re", 3)])
        seated = [app.accounts.register_player(f"U{seed}P{n}")[0] for n in range(seats)]
        options = {"clock": random_control(rng)}
        game_id = str(app.seating.create_game(seated[0], kind, seats, options, f"u-{seed}").id)
        for seat, player in enumerate(seated):
            app.seating.join_game(player, game_id, seat)
        rules = rules_for(kind)
        for _ in range(300):
            table = app.tables.get(game_id).table
            if table.status != "ACTIVE" or table.clock is None:
                break
            humans, draw = table.clock_due(rules), rng.random()
            try:
                if draw < 0.08:  # an undo, at once or after a wait the scheduler has not seen
                    clock.advance(rng.choice([0, 500, 30_000]))
                    app.undo.request_undo(rng.choice(seated), game_id, None)
                    undone += 1
                elif draw < 0.14:
                    app.undo.answer_undo(rng.choice(seated), game_id, rng.random() < 0.6)
                elif draw < 0.18 and table.clock.taken_over:
                    holder = table.holders[rng.choice(table.clock.taken_over)]
                    reclaim(app, seated, holder, game_id)
                elif draw < 0.24 or not humans:
                    clock.advance(rng.randint(0, 40_000))
                    app.clocks.expire(game_id)
                else:
                    seat = rng.choice(humans)
                    clock.advance(rng.randint(0, 4_000))
                    action = rng.choice(rules.legal_actions(table.game, seat))
                    app.play.act(seated[seat], game_id, action)
            except PapyrusError as failure:
                refused[failure.code] = refused.get(failure.code, 0) + 1
            settle_bots(app, game_id)
            finding = verify(app.tables.stored_events(game_id), rules_for)
            assert finding.ok, (seed, finding)
    assert undone > 0 and refused, (undone, refused)
