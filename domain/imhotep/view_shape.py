"""The shape of the Imhotep view (§14): every key ``view.view`` may return, declared once.

This module is the declaration of the JSON view: ``domain/imhotep/view.py`` builds an instance of
``ImhotepState`` (``view.view_of``, an allow-list) and the JSON is derived from that instance
(``domain.shapes.to_json``), so it has exactly the keys declared here, in this order. The typed
GraphQL view is derived from the same declarations (``service/api/graphql/gameviews``). The
shapes are plain dataclasses, not frozen: an instance lives only until its JSON is derived, and
a frozen dataclass takes twice as long to build (a view is built for every read).

How a declaration reads:

* each field is a key of the JSON object, of the annotated type (``int``, ``str``, ``bool``,
  ``list[...]``, a nested shape); ``X | None`` may be null;
* a field with a default (``= ABSENT``, ``domain/shapes.py``) is a key that is present only for
  some viewers or some sides: the view leaves it ``ABSENT`` where the key is left out; a field
  without one is always present (a value ``None`` is ``null``, never a missing key);
* ``dict[str, V]`` with ``metadata["entries"]`` is a map, shown in the typed view as a list of
  that entry shape (its first field the key, its second the value); ``JSON`` is a free object;
* ``Annotated[str, Closed(...)]`` (``domain/shapes.py``) is a string from a closed set of domain
  ids (a card, a colour, a side): an enum in the typed view, the id itself in the JSON view;
* ``metadata["description"]`` and a class docstring describe the typed field or type (every
  field and every shape has one: the schema's descriptions are these);
  ``metadata["typed_nullable"]``: nullable in the typed view although never null here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from domain.contract import JSON
from domain.imhotep import data, decisions
from domain.shapes import ABSENT, Closed

Card = Annotated[
    str,
    Closed(
        "ImhotepCard",
        data.CARD_IDS,
        "A kind of Imhotep market card (§1.4, §9); the catalog (`catalog(kind: IMHOTEP)`) has its "
        "colour and text.",
        tuple(f"{c.replace('_', ' ').capitalize()} ({data.CARD_COLOUR[c]})" for c in data.CARD_IDS),
    ),
]
Colour = Annotated[
    str, Closed("ImhotepColour", data.COLOURS, "A player's stone colour (§1.1, §3).")
]
Side = Annotated[
    str,
    Closed(
        "ImhotepSide",
        data.SIDES,
        "The side of a site's board (§2); the B sides' values are partly designed (§17.2).",
        tuple(f"Side {side}" for side in data.SIDES),
    ),
]
Site = Annotated[
    str, Closed("ImhotepSite", data.SITES, "One of the five sites a ship can sail to (§1.5, §8).")
]
PyramidId = Annotated[
    str,
    Closed(
        "ImhotepPyramidId",
        tuple(dict.fromkeys(name for side in data.SIDES for name, _ in data.PYRAMIDS[side])),
        'A pyramid of the Pyramids site: "pyramid" (side A, §8.3) or one of the three of side B '
        "(§8.4).",
    ),
]
PendingKind = Annotated[
    str,
    Closed(
        "ImhotepPendingKind",
        ("turn", *dict.fromkeys(decisions.KIND.values())),
        'What the game waits for (§10): "turn" (a turn action, §6) or a decision kind (§10.2).',
    ),
]

SEAT = "A seat number, 0-based in seating order (the index in `players`)."


@dataclass(kw_only=True)
class ImhotepSides:
    """The side (A or B) of each of the five sites (§2)."""

    market: Side = field(metadata={"description": "Side of the Market (§8.1, §8.2)."})
    pyramids: Side = field(metadata={"description": "Side of the Pyramids (§8.3, §8.4)."})
    temple: Side = field(metadata={"description": "Side of the Temple (§8.5, §8.6)."})
    burial_chamber: Side = field(
        metadata={"description": "Side of the Burial chamber (§8.7, §8.8)."}
    )
    obelisks: Side = field(metadata={"description": "Side of the Obelisks (§8.9, §8.10)."})


@dataclass(kw_only=True)
class ImhotepOptions:
    """The table options the game was created with (§2)."""

    sides: ImhotepSides = field(metadata={"description": "The side of each site's board."})
    wrath_of_the_pharaoh: bool = field(
        metadata={
            "description": "The Wrath of the Pharaoh variant is on: at the end, a player who "
            "has not taken part in all four building sites loses 5 points (§13 F6)."
        }
    )


@dataclass(kw_only=True)
class ImhotepPlayer:
    """One seat's public position (§4): everything here is seen by everyone."""

    seat: int = field(metadata={"description": SEAT})
    colour: Colour = field(metadata={"description": "The colour of the seat's stones."})
    score: int = field(metadata={"description": "Points scored so far (unbounded, §4)."})
    sled: int = field(metadata={"description": "Stones on the seat's sled (0-5, §1.1)."})
    quarry: int = field(metadata={"description": "Stones left in the seat's quarry (§1.1)."})
    cards: list[Card] = field(
        metadata={
            "description": "Market cards in front of the player, in the order received "
            "(public, §4, §9.3): green, purple and blue cards not yet played."
        }
    )


@dataclass(kw_only=True)
class ImhotepShip:
    """A ship of the current round (§1.2, §5.1)."""

    id: int = field(metadata={"description": "Ship number 1-4 within this game (not global)."})
    capacity: int = field(metadata={"description": "Number of slots (1-4)."})
    minimum: int = field(
        metadata={"description": "Stones needed on board before it may sail (§1.2, §7.1)."}
    )
    slots: list[int | None] = field(
        metadata={"description": "The seat owning each slot's stone, null for an empty slot."}
    )
    load: int = field(metadata={"description": "Stones on board (non-null slots)."})
    site: Site | None = field(
        metadata={"description": "The site it sailed to, null while at sea (not sailed)."}
    )


@dataclass(kw_only=True)
class ImhotepDocks:
    """The ship (id) docked at each site this round, null when the dock is free (§4)."""

    market: int | None = field(metadata={"description": "Ship id docked at the Market."})
    pyramids: int | None = field(metadata={"description": "Ship id docked at the Pyramids."})
    temple: int | None = field(metadata={"description": "Ship id docked at the Temple."})
    burial_chamber: int | None = field(
        metadata={"description": "Ship id docked at the Burial chamber."}
    )
    obelisks: int | None = field(metadata={"description": "Ship id docked at the Obelisks."})


@dataclass(kw_only=True)
class ImhotepMarket:
    """The Market site (§8.1, §8.2, §9.2)."""

    side: Side = field(metadata={"description": "Side of the Market board."})
    face_up: list[Card | None] = field(
        metadata={
            "description": "The face-up slots in order (4 on side A, 3 on side B); null for a "
            "slot already taken."
        }
    )
    pair_count: int = field(
        metadata={"description": "Cards on the face-down pair space (0-2; always 0 on side A)."}
    )
    pair: list[Card] | None = field(
        default=ABSENT,
        metadata={
            "description": "The face-down pair: only to the player deciding market_keep, or "
            "after the game (full view); null otherwise (§14)."
        },
    )


@dataclass(kw_only=True)
class ImhotepPyramid:
    """One pyramid (side A has one, side B three: §8.3, §8.4)."""

    name: PyramidId = field(metadata={"description": "Which pyramid."})
    stones: list[int] = field(
        metadata={"description": "The seat of each stone on its spaces, in fill order."}
    )
    spaces: int = field(
        metadata={"description": "Number of spaces (14 on side A, 5 each on side B)."}
    )


@dataclass(kw_only=True)
class ImhotepPyramidsSite:
    """The Pyramids site (§8.3, §8.4)."""

    side: Side = field(metadata={"description": "Side of the Pyramids board."})
    pyramids: list[ImhotepPyramid] = field(metadata={"description": "The pyramids in order."})
    overflow: list[int] = field(
        metadata={
            "description": "Seats of the stones delivered once every space was full (1 point "
            "each, kept beside the board)."
        }
    )


@dataclass(kw_only=True)
class ImhotepTemple:
    """The Temple site (§8.5, §8.6)."""

    side: Side = field(metadata={"description": "Side of the Temple board."})
    width: int = field(metadata={"description": "Number of columns (4 with 2 players, else 5)."})
    stones: list[int] = field(
        metadata={
            "description": "Seats of the stones in delivery order; the k-th (0-based) lies in "
            "column k mod width."
        }
    )
    visible: list[int | None] = field(
        metadata={
            "description": "Per column, the seat of its top (visible) stone, null for an empty "
            "column; these score at every end of round (§12)."
        }
    )


@dataclass(kw_only=True)
class ImhotepBurialChamber:
    """The Burial chamber site (§8.7, §8.8)."""

    side: Side = field(metadata={"description": "Side of the Burial chamber board."})
    stones: list[int] = field(
        metadata={
            "description": "Seats of the stones in delivery order: 3 rows, column by column "
            "(the k-th, 0-based, lies in column k div 3, row k mod 3)."
        }
    )


@dataclass(kw_only=True)
class ImhotepObelisks:
    """The Obelisks site (§8.9, §8.10). Side A: heights (per seat). Side B: singles, towers,
    beside, tower_points. Fields of the other side are null."""

    side: Side = field(metadata={"description": "Side of the Obelisks board."})
    heights: list[int] | None = field(
        default=ABSENT,
        metadata={"description": "Side A: the height of each seat's obelisk (stones), per seat."},
    )
    singles: list[int] | None = field(
        default=ABSENT,
        metadata={"description": "Side B: stones on each seat's single spaces (0-2), per seat."},
    )
    towers: list[int] | None = field(
        default=ABSENT,
        metadata={"description": "Side B: the seat owning each built tower space, in order."},
    )
    beside: list[int] | None = field(
        default=ABSENT,
        metadata={
            "description": "Side B: the seat of each tower built beside the board (3 points)."
        },
    )
    tower_points: list[int] | None = field(
        default=ABSENT,
        metadata={"description": "Side B: the points of the tower spaces, in falling value."},
    )


@dataclass(kw_only=True)
class ImhotepSites:
    """The four building sites (the Market is `ImhotepState.market`)."""

    pyramids: ImhotepPyramidsSite = field(metadata={"description": "The Pyramids."})
    temple: ImhotepTemple = field(metadata={"description": "The Temple."})
    burial_chamber: ImhotepBurialChamber = field(metadata={"description": "The Burial chamber."})
    obelisks: ImhotepObelisks = field(metadata={"description": "The Obelisks."})


@dataclass(kw_only=True)
class ImhotepRoundCard:
    """A round card revealed so far (§1.3, §5.1)."""

    id: str = field(
        metadata={
            "description": 'Round card id, e.g. "3p-4" (a string: the ids are no enum names).'
        }
    )
    ships: list[int] = field(metadata={"description": "Capacities of the round's ships 1-4."})


@dataclass(kw_only=True)
class ImhotepPending:
    """Who must act now and on what (§10.1)."""

    kind: PendingKind = field(
        metadata={"description": "A turn action, or the kind of the pending decision."}
    )
    owner: int = field(metadata={"description": "The seat that must act."})
    options: list[JSON] | None = field(
        metadata={
            "description": "The legal actions (as for `act`), for the owner only (or after "
            "the game); null for everyone else."
        }
    )


@dataclass(kw_only=True)
class ImhotepFinalScoring:
    """Points per seat of each final scoring step done so far (§13); null before its step."""

    burial_chamber: list[int] | None = field(
        default=ABSENT, metadata={"description": "Step F1: Burial chamber points per seat."}
    )
    obelisks: list[int] | None = field(
        default=ABSENT, metadata={"description": "Step F2: Obelisks points per seat."}
    )
    decorations: list[int] | None = field(
        default=ABSENT,
        metadata={"description": "Step F3: green decoration cards, points per seat."},
    )
    statues: list[int] | None = field(
        default=ABSENT, metadata={"description": "Step F4: purple statue cards, points per seat."}
    )
    blue_cards: list[int] | None = field(
        default=ABSENT,
        metadata={"description": "Step F5: unused blue cards (1 point each), per seat."},
    )
    wrath: list[int] | None = field(
        default=ABSENT,
        metadata={"description": "Step F6, Wrath of the Pharaoh: penalty per seat (0 or -5)."},
    )


@dataclass(kw_only=True)
class ImhotepOutcome:
    """The result, once the game is over (§13)."""

    scores: list[int] = field(metadata={"description": "Final score per seat."})
    ranks: list[int] = field(
        metadata={"description": "Rank per seat, 1 = first; tied seats share a rank."}
    )
    winners: list[int] = field(metadata={"description": "The winning seats (several on a tie)."})


@dataclass(kw_only=True)
class ImhotepHidden:
    """Only in the full view (after the game): what was hidden during play (§14)."""

    draw_pile: list[Card] = field(metadata={"description": "The market draw pile, top first."})
    round_stack: list[str] = field(
        metadata={"description": "The round cards not revealed, top first."}
    )
    removed_round_card: str | None = field(
        metadata={"description": "The round card removed at setup (§3)."}
    )


@dataclass(kw_only=True)
class ImhotepState:
    """An Imhotep game as the caller may see it (typed `Game.state`, §14)."""

    game: str = field(metadata={"description": 'Always "imhotep".'})
    round: int = field(metadata={"description": "The round, 1-6 (§5)."})
    rounds: int = field(metadata={"description": "Rounds in a game (6)."})
    viewer: int | None = field(
        metadata={"description": "The seat this view is for; null for a spectator."}
    )
    current_player: int = field(
        metadata={"description": "The seat whose turn it is (§5.2); a decision may be pending."}
    )
    start_player: int = field(metadata={"description": "The seat that started this round."})
    options: ImhotepOptions = field(metadata={"description": "The table options (§2)."})
    players: list[ImhotepPlayer] = field(metadata={"description": "Every seat, in seat order."})
    ships: list[ImhotepShip] = field(metadata={"description": "The round's four ships."})
    docks: ImhotepDocks = field(metadata={"description": "The ship docked at each site."})
    market: ImhotepMarket = field(
        metadata={
            "typed_nullable": True,
            "description": "The Market site. Never null for Imhotep; nullable like "
            "AmunReState.market so that one query can select `market` in both members of "
            "GameView.",
        }
    )
    sites: ImhotepSites = field(metadata={"description": "The four building sites."})
    discard_pile: list[Card] = field(
        metadata={"description": "The discard pile (face up, public; order irrelevant, §9.1)."}
    )
    draw_pile_count: int = field(
        metadata={"description": "Cards in the face-down draw pile (§9.1)."}
    )
    round_stack_count: int = field(metadata={"description": "Round cards not yet revealed (§1.3)."})
    round_cards: list[ImhotepRoundCard] = field(
        metadata={"description": "The round cards revealed so far, oldest first."}
    )
    passes: int = field(metadata={"description": "Consecutive forced passes this round (§6.5)."})
    pending: ImhotepPending | None = field(
        metadata={"description": "Who must act now; null before the game or once it is over."}
    )
    final_scoring: ImhotepFinalScoring = field(
        metadata={"description": "The final scoring steps done so far (§13)."}
    )
    game_over: bool = field(metadata={"description": "The game is over (after round 6)."})
    outcome: ImhotepOutcome | None = field(
        metadata={"description": "The result; null until the game is over."}
    )
    hidden: ImhotepHidden | None = field(
        default=ABSENT,
        metadata={"description": "The hidden piles: only in the full view (after the game)."},
    )


#: the declaration of the whole view, ``view.view``'s return value
VIEW = ImhotepState
