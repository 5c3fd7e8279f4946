"""schema.graphql is generated from the code (``papyrus schema --output schema.graphql``)."""

from pathlib import Path

from service.api.graphql.schema import schema
from service.cli import sdl


def test_committed_schema_matches_the_code() -> None:
    committed = (Path(__file__).parent.parent / "schema.graphql").read_text(encoding="utf-8")
    assert committed == sdl(schema), (
        "schema.graphql is out of date: run `papyrus schema --output schema.graphql`"
    )


CONTRACT = {
    ("Mutation", "registerPlayer"): ({"name": "String!"}, "PlayerSession!"),
    ("Mutation", "createGame"): ({"input": "CreateGameInput!"}, "Game!"),
    ("Mutation", "joinGame"): ({"gameId": "ID!", "seat": "Int"}, "Game!"),
    ("Mutation", "addBot"): ({"gameId": "ID!", "seat": "Int", "strategy": "String"}, "Game!"),
    # docs/API.md has `action: JSON!`; it is nullable since `typedAction` may be sent instead
    # (exactly one of the two, BAD_INPUT otherwise), which every `JSON!` variable still fits
    ("Mutation", "act"): (
        {"gameId": "ID!", "action": "JSON", "expectedVersion": "Int", "idempotencyKey": "String"},
        "ActResult!",
    ),
    ("Query", "me"): ({}, "Player"),
    ("Query", "game"): ({"id": "ID!"}, "Game"),
    ("Query", "games"): (
        {"kind": "GameKind", "status": "GameStatus", "first": "Int", "after": "String"},
        "GameConnection!",
    ),
    ("Subscription", "gameEvents"): ({"gameId": "ID!", "afterVersion": "Int"}, "GameEvent!"),
    ("Game", "legalActions"): ({}, "[JSON!]!"),
    ("Game", "scores"): ({}, "[Int!]!"),
    ("Game", "activeSeats"): ({}, "[Int!]!"),
    ("Game", "mySeat"): ({}, "Int"),
    ("Game", "state"): ({}, "JSON!"),
    # nullable: a version the game does not have is an error on this field alone
    ("Game", "stateAt"): ({"version": "Int!"}, "JSON"),
    ("Game", "events"): ({"first": "Int", "after": "String"}, "GameEventConnection!"),
    ("Game", "result"): ({}, "GameResult"),
    ("Game", "version"): ({}, "Int!"),
    ("Seat", "isBot"): ({}, "Boolean!"),
    ("GameEvent", "at"): ({}, "DateTime!"),
    ("GameEvent", "seat"): ({}, "Int"),
    ("GameEvent", "data"): ({}, "JSON!"),
    ("GameResult", "winners"): ({}, "[Int!]!"),
}


def test_the_schema_keeps_the_names_of_the_api_contract() -> None:
    graphql_schema = schema._schema
    for (type_name, field_name), (args, returns) in CONTRACT.items():
        field = graphql_schema.get_type(type_name).fields[field_name]  # type: ignore[union-attr]
        assert str(field.type) == returns, (type_name, field_name)
        actual = {name: str(arg.type) for name, arg in field.args.items()}
        assert args.items() <= actual.items(), (type_name, field_name, actual)
        assert all(not str(a.type).endswith("!") for n, a in field.args.items() if n not in args)
    assert set(graphql_schema.get_type("GameKind").values) == {"IMHOTEP", "AMUN_RE"}  # type: ignore[union-attr]
    assert set(graphql_schema.get_type("GameStatus").values) == {  # type: ignore[union-attr]
        "OPEN",
        "ACTIVE",
        "FINISHED",
        "ABANDONED",
    }


def test_every_rest_route_is_in_the_openapi_document() -> None:
    from fastapi.routing import APIRoute

    from service.api.rest import ROUTERS, openapi_document

    routes = {
        (route.path, method.lower())
        for router in ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute)
        for method in route.methods
    }
    document = openapi_document()
    assert routes == {(path, method) for path, item in document["paths"].items() for method in item}
    assert document["openapi"].startswith("3.1")
