"""§18.7 worked examples of the Expanded Pack modules (W36-W46) and the module parts of W1, W7,
W8, W20, W23, W24 and W28 (§16, R9.2, R10.5, R10.5a, R10.7, R11.7, R12.2-R12.3, R13.5, R13.7,
R15.3, R16.1-R16.4)."""

from __future__ import annotations

import random

import pytest

from domain.amun_re import data, finale
from domain.amun_re.evolve import evolve
from domain.amun_re.harvest import income
from domain.amun_re.rounds import round_started
from domain.amun_re.rules import RULES
from domain.amun_re.scoring import score_kingdom
from domain.amun_re.state import NONE, State, new_state
from domain.amun_re.tomb import tomb_vp
from domain.contract import Event, IllegalAction
from tests.amun_re.scenario import (
    C,
    P,
    act,
    bid,
    clear_provinces,
    enter,
    give_province,
    new_game,
    set_gold,
    set_hand,
    types,
)
from tests.amun_re.test_18_5_scoring import W25, W25_SCHEMES
from tests.harness import random_game

ALL = {"afterlife": True, "statues": True, "pharaoh": True, "promo_favours": True}
T = data.TOMB_INDEX


def kinds(state: State, seat: int, kind: str) -> list[dict]:
    return [a for a in RULES.legal_actions(state, seat) if a["type"] == kind]


def hold_statue(state: State, seat: int, statue: str, province: str) -> None:
    """Put ``statue`` on ``province`` and its card in front of ``seat`` (R16.2.3)."""
    st = data.STATUE_INDEX[statue]
    state.statue_at = [NONE if x == st else x for x in state.statue_at]
    state.statue_at[P[province]] = st
    if statue in state.statue_deck:
        state.statue_deck.remove(statue)
    state.statue_holder[st] = seat


def market_table(seats: int = 3, **options) -> State:
    state = new_game(seats, start=0, **options)
    clear_provinces(state)
    for s in range(seats):
        set_hand(state, s)
    return state


def build_tomb(state: State, seat: int, tiles: dict[tuple[int, int], str]) -> None:
    for (row, col), tile in tiles.items():
        state.tomb[seat][data.TOMB_POS_INDEX[(row, col)]] = T[tile]
        state.tomb_stack.remove(tile)


def give_tiles(state: State, seat: int, *tiles: str) -> None:
    for tile in tiles:
        state.tomb_stack.remove(tile)
        state.collection[seat][T[tile]] += 1


# ---- W1 (module part) ----


def test_w1_setup_sizes_five_players_all_modules():
    state = new_game(5, **ALL)
    assert len(state.draw) == 39 + 16 - 5 == 50 and state.draw.count("architect") == 2
    assert len(state.deck) + len(state.revealed) == 15
    on_board = [st for st in state.statue_at if st != NONE]
    assert len(on_board) == 2 and len(state.statue_deck) == 6  # round 1 placed 2 (R9.2)
    assert len(state.tomb_stack) == 60 and sorted(set(state.tomb_stack)) == sorted(T)
    assert all(state.tomb_stack.count(t) == 12 for t in T)
    assert state.collection == [[0] * 5] * 5 and state.tokens == [0] * 5


# ---- W7, W8, W46: statues and the Pharaoh in the Auction ----

RED, BLACK, BLUE, WHITE = 0, 1, 2, 3


def w7_table(
    seats: int = 4, provinces=("abydos", "sawu", "memphis", "tanis"), statues=("isis", "sobek")
) -> State:
    """W7's round 1: revealed in this order, with the Statues and Pharaoh modules on."""
    state = new_game(seats, start=RED, statues=True, pharaoh=True)
    state.statue_at = [NONE] * len(data.PROVINCES)
    state.statue_deck = [*statues, *(s for s in data.STATUES if s not in statues)]
    order = [P[p] for p in provinces]
    state.deck = order + [p for p in state.province_set if p not in order]
    return evolve(state, round_started(state, 1))


def test_w7_statues_and_pharaoh_in_a_complete_auction():
    state = w7_table()
    assert state.statue_at[P["abydos"]] == data.ISIS and state.statue_at[P["sawu"]] == data.SOBEK
    assert sum(st != NONE for st in state.statue_at) == 2  # 4 players: 1st and 2nd drawn (R9.2)
    act(state, RED, bid("abydos", 3))
    act(state, BLACK, bid("sawu", 1))
    assert state.pharaoh == NONE  # bids on empty cards do not move it (R16.3.1)
    act(state, BLUE, bid("abydos", 6))
    assert state.pharaoh == P["abydos"]
    act(state, WHITE, bid("abydos", 10))
    assert state.pharaoh == P["abydos"]
    act(state, RED, bid("memphis", 0))
    act(state, BLUE, bid("sawu", 3))
    assert state.pharaoh == P["sawu"]
    steps, state = act(state, BLACK, bid("tanis", 0))
    won = {
        s.event.data["province"]: s.event.data["statue"]
        for s in steps
        if s.event.type == "province_won"
    }
    assert won == {"memphis": None, "tanis": None, "sawu": "sobek", "abydos": "isis"}
    assert state.gold == [20, 21, 17, 11]
    assert state.statue_holder[data.ISIS] == WHITE and state.statue_holder[data.SOBEK] == BLUE
    token = [s.event for s in steps if s.event.type == "pharaoh_token_gained"]
    assert [(e.seat, e.data) for e in token] == [(BLUE, {"province": "sawu"})]
    assert types(steps).index("pharaoh_token_gained") < types(steps).index("market_started")
    assert state.tokens == [0, 0, 1, 0]
    view = RULES.view(state, None)
    assert view["pharaoh"] == {"province": "sawu"}
    assert view["players"][BLUE]["pharaoh_tokens"] == 1
    assert view["players"][WHITE]["statue_cards"] == ["isis"]


def test_w8_bribe_rebid_keeps_the_pharaoh_on_the_card():
    state = w7_table()
    act(state, RED, bid("abydos", 3))
    act(state, BLACK, bid("sawu", 1))
    act(state, BLUE, bid("abydos", 6))
    act(state, WHITE, bid("abydos", 10))
    set_hand(state, RED, "bribe", "architect")
    steps, state = act(state, RED, bid("abydos", 15, bribe=True))
    assert steps[0].event.data["outbid"] == WHITE
    assert state.pharaoh == P["abydos"]


def test_w46_no_outbid_no_pharaoh_token():
    state = w7_table(3, ("abydos", "sawu", "memphis"), ("isis",))
    act(state, 0, bid("abydos", 0))
    act(state, 1, bid("sawu", 0))
    steps, state = act(state, 2, bid("memphis", 0))
    assert "pharaoh_token_gained" not in types(steps)
    assert state.pharaoh == NONE and state.tokens == [0, 0, 0]


def test_w46_the_figure_returns_to_the_reserve_and_tokens_between_the_kingdoms():
    state = w7_table()
    state.pharaoh = P["sawu"]
    state.tokens = [0, 0, 2, 0]
    state.statue_holder[data.ISIS] = WHITE
    evolve(
        state,
        Event(
            "kingdom_changed", {"province_deck": [data.PROVINCES[p] for p in state.province_set]}
        ),
    )
    assert state.tokens == [0] * 4 and set(state.statue_holder) == {NONE}
    assert state.statue_at[P["abydos"]] == data.ISIS  # statues stay (R14.1.5)


# ---- W39: number of statues ----


@pytest.mark.parametrize(("seats", "statues"), [(3, 3), (4, 6), (5, 6)])
def test_w39_number_of_statues(seats, statues):
    _, state = random_game(RULES, seats, {"statues": True}, 39 + seats, replay_every=1000)
    assert sum(st != NONE for st in state.statue_at) == statues
    assert len(state.statue_deck) == len(data.STATUES) - statues


# ---- W20: module gifts ----


def gifts_table(**options) -> State:
    state = new_game(4, start=0, **options)
    clear_provinces(state)
    for s, name in enumerate(("sais", "memphis", "heliopolis", "tanis")):
        give_province(state, s, name)
        set_hand(state, s)
    enter(state, "offering_started")
    return state


def offer(state: State, seat: int, gold: int | None, greed: bool = False):
    action = (
        {"type": "commit_theft", "greed": greed}
        if gold is None
        else {"type": "commit_gold", "gold": gold}
    )
    return act(state, seat, action)


def test_w20a_set_and_two_pharaoh_tokens_for_an_offerer_ranked_second():
    y = 1
    state = gifts_table(statues=True, pharaoh=True)
    hold_statue(state, y, "set", "memphis")
    state.tokens[y] = 2
    offer(state, 0, 9)
    offer(state, y, 4)
    offer(state, 2, None)
    steps, state = offer(state, 3, None)
    d = next(s.event.data for s in steps if s.event.type == "offering_revealed")
    assert d["ranking"] == [0, y] and d["gifts"][y] == 2 + 1 + 2 == 5


def test_w20b_set_and_greed_for_a_thief():
    y = 1
    state = gifts_table(statues=True, pharaoh=True, promo_favours=True)
    hold_statue(state, y, "set", "memphis")
    state.tokens[y] = 2
    set_hand(state, y, "greed")
    assert {"type": "commit_theft", "greed": True} in RULES.legal_actions(state, y)
    assert {"type": "commit_theft", "greed": True} not in RULES.legal_actions(state, 0)
    offer(state, 0, 9)
    gold = state.gold[y]
    offer(state, y, None, greed=True)
    offer(state, 2, 2)
    steps, state = offer(state, 3, 1)
    d = next(s.event.data for s in steps if s.event.type == "offering_revealed")
    assert d["gifts"][y] == 0 + 1 + 0 + 1 == 2
    assert d["total"] == 9 - 3 + 2 + 1
    assert d["commitments"][y]["greed"] is True
    assert state.gold[y] == gold + 3 and state.discard[-1] == "greed"
    assert sum(state.hands[y]) == 0


def test_r16_4_2_greed_needs_the_promo_module_and_a_card():
    state = gifts_table(promo_favours=True)
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "commit_theft", "greed": True}, random.Random(0))
    assert refused.value.rule == "R16.4.2"
    set_hand(state, 0, "greed")
    act(state, 0, {"type": "mark_for_sale", "card": "greed"})
    assert {"type": "commit_theft", "greed": True} not in RULES.legal_actions(state, 0)


# ---- W23, W24: Export, Osiris and Popularity ----


def harvest_table(tile: int, *provinces: tuple[str, int], **options) -> State:
    state = new_game(3, start=0, **options)
    clear_provinces(state)
    for name, farmers in provinces:
        give_province(state, 0, name, farmers)
    give_province(state, 1, "buto" if "buto" not in dict(provinces) else "sais")
    give_province(state, 2, "mendes")
    for s in range(3):
        set_hand(state, s)
    state.tile = tile
    enter(state, "harvest_started")
    return state


def harvest_income(state: State, *cards: tuple[str, str]) -> tuple[int, State]:
    """Play the green cards, end the turn (automatic once nothing is left, C-1): his income."""
    set_hand(state, 0, *(card for card, _ in cards), "architect")
    log = []
    for card, province in cards:
        steps, state = act(state, 0, {"type": f"play_{card}", "province": province})
        log += steps
    gold = state.gold[0]
    steps, state = act(state, 0, {"type": "end_harvest_turn"})
    log += steps
    ended = next(s.event for s in log if s.event.type == "harvest_turn_ended" and s.event.seat == 0)
    assert state.gold[0] - gold == ended.data["income"]
    return ended.data["income"], state


@pytest.mark.parametrize(("tile", "normal", "export"), [(1, 21, 24), (3, 24, 18)])
def test_w23_export(tile, normal, export):
    farms = (("kharga", 2), ("tanis", 4), ("avaris", 2))
    state = harvest_table(tile, *farms, promo_favours=True)
    assert sum(line["gold"] for line in income(state, 0)) == normal
    got, _ = harvest_income(harvest_table(tile, *farms, promo_favours=True), ("export", "kharga"))
    assert got == export


def test_w24_osiris_and_popularity():
    farms = (("buto", 4), ("tanis", 3), ("berenike", 0))
    state = harvest_table(2, *farms, statues=True, promo_favours=True)
    hold_statue(state, 0, "osiris", "buto")
    got, _ = harvest_income(state)
    assert got == 8 + 6 + 8 + 3 == 25
    state = harvest_table(2, *farms, statues=True, promo_favours=True)
    hold_statue(state, 0, "osiris", "buto")
    set_hand(state, 0, "popularity")
    steps, state = act(state, 0, {"type": "play_popularity", "province": "tanis"})
    assert types(steps) == ["favour_cards_drawn", "green_card_played"]  # C-5
    drawn = steps[0].event.data
    assert drawn["reason"] == "popularity" and len(drawn["cards"]) == 3
    assert sum(state.hands[0]) == 3 and state.discard[-1] == "popularity"
    steps, state = act(state, 0, {"type": "end_harvest_turn"})
    ended = next(s.event for s in steps if s.event.type == "harvest_turn_ended")
    assert ended.data["income"] == 8 + 0 + 8 + 3 == 19 and ended.data["osiris"] == 3


def test_r12_2_one_popularity_and_one_export_per_harvest():
    farms = (("buto", 4), ("tanis", 3), ("berenike", 0))
    state = harvest_table(2, *farms, promo_favours=True)
    set_hand(state, 0, "export", "export", "fixed_income")
    act(state, 0, {"type": "play_export", "province": "buto"})
    assert kinds(state, 0, "play_export") == []
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "play_export", "province": "tanis"}, random.Random(0))
    assert refused.value.rule == "R12.2"
    assert len(kinds(state, 0, "play_fixed_income")) == 2


# ---- W28: Isis and Sobek at the kingdom scoring ----


def test_w28_isis_and_sobek():
    state = new_state(3, {"statues": True})
    for seat, lines in W25.items():
        for name, pyramids, stones, farmers in lines:
            give_province(state, seat, name, farmers=farmers, stones=stones, pyramids=pyramids)
    for seat, cards in W25_SCHEMES.items():
        set_hand(state, seat, *cards)
    state.tile = 3
    state.statue_at[P["heliopolis"]] = data.ISIS
    state.statue_at[P["memphis"]] = data.SOBEK
    state.statue_holder[data.ISIS] = 1
    state.statue_holder[data.SOBEK] = 0
    x, y, z = score_kingdom(state)
    assert y["temples"] == (2 + 1) * 3 == 9 and y["total"] == 20
    assert x["schemes"] == 2 * 4 and x["total"] == 33
    assert z["total"] == 14


def test_r13_7_tribute_and_pharaohs_blessing():
    state = new_state(3, {"statues": True, "pharaoh": True})
    give_province(state, 0, "abu")
    set_hand(state, 0, "tribute", "pharaohs_blessing")
    state.statue_holder[data.ISIS] = 0
    assert score_kingdom(state)[0]["schemes_scored"] == []
    state.statue_holder[data.SET] = 0
    state.tokens[0] = 2
    assert score_kingdom(state)[0]["schemes_scored"] == ["tribute", "pharaohs_blessing"]


# ---- W36-W38, W45: Ptah, Thoth, Horus, Glory in the Market ----


def test_w36_ptah_two_purchases_of_one_kind():
    state = market_table(statues=True)
    give_province(state, 0, "memphis")  # card limit 3
    give_province(state, 1, "sais")
    give_province(state, 2, "tanis")
    hold_statue(state, 0, "ptah", "memphis")
    enter(state, "market_started")
    set_gold(state, 0, 30)
    act(state, 0, {"type": "buy_favour_cards", "count": 2})
    assert [a["count"] for a in kinds(state, 0, "buy_favour_cards")] == [1]  # 2 + 2 > 3
    with pytest.raises(IllegalAction):
        RULES.decide(state, 0, {"type": "buy_favour_cards", "count": 2}, random.Random(0))
    act(state, 0, {"type": "buy_favour_cards", "count": 1})
    assert state.gold[0] == 30 - 4 and sum(state.hands[0]) == 3
    assert kinds(state, 0, "buy_favour_cards") == []
    act(state, 0, {"type": "buy_stones", "count": 2})
    act(state, 0, {"type": "place_stone", "province": "memphis"})
    act(state, 0, {"type": "place_stone", "province": "memphis"})
    assert kinds(state, 0, "buy_stones") == []  # Ptah: once per Market phase
    assert state.gold[0] == 30 - 4 - 3


def test_w36_ptah_stones_two_plus_three_cost_nine():
    state = market_table(statues=True)
    give_province(state, 0, "memphis")
    give_province(state, 0, "abydos")
    give_province(state, 1, "sais")
    give_province(state, 2, "tanis")
    hold_statue(state, 0, "ptah", "memphis")
    enter(state, "market_started")
    gold = state.gold[0]
    act(state, 0, {"type": "buy_stones", "count": 2})
    for _ in range(2):
        act(state, 0, {"type": "place_stone", "province": "memphis"})
    act(state, 0, {"type": "buy_stones", "count": 3})
    for _ in range(3):
        act(state, 0, {"type": "place_stone", "province": "memphis"})
    assert gold - state.gold[0] == 3 + 6 == 9
    assert (state.pyramids[P["memphis"]], state.stones[P["memphis"]]) == (1, 2)


def test_r10_5_without_ptah_one_purchase_per_kind():
    state = market_table(statues=True)
    give_province(state, 0, "memphis")
    enter(state, "market_started")
    act(state, 0, {"type": "buy_favour_cards", "count": 1})
    assert kinds(state, 0, "buy_favour_cards") == []


def test_w37_thoth_draws_one_extra_card_then_discards_one():
    state = market_table(statues=True)
    give_province(state, 0, "edfu")  # card limit 2
    give_province(state, 1, "sais")
    give_province(state, 2, "tanis")
    hold_statue(state, 0, "thoth", "edfu")
    enter(state, "market_started")
    gold, discard = state.gold[0], len(state.discard)
    steps, state = act(state, 0, {"type": "buy_favour_cards", "count": 2})
    draws = [s.event.data for s in steps if s.event.type == "favour_cards_drawn"]
    assert [(d["reason"], len(d["cards"])) for d in draws] == [("purchase", 2), ("thoth", 1)]
    assert gold - state.gold[0] == 3 and sum(state.hands[0]) == 3
    legal = RULES.legal_actions(state, 0)
    assert legal and {a["type"] for a in legal} == {"thoth_discard"}  # C-4: nothing else
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "sell", "card": legal[0]["card"]}, random.Random(0))
    assert refused.value.rule == "C-4"
    act(state, 0, legal[0])
    assert sum(state.hands[0]) == 2 and len(state.discard) == discard + 1
    assert state.discard[-1] == legal[0]["card"]


def test_r10_5a_thoth_discards_nothing_when_nothing_can_be_drawn():
    state = market_table(statues=True)
    give_province(state, 0, "edfu")
    hold_statue(state, 0, "thoth", "edfu")
    enter(state, "market_started")
    state.discard += state.draw[2:]
    state.draw = state.draw[:2]
    state.discard.clear()
    steps, state = act(state, 0, {"type": "buy_favour_cards", "count": 2})
    assert [s.event.data["reason"] for s in steps if s.event.type == "favour_cards_drawn"] == [
        "purchase"
    ]
    assert not state.thoth_pending


def test_w38_horus():
    state = market_table(statues=True)
    give_province(state, 0, "sais")
    give_province(state, 0, "memphis", stones=2)
    give_province(state, 0, "tanis", stones=2)
    hold_statue(state, 0, "horus", "sais")
    enter(state, "market_started")
    assert kinds(state, 0, "use_horus") == [{"type": "use_horus", "province": "memphis"}]
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "use_horus", "province": "tanis"}, random.Random(0))
    assert refused.value.rule == "R10.7"
    gold = state.gold[0]
    act(state, 0, {"type": "use_horus", "province": "memphis"})
    assert (state.pyramids[P["memphis"]], state.stones[P["memphis"]]) == (1, 0)
    assert state.gold[0] == gold - 1


def test_w45_glory():
    state = market_table(promo_favours=True)
    give_province(state, 0, "memphis")
    enter(state, "market_started")
    set_hand(state, 0, "glory", "architect")
    set_gold(state, 0, 6)
    assert [(a["vp"], data.cost(a["vp"])) for a in kinds(state, 0, "play_glory")] == [
        (1, 1),
        (2, 3),
        (3, 6),
    ]
    act(state, 0, {"type": "play_glory", "vp": 2})
    assert state.vp[0] == 2 and state.gold[0] == 3 and state.discard[-1] == "glory"
    assert kinds(state, 0, "buy_stones") == []
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "buy_stones", "count": 1}, random.Random(0))
    assert refused.value.rule == "R16.4.1"


def test_bastet_pays_at_the_start_of_the_market():
    state = w7_table(4, statues=("bastet", "isis"))
    act(state, RED, bid("abydos", 0))
    act(state, BLACK, bid("sawu", 0))
    act(state, BLUE, bid("memphis", 0))
    steps, state = act(state, WHITE, bid("tanis", 0))
    gold = [s.event for s in steps if s.event.type == "statue_gold_taken"]
    assert [(e.seat, e.data) for e in gold] == [(RED, {"statue": "bastet", "gold": 3})]
    assert types(steps).index("statue_gold_taken") == types(steps).index("market_started") + 1
    assert state.gold[RED] == 20 + 1 + 3  # Abydos bonus gold, then Bastet


# ---- W40-W44: the tomb ----


def afterlife_market(tomb: dict, tile: str, *provinces: str) -> State:
    state = market_table(afterlife=True)
    for province in provinces or ("memphis", "abydos"):
        give_province(state, 0, province)
    give_province(state, 1, "sais")
    give_province(state, 2, "tanis")
    build_tomb(state, 0, tomb)
    give_tiles(state, 0, tile)
    set_hand(state, 0, "afterlife")
    enter(state, "market_started")
    return state


def place(state: State, tile: str, row: int, col: int):
    return act(state, 0, {"type": "play_afterlife_place", "tile": tile, "row": row, "col": col})


def test_w40_tomb_one_level():
    state = afterlife_market({(1, 2): "stone", (1, 3): "stone"}, "stone")
    steps, state = place(state, "stone", 2, 2)
    placed = steps[0].event.data
    assert (placed["times"], placed["stones"]) == (3, 3)
    assert types(steps)[-1] == "afterlife_played" and state.discard[-1] == "afterlife"
    assert RULES.view(state, None)["decision"] == "place_stone"
    assert {a["type"] for a in RULES.legal_actions(state, 0)} == {"place_stone"}
    for _ in range(3):
        act(state, 0, {"type": "place_stone", "province": "memphis"})
    assert state.pyramids[P["memphis"]] == 1 and state.pending == 0


def test_w41_tomb_two_levels():
    tomb = {
        (1, 1): "stone",
        (1, 2): "stone",
        (1, 3): "stone",
        (1, 4): "farmer",
        (2, 1): "stone",
        (2, 2): "farmer",
        (2, 3): "stone",
    }
    state = afterlife_market(tomb, "stone")
    steps, state = place(state, "stone", 3, 1)
    assert steps[0].event.data["times"] == 4 and state.pending == 4


def test_w42_tomb_gold():
    tomb = {(1, 1): "gold", (1, 2): "stone", (1, 3): "gold", (2, 1): "gold", (2, 2): "gold"}
    state = afterlife_market(tomb, "gold")
    gold = state.gold[0]
    steps, state = place(state, "gold", 3, 1)
    assert steps[0].event.data["times"] == 5 and state.gold[0] == gold + 10


def test_r16_1_4_placement_needs_both_supports_and_farmers_need_fields():
    state = afterlife_market({(1, 1): "farmer"}, "farmer", "berenike")  # 0 fields
    with pytest.raises(IllegalAction) as refused:
        place(state, "farmer", 2, 1)
    assert refused.value.rule == "R16.1.4"
    positions = {(a["row"], a["col"]) for a in kinds(state, 0, "play_afterlife_place")}
    assert positions == {(1, 2), (1, 3), (1, 4), (1, 5)}
    steps, state = place(state, "farmer", 1, 2)
    d = steps[0].event.data
    assert (d["farmers"], d["farmers_lost"]) == (0, 1) and state.pending == 0


def test_r16_1_3_afterlife_card_draws_a_tile_once_per_market_phase():
    state = afterlife_market({}, "vp")
    set_hand(state, 0, "afterlife", "afterlife")
    steps, state = act(state, 0, {"type": "play_afterlife_draw"})
    assert types(steps) == ["tomb_tiles_drawn", "afterlife_played"]
    assert sum(state.collection[0]) == 2
    assert kinds(state, 0, "play_afterlife_draw") == []
    assert kinds(state, 0, "play_afterlife_place") == []


def test_r16_1_2_tomb_tiles_come_before_cards():
    state = afterlife_market({}, "vp")
    act(state, 0, {"type": "buy_tomb_tiles", "count": 2})
    assert sum(state.collection[0]) == 3 and kinds(state, 0, "buy_tomb_tiles") == []
    act(state, 0, {"type": "buy_stones", "count": 1})
    act(state, 0, {"type": "place_stone", "province": "memphis"})
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(state, 0, {"type": "buy_tomb_tiles", "count": 1}, random.Random(0))
    assert refused.value.rule == "R10.2"


def test_w43_extra_tomb_placements():
    state = new_game(3, start=0, afterlife=True)
    clear_provinces(state)
    for s, name in enumerate(("sais", "memphis", "tanis")):
        give_province(state, s, name)
        set_hand(state, s)
    x = 0
    give_tiles(state, x, "vp", "gold", "vp", "stone")  # A, B, C, D
    set_hand(state, x, "bribe", "protection", "architect")
    enter(state, "offering_started")
    for seat in range(3):
        steps, state = act(state, seat, {"type": "commit_theft", "greed": False})
    d = next(s.event.data for s in steps if s.event.type == "offering_revealed")
    assert d["gifts"] == [0, 0, 0] and d["collection_order"] == [x]  # D-35
    assert RULES.active_seats(state) == [x]
    assert RULES.view(state, x)["decision"] == "gift_collection"
    act(state, x, {"type": "discard_tile_for_tomb", "tile": "gold"})  # B
    assert RULES.view(state, None)["decision"] == "tomb_discard"
    assert kinds(state, x, "place_tomb_tile") == [] and kinds(state, x, "end_gift_turn") == []
    act(state, x, {"type": "discard_card_for_tomb", "card": "bribe"})
    vp = state.vp[x]
    act(state, x, {"type": "place_tomb_tile", "tile": "vp", "row": 1, "col": 1})  # A
    act(state, x, {"type": "discard_card_for_tomb", "card": "protection"})
    act(state, x, {"type": "discard_card_for_tomb", "card": "architect"})
    steps, state = act(state, x, {"type": "place_tomb_tile", "tile": "vp", "row": 1, "col": 2})
    assert state.vp[x] == vp + 2
    assert state.collection[x] == [0, 0, 1, 0, 0]  # {D}
    assert sum(state.hands[x]) == 0 and state.tomb_discard == ["gold"]
    assert sum(t != NONE for t in state.tomb[x]) == 2
    assert "gift_turn_ended" in types(steps)  # nothing left to decide: automatic (C-1)


def test_r16_1_5_an_extra_placement_needs_two_other_items():
    state = new_game(3, start=0, afterlife=True)
    clear_provinces(state)
    give_province(state, 0, "sais")
    for s in range(3):
        set_hand(state, s)
    give_tiles(state, 0, "vp")
    set_hand(state, 0, "bribe")
    enter(state, "offering_started")
    for seat in range(3):
        act(state, seat, {"type": "commit_theft", "greed": False})
    assert state.phase != "gifts" or 0 not in RULES.active_seats(state)


def test_w44_tomb_scoring():
    state = new_game(3, start=0, afterlife=True)
    tiles = {rc: "vp" for rc in data.TOMB_POSITIONS if rc[0] <= 3}
    tiles[(4, 1)] = "gold"
    build_tomb(state, 0, tiles)
    assert tomb_vp(state.tomb[0]) == 9
    enter(state, "final_sale_started")
    scored = finale.reveal(state)[1].data
    assert scored["tomb"] == [9, 0, 0]
    assert scored["vp"][0] == scored["gold_bonus"][0] + 9


# ---- reshuffles, C-5 and the payment of an extra placement ----

def test_d37_the_tomb_discard_pile_is_reshuffled_when_the_stack_is_empty():
    state = afterlife_market({}, "vp")
    state.tomb_discard = state.tomb_stack[1:4]  # 1 tile in the stack, 3 discarded face up
    state.tomb_stack = state.tomb_stack[:1]
    steps, state = act(state, 0, {"type": "buy_tomb_tiles", "count": 3})
    drawn = next(s.event for s in steps if s.event.type == "tomb_tiles_drawn")
    assert drawn.data["reshuffle"] is not None and len(drawn.data["tiles"]) == 3
    assert len(state.tomb_stack) == 1 and state.tomb_discard == []
    assert sum(state.collection[0]) == 4
    shown = RULES.view_event(drawn, 1)
    assert shown is not None and shown.data == {"count": 3, "requested": 3,
                                                 "reason": "purchase", "reshuffled": True}
    assert RULES.is_irreversible(drawn)


def test_r10_5a_thoth_extra_card_reshuffles_after_the_bought_cards():
    state = market_table(statues=True)
    give_province(state, 0, "edfu")
    give_province(state, 1, "sais")
    give_province(state, 2, "tanis")
    hold_statue(state, 0, "thoth", "edfu")
    enter(state, "market_started")
    state.discard = state.draw[2:]
    state.draw = state.draw[:2]
    steps, state = act(state, 0, {"type": "buy_favour_cards", "count": 2})
    purchase, extra = [s.event.data for s in steps if s.event.type == "favour_cards_drawn"]
    assert purchase["reshuffle"] is None and extra["reshuffle"] is not None
    assert extra["cards"] == extra["reshuffle"][:1]
    assert sum(state.hands[0]) == 3 and state.thoth_pending


def test_c5_popularity_cannot_reshuffle_itself_back():
    farms = (("buto", 4), ("tanis", 3), ("berenike", 0))
    state = harvest_table(2, *farms, promo_favours=True)
    set_hand(state, 0, "popularity")
    state.discard = state.draw[:2]
    state.draw = []
    steps, state = act(state, 0, {"type": "play_popularity", "province": "tanis"})
    drawn = steps[0].event.data
    assert "popularity" not in drawn["reshuffle"] and len(drawn["cards"]) == 2
    assert state.discard == ["popularity"]


def test_r16_1_5_a_sale_may_not_break_a_started_payment():
    state = new_game(3, start=0, afterlife=True)
    clear_provinces(state)
    for s, name in enumerate(("sais", "memphis", "tanis")):
        give_province(state, s, name)
        set_hand(state, s)
    give_tiles(state, 0, "vp")
    set_hand(state, 0, "bribe", "architect")
    enter(state, "offering_started")
    for seat in range(3):
        act(state, seat, {"type": "commit_theft", "greed": False})
    assert RULES.active_seats(state) == [0]
    assert kinds(state, 0, "discard_tile_for_tomb") == []  # keep the tile to place
    probe = state.clone()
    steps, state = act(state, 0, {"type": "discard_card_for_tomb", "card": "bribe"})
    # selling the Architect would break the payment, so the second discard was the only option
    assert [(s.event.type, s.automatic) for s in steps[:2]] == [
        ("card_discarded", False), ("card_discarded", True)]
    assert state.tomb_paid == 2 and kinds(state, 0, "place_tomb_tile")
    probe.tomb_paid = 1
    probe.hands[0][C["bribe"]] = 0
    probe.discard.append("bribe")
    assert kinds(probe, 0, "sell") == []
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(probe, 0, {"type": "sell", "card": "architect"}, random.Random(0))
    assert refused.value.rule == "R16.1.5"
    with pytest.raises(IllegalAction) as refused:
        RULES.decide(probe, 0, {"type": "end_gift_turn"}, random.Random(0))
    assert refused.value.rule == "C-2"
