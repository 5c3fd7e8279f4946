"""End of the game (§15): the simultaneous secret final sale (R15.1, C-8), the gold bonus
(R15.2), the winner (R15.4) and the reveal of all gold (R15.5).

Every seat that has not committed is to act: ``mark_for_sale {card}`` steps (secret), then
``final_sale {}``. Events: ``final_sale_started``, ``sale_marked`` and ``final_sale_committed``
(seen only by their seat; others see ``final_sale_committed`` without data),
``final_sale_revealed`` and ``game_scored`` (public). Afterlife: tomb scoring (R15.3, 3 VP per
complete row) after the gold bonus, as ``game_scored.tomb`` (per seat).
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import actions, data, tomb
from domain.amun_re.board import discard_card, pay_out
from domain.amun_re.offering import check_open, mark_actions
from domain.amun_re.scoring import gold_bonus, ranks
from domain.amun_re.state import NONE, State, clear_commitment, module_on
from domain.contract import JSON, Event


def marked_cards(state: State, seat: int) -> list[str]:
    return [data.CARDS[c] for c, n in enumerate(state.marked[seat]) for _ in range(n)]


def legal(state: State, seat: int) -> list[JSON]:
    return [*mark_actions(state, seat), {"type": "final_sale"}]


def decide_final_sale(state: State, seat: int, action: JSON, rng: random.Random) -> list[Event]:
    actions.read(action)
    check_open(state, seat, ("final_sale",))
    return [Event("final_sale_committed", {"cards": marked_cards(state, seat)}, seat)]


def apply_started(state: State, d: dict[str, Any], seat: int | None) -> None:
    state.phase = "final_sale"
    state.turn = NONE
    for s in range(state.seats):
        clear_commitment(state, s)


def apply_committed(state: State, d: dict[str, Any], seat: int) -> None:
    state.committed[seat] = True


def reveal(state: State) -> list[Event]:
    """R15.1 executed, then R15.2 and R15.4 computed on the gold after the sales."""
    sales = [marked_cards(state, s) for s in range(state.seats)]
    golds = [state.gold[s] + len(sales[s]) for s in range(state.seats)]
    bonus = gold_bonus(golds)
    vps = [state.vp[s] + bonus[s] for s in range(state.seats)]
    scored: dict[str, Any] = {"gold": golds, "gold_bonus": bonus}
    if module_on(state, "afterlife"):  # R15.3, after the gold bonus
        scored["tomb"] = [tomb.tomb_vp(state.tomb[s]) for s in range(state.seats)]
        vps = [v + t for v, t in zip(vps, scored["tomb"], strict=True)]
    rank = ranks(state, vps)
    scored.update({"vp": vps, "ranks": rank,
                   "winners": [s for s in range(state.seats) if rank[s] == 1]})
    return [Event("final_sale_revealed", {"sales": sales}), Event("game_scored", scored)]


def apply_revealed(state: State, d: dict[str, Any], seat: int | None) -> None:
    for s, cards in enumerate(d["sales"]):
        for card in cards:
            discard_card(state, s, data.CARD_INDEX[card])
            pay_out(state, s, 1, "sale")
        state.marked[s] = [0] * len(data.CARDS)


def apply_scored(state: State, d: dict[str, Any], seat: int | None) -> None:
    for s, bonus in enumerate(d["gold_bonus"]):
        state.vp[s] += bonus
    state.final = {"gold": list(d["gold"]), "gold_bonus": list(d["gold_bonus"])}
    if "tomb" in d:
        for s, vp in enumerate(d["tomb"]):
            state.vp[s] += vp
        state.final["tomb"] = list(d["tomb"])
    state.ranks = list(d["ranks"])
    state.winners = list(d["winners"])
    state.phase = "over"
