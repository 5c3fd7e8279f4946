"""``RULES.is_irreversible`` (a contract addition for undo): the platform's undo never goes back
across an event that records a random outcome (a shuffle, a draw) or makes hidden information
known. Every event type of the game is classified here, with the reason."""

from __future__ import annotations

import pytest

from domain.amun_re.evolve import EVOLVERS
from domain.amun_re.rules import RULES
from domain.contract import Event
from tests.harness import random_game

#: event type -> why an undo may not cross it
IRREVERSIBLE = {
    "fork_dealt": "a fork's re-dealt starting position",
    "game_prepared": "shuffles: province set and deck, Favour pile, start player, statue deck, "
    "tomb stack (R3.11, R6.7)",
    "round_started": "reveals province cards and draws Statue cards (R9.1, R9.2)",
    "favour_cards_drawn": "a draw (the drawer sees the faces) and maybe a reshuffle (R7.4)",
    "kingdom_changed": "shuffles the New Kingdom province deck (R14.1)",
    "offering_revealed": "the secret commitments become public (R11.3)",
    "final_sale_revealed": "the secret final sales become public (R15.1)",
    "game_scored": "every player's gold becomes public (R15.5)",
    "kingdom_scored": "the Scheme cards that scored leave the secret hands face up (R13.8)",
    "card_sold": "a card face leaves a secret hand face up (R7.3)",
    "architect_played": "a card face from a secret hand is shown (R7.5)",
    "extra_farmer_played": "a card face from a secret hand is shown (R7.5)",
    "green_card_played": "a card face from a secret hand is shown (R7.5)",
    "tomb_tiles_drawn": "a tile draw (faces seen by the drawer) and maybe a reshuffle (R16.1.1)",
    "tomb_tile_placed": "a face-down tile from a collection is placed face up (R16.1.4)",
    "tomb_tile_discarded": "a face-down tile is discarded face up (R16.1.5)",
    "card_discarded": "a card face leaves a secret hand (tomb payment, R16.1.5)",
    "thoth_discarded": "a card face leaves a secret hand (R10.5a)",
    "afterlife_played": "a card face from a secret hand is shown (R16.1.3)",
    "glory_played": "a card face from a secret hand is shown (R16.4.1)",
}

#: event type -> why an undo may cross it
REVERSIBLE = {
    "bid_placed": "public and deterministic, unless it shows a Bribe / Protection card (below)",
    "bidding_ended": "deterministic",
    "province_won": "deterministic (bonus cards are a separate draw event)",
    "market_started": "deterministic",
    "favour_cards_bought": "the payment (the draw is a separate event)",
    "farmers_bought": "deterministic",
    "stones_bought": "deterministic",
    "farmer_placed": "deterministic",
    "stone_placed": "deterministic",
    "market_turn_ended": "deterministic",
    "offering_started": "deterministic",
    "sale_marked": "a private step of the secret commitment (§0)",
    "adjustment_set": "a private step of the secret commitment (§0)",
    "offering_committed": "a commitment may be taken back before the reveal",
    "gift_taken": "public choice (a card gift's draw is a separate event)",
    "gift_turn_ended": "deterministic",
    "offering_ended": "deterministic",
    "harvest_started": "deterministic",
    "harvest_turn_ended": "public income",
    "final_sale_started": "deterministic",
    "final_sale_committed": "a secret choice, revealed only by final_sale_revealed",
    "pharaoh_token_gained": "deterministic (R16.3.2)",
    "statue_gold_taken": "deterministic (Bastet, R10.1)",
    "tomb_tiles_bought": "the payment (the draw is a separate event)",
    "horus_used": "public and deterministic (R10.7)",
}


def test_every_event_type_is_classified():
    assert set(IRREVERSIBLE) | set(REVERSIBLE) == set(EVOLVERS)
    assert not set(IRREVERSIBLE) & set(REVERSIBLE)


@pytest.mark.parametrize("kind", sorted(IRREVERSIBLE))
def test_irreversible_events(kind):
    assert RULES.is_irreversible(Event(kind, {}, 0)) is True


@pytest.mark.parametrize("kind", sorted(REVERSIBLE))
def test_reversible_events(kind):
    data = {"bribe": False, "protection": False} if kind == "bid_placed" else {}
    assert RULES.is_irreversible(Event(kind, data, 0)) is False


@pytest.mark.parametrize("flag", ["bribe", "protection"])
def test_a_bid_with_a_red_card_shows_a_card_from_the_hand(flag):
    other = "protection" if flag == "bribe" else "bribe"
    event = Event(
        "bid_placed", {"province": "abu", "value": 3, flag: True, other: False, "outbid": None}, 0
    )
    assert RULES.is_irreversible(event) is True


def test_a_game_has_irreversible_steps_and_undoable_ones():
    events, _ = random_game(
        RULES, 3, {"afterlife": True, "promo_favours": True}, 3, replay_every=1000
    )
    flags = [RULES.is_irreversible(e) for e in events]
    assert flags[0] and any(flags) and not all(flags)
    private = [e for e in events if e.type in ("sale_marked", "offering_committed")]
    assert private and not any(RULES.is_irreversible(e) for e in private)
    assert RULES.is_irreversible(Event("something_new", {}, None)) is False
