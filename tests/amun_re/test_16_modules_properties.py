"""Random-play properties of the Expanded Pack modules (§16): every one of the 16 combinations
of ``afterlife``, ``statues``, ``pharaoh`` and ``promo_favours`` at 3, 4 and 5 players, with the
base invariants of ``test_properties`` (replay equals the live state, listed actions accepted,
unlisted ones refused, the gold ledger, cards conserved) plus, event by event:

* Afterlife: every tomb is a valid pyramid (R16.1.4: a tile above the base rests on two tiles);
  the 60 tiles are conserved (stack + discard pile + collections + tombs); a placement's reward
  count is 1 + the matching tiles below it; tomb scoring = 3 × complete rows;
* cards per phase: at most one Afterlife and one Glory per player per Market phase (R16.1.3,
  R16.4.1), no purchase after Glory, at most one Popularity and one Export per player per
  Harvest and one green card per province (R12.2), Greed only with Theft (R16.4.2);
* Statues: placed only in rounds 1-3, on the first (and second with 4-5 players) province drawn
  (R9.2); statues never move and stay into the New Kingdom; a Statue card is held only by the
  controller of its statue's province, and nobody holds one right after the change of kingdom
  (R16.2.3, R14.1);
* Pharaoh: the figure is only on a province up for auction after an outbid (R16.3.1); at most
  one token per round, given to the controller of that province; tokens return between the
  kingdoms (R16.3.2, R14.1).

``PAPYRUS_PROPERTY_GAMES`` is the number of games per configuration (default 3 here: 144 games).
"""

from __future__ import annotations

import itertools
import os
import random

import pytest

from domain.amun_re import data
from domain.amun_re.rules import RULES
from domain.amun_re.state import NONE, THEFT, State
from domain.amun_re.tomb import complete_rows, matching_below
from domain.contract import JSON, Event
from domain.engine import Step, play, replay
from tests.amun_re.test_properties import Invariants, mutants
from tests.harness import random_game, start

GAMES = max(1, int(os.environ.get("PAPYRUS_PROPERTY_GAMES", "3")))
MODULES = ("afterlife", "statues", "pharaoh", "promo_favours")
COMBOS = [
    {m: True for m, on in zip(MODULES, bits, strict=True) if on}
    for bits in itertools.product((False, True), repeat=4)
]
ALL = dict.fromkeys(MODULES, True)
TILES = sum(data.TOMB_COPIES)


class ModuleInvariants(Invariants):
    """The base invariants plus the module ones, checked around every event."""

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.plays: set[tuple[str, int]] = set()
        self.tokens_this_round = 0
        self.statues_seen: dict[int, int] = {}

    def check_before(self, s: State, e: Event) -> None:
        super().check_before(s, e)
        d, seat = e.data, e.seat
        if e.type in ("market_started", "harvest_started", "offering_started"):
            self.plays = set()
        if e.type == "round_started":
            self.tokens_this_round = 0
        if e.type in ("afterlife_played", "glory_played"):
            assert seat is not None and (e.type, seat) not in self.plays, "one per Market phase"
            self.plays.add((e.type, seat))
        if e.type in (
            "tomb_tiles_bought",
            "favour_cards_bought",
            "farmers_bought",
            "stones_bought",
        ):
            assert not s.glory_played, "no purchase after Glory (R16.4.1)"
        if e.type == "glory_played":
            assert d["cost"] == data.cost(d["vp"]) <= s.gold[seat]
        if e.type == "green_card_played":
            province = data.PROVINCE_INDEX[d["province"]]
            assert s.green[province] == NONE and s.owner[province] == seat, "R12.2"
            if d["card"] in ("popularity", "export"):
                assert (d["card"], seat) not in self.plays, "one Popularity / Export per Harvest"
                self.plays.add((d["card"], seat))
        if e.type == "tomb_tile_placed":
            tile = data.TOMB_INDEX[d["tile"]]
            position = data.TOMB_POS_INDEX[(d["row"], d["col"])]
            assert d["times"] == 1 + matching_below(s.tomb[seat], position, tile), "R16.1.4"
            if d["via"] == "extra":
                assert s.tomb_paid == 2, "two discards before an extra placement (C-6)"
        if e.type == "offering_revealed":
            for c in d["commitments"]:
                assert not c["greed"] or c["offer"] == "theft", "Greed only with Theft"
        if e.type == "pharaoh_token_gained":
            assert s.pharaoh != NONE and s.owner[s.pharaoh] == seat, "R16.3.2"
            assert self.tokens_this_round == 0, "one token per round"
            self.tokens_this_round += 1
        if e.type == "game_scored" and "tomb" in d:
            assert d["tomb"] == [data.TOMB_ROW_VP * complete_rows(t) for t in s.tomb]

    def check_after(self, s: State, e: Event, vp: list[int]) -> None:
        super().check_after(s, e, vp)
        afterlife = bool(s.options.get("afterlife"))
        placed = sum(t != NONE for tomb in s.tomb for t in tomb)
        held = sum(map(sum, s.collection))
        assert len(s.tomb_stack) + len(s.tomb_discard) + held + placed == (
            TILES if afterlife else 0
        ), "Tomb tiles conserved"
        for tomb in s.tomb:
            for k, t in enumerate(tomb):
                if t != NONE:
                    assert all(tomb[x] != NONE for x in data.TOMB_SUPPORTS[k]), "R16.1.4"
        assert min(min(c) for c in s.collection) >= 0 and 0 <= s.tomb_paid <= 2
        on_board = {p: st for p, st in enumerate(s.statue_at) if st != NONE}
        if not s.options.get("statues"):
            assert not on_board and not s.statue_deck and set(s.statue_holder) == {NONE}
        else:
            assert len(on_board) + len(s.statue_deck) == len(data.STATUES)
            per_round = data.STATUES_PER_ROUND[s.seats]
            in_old = min(s.round, data.ROUNDS_PER_KINGDOM)
            assert len(on_board) == per_round * in_old, "R9.2 / R16.2.2"
            for p, st in self.statues_seen.items():
                assert on_board.get(p) == st, "statues never move"
            self.statues_seen = on_board
            assert set(on_board) <= set(s.province_set)
            for st, holder in enumerate(s.statue_holder):
                if holder != NONE:
                    province = s.statue_at.index(st)
                    assert s.owner[province] == holder, "the province winner holds its card"
            if e.type == "kingdom_changed":
                assert set(s.statue_holder) == {NONE}
            if e.type == "round_started":
                placed_now = [data.PROVINCE_INDEX[x["province"]] for x in e.data["statues"]]
                if s.round <= data.ROUNDS_PER_KINGDOM:
                    assert placed_now == s.revealed[:per_round], "first (and second) drawn"
                else:
                    assert placed_now == []
        if s.options.get("pharaoh"):
            assert sum(s.tokens) <= min(
                data.PHARAOH_TOKENS, (s.round - 1) % data.ROUNDS_PER_KINGDOM + 1
            )
            if s.pharaoh != NONE:
                assert s.pharaoh in s.revealed
            if e.type == "kingdom_changed":
                assert s.tokens == [0] * s.seats
        else:
            assert s.pharaoh == NONE and not any(s.tokens)
        if s.phase == "gifts" and e.type == "offering_revealed":
            for seat, n in enumerate(s.gifts):
                thief = s.offer[seat] == THEFT
                assert n >= (0 if thief else 1)


CONFIGS = [(seats, combo, game) for seats in (3, 4, 5) for combo in COMBOS for game in range(GAMES)]


def combo_id(combo: dict[str, bool]) -> str:
    return "+".join(combo) or "base"


@pytest.mark.parametrize(
    ("seats", "combo", "game"), CONFIGS, ids=[f"{s}p-{combo_id(c)}-{g}" for s, c, g in CONFIGS]
)
def test_random_module_games_keep_the_invariants(seats, combo, game):
    seed = 700 * seats + 31 * game + sum(1 << i for i, m in enumerate(MODULES) if m in combo)
    options = RULES.normalize_options(seats, combo)
    _, state = start(RULES, seats, options, seed)
    check = ModuleInvariants(state)
    _events, state = random_game(
        RULES, seats, combo, seed, check=check, mutants=mutants, replay_every=9
    )
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == state.vp
    for m in MODULES:
        assert state.options[m] is (m in combo)


RARE = frozenset(
    {
        "play_architect",
        "play_extra_farmer",
        "play_fixed_income",
        "play_exceptional_harvest",
        "set_adjustment",
        "buy_favour_cards",
        "take_favour_card",
        "play_glory",
        "play_popularity",
        "play_export",
        "play_afterlife_draw",
        "play_afterlife_place",
        "use_horus",
        "discard_card_for_tomb",
        "discard_tile_for_tomb",
        "place_tomb_tile",
        "buy_tomb_tiles",
    }
)


def choose(legal: list[JSON], rng: random.Random) -> JSON:
    """Mostly a module or card action if any, Greed whenever stealing; seldom a sale."""
    greed = [a for a in legal if a.get("greed")]
    if greed and rng.random() < 0.5:
        return greed[0]
    rare = [a for a in legal if a["type"] in RARE]
    if rare and rng.random() < 0.6:
        return rng.choice(rare)
    keep = [a for a in legal if a["type"] != "sell"]
    return rng.choice(keep if keep and rng.random() < 0.95 else legal)


def test_games_that_use_the_modules_keep_the_invariants():
    """Random play biased towards module actions, so every power, card and tomb rule is used
    under the invariants (checked by the set of what happened)."""
    seen: set[str] = set()
    for seats, game in [(s, g) for s in (3, 4, 5) for g in range(max(3, GAMES + 2))]:
        seed = 9000 + 10 * seats + game
        options = RULES.normalize_options(seats, ALL)
        events, state = start(RULES, seats, options, seed)
        check = ModuleInvariants(state)
        rng = random.Random(seed)
        steps: list[Step]
        while RULES.outcome(state) is None:
            seat = rng.choice(RULES.active_seats(state))
            legal = RULES.legal_actions(state, seat)
            assert len(legal) <= 300, "decision lists stay small (§0 Atomic decisions)"
            action = choose(legal, rng)
            steps, state = play(RULES, state, seat, action, rng)
            check(state, steps)
            events += [s.event for s in steps]
        assert replay(RULES, seats, options, events) == state
        bought = None
        for e in events:
            seen.add(e.type)
            if e.type.endswith("_bought"):
                if bought == (e.seat, e.type):
                    seen.add("ptah")
                bought = (e.seat, e.type)
            elif e.type == "market_turn_ended":
                bought = None
            if e.type == "favour_cards_drawn":
                seen.add("draw:" + e.data["reason"])
            if e.type == "tomb_tile_placed":
                seen.add("tomb:" + e.data["via"])
                if e.data["times"] > 1:
                    seen.add("tomb:chain")
            if e.type == "offering_revealed" and any(c["greed"] for c in e.data["commitments"]):
                seen.add("greed")
            if e.type == "harvest_turn_ended" and "osiris" in e.data:
                seen.add("osiris")
            if e.type == "afterlife_played":
                seen.add("afterlife:" + e.data["mode"])
    wanted = {
        "glory_played",
        "greed",
        "draw:popularity",
        "green_card_played",
        "afterlife:draw",
        "afterlife:place",
        "tomb:gift",
        "tomb:extra",
        "tomb:chain",
        "draw:tomb",
        "thoth_discarded",
        "draw:thoth",
        "horus_used",
        "statue_gold_taken",
        "osiris",
        "pharaoh_token_gained",
        "tomb_tile_discarded",
        "card_discarded",
        "ptah",
    }
    assert wanted <= seen, wanted - seen
