"""Table options (§2) and setup (§6, R6.1-R6.6).

Options: ``classic_bank_majority`` and ``no_farmer_points`` (bool, default false),
``start_player`` (a seat, or ``"random"``, the default: R6.5) and the Expanded Pack modules
``afterlife``, ``statues``, ``pharaoh`` and ``promo_favours`` (bool, default false, any
combination, §16); ``officials`` is rejected because no rules text exists (§2, §16.5).

``setup`` records every setup shuffle in ``game_prepared`` (the Old Kingdom province deck, the
Favour draw pile, the start player, and with the modules on the statue deck ``statue_deck`` and
the tomb stack ``tomb_stack``, R6.7) and then reveals round 1. The module shuffles come after the
base ones, so a base game draws the same randomness as before the modules existed.
"""

from __future__ import annotations

import random
from typing import Any

from domain.amun_re import data
from domain.amun_re.state import State
from domain.contract import JSON, BadOptions, Event

BOOL_OPTIONS = ("classic_bank_majority", "no_farmer_points", *data.MODULES)
VALID_KEYS = (*BOOL_OPTIONS, "start_player")


def normalize_options(seats: int, options: JSON) -> JSON:
    """§2: the complete option set, or BadOptions naming the valid keys and values."""
    if type(seats) is not int or not data.MIN_PLAYERS <= seats <= data.MAX_PLAYERS:
        raise BadOptions(
            f"Amun-Re is played by {data.MIN_PLAYERS} to {data.MAX_PLAYERS} players, not {seats}",
            rule="R6.1",
        )
    if not isinstance(options, dict):
        raise BadOptions("options must be an object")
    if "officials" in options:
        raise BadOptions(
            "the Officials variant is not offered: no rules text for it exists", rule="§16.5"
        )
    unknown = sorted(set(options) - set(VALID_KEYS))
    if unknown:
        raise BadOptions(
            f"unknown option(s) {', '.join(unknown)}; valid options are {', '.join(VALID_KEYS)}",
            rule="§2",
        )
    out: dict[str, Any] = {}
    for key in BOOL_OPTIONS:
        value = options.get(key, data.OPTION_DEFAULTS[key])
        if type(value) is not bool:
            raise BadOptions(f"option {key} must be true or false, not {value!r}", rule="§2")
        out[key] = value
    start = options.get("start_player", "random")
    if start != "random" and (type(start) is not int or not 0 <= start < seats):
        raise BadOptions(
            f"start_player must be 'random' or a seat 0..{seats - 1}, not {start!r}", rule="R6.5"
        )
    out["start_player"] = start
    return out


def favour_deck(options: JSON) -> list[str]:
    """R6.3: the Favour cards of the enabled modules in data order (before the Architects leave)."""
    cards: list[str] = []
    for i, cid in enumerate(data.CARDS):
        module = data.CARD_MODULE[i]
        if module == "base" or options.get(module, False):
            cards += [cid] * data.CARD_COPIES[i]
    return cards


def opening_events(seats: int, options: JSON, rng: random.Random) -> list[Event]:
    """R6.2 province set, R6.3 Favour deck, R6.5 start player: the shuffles are in the event."""
    provinces = list(data.PROVINCES)
    rng.shuffle(provinces)
    deck = provinces[: data.CARDS_PER_PLAYER * seats]
    pile = favour_deck(options)
    for _ in range(seats * data.START_ARCHITECTS):
        pile.remove("architect")
    rng.shuffle(pile)
    start = options["start_player"]
    if start == "random":
        start = rng.randrange(seats)
    d: dict[str, Any] = {"province_deck": deck, "draw_pile": pile, "start_player": start}
    if options.get("statues"):  # R6.7: the statue deck
        statues = list(data.STATUES)
        rng.shuffle(statues)
        d["statue_deck"] = statues
    if options.get("afterlife"):  # R6.7, R16.1.1: the tomb stack
        tiles = [t for t, n in zip(data.TOMB_TILES, data.TOMB_COPIES, strict=True)
                 for _ in range(n)]
        rng.shuffle(tiles)
        d["tomb_stack"] = tiles
    return [Event("game_prepared", d)]


def apply_prepared(state: State, d: dict[str, Any], seat: int | None) -> None:
    """R6.2-R6.6: deal gold and Architects, lay out the decks, choose the start player."""
    state.deck = [data.PROVINCE_INDEX[p] for p in d["province_deck"]]
    state.province_set = sorted(state.deck)
    state.draw = list(d["draw_pile"])
    state.start = d["start_player"]
    state.statue_deck = list(d.get("statue_deck", ()))
    state.tomb_stack = list(d.get("tomb_stack", ()))
    for s in range(state.seats):
        state.gold[s] = data.START_GOLD
        state.ledger["start"] += data.START_GOLD
        state.hands[s][data.ARCHITECT] += data.START_ARCHITECTS
