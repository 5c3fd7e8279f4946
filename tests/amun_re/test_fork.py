"""Forks of a running game (``Rules.fork``) for Amun-Re: the sandbox keeps what the
forking seats may see (R7.9, §17) and re-deals what is hidden from all of them — the Favour draw
pile and the other seats' hands, the tomb stack and the other seats' collections, the statue
deck, the province deck and the secret part of the province set — and withdraws the other seats'
secret commitments during the Offering and the final sale (R11.1, R15.1). The other seats'
gold is assumed from public information only, never copied nor taken from the forking seats'
own gold (R7.9, D-46).

``PAPYRUS_PROPERTY_GAMES`` sets the number of games per configuration (default 2).
"""

from __future__ import annotations

import itertools
import json
import os
import random
from collections import Counter
from dataclasses import fields
from typing import Any

import pytest

from domain.amun_re import data
from domain.amun_re.fork import FORK_DEALT, SECRET_PHASES, restore, snapshot
from domain.amun_re.rules import RULES
from domain.amun_re.state import State
from domain.contract import JSON
from domain.engine import play, run_automatic
from tests.amun_re.test_properties import choose_keeping_cards
from tests.harness import play_fork_out, some_seats, start

GAMES = max(1, int(os.environ.get("PAPYRUS_PROPERTY_GAMES", "2")))
MODULES = ("afterlife", "statues", "pharaoh", "promo_favours")
COMBOS = [
    {m: True for m, on in zip(MODULES, bits, strict=True) if on}
    for bits in itertools.product((False, True), repeat=4)
]
ALL = dict.fromkeys(MODULES, True)
#: (seats, options) of the property tests: 3, 4 and 5 players, modules off, some, all
CONFIGS = [
    (3, {}),
    (4, {}),
    (5, {}),
    (3, ALL),
    (4, {"afterlife": True, "statues": True}),
    (5, ALL),
    (4, {"promo_favours": True, "pharaoh": True, "classic_bank_majority": True}),
]
#: fields a fork may change; every other field is kept as it is
REDEALT = {"draw", "hands", "tomb_stack", "collection", "statue_deck", "province_set", "deck"}
ASSUMED = {"gold", "ledger"}  # other seats' gold (D-46), and the ledger that adds it up
COMMITMENT = {"committed", "marked", "adjust", "offer", "greed"}
OTHER_FIELDS = [f.name for f in fields(State) if f.name not in REDEALT | COMMITMENT | ASSUMED]


def positions(seats: int, options: JSON, seed: int, keep_cards: bool = False) -> list[State]:
    """Every state of one random game in which some seat must decide (after the automatic
    steps), as the platform would fork it. ``keep_cards``: random play biased towards Favour
    cards (fuller hands, marks, adjustments, a final sale to decide)."""
    options = RULES.normalize_options(seats, options)
    rng = random.Random(seed)
    _, state = start(RULES, seats, options, seed)
    out = []
    while RULES.outcome(state) is None:
        out.append(state.clone())
        seat = rng.choice(RULES.active_seats(state))
        legal = RULES.legal_actions(state, seat)
        action = choose_keeping_cards(legal, rng) if keep_cards else rng.choice(legal)
        _, state = play(RULES, state, seat, action, rng)
    return out


def cards(counts: list[int]) -> list[int]:
    return [i for i, n in enumerate(counts) for _ in range(n)]


def forked(state: State, seats: list[int], rng: random.Random) -> State:
    event = RULES.fork(state, seats, rng)
    assert event.type == FORK_DEALT and event.seat is None
    return restore(event.data["state"])


def expected_commitments(state: State, seats: list[int]) -> list[bool]:
    """R11.1 / R15.1: in a secret phase the other seats' commitments are withdrawn."""
    if state.phase not in SECRET_PHASES:
        return list(state.committed)
    return [state.committed[x] and x in seats for x in range(state.seats)]


def expected_view(state: State, seats: list[int], viewer: int | None) -> JSON:
    """The view of the source position with the other seats' commitments withdrawn."""
    shown = RULES.view(state, viewer)
    if state.phase in SECRET_PHASES:
        committed = expected_commitments(state, seats)
        shown[state.phase] = {"committed": committed}
        shown["to_act"] = [x for x in range(state.seats) if not committed[x]]
    return shown


def assert_nothing_shared(a: Any, b: Any) -> None:
    """No list or dict of ``a`` is also an object of ``b`` (fresh lists, nothing shared)."""
    if isinstance(a, list | dict):
        assert a is not b
        pairs = (
            zip(a.values(), b.values(), strict=True)
            if isinstance(a, dict)
            else zip(a, b, strict=True)
        )
        for x, y in pairs:
            assert_nothing_shared(x, y)


@pytest.mark.parametrize("combo", range(len(COMBOS)))
def test_snapshot_and_restore_are_inverse_through_json(combo: int) -> None:
    """The fork event records the whole position as JSON (string keys only: the event is hashed
    as canonical JSON); restoring it gives the same state, sharing nothing with it."""
    seats = 3 + combo % 3
    for state in positions(seats, COMBOS[combo], seed=31 * combo + 5)[::3]:
        d = snapshot(state)
        text = json.dumps(d, sort_keys=True)
        back = restore(json.loads(text))
        assert back == state
        assert json.dumps(snapshot(back), sort_keys=True) == text
        fresh = restore(d)
        assert fresh == state
        for f in fields(State):
            assert_nothing_shared(getattr(fresh, f.name), d[f.name])
            assert_nothing_shared(getattr(fresh, f.name), getattr(state, f.name))


def assumed_gold(state: State, seats: list[int], x: int) -> int:
    """D-46, written out again: the start gold (R6.4, public), kept within what the board shows
    of seat ``x``'s gold (a standing bid stays affordable, R9.6; a seller still owes, R9.8);
    never anything of the forking seats' own gold."""
    gold = data.START_GOLD
    card = state.bid_on[x]
    if state.phase in ("auction", "resolution") and card >= 0 and state.standing[card] == x:
        gold = max(gold, state.bid_value[x] - sum(state.hands[x]))
    if state.phase == "resolution" and RULES.active_seats(state) == [x]:
        gold = min(gold, state.bid_value[x] - 1)
    return gold


@pytest.mark.parametrize(("n", "options"), CONFIGS)
def test_r7_9_a_fork_keeps_what_the_seats_see_and_redeals_the_rest(n: int, options: JSON) -> None:
    """R7.9 / §17: each forking seat (and a spectator) sees exactly what it saw, except that the
    other seats' secret commitments are withdrawn in the Offering and the final sale; the hidden
    Favour cards, tiles, statues and provinces are conserved, in the same places and sizes."""
    changed: set[str] = set()
    withdrawn = 0
    phases: set[str] = set()
    for game in range(GAMES):
        rng = random.Random(game)
        seed = 1000 * n + 17 * game + len(options)
        for state in positions(n, options, seed, keep_cards=game % 2 == 1)[::3]:
            phases.add(state.phase)
            seats = some_seats(rng, n)
            others = [x for x in range(n) if x not in seats]
            fork = forked(state, seats, random.Random(rng.random()))
            for viewer in [None, *seats]:
                assert RULES.view(fork, viewer) == expected_view(state, seats, viewer)
            for seat in seats:
                assert RULES.legal_actions(fork, seat) == RULES.legal_actions(state, seat)
            for name in OTHER_FIELDS:  # the board, the piles face up, the bids, …
                assert getattr(fork, name) == getattr(state, name), name
            # gold (R7.9, D-46): the forking seats' own; the others' from public facts only
            assert [fork.gold[x] for x in seats] == [state.gold[x] for x in seats]
            for x in others:
                assert fork.gold[x] == assumed_gold(state, seats, x)
            assert sum(fork.gold) == sum(fork.ledger.values())  # the bank ledger adds up
            assert fork.ledger == {**dict.fromkeys(state.ledger, 0), "start": sum(fork.gold)}
            # commitments: kept, except the other seats' during a secret phase
            assert fork.committed == expected_commitments(state, seats)
            for x in range(n):
                if state.phase in SECRET_PHASES and x in others:
                    assert fork.marked[x] == [0] * len(data.CARDS) and fork.adjust[x] == 0
                    withdrawn += state.committed[x] or any(state.marked[x])
                    if state.phase == "offering":
                        assert fork.offer[x] == 0 and fork.greed[x] is False
                    else:  # R15.1: the round-6 Offering is public since its reveal
                        assert fork.offer[x] == state.offer[x]
                        assert fork.greed[x] == state.greed[x]
                else:
                    assert fork.marked[x] == state.marked[x]
                    assert (fork.adjust[x], fork.offer[x]) == (state.adjust[x], state.offer[x])
                    assert fork.greed[x] == state.greed[x]
            # Favour cards (R7.9): the forking seats' hands kept, the others' sizes kept
            for x in seats:
                assert fork.hands[x] == state.hands[x]
                assert fork.collection[x] == state.collection[x]
            for x in others:
                assert sum(fork.hands[x]) == sum(state.hands[x])
                assert sum(fork.collection[x]) == sum(state.collection[x])
            assert len(fork.draw) == len(state.draw)
            assert Counter(fork.draw + [data.CARDS[c] for h in fork.hands for c in cards(h)]) == (
                Counter(state.draw + [data.CARDS[c] for h in state.hands for c in cards(h)])
            )
            # tomb tiles (R16.1.1)
            assert len(fork.tomb_stack) == len(state.tomb_stack)
            assert Counter(
                fork.tomb_stack + [data.TOMB_TILES[t] for c in fork.collection for t in cards(c)]
            ) == Counter(
                state.tomb_stack + [data.TOMB_TILES[t] for c in state.collection for t in cards(c)]
            )
            # statue deck: the same statues (R7.9)
            assert sorted(fork.statue_deck) == sorted(state.statue_deck)
            # provinces (R7.9, §17): the seen ones stay in the set, the set keeps its size and
            # the provinces revealed this kingdom stay out of the deck
            seen = {p for p in range(len(data.PROVINCES)) if state.seen[p]}
            this_kingdom = set(state.province_set) - set(state.deck)
            assert len(fork.province_set) == len(state.province_set)
            assert fork.province_set == sorted(fork.province_set)
            assert seen <= set(fork.province_set)
            assert len(fork.deck) == len(state.deck)
            assert sorted(fork.deck) == sorted(set(fork.province_set) - this_kingdom)
            if n == data.MAX_PLAYERS:  # every province is in the game
                assert fork.province_set == state.province_set
            # which hidden items were re-dealt
            if fork.draw != state.draw:
                changed.add("draw")
            if any(fork.hands[x] != state.hands[x] for x in others):
                changed.add("hands")
            if fork.tomb_stack != state.tomb_stack:
                changed.add("tomb_stack")
            if any(fork.collection[x] != state.collection[x] for x in others):
                changed.add("collection")
            if fork.statue_deck != state.statue_deck:
                changed.add("statue_deck")
            if fork.province_set != state.province_set:
                changed.add("province_set")
            if fork.deck != state.deck:
                changed.add("deck")
    expected = {"draw", "hands", "deck"}
    if options.get("afterlife"):
        expected |= {"tomb_stack", "collection"}
    if options.get("statues"):
        expected.add("statue_deck")
    if n < data.MAX_PLAYERS:
        expected.add("province_set")
    assert expected <= changed, f"never re-dealt: {sorted(expected - changed)}"
    assert withdrawn > 0, "no fork withdrew another seat's commitment"
    assert {"auction", "market", "offering", "harvest"} <= phases


def offering_positions(n: int, options: JSON, phase: str) -> list[State]:
    """Positions of ``phase`` in which some seats have committed and some have not."""
    out = []
    for seed in range(20):
        for state in positions(n, options, seed=700 + seed):
            if state.phase == phase and 0 < sum(state.committed) < n:
                out.append(state)
        if len(out) >= 6:
            return out
    pytest.fail(f"no {phase} position with a partial commitment")


@pytest.mark.parametrize("phase", SECRET_PHASES)
def test_r11_1_r15_1_other_commitments_are_withdrawn_own_are_kept(phase: str) -> None:
    """R11.1 / R15.1: a committed seat outside the fork must commit again in the sandbox; a
    forking seat keeps its commitment (and sees its own offer), which the reveal executes."""
    for state in offering_positions(4, {"promo_favours": True}, phase):
        done = [x for x in range(4) if state.committed[x]]
        mine = done[0]
        fork = forked(state, [mine], random.Random(3))
        assert RULES.active_seats(fork) == [x for x in range(4) if x != mine]
        for viewer in (None, mine):
            assert RULES.view(fork, viewer) == expected_view(state, [mine], viewer)
        if phase == "final_sale":  # the round-6 Offering is public since its reveal
            assert (fork.offer, fork.greed) == (state.offer, state.greed)
            assert RULES.view(fork, None)["last_offering"] is not None
        rng = random.Random(4)
        steps, live = run_automatic(RULES, fork, rng)
        events = [s.event for s in steps]
        while live.phase == phase:
            seat = rng.choice(RULES.active_seats(live))
            steps, live = play(RULES, live, seat, rng.choice(RULES.legal_actions(live, seat)), rng)
            events += [s.event for s in steps]
        assert all(e.seat != mine for e in events if e.type.endswith("_committed"))
        sold = [data.CARDS[c] for c in cards(state.marked[mine])]
        if phase == "offering":
            reveal = next(e for e in events if e.type == "offering_revealed")
            line = reveal.data["commitments"][mine]
            offer = state.offer[mine]
            assert (line["gold"], line["offer"]) == (
                max(offer, 0),
                "gold" if offer > 0 else "theft",
            )
            assert (line["sales"], line["greed"]) == (sold, state.greed[mine])
            assert line["adjustment"] == state.adjust[mine]
        else:
            reveal = next(e for e in events if e.type == "final_sale_revealed")
            assert reveal.data["sales"][mine] == sold


def test_r7_9_hidden_items_are_shuffled_by_the_rng() -> None:
    """The re-deal is random (not just the pools in data order): different ``rng`` give
    different draw piles, other hands, tomb stacks, statue decks and province decks."""
    state = next(s for s in positions(4, ALL, seed=21) if s.round == 2 and s.phase == "market")
    forks = [forked(state, [1], random.Random(k)) for k in range(12)]
    for name in ("draw", "hands", "tomb_stack", "collection", "statue_deck", "deck"):
        assert len({json.dumps(getattr(f, name)) for f in forks}) > 2, name
    for name, order in (("draw", data.CARDS), ("tomb_stack", data.TOMB_TILES)):
        rank = {item: i for i, item in enumerate(order)}
        assert any(
            getattr(f, name) != sorted(getattr(f, name), key=rank.__getitem__) for f in forks
        )
    assert any(f.deck != sorted(f.deck) for f in forks)


def test_r7_9_the_province_set_is_redealt_around_the_provinces_seen() -> None:
    """§17 "unused province cards: never" (3-4 players): a fork in round 1 may bring provinces
    nobody has seen into the game, never drops a seen one."""
    state = next(s for s in positions(3, {}, seed=9) if s.phase == "auction")
    seen = {p for p in range(len(data.PROVINCES)) if state.seen[p]}
    assert len(seen) == 3 and len(state.province_set) == 9
    sets = {tuple(forked(state, [0], random.Random(k)).province_set) for k in range(30)}
    assert len(sets) > 1
    assert all(seen <= set(s) and len(s) == 9 for s in sets)
    assert set().union(*sets) - set(state.province_set), "unused provinces never came into play"


@pytest.mark.parametrize(("n", "options"), CONFIGS[:4])
def test_r7_9_a_fork_depends_only_on_what_the_seats_may_see(n: int, options: JSON) -> None:
    """Two positions that look the same to the seats (B is a fork of A) fork identically for the
    same randomness: nothing of where the hidden items really were leaks into a fork."""
    rng = random.Random(n)
    differed = 0
    for state in positions(n, options, seed=77 + n)[::6]:
        seats = some_seats(rng, n)
        twin = forked(state, seats, random.Random(rng.random()))
        differed += twin != state
        k = rng.random()
        a = RULES.fork(state, seats, random.Random(k))
        b = RULES.fork(twin, seats, random.Random(k))
        assert a == b
    assert differed > 0


@pytest.mark.parametrize(("n", "options"), CONFIGS)
def test_a_forked_game_plays_to_its_end_and_replays(n: int, options: JSON) -> None:
    """The fork event is the opening event of the sandbox: replaying it and the later events
    from the empty state gives the live state, and the sandbox ends with an outcome."""
    options = RULES.normalize_options(n, options)
    for game in range(GAMES):
        rng = random.Random(game)
        source = positions(n, options, seed=500 + game)
        state = source[rng.randrange(len(source))]
        event = RULES.fork(state, some_seats(rng, n), rng)
        assert RULES.is_irreversible(event)
        assert RULES.evolve(RULES.initial(n, options), event) == restore(event.data["state"])
        assert RULES.outcome(play_fork_out(RULES, n, options, event, rng)) is not None


def test_r7_9_the_fork_event_shows_each_seat_only_its_view() -> None:
    """§17 on the event itself: each seat sees the position as its view (no other hand, no
    collection faces, no pile order, no province set); ``full=True`` shows the whole event."""
    state = positions(4, ALL, seed=3)[60]
    event = RULES.fork(state, [0, 2], random.Random(1))
    position = restore(event.data["state"])
    for seat in [None, 0, 1, 2, 3]:
        shown = RULES.view_event(event, seat, False)
        assert shown is not None and shown.type == FORK_DEALT and shown.seat is None
        assert shown.data == {"state": RULES.view(position, seat)}
        text = json.dumps(shown.data)
        for secret in ('"hidden"', "province_set", "statue_deck", "ledger", '"hands"'):
            assert secret not in text
        for player in shown.data["state"]["players"]:
            assert "collection" not in player
            assert ("gold" in player) == ("hand" in player) == (player["seat"] == seat)
    assert RULES.view_event(event, 1, True) == event
    assert RULES.view_event(event, None, True) == event


@pytest.mark.parametrize(("n", "options"), CONFIGS[:4])
def test_d46_what_an_open_seat_gets_does_not_depend_on_the_forkers_gold(
    n: int, options: JSON
) -> None:
    """R7.9 / D-46: two positions that differ only in the forking seat's secret gold fork, for
    the same randomness, into positions that every other seat (and a spectator) sees alike:
    its own gold, hand and legal actions, the fork event and the automatic steps after it."""
    rng = random.Random(n)
    compared = 0
    for state in positions(n, options, seed=91 + n)[::5]:
        forker = rng.randrange(n)
        richer = state.clone()
        richer.gold[forker] += 7
        richer.ledger["start"] += 7
        k = rng.random()
        a = RULES.fork(state, [forker], random.Random(k))
        b = RULES.fork(richer, [forker], random.Random(k))
        fa, fb = restore(a.data["state"]), restore(b.data["state"])
        assert fa.gold[forker] + 7 == fb.gold[forker]  # the forking seat keeps its own gold
        for viewer in [None, *(x for x in range(n) if x != forker)]:
            assert RULES.view_event(a, viewer) == RULES.view_event(b, viewer)
            assert RULES.view(fa, viewer) == RULES.view(fb, viewer)
            if viewer is not None:
                assert RULES.legal_actions(fa, viewer) == RULES.legal_actions(fb, viewer)
        steps_a, _ = run_automatic(RULES, fa, random.Random(k))
        steps_b, _ = run_automatic(RULES, fb, random.Random(k))
        for viewer in [None, *(x for x in range(n) if x != forker)]:
            assert [RULES.view_event(s.event, viewer) for s in steps_a] == [
                RULES.view_event(s.event, viewer) for s in steps_b
            ]
        compared += 1
    assert compared > 3
