"""What a seat or a spectator may see (§14), written as an allow-list.

``view(state, seat, full)`` names every public item (§14 "Public, among others") and nothing else;
hidden items are added only where §14 allows: the face-down pair to the player deciding
``market_keep``, and with ``full=True`` (after the game) the draw pile, the round stack and the
removed round card. Shape (declared key by key, with types, in ``view_shape``; the typed GraphQL
view is derived from that declaration)::

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
     "final_scoring": {step: [points]}, "game_over": bool,
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


def view(rules: Any, state: State, seat: int | None, full: bool = False) -> JSON:
    frame = pending(state)
    result: JSON = {
        "game": "imhotep",
        "round": state.round,
        "rounds": data.ROUNDS,
        "viewer": seat,
        "current_player": state.current,
        "start_player": state.start_player,
        "options": {"sides": dict(state.sides), "wrath_of_the_pharaoh": state.wrath},
        "players": [
            {
                "seat": i,
                "colour": state.colours[i],
                "score": state.scores[i],
                "sled": state.sleds[i],
                "quarry": state.quarries[i],
                "cards": list(state.cards[i]),
            }
            for i in range(state.n)
        ],
        "ships": [
            {
                "id": i + 1,
                "capacity": ship.capacity,
                "minimum": ship.minimum,
                "slots": [o if o >= 0 else None for o in ship.slots],
                "load": ship.load(),
                "site": ship.site,
            }
            for i, ship in enumerate(state.ships)
        ],
        "docks": {site: state.docks.get(site) for site in data.SITES},
        "market": _market(state, seat, frame, full),
        "sites": _sites(state),
        "discard_pile": list(state.discard),
        "draw_pile_count": len(state.draw),
        "round_stack_count": len(state.round_stack),
        "round_cards": [{"id": c, "ships": list(data.ROUND_CARD_SHIPS[c])} for c in state.revealed],
        "passes": state.passes,
        "pending": _pending(rules, state, seat, frame, full),
        "final_scoring": {k: list(v) for k, v in state.final.items()},
        "game_over": state.over,
        "outcome": _outcome(state),
    }
    if full:
        result["hidden"] = {
            "draw_pile": list(state.draw),
            "round_stack": list(state.round_stack),
            "removed_round_card": state.removed,
        }
    return result


def _outcome(state: State) -> JSON | None:
    if not state.over:
        return None
    return {"scores": list(state.scores), "ranks": list(state.ranks), "winners": state.winners[:]}


def _market(state: State, seat: int | None, frame: Any, full: bool) -> JSON:
    market: JSON = {
        "side": state.sides["market"],
        "face_up": list(state.market),
        "pair_count": len(state.pair),
    }
    if full:
        market["pair"] = list(state.pair)
    if frame is not None and frame[0] == "market_keep" and (full or seat == frame[1]):
        market["pair"] = list(frame[2:])  # §14: the taker alone sees the pair
    return market


def _sites(state: State) -> JSON:
    sides = state.sides
    layout = data.PYRAMIDS[sides["pyramids"]]
    obelisks: JSON = {"side": sides["obelisks"]}
    if sides["obelisks"] == "A":
        obelisks["heights"] = list(state.heights)
    else:
        obelisks.update(
            singles=list(state.singles), towers=list(state.towers), beside=list(state.beside),
            tower_points=list(data.TOWER_POINTS),
        )  # fmt: skip
    visible: list[int | None] = [None] * temple_width(state)
    for column, owner in temple_visible(state):
        visible[column] = owner
    return {
        "pyramids": {
            "side": sides["pyramids"],
            "pyramids": [
                {"name": name, "stones": list(stones), "spaces": len(spaces)}
                for (name, spaces), stones in zip(layout, state.pyramids, strict=True)
            ],
            "overflow": list(state.overflow),
        },
        "temple": {
            "side": sides["temple"],
            "width": temple_width(state),
            "stones": list(state.temple),
            "visible": visible,
        },
        "burial_chamber": {"side": sides["burial_chamber"], "stones": list(state.burial)},
        "obelisks": obelisks,
    }


def _pending(rules: Any, state: State, seat: int | None, frame: Any, full: bool) -> JSON | None:
    if state.over or state.round == 0:
        return None
    if frame is None:
        if state.stack:
            return None
        kind, owner = "turn", state.current
    else:
        kind, owner = decisions.KIND[frame[0]], decisions.owner(frame)
    options = rules.legal_actions(state, owner) if seat == owner or full else None
    return {"kind": kind, "owner": owner, "options": options}


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
