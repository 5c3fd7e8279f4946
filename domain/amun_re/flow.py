"""The round structure (§8) and every step nobody decides: round start and reveal (R9.1), end
of bidding (R9.7), resolution (R9.8), phase starts, the Offering reveal (R11.3), the new start
player (R11.9), kingdom scoring (§13), the change of kingdom (§14, R14.1) and the end (§15).

``settle`` runs after a decided action: it applies the action's events to a clone of the state
and appends system events until some seat must decide (or the game is over). System events that
need randomness (a reshuffle, the New Kingdom province deck) record the outcome.
"""

from __future__ import annotations

import random

from domain.amun_re import auction, data, finale, offering, scoring
from domain.amun_re.evolve import evolve
from domain.amun_re.rounds import new_start_player, round_started
from domain.amun_re.state import NONE, State
from domain.contract import Event


def settle(state: State, events: list[Event], rng: random.Random) -> list[Event]:
    """The system events that follow ``events`` on ``state`` (``state`` is not changed)."""
    sim = state.clone()
    for event in events:
        evolve(sim, event)
    return run_system(sim, rng)


def run_system(sim: State, rng: random.Random) -> list[Event]:
    """Apply system steps to ``sim`` (changed in place) until a seat must decide."""
    out: list[Event] = []
    while True:
        new = system_step(sim, rng)
        if not new:
            return out
        for event in new:
            evolve(sim, event)
        out += new


def system_step(state: State, rng: random.Random) -> list[Event]:
    phase = state.phase
    p = state.seats
    if phase == "setup":
        return [round_started(state, 1)] if state.deck else []
    if phase == "auction":
        return [Event("bidding_ended")] if auction.bidding_over(state) else []
    if phase == "resolution":
        if state.cursor < p:
            return auction.resolve_next(state, rng)
        out = []
        if state.pharaoh != NONE:  # R16.3.2: a token to the controller of its province
            out.append(Event("pharaoh_token_gained",
                             {"province": data.PROVINCES[state.pharaoh]},
                             state.owner[state.pharaoh]))
        out.append(Event("market_started"))
        if state.statue_holder[data.BASTET] != NONE:
            out.append(Event("statue_gold_taken", {"statue": "bastet", "gold": data.BASTET_GOLD},
                             state.statue_holder[data.BASTET]))  # R10.1
        return out
    if phase == "market":
        return [Event("offering_started")] if state.cursor >= p else []
    if phase == "offering":
        return [offering.reveal(state)] if all(state.committed) else []
    if phase == "gifts":
        if state.cursor < len(state.gift_order):
            return []
        return [
            Event("offering_ended", {"start_player": new_start_player(state)}),
            Event("harvest_started"),
        ]
    if phase == "harvest":
        if state.cursor < p:
            return []
        if state.round % data.ROUNDS_PER_KINGDOM:
            return [round_started(state, state.round + 1)]
        return [
            Event(
                "kingdom_scored",
                {
                    "kingdom": state.round // data.ROUNDS_PER_KINGDOM,
                    "tile": state.tile,
                    "players": scoring.score_kingdom(state),
                },
            )
        ]
    if phase == "scored":
        if state.round < data.LAST_ROUND:
            deck = [data.PROVINCES[i] for i in sorted(state.province_set)]
            rng.shuffle(deck)
            return [Event("kingdom_changed", {"province_deck": deck})]
        return [Event("final_sale_started")]
    if phase == "between":
        return [round_started(state, state.round + 1)]
    if phase == "final_sale":
        return finale.reveal(state) if all(state.committed) else []
    return []
