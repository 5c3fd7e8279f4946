"""What the view shapes (``domain/<game>/view_shape.py``) are declared with, besides plain types.

``Closed`` marks a string of the view whose values form a closed set of domain ids (a card, a
province, a phase): declared as ``Annotated[str, Closed(...)]``, it is a plain string in the JSON
view and an enum in the typed GraphQL view (``service/api/graphql/gameviews``). The ids come from
the domain's own data (``data.json`` or the constants the rules use), never from a second list.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Closed:
    """A closed set of domain ids: ``name`` of the typed enum, the ``ids`` in domain order, what
    one id is (``description``) and, optionally, a label per id (``labels[i]`` for ``ids[i]``).

    The enum value of an id is the id upper-cased (``paved_path`` → ``PAVED_PATH``)."""

    name: str
    ids: tuple[str, ...]
    description: str
    labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if len(set(self.ids)) != len(self.ids) or not self.ids:
            raise ValueError(f"{self.name}: ids must be distinct and not empty")
        if self.labels is not None and len(self.labels) != len(self.ids):
            raise ValueError(f"{self.name}: one label per id")
        for value in self.ids:
            if not value.upper().replace("_", "").isalnum() or value[0].isdigit():
                raise ValueError(f"{self.name}: {value!r} is no enum value name once upper-cased")
        if len({value.upper() for value in self.ids}) != len(self.ids):
            raise ValueError(f"{self.name}: two ids upper-case alike")

    def label(self, index: int) -> str:
        value = self.ids[index]
        if self.labels is None:
            return f'The domain id "{value}".'
        return f'{self.labels[index]} (domain id "{value}").'
