"""Rounds and kingdoms (§8, R9.1 reveal, R11.9 new start player, §14 between the kingdoms)."""

from __future__ import annotations

from typing import Any

from domain.amun_re import data
from domain.amun_re.state import NONE, THEFT, State, distance, module_on
from domain.contract import Event


def new_start_player(state: State) -> int:
    """R11.9: the offerer ranked 1st (R11.6), or the same start player if all stole."""
    offerers = [s for s in range(state.seats) if state.offer[s] != THEFT]
    if not offerers:
        return state.start
    return min(offerers, key=lambda s: (-state.offer[s], distance(state, s)))


def round_started(state: State, number: int) -> Event:
    """R9.1: the top P province cards, in the order drawn; R9.2 statues on the first (and
    second) of them in the Old Kingdom (``statues``: [{statue, province}])."""
    revealed = state.deck[: state.seats]
    d: dict[str, Any] = {"round": number, "revealed": [data.PROVINCES[i] for i in revealed]}
    if module_on(state, "statues"):
        placed = []
        if number <= data.ROUNDS_PER_KINGDOM:
            n = data.STATUES_PER_ROUND[state.seats]
            placed = [{"statue": statue, "province": data.PROVINCES[province]}
                      for statue, province in zip(state.statue_deck[:n], revealed, strict=False)]
        d["statues"] = placed
    return Event("round_started", d)


def apply_round_started(state: State, d: dict[str, Any], seat: int | None) -> None:
    p = state.seats
    state.round = d["round"]
    state.revealed = [data.PROVINCE_INDEX[i] for i in d["revealed"]]
    del state.deck[: len(state.revealed)]
    for i in state.revealed:
        state.seen[i] = True
    state.bid_on = [NONE] * p
    state.bid_value = [0] * p
    state.standing = [NONE] * len(state.revealed)
    state.protected = [False] * len(state.revealed)
    state.phase = "auction"
    state.turn = state.start
    state.cursor = 0
    state.pharaoh = NONE
    for placed in d.get("statues", ()):
        state.statue_deck.remove(placed["statue"])
        state.statue_at[data.PROVINCE_INDEX[placed["province"]]] = data.STATUE_INDEX[
            placed["statue"]]


def apply_kingdom_changed(state: State, d: dict[str, Any], seat: int | None) -> None:
    """R14.1: control ends, farmers leave, stones and pyramids stay, a new province deck."""
    for s in range(state.seats):
        state.owned[s] = []
    for i in range(len(data.PROVINCES)):
        state.owner[i] = NONE
        state.farmers[i] = 0
    state.deck = [data.PROVINCE_INDEX[i] for i in d["province_deck"]]
    state.phase = "between"
    # R14.1.5: Statue cards return beside the board (statues stay), Pharaoh tokens to the reserve
    state.statue_holder = [NONE] * len(state.statue_holder)
    state.tokens = [0] * len(state.tokens)
