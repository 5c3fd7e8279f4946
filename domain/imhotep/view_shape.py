"""The shape of the Imhotep view (§14): every key ``view.view`` may return, declared once.

``domain/imhotep/view.py`` builds the JSON view, an allow-list; this module declares what that
JSON is, key by key, as plain frozen dataclasses. The typed GraphQL view is derived from these
declarations (``service/api/graphql/gameviews``) and the JSON views of random games are checked
against them (``tests/test_view_shapes.py``), so a key cannot be added on one side only.

How a declaration reads:

* each field is a key of the JSON object, of the annotated type (``int``, ``str``, ``bool``,
  ``list[...]``, a nested shape); ``X | None`` may be null;
* a field with a default (``= None``) is a key that is present only for some viewers or some
  sides; a field without one is always present;
* ``dict[str, V]`` with ``metadata["entries"]`` is a map, shown in the typed view as a list of
  that entry shape (its first field the key, its second the value); ``JSON`` is a free object;
* ``metadata["description"]`` and a class docstring describe the typed field or type;
  ``metadata["typed_nullable"]``: nullable in the typed view although never null here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.contract import JSON


@dataclass(frozen=True, kw_only=True)
class ImhotepSides:
    """The side (A or B) of each of the five sites (§2)."""

    market: str
    pyramids: str
    temple: str
    burial_chamber: str
    obelisks: str


@dataclass(frozen=True, kw_only=True)
class ImhotepOptions:
    sides: ImhotepSides
    wrath_of_the_pharaoh: bool


@dataclass(frozen=True, kw_only=True)
class ImhotepPlayer:
    seat: int
    colour: str
    score: int
    sled: int
    quarry: int
    cards: list[str] = field(metadata={"description": "Cards in front of the player (public)."})


@dataclass(frozen=True, kw_only=True)
class ImhotepShip:
    id: int = field(metadata={"description": "Ship number 1-4 within this game (not global)."})
    capacity: int
    minimum: int
    slots: list[int | None] = field(metadata={"description": "The seat owning each slot's stone."})
    load: int
    site: str | None = field(metadata={"description": "The site it sailed to, null while at sea."})


@dataclass(frozen=True, kw_only=True)
class ImhotepDocks:
    """The ship (id) docked at each site, null when free."""

    market: int | None
    pyramids: int | None
    temple: int | None
    burial_chamber: int | None
    obelisks: int | None


@dataclass(frozen=True, kw_only=True)
class ImhotepMarket:
    side: str
    face_up: list[str | None]
    pair_count: int
    pair: list[str] | None = field(
        default=None,
        metadata={
            "description": "The face-down pair: only to the player deciding market_keep, or "
            "after the game (full view); null otherwise."
        },
    )


@dataclass(frozen=True, kw_only=True)
class ImhotepPyramid:
    name: str
    stones: list[int]
    spaces: int


@dataclass(frozen=True, kw_only=True)
class ImhotepPyramidsSite:
    side: str
    pyramids: list[ImhotepPyramid]
    overflow: list[int]


@dataclass(frozen=True, kw_only=True)
class ImhotepTemple:
    side: str
    width: int
    stones: list[int]
    visible: list[int | None]


@dataclass(frozen=True, kw_only=True)
class ImhotepBurialChamber:
    side: str
    stones: list[int]


@dataclass(frozen=True, kw_only=True)
class ImhotepObelisks:
    """Side A: heights (per seat). Side B: singles, towers, beside, tower_points. Fields of the
    other side are null."""

    side: str
    heights: list[int] | None = None
    singles: list[int] | None = None
    towers: list[int] | None = None
    beside: list[int] | None = None
    tower_points: list[int] | None = None


@dataclass(frozen=True, kw_only=True)
class ImhotepSites:
    pyramids: ImhotepPyramidsSite
    temple: ImhotepTemple
    burial_chamber: ImhotepBurialChamber
    obelisks: ImhotepObelisks


@dataclass(frozen=True, kw_only=True)
class ImhotepRoundCard:
    id: str
    ships: list[int]


@dataclass(frozen=True, kw_only=True)
class ImhotepPending:
    kind: str = field(
        metadata={"description": 'Either "turn" or the kind of the pending decision.'}
    )
    owner: int
    options: list[JSON] | None = field(
        metadata={
            "description": "The legal actions (as for `act`), for the owner only (or after "
            "the game)."
        }
    )


@dataclass(frozen=True, kw_only=True)
class ImhotepFinalScoring:
    """Points per seat of each final scoring step done so far (§13)."""

    burial_chamber: list[int] | None = None
    obelisks: list[int] | None = None
    decorations: list[int] | None = None
    statues: list[int] | None = None
    blue_cards: list[int] | None = None
    wrath: list[int] | None = None


@dataclass(frozen=True, kw_only=True)
class ImhotepOutcome:
    scores: list[int]
    ranks: list[int]
    winners: list[int]


@dataclass(frozen=True, kw_only=True)
class ImhotepHidden:
    """Only in the full view (after the game)."""

    draw_pile: list[str]
    round_stack: list[str]
    removed_round_card: str | None


@dataclass(frozen=True, kw_only=True)
class ImhotepState:
    """An Imhotep game as the caller may see it (typed `Game.state`)."""

    game: str
    round: int
    rounds: int
    viewer: int | None
    current_player: int
    start_player: int
    options: ImhotepOptions
    players: list[ImhotepPlayer]
    ships: list[ImhotepShip]
    docks: ImhotepDocks
    market: ImhotepMarket = field(
        metadata={
            "typed_nullable": True,
            "description": "Never null for Imhotep; nullable like AmunReState.market so that one "
            "query can select `market` in both members of GameView.",
        }
    )
    sites: ImhotepSites
    discard_pile: list[str]
    draw_pile_count: int
    round_stack_count: int
    round_cards: list[ImhotepRoundCard]
    passes: int
    pending: ImhotepPending | None
    final_scoring: ImhotepFinalScoring
    game_over: bool
    outcome: ImhotepOutcome | None
    hidden: ImhotepHidden | None = None


#: the declaration of the whole view, ``view.view``'s return value
VIEW = ImhotepState
