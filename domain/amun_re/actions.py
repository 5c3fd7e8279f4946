"""Reading action parameters (§0 Atomic decisions): exact keys and JSON types, else BadAction.

An action is a JSON dict ``{"type": name, ...params}``; a missing, extra or wrongly typed
parameter is malformed (``BadAction``), while a well-formed action the rules forbid now is an
``IllegalAction`` naming the rule.
"""

from __future__ import annotations

from typing import Any

from domain.amun_re import data
from domain.contract import JSON, BadAction


def read(action: JSON, **spec: type) -> dict[str, Any]:
    """The parameters of ``action``, checked against ``spec`` (name → int, bool or str)."""
    keys = set(action) - {"type"}
    if keys != set(spec):
        wanted = ", ".join(sorted(spec)) or "no parameters"
        got = ", ".join(sorted(keys)) or "none"
        raise BadAction(f"'{action['type']}' takes {wanted}; got {got}")
    out: dict[str, Any] = {}
    for name, kind in spec.items():
        value = action[name]
        if type(value) is not kind:
            raise BadAction(f"'{name}' must be {kind.__name__}, not {value!r}")
        out[name] = value
    return out


def province_of(value: str) -> int:
    """A province id (§5.1) as its index."""
    index = data.PROVINCE_INDEX.get(value)
    if index is None:
        raise BadAction(f"unknown province {value!r}; provinces are {', '.join(data.PROVINCES)}")
    return index


def card_of(value: str) -> int:
    """A Favour card id (§5.5) as its index."""
    index = data.CARD_INDEX.get(value)
    if index is None:
        raise BadAction(f"unknown Favour card {value!r}; cards are {', '.join(data.CARDS)}")
    return index
