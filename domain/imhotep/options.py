"""Table options (§2): validated and completed once, when the table is created.

Keys: ``sides`` (an object mapping any of the five site ids to "A"/"B", missing sites A; or one
string "A"/"B" for all five), ``wrath_of_the_pharaoh`` (bool, default false), ``start_player`` (a
seat index or "random", default "random"), ``colours`` (distinct colours in seat order, default the
first n of black, white, brown, gray; ``players`` is accepted as another name for it, its entries
being colours or ``{"colour": …}`` objects). The number of players is the seat count (2 to 4).
"""

from __future__ import annotations

from typing import Any

from domain.contract import JSON, BadOptions
from domain.imhotep import data

KEYS = ("sides", "wrath_of_the_pharaoh", "start_player", "colours", "players")

_HELP = (
    "valid options: sides ({site: 'A'|'B'} for sites "
    + ", ".join(data.SITES)
    + ", or 'A'/'B' for all), wrath_of_the_pharaoh (true/false), start_player (seat index or"
    " 'random'), colours (distinct colours from " + ", ".join(data.COLOURS) + ", one per seat)"
)


def _refuse(problem: str) -> BadOptions:
    return BadOptions(f"{problem}; {_HELP}", rule="§2")


def normalize_options(seats: int, options: JSON | None) -> JSON:
    """Check every option of §2 and return the complete set; ``BadOptions`` otherwise."""
    if (
        isinstance(seats, bool)
        or not isinstance(seats, int)
        or not (data.MIN_PLAYERS <= seats <= data.MAX_PLAYERS)
    ):
        raise _refuse(
            f"Imhotep is for {data.MIN_PLAYERS} to {data.MAX_PLAYERS} players, not {seats}"
        )
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _refuse("options must be an object of option names and values")
    options = dict(options)
    unknown = sorted(set(options) - set(KEYS))
    if unknown:
        raise _refuse(f"unknown option(s) {', '.join(map(str, unknown))}")
    return {
        "sides": _sides(options.get("sides", "A")),
        "wrath_of_the_pharaoh": _wrath(options.get("wrath_of_the_pharaoh", False)),
        "start_player": _start(seats, options.get("start_player", "random")),
        "colours": _colours(seats, options),
    }


def _sides(value: Any) -> dict[str, str]:
    if isinstance(value, str):
        if value not in data.SIDES:
            raise _refuse(f"sides must be 'A' or 'B', not {value!r}")
        return {site: value for site in data.SITES}
    if not isinstance(value, dict):
        raise _refuse("sides must be an object or 'A'/'B'")
    for site, side in value.items():
        if site not in data.SITES:
            raise _refuse(f"unknown site {site!r} in sides")
        if side not in data.SIDES:
            raise _refuse(f"side of {site} must be 'A' or 'B', not {side!r}")
    return {site: value.get(site, "A") for site in data.SITES}


def _wrath(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _refuse(f"wrath_of_the_pharaoh must be true or false, not {value!r}")
    return value


def _start(seats: int, value: Any) -> int | str:
    if value == "random":
        return "random"
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise _refuse(f"start_player must be 'random' or a seat from 0 to {seats - 1}")
    return value


def _colours(seats: int, options: JSON) -> list[str]:
    if "colours" in options and "players" in options:
        raise _refuse("give either colours or players, not both")
    value = options.get("colours", options.get("players"))
    if value is None:
        return list(data.COLOURS[:seats])
    if not isinstance(value, list) or len(value) != seats:
        raise _refuse(f"colours must list one colour per seat ({seats})")
    colours: list[Any] = [v.get("colour") if isinstance(v, dict) else v for v in value]
    if any(c not in data.COLOURS for c in colours) or len(set(colours)) != seats:
        raise _refuse(f"colours must be distinct, from {', '.join(data.COLOURS)}")
    return colours
