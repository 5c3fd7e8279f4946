"""Applying one event to the state (``evolve``): total, in place, never drawing randomness.

Every event type of Imhotep and what it changes. Turn actions (§6, §9.6) set ``acted``; once the
stack of frames is empty again the turn is over (§5.2 step 3): either the round ends (4th ship
sailed, or a stalled round §6.5) or play passes to the left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.contract import Event
from domain.imhotep import data
from domain.imhotep.sites import deliver, place_in_pyramid, receive
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


# --- turn actions (§6, §9.6) -------------------------------------------------------------------


def _turn(s: State, pass_: bool = False) -> None:
    s.acted = True
    s.passes = s.passes + 1 if pass_ else 0


def _place(s: State, seat: int, ship: int, slot: int) -> None:
    s.sleds[seat] -= 1
    s.ships[ship - 1].slots[slot - 1] = seat


def _sail(s: State, ship_id: int, site: str, lever: bool = False) -> Ship:
    """§7.2 step 1; the bow-first unloading order of step 2 unless a Lever chooses it."""
    ship = s.ships[ship_id - 1]
    ship.site = site
    s.docks[site] = ship_id
    s.sails += 1
    if not lever:
        ship.queue = [j for j, owner in enumerate(ship.slots) if owner >= 0]
        s.stack.append(("unload", ship_id))
    return ship


def _play_card(s: State, seat: int, card: str, discard_now: bool) -> None:
    s.cards[seat].remove(card)
    if discard_now:
        s.discard.append(card)
    else:  # discarded only once the sail is completely resolved
        s.stack.append(("discard", card))


def _stones_taken(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    s.sleds[seat] += d["count"]
    s.quarries[seat] -= d["count"]


def _stone_placed(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    _place(s, seat, d["ship"], d["slot"])


def _ship_sailed(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    _sail(s, d["ship"], d["site"])


def _lever_played(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    _play_card(s, seat, data.LEVER, False)
    _sail(s, d["ship"], d["site"], lever=True)
    s.stack.append(("lever_order", seat, d["ship"]))


def _hammer_played(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    _play_card(s, seat, data.HAMMER, True)
    s.sleds[seat] += d["stones"]
    s.quarries[seat] -= d["stones"]
    _place(s, seat, d["ship"], d["slot"])


def _sail_played(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    _play_card(s, seat, data.SAIL, False)
    _place(s, seat, d["ship"], d["slot"])
    _sail(s, d["ship"], d["site"])


def _chisel_played(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s)
    _play_card(s, seat, data.CHISEL, True)
    _place(s, seat, d["first"]["ship"], d["first"]["slot"])
    _place(s, seat, d["second"]["ship"], d["second"]["slot"])


def _turn_passed(s: State, d: dict[str, Any], seat: Any) -> None:
    _turn(s, pass_=True)


# --- resolution steps and decisions (§7, §8, §9, §10) ------------------------------------------


def _stone_delivered(s: State, d: dict[str, Any], seat: Any) -> None:
    ship = s.ships[d["ship"] - 1]
    ship.slots[d["slot"] - 1] = -1
    ship.queue.pop(0)
    if not ship.queue:
        s.stack.pop()
    deliver(s, d["player"], d["site"])


def _red_card_played(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    owner = d["player"]
    _play_card(s, owner, d["card"], False)
    if d["stone"]:  # without a quarry stone the card has no effect
        s.quarries[owner] -= 1
        deliver(s, owner, d["site"])


def _card_discarded(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.discard.append(d["card"])


def _discard_reshuffled(s: State, d: dict[str, Any], seat: Any) -> None:
    s.draw = list(d["order"])
    s.discard = []


def _card_drawn(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    if d["card"] is not None:  # E-11: a failed draw gives nothing
        s.draw.pop(0)
        receive(s, d["player"], d["card"])


def _stone_returned(s: State, seat: int) -> None:
    s.transit[seat] -= 1
    s.quarries[seat] += 1


def _card_taken(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.market[d["slot"] - 1] = None
    _stone_returned(s, seat)  # card received, stone back, then the red card is played
    receive(s, seat, d["card"])


def _pair_taken(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.pair = []
    cards = d["cards"]
    if len(cards) == 2:
        s.stack.append(("market_keep", seat, cards[0], cards[1]))
    else:  # E-23: a pair of one card is simply received
        _stone_returned(s, seat)
        receive(s, seat, cards[0])


def _card_kept(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.discard.append(d["discarded"])  # face up
    _stone_returned(s, seat)
    receive(s, seat, d["card"])


def _pyramid_chosen(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    s.transit[seat] -= 1
    place_in_pyramid(s, seat, d["index"])


def _bonus_stone_placed(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()
    _place(s, seat, d["ship"], d["slot"])


def _bonus_declined(s: State, d: dict[str, Any], seat: Any) -> None:
    s.stack.pop()


def _unload_ordered(s: State, d: dict[str, Any], seat: Any) -> None:
    """C-6: seats in unloading order; each takes that colour's next stone from the bow."""
    s.stack.pop()
    ship = s.ships[d["ship"] - 1]
    taken: set[int] = set()
    queue = []
    for owner in d["order"]:
        slot = next(j for j, o in enumerate(ship.slots) if o == owner and j not in taken)
        taken.add(slot)
        queue.append(slot)
    ship.queue = queue
    s.stack.append(("unload", d["ship"]))


HANDLERS: dict[str, Handler] = {
    "game_prepared": _game_prepared,
    "round_started": _round_started,
    "round_ended": _round_ended,
    "temple_scored": _add_points,
    "temple_bonus": _temple_bonus,
    "market_cleared": _market_cleared,
    "players_ranked": _players_ranked,
    "stones_taken": _stones_taken,
    "stone_placed": _stone_placed,
    "ship_sailed": _ship_sailed,
    "lever_played": _lever_played,
    "hammer_played": _hammer_played,
    "sail_played": _sail_played,
    "chisel_played": _chisel_played,
    "turn_passed": _turn_passed,
    "stone_delivered": _stone_delivered,
    "red_card_played": _red_card_played,
    "card_discarded": _card_discarded,
    "discard_reshuffled": _discard_reshuffled,
    "card_drawn": _card_drawn,
    "card_taken": _card_taken,
    "pair_taken": _pair_taken,
    "card_kept": _card_kept,
    "pyramid_chosen": _pyramid_chosen,
    "bonus_stone_placed": _bonus_stone_placed,
    "bonus_declined": _bonus_declined,
    "unload_ordered": _unload_ordered,
    **{name: _add_points for name in FINAL_EVENTS.values()},
}

#: events that may change a score (§8, §12, §13); no other event does
SCORING_EVENTS = frozenset(
    {
        "stone_delivered", "red_card_played", "pyramid_chosen", "temple_scored", "temple_bonus",
        *FINAL_EVENTS.values(),
    }
)  # fmt: skip
