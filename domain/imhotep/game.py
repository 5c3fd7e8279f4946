"""Imhotep's registration (``domain.registry``): named in pyproject's ``papyrus.games``."""

from pathlib import Path

from domain.imhotep import catalog, evaluation, view_shape
from domain.imhotep.action_catalog import CATALOG
from domain.imhotep.rules import RULES
from domain.registry import GameModule

GAME = GameModule(
    kind="imhotep",
    name="Imhotep",
    summary="Imhotep, 2-4 players.",
    rules=RULES,
    actions=CATALOG,
    board=catalog.catalog,
    view=view_shape.VIEW,
    evaluate=evaluation.projected,
    rollout_depth=200,
    margin_scale=10.0,
    web_board=Path(__file__).parent / "web" / "board.js",
    order=1,
)
