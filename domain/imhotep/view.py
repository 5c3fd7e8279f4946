"""What a seat or a spectator may see (§14), written as an allow-list.

``view(state, seat, full)`` names every public item (§14 "Public, among others") and nothing else;
hidden items are added only where §14 allows: the face-down pair to the player deciding
``market_keep``, and with ``full=True`` (after the game) the draw pile, the round stack and the
removed round card.

The view is built as an instance of its declared shape (``view_of``: an ``ImhotepState`` of
``view_shape``, where every key is declared with its type and description) and its JSON is
derived from that instance (``domain.shapes.to_json``): keys in declaration order, a key left
``ABSENT`` (``market.pair``, an obelisk field of the other side, a final scoring step not done
yet, ``hidden``) left out. The typed GraphQL view is derived from the same declaration. The JSON::

    {"game": "imhotep", "round": 1..6, "rounds": 6, "viewer": seat | None,
     "current_player": seat, "start_player": seat, "options": {sides, wrath_of_the_pharaoh},
     "players": [{"seat", "colour", "score", "sled", "quarry", "cards": [card ids]}],
     "ships": [{"id", "capacity", "minimum", "slots": [seat | None], "load", "site": site | None}],
     "docks": {site: ship id | None},
     "market": {"side", "face_up": [card | None], "pair_count",
                "pair": [cards] (only to the player deciding market_keep, or with full=True)},
     "sites": {"pyramids": {"side", "pyramids": [{"name", "stones": [seat], "spaces"}],
                            "overflow": [seat]},
               "temple": {"side", "width", "stones": [seat], "visible": [seat | None]},
               "burial_chamber": {"side", "stones": [seat]},
               "obelisks": {"side", "heights": [n per seat]}            (side A)
                         | {"side", "singles": [n per seat], "towers": [seat],
                            "beside": [seat], "tower_points": [12, 9, 6, 3]}},  (side B)
     "discard_pile": [card], "draw_pile_count": n, "round_stack_count": n,
     "round_cards": [{"id", "ships"}] (revealed so far), "passes": n (consecutive forced passes),
     "pending": {"kind": "turn" | decision kind, "owner": seat,
                 "options": [action] (for the owner only) | None} | None,
     "final_scoring": {step: [points]} (the steps done so far), "game_over": bool,
     "outcome": {"scores", "ranks", "winners"} | None,
     "hidden": {"draw_pile", "round_stack", "removed_round_card"} (full=True only)}

``view_event`` redacts the setup shuffle, the pair dealt face down, reshuffled orders and a taken
pair (for everyone but its taker) to counts.
"""

from __future__ import annotations

from typing import Any

from domain.contract import JSON, Event
from domain.imhotep import data, decisions
from domain.imhotep.state import State, pending, temple_visible, temple_width
from domain.imhotep.view_shape import (
    ImhotepBurialChamber,
    ImhotepDocks,
    ImhotepFinalScoring,
    ImhotepHidden,
    ImhotepMarket,
    ImhotepObelisks,
    ImhotepOptions,
    ImhotepOutcome,
    ImhotepPending,
    ImhotepPlayer,
    ImhotepPyramid,
    ImhotepPyramidsSite,
    ImhotepRoundCard,
    ImhotepShip,
    ImhotepSides,
    ImhotepSites,
    ImhotepState,
    ImhotepTemple,
)
from domain.shapes import ABSENT, to_json


def view(rules: Any, state: State, seat: int | None, full: bool = False) -> JSON:
    """The JSON view: derived from ``view_of``'s instance of the declared shape."""
    return to_json(view_of(rules, state, seat, full))


def view_of(rules: Any, state: State, seat: int | None, full: bool = False) -> ImhotepState:
    """The view as an instance of its declared shape (``view_shape.ImhotepState``)."""
    frame = pending(state)
    docks = state.docks
    return ImhotepState(
        game="imhotep",
        round=state.round,
        rounds=data.ROUNDS,
        viewer=seat,
        current_player=state.current,
        start_player=state.start_player,
        options=ImhotepOptions(sides=ImhotepSides(**state.sides), wrath_of_the_pharaoh=state.wrath),
        players=[
            ImhotepPlayer(
                seat=i,
                colour=state.colours[i],
                score=state.scores[i],
                sled=state.sleds[i],
                quarry=state.quarries[i],
                cards=list(state.cards[i]),
            )
            for i in range(state.n)
        ],
        ships=[
            ImhotepShip(
                id=i + 1,
                capacity=ship.capacity,
                minimum=ship.minimum,
                slots=[o if o >= 0 else None for o in ship.slots],
                load=ship.load(),
                site=ship.site,
            )
            for i, ship in enumerate(state.ships)
        ],
        docks=ImhotepDocks(
            market=docks.get("market"),
            pyramids=docks.get("pyramids"),
            temple=docks.get("temple"),
            burial_chamber=docks.get("burial_chamber"),
            obelisks=docks.get("obelisks"),
        ),
        market=_market(state, seat, frame, full),
        sites=_sites(state),
        discard_pile=list(state.discard),
        draw_pile_count=len(state.draw),
        round_stack_count=len(state.round_stack),
        round_cards=[
            ImhotepRoundCard(id=c, ships=list(data.ROUND_CARD_SHIPS[c])) for c in state.revealed
        ],
        passes=state.passes,
        pending=_pending(rules, state, seat, frame, full),
        final_scoring=ImhotepFinalScoring(**{k: list(v) for k, v in state.final.items()}),
        game_over=state.over,
        outcome=_outcome(state),
        hidden=ImhotepHidden(
            draw_pile=list(state.draw),
            round_stack=list(state.round_stack),
            removed_round_card=state.removed,
        )
        if full
        else ABSENT,
    )


def _outcome(state: State) -> ImhotepOutcome | None:
    if not state.over:
        return None
    return ImhotepOutcome(
        scores=list(state.scores), ranks=list(state.ranks), winners=state.winners[:]
    )


def _market(state: State, seat: int | None, frame: Any, full: bool) -> ImhotepMarket:
    pair: list[str] = ABSENT
    if frame is not None and frame[0] == "market_keep" and (full or seat == frame[1]):
        pair = list(frame[2:])  # §14: the taker alone sees the pair
    elif full:
        pair = list(state.pair)
    return ImhotepMarket(
        side=state.sides["market"],
        face_up=list(state.market),
        pair_count=len(state.pair),
        pair=pair,
    )


def _sites(state: State) -> ImhotepSites:
    sides = state.sides
    layout = data.PYRAMIDS[sides["pyramids"]]
    if sides["obelisks"] == "A":
        obelisks = ImhotepObelisks(side=sides["obelisks"], heights=list(state.heights))
    else:
        obelisks = ImhotepObelisks(
            side=sides["obelisks"],
            singles=list(state.singles),
            towers=list(state.towers),
            beside=list(state.beside),
            tower_points=list(data.TOWER_POINTS),
        )
    width = temple_width(state)
    visible: list[int | None] = [None] * width
    for column, owner in temple_visible(state):
        visible[column] = owner
    return ImhotepSites(
        pyramids=ImhotepPyramidsSite(
            side=sides["pyramids"],
            pyramids=[
                ImhotepPyramid(name=name, stones=list(stones), spaces=len(spaces))
                for (name, spaces), stones in zip(layout, state.pyramids, strict=True)
            ],
            overflow=list(state.overflow),
        ),
        temple=ImhotepTemple(
            side=sides["temple"], width=width, stones=list(state.temple), visible=visible
        ),
        burial_chamber=ImhotepBurialChamber(
            side=sides["burial_chamber"], stones=list(state.burial)
        ),
        obelisks=obelisks,
    )


def _pending(
    rules: Any, state: State, seat: int | None, frame: Any, full: bool
) -> ImhotepPending | None:
    if state.over or state.round == 0:
        return None
    if frame is None:
        if state.stack:
            return None
        kind, owner = "turn", state.current
    else:
        kind, owner = decisions.KIND[frame[0]], decisions.owner(frame)
    options = rules.legal_actions(state, owner) if seat == owner or full else None
    return ImhotepPending(kind=kind, owner=owner, options=options)


#: what everybody sees of a new round (§5.1, §14): the face-down pair and the order of a
#: reshuffled draw pile are not among them (they are shown as counts)
ROUND_START_PUBLIC = ("round", "card", "ships", "market", "reshuffled_after", "start_player")


def view_event(event: Event, seat: int | None, full: bool = False) -> Event | None:
    """The event as ``seat`` may see it: hidden orders and face-down cards become counts."""
    if full:
        return event
    d = event.data
    kind = event.type
    if kind == "game_prepared":
        shown = {
            "deck_count": len(d["deck"]),
            "round_stack_count": len(d["round_cards"]),
            "start_player": d["start_player"],
            "colours": d["colours"],
        }
    elif kind == "round_started":
        shown = {k: d[k] for k in ROUND_START_PUBLIC if k in d}
        shown["pair_count"] = len(d["pair"])
        shown["reshuffled_count"] = None if d["reshuffle"] is None else len(d["reshuffle"])
    elif kind == "discard_reshuffled":
        shown = {"count": len(d["order"])}
    elif kind == "pair_taken" and seat != event.seat:
        shown = {"count": len(d["cards"])}  # public again with the keep (card_kept)
    else:
        return event
    return Event(kind, shown, event.seat)
