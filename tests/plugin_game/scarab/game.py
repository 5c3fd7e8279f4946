"""Scarab's registration (``domain.registry``): named in the entry-point group
``papyrus.games`` of its own distribution (``tests/plugin_game/scarab-1.0.dist-info``), so a
process finds it exactly when ``tests/plugin_game`` is on its path; nothing else names it.

A game is a whole game in 20 turns (R6) with nothing automatic, so a rollout of 40 actions always
reaches the end; scores run to about 25, so 8 points of margin is "clearly ahead"."""

from scarab import catalog, evaluation, view_shape
from scarab.action_catalog import CATALOG
from scarab.rules import RULES

from domain.registry import GameModule

GAME = GameModule(
    kind="scarab",
    name="Scarab",
    summary="Scarab, 2-4 players: beat the top card, keep your hand hidden.",
    rules=RULES,
    actions=CATALOG,
    board=catalog.catalog,
    view=view_shape.VIEW,
    evaluate=evaluation.projected,
    rollout_depth=40,
    margin_scale=8.0,
    order=3,
)
