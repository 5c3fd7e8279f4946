"""The games Papyrus hosts, by kind (``GameKind`` in the API, lower-case here)."""

from __future__ import annotations

from typing import Any

from domain.contract import Rules


def rules_for(kind: str) -> Rules[Any]:
    """The rules of ``kind``; ``KeyError`` for a kind that does not exist."""
    if kind == "imhotep":
        from domain.imhotep.rules import RULES as imhotep

        return imhotep
    if kind == "amun_re":
        from domain.amun_re.rules import RULES as amun_re

        return amun_re
    raise KeyError(kind)


KINDS = ("imhotep", "amun_re")
