"""The static board catalog (docs/playing.md "Drawing the board"): everything a renderer needs that the
view does not carry, per rules version, proven complete against the views of random games.

The catalog is built in the domain (``domain/imhotep/catalog.py``, ``domain/amun_re/catalog.py``)
and served as GraphQL ``catalog(kind)`` and REST ``GET /api/v1/catalog/{kind}``. Completeness:
every value an Imhotep view (§14) or Amun-Re view (§17) refers to (a site side and its spaces, a
temple column, a tower space, a card, a round card, a ship, a province, a tile, a statue, a tomb
tile) is found in the catalog, with the same printed facts. Designed values (Imhotep §17.2
D-1 … D-6; Amun-Re's *(designed)* marks in §5) say so.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

from domain.amun_re import catalog as amun_re_catalog
from domain.imhotep import catalog as imhotep_catalog
from domain.registry import rules_for
from tests.client import Client
from tests.conftest import Server
from tests.harness import random_game, start

SITES = ("market", "pyramids", "temple", "burial_chamber", "obelisks")
MODULES = ("afterlife", "statues", "pharaoh", "promo_favours")


def imhotep_tables() -> list[tuple[int, dict[str, Any]]]:
    """Every site on both sides, all at once and in random mixes, every player count, wrath."""
    rng = random.Random(7)
    tables: list[tuple[int, dict[str, Any]]] = [
        (2, {"sides": "A", "wrath_of_the_pharaoh": False}),
        (3, {"sides": "B", "wrath_of_the_pharaoh": True}),
    ]
    for seats in (2, 3, 4, 4):
        sides = {site: rng.choice("AB") for site in SITES}
        tables.append((seats, {"sides": sides, "wrath_of_the_pharaoh": rng.random() < 0.5}))
    return tables


def amun_re_tables() -> list[tuple[int, dict[str, Any]]]:
    """No module, each module alone, everything at once with both scoring variants."""
    return [
        (3, {}),
        *((3 + i % 3, {module: True}) for i, module in enumerate(MODULES)),
        (5, {"classic_bank_majority": True, "no_farmer_points": True,
             **dict.fromkeys(MODULES, True)}),
    ]  # fmt: skip


# --- Imhotep ------------------------------------------------------------------------------------


def check_imhotep(cat: dict[str, Any], view: dict[str, Any], seats: int) -> None:
    cards = {c["id"] for c in cat["marketCards"]}
    sites = cat["sites"]
    sides = view["options"]["sides"]
    assert set(sides) == set(sites) == set(view["docks"])
    for site, side in sides.items():
        assert side in sites[site], (site, side)
    for player in view["players"]:
        assert player["colour"] in cat["colours"]
        assert set(player["cards"]) <= cards
    ships = {(s["capacity"], s["minimum"]) for s in cat["ships"]}
    for ship in view["ships"]:
        assert (ship["capacity"], ship["minimum"]) in ships
        assert ship["site"] is None or ship["site"] in sites
    market = view["market"]
    assert market["side"] == sides["market"]
    layout = sites["market"][market["side"]]
    assert len(market["face_up"]) <= layout["faceUpSlots"]
    assert market["pair_count"] <= layout["faceDownPairSize"]
    assert {c for c in market["face_up"] if c is not None} <= cards
    assert set(market.get("pair", [])) <= cards
    assert set(view["discard_pile"]) <= cards

    pyramids = view["sites"]["pyramids"]
    drawn = sites["pyramids"][pyramids["side"]]["pyramids"]
    assert [p["name"] for p in pyramids["pyramids"]] == [p["name"] for p in drawn]
    for shown, printed in zip(pyramids["pyramids"], drawn, strict=True):
        assert shown["spaces"] == len(printed["spaces"])
        assert len(shown["stones"]) <= len(printed["spaces"])  # stone k on space k + 1
        assert [sp["index"] for sp in printed["spaces"]] == list(range(1, shown["spaces"] + 1))

    temple = view["sites"]["temple"]
    printed_temple = sites["temple"][temple["side"]]
    assert temple["width"] == printed_temple["widthByPlayerCount"][str(seats)]
    if temple["side"] == "B":
        columns = printed_temple["columns"]
        assert len(temple["visible"]) <= len(columns)
        for column in columns[: temple["width"]]:
            assert column["bonus"] in printed_temple["bonusKinds"]
            assert column["designed"] and column["spec"].endswith("D-2")

    burial = view["sites"]["burial_chamber"]
    assert burial["side"] in sites["burial_chamber"]
    obelisks = view["sites"]["obelisks"]
    if obelisks["side"] == "B":
        spaces = sites["obelisks"]["B"]["towerSpaces"]
        assert obelisks["tower_points"] == [s["points"] for s in spaces]
        assert len(obelisks["towers"]) <= len(spaces)

    by_id = {c["id"]: c for c in cat["roundCards"][str(seats)]}
    for card in view["round_cards"]:
        assert by_id[card["id"]]["ships"] == card["ships"]
    assert set(view["final_scoring"]) <= {step["id"] for step in cat["endScoring"]["steps"]}
    if "hidden" in view:
        hidden = view["hidden"]
        assert set(hidden["draw_pile"]) <= cards
        assert set(hidden["round_stack"]) <= set(by_id)
        assert hidden["removed_round_card"] is None or hidden["removed_round_card"] in by_id


# --- Amun-Re ------------------------------------------------------------------------------------

#: the view's name of each printed province fact, and the catalog's
PROVINCE_FACTS = {
    "name": "name", "bank": "bank", "region": "region", "river": "river", "fields": "fields",
    "card_limit": "cardLimit", "temples": "temples", "mine": "mine", "caravan": "caravan",
    "bonus": "bonus",
}  # fmt: skip


def check_amun_re(cat: dict[str, Any], view: dict[str, Any], seats: int) -> None:
    provinces = {p["id"]: p for p in cat["provinces"]}
    cards = {c["id"]: c for c in cat["favourCards"]}
    statues = {s["id"] for s in cat["statues"]["list"]}
    tiles = {t["id"] for t in cat["tomb"]["tiles"]}
    options = view["options"]
    assert set(options) <= set(cat["options"])
    on = {"base"} | {m for m in MODULES if options.get(m)}

    def card(cid: str) -> None:
        assert cards[cid]["module"] in on, cid

    assert view["bid_track"] == cat["bidTrack"]
    if view["offering_tile"] is not None:
        shown = view["offering_tile"]
        printed = next(t for t in cat["offeringTiles"] if t["tile"] == shown["tile"])
        assert (printed["goldPerFarmer"], printed["camel"], printed["templeVp"]) == (
            shown["gold_per_farmer"], shown["camel"], shown["temple_vp"])  # fmt: skip
    for province in view["provinces"]:
        printed = provinces[province["id"]]
        for ours, theirs in PROVINCE_FACTS.items():
            assert province[ours] == printed[theirs], (province["id"], ours)
    if view["auction"] is not None:
        for c in view["auction"]["cards"]:
            assert c["province"] in provinces
    if view["harvest"] is not None:
        for green in view["harvest"]["green"]:
            assert green["province"] in provinces
            card(green["card"])
    for cid in view["discard_pile"]:
        card(cid)
    for player in view["players"]:
        assert set(player["provinces"]) <= set(provinces)
        for cid in player.get("hand", {}):
            card(cid)
        assert set(player.get("statue_cards", [])) <= statues
        if "tomb" in player:
            assert [len(row) for row in player["tomb"]] == cat["tomb"]["rows"]
            assert {t for row in player["tomb"] for t in row if t is not None} <= tiles
        assert set(player.get("collection", {})) <= tiles
    you = view["you"]
    if you is not None:
        for cid in you["marked_for_sale"]:
            card(cid)
        assert set(you.get("collection", {})) <= tiles
    if "statues" in view:
        for standing in view["statues"]["on_board"]:
            assert standing["statue"] in statues and standing["province"] in provinces
        assert set(view["statues"]["holders"]) <= statues
    if "pharaoh" in view:
        assert view["pharaoh"]["province"] in {None, *provinces}
    assert set(view.get("tomb_discard", [])) <= tiles
    if "hidden" in view:
        secret = view["hidden"]
        for cid in secret["draw_pile"]:
            card(cid)
        assert set(secret["province_deck"]) <= set(provinces)
        assert set(secret.get("statue_deck", [])) <= statues
        assert set(secret.get("tomb_stack", [])) <= tiles


CHECKS = {"imhotep": check_imhotep, "amun_re": check_amun_re}
TABLES = {"imhotep": imhotep_tables, "amun_re": amun_re_tables}
CATALOGS = {"imhotep": imhotep_catalog.catalog, "amun_re": amun_re_catalog.catalog}


@pytest.mark.parametrize("kind", ["imhotep", "amun_re"])
def test_every_value_a_view_refers_to_is_in_the_catalog(kind: str) -> None:
    """Walk every view (each seat, a spectator, the full view at the end) of random games of
    every option set: each site side, space, card, province, tile and statue it names is in the
    catalog of the game's rules version, with the same printed facts."""
    rules = rules_for(kind)
    cat = CATALOGS[kind](rules.version)
    assert cat["rulesVersion"] == rules.version
    check, views = CHECKS[kind], 0

    def check_views(state: Any, _steps: object = None, *, seats: int, full: bool = False) -> None:
        nonlocal views
        for viewer in [None, *range(seats)]:
            check(cat, rules.view(state, viewer, full), seats)
            views += 1

    for seed, (seats, options) in enumerate(TABLES[kind](), start=400):
        check_views(start(rules, seats, options, seed)[1], seats=seats)
        each = partial(check_views, seats=seats)
        _, final = random_game(rules, seats, options, seed, check=each, replay_every=10**9)
        check_views(final, seats=seats, full=True)
    assert views > 1000


def test_imhotep_marks_every_designed_value() -> None:
    """§17.2: the B-side values D-1 … D-4 are marked designed where they are used, D-5 and D-6
    carry their spec reference; the A sides are rulebook values, not designed."""
    cat = imhotep_catalog.catalog("imhotep-1")
    sites = cat["sites"]
    assert {e["spec"].rsplit(" ", 1)[1] for e in cat["designedValues"]} == {
        "D-1", "D-2", "D-3", "D-4", "D-5", "D-6"}  # fmt: skip
    for site in SITES:
        assert sites[site]["A"]["designed"] is False
    for site in ("pyramids", "temple", "burial_chamber", "obelisks"):
        assert sites[site]["B"]["designed"] is True
    b_spaces = [sp for p in sites["pyramids"]["B"]["pyramids"] for sp in p["spaces"]]
    assert len(b_spaces) == 15 and all(sp["spec"].endswith("D-1") for sp in b_spaces)
    assert {sp["bonus"] for sp in b_spaces} - {None} == set(sites["pyramids"]["B"]["bonusKinds"])
    assert not any(sp["designed"] for sp in sites["pyramids"]["A"]["pyramids"][0]["spaces"])
    places = sites["burial_chamber"]["B"]["rowPlaces"]
    assert [(p["points"], p["designed"]) for p in places] == [
        (8, False), (4, False), (2, False), (1, True)]  # fmt: skip
    assert places[3]["spec"].endswith("D-3")
    assert all(s["spec"].endswith("D-4") for s in sites["obelisks"]["B"]["towerSpaces"])
    assert sites["market"]["B"]["spec"].endswith("D-5")
    assert all(c["spec"].endswith("D-6") for c in cat["roundCards"]["3"])
    assert all(c["text"] and c["colour"] for c in cat["marketCards"])


def test_amun_re_marks_designed_values() -> None:
    """§5: the province facts the spec marks *(designed)* (§5.1), designed Favour-card counts
    (§5.5) are marked; values from a source are not."""
    cat = amun_re_catalog.catalog("amun_re-1")
    abu = next(p for p in cat["provinces"] if p["id"] == "abu")
    assert abu["designed"] and {"bank", "river", "fields", "bonus"} <= set(abu["designedFields"])
    assert "mine" not in abu["designedFields"] and abu["spec"] == "amun-re.md §5.1"
    protection = next(c for c in cat["favourCards"] if c["id"] == "protection")
    assert protection["designedFields"] == ["count"] and protection["effect"]
    bastet = next(s for s in cat["statues"]["list"] if s["id"] == "bastet")
    assert bastet["designed"] is False and bastet["power"]
    assert {p["river"] for p in cat["provinces"]} == {"nile", "border"}


@pytest.mark.parametrize("kind", ["IMHOTEP", "AMUN_RE"])
def test_graphql_and_rest_answer_the_same_catalog(sqlite_server: Server, kind: str) -> None:
    """Over the real HTTP server: GraphQL ``catalog(kind)`` and REST ``/api/v1/catalog/{kind}``
    answer the same JSON, at the rules version games are created with, designed values marked;
    an unknown kind is NOT_FOUND over REST."""
    client = Client(sqlite_server.url)
    try:
        graphql = client.gql("query($k: GameKind!) { catalog(kind: $k) }", {"k": kind})["catalog"]
        response = client.rest("GET", f"/catalog/{kind.lower()}")
        assert response.status_code == 200, response.text
        assert response.json() == graphql
        assert graphql["rulesVersion"] == rules_for(kind.lower()).version
        if kind == "IMHOTEP":
            assert graphql["sites"]["pyramids"]["B"]["designed"] is True
            assert graphql["sites"]["burial_chamber"]["B"]["rowPlaces"][3]["designed"] is True
        else:
            assert any(p["designed"] for p in graphql["provinces"])
        missing = client.rest("GET", "/catalog/chess")
        assert missing.status_code == 404 and missing.json()["code"] == "NOT_FOUND"
    finally:
        client.close()
