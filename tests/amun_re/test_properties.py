"""The property suite for Amun-Re: random games (tests/harness.py) for 3, 4 and 5 players and
each table option, with Amun-Re invariants checked event by event:

* gold is conserved with the bank ledger (R3.4) and never negative;
* no bid exceeds gold + cards kept (R9.6(6)), no payment or purchase exceeds the gold held
  (R7.2, R9.8, R10.3), no gold offer exceeds gold + cards sold (R11.2);
* after each Auction every revealed province has one owner and every player exactly one new
  province (R9.7, R3.7);
* VP change only in the scoring steps (§13, §15); Favour cards are neither created nor lost;
* unlisted actions (mutants) are refused with a reason.

``PAPYRUS_PROPERTY_GAMES`` sets the number of games per configuration (default 4).
"""

from __future__ import annotations

import os
import random

import pytest

from domain.amun_re import data
from domain.amun_re.evolve import evolve
from domain.amun_re.rules import RULES
from domain.amun_re.setup import favour_deck
from domain.amun_re.state import State, hand_size
from domain.contract import JSON, Event
from domain.engine import Step, play, replay
from tests.harness import random_game, start

GAMES = int(os.environ.get("PAPYRUS_PROPERTY_GAMES", "4"))
OPTIONS = [
    {},
    {"classic_bank_majority": True},
    {"no_farmer_points": True},
    {"classic_bank_majority": True, "no_farmer_points": True},
]
#: events that may change VP: the scorings (§13, §15), Glory (R16.4.1), a VP tomb tile (R16.1.4)
SCORING_EVENTS = {"kingdom_scored", "game_scored", "glory_played", "tomb_tile_placed"}
RED_FLAGS = ("bribe", "protection")


class Invariants:
    """Replays every step on its own copy so each event is checked against the state before it."""

    def __init__(self, state: State) -> None:
        self.before = state.clone()
        self.cards = len(favour_deck(state.options))

    def __call__(self, state: State, steps: list[Step]) -> None:
        sim = self.before
        for step in steps:
            self.check_before(sim, step.event)
            vp = list(sim.vp)
            evolve(sim, step.event)
            self.check_after(sim, step.event, vp)
        assert sim == state
        self.before = state.clone()

    def check_before(self, s: State, e: Event) -> None:
        d = e.data
        if e.type == "bid_placed":
            assert e.seat is not None
            red = sum(1 for flag in RED_FLAGS if d[flag])
            assert d["value"] <= s.gold[e.seat] + hand_size(s, e.seat) - red, "R9.6(6)"
        elif e.type == "province_won":
            assert d["price"] <= s.gold[e.seat], "R9.8 payment"
        elif e.type in (
            "favour_cards_bought",
            "farmers_bought",
            "stones_bought",
            "tomb_tiles_bought",
        ):
            assert d["cost"] == data.cost(d["count"]) <= s.gold[e.seat], "R10.3"
        elif e.type == "offering_revealed":
            for c in d["commitments"]:
                assert c["gold"] <= s.gold[c["seat"]] + len(c["sales"]), "R11.2"

    def check_after(self, s: State, e: Event, vp: list[int]) -> None:
        assert min(s.gold) >= 0, "R3.4"
        assert sum(s.gold) == sum(s.ledger.values()), "gold conserved with the bank ledger"
        if e.type not in SCORING_EVENTS:
            assert s.vp == vp, f"VP changed in {e.type}"
        assert sum(map(sum, s.hands)) + len(s.draw) + len(s.discard) == self.cards
        assert min(min(h) for h in s.hands) >= 0
        assert max(s.stones) < data.STONES_PER_PYRAMID, "R7.7"
        if e.type == "market_started":
            in_kingdom = (s.round - 1) % data.ROUNDS_PER_KINGDOM + 1
            owners = [s.owner[p] for p in s.revealed]
            assert sorted(owners) == list(range(s.seats)), "one owner per province, R9.7"
            assert all(len(owned) == in_kingdom for owned in s.owned)


def mutants(action: JSON, rng: random.Random) -> list[JSON]:
    """Unlisted variants of a legal action: unknown names, missing, extra or mistyped keys,
    neighbouring numbers, other provinces and cards."""
    out: list[JSON] = [{"type": "fly"}, {**action, "extra": 1}, {"province": "abu"}]
    for key, value in action.items():
        if key == "type":
            continue
        out.append({k: v for k, v in action.items() if k != key})
        if isinstance(value, bool):
            out += [{**action, key: not value}, {**action, key: int(value)}]
        elif isinstance(value, int):
            out += [{**action, key: value + d} for d in (-1, 1, 2, 100)]
            out += [{**action, key: str(value)}, {**action, key: -value}]
        elif isinstance(value, str):
            out += [{**action, key: "atlantis"}, {**action, key: 0}]
            pool = data.PROVINCES if key == "province" else data.CARDS
            out.append({**action, key: rng.choice(pool)})
    other = rng.choice(
        sorted(
            {
                a
                for a in (
                    "bid",
                    "sell",
                    "end_market_turn",
                    "forfeit",
                    "commit_theft",
                    "final_sale",
                    "take_favour_card",
                )
            }
        )
    )
    out.append({"type": other})
    return out


CONFIGS = [
    (seats, options, game) for seats in (3, 4, 5) for options in OPTIONS for game in range(GAMES)
]


@pytest.mark.parametrize(("seats", "options", "game"), CONFIGS)
def test_random_games_keep_the_invariants(seats, options, game):
    seed = 1000 * seats + 97 * game + 7 * len(options) + sum(map(len, options))
    _, state = start(RULES, seats, RULES.normalize_options(seats, options), seed)
    check = Invariants(state)
    events, state = random_game(
        RULES, seats, options, seed, check=check, mutants=mutants, replay_every=7
    )
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == state.vp == RULES.scores(state)
    assert outcome.winners and all(outcome.ranks[w] == 1 for w in outcome.winners)
    assert state.round == data.LAST_ROUND
    reserved = {"table_created", "seat_taken", "game_started", "game_finished", "game_abandoned"}
    assert not reserved & {e.type for e in events}


def is_rare(action: JSON) -> bool:
    """Actions uniform random play seldom picks: red cards, card plays, adjustments, marks."""
    return bool(action.get("bribe") or action.get("protection")) or action["type"] in (
        "play_architect",
        "play_extra_farmer",
        "play_fixed_income",
        "play_exceptional_harvest",
        "set_adjustment",
        "mark_for_sale",
        "buy_favour_cards",
        "take_favour_card",
    )


def choose_keeping_cards(legal: list[JSON], rng: random.Random) -> JSON:
    """Mostly a rare action if any; otherwise mostly anything but selling."""
    rare = [a for a in legal if is_rare(a)]
    if rare and rng.random() < 0.6:
        return rng.choice(rare)
    keep = [a for a in legal if a["type"] != "sell"]
    return rng.choice(keep if keep and rng.random() < 0.95 else legal)


def test_games_that_favour_cards_keep_the_invariants():
    """Random play biased towards Favour cards, so Bribe, Protection, payments by selling and
    reshuffles (R9.4, R9.6, R9.8, R7.4) all happen under the invariants."""
    seen: set[str] = set()
    for seats, game in [(seats, game) for seats in (3, 4, 5) for game in range(max(8, 2 * GAMES))]:
        seed = 5000 + 10 * seats + game
        options = RULES.normalize_options(seats, {})
        events, state = start(RULES, seats, options, seed)
        check = Invariants(state)
        rng = random.Random(seed)
        while RULES.outcome(state) is None:
            seat = rng.choice(RULES.active_seats(state))
            action = choose_keeping_cards(RULES.legal_actions(state, seat), rng)
            steps, state = play(RULES, state, seat, action, rng)
            check(state, steps)
            events += [s.event for s in steps]
        assert replay(RULES, seats, options, events) == state
        for e in events:
            if e.type == "bid_placed":
                seen |= {flag for flag in RED_FLAGS if e.data[flag]}
            if e.type == "card_sold" and e.data["for_payment"]:
                seen.add("sell_for_payment")
            if e.type == "favour_cards_drawn" and e.data["reshuffle"] is not None:
                seen.add("reshuffle")
    assert seen == {"bribe", "protection", "sell_for_payment", "reshuffle"}
