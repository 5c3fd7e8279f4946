"""Small helpers for turning a JSON view into typed objects (copy only what is there)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def opt(d: dict[str, Any], key: str, make: Callable[[Any], T]) -> T | None:
    """``make(d[key])``, or None when the key is absent or null (nothing is invented)."""
    value = d.get(key)
    return None if value is None else make(value)


def ints(values: list[Any]) -> list[int]:
    return list(values)


def strs(values: list[Any]) -> list[str]:
    return list(values)


def opt_ints(d: dict[str, Any], key: str) -> list[int] | None:
    return opt(d, key, ints)


def opt_strs(d: dict[str, Any], key: str) -> list[str] | None:
    return opt(d, key, strs)
