"""Scarab's actions, declared once (``domain.actions``): play a card (R3.1) or discard one
(R3.2). An action names a value, not one of its two copies (R1), so a seat has at most one
``play`` and one ``discard`` per value in its hand. ``rules.py`` lists and checks them."""

from __future__ import annotations

from scarab.state import VALUES

from domain.actions import ActionSpec, Catalog, Param

CARD = Param(
    "card",
    "integer",
    "The value of a card in the seat's hand (R1).",
    minimum=min(VALUES),
    maximum=max(VALUES),
)

ACTIONS = (
    ActionSpec(
        "play",
        "Play a card on the row",
        "R3.1",
        (CARD,),
        "Play the {card}",
        "Lay the card face up on the play row; it scores its value if it beats the top card.",
    ),
    ActionSpec(
        "discard",
        "Discard a card",
        "R3.2",
        (CARD,),
        "Discard the {card}",
        "Put the card on the discard pile: no points, and the row's top card stays.",
    ),
)

CATALOG = Catalog("scarab", ACTIONS)
