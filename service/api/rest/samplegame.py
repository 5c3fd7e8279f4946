"""The sample game the OpenAPI examples show (``service.api.rest.examples``): a 2-seat Imhotep
table after its first stone, with values taken from a real game (real ids, hashes and
timestamps; real action names of the catalogs, ``domain/<game>/action_catalog.py``), and an
export of a finished one.

Kept apart from the examples so the values of one game stay consistent with each other (the
same ids, options and versions in the game, its events and its summary) while the examples
pick from them; ``tests/test_openapi.py`` validates every example against its schema.
"""

from __future__ import annotations

from typing import Any

from service.api.rest.typedactions import typed_of

GAME_ID = "d9b6d5fe-d725-42a3-94e9-ecfb27a85cbe"
ANA = {"id": "210dc5cc-7858-4415-ba02-c2024024fad7", "name": "Ana"}
BO = {"id": "324b63f7-c72c-4b3f-bcff-a17ab685d11b", "name": "Bo"}
TOKEN = "HJSAjUCRb_ePxrxsFBL9WBoVItPrakkrYbdRpiL1UxU"
SIDES_A = {"market": "A", "pyramids": "A", "temple": "A", "burial_chamber": "A", "obelisks": "A"}
OPTIONS = {
    "sides": SIDES_A,
    "wrath_of_the_pharaoh": False,
    "start_player": "random",
    "colours": ["black", "white"],
}
LEGAL: list[dict[str, Any]] = [
    {"type": "get_stones"},
    {"type": "place_stone", "ship": 1, "slot": 2},
    {"type": "place_stone", "ship": 1, "slot": 3},
    {"type": "sail", "ship": 1, "site": "market"},
]
LABELS = [
    "Take stones from the quarry",
    "Place a stone on ship 1, slot 2",
    "Place a stone on ship 1, slot 3",
    "Sail ship 1 to the market",
]


def ship(number: int, capacity: int, minimum: int, slots: list[int | None]) -> dict[str, Any]:
    load = sum(s is not None for s in slots)
    return {
        "id": number,
        "capacity": capacity,
        "minimum": minimum,
        "slots": slots,
        "load": load,
        "site": None,
    }


#: the view of seat 0 (Imhotep, side A everywhere), as ``state`` shows it
STATE: dict[str, Any] = {
    "game": "imhotep",
    "round": 1,
    "rounds": 6,
    "viewer": 0,
    "current_player": 0,
    "start_player": 1,
    "options": {"sides": SIDES_A, "wrath_of_the_pharaoh": False},
    "players": [
        {"seat": 0, "colour": "black", "score": 0, "sled": 3, "quarry": 26, "cards": []},
        {"seat": 1, "colour": "white", "score": 0, "sled": 1, "quarry": 27, "cards": []},
    ],
    "ships": [
        ship(1, 4, 3, [1, None, None, None]),
        ship(2, 2, 1, [None, None]),
        ship(3, 2, 1, [None, None]),
        ship(4, 1, 1, [None]),
    ],
    "docks": dict.fromkeys(SIDES_A),
    "market": {
        "side": "A",
        "face_up": ["sarcophagus", "chisel", "obelisk_decoration", "entrance"],
        "pair_count": 0,
    },
    "sites": {
        "pyramids": {
            "side": "A",
            "pyramids": [{"name": "pyramid", "stones": [], "spaces": 14}],
            "overflow": [],
        },
        "temple": {"side": "A", "width": 4, "stones": [], "visible": [None, None, None, None]},
        "burial_chamber": {"side": "A", "stones": []},
        "obelisks": {"side": "A", "heights": [0, 0]},
    },
    "discard_pile": [],
    "draw_pile_count": 30,
    "round_stack_count": 5,
    "round_cards": [{"id": "2p-4", "ships": [4, 2, 2, 1]}],
    "passes": 0,
    "pending": {"kind": "turn", "owner": 0, "options": LEGAL},
    "final_scoring": {},
    "game_over": False,
    "outcome": None,
}

GAME: dict[str, Any] = {
    "id": GAME_ID,
    "kind": "IMHOTEP",
    "status": "ACTIVE",
    "options": OPTIONS,
    "version": 7,
    "seedCommitment": "43b33fd6999f7f694cbf3c51604f11d8575369c0f706ec8a6c7d4f7f029b0daf",
    "rulesVersion": "imhotep-1",
    "seats": [
        {"seat": 0, "player": ANA, "isBot": False, "strategy": None},
        {"seat": 1, "player": BO, "isBot": False, "strategy": None},
    ],
    "mySeat": 0,
    "activeSeats": [0],
    "state": STATE,
    "legalActions": LEGAL,
    "moves": [
        {"action": a, "label": label, "type": a["type"], "typedAction": typed_of("imhotep", a)}
        for a, label in zip(LEGAL, LABELS, strict=True)
    ],
    "scores": [0, 0],
    "result": None,
    "forkedFrom": None,
    "ranked": True,
    "unrankedReason": None,
    "createdAt": "2026-12-01T14:01:33.580135+00:00",
    "updatedAt": "2026-12-01T14:01:33.772285+00:00",
}

STONE_PLACED: dict[str, Any] = {
    "version": 8,
    "at": "2026-12-01T14:01:41.208913+00:00",
    "seat": 0,
    "type": "stone_placed",
    "data": {"ship": 1, "slot": 2},
    "automatic": False,
    "bySeat": 0,
    "undone": False,
    "hash": "42fa4992e61e47f64cf0e395d5e848469f9cb4ee51fe6030bb460e50ca031eb4",
}
TABLE_CREATED: dict[str, Any] = {
    "version": 1,
    "at": "2026-12-01T14:01:33.580135+00:00",
    "seat": None,
    "type": "table_created",
    "data": {
        "kind": "imhotep",
        "seats": 2,
        "options": OPTIONS,
        "seed_commitment": "43b33fd6999f7f694cbf3c51604f11d8575369c0f706ec8a6c7d4f7f029b0daf",
        "seed_chosen": False,
        "created_by": ANA["id"],
        "rules_version": "imhotep-1",
        "undo_allowed": True,
        "forked_from": None,
    },
    "automatic": False,
    "bySeat": None,
    "undone": False,
    "hash": "fa06162d8a1b60444290ebc11ad124b1675bf4e7a59785f62b4a811b15a576a2",
}
SUMMARY: dict[str, Any] = {
    "gameId": GAME_ID,
    "kind": "IMHOTEP",
    "status": "ACTIVE",
    "options": OPTIONS,
    "seats": [
        {"seat": 0, "playerId": ANA["id"], "name": "Ana", "isBot": False},
        {"seat": 1, "playerId": BO["id"], "name": "Bo", "isBot": False},
    ],
    "freeSeats": 0,
    "activeSeats": [0],
    "scores": [0, 0],
    "winners": None,
    "version": 7,
    "ranked": True,
    "unrankedReason": None,
    "createdAt": "2026-12-01T14:01:33.580135+00:00",
    "lastActivity": "2026-12-01T14:01:33.772285+00:00",
}

#: an exported game (``GET /games/{id}/export``), its 177 events cut to the first and the last
EXPORT: dict[str, Any] = {
    "format": "papyrus-game",
    "formatVersion": 1,
    "kind": "imhotep",
    "seats": 2,
    "options": OPTIONS,
    "rulesVersion": "imhotep-1",
    "seed": "example-2",
    "seedSalt": "79572789b07bb1291fc5877eb7c0753240b33397b785057b1c221f5117cc2da1",
    "seedCommitment": "40e3aa4342b6232ab7431bbbf5a5106f1c95baa3d13610818832c7468556589e",
    "players": [{"seat": 0, "name": "Ana", "bot": None}, {"seat": 1, "name": "Bo", "bot": None}],
    "result": {"scores": [60, 38], "winners": [0], "ranks": [1, 2]},
    "events": [
        {
            "version": 1,
            "at": "2026-12-01T14:01:54.625777+00:00",
            "type": "table_created",
            "data": {
                "kind": "imhotep",
                "seats": 2,
                "options": OPTIONS,
                "seed": "example-2",
                "seed_salt": "79572789b07bb1291fc5877eb7c0753240b33397b785057b1c221f5117cc2da1",
                "seed_commitment": (
                    "40e3aa4342b6232ab7431bbbf5a5106f1c95baa3d13610818832c7468556589e"
                ),
                "seed_chosen": True,
                "created_by": "dab44fef-115a-4b98-a479-d40fde63f1d9",
                "rules_version": "imhotep-1",
                "undo_allowed": True,
                "forked_from": None,
            },
            "seat": None,
            "automatic": False,
            "by_seat": None,
            "command": None,
            "action": None,
            "actor": "dab44fef-115a-4b98-a479-d40fde63f1d9",
            "rules_version": "imhotep-1",
            "hash": "e79dc1fc3643025610a2e0e384b4a82c372c279209bafc6696e88ce4be353f56",
        },
        {
            "version": 177,
            "at": "2026-12-01T14:01:56.853314+00:00",
            "type": "game_finished",
            "data": {"scores": [60, 38], "winners": [0], "ranks": [1, 2]},
            "seat": None,
            "automatic": False,
            "by_seat": None,
            "command": None,
            "action": None,
            "actor": None,
            "rules_version": "imhotep-1",
            "hash": "ddaabd8927d1a34a37c1b868d06bc2751934eef675583d7c50a3569f76d692b3",
        },
    ],
}

#: tables a client may create (the ``CreateGame`` examples): the sample game's and others
CREATE_GAME: list[tuple[str, Any]] = [
    ("A ranked Imhotep table for 2", {"kind": "IMHOTEP", "seats": 2}),
    (
        "Imhotep with the B side of the market and the Wrath of the Pharaoh (§2)",
        {
            "kind": "IMHOTEP",
            "seats": 3,
            "options": {"sides": {"market": "B"}, "wrath_of_the_pharaoh": True},
        },
    ),
    (
        "Amun-Re for 4 with the Afterlife module, seeded (unranked)",
        {"kind": "AMUN_RE", "seats": 4, "options": {"afterlife": True}, "seed": "friday-2"},
    ),
]

#: actions a client may send (the ``Act`` examples): the sample game's and another game's
ACT: list[tuple[str, Any]] = [
    (
        "Imhotep: place a stone (§6.2)",
        {"action": {"type": "place_stone", "ship": 1, "slot": 2}, "expectedVersion": 7},
    ),
    (
        "Imhotep: sail a ship to the market (§6.3)",
        {"action": {"type": "sail", "ship": 1, "site": "market"}, "expectedVersion": 9},
    ),
    (
        "Amun-Re: bid on a province with a Bribe card (R9.6)",
        {
            "action": {
                "type": "bid",
                "province": "memphis",
                "value": 6,
                "bribe": True,
                "protection": False,
            },
            "expectedVersion": 12,
        },
    ),
    (
        "Amun-Re: the seat 2 of a player holding several seats ends its Market turn",
        {"action": {"type": "end_market_turn"}, "seat": 2},
    ),
]

#: what the ``Game`` example is
GAME_SUMMARY = "An Imhotep game, seat 0 to act"
