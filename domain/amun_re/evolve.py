"""``evolve``: apply one event to the state (total; never draws randomness).

One handler per event type, each living in the module of its phase. Every event type of the game
is listed here; ``view`` decides separately what each seat may see of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.amun_re import (
    auction,
    finale,
    fork,
    gifts,
    harvest,
    market,
    offering,
    rounds,
    scoring,
    selling,
    tomb,
)
from domain.amun_re.drawing import apply_draw, apply_tile_draw
from domain.amun_re.setup import apply_prepared
from domain.amun_re.state import State
from domain.contract import Event

Handler = Callable[[State, dict[str, Any], Any], None]


def _ignore(state: State, d: dict[str, Any], seat: int | None) -> None:
    return None


def _token(state: State, d: dict[str, Any], seat: int) -> None:
    """R16.3.2: the controller of the Pharaoh's province gains a token."""
    state.tokens[seat] += 1


EVOLVERS: dict[str, Handler] = {
    "game_prepared": apply_prepared,
    "round_started": rounds.apply_round_started,
    "bid_placed": auction.apply_bid,
    "card_sold": selling.apply_sold,
    "bidding_ended": auction.apply_bidding_ended,
    "province_won": auction.apply_won,
    "favour_cards_drawn": apply_draw,
    "market_started": market.apply_started,
    "favour_cards_bought": market.apply_cards_bought,
    "farmers_bought": market.apply_farmers_bought,
    "stones_bought": market.apply_stones_bought,
    "farmer_placed": market.apply_farmer_placed,
    "stone_placed": market.apply_stone_placed,
    "architect_played": market.apply_architect,
    "extra_farmer_played": market.apply_extra_farmer,
    "market_turn_ended": market.apply_turn_ended,
    "offering_started": offering.apply_started,
    "sale_marked": offering.apply_marked,
    "adjustment_set": offering.apply_adjustment,
    "offering_committed": offering.apply_committed,
    "offering_revealed": offering.apply_revealed,
    "gift_taken": gifts.apply_taken,
    "gift_turn_ended": gifts.apply_turn_ended,
    "offering_ended": gifts.apply_ended,
    "harvest_started": harvest.apply_started,
    "green_card_played": harvest.apply_green,
    "harvest_turn_ended": harvest.apply_turn_ended,
    "kingdom_scored": scoring.apply_kingdom_scored,
    "kingdom_changed": rounds.apply_kingdom_changed,
    "final_sale_started": finale.apply_started,
    "final_sale_committed": finale.apply_committed,
    "final_sale_revealed": finale.apply_revealed,
    "game_scored": finale.apply_scored,
    # Expanded Pack modules
    "pharaoh_token_gained": _token,
    "statue_gold_taken": market.apply_bastet,
    "tomb_tiles_bought": market.apply_tiles_bought,
    "tomb_tiles_drawn": apply_tile_draw,
    "thoth_discarded": market.apply_thoth,
    "horus_used": market.apply_horus,
    "afterlife_played": market.apply_afterlife,
    "glory_played": market.apply_glory,
    "tomb_tile_placed": tomb.apply_placed,
    "tomb_tile_discarded": tomb.apply_tile_discarded,
    "card_discarded": gifts.apply_card_discarded,
    # a sandbox's opening position (forks, ``Rules.fork``)
    fork.FORK_DEALT: fork.load,
}


def evolve(state: State, event: Event) -> State:
    """Apply ``event`` in place and return the state (unknown types change nothing)."""
    EVOLVERS.get(event.type, _ignore)(state, event.data, event.seat)
    return state
