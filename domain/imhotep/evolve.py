"""Applying one event to the state (``evolve``): total, in place, never drawing randomness.

The dispatch of every event type, the setup and round events (§3, §5.1, §12) and the final
scoring (§13) are here; turn actions live in ``turn_events`` and resolution steps and decisions in
``resolution_events``. Turn actions (§6, §9.6) set ``acted``; once the
stack of frames is empty again the turn is over (§5.2 step 3): either the round ends (4th ship
sailed, or a stalled round §6.5) or play passes to the left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.contract import Event
from domain.imhotep import data, fork, resolution_events, turn_events
from domain.imhotep.state import Ship, State, temple_visible

Handler = Callable[[State, dict[str, Any], Any], None]

FINAL_STEPS = ("burial_chamber", "obelisks", "decorations", "statues", "blue_cards", "wrath")
FINAL_EVENTS = {
    "burial_chamber": "burial_chamber_scored",
    "obelisks": "obelisks_scored",
    "decorations": "decorations_scored",
    "statues": "statues_scored",
    "blue_cards": "blue_cards_scored",
    "wrath": "wrath_applied",
}


def evolve(state: State, event: Event) -> State:
    HANDLERS[event.type](state, event.data, event.seat)
    if state.acted and not state.stack:
        _end_turn(state)
    return state


def _end_turn(state: State) -> None:
    """§5.2 step 3 and §12 step 4 (R-15): the next start player would have had the next turn."""
    state.acted = False
    if state.sails == data.SHIPS_PER_ROUND or state.passes == state.n:
        state.next_start = (state.current + 1) % state.n
        state.stack.append(("end_round",))
    else:
        state.current = (state.current + 1) % state.n


# --- setup (§3) and rounds (§5.1, §9.2, §12) ------------------------------------------------


def _game_prepared(s: State, d: dict[str, Any], seat: Any) -> None:
    s.draw = list(d["deck"])
    s.round_stack = list(d["round_cards"])
    s.removed = d["removed"]
    s.next_start = d["start_player"]
    for position in range(s.n):  # §3 step 5: turn position p takes p + 1 stones
        player = (d["start_player"] + position) % s.n
        s.sleds[player] = data.STARTING_SLED[position]
        s.quarries[player] -= data.STARTING_SLED[position]
    s.stack.append(("next_round",))


def _round_started(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.round = d["round"]
    s.revealed.append(s.round_stack.pop(0))
    s.ships = [Ship(c, data.MIN_LOAD[c], [-1] * c) for c in d["ships"]]
    s.docks = {}
    s.sails = s.passes = 0
    s.ending = False
    if d["reshuffle"] is not None:  # E-12, W-11: dealing emptied the draw pile
        del s.draw[: d["reshuffled_after"]]
        s.draw = list(d["reshuffle"])
        s.discard = []
        del s.draw[: len(d["market"]) + len(d["pair"]) - d["reshuffled_after"]]
    else:
        del s.draw[: len(d["market"]) + len(d["pair"])]
    face_up = data.MARKET_FACE_UP[s.sides["market"]]
    s.market = list(d["market"]) + [None] * (face_up - len(d["market"]))
    s.pair = list(d["pair"])
    s.start_player = s.current = s.next_start


def _round_ended(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.ending = True
    for ship in s.ships:  # §12 step 1: a stalled round returns the stones on ships
        if ship.site is None:
            for j, owner in enumerate(ship.slots):
                if owner >= 0:
                    s.quarries[owner] += 1
                    ship.slots[j] = -1
    if s.round >= data.ROUNDS:
        s.stack.append(("rank",))
        for step in reversed(FINAL_STEPS):
            if step != "wrath" or s.wrath:
                s.stack.append(("final", step))
    else:
        s.stack.append(("next_round",))
    s.stack.append(("clear_market",))
    if s.sides["temple"] == "A":
        s.stack.append(("temple_a",))
    else:  # §8.6, R-16: column 1 first, so it goes on top
        for column, owner in reversed(temple_visible(s)):
            s.stack.append(("temple_b", column, owner))


def _add_points(s: State, d: dict[str, Any], seat: Any) -> None:
    top = s.stack.pop()
    for i, p in enumerate(d["points"]):
        s.scores[i] += p
    if top[0] == "final":
        s.final[top[1]] = list(d["points"])


def _temple_bonus(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    owner = d["player"]
    s.scores[owner] += d["points"]
    if d["stones"]:
        s.sleds[owner] += d["stones"]
        s.quarries[owner] -= d["stones"]
    if d["bonus"] == "top_market_card":
        s.stack.append(("draw", owner))


def _market_cleared(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.discard.extend(d["cards"])
    s.market = [None] * len(s.market)
    s.pair = []
    s.ships = []
    s.docks = {}
    s.sails = 0


def _players_ranked(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.ranks = list(d["ranks"])
    s.winners = list(d["winners"])
    s.over = True


HANDLERS: dict[str, Handler] = {
    "game_prepared": _game_prepared,
    "round_started": _round_started,
    "round_ended": _round_ended,
    "temple_scored": _add_points,
    "temple_bonus": _temple_bonus,
    "market_cleared": _market_cleared,
    "players_ranked": _players_ranked,
    "stones_taken": turn_events.stones_taken,
    "stone_placed": turn_events.stone_placed,
    "ship_sailed": turn_events.ship_sailed,
    "lever_played": turn_events.lever_played,
    "hammer_played": turn_events.hammer_played,
    "sail_played": turn_events.sail_played,
    "chisel_played": turn_events.chisel_played,
    "turn_passed": turn_events.turn_passed,
    "stone_delivered": resolution_events.stone_delivered,
    "red_card_played": resolution_events.red_card_played,
    "card_discarded": resolution_events.card_discarded,
    "discard_reshuffled": resolution_events.discard_reshuffled,
    "card_drawn": resolution_events.card_drawn,
    "card_taken": resolution_events.card_taken,
    "pair_taken": resolution_events.pair_taken,
    fork.FORK_DEALT: lambda s, d, seat: fork.load(s, d),
    "card_kept": resolution_events.card_kept,
    "pyramid_chosen": resolution_events.pyramid_chosen,
    "bonus_stone_placed": resolution_events.bonus_stone_placed,
    "bonus_declined": resolution_events.bonus_declined,
    "unload_ordered": resolution_events.unload_ordered,
    **{name: _add_points for name in FINAL_EVENTS.values()},
}

#: events that may change a score (§8, §12, §13); no other event does
SCORING_EVENTS = frozenset(
    {
        "stone_delivered", "red_card_played", "pyramid_chosen", "temple_scored", "temple_bonus",
        *FINAL_EVENTS.values(),
    }
)  # fmt: skip
