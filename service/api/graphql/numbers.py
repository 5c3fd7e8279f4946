"""Number literals of a GraphQL document, bounded in length before anything reads them.

graphql-core reads an ``Int`` literal with ``int(text)``: past Python's 4,300 digits that
raises a ``ValueError`` (not a ``GraphQLError``), which validation wrapped as an unexpected
error, so a document such as ``{ games(first: 999…9) { … } }`` was answered ``INTERNAL`` and
logged with every digit (issue #20); a ``JSON`` literal (``act(action: {n: 999…9})``) likewise.
No value this API takes needs more than a handful of digits (an ``Int`` has at most 10), so a
number literal longer than ``MAX_NUMBER_LENGTH`` characters is refused as ``BAD_INPUT`` when the
document is parsed, naming its length and position, never its digits.
"""

from __future__ import annotations

import re
from typing import Any

from graphql import FloatValueNode, GraphQLError, IntValueNode, Visitor, visit
from graphql.language import DocumentNode

#: the longest number literal a document may hold (sign, digits, point and exponent)
MAX_NUMBER_LENGTH = 100
#: a run of digits that long: only then is the document walked (nearly never)
LONG_DIGITS = re.compile(rf"[0-9]{{{MAX_NUMBER_LENGTH // 2},}}")


class TooLongNumber(Visitor):
    """Finds the first number literal longer than ``MAX_NUMBER_LENGTH``."""

    def __init__(self) -> None:
        super().__init__()
        self.found: IntValueNode | FloatValueNode | None = None

    def enter_int_value(self, node: IntValueNode, *_: Any) -> Any:
        return self.check(node)

    def enter_float_value(self, node: FloatValueNode, *_: Any) -> Any:
        return self.check(node)

    def check(self, node: IntValueNode | FloatValueNode) -> Any:
        if len(node.value) > MAX_NUMBER_LENGTH:
            self.found = node
            return self.BREAK
        return None


def refuse_long_numbers(query: str, document: DocumentNode) -> None:
    """``GraphQLError`` (answered ``BAD_INPUT``) if ``document``, parsed from ``query``, holds a
    number literal longer than ``MAX_NUMBER_LENGTH`` characters."""
    if LONG_DIGITS.search(query) is None:
        return
    finder = TooLongNumber()
    visit(document, finder)
    node = finder.found
    if node is not None:
        raise GraphQLError(
            f"A number in the document has {len(node.value)} characters; numbers have at "
            f"most {MAX_NUMBER_LENGTH} here (an Int at most 10 digits).",
            node,
        )
