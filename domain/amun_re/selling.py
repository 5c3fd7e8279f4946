"""Selling Favour cards (R7.3): a free action for the player who is to act (R3.12).

``sell`` is offered during a Bid turn (R9.8 table), a Market turn (also between the atomic steps of
a purchase, C-2), a gift-collection turn (R11.8) and a Harvest turn (R12.5). At Auction resolution
the only action is ``sell_for_payment`` (C-3, in ``auction``); in the Offering and the final sale,
sales are marked secretly (``mark_for_sale``) and executed at the reveal (R11.2, R15.1).
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data
from domain.amun_re.board import discard_card, pay_out
from domain.amun_re.state import State
from domain.contract import JSON, Event, IllegalAction

SELL_PHASES = ("auction", "market", "gifts", "harvest")


def sell_actions(state: State, seat: int, kind: str = "sell") -> list[JSON]:
    """One ``sell`` per card type in his hand, in data order (identical cards are one choice)."""
    return [{"type": kind, "card": data.CARDS[c]} for c, n in enumerate(state.hands[seat]) if n]


def check_card_in_hand(state: State, seat: int, card: int, rule: str) -> None:
    if not state.hands[seat][card]:
        raise IllegalAction(f"you hold no {data.CARD_NAMES[card]} card", rule=rule)


def decide_sell(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    """R7.3 Sell(card): 1 gold from the bank, the card face up on the discard pile."""
    card = actions.card_of(actions.read(action, card=str)["card"])
    if state.phase not in SELL_PHASES:
        rule = {"resolution": "C-3", "offering": "R11.2", "final_sale": "R15.1"}.get(
            state.phase, "R7.3"
        )
        raise IllegalAction(
            "selling is not a separate action now"
            + (
                " (mark cards for sale inside your commitment)"
                if rule != "C-3"
                else " (use sell_for_payment)"
            ),
            rule=rule,
        )
    check_card_in_hand(state, seat, card, "R7.3")
    if state.thoth_pending:
        raise IllegalAction("first discard 1 Favour card for Thoth (no sale meanwhile)",
                            rule="C-4")
    if state.tomb_paid == 1 and not (
            state.hands[seat][card] and sum(state.hands[seat]) - 1 + sum(state.collection[seat])
            - 1 >= 1):
        raise IllegalAction("this sale would leave nothing to discard for your extra tomb "
                            "placement", rule="R16.1.5")
    return [Event("card_sold", {"card": data.CARDS[card], "for_payment": False}, seat)]


def apply_sold(state: State, d: dict[str, Any], seat: int) -> None:
    discard_card(state, seat, data.CARD_INDEX[d["card"]])
    pay_out(state, seat, 1, "sale")
