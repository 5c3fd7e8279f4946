"""Forks of a running game (``Rules.fork``) for Imhotep: the sandbox keeps what the
forking seats may see (§14) and re-deals the rest — the draw pile, the face-down pair, a pair held
by another seat, the round stack and the removed round card.

``PAPYRUS_PROPERTY_GAMES`` sets the number of games per configuration (default 3).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

from domain.engine import play
from domain.imhotep.fork import FORK_DEALT, restore, snapshot
from domain.imhotep.rules import RULES
from domain.imhotep.state import State, pending
from tests.harness import play_fork_out, some_seats, start

GAMES = max(1, int(os.environ.get("PAPYRUS_PROPERTY_GAMES", "3")))
CONFIGS = [(2, "A", False), (3, "B", True), (4, "B", False), (4, "A", True)]


def positions(seats: int, sides: str, wrath: bool, seed: int) -> list[State]:
    """Every state of one random game in which some seat must act (the command starts)."""
    options = RULES.normalize_options(seats, {"sides": sides, "wrath_of_the_pharaoh": wrath})
    rng = random.Random(seed)
    _, state = start(RULES, seats, options, seed)
    out = []
    while RULES.outcome(state) is None:
        out.append(state.copy())
        seat = rng.choice(RULES.active_seats(state))
        _, state = play(RULES, state, seat, rng.choice(RULES.legal_actions(state, seat)), rng)
    return out


def hidden(state: State, seats: list[int]) -> tuple[list[str], list[str]]:
    """The market cards and round cards none of ``seats`` may see (§14)."""
    frame = pending(state)
    held = list(frame[2:]) if frame and frame[0] == "market_keep" and frame[1] not in seats else []
    rounds = [*state.round_stack, state.removed] if state.removed else []
    return state.draw + state.pair + held, rounds


@pytest.mark.parametrize(("n", "sides", "wrath"), CONFIGS)
def test_snapshot_and_restore_are_inverse_through_json(n: int, sides: str, wrath: bool) -> None:
    """The fork event records the whole position as JSON; restoring it gives the same state."""
    for state in positions(n, sides, wrath, seed=n * 7)[::3]:
        assert restore(json.loads(json.dumps(snapshot(state)))) == state


@pytest.mark.parametrize(("n", "sides", "wrath"), CONFIGS)
def test_14_a_fork_keeps_what_the_seats_see_and_redeals_the_rest(
    n: int, sides: str, wrath: bool
) -> None:
    changed = 0
    for game in range(GAMES):
        rng = random.Random(game)
        for state in positions(n, sides, wrath, seed=1000 * n + game)[::5]:
            seats = some_seats(rng, n)
            event = RULES.fork(state, seats, random.Random(rng.random()))
            assert event.type == FORK_DEALT and event.seat is None
            forked = restore(event.data["state"])
            for seat in seats:  # §14: every seat of the fork sees exactly what it saw
                assert RULES.view(forked, seat) == RULES.view(state, seat)
                assert RULES.legal_actions(forked, seat) == RULES.legal_actions(state, seat)
            assert RULES.view(forked, None) == RULES.view(state, None)
            cards, rounds = hidden(state, seats)
            new_cards, new_rounds = hidden(forked, seats)
            assert Counter(new_cards) == Counter(cards) and Counter(new_rounds) == Counter(rounds)
            assert len(forked.draw) == len(state.draw) and len(forked.pair) == len(state.pair)
            changed += (new_cards, new_rounds) != (cards, rounds)
    assert changed > 0, "the hidden cards were never re-dealt"


def test_14_a_taken_pair_is_kept_for_its_taker_and_redealt_for_others() -> None:
    """§14: while a pair waits for ``market_keep`` only its taker sees it."""
    found = 0
    for seed in range(40):
        for state in positions(3, "B", False, seed):
            frame = pending(state)
            if not (frame and frame[0] == "market_keep"):
                continue
            taker = frame[1]
            for k in range(5):
                mine = restore(RULES.fork(state, [taker], random.Random(k)).data["state"])
                assert pending(mine) == frame
            others = [s for s in range(3) if s != taker]
            theirs = [
                pending(restore(RULES.fork(state, others, random.Random(k)).data["state"]))
                for k in range(20)
            ]
            assert all(t is not None and t[:2] == frame[:2] for t in theirs)
            assert any(t != frame for t in theirs), "a foreign pair must be re-dealt"
            found += 1
        if found >= 3:
            return
    pytest.fail("no game took a pair")


@pytest.mark.parametrize(("n", "sides", "wrath"), CONFIGS[:2])
def test_a_fork_depends_only_on_what_the_seats_may_see(n: int, sides: str, wrath: bool) -> None:
    """Two positions that look the same to the seats (B is a re-deal of A) fork identically for
    the same randomness: nothing of where the hidden cards really were can leak into a fork."""
    rng = random.Random(n)
    for state in positions(n, sides, wrath, seed=77 + n)[::4]:
        seats = some_seats(rng, n)
        twin = restore(RULES.fork(state, seats, random.Random(rng.random())).data["state"])
        k = rng.random()
        assert (
            RULES.fork(state, seats, random.Random(k)).data
            == RULES.fork(twin, seats, random.Random(k)).data
        )


@pytest.mark.parametrize(("n", "sides", "wrath"), CONFIGS)
def test_a_forked_game_plays_to_its_end_and_replays(n: int, sides: str, wrath: bool) -> None:
    options = RULES.normalize_options(n, {"sides": sides, "wrath_of_the_pharaoh": wrath})
    for game in range(GAMES):
        rng = random.Random(game)
        source = positions(n, sides, wrath, seed=500 + game)
        state = source[rng.randrange(len(source))]
        event = RULES.fork(state, some_seats(rng, n), rng)
        assert RULES.outcome(play_fork_out(RULES, n, options, event, rng)) is not None


def test_the_fork_event_shows_each_seat_only_its_view() -> None:
    """§14 on the event itself: redacted to the position as the seat sees it; whole with full."""
    state = positions(4, "B", False, seed=3)[40]
    event = RULES.fork(state, [0], random.Random(1))
    position = restore(event.data["state"])
    for seat in [None, 0, 1, 2, 3]:
        shown = RULES.view_event(event, seat, False)
        assert shown is not None and shown.data == {"state": RULES.view(position, seat)}
        assert "draw" not in json.dumps(shown.data).replace("draw_pile_count", "")
    assert RULES.view_event(event, 2, True) == event
    assert RULES.is_irreversible(event)
