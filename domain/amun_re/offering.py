"""Phase 3 — Offering (§11): the simultaneous secret commitment (R11.1-R11.2) and its reveal
(R11.3-R11.7). Gift collection (R11.8-R11.9) is in ``gifts``.

Every seat that has not committed is to act. Private steps, secret until the reveal:
* ``mark_for_sale {card}`` — a card to sell at the reveal (R11.2 sales);
* ``set_adjustment {sign}`` — an Offering Adjustment card with sign +3 or −3 (R11.2, D-7);
then exactly one commitment:
* ``commit_gold {gold}`` with 1 ≤ gold ≤ gold held + cards marked (R11.2, D-8);
* ``commit_theft {greed}`` — the Theft card; ``greed: true`` also commits a Greed card (Promo
  module, R16.4.2, C-8; +1 gift).
Events ``sale_marked``, ``adjustment_set`` and ``offering_committed`` are seen only by their seat
(others see ``offering_committed`` without data); ``offering_revealed`` publishes everything and
carries the computed total, tile, ranking, gifts and collection order.
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data
from domain.amun_re.board import discard_card, pay_out
from domain.amun_re.state import (
    NONE,
    THEFT,
    State,
    can_extra_place,
    clear_commitment,
    distance,
    has_statue,
    module_on,
)
from domain.contract import JSON, Event, IllegalAction

SIGNS = (data.ADJUSTMENT, -data.ADJUSTMENT)


def unmarked(state: State, seat: int, card: int) -> int:
    """Copies of ``card`` still free: not marked for sale and not named as the adjustment."""
    free = state.hands[seat][card] - state.marked[seat][card]
    if card == data.OFFERING_ADJUSTMENT and state.adjust[seat]:
        free -= 1
    return free


def mark_actions(state: State, seat: int) -> list[JSON]:
    """R11.2 / R15.1: one ``mark_for_sale`` per card type with a copy not yet committed."""
    return [
        {"type": "mark_for_sale", "card": data.CARDS[c]}
        for c in range(len(data.CARDS))
        if unmarked(state, seat, c) > 0
    ]


def legal(state: State, seat: int) -> list[JSON]:
    out = mark_actions(state, seat)
    if not state.adjust[seat] and unmarked(state, seat, data.OFFERING_ADJUSTMENT) > 0:
        out += [{"type": "set_adjustment", "sign": s} for s in SIGNS]
    most = state.gold[seat] + sum(state.marked[seat])
    out += [{"type": "commit_gold", "gold": g} for g in range(data.MIN_GOLD_OFFER, most + 1)]
    out.append({"type": "commit_theft", "greed": False})
    if can_greed(state, seat):
        out.append({"type": "commit_theft", "greed": True})
    return out


def can_greed(state: State, seat: int) -> bool:
    """R16.4.2: a Greed card in hand that is not marked for sale (promo_favours)."""
    return module_on(state, "promo_favours") and unmarked(state, seat, data.GREED) > 0


def check_open(state: State, seat: int, phases: tuple[str, ...] = ("offering",)) -> None:
    """R11.1 / R15.1: a secret step is taken in its phase, before the seat's commitment."""
    rule = "R15.1" if state.phase == "final_sale" or phases == ("final_sale",) else "R11.1"
    if state.phase not in phases:
        what = "the final sale" if phases == ("final_sale",) else "the Offering"
        raise IllegalAction(f"this is a decision of {what}", rule=rule)
    if state.committed[seat]:
        raise IllegalAction("your commitment is final", rule=rule)


def decide_mark(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    """R11.2 sales / R15.1 final sale: one more card to sell at the reveal."""
    card = actions.card_of(actions.read(action, card=str)["card"])
    check_open(state, seat, ("offering", "final_sale"))
    if unmarked(state, seat, card) <= 0:
        raise IllegalAction(
            f"you hold no other {data.CARD_NAMES[card]} card that is not already committed",
            rule="R11.2" if state.phase == "offering" else "R15.1",
        )
    return [Event("sale_marked", {"card": data.CARDS[card]}, seat)]


def decide_adjustment(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    sign = actions.read(action, sign=int)["sign"]
    check_open(state, seat)
    if sign not in SIGNS:
        raise IllegalAction(f"the adjustment is {SIGNS[0]} or {SIGNS[1]}", rule="R11.2")
    if state.adjust[seat]:
        raise IllegalAction("at most one Offering Adjustment per player", rule="R11.2")
    if unmarked(state, seat, data.OFFERING_ADJUSTMENT) <= 0:
        raise IllegalAction("you hold no unmarked Offering Adjustment card", rule="R11.2")
    return [Event("adjustment_set", {"sign": sign}, seat)]


def decide_gold(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    gold = actions.read(action, gold=int)["gold"]
    check_open(state, seat)
    if gold < data.MIN_GOLD_OFFER:
        raise IllegalAction(f"a gold offer is at least {data.MIN_GOLD_OFFER}", rule="R11.2")
    most = state.gold[seat] + sum(state.marked[seat])
    if gold > most:
        raise IllegalAction(
            f"you can offer at most {most} (gold + cards marked for sale)", rule="R11.2"
        )
    return [Event("offering_committed", {"offer": "gold", "gold": gold, "greed": False}, seat)]


def decide_theft(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    greed = actions.read(action, greed=bool)["greed"]
    check_open(state, seat)
    if greed and not module_on(state, "promo_favours"):
        raise IllegalAction("Greed belongs to the promo_favours module, which is off",
                            rule="R16.4.2")
    if greed and not can_greed(state, seat):
        raise IllegalAction("you hold no Greed card that is not marked for sale", rule="R16.4.2")
    return [Event("offering_committed", {"offer": "theft", "gold": 0, "greed": greed}, seat)]


def is_last_commit(state: State, seat: int) -> bool:
    return all(c or s == seat for s, c in enumerate(state.committed))


def apply_marked(state: State, d: dict[str, Any], seat: int) -> None:
    state.marked[seat][data.CARD_INDEX[d["card"]]] += 1


def apply_adjustment(state: State, d: dict[str, Any], seat: int) -> None:
    state.adjust[seat] = d["sign"]


def apply_committed(state: State, d: dict[str, Any], seat: int) -> None:
    state.committed[seat] = True
    if state.phase == "offering":
        state.offer[seat] = THEFT if d["offer"] == "theft" else d["gold"]
        state.greed[seat] = d["greed"]


def apply_started(state: State, d: dict[str, Any], seat: int | None) -> None:
    state.phase = "offering"
    state.turn = NONE
    for s in range(state.seats):
        clear_commitment(state, s)


def gift_count(state: State, seat: int, base: int) -> int:
    """R11.7: base gifts + Set (also a thief) + Pharaoh tokens (not a thief) + Greed."""
    gifts = base
    thief = state.offer[seat] == THEFT
    if has_statue(state, seat, data.SET):
        gifts += data.SET_GIFTS
    if not thief and state.tokens:
        gifts += data.PHARAOH_GIFTS_PER_TOKEN * state.tokens[seat]
    if thief and state.greed[seat]:
        gifts += data.GREED_GIFTS
    return gifts


def reveal(state: State) -> Event:
    """R11.3-R11.8 computed from the commitments (system step once all have committed)."""
    commitments = []
    total = 0
    for s in range(state.seats):
        offer = state.offer[s]
        sales = [data.CARDS[c] for c, n in enumerate(state.marked[s]) for _ in range(n)]
        commitments.append(
            {
                "seat": s,
                "offer": "theft" if offer == THEFT else "gold",
                "gold": max(offer, 0),
                "sales": sales,
                "adjustment": state.adjust[s],
                "greed": state.greed[s],
            }
        )
        total += data.THEFT_VALUE if offer == THEFT else offer
        total += state.adjust[s]
    offerers = sorted(
        (s for s in range(state.seats) if state.offer[s] != THEFT),
        key=lambda s: (-state.offer[s], distance(state, s)),
    )
    thieves = sorted(
        (s for s in range(state.seats) if state.offer[s] == THEFT), key=lambda s: distance(state, s)
    )
    gifts = [data.GIFTS_THIEF] * state.seats
    for rank, s in enumerate(offerers):
        gifts[s] = (data.GIFTS_RANK_1, data.GIFTS_RANK_2)[rank] if rank < 2 else data.GIFTS_OTHER
    gifts = [gift_count(state, s, g) for s, g in enumerate(gifts)]  # R11.7 module extras
    return Event(
        "offering_revealed",
        {
            "commitments": commitments,
            "total": total,
            "tile": data.tile_for(total),
            "ranking": offerers,
            "gifts": gifts,
            "collection_order": [
                s for s in offerers + thieves if gifts[s] > 0 or extra_after_reveal(state, s)
            ],
            "start_player": offerers[0] if offerers else state.start,
        },
    )


def extra_after_reveal(state: State, seat: int) -> bool:
    """D-35 / R11.8: with Afterlife a player without a gift still collects when an extra tomb
    placement is possible with the hand he keeps after the reveal."""
    kept = sum(state.hands[seat]) - sum(state.marked[seat]) - (1 if state.adjust[seat] else 0)
    kept -= 1 if state.greed[seat] else 0
    return can_extra_place(state, seat, kept)


def apply_revealed(state: State, d: dict[str, Any], seat: int | None) -> None:
    """R11.3 execution order: sales, gold offers, thefts, played blue cards discarded."""
    for c in d["commitments"]:
        s = c["seat"]
        for card in c["sales"]:
            discard_card(state, s, data.CARD_INDEX[card])
            pay_out(state, s, 1, "sale")
    for c in d["commitments"]:
        if c["offer"] == "gold":
            pay_out(state, c["seat"], -c["gold"], "offering")
        else:
            pay_out(state, c["seat"], data.THEFT_GOLD, "theft")
    for c in d["commitments"]:
        if c["adjustment"]:
            discard_card(state, c["seat"], data.OFFERING_ADJUSTMENT)
        if c["greed"]:
            discard_card(state, c["seat"], data.GREED)
    for s in range(state.seats):
        state.marked[s] = [0] * len(data.CARDS)
        state.adjust[s] = 0
        state.greed[s] = False
    state.tile = d["tile"]
    state.gifts = list(d["gifts"])
    state.gift_order = list(d["collection_order"])
    state.phase = "gifts"
    state.cursor = 0
    state.turn = state.gift_order[0] if state.gift_order else NONE
    state.gifts_left = state.gifts[state.turn] if state.gift_order else 0
