"""Small helpers for turning a JSON view into typed objects (copy only what is there)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from strawberry.types.base import StrawberryOptional

T = TypeVar("T")


def from_view(cls: type[T], d: dict[str, Any], **given: Any) -> T:
    """``cls`` built from the JSON view ``d``: each field not ``given`` is the view's key of the
    same name (required for a non-null field, None when a nullable one is left out)."""
    values = dict(given)
    for field in cls.__strawberry_definition__.fields:  # type: ignore[attr-defined]
        name = field.python_name
        if name not in values and field.base_resolver is None:
            optional = isinstance(field.type, StrawberryOptional)
            values[name] = d.get(name) if optional else d[name]
    return cls(**values)


def opt(d: dict[str, Any], key: str, make: Callable[[Any], T]) -> T | None:
    """``make(d[key])``, or None when the key is absent or null (nothing is invented)."""
    value = d.get(key)
    return None if value is None else make(value)
