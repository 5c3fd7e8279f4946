"""Refusals, named after the rule they enforce (§6, §7.1, §9.6, §10)."""

from __future__ import annotations

from domain.contract import BadAction, IllegalAction


class NoSuchShipOrSlot(IllegalAction):
    """§1.3 / §0: ships 1–4 of the round, slots 1 … capacity."""


class SlotIsTaken(IllegalAction):
    """§6.2: only an empty slot of an unsailed ship takes a stone."""


class ShipHasSailed(IllegalAction):
    """§7.1 (a): a sailed ship never takes stones or sails again."""


class ShipBelowMinimum(IllegalAction):
    """§7.1 (b): a ship sails only with its minimum load."""


class SiteIsDocked(IllegalAction):
    """§7.1 (c): one ship per site per round."""


class SledIsEmpty(IllegalAction):
    """§6.2: placing needs a stone on the sled."""


class NoStonesToGet(IllegalAction):
    """§6.1: ``get_stones`` needs room on the sled and a stone in the quarry."""


class CardNotHeld(IllegalAction):
    """§6.4: a blue card is played only by a player holding it."""


class CardNotPlayable(IllegalAction):
    """§9.6, R-10: a blue card is legal only if every step of its effect can be carried out."""


class PassNotAllowed(IllegalAction):
    """§6.5, R-13: passing is legal only when nothing else is."""


class DecisionPending(IllegalAction):
    """§10.1: while a decision is pending only its options may be chosen."""


class NotAnOption(IllegalAction):
    """§10.2: an option that is not in the list of the pending decision."""


class GameIsOver(IllegalAction):
    """§13: after the final scoring nobody acts."""


class MalformedAction(BadAction):
    """An action with an unknown type, missing or extra keys, or wrongly typed values."""
