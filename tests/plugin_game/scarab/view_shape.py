"""The shape of the Scarab view (R7): every key ``view.view`` may return, declared once.

Plain frozen dataclasses, read as ``domain/imhotep/view_shape.py`` explains: a field is a key of
the JSON object, ``X | None`` may be null, a field with a default is a key present only for some
viewers (a hand: its holder; ``hidden``: the full view), ``JSON`` a free object. The typed GraphQL
view (``ScarabState``, a member of ``GameView``) is derived from these declarations
(``service/api/graphql/gameviews/derivation.py``).

The names shared with the shipped games' views (``game``, ``viewer``, ``current_player``,
``players { seat hand_count hand }``, ``discard_pile``, ``draw_pile_count``, ``pending { owner
options }``, ``game_over``, ``outcome``) have the same nullability as theirs, so one query can
select them in every member of ``GameView``. Card values are plain integers: no closed set of
ids to declare.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.contract import JSON

SEAT = "A seat number, 0-based in seating order (the index in `players`)."
VALUE = "card values 1-10 (R1)"


@dataclass(frozen=True, kw_only=True)
class ScarabPlayer:
    """One seat: public facts for everyone, its hand for itself only (R7)."""

    seat: int = field(metadata={"description": SEAT})
    score: int = field(metadata={"description": "Points scored so far (R3.1)."})
    hand_count: int = field(metadata={"description": "Cards in the seat's hand (public, R7)."})
    hand: list[int] | None = field(
        default=None,
        metadata={
            "description": f"The hand, sorted ({VALUE}): only for the viewer himself or in the "
            "full view; null otherwise (R7)."
        },
    )


@dataclass(frozen=True, kw_only=True)
class ScarabPending:
    """Who must act now (R3, R5)."""

    owner: int = field(metadata={"description": "The seat whose turn it is."})
    options: list[JSON] | None = field(
        metadata={
            "description": "The legal actions (as for `act`), for the owner only (or after "
            "the game); null for everyone else."
        }
    )


@dataclass(frozen=True, kw_only=True)
class ScarabOutcome:
    """The result, once the game is over (R6)."""

    scores: list[int] = field(metadata={"description": "Final score per seat."})
    ranks: list[int] = field(
        metadata={"description": "Rank per seat, 1 = first; tied seats share a rank."}
    )
    winners: list[int] = field(metadata={"description": "The winning seats (several on a tie)."})


@dataclass(frozen=True, kw_only=True)
class ScarabHidden:
    """Only in the full view (after the game): what was hidden during play (R7)."""

    draw_pile: list[int] = field(
        metadata={"description": f"The draw pile, top first ({VALUE}); empty once the game ends."}
    )


@dataclass(frozen=True, kw_only=True)
class ScarabState:
    """A Scarab game as the caller may see it (typed `Game.state`, R7)."""

    game: str = field(metadata={"description": 'Always "scarab".'})
    viewer: int | None = field(
        metadata={"description": "The seat this view is for; null for a spectator."}
    )
    current_player: int = field(
        metadata={
            "description": "The seat whose turn it is (R5); once the game is over, the seat "
            "that played last."
        }
    )
    players: list[ScarabPlayer] = field(metadata={"description": "Every seat, in seat order."})
    played: list[int] = field(
        metadata={"description": f"The play row, oldest first ({VALUE}); the last is the top."}
    )
    top: int | None = field(
        metadata={"description": "The row's top card, the one to beat (R3.1); null when empty."}
    )
    discard_pile: list[int] = field(
        metadata={"description": f"The discard pile, oldest first ({VALUE}; face up, R3.2)."}
    )
    draw_pile_count: int = field(metadata={"description": "Cards left in the draw pile (R4)."})
    pending: ScarabPending | None = field(
        metadata={"description": "Who must act now; null before the deal or once it is over."}
    )
    game_over: bool = field(metadata={"description": "The game is over (every hand empty, R6)."})
    outcome: ScarabOutcome | None = field(
        metadata={"description": "The result; null until the game is over."}
    )
    hidden: ScarabHidden | None = field(
        default=None,
        metadata={"description": "The hidden draw pile: only in the full view (after the game)."},
    )


#: the declaration of the whole view, ``view.view``'s return value
VIEW = ScarabState
