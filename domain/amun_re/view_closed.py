"""The closed sets of ids the Amun-Re view uses (``Annotated[str, Closed(...)]``, see
``domain/shapes.py``): strings in the JSON view, enums in the typed view. Every set is read from
the game's data (``data.json``) or from the constants the rules themselves use.
"""

from __future__ import annotations

from typing import Annotated

from domain.amun_re import auction, data, state, view_names
from domain.shapes import Closed

Card = Annotated[
    str,
    Closed(
        "AmunReCard",
        data.CARDS,
        "A kind of Favour card (§5.5; the modules' cards only with their module on); the catalog "
        "(`catalog(kind: AMUN_RE)`) has its text.",
        tuple(f"{n} ({c})" for n, c in zip(data.CARD_NAMES, data.CARD_COLOUR, strict=True)),
    ),
]
Province = Annotated[
    str,
    Closed(
        "AmunReProvinceId",
        data.PROVINCES,
        "A province (§5.1), the same 15 in every game.",
        data.PROVINCE_NAMES,
    ),
]
Statue = Annotated[
    str,
    Closed(
        "AmunReStatue", data.STATUES, "A statue (Statues module, §5.6, §16.2).", data.STATUE_NAMES
    ),
]
TombTile = Annotated[
    str,
    Closed(
        "AmunReTombTile",
        data.TOMB_TILES,
        "The reward type of a Tomb tile (Afterlife module, §5.7, R16.1.4).",
        tuple(
            f"{n} {t.replace('_', ' ').replace('vp', 'VP')}"
            for n, t in zip(data.TOMB_AMOUNT, data.TOMB_TILES, strict=True)
        ),
    ),
]
Bank = Annotated[str, Closed("AmunReBank", data.BANKS, "A bank of the Nile (§5.1).")]
Region = Annotated[
    str,
    Closed(
        "AmunReRegion",
        tuple(dict.fromkeys(data.REGION)),
        "A region of Egypt (§5.1): Upper (south) or Lower (north).",
    ),
]
River = Annotated[
    str,
    Closed(
        "AmunReRiver",
        tuple(dict.fromkeys(data.RIVER)),
        "A province's river class (§5.1): on the Nile, or at the border (desert or sea).",
    ),
]
Phase = Annotated[
    str,
    Closed(
        "AmunRePhase",
        state.PHASES,
        "A phase of the game (§8): setup, then per round auction, resolution (R9.8), market, "
        "offering, gifts (R11.8), harvest; final_sale (R15.1) and over at the end.",
    ),
]
Decision = Annotated[
    str,
    Closed(
        "AmunReDecision",
        view_names.DECISION_KINDS,
        "The kind of decision the game waits for (decision lists §9.8, §10.5, §11.6, R12.2, "
        "R15.6), e.g. place_stone inside a Market turn.",
    ),
]
BidStatus = Annotated[
    str,
    Closed(
        "AmunReBidStatus",
        (auction.NEW, auction.STANDING, auction.OUTBID),
        "A player's status in the Auction (R9.3).",
    ),
]
Offer = Annotated[
    str,
    Closed("AmunReOfferKind", view_names.OFFERS, "What a player offered (R11.2): gold or Theft."),
]
Purchase = Annotated[
    str,
    Closed(
        "AmunRePurchaseKind",
        tuple(view_names.KIND_NAMES.values()),
        "A kind of Market purchase (R10.2), in the order they must be bought.",
    ),
]
