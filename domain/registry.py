"""The games Papyrus hosts: one ``GameModule`` per game, registered by the game's own package.

A game is one package and one registration. Its package declares a ``GameModule`` (its rules,
action catalog, board catalog, view shape, display name, the bots' evaluation and, optionally, a
board module for the web client) and names it in the entry-point group ``papyrus.games`` of
its distribution's metadata::

    [project.entry-points."papyrus.games"]
    imhotep = "domain.imhotep.game:GAME"

Everything else (``GameKind`` and the REST enums, typed views, action input, catalogs, read
models, bots, the lobby and play pages) reads the registry, never a game by name. The entry
point's name is the game's kind (``GameKind`` is it upper-cased); games are listed by ``order``,
then kind. Loading reads the installed distributions' metadata once per process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from domain.actions import Catalog
from domain.contract import JSON, Rules

#: the entry-point group a game's package registers its ``GameModule`` in
GROUP = "papyrus.games"


@dataclass(frozen=True)
class GameModule:
    """Everything the platform needs of one game."""

    #: the game's kind: lower-case, ``[a-z][a-z0-9_]*`` (``GameKind`` is it upper-cased)
    kind: str
    #: its display name ("Amun-Re")
    name: str
    #: one line for people choosing a game ("Imhotep, 2-4 players."): ``GameKind``'s description
    summary: str
    rules: Rules[Any]
    #: the action catalog (``domain.actions``): the schema of every action
    actions: Catalog
    #: the static board catalog for a rules version (``catalog(kind)``, ``/catalog/{kind}/board``)
    board: Callable[[str], JSON]
    #: the root of the view shape (``domain.<game>.view_shape``): the typed GraphQL view
    view: type
    #: every seat's projected points on a (determinized) state: the bots' judgement
    evaluate: Callable[[Any], list[float]]
    #: actions an ``mcts`` rollout plays before it values the position instead of finishing
    rollout_depth: int = 100
    #: points of margin worth "clearly ahead" (the ``mcts`` reward's scale)
    margin_scale: float = 10.0
    #: the web client's board module (an ES module) for this game; ``None``: the generic board
    web_board: Path | None = None
    #: where the game is listed among the others (then by kind)
    order: int = 100

    def __post_init__(self) -> None:
        if not self.kind.isidentifier() or self.kind != self.kind.lower():
            raise ValueError(f"a game's kind is a lower-case identifier, not {self.kind!r}")
        if self.rules.kind != self.kind or self.actions.kind != self.kind:
            raise ValueError(f"{self.kind}: its rules and its action catalog name another kind")


class RegistryError(Exception):
    """An entry point of ``papyrus.games`` that is not a game Papyrus can host."""


@functools.cache
def games() -> tuple[GameModule, ...]:
    """Every registered game, by ``order`` then kind."""
    found: dict[str, GameModule] = {}
    for entry in entry_points(group=GROUP):
        game = entry.load()
        if not isinstance(game, GameModule):
            raise RegistryError(f"{GROUP} entry point {entry.name!r} is not a GameModule")
        if game.kind != entry.name:
            raise RegistryError(f"{GROUP} entry point {entry.name!r} declares kind {game.kind!r}")
        if entry.name in found and found[entry.name] is not game:
            raise RegistryError(f"two games registered as {entry.name!r}")
        found[entry.name] = game
    if not found:  # a source tree run without its distribution installed
        raise RegistryError(f"no game is registered in {GROUP}: install Papyrus (pip install -e .)")
    return tuple(sorted(found.values(), key=lambda game: (game.order, game.kind)))


def kinds() -> tuple[str, ...]:
    """Every registered game's kind, in ``games()`` order."""
    return tuple(game.kind for game in games())


def game(kind: str) -> GameModule:
    """The game of ``kind``; ``KeyError`` for a kind that is not registered."""
    for registered in games():
        if registered.kind == kind:
            return registered
    raise KeyError(kind)


def rules_for(kind: str) -> Rules[Any]:
    """The rules of ``kind``; ``KeyError`` for a kind that is not registered."""
    return game(kind).rules


def catalog_for(kind: str) -> Catalog:
    """The action catalog of ``kind``; ``KeyError`` for a kind that is not registered."""
    return game(kind).actions

