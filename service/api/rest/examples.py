"""Examples of the REST bodies for the OpenAPI document: every request body and the main
responses, with values taken from a real game (the sample game's table after its first stone;
real action names of the catalogs, ``domain/<game>/action_catalog.py``).

``SCHEMA_EXAMPLES`` are JSON Schema ``examples`` of component schemas; ``document`` (in
``service.api.rest``) also shows a request body's examples on the operation itself (OpenAPI
Example Objects), and ``INLINE_EXAMPLES`` on the bodies that have no component schema.
``tests/test_openapi.py`` checks that every request body has one and that each validates
against its own schema: a body whose model changes must change its example here too.

The sample game those examples show (its ids, state, events, summary and export) is in
``service.api.rest.samplegame``; this module only says which example goes with which body.
"""

from __future__ import annotations

from typing import Any

from service.api.rest.samplegame import (
    ACT,
    ANA,
    CREATE_GAME,
    EXPORT,
    GAME,
    GAME_SUMMARY,
    STONE_PLACED,
    SUMMARY,
    TABLE_CREATED,
    TOKEN,
)

#: ``examples`` of component schemas, by schema name: (summary, value) pairs
SCHEMA_EXAMPLES: dict[str, list[tuple[str, Any]]] = {
    # requests
    "RegisterPlayer": [("A new player", {"name": "Ana"})],
    "CreateGame": CREATE_GAME,
    "JoinGame": [("Seat 1", {"seat": 1}), ("The first free seat", {})],
    "AddBot": [("A random bot in the first free seat", {"strategy": "random"})],
    "AbandonGame": [("With a reason", {"reason": "We ran out of time."})],
    "Act": ACT,
    "RequestUndo": [("Back to right after version 7", {"toVersion": 7}), ("My last action", {})],
    "AnswerUndo": [("Accept", {"accept": True})],
    "ForkGame": [("From version 40", {"atVersion": 40})],
    "ReclaimSeat": [("Every seat of mine", {})],
    # responses
    "PlayerSession": [("Registered", {"player": ANA, "token": TOKEN})],
    "Player": [("A player", ANA)],
    "Game": [(GAME_SUMMARY, GAME)],
    "ActResult": [
        (
            "A stone placed",
            {
                "game": {
                    **GAME,
                    "version": 8,
                    "activeSeats": [1],
                    "legalActions": [],
                    "moves": [],
                },
                "events": [STONE_PLACED],
            },
        )
    ],
    "GameEvent": [("A stone placed", STONE_PLACED)],
    "GamePage": [("One page", {"items": [GAME], "nextCursor": "412", "totalCount": 23})],
    "EventPage": [("The first page", {"items": [TABLE_CREATED], "nextAfter": 1})],
    "GameSummary": [("A game in play", SUMMARY)],
    "SummaryPage": [("One page", {"items": [SUMMARY], "nextCursor": None, "totalCount": 1})],
    "Verification": [
        (
            "A log that holds",
            {"ok": True, "checkedEvents": 177, "badVersion": None, "reason": None},
        ),
        (
            "A finished game's log, signed",
            {
                "ok": True,
                "checkedEvents": 177,
                "badVersion": None,
                "reason": None,
                "signedBy": "ed25519:3f0c6a9e1b2d4c57",
                "signature": {
                    "alg": "Ed25519",
                    "keyId": "ed25519:3f0c6a9e1b2d4c57",
                    "gameId": "0b1c5f4e-8a0d-4c1e-9c39-0f5a8a6f2d11",
                    "head": "5d2c0f6e3b1a" + "0" * 52,
                    "value": "Qk1Q" * 21 + "Qg==",
                },
            },
        ),
    ],
    "SigningKeys": [
        (
            "An active key and a retired one",
            {
                "alg": "Ed25519",
                "message": "papyrus/v1:game-head:{gameId}:{head}",
                "keys": [
                    {
                        "keyId": "ed25519:3f0c6a9e1b2d4c57",
                        "alg": "Ed25519",
                        "publicKey": "7TSoDwwPlIOOyBBzSM/N1leJebm8jP4bJCKm5SFZT5g=",
                        "status": "active",
                    },
                    {
                        "keyId": "ed25519:90d2e1c4a7b36f08",
                        "alg": "Ed25519",
                        "publicKey": "A1+Vh0JkN3rQm8sR5tU2wXyZ4bC6dE9fG0hI7jK1lMo=",
                        "status": "retired",
                    },
                ],
            },
        )
    ],
    "Problem": [
        (
            "Not your turn",
            {
                "type": "https://papyrus.example/errors/not_your_turn",
                "title": "Not your turn",
                "status": 409,
                "detail": "seat 1 does not have to act now",
                "code": "NOT_YOUR_TURN",
                "requestId": "df6b7522a95847d1889b9233c8e10b54",
            },
        )
    ],
}

#: examples of request bodies without a component schema, by operation id
INLINE_EXAMPLES: dict[str, list[tuple[str, Any]]] = {
    "importGame": [("An exported game (its events cut short here)", EXPORT)],
}
