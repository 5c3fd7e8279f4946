"""Every GraphQL document of the web client validates against the committed schema (issue #16,
acceptance 4: the client uses only operations present in ``schema.graphql``).

The documents are the exported template strings of ``service/api/web/static/queries.js``; a
``${NAME}`` inside one is replaced by that other export's text, as the browser does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from graphql import build_schema, parse, validate
from graphql.language import FragmentDefinitionNode, OperationDefinitionNode

from service.api.web import STATIC

ROOT = Path(__file__).resolve().parents[2]
EXPORT = re.compile(r"export const (\w+) = `(.*?)`;", re.S)
PLACEHOLDER = re.compile(r"\$\{(\w+)\}")


def documents() -> dict[str, str]:
    """Each export of queries.js with its ``${...}`` interpolated."""
    source = (STATIC / "queries.js").read_text()
    raw = dict(EXPORT.findall(source))
    assert raw, "queries.js exports no document"
    # nothing else in the file (comments aside): no document is built at run time
    code = re.sub(r"^\s*//.*$", "", EXPORT.sub("", source), flags=re.M)
    assert "`" not in code

    def expand(name: str, seen: tuple[str, ...] = ()) -> str:
        assert name not in seen, f"{name} includes itself"
        return PLACEHOLDER.sub(lambda m: expand(m.group(1), (*seen, name)), raw[name])

    return {name: expand(name) for name in raw}


def operations() -> dict[str, str]:
    return {
        name: text
        for name, text in documents().items()
        if any(isinstance(d, OperationDefinitionNode) for d in parse(text).definitions)
    }


SCHEMA = build_schema((ROOT / "schema.graphql").read_text())


@pytest.mark.parametrize("name", sorted(operations()))
def test_every_operation_validates_against_the_committed_schema(name: str) -> None:
    """A document of queries.js that sends an operation: graphql-core's ``validate`` finds no
    error against schema.graphql (fields, arguments, types, fragments, variables)."""
    text = operations()[name]
    errors = validate(SCHEMA, parse(text))
    assert not errors, f"{name}: " + "; ".join(e.message for e in errors)


def test_every_fragment_is_sent_by_some_operation() -> None:
    """A fragment no operation uses would be checked by nothing: each one is part of one."""
    texts = documents()
    used = " ".join(operations().values())
    for name, text in texts.items():
        for definition in parse(text).definitions:
            if isinstance(definition, FragmentDefinitionNode):
                assert f"...{definition.name.value}" in used, f"fragment of {name} unused"


def test_the_validation_catches_a_field_the_schema_lacks() -> None:
    """The check is real: a document asking for a missing field fails it."""
    errors = validate(SCHEMA, parse("query { game(id: 1) { id noSuchField } }"))
    assert any("noSuchField" in e.message for e in errors)


def test_the_client_sends_no_document_written_elsewhere() -> None:
    """Every ``gql(...)`` / ``subscribe(...)`` call of the client's modules names an export of
    queries.js (an UPPER_CASE constant imported from it), so the documents checked above are
    all the client sends."""
    call = re.compile(r"\b(gql|subscribe)\(\s*([^,)\s]+)")
    names = set(documents())
    calls = 0
    for path in sorted(STATIC.rglob("*.js")):
        if path.name in ("queries.js", "api.js"):
            continue
        for _, first in call.findall(path.read_text()):
            calls += 1
            assert first in names or first in ("document", "mutation"), f"{path.name}: {first}"
    assert calls >= 5
