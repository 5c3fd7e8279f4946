"""The game registry (``domain.registry``): games come from the entry-point group
``papyrus.games`` of the installed distributions, each a ``GameModule`` named by its kind."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain import registry
from domain.registry import GameModule, RegistryError


@pytest.fixture
def distribution(tmp_path: Path) -> Iterator[Path]:
    """A folder on ``sys.path`` where a test writes a distribution's metadata; the registry
    is read afresh while it is there and after it is gone."""
    sys.path.insert(0, str(tmp_path))
    registry.games.cache_clear()
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("fake_game")]:
            del sys.modules[name]
        registry.games.cache_clear()


def install(folder: Path, entry: str, source: str) -> None:
    """A distribution ``fake-game`` whose module ``fake_game`` registers ``entry``."""
    info = folder / "fake_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[papyrus.games]\n{entry}\n")
    (folder / "fake_game.py").write_text(source)


def test_the_shipped_games_are_registered_in_order() -> None:
    assert registry.kinds() == ("imhotep", "amun_re")
    assert [game.name for game in registry.games()] == ["Imhotep", "Amun-Re"]
    for game in registry.games():
        assert registry.rules_for(game.kind) is game.rules
        assert registry.catalog_for(game.kind) is game.actions
        assert game.rules.min_seats <= game.rules.max_seats
    with pytest.raises(KeyError):
        registry.game("chess")


def test_a_registered_game_is_read_from_its_entry_point(distribution: Path) -> None:
    install(
        distribution,
        "imhotep_again = fake_game:GAME",
        "import dataclasses\nfrom domain.imhotep.game import GAME as SHIPPED\n"
        "GAME = dataclasses.replace(SHIPPED, order=0)\n",
    )
    with pytest.raises(RegistryError, match="'imhotep_again' declares kind 'imhotep'"):
        registry.games()


def test_an_entry_point_that_is_not_a_game_is_refused(distribution: Path) -> None:
    install(distribution, "fake = fake_game:GAME", "GAME = object()\n")
    with pytest.raises(RegistryError, match="'fake' is not a GameModule"):
        registry.games()


def test_a_game_whose_rules_name_another_kind_is_refused() -> None:
    from domain.imhotep.game import GAME

    with pytest.raises(ValueError, match="rules and its action catalog name another kind"):
        GameModule(**{**GAME.__dict__, "kind": "imhotep2"})
    with pytest.raises(ValueError, match="lower-case identifier"):
        GameModule(**{**GAME.__dict__, "kind": "Amun-Re"})
