"""Amun-Re (base game + Expanded Pack modules, 3-5 players) on the rules contract
(``domain.contract``).

``RULES`` implements the ``Rules`` protocol, kind ``amun_re``, version ``amun_re-1``. Spec:
``amun-re.md`` (§0 Atomic decisions, C-1..C-9, §1-§15, §17); readings chosen are in NOTES.md.

Actions (JSON dicts; every key is required, no other key is accepted):

=========================== ============================== ===================================
phase (who acts)            action                          parameters
=========================== ============================== ===================================
Auction (bidder, R9.6)      ``bid``                         province: id, value: int,
                                                            bribe: bool, protection: bool
Auction / Market / gift     ``sell`` (R7.3)                 card: id
collection / Harvest
Resolution (payer, R9.8)    ``sell_for_payment`` (C-3)      card: id
Market (R10.5 table)        ``buy_favour_cards``            count: int
                            ``buy_farmers``                 count: int (then ``place_farmer``)
                            ``buy_stones``                  count: int (then ``place_stone``)
                            ``place_farmer``, ``place_stone`` province: id
                            ``play_architect``,             province: id
                            ``play_extra_farmer``
                            ``end_market_turn``             —
Offering (all, R11.2)       ``mark_for_sale``               card: id (private)
                            ``set_adjustment``              sign: 3 or -3 (private)
                            ``commit_gold``                 gold: int (secret until reveal)
                            ``commit_theft``                greed: bool (false; C-8)
Gift collection (R11.8)     ``take_favour_card``,           —
                            ``forfeit``, ``end_gift_turn``
                            ``take_farmer``, ``take_stone`` province: id
Harvest (R12.5)             ``play_exceptional_harvest``,   province: id
                            ``play_fixed_income``
                            ``end_harvest_turn``            —
Final sale (all, R15.1)     ``mark_for_sale``               card: id (private)
                            ``final_sale``                  — (secret until reveal)
Market, Afterlife           ``buy_tomb_tiles``              count: int (before cards, R16.1.2)
                            ``play_afterlife_draw``         —
                            ``play_afterlife_place``        tile: id, row: int, col: int
Market, Statues             ``thoth_discard`` (forced)      card: id (R10.5a, C-4)
                            ``use_horus``                   province: id (R10.7)
Market, Promo               ``play_glory``                  vp: 1-3 (R16.4.1)
Offering, Promo             ``commit_theft``                greed: true (R16.4.2)
Gift collection, Afterlife  ``place_tomb_tile``             tile: id, row: int, col: int
                            ``discard_card_for_tomb``       card: id (R16.1.5, 2 per tile)
                            ``discard_tile_for_tomb``       tile: id
Harvest, Promo              ``play_popularity``,            province: id
                            ``play_export``
=========================== ============================== ===================================

``decide`` validates (``BadAction`` malformed, ``NotYourTurn``, ``IllegalAction`` with the rule)
and then appends the system events that follow (``flow.settle``) up to the next decision.
Expanded Pack modules (§16): tables with ``afterlife``, ``statues``, ``pharaoh``,
``promo_favours``; see NOTES.md for the readings chosen.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.amun_re import (
    auction,
    data,
    finale,
    flow,
    fork,
    gifts,
    harvest,
    market,
    offering,
    selling,
    setup,
    view,
)
from domain.amun_re.evolve import evolve as evolve_event
from domain.amun_re.state import NONE, State, new_state
from domain.contract import JSON, BadAction, Event, NotYourTurn, Outcome

Decider = Callable[[State, int, JSON, random.Random], list[Event]]

DECIDERS: dict[str, Decider] = {
    "bid": auction.decide_bid,
    "sell": selling.decide_sell,
    "sell_for_payment": auction.decide_sell_for_payment,
    "buy_favour_cards": market.decide_buy_cards,
    "buy_farmers": market.decide_buy_farmers,
    "buy_stones": market.decide_buy_stones,
    "place_farmer": market.decide_place_farmer,
    "place_stone": market.decide_place_stone,
    "play_architect": market.decide_architect,
    "play_extra_farmer": market.decide_extra_farmer,
    "end_market_turn": market.decide_end,
    "mark_for_sale": offering.decide_mark,
    "set_adjustment": offering.decide_adjustment,
    "commit_gold": offering.decide_gold,
    "commit_theft": offering.decide_theft,
    "take_favour_card": gifts.decide_card,
    "take_farmer": gifts.decide_farmer,
    "take_stone": gifts.decide_stone,
    "forfeit": gifts.decide_forfeit,
    "end_gift_turn": gifts.decide_end,
    "play_exceptional_harvest": harvest.decide_green,
    "play_fixed_income": harvest.decide_green,
    "end_harvest_turn": harvest.decide_end,
    "final_sale": finale.decide_final_sale,
    # Expanded Pack modules (§16)
    "buy_tomb_tiles": market.decide_buy_tiles,
    "thoth_discard": market.decide_thoth,
    "use_horus": market.decide_horus,
    "play_afterlife_draw": market.decide_afterlife_draw,
    "play_afterlife_place": market.decide_afterlife_place,
    "play_glory": market.decide_glory,
    "place_tomb_tile": gifts.decide_place_tile,
    "discard_card_for_tomb": gifts.decide_discard_card,
    "discard_tile_for_tomb": gifts.decide_discard_tile,
    "play_popularity": harvest.decide_green,
    "play_export": harvest.decide_green,
}
ACTION_TYPES = tuple(DECIDERS)

LEGAL: dict[str, Callable[[State, int], list[JSON]]] = {
    "auction": auction.legal,
    "resolution": auction.legal,
    "market": market.legal,
    "offering": offering.legal,
    "gifts": gifts.legal,
    "harvest": harvest.legal,
    "final_sale": finale.legal,
}

#: actions after which a system step may follow (checked further in ``settles``)
ENDING = frozenset({"end_market_turn", "end_gift_turn", "end_harvest_turn"})
COMMITS = frozenset({"commit_gold", "commit_theft", "final_sale"})


def settles(state: State, seat: int, kind: str, action: JSON) -> bool:
    """Whether the (valid) action may be followed by a system step (a cheap pre-check)."""
    if kind in ENDING:
        return True
    if kind in COMMITS:
        return offering.is_last_commit(state, seat)
    if kind == "bid":
        return auction.bid_ends_bidding(state, action)
    if kind == "sell_for_payment":
        return state.gold[seat] + 1 >= state.bid_value[seat]
    return False


#: events that record a random outcome or make hidden information known (R3.11, R7.9, §17):
#: the platform's undo never goes back across them (contract ``is_irreversible``)
IRREVERSIBLE = frozenset({
    "game_prepared",  # shuffles: province set and deck, Favour draw pile, start player (+ modules)
    "round_started",  # reveals the top province cards (and draws Statue cards, R9.2)
    "favour_cards_drawn",  # the drawer sees new card faces; a reshuffle is random
    "kingdom_changed",  # shuffles the New Kingdom province deck
    "offering_revealed",  # every secret commitment becomes public
    "final_sale_revealed",  # every secret final sale becomes public
    "game_scored",  # all gold becomes public (R15.5)
    "kingdom_scored",  # the Scheme cards that scored become public (R13.8)
    "card_sold",  # a card face leaves a secret hand face up (R7.3)
    "architect_played", "extra_farmer_played", "green_card_played",  # a card face shown (R7.5)
    # modules
    "tomb_tiles_drawn",  # tiles drawn face down (random; the buyer sees the faces)
    "tomb_tile_placed",  # a face-down tile from a collection is placed face up
    "tomb_tile_discarded",  # a face-down tile is discarded face up
    "card_discarded",  # a Favour card face leaves a hand (tomb payment, R16.1.5)
    "thoth_discarded",  # a Favour card face leaves a hand (R10.5a)
    "afterlife_played", "glory_played",  # a card face shown (R7.5)
    fork.FORK_DEALT,  # a fork's re-dealt starting position
})


class AmunReRules:
    kind = "amun_re"
    version = "amun_re-1"
    min_seats = data.MIN_PLAYERS
    max_seats = data.MAX_PLAYERS

    def normalize_options(self, seats: int, options: JSON) -> JSON:
        return setup.normalize_options(seats, options)

    def setup(self, seats: int, options: JSON, rng: random.Random) -> list[Event]:
        events = setup.opening_events(seats, options, rng)
        state = self.initial(seats, options)
        for event in events:
            evolve_event(state, event)
        return events + flow.run_system(state, rng)

    def initial(self, seats: int, options: JSON) -> State:
        return new_state(seats, options)

    def evolve(self, state: State, event: Event) -> State:
        return evolve_event(state, event)

    def active_seats(self, state: State) -> list[int]:
        phase = state.phase
        if phase in ("offering", "final_sale"):
            return [s for s in range(state.seats) if not state.committed[s]]
        if phase == "resolution":
            payer = auction.payer(state)
            return [] if payer == NONE else [payer]
        if phase in ("auction", "market", "gifts", "harvest") and state.turn != NONE:
            return [state.turn]
        return []

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        if seat not in self.active_seats(state):
            return []
        return LEGAL[state.phase](state, seat)

    def decide(self, state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise BadAction('an action is an object with a "type" string')
        kind = action["type"]
        decider = DECIDERS.get(kind)
        if decider is None:
            raise BadAction(f"unknown action {kind!r}; actions are {', '.join(ACTION_TYPES)}")
        if seat not in self.active_seats(state):
            raise NotYourTurn(f"seat {seat} does not have to act now")
        events = decider(state, seat, action, rng)
        if settles(state, seat, kind, action):
            events += flow.settle(state, events, rng)
        return events

    def view(self, state: State, seat: int | None, full: bool = False) -> JSON:
        return view.view(state, seat, full, self.active_seats(state))

    def view_event(self, event: Event, seat: int | None, full: bool = False) -> Event | None:
        if event.type == fork.FORK_DEALT and not full:  # the position as this seat sees it
            position = fork.restore(event.data["state"])
            return Event(event.type, {"state": self.view(position, seat)}, event.seat)
        return view.view_event(event, seat, full)

    def fork(self, state: State, seats: list[int], rng: random.Random) -> Event:
        """Forks: a sandbox from ``state`` as ``seats`` see it (``fork.py``: hidden cards,
        tiles, decks and the others' secret commitments re-dealt; the others' gold assumed from
        public information only, never from the forking seats' own gold, D-46)."""
        return fork.fork_event(state, seats, rng)

    def is_irreversible(self, event: Event) -> bool:
        """Shuffles, draws and reveals (see ``IRREVERSIBLE``); a bid is irreversible only when it
        shows a Bribe or Protection card from the bidder's secret hand."""
        if event.type == "bid_placed":
            return bool(event.data.get("bribe") or event.data.get("protection"))
        return event.type in IRREVERSIBLE

    def scores(self, state: State) -> list[int]:
        return list(state.vp)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(scores=list(state.vp), winners=list(state.winners), ranks=list(state.ranks))


RULES = AmunReRules()
