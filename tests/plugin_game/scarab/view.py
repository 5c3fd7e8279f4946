"""What a seat or a spectator may see (R7), written as an allow-list.

``view(rules, state, seat, full)`` names every public item and adds a hand only for its holder;
``full=True`` (once the game is over) adds every hand and the draw pile. Shape (declared key by
key in ``view_shape``, from which the typed GraphQL view is derived)::

    {"game": "scarab", "viewer": seat | None, "current_player": seat,
     "players": [{"seat", "score", "hand_count", "hand": [values] (holder or full only)}],
     "played": [values, oldest first], "top": value | None, "discard_pile": [values],
     "draw_pile_count": n, "pending": {"owner", "options": [action] | None} | None,
     "game_over": bool, "outcome": {"scores", "ranks", "winners"} | None,
     "hidden": {"draw_pile": [values, top first]} (full only)}

``view_event`` redacts the deal to the seat's own hand and counts, and a draw to the bare fact
for every seat but the drawer (R7).
"""

from __future__ import annotations

from typing import Any

from scarab.state import State, top

from domain.contract import JSON, Event


def view(rules: Any, state: State, seat: int | None, full: bool = False) -> JSON:
    result: JSON = {
        "game": "scarab",
        "viewer": seat,
        "current_player": state.current,
        "players": [_player(state, i, seat, full) for i in range(state.n)],
        "played": list(state.played),
        "top": top(state),
        "discard_pile": list(state.discards),
        "draw_pile_count": len(state.deck),
        "pending": _pending(rules, state, seat, full),
        "game_over": state.over,
        "outcome": _outcome(state),
    }
    if full:
        result["hidden"] = {"draw_pile": list(state.deck)}
    return result


def _player(state: State, i: int, seat: int | None, full: bool) -> JSON:
    player: JSON = {"seat": i, "score": state.scores[i], "hand_count": len(state.hands[i])}
    if full or seat == i:  # R7: a hand is seen by its holder only
        player["hand"] = list(state.hands[i])
    return player


def _pending(rules: Any, state: State, seat: int | None, full: bool) -> JSON | None:
    if state.over or not state.dealt:
        return None
    owner = state.current
    options = rules.legal_actions(state, owner) if full or seat == owner else None
    return {"owner": owner, "options": options}


def _outcome(state: State) -> JSON | None:
    if not state.over:
        return None
    return {"scores": list(state.scores), "ranks": list(state.ranks), "winners": state.winners[:]}


def view_event(event: Event, seat: int | None, full: bool = False) -> Event | None:
    """The event as ``seat`` may see it (R7): hidden cards become counts or disappear."""
    if full:
        return event
    d = event.data
    if event.type == "cards_dealt":
        shown: JSON = {
            "hand_counts": [len(hand) for hand in d["hands"]],
            "draw_pile_count": len(d["deck"]),
        }
        if seat is not None and 0 <= seat < len(d["hands"]):
            shown["hand"] = list(d["hands"][seat])
        return Event(event.type, shown, event.seat)
    if event.type == "card_drawn" and seat != event.seat:
        return Event(event.type, {}, event.seat)  # that a card was drawn, not which
    return event
