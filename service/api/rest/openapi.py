"""The OpenAPI 3.1 document of the REST API (served at ``/api/v1/openapi.json``)."""

from __future__ import annotations

from typing import Any

JSON_OBJECT: dict[str, Any] = {"type": "object", "additionalProperties": True}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def problem_responses(*codes: int) -> dict[str, Any]:
    return {
        str(code): {
            "description": "A problem (RFC 9457) with a stable `code`.",
            "content": {"application/problem+json": {"schema": ref("Problem")}},
        }
        for code in codes
    }


def json_body(
    properties: dict[str, Any], required: list[str] | None = None, *, body_required: bool = False
) -> dict[str, Any]:
    """A JSON object request body with these properties."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    body: dict[str, Any] = {"content": {"application/json": {"schema": schema}}}
    if body_required:
        body["required"] = True
    return body


def ok(schema: dict[str, Any], status: int = 200, text: str = "OK") -> dict[str, Any]:
    return {str(status): {"description": text, "content": {"application/json": {"schema": schema}}}}


GAME_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Papyrus REST API",
        "version": "1",
        "description": "The REST mirror of the Papyrus GraphQL API. Send "
        "`Authorization: Bearer <token>` to act as a player; without it you are a spectator.",
    },
    "servers": [{"url": "/api/v1"}],
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "schemas": {
            "Problem": {
                "type": "object",
                "required": ["type", "title", "status", "detail", "code"],
                "properties": {
                    "type": {"type": "string"},
                    "title": {"type": "string"},
                    "status": {"type": "integer"},
                    "detail": {"type": "string"},
                    "code": {
                        "type": "string",
                        "enum": [
                            "BAD_INPUT",
                            "UNAUTHENTICATED",
                            "FORBIDDEN",
                            "NOT_FOUND",
                            "NOT_YOUR_TURN",
                            "ILLEGAL_ACTION",
                            "CONFLICT",
                            "GAME_NOT_ACTIVE",
                            "RATE_LIMITED",
                            "UNAVAILABLE",
                            "INTERNAL",
                        ],
                    },
                    "rule": {"type": "string", "description": "The rule an illegal action breaks."},
                },
            },
            "Player": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {"id": {"type": "string"}, "name": {"type": "string"}},
            },
            "PlayerSession": {
                "type": "object",
                "required": ["player", "token"],
                "properties": {"player": ref("Player"), "token": {"type": "string"}},
            },
            "Seat": {
                "type": "object",
                "required": ["seat", "player", "isBot"],
                "properties": {
                    "seat": {"type": "integer"},
                    "player": {"oneOf": [ref("Player"), {"type": "null"}]},
                    "isBot": {"type": "boolean"},
                    "strategy": {"type": ["string", "null"]},
                },
            },
            "GameResult": {
                "type": "object",
                "properties": {
                    "scores": {"type": "array", "items": {"type": "integer"}},
                    "winners": {"type": "array", "items": {"type": "integer"}},
                    "ranks": {"type": "array", "items": {"type": "integer"}},
                },
            },
            "Game": {
                "type": "object",
                "required": ["id", "kind", "status", "options", "version", "seats", "state"],
                "properties": {
                    "id": {"type": "string"},
                    "kind": {"type": "string", "enum": ["IMHOTEP", "AMUN_RE"]},
                    "status": {
                        "type": "string",
                        "enum": ["OPEN", "ACTIVE", "FINISHED", "ABANDONED"],
                    },
                    "options": JSON_OBJECT,
                    "version": {"type": "integer"},
                    "seedCommitment": {"type": "string"},
                    "rulesVersion": {"type": "string"},
                    "seats": {"type": "array", "items": ref("Seat")},
                    "mySeat": {"type": ["integer", "null"]},
                    "activeSeats": {"type": "array", "items": {"type": "integer"}},
                    "state": JSON_OBJECT,
                    "legalActions": {"type": "array", "items": JSON_OBJECT},
                    "scores": {"type": "array", "items": {"type": "integer"}},
                    "result": {"oneOf": [ref("GameResult"), {"type": "null"}]},
                    "forkedFrom": {
                        "description": "The game this sandbox was forked from; `seats` are the "
                        "seats whose view a fork of an unfinished game was dealt from (null for "
                        "the fork of a finished game, which replays it exactly).",
                        "oneOf": [
                            {
                                "type": "object",
                                "required": ["gameId", "version", "seats"],
                                "properties": {
                                    "gameId": {"type": "string"},
                                    "version": {"type": "integer"},
                                    "seats": {
                                        "type": ["array", "null"],
                                        "items": {"type": "integer"},
                                    },
                                },
                            },
                            {"type": "null"},
                        ],
                    },
                    "createdAt": {"type": "string", "format": "date-time"},
                    "updatedAt": {"type": "string", "format": "date-time"},
                },
            },
            "GameEvent": {
                "type": "object",
                "required": ["version", "at", "seat", "type", "data"],
                "properties": {
                    "version": {"type": "integer"},
                    "at": {"type": "string", "format": "date-time"},
                    "seat": {"type": ["integer", "null"]},
                    "type": {"type": "string"},
                    "data": JSON_OBJECT,
                    "automatic": {"type": "boolean"},
                    "bySeat": {"type": ["integer", "null"]},
                    "undone": {"type": "boolean"},
                    "hash": {"type": "string"},
                },
            },
        },
    },
    "security": [{}, {"bearer": []}],
    "paths": {
        "/players": {
            "post": {
                "summary": "Register a player; the token is shown once",
                "requestBody": json_body(
                    {"name": {"type": "string", "maxLength": 40}},
                    required=["name"],
                    body_required=True,
                ),
                "responses": {
                    **ok(ref("PlayerSession"), 201, "Registered"),
                    **problem_responses(422),
                },
            }
        },
        "/me": {
            "get": {
                "summary": "The caller",
                "responses": {**ok(ref("Player")), **problem_responses(401)},
            }
        },
        "/games": {
            "get": {
                "summary": "List games, newest first",
                "parameters": [
                    {
                        "name": "kind",
                        "in": "query",
                        "schema": {"type": "string", "enum": ["IMHOTEP", "AMUN_RE"]},
                    },
                    {
                        "name": "status",
                        "in": "query",
                        "schema": {
                            "type": "string",
                            "enum": ["OPEN", "ACTIVE", "FINISHED", "ABANDONED"],
                        },
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 200},
                    },
                    {"name": "cursor", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {
                    **ok(
                        {
                            "type": "object",
                            "properties": {
                                "items": {"type": "array", "items": ref("Game")},
                                "nextCursor": {"type": ["string", "null"]},
                            },
                        }
                    ),
                    **problem_responses(422),
                },
            },
            "post": {
                "summary": "Open a new table (the creator is not seated)",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["kind", "seats"],
                                "properties": {
                                    "kind": {"type": "string", "enum": ["IMHOTEP", "AMUN_RE"]},
                                    "seats": {"type": "integer"},
                                    "options": JSON_OBJECT,
                                    "seed": {"type": "string"},
                                },
                            }
                        }
                    },
                },
                "responses": {**ok(ref("Game"), 201, "Created"), **problem_responses(401, 422)},
            },
        },
        "/games/{id}": {
            "get": {
                "summary": "A game as the caller may see it",
                "parameters": [GAME_ID],
                "responses": {**ok(ref("Game")), **problem_responses(404)},
            }
        },
        "/games/{id}/seats": {
            "post": {
                "summary": "Take a seat (the first free one if none is given)",
                "parameters": [GAME_ID],
                "requestBody": json_body({"seat": {"type": "integer"}}),
                "responses": {**ok(ref("Game")), **problem_responses(401, 404, 409, 422)},
            }
        },
        "/games/{id}/bots": {
            "post": {
                "summary": "A server-side bot takes a seat",
                "parameters": [GAME_ID],
                "requestBody": json_body(
                    {
                        "seat": {"type": "integer"},
                        "strategy": {"type": "string", "enum": ["random"]},
                    }
                ),
                "responses": {**ok(ref("Game")), **problem_responses(401, 403, 404, 409, 422)},
            }
        },
        "/games/{id}/actions": {
            "post": {
                "summary": "One action for the caller's seat",
                "parameters": [
                    GAME_ID,
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "schema": {"type": "string", "maxLength": 200},
                    },
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["action"],
                                "properties": {
                                    "action": {**JSON_OBJECT, "required": ["type"]},
                                    "expectedVersion": {"type": "integer"},
                                },
                            }
                        }
                    },
                },
                "responses": {
                    **ok(
                        {
                            "type": "object",
                            "properties": {
                                "game": ref("Game"),
                                "events": {"type": "array", "items": ref("GameEvent")},
                            },
                        }
                    ),
                    **problem_responses(401, 403, 404, 409, 422),
                },
            }
        },
        "/games/{id}/abandon": {
            "post": {
                "summary": "Close the table without a result",
                "parameters": [GAME_ID],
                "requestBody": json_body({"reason": {"type": "string"}}),
                "responses": {**ok(ref("Game")), **problem_responses(401, 403, 404, 409, 422)},
            }
        },
        "/games/{id}/replay": {
            "get": {
                "summary": "Events after `after`, each with the state right after it",
                "parameters": [
                    GAME_ID,
                    {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 200}},
                ],
                "responses": {
                    **ok(
                        {
                            "type": "object",
                            "properties": {
                                "items": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "event": ref("GameEvent"),
                                            "state": JSON_OBJECT,
                                        },
                                    },
                                }
                            },
                        }
                    ),
                    **problem_responses(404, 422),
                },
            }
        },
        "/games/{id}/verify": {
            "get": {
                "summary": "Recompute the hash chain, check the seed and replay the rules",
                "parameters": [GAME_ID],
                "responses": {
                    **ok(
                        {
                            "type": "object",
                            "properties": {
                                "ok": {"type": "boolean"},
                                "checkedEvents": {"type": "integer"},
                                "badVersion": {"type": ["integer", "null"]},
                                "reason": {"type": ["string", "null"]},
                            },
                        }
                    ),
                    **problem_responses(404),
                },
            }
        },
        "/games/{id}/export": {
            "get": {
                "summary": "A finished game as one portable JSON document",
                "parameters": [GAME_ID],
                "responses": {**ok(JSON_OBJECT), **problem_responses(404, 409)},
            }
        },
        "/games/import": {
            "post": {
                "summary": "Check an exported game and store it as a new finished game",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": JSON_OBJECT}},
                },
                "responses": {**ok(ref("Game"), 201, "Imported"), **problem_responses(401, 422)},
            }
        },
        "/games/{id}/undo": {
            "post": {
                "summary": "Take actions back (default: your last action)",
                "parameters": [GAME_ID],
                "requestBody": json_body({"toVersion": {"type": "integer"}}),
                "responses": {**ok(ref("Game")), **problem_responses(401, 403, 404, 409, 422)},
            }
        },
        "/games/{id}/undo/answer": {
            "post": {
                "summary": "Accept or refuse the pending undo request",
                "parameters": [GAME_ID],
                "requestBody": json_body(
                    {"accept": {"type": "boolean"}}, required=["accept"], body_required=True
                ),
                "responses": {**ok(ref("Game")), **problem_responses(401, 403, 404, 409, 422)},
            }
        },
        "/games/{id}/fork": {
            "post": {
                "summary": "A sandbox table starting from a game at a version",
                "description": "Anybody may fork a finished game (its events are replayed). A "
                "game that is not finished may be forked only by one of its players: the fork "
                "starts from what that player's seats could see, everything hidden from them "
                "re-dealt from the fork's own seed, and seats the player at those seats.",
                "parameters": [GAME_ID],
                "requestBody": json_body(
                    {"atVersion": {"type": "integer"}}, required=["atVersion"], body_required=True
                ),
                "responses": {
                    **ok(ref("Game"), 201, "Forked"),
                    **problem_responses(401, 403, 404, 422),
                },
            }
        },
        "/games/{id}/events": {
            "get": {
                "summary": "The audit log as the caller may see it",
                "parameters": [
                    GAME_ID,
                    {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 200},
                    },
                ],
                "responses": {
                    **ok(
                        {
                            "type": "object",
                            "properties": {
                                "items": {"type": "array", "items": ref("GameEvent")},
                                "nextAfter": {"type": ["integer", "null"]},
                            },
                        }
                    ),
                    **problem_responses(404, 422),
                },
            }
        },
        "/games/{id}/state": {
            "get": {
                "summary": "The state, now or right after event `version`, as the caller sees it",
                "parameters": [
                    GAME_ID,
                    {"name": "version", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                ],
                "responses": {**ok(JSON_OBJECT), **problem_responses(404, 422)},
            }
        },
    },
}


def query(name: str, schema: dict[str, Any], text: str = "") -> dict[str, Any]:
    return {"name": name, "in": "query", "schema": schema, "description": text}


def get(summary: str, params: list[dict[str, Any]], schema: dict[str, Any], *codes: int) -> Any:
    return {
        "get": {
            "summary": summary,
            "parameters": params,
            "responses": {**ok(schema), **problem_responses(*codes)},
        }
    }


KIND_PATH = {
    "name": "kind",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "enum": ["imhotep", "amun_re"]},
}
PAGE = [
    query("limit", {"type": "integer", "minimum": 1, "maximum": 200}),
    query("cursor", {"type": "string"}, "nextCursor of the previous page"),
    query(
        "minPosition", {"type": "integer"}, "wait (5 s at most) until the read models applied it"
    ),
]
SUMMARY: dict[str, Any] = {
    "type": "object",
    "properties": {
        "gameId": {"type": "string"},
        "kind": {"type": "string", "enum": ["IMHOTEP", "AMUN_RE"]},
        "status": {"type": "string", "enum": ["OPEN", "ACTIVE", "FINISHED", "ABANDONED"]},
        "options": JSON_OBJECT,
        "seats": {"type": "array", "items": JSON_OBJECT},
        "freeSeats": {"type": "integer"},
        "activeSeats": {"type": "array", "items": {"type": "integer"}},
        "scores": {"type": "array", "items": {"type": "integer"}},
        "winners": {"type": ["array", "null"], "items": {"type": "integer"}},
        "version": {"type": "integer"},
        "createdAt": {"type": "string"},
        "lastActivity": {"type": "string"},
    },
}
SUMMARIES = {
    "type": "object",
    "properties": {
        "items": {"type": "array", "items": SUMMARY},
        "nextCursor": {"type": ["string", "null"]},
    },
}
KIND_QUERY = query("kind", {"type": "string", "enum": ["IMHOTEP", "AMUN_RE"]})

OPENAPI["paths"].update(
    {
        "/summaries": get(
            "Game summaries from the read model, newest first",
            [
                KIND_QUERY,
                query("status", {"type": "string"}),
                query("player", {"type": "string"}),
                *PAGE,
            ],
            SUMMARIES,
            422,
        ),
        "/lobby": get(
            "Open tables with free seats, newest first",
            [
                KIND_QUERY,
                query("options", {"type": "string"}, "a JSON object of options to match"),
                *PAGE,
            ],
            SUMMARIES,
            422,
        ),
        "/players/{id}/profile": get(
            "A player's games played and won, average score, recent games",
            [GAME_ID],
            JSON_OBJECT,
            404,
        ),
        "/leaderboards/{kind}": get(
            "Ratings (multi-player Elo), best first",
            [KIND_PATH, query("limit", {"type": "integer"}), query("offset", {"type": "integer"})],
            JSON_OBJECT,
            404,
            422,
        ),
        "/statistics/{kind}": get("Points by scoring source", [KIND_PATH], JSON_OBJECT, 404),
        "/read-models": get("How far each read model has applied the store", [], JSON_OBJECT),
    }
)
