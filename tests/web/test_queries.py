"""Every GraphQL document of the web client validates against the committed schema (issue #16,
acceptance 4: the client uses only operations present in ``schema.graphql``).

The documents are the exported template strings of ``service/api/web/static/queries.js``; a
``${NAME}`` inside one is replaced by that other export's text, as the browser does. ``${VIEW}``
is the game's part of a document, its board module's: the client fills it in for the game's
board (``kinds.js`` ``withBoard``: the typed view through the board's ``VIEW`` fragment, or the
JSON ``state`` for a board without one), so such a document is validated once per board module
the server ships (each registered game's own, and the generic board), as filled in for it.

The texts are read by ``service.api.web.documents``, as the trusted documents are
(``service.api.graphql.trusted``): what is validated here is what the server trusts by id.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from graphql import GraphQLUnionType, build_schema, parse, validate
from graphql.language import FragmentDefinitionNode, OperationDefinitionNode

from domain import registry
from service.api.web import STATIC
from service.api.web import documents as documents_of_the_client
from service.api.web.documents import BOARD_PART, STATE_PART, TYPED_PART, documents

ROOT = Path(__file__).resolve().parents[2]


def own_boards() -> dict[str, Path]:
    """Each registered game's own board module, by kind (the generic board is added by
    ``service.api.web.documents``)."""
    return {game.kind: game.web_board for game in registry.games() if game.web_board}


@cache
def boards() -> dict[str, tuple[str, str | None]]:
    """Every board module the server ships by name: its ``VIEW`` fragment and ``VIEW_NAME``."""
    return documents_of_the_client.boards(own_boards())


def filled() -> dict[str, str]:
    """Each document as the client sends it: one holding the board's part once per board
    (``NAME@board``)."""
    return documents_of_the_client.filled(own_boards())


def operations() -> dict[str, str]:
    return {
        name: text
        for name, text in filled().items()
        if any(isinstance(d, OperationDefinitionNode) for d in parse(text).definitions)
    }


def test_the_documents_sent_are_the_operations() -> None:
    """``documents.sent`` (what the trusted documents are made of) tells an operation from a
    fragment by its first word: it agrees with graphql-core's parse of every document."""
    assert documents_of_the_client.sent(own_boards()) == operations()


SCHEMA = build_schema((ROOT / "schema.graphql").read_text())


@pytest.mark.parametrize("name", sorted(operations()))
def test_every_operation_validates_against_the_committed_schema(name: str) -> None:
    """A document of queries.js that sends an operation (one holding the board's part: as
    filled in for each board): graphql-core's ``validate`` finds no error against
    schema.graphql (fields, arguments, types, fragments, variables)."""
    text = operations()[name]
    errors = validate(SCHEMA, parse(text))
    assert not errors, f"{name}: " + "; ".join(e.message for e in errors)


def test_the_documents_hold_the_board_s_part() -> None:
    """The game page's and the replay's documents ask for the board's part (so that each game
    is read as its board draws it), and withBoard fills it in as this test does."""
    holding = {name for name, text in documents().items() if BOARD_PART in text}
    assert {"GAME", "REPLAY_STEPS"} <= holding
    kinds = (STATIC / "kinds.js").read_text()
    assert TYPED_PART.format(name="${board.VIEW_NAME}") in kinds
    assert f'"{STATE_PART}"' in kinds


def test_each_board_s_view_is_one_fragment_on_a_member_of_the_game_view() -> None:
    """A board's ``VIEW`` is one fragment, named ``VIEW_NAME``, on a member of ``GameView``;
    each shipped game's board has one (the generic board has none: it reads ``state``)."""
    members = SCHEMA.get_type("GameView")
    assert isinstance(members, GraphQLUnionType)
    typed = {member.name for member in members.types}
    for board, (view, name) in boards().items():
        if board == "generic":
            assert (view, name) == ("", None)
            continue
        (definition,) = parse(view).definitions
        assert isinstance(definition, FragmentDefinitionNode), board
        assert definition.name.value == name, board
        assert definition.type_condition.name.value in typed, board


def test_every_fragment_is_sent_by_some_operation() -> None:
    """A fragment no operation uses would be checked by nothing: each one is part of one."""
    used = " ".join(operations().values())
    for name, text in filled().items():
        for definition in parse(text).definitions:
            if isinstance(definition, FragmentDefinitionNode):
                assert f"...{definition.name.value}" in used, f"fragment of {name} unused"


def test_the_validation_catches_a_field_the_schema_lacks() -> None:
    """The check is real: a document asking for a missing field fails it."""
    errors = validate(SCHEMA, parse("query { game(id: 1) { id noSuchField } }"))
    assert any("noSuchField" in e.message for e in errors)


def test_the_client_sends_no_document_written_elsewhere() -> None:
    """Every ``gql(...)`` / ``subscribe(...)`` call of the client's modules (the board modules
    too) names an export of queries.js (an UPPER_CASE constant imported from it), the ones that
    hold the board's part through ``withBoard(NAME, board)``, so the documents checked above
    are all the client sends."""
    call = re.compile(r"\b(gql|subscribe)\(\s*(withBoard\(\s*)?([^,)\s]+)")
    texts = documents()
    modules = sorted(STATIC.rglob("*.js"))
    modules += [game.web_board for game in registry.games() if game.web_board]
    calls = 0
    for path in modules:
        if path.name in ("queries.js", "api.js"):
            continue
        for _, board, first in call.findall(path.read_text()):
            calls += 1
            where = f"{path.name}: {first}"
            if first in ("document", "mutation"):
                continue
            assert first in texts, where
            assert (BOARD_PART in texts[first]) == bool(board), where
    assert calls >= 5
