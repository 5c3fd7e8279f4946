"""§17 hidden information (R7.9, R11.1, R11.5, R15.1): what other seats may not learn.

* During the Offering, for any other seat (and a spectator): ``view``, ``view_event`` of every
  event so far and ``legal_actions`` are the same whatever a seat's private steps and commitment
  were, until the reveal.
* Changing only one seat's secrets (gold, hand faces, the deck orders) changes no other seat's
  view.
"""

from __future__ import annotations

import random

import pytest

from domain.amun_re import data
from domain.amun_re.rules import RULES
from domain.amun_re.state import State
from domain.contract import Event
from domain.engine import play
from tests.amun_re.scenario import clear_provinces, enter, give_province, new_game, set_hand
from tests.harness import start


def advance_to_offering(seats: int, seed: int) -> tuple[list[Event], State]:
    """Random play until an Offering where at least two seats still have to commit."""
    rng = random.Random(seed)
    options = RULES.normalize_options(seats, {})
    events, state = start(RULES, seats, options, seed)
    while not (
        state.phase == "offering"
        and sum(not c for c in state.committed) >= 2
        and any(sum(state.hands[s]) for s in RULES.active_seats(state))
    ):
        seat = rng.choice(RULES.active_seats(state))
        steps, state = play(RULES, state, seat, rng.choice(RULES.legal_actions(state, seat)), rng)
        events += [s.event for s in steps]
    return events, state


def variants(state: State, seat: int) -> list[list[dict]]:
    legal = RULES.legal_actions(state, seat)
    marks = [a for a in legal if a["type"] == "mark_for_sale"][:1]
    adjust = [a for a in legal if a["type"] == "set_adjustment"][-1:]
    golds = [a for a in legal if a["type"] == "commit_gold"]
    out = [[{"type": "commit_theft", "greed": False}]]
    if golds:
        out.append([golds[-1]])
        out.append([*adjust, golds[0]])
    out.append([*marks, {"type": "commit_theft", "greed": False}])
    return out


def seen_by(events: list[Event], state: State, viewer: int | None) -> tuple:
    shown = [RULES.view_event(e, viewer) for e in events]
    legal = RULES.legal_actions(state, viewer) if viewer is not None else None
    return [e for e in shown if e is not None], RULES.view(state, viewer), legal


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (4, 2), (5, 3), (5, 8)])
def test_r11_1_commitments_stay_secret_until_the_reveal(seats, seed):
    events, state = advance_to_offering(seats, seed)
    active = RULES.active_seats(state)
    secret = next(s for s in active if sum(state.hands[s]))
    others = [None, *(s for s in range(seats) if s != secret)]
    seen = []
    for steps_to_take in variants(state, secret):
        copy = state.clone()
        log = list(events)
        for action in steps_to_take:
            steps, copy = play(RULES, copy, secret, action, random.Random(0))
            log += [s.event for s in steps]
        assert copy.phase == "offering", "the reveal must not have happened yet"
        seen.append({viewer: seen_by(log, copy, viewer) for viewer in others})
    assert len(seen) >= 2
    for other in seen[1:]:
        assert other == seen[0]


def test_r11_1_a_seat_sees_its_own_private_steps():
    _events, state = advance_to_offering(4, 2)
    seat = next(s for s in RULES.active_seats(state) if sum(state.hands[s]))
    mark = next(a for a in RULES.legal_actions(state, seat) if a["type"] == "mark_for_sale")
    steps, state = play(RULES, state, seat, mark, random.Random(0))
    event = steps[0].event
    assert RULES.view_event(event, seat) == event
    assert RULES.view_event(event, (seat + 1) % 4) is None
    assert RULES.view_event(event, None) is None
    assert RULES.view_event(event, None, full=True) == event
    assert RULES.view(state, seat)["you"]["marked_for_sale"] == {mark["card"]: 1}
    steps, state = play(
        RULES, state, seat, {"type": "commit_theft", "greed": False}, random.Random(0)
    )
    committed = steps[0].event
    assert RULES.view_event(committed, (seat + 1) % 4) == Event("offering_committed", {}, seat)
    assert RULES.view(state, (seat + 1) % 4)["offering"]["committed"][seat] is True


def positions(seats: int, seed: int, every: int = 23) -> list[State]:
    rng = random.Random(seed)
    _, state = start(RULES, seats, RULES.normalize_options(seats, {}), seed)
    out = []
    n = 0
    while RULES.outcome(state) is None:
        seat = rng.choice(RULES.active_seats(state))
        _, state = play(RULES, state, seat, rng.choice(RULES.legal_actions(state, seat)), rng)
        n += 1
        if n % every == 0:
            out.append(state.clone())
    return out


def with_other_secrets(state: State, seat: int, rng: random.Random) -> State:
    """The same position where only ``seat``'s gold and hand faces and the deck orders differ."""
    other = state.clone()
    other.gold[seat] += 7
    hand = [data.CARDS[c] for c, n in enumerate(other.hands[seat]) for _ in range(n)]
    pool = hand + other.draw
    rng.shuffle(pool)
    other.hands[seat] = [0] * len(data.CARDS)
    for card in pool[: len(hand)]:
        other.hands[seat][data.CARD_INDEX[card]] += 1
    other.draw = pool[len(hand) :]
    rng.shuffle(other.deck)
    return other


@pytest.mark.parametrize(("seats", "seed"), [(3, 11), (5, 12)])
def test_r7_9_another_seats_secrets_do_not_change_a_view(seats, seed):
    rng = random.Random(seed)
    for state in positions(seats, seed):
        if state.phase in ("offering", "final_sale"):
            continue  # marks refer to hand faces; covered by the commitment test
        secret = rng.randrange(seats)
        changed = with_other_secrets(state, secret, rng)
        for viewer in [None, *(s for s in range(seats) if s != secret)]:
            assert RULES.view(changed, viewer) == RULES.view(state, viewer)
            if viewer is not None:
                assert RULES.legal_actions(changed, viewer) == RULES.legal_actions(state, viewer)


def test_r7_9_drawn_cards_are_seen_only_by_the_drawer():
    event = Event(
        "favour_cards_drawn",
        {"cards": ["bribe"], "requested": 1, "reason": "gift", "reshuffle": ["architect", "bribe"]},
        2,
    )
    own = RULES.view_event(event, 2)
    other = RULES.view_event(event, 0)
    assert own is not None and other is not None
    assert own.data == {"cards": ["bribe"], "requested": 1, "reason": "gift", "reshuffled": True}
    assert other.data == {"count": 1, "requested": 1, "reason": "gift", "reshuffled": True}


def test_r6_2_setup_orders_are_hidden_from_everybody():
    events = RULES.setup(3, RULES.normalize_options(3, {}), random.Random(5))
    shown = RULES.view_event(events[0], 0)
    assert shown is not None and shown.data == {
        "province_deck_count": 9,
        "draw_pile_count": 36,
        "start_player": events[0].data["start_player"],
    }
    assert RULES.view_event(Event("something_new", {"x": 1}), 0) is None


@pytest.mark.parametrize(("seats", "seed"), [(4, 2), (5, 3)])
def test_r11_1_gold_of_a_seat_is_not_visible_during_the_offering(seats, seed):
    _, state = advance_to_offering(seats, seed)
    secret = RULES.active_seats(state)[0]
    richer = state.clone()
    richer.gold[secret] += 9
    for viewer in [None, *(s for s in range(seats) if s != secret)]:
        assert RULES.view(richer, viewer) == RULES.view(state, viewer)
        if viewer is not None:
            assert RULES.legal_actions(richer, viewer) == RULES.legal_actions(state, viewer)


def final_sale_table() -> State:
    state = new_game(3, start=0)
    clear_provinces(state)
    for seat, name in enumerate(("abu", "edfu", "kharga")):
        give_province(state, seat, name)
        set_hand(state, seat, "bribe", "architect")
    state.round = 6
    enter(state, "final_sale_started")
    return state


def test_r15_1_the_final_sale_stays_secret_until_executed():
    seen = []
    for choice in ([], ["bribe"], ["bribe", "architect"]):
        state = final_sale_table()
        log = []
        for card in choice:
            steps, state = play(
                RULES, state, 0, {"type": "mark_for_sale", "card": card}, random.Random(0)
            )
            log += [s.event for s in steps]
        if RULES.active_seats(state)[:1] == [0]:
            steps, state = play(RULES, state, 0, {"type": "final_sale"}, random.Random(0))
            log += [s.event for s in steps]
        assert state.phase == "final_sale" and 0 not in RULES.active_seats(state)
        seen.append({viewer: seen_by(log, state, viewer) for viewer in (None, 1, 2)})
    assert seen[0] == seen[1] == seen[2]


def test_r7_9_a_hand_is_a_count_for_all_and_a_sorted_list_for_its_owner():
    """R7.9 / §17: every seat sees each hand's size (``hand_count``); a hand's cards (``hand``:
    card ids sorted, a card held twice listed twice) only its owner, everyone in the full view."""
    state = new_game(3, start=0)
    set_hand(state, 1, "protection", "bribe", "protection")
    set_hand(state, 2)
    for viewer in (None, 0, 1, 2):
        players = RULES.view(state, viewer)["players"]
        assert [p["hand_count"] for p in players] == [sum(state.hands[0]), 3, 0]
        assert [("hand" in p) for p in players] == [s == viewer for s in range(3)]
        assert viewer is None or "hand" not in RULES.view(state, viewer)["you"]
    assert RULES.view(state, 1)["players"][1]["hand"] == ["bribe", "protection", "protection"]
    full = RULES.view(state, None, full=True)["players"]
    assert [p["hand"] for p in full[1:]] == [["bribe", "protection", "protection"], []]
