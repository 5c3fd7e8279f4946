"""§14 hidden information: changing only a secret never changes what a seat or a spectator sees.

Secrets: the draw pile order, the round stack order, the removed round card, the face-down pair
(until taken; then only its taker sees it until the keep, R-05).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator

import pytest

from domain.engine import play
from domain.imhotep import data
from domain.imhotep.rules import RULES
from domain.imhotep.state import State, pending
from tests.harness import start

Secret = Callable[[State, random.Random], bool]


def _shuffle_draw(state: State, rng: random.Random) -> bool:
    rng.shuffle(state.draw)
    return True


def _shuffle_round_stack(state: State, rng: random.Random) -> bool:
    rng.shuffle(state.round_stack)
    return True


def _swap_removed(state: State, rng: random.Random) -> bool:
    if not state.round_stack:
        return False
    i = rng.randrange(len(state.round_stack))
    state.removed, state.round_stack[i] = state.round_stack[i], str(state.removed)
    return True


def _swap_pair(state: State, rng: random.Random) -> bool:
    if not state.pair or not state.draw:
        return False
    i, j = rng.randrange(len(state.pair)), rng.randrange(len(state.draw))
    state.pair[i], state.draw[j] = state.draw[j], state.pair[i]
    return True


SECRETS: dict[str, Secret] = {
    "draw_pile_order": _shuffle_draw,
    "round_stack_order": _shuffle_round_stack,
    "removed_round_card": _swap_removed,
    "face_down_pair": _swap_pair,
}


def _states(seats: int, sides: str, seed: int) -> Iterator[State]:
    options = RULES.normalize_options(seats, {"sides": sides})
    rng = random.Random(seed)
    _, state = start(RULES, seats, options, seed)
    while RULES.outcome(state) is None:
        yield state
        seat = rng.choice(RULES.active_seats(state))
        _, state = play(RULES, state, seat, rng.choice(RULES.legal_actions(state, seat)), rng)


@pytest.mark.parametrize("secret", list(SECRETS))
@pytest.mark.parametrize(("seats", "sides"), [(2, "B"), (3, "B"), (4, "A"), (4, "B")])
def test_14_changing_a_secret_does_not_change_any_view(seats: int, sides: str, secret: str) -> None:
    rng = random.Random(7)
    changed = 0
    for state in _states(seats, sides, seed=seats * 11):
        other = state.copy()
        if not SECRETS[secret](other, rng):
            continue
        changed += 1
        for viewer in [None, *range(seats)]:
            assert RULES.view(other, viewer) == RULES.view(state, viewer), (secret, viewer)
    assert changed or (sides == "A" and secret == "face_down_pair")


def test_14_taken_pair_is_seen_by_its_taker_only_until_the_keep() -> None:
    seen = 0
    for state in _states(4, "B", seed=3):
        frame = pending(state)
        if frame is None or frame[0] != "market_keep":
            continue
        other = state.copy()
        replacement = "statue" if frame[2] != "statue" else "lever"
        other.stack[-1] = (frame[0], frame[1], replacement, frame[3])
        for viewer in [None, *range(4)]:
            same = RULES.view(other, viewer) == RULES.view(state, viewer)
            assert same == (viewer != frame[1]), viewer
        seen += 1
    assert seen


def test_14_setup_events_are_redacted_to_counts() -> None:
    options = RULES.normalize_options(4, {"sides": "B"})
    a = RULES.setup(4, options, random.Random(1))
    b = RULES.setup(4, options, random.Random(2))
    for viewer in [None, 0, 1, 2, 3]:
        shown = [RULES.view_event(e, viewer) for e in a]
        assert shown[0].data == {
            "deck_count": 34, "round_stack_count": 6, "start_player": a[0].data["start_player"],
            "colours": list(data.COLOURS),
        }  # fmt: skip
        assert "pair" not in shown[1].data and shown[1].data["pair_count"] == 2
        assert json.dumps([e.data for e in shown])
    assert RULES.view_event(a[0], None, full=True) == a[0]
    assert a[0].data["deck"] != b[0].data["deck"]


def test_14_full_view_after_the_game_reveals_everything() -> None:
    options = RULES.normalize_options(2, {})
    rng = random.Random(5)
    _, state = start(RULES, 2, options, 5)
    while RULES.outcome(state) is None:
        seat = RULES.active_seats(state)[0]
        _, state = play(RULES, state, seat, rng.choice(RULES.legal_actions(state, seat)), rng)
    view = RULES.view(state, None, full=True)
    assert view["game_over"] and view["hidden"]["removed_round_card"] == state.removed
    assert view["outcome"]["winners"] == state.winners
    assert "hidden" not in RULES.view(state, 0)
    json.dumps(view)


def test_14_view_lists_what_a_client_needs() -> None:
    _, state = start(RULES, 3, RULES.normalize_options(3, {}), 1)
    view = RULES.view(state, state.current)
    assert set(view) == {
        "game", "round", "rounds", "viewer", "current_player", "start_player", "options",
        "players", "ships", "docks", "market", "sites", "discard_pile", "draw_pile_count",
        "round_stack_count", "round_cards", "passes", "pending", "final_scoring", "game_over",
        "outcome",
    }  # fmt: skip
    assert view["pending"]["kind"] == "turn" and view["pending"]["options"]
    assert RULES.view(state, (state.current + 1) % 3)["pending"]["options"] is None
