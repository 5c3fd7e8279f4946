"""The static catalog of Scarab: what a renderer needs that the view does not carry (R1, R2),
as a pure function of the constants the rules use (``state.py``), never a second list.

``catalog(rules_version)`` returns (JSON; keys in camelCase as the API shows them)::

    {"game": "scarab", "rulesVersion", "dataVersion", "spec": "RULES.md",
     "players": {"min", "max"}, "deckSize", "handSize",
     "cards": [{"value", "count"}]  (in value order),
     "scoring": {"play", "discard"}  (one line each, R3.1 / R3.2)}

The four first keys are the ones every game's catalog carries (``BoardCatalog`` in
``service/api/rest/board.py``).
"""

from __future__ import annotations

from scarab.state import COPIES, DECK, HAND, MAX_SEATS, MIN_SEATS, VALUES

from domain.contract import JSON

SPEC = "RULES.md"
#: the version of this catalog's layout (there is no data file: the constants are the data)
DATA_VERSION = 1


def catalog(rules_version: str) -> JSON:
    """The static catalog (module docstring) for rules version ``rules_version``."""
    return {
        "game": "scarab",
        "rulesVersion": rules_version,
        "dataVersion": DATA_VERSION,
        "spec": SPEC,
        "players": {"min": MIN_SEATS, "max": MAX_SEATS},
        "deckSize": len(DECK),
        "handSize": HAND,
        "cards": [{"value": value, "count": COPIES} for value in VALUES],
        "scoring": {
            "play": "Score the card's value if it beats the row's top card (R3.1).",
            "discard": "No points; the row's top card stays (R3.2).",
        },
    }
