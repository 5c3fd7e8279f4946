"""Per-game statistics: points by scoring source.

``score_sources`` attributes each public score change to a source: the breakdown a scoring
event carries (Amun-Re's kingdom scoring: pyramids, temples, farmers, ...; the gold bonus),
the site a delivered stone scored on (Imhotep's pyramids), else the event's own name
(``temple_scored`` → ``temple``). What a breakdown does not explain is counted as ``other``,
so the sources always add up to the score change.
"""

from __future__ import annotations

from typing import Any

BREAKDOWN_SKIP = frozenset({"seat", "total", "schemes_scored"})
SUFFIXES = ("_scored", "_played", "_applied", "_placed", "_chosen", "_delivered", "_taken")


def source_of(event_type: str, data: dict[str, Any]) -> str:
    site = data.get("site")
    if isinstance(site, str):
        return site
    for suffix in SUFFIXES:
        if event_type.endswith(suffix):
            return event_type.removesuffix(suffix)
    return event_type


def breakdown(event_type: str, data: dict[str, Any], seat: int) -> dict[str, int] | None:
    """The points the event itself says it gave ``seat``, by source; ``None`` if it doesn't."""
    lines = data.get("players")
    if isinstance(lines, list):
        for line in lines:
            if isinstance(line, dict) and line.get("seat") == seat:
                return {
                    k: v
                    for k, v in line.items()
                    if k not in BREAKDOWN_SKIP and isinstance(v, int) and not isinstance(v, bool)
                }
    if event_type == "game_scored" and isinstance(data.get("gold_bonus"), list):
        return {"gold_bonus": data["gold_bonus"][seat]}
    return None


def score_sources(
    event_type: str, data: dict[str, Any], before: list[int], after: list[int]
) -> dict[int, dict[str, int]]:
    """Points gained (or lost) by each seat in this event, by source."""
    out: dict[int, dict[str, int]] = {}
    for seat, (old, new) in enumerate(zip(before, after, strict=True)):
        delta = new - old
        if delta == 0:
            continue
        parts = breakdown(event_type, data, seat)
        if parts is None:
            out[seat] = {source_of(event_type, data): delta}
            continue
        rest = delta - sum(parts.values())
        if rest:
            parts["other"] = parts.get("other", 0) + rest
        out[seat] = {k: v for k, v in parts.items() if v}
    return out
