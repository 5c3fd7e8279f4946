"""What one seat (or a spectator) may see: ``view`` and ``view_event`` (§17, R7.9), written as
allow-lists: every key below is named on purpose, nothing is copied from the state wholesale.

``view(state, seat, full)`` builds the view as an instance of its declared shape (``view_of``:
an ``AmunReState`` of ``view_shape``, where every key is declared with its type and description)
and returns the JSON derived from that instance (``domain.shapes.to_json``): keys in declaration
order, a key left ``ABSENT`` (a secret not shown to this viewer, a module's key with the module
off, ``hidden``) left out. The typed GraphQL view is derived from the same declaration. The
JSON::

    {"game": "amun_re", "viewer": seat | None, "round": 1-6 (0 before), "kingdom": 1 | 2,
     "phase": "auction" | "resolution" | "market" | "offering" | "gifts" | "harvest"
              | "final_sale" | "over",
     "start_player": seat, "to_act": [seats that must decide now],
     "decision": None | "bid" | "sell_for_payment" | "market_turn" | "place_farmer"
                 | "place_stone" | "thoth_discard" | "commit" | "gift_collection"
                 | "tomb_discard" | "place_tomb_tile" | "harvest_turn" | "final_sale",
     "options": {"classic_bank_majority", "no_farmer_points", module flags},
     "bid_track": [0, 1, 3, …, 36],
     "offering_tile": None | {"tile", "gold_per_farmer", "camel", "temple_vp"},
     "provinces": [{"id", "name", "bank", "region", "river", "fields", "card_limit", "temples",
                    "mine", "caravan", "bonus": {"stones", "gold", "favour_cards"},
                    "owner", "farmers", "stones", "pyramids", "up_for_auction"}]
                  (only provinces revealed at least once; the unrevealed set stays secret),
     "auction": None | {"cards": [{"province", "standing", "protected", "blocked",
                                   "scribes": [{"seat", "value", "standing"}]}],
                        "status": ["new" | "standing" | "outbid" per seat], "turn"},
     "market": None | {"turn", "last_purchase": None | "tomb_tiles" | "favour_cards"
                       | "farmers" | "stones", "cards_bought", "to_place": None | {"kind", "count"},
                       + with afterlife/statues/promo: "ptah_used", "glory_played",
                       "afterlife_played", "thoth_discard_due"},
     "offering": None | {"committed": [bool per seat]}          (who has committed, R11.1),
     "last_offering": None | [{"seat", "offer": "gold" | "theft", "gold"}] (after the reveal),
     "gifts": None | {"order", "turn", "gifts_left", "gifts": [per seat],
                      + with afterlife: "tomb_discards_made", "to_place" (while placing)},
     "harvest": None | {"turn", "green": [{"province", "card"}]},
     "final_sale": None | {"committed": [bool per seat]},
     "players": [{"seat", "vp", "hand_count", "provinces", "scribes_free", "theft_card": True,
                  "gold": only for himself, at the end (R15.5) or with full=True,
                  "hand": [card ids, sorted, a card held twice listed twice]: only for
                          himself or with full=True}],
     "you": None | {"seat", "gold", "marked_for_sale": {card: count},
                    "adjustment": 0 | 3 | -3, "offer": None | {"offer", "gold"}},
     "discard_pile": [card ids, oldest first] (face up, R7.9), "draw_pile_count": count,
     "province_deck_count": count, "last_scoring": None | breakdown of R13.8,
     "final": None | {"gold", "gold_bonus"}, "winners", "ranks",
     "hidden": only with full=True: {"draw_pile": [...], "province_deck": [...],
                                     "statue_deck", "tomb_stack" (modules)},
     module keys, only when the module is on (see ``view_of``): "statues", "pharaoh",
     "tomb_stack_count", "tomb_discard"; players' "statue_cards", "pharaoh_tokens",
     "collection_count", "tomb"; "you"'s "collection" (faces, R7.9)}

A pile's size is ``<pile>_count`` (as in Imhotep's view: ``draw_pile_count``); a hand is
``hand_count`` for every seat and the list ``hand`` where the viewer may see it.

``view_event`` shows public events as they are; ``sale_marked`` and ``adjustment_set`` only to
their seat (``None`` to others); ``offering_committed`` and ``final_sale_committed`` to others
without data ("seat X committed"); ``favour_cards_drawn`` with the card faces only to the drawer
(others see the count), and the same for ``tomb_tiles_drawn`` (tile faces, R16.1.2); shuffled
orders (``game_prepared`` incl. the statue deck and tomb stack, ``kingdom_changed``, a reshuffle)
only as sizes (``<pile>_count``, as in the view). ``full=True`` (game over) shows every event
unchanged.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from domain.amun_re import data
from domain.amun_re import view_shape as shape
from domain.amun_re import view_shape_phases as phase_shape
from domain.amun_re.auction import floor_and_block, status
from domain.amun_re.state import (
    FARMERS_KIND,
    NONE,
    THEFT,
    State,
    collection_size,
    hand_size,
    module_on,
)
from domain.amun_re.view_names import (
    DECISIONS,
    GOLD_OFFER,
    KIND_NAMES,
    PLACE_FARMER,
    PLACE_STONE,
    PLACE_TOMB_TILE,
    THEFT_OFFER,
    THOTH_DISCARD,
    TOMB_DISCARD,
)
from domain.contract import JSON, Event
from domain.shapes import ABSENT, to_json


def cards_dict(counts: list[int]) -> dict[str, int]:
    return {data.CARDS[c]: n for c, n in enumerate(counts) if n}


def cards_list(counts: list[int]) -> list[str]:
    """A hand as card ids, sorted, a card held ``n`` times listed ``n`` times."""
    return sorted(data.CARDS[c] for c, n in enumerate(counts) for _ in range(n))


def view(state: State, seat: int | None, full: bool, active: list[int]) -> JSON:
    """The JSON view: derived from ``view_of``'s instance of the declared shape."""
    return to_json(view_of(state, seat, full, active))


def view_of(state: State, seat: int | None, full: bool, active: list[int]) -> shape.AmunReState:
    """The view as an instance of its declared shape (``view_shape.AmunReState``).

    The Expanded Pack modules' keys (§17) are ``ABSENT`` (left out of the JSON) unless their
    module is on:

    * statues: ``statues`` = {"on_board": [{"statue", "province"}], "holders": {statue: seat |
      None}, "deck_count": count}; players' ``statue_cards``;
    * pharaoh: ``pharaoh`` = {"province": id | None}; players' ``pharaoh_tokens``;
    * afterlife: ``tomb_stack_count``, ``tomb_discard`` (face up, oldest first); players'
      ``collection_count`` (collection size only) and ``tomb`` (rows base first, tile id or None);
      ``you.collection`` {tile: count} for the viewer only (faces are secret, R7.9);
      ``gifts.tomb_discards_made``;
    * afterlife, statues or promo favours: the Market's ``ptah_used``, ``glory_played``,
      ``afterlife_played``, ``thoth_discard_due``.
    With ``full`` (game over) the statue deck, tomb stack and every collection are shown too.
    """
    phase = state.phase
    over = phase == "over"
    modules = statues, pharaoh, afterlife = Modules(
        module_on(state, "statues"), module_on(state, "pharaoh"), module_on(state, "afterlife")
    )
    return shape.AmunReState(
        game="amun_re",
        viewer=seat,
        round=state.round,
        kingdom=(state.round - 1) // data.ROUNDS_PER_KINGDOM + 1 if state.round else 0,
        phase=phase,
        start_player=state.start,
        to_act=list(active),
        decision=decision(state),
        options=shape.AmunReOptions(**{k: state.options.get(k, False) for k in OPTION_KEYS}),
        bid_track=list(data.BID_TRACK),
        offering_tile=tile_view(state.tile),
        provinces=[
            province_view(
                p,
                none_if(state.owner[p]),
                state.farmers[p],
                state.stones[p],
                state.pyramids[p],
                p in state.revealed and phase in ("auction", "resolution"),
            )
            for p in range(len(data.PROVINCES))
            if state.seen[p]
        ],
        auction=auction_view(state) if phase in ("auction", "resolution") else None,
        market=market_view(state) if phase == "market" else None,
        offering=phase_shape.AmunReCommitments(committed=list(state.committed))
        if phase == "offering"
        else None,
        last_offering=None
        if phase in ("setup", "offering") or not any(state.offer)
        else [
            phase_shape.AmunReRevealedOffer(
                seat=s,
                offer=THEFT_OFFER if state.offer[s] == THEFT else GOLD_OFFER,
                gold=max(state.offer[s], 0),
            )
            for s in range(state.seats)
        ],
        gifts=gifts_view(state) if phase == "gifts" else None,
        harvest=None
        if phase != "harvest"
        else phase_shape.AmunReHarvest(
            turn=none_if(state.turn),
            green=[
                phase_shape.AmunReGreenCard(province=data.PROVINCES[p], card=data.CARDS[c])
                for p, c in enumerate(state.green)
                if c != NONE
            ],
        ),
        final_sale=phase_shape.AmunReCommitments(committed=list(state.committed))
        if phase == "final_sale"
        else None,
        players=[
            player_view(state, s, full or over or s == seat, full or s == seat, full, modules)
            for s in range(state.seats)
        ],
        you=None if seat is None else you_view(state, seat),
        discard_pile=list(state.discard),
        draw_pile_count=len(state.draw),
        province_deck_count=len(state.deck),
        last_scoring=None
        if state.last_scoring is None
        else [
            shape.AmunReScoringLine(**{**line, "schemes_scored": list(line["schemes_scored"])})
            for line in state.last_scoring
        ],
        final=None
        if state.final is None
        else shape.AmunReFinal(**{k: list(v) for k, v in state.final.items()}),
        winners=list(state.winners),
        ranks=list(state.ranks),
        hidden=shape.AmunReHidden(
            draw_pile=list(state.draw),
            province_deck=[data.PROVINCES[p] for p in state.deck],
            statue_deck=list(state.statue_deck) if statues else ABSENT,
            tomb_stack=list(state.tomb_stack) if afterlife else ABSENT,
        )
        if full
        else ABSENT,
        statues=shape.AmunReStatues(
            on_board=[
                shape.AmunReStatuePlacement(statue=data.STATUES[st], province=data.PROVINCES[p])
                for p, st in enumerate(state.statue_at)
                if st != NONE
            ],
            holders={data.STATUES[i]: none_if(h) for i, h in enumerate(state.statue_holder)},
            deck_count=len(state.statue_deck),
        )
        if statues
        else ABSENT,
        pharaoh=shape.AmunRePharaoh(
            province=None if state.pharaoh == NONE else data.PROVINCES[state.pharaoh]
        )
        if pharaoh
        else ABSENT,
        tomb_stack_count=len(state.tomb_stack) if afterlife else ABSENT,
        tomb_discard=list(state.tomb_discard) if afterlife else ABSENT,
    )


def tiles_dict(counts: list[int]) -> dict[str, int]:
    return {data.TOMB_TILES[t]: n for t, n in enumerate(counts) if n}


def tomb_rows(tomb: list[int]) -> list[list[str | None]]:
    rows: list[list[str | None]] = []
    k = 0
    for n in data.TOMB_ROWS:
        rows.append([None if t == NONE else data.TOMB_TILES[t] for t in tomb[k:k + n]])
        k += n
    return rows


#: the printed facts of each province (§5.1) but its bonus, shown with its board state
PROVINCE_FACTS: tuple[dict[str, Any], ...] = tuple(
    {
        "id": data.PROVINCES[p],
        "name": data.PROVINCE_NAMES[p],
        "bank": data.BANK[p],
        "region": data.REGION[p],
        "river": data.RIVER[p],
        "fields": data.FIELDS[p],
        "card_limit": data.CARD_LIMIT[p],
        "temples": data.TEMPLES[p],
        "mine": data.MINE[p],
        "caravan": data.CARAVAN[p],
    }
    for p in range(len(data.PROVINCES))
)


@lru_cache(maxsize=4096, typed=True)
def province_view(
    p: int, owner: int | None, farmers: int, stones: int, pyramids: int, up_for_auction: bool
) -> shape.AmunReProvince:
    """A province as the views show it: its printed facts (§5.1, the bonus R9.8) and its board
    state. A view is built on every read and a province changes seldom: one (frozen) instance
    per province state is shared by the views that show it (each view's JSON is a copy)."""
    return shape.AmunReProvince(
        **PROVINCE_FACTS[p],
        bonus=shape.AmunReProvinceBonus(
            stones=data.BONUS_STONES[p], gold=data.BONUS_GOLD[p], favour_cards=data.BONUS_CARDS[p]
        ),
        owner=owner,
        farmers=farmers,
        stones=stones,
        pyramids=pyramids,
        up_for_auction=up_for_auction,
    )


class Modules(NamedTuple):
    """Which Expanded Pack modules with keys of their own in the view are on (§2)."""

    statues: bool
    pharaoh: bool
    afterlife: bool


OPTION_KEYS = ("classic_bank_majority", "no_farmer_points", *data.MODULES)


def decision(state: State) -> str | None:
    """The kind of decision awaited now (public), e.g. ``place_stone`` inside a Market turn."""
    if state.phase in ("market", "gifts") and state.pending:
        return PLACE_FARMER if state.pending_kind == FARMERS_KIND else PLACE_STONE
    if state.phase == "market" and state.thoth_pending:
        return THOTH_DISCARD
    if state.phase == "gifts" and state.tomb_paid:
        return TOMB_DISCARD if state.tomb_paid == 1 else PLACE_TOMB_TILE
    return DECISIONS.get(state.phase)


def none_if(value: int) -> int | None:
    return None if value == NONE else value


def tile_view(tile: int) -> shape.AmunReOfferingTile | None:
    if not tile:
        return None
    return shape.AmunReOfferingTile(
        tile=tile,
        gold_per_farmer=data.GOLD_PER_FARMER[tile],
        camel=data.CAMEL[tile],
        temple_vp=data.TEMPLE_VP[tile],
    )


def auction_view(state: State) -> phase_shape.AmunReAuction:
    cards = []
    for c, p in enumerate(state.revealed):
        _, blocked = floor_and_block(state, c)
        cards.append(
            phase_shape.AmunReAuctionCard(
                province=data.PROVINCES[p],
                standing=none_if(state.standing[c]),
                protected=state.protected[c],
                blocked=blocked,
                scribes=[
                    phase_shape.AmunReScribe(
                        seat=s, value=state.bid_value[s], standing=state.standing[c] == s
                    )
                    for s in range(state.seats)
                    if state.bid_on[s] == c
                ],
            )
        )
    return phase_shape.AmunReAuction(
        cards=cards,
        status=[status(state, s) for s in range(state.seats)],
        turn=none_if(state.turn),
    )


def market_view(state: State) -> phase_shape.AmunReMarket:
    # the modules' Market keys: with afterlife, statues or promo favours only
    on = any(module_on(state, m) for m in ("afterlife", "statues", "promo_favours"))
    return phase_shape.AmunReMarket(
        turn=none_if(state.turn),
        last_purchase=KIND_NAMES.get(state.last_kind),
        cards_bought=state.cards_bought,
        to_place=placement(state) if state.pending else None,
        ptah_used=state.ptah_used if on else ABSENT,
        glory_played=state.glory_played if on else ABSENT,
        afterlife_played=state.afterlife_played if on else ABSENT,
        thoth_discard_due=state.thoth_pending if on else ABSENT,
    )


def gifts_view(state: State) -> phase_shape.AmunReGifts:
    return phase_shape.AmunReGifts(
        order=list(state.gift_order),
        turn=none_if(state.turn),
        gifts_left=state.gifts_left,
        gifts=list(state.gifts),
        tomb_discards_made=state.tomb_paid if module_on(state, "afterlife") else ABSENT,
        to_place=placement(state) if state.pending else ABSENT,
    )


def placement(state: State) -> phase_shape.AmunRePlacement:
    """The farmers or stones bought or won that must be placed now."""
    return phase_shape.AmunRePlacement(kind=KIND_NAMES[state.pending_kind], count=state.pending)


def player_view(
    state: State, s: int, show_gold: bool, show_hand: bool, full: bool, modules: Modules
) -> shape.AmunRePlayer:
    scribes_on_cards = state.phase in ("auction", "resolution") and state.bid_on[s] != NONE
    afterlife = modules.afterlife
    return shape.AmunRePlayer(
        seat=s,
        vp=state.vp[s],
        hand_count=hand_size(state, s),
        provinces=[data.PROVINCES[p] for p in sorted(state.owned[s])],
        scribes_free=data.SCRIBES - len(state.owned[s]) - scribes_on_cards,
        theft_card=True,
        gold=state.gold[s] if show_gold else ABSENT,
        hand=cards_list(state.hands[s]) if show_hand else ABSENT,
        statue_cards=[data.STATUES[i] for i, h in enumerate(state.statue_holder) if h == s]
        if modules.statues
        else ABSENT,
        pharaoh_tokens=state.tokens[s] if modules.pharaoh else ABSENT,
        collection_count=collection_size(state, s) if afterlife else ABSENT,
        tomb=tomb_rows(state.tomb[s]) if afterlife else ABSENT,
        collection=tiles_dict(state.collection[s]) if afterlife and full else ABSENT,
    )


def you_view(state: State, seat: int) -> shape.AmunReYou:
    offer = state.offer[seat]
    return shape.AmunReYou(
        seat=seat,
        gold=state.gold[seat],
        marked_for_sale=cards_dict(state.marked[seat]),
        adjustment=state.adjust[seat],
        offer=None
        if not offer
        else phase_shape.AmunReOffer(
            offer=THEFT_OFFER if offer == THEFT else GOLD_OFFER, gold=max(offer, 0)
        ),
        collection=tiles_dict(state.collection[seat])
        if module_on(state, "afterlife")
        else ABSENT,
    )


PUBLIC = frozenset(
    {
        "round_started",
        "bid_placed",
        "card_sold",
        "bidding_ended",
        "province_won",
        "market_started",
        "favour_cards_bought",
        "farmers_bought",
        "stones_bought",
        "farmer_placed",
        "stone_placed",
        "architect_played",
        "extra_farmer_played",
        "market_turn_ended",
        "offering_started",
        "offering_revealed",
        "gift_taken",
        "gift_turn_ended",
        "offering_ended",
        "harvest_started",
        "green_card_played",
        "harvest_turn_ended",
        "kingdom_scored",
        "final_sale_started",
        "final_sale_revealed",
        "game_scored",
        # Expanded Pack modules
        "pharaoh_token_gained",
        "statue_gold_taken",
        "tomb_tiles_bought",
        "thoth_discarded",
        "horus_used",
        "afterlife_played",
        "glory_played",
        "tomb_tile_placed",
        "tomb_tile_discarded",
        "card_discarded",
    }
)
OWN_ONLY = frozenset({"sale_marked", "adjustment_set"})
COMMITMENTS = frozenset({"offering_committed", "final_sale_committed"})


def view_event(event: Event, seat: int | None, full: bool) -> Event | None:
    kind, d = event.type, event.data
    if full or kind in PUBLIC:
        return event
    own = seat is not None and seat == event.seat
    if kind in OWN_ONLY:
        return event if own else None
    if kind in COMMITMENTS:
        return event if own else Event(kind, {}, event.seat)
    if kind == "favour_cards_drawn":
        shown: dict[str, Any] = {
            "requested": d["requested"],
            "reason": d["reason"],
            "reshuffled": d["reshuffle"] is not None,
        }
        if own:
            shown["cards"] = list(d["cards"])
        else:
            shown["count"] = len(d["cards"])
        return Event(kind, shown, event.seat)
    if kind == "tomb_tiles_drawn":  # R16.1.2: faces seen only by the drawer
        tiles: dict[str, Any] = {"requested": d["requested"], "reason": d["reason"],
                                 "reshuffled": d["reshuffle"] is not None}
        if own:
            tiles["tiles"] = list(d["tiles"])
        else:
            tiles["count"] = len(d["tiles"])
        return Event(kind, tiles, event.seat)
    if kind == "game_prepared":
        return Event(
            kind,
            {
                "province_deck_count": len(d["province_deck"]),
                "draw_pile_count": len(d["draw_pile"]),
                "start_player": d["start_player"],
                **{f"{k}_count": len(d[k]) for k in ("statue_deck", "tomb_stack") if k in d},
            },
            event.seat,
        )
    if kind == "kingdom_changed":
        return Event(kind, {"province_deck_count": len(d["province_deck"])}, event.seat)
    return None

