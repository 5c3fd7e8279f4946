"""Amun-Re's registration (``domain.registry``): named in pyproject's ``papyrus.games``."""

from pathlib import Path

from domain.amun_re import catalog, evaluation, view_shape
from domain.amun_re.action_catalog import CATALOG
from domain.amun_re.rules import RULES
from domain.registry import GameModule

GAME = GameModule(
    kind="amun_re",
    name="Amun-Re",
    summary="Amun-Re, 3-5 players, with the Expanded Pack modules as options.",
    rules=RULES,
    actions=CATALOG,
    board=catalog.catalog,
    view=view_shape.VIEW,
    evaluate=evaluation.projected,
    rollout_depth=60,
    margin_scale=12.0,
    web_board=Path(__file__).parent / "web" / "board.js",
    order=2,
)
