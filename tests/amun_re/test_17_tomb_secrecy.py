"""§17 / R7.9 / R16.1.2 for the Afterlife module: the faces of the Tomb tiles in a collection
(and the order of the tomb stack) are secret; others see only how many tiles each player holds.

On every domain read path — ``view``, ``view_event`` of the events so far and ``legal_actions``
of the other seats — changing only one seat's collection faces (and the stack order) changes
nothing another seat or a spectator sees.
"""

from __future__ import annotations

import random

import pytest

from domain.amun_re import data
from domain.amun_re.rules import RULES
from domain.amun_re.state import State
from domain.contract import Event
from domain.engine import play
from tests.amun_re.test_17_secrecy import with_other_secrets
from tests.harness import start

ALL = {"afterlife": True, "statues": True, "pharaoh": True, "promo_favours": True}


def positions(seats: int, seed: int, every: int = 11) -> list[tuple[State, list[Event]]]:
    """Snapshots of a random all-modules game (biased to buying tiles) with its events."""
    rng = random.Random(seed)
    options = RULES.normalize_options(seats, ALL)
    events, state = start(RULES, seats, options, seed)
    out = []
    n = 0
    while RULES.outcome(state) is None:
        seat = rng.choice(RULES.active_seats(state))
        legal = RULES.legal_actions(state, seat)
        tiles = [a for a in legal if a["type"] == "buy_tomb_tiles"]
        action = tiles[0] if tiles and rng.random() < 0.7 else rng.choice(legal)
        steps, state = play(RULES, state, seat, action, rng)
        events += [s.event for s in steps]
        n += 1
        if n % every == 0:
            out.append((state.clone(), list(events)))
    return out


def other_faces(state: State, seat: int, rng: random.Random) -> State:
    """The same position where only ``seat``'s collection faces and the stack order differ."""
    other = state.clone()
    held = [data.TOMB_TILES[t] for t, n in enumerate(other.collection[seat]) for _ in range(n)]
    pool = held + other.tomb_stack
    rng.shuffle(pool)
    other.collection[seat] = [0] * len(data.TOMB_TILES)
    for tile in pool[: len(held)]:
        other.collection[seat][data.TOMB_INDEX[tile]] += 1
    other.tomb_stack = pool[len(held) :]
    return other


def redraw(event: Event, seat: int, rng: random.Random) -> Event:
    """The same event with other tile faces when it is ``seat``'s tile draw."""
    if event.type != "tomb_tiles_drawn" or event.seat != seat:
        return event
    tiles = [rng.choice(data.TOMB_TILES) for _ in event.data["tiles"]]
    return Event(event.type, {**event.data, "tiles": tiles}, event.seat)


@pytest.mark.parametrize(("seats", "seed"), [(3, 21), (4, 22), (5, 23)])
def test_r16_1_2_collection_faces_are_secret_on_every_read_path(seats, seed):
    rng = random.Random(seed)
    checked = 0
    for state, events in positions(seats, seed):
        secret = max(range(seats), key=lambda s: sum(state.collection[s]))
        if not sum(state.collection[secret]) or state.phase in ("offering", "final_sale"):
            continue
        changed = other_faces(state, secret, rng)
        if changed.collection[secret] == state.collection[secret]:
            continue
        log = [redraw(e, secret, rng) for e in events]
        for viewer in [None, *(s for s in range(seats) if s != secret)]:
            assert RULES.view(changed, viewer) == RULES.view(state, viewer)
            assert [RULES.view_event(e, viewer) for e in log] == [
                RULES.view_event(e, viewer) for e in events
            ]
            if viewer is not None:
                assert RULES.legal_actions(changed, viewer) == RULES.legal_actions(state, viewer)
        assert RULES.view(changed, secret) != RULES.view(state, secret)
        checked += 1
    assert checked >= 3


def test_r16_1_2_a_tile_draw_is_seen_only_by_the_drawer():
    event = Event(
        "tomb_tiles_drawn",
        {"tiles": ["vp", "gold"], "requested": 2, "reason": "purchase", "reshuffle": None},
        1,
    )
    assert RULES.view_event(event, 1) == Event(
        "tomb_tiles_drawn",
        {"tiles": ["vp", "gold"], "requested": 2, "reason": "purchase", "reshuffled": False},
        1,
    )
    for viewer in (None, 0, 2):
        assert RULES.view_event(event, viewer) == Event(
            "tomb_tiles_drawn",
            {"count": 2, "requested": 2, "reason": "purchase", "reshuffled": False},
            1,
        )
    assert RULES.view_event(event, 0, full=True) == event


def test_r6_7_module_shuffles_are_hidden_and_collections_show_only_counts():
    options = RULES.normalize_options(3, ALL)
    events = RULES.setup(3, options, random.Random(4))
    shown = RULES.view_event(events[0], 0)
    assert shown is not None
    assert shown.data["statue_deck_count"] == 8 and shown.data["tomb_stack_count"] == 60
    _, state = start(RULES, 3, options, 4)
    state.collection[2][data.T_GOLD] = 2
    view = RULES.view(state, 0)
    assert view["players"][2]["collection_count"] == 2 and "collection" not in view["players"][2]
    assert view["you"]["collection"] == {} and view["tomb_stack_count"] == 60
    assert RULES.view(state, 2)["you"]["collection"] == {"gold": 2}
    assert "tomb_stack" not in RULES.view(state, None).get("hidden", {})
    assert RULES.view(state, None, full=True)["players"][2]["collection"] == {"gold": 2}


@pytest.mark.parametrize(("seats", "seed"), [(3, 31), (5, 32)])
def test_r7_9_gold_and_hand_faces_stay_secret_with_all_modules(seats, seed):
    rng = random.Random(seed)
    for state, _events in positions(seats, seed, every=17):
        if state.phase in ("offering", "final_sale"):
            continue  # marks refer to hand faces; covered by the commitment tests
        secret = rng.randrange(seats)
        changed = with_other_secrets(state, secret, rng)
        for viewer in [None, *(s for s in range(seats) if s != secret)]:
            assert RULES.view(changed, viewer) == RULES.view(state, viewer)
            if viewer is not None:
                assert RULES.legal_actions(changed, viewer) == RULES.legal_actions(state, viewer)
