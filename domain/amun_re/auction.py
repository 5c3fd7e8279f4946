"""Phase 1 — Auction (§9): bidding (R9.3-R9.7) and resolution (R9.8).

Actions:
* ``{"type": "bid", "province": id, "value": v, "bribe": bool, "protection": bool}`` (R9.6);
* ``{"type": "sell", "card": id}`` during a Bid turn (R7.3);
* ``{"type": "sell_for_payment", "card": id}`` at resolution while gold < bid (R9.8, C-3).

Events: ``bid_placed``, ``bidding_ended``, ``province_won`` (payment, control, immediate bonus) and
``favour_cards_drawn`` for bonus cards. Statues: ``province_won`` names the statue standing there
(``statue``, R9.8 step 4) and its winner takes the Statue card. Pharaoh: every outbid moves the
figure to that province (R16.3.1, in ``apply_bid``); the token is given by ``flow``.
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data
from domain.amun_re.board import add_stones, discard_card, pay_out, stones_would_build
from domain.amun_re.drawing import draw_event
from domain.amun_re.selling import check_card_in_hand, sell_actions
from domain.amun_re.state import NONE, State, hand_size, module_on, turn_order
from domain.contract import JSON, Event, IllegalAction

NEW, STANDING, OUTBID = "new", "standing", "outbid"
TOP = data.BID_TRACK[-1]


def status(state: State, seat: int) -> str:
    """R9.3: NEW (no scribe on a card), STANDING or OUTBID."""
    card = state.bid_on[seat]
    if card == NONE:
        return NEW
    return STANDING if state.standing[card] == seat else OUTBID


def floor_and_block(state: State, card: int) -> tuple[int, int | None]:
    """R9.6(3) and R9.4: the standing value of a card (−1 if empty) and its blocked space."""
    top = state.standing[card]
    if top == NONE:
        return -1, None
    value = state.bid_value[top]
    return value, data.next_space(value) if state.protected[card] else None


def bidding_over(state: State) -> bool:
    """R9.7: every revealed card has a standing bid."""
    return NONE not in state.standing


def legal_bids(state: State, seat: int) -> list[JSON]:
    """R9.6 conditions 1-6, ordered by card (reveal order), bribe, protection, value."""
    own = state.bid_on[seat]
    outbid = own != NONE
    means = state.gold[seat] + hand_size(state, seat)
    hand = state.hands[seat]
    out: list[JSON] = []
    for c, province in enumerate(state.revealed):
        pid = data.PROVINCES[province]
        floor, blocked = floor_and_block(state, c)
        for bribe in (False, True):
            if bribe != (outbid and c == own):
                continue
            if bribe and not hand[data.BRIBE]:
                continue
            for protection in (False, True):
                if protection and not hand[data.PROTECTION]:
                    continue
                limit = means - bribe - protection
                for v in data.BID_TRACK:
                    if v > floor and v != blocked and v <= limit and not (protection and v == TOP):
                        out.append(
                            {
                                "type": "bid",
                                "province": pid,
                                "value": v,
                                "bribe": bribe,
                                "protection": protection,
                            }
                        )
    return out


def legal(state: State, seat: int) -> list[JSON]:
    if state.phase == "auction":
        return legal_bids(state, seat) + sell_actions(state, seat)
    return sell_actions(state, seat, "sell_for_payment")


def decide_bid(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    p = actions.read(action, province=str, value=int, bribe=bool, protection=bool)
    province = actions.province_of(p["province"])
    if state.phase != "auction":
        raise IllegalAction("bids are placed only during the Auction", rule="R9.5")
    if province not in state.revealed:
        raise IllegalAction(f"{p['province']} is not up for auction this round", rule="R9.1")
    card = state.revealed.index(province)
    value, bribe, protection = p["value"], p["bribe"], p["protection"]
    own = state.bid_on[seat]
    hand = state.hands[seat]
    if bribe and (own == NONE or card != own):
        raise IllegalAction(
            "a Bribe only lets an outbid player bid again on the same card", rule="R9.6"
        )
    if not bribe and own != NONE and card == own:
        raise IllegalAction(
            "you were outbid here: bid on another card, or play a Bribe", rule="R9.6"
        )
    if bribe:
        check_card_in_hand(state, seat, data.BRIBE, "R9.6")
    if value not in data.BID_TRACK:
        raise IllegalAction(f"{value} is not a bid space {list(data.BID_TRACK)}", rule="§5.2")
    floor, blocked = floor_and_block(state, card)
    if value <= floor:
        raise IllegalAction(f"a bid here must be higher than the standing {floor}", rule="R9.6")
    if value == blocked:
        raise IllegalAction(f"space {value} is blocked by a Protection card", rule="R9.4")
    if protection and not hand[data.PROTECTION]:
        raise IllegalAction("you hold no Protection card", rule="R9.6")
    if protection and value == TOP:
        raise IllegalAction(f"Protection cannot be played with a bid of {TOP}", rule="R9.6")
    limit = state.gold[seat] + hand_size(state, seat) - bribe - protection
    if value > limit:
        raise IllegalAction(f"you can bid at most {limit} (gold + Favour cards kept)", rule="R9.6")
    outbid = state.standing[card]
    return [
        Event(
            "bid_placed",
            {
                "province": p["province"],
                "value": value,
                "bribe": bribe,
                "protection": protection,
                "outbid": None if outbid == NONE else outbid,
            },
            seat,
        )
    ]


def bid_ends_bidding(state: State, action: JSON) -> bool:
    """Whether a (valid) bid makes every card standing (R9.7): a cheap settle check."""
    card = state.revealed.index(data.PROVINCE_INDEX[action["province"]])
    return state.standing.count(NONE) == (1 if state.standing[card] == NONE else 0)


def decide_sell_for_payment(
    state: State, seat: int, action: JSON, rng: random.Random
) -> list[Event]:
    card = actions.card_of(actions.read(action, card=str)["card"])
    if state.phase != "resolution":
        raise IllegalAction("selling for payment happens only at Auction resolution", rule="C-3")
    check_card_in_hand(state, seat, card, "R9.8")
    return [Event("card_sold", {"card": data.CARDS[card], "for_payment": True}, seat)]


def payer(state: State) -> int:
    """R9.8: the player being resolved, if he must still sell to pay (else NONE)."""
    if state.phase != "resolution" or state.cursor >= state.seats:
        return NONE
    seat = turn_order(state)[state.cursor]
    return seat if state.gold[seat] < state.bid_value[seat] else NONE


def apply_bid(state: State, d: dict[str, Any], seat: int) -> None:
    """R9.6 effect: red cards discarded, scribe moved, the previous standing bid outbid."""
    if d["bribe"]:
        discard_card(state, seat, data.BRIBE)
    if d["protection"]:
        discard_card(state, seat, data.PROTECTION)
    card = state.revealed.index(data.PROVINCE_INDEX[d["province"]])
    state.bid_on[seat] = card
    state.bid_value[seat] = d["value"]
    state.standing[card] = seat
    state.protected[card] = d["protection"]
    if d["outbid"] is not None and module_on(state, "pharaoh"):
        state.pharaoh = data.PROVINCE_INDEX[d["province"]]  # R16.3.1
    state.turn = NONE
    for i in range(1, state.seats + 1):
        t = (seat + i) % state.seats
        if status(state, t) != STANDING:
            state.turn = t
            break


def apply_bidding_ended(state: State, d: dict[str, Any], seat: int | None) -> None:
    state.phase = "resolution"
    state.turn = NONE
    state.cursor = 0


def resolve_next(state: State, rng: random.Random) -> list[Event]:
    """R9.8 for the next player in turn order whose gold covers his bid (system step)."""
    seat = turn_order(state)[state.cursor]
    price = state.bid_value[seat]
    if state.gold[seat] < price:
        return []
    province = state.revealed[state.bid_on[seat]]
    stones = data.BONUS_STONES[province]
    events = [
        Event(
            "province_won",
            {
                "province": data.PROVINCES[province],
                "price": price,
                "gold": data.BONUS_GOLD[province],
                "stones": stones,
                "pyramids_built": stones_would_build(state, province, stones) if stones else 0,
            },
            seat,
        )
    ]
    if module_on(state, "statues"):  # R9.8 step 4
        statue = state.statue_at[province]
        events[0].data["statue"] = None if statue == NONE else data.STATUES[statue]
    if data.BONUS_CARDS[province]:
        events.append(draw_event(state, seat, data.BONUS_CARDS[province], "bonus", rng))
    return events


def apply_won(state: State, d: dict[str, Any], seat: int) -> None:
    """R9.8 steps 1-3: pay, take control, take the immediate bonus (stones build, R7.7)."""
    province = data.PROVINCE_INDEX[d["province"]]
    pay_out(state, seat, -d["price"], "bid")
    state.owner[province] = seat
    state.owned[seat].append(province)
    pay_out(state, seat, d["gold"], "bonus")
    if d["stones"]:
        add_stones(state, province, d["stones"])
    if d.get("statue"):
        state.statue_holder[data.STATUE_INDEX[d["statue"]]] = seat  # R16.2.3
    state.cursor += 1
