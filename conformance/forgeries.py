"""The kit's bad vectors: good ones edited afterwards, as a forger who knows the revealed seed
would, each with the first version a verifier must name (known from the edit itself)."""

from __future__ import annotations

import base64
import copy
import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain import signature
from domain.log import GENESIS, Entry, entry_hash


@dataclass(frozen=True)
class Bad:
    name: str
    source: str
    description: str
    covers: tuple[str, ...]
    edit: Callable[[dict[str, Any]], dict[str, Any]]
    """Edits the document in place; the expected verdict (``reject``, version, reason)."""


def reseal(document: dict[str, Any], start: int) -> None:
    """The chain recomputed from event ``start`` on, as a forger who knows the revealed seed
    and salt would."""
    events = document["events"]
    seed, salt = document["seed"], document["seedSalt"]
    prev = events[start - 2]["hash"] if start > 1 else GENESIS
    for raw in events[start - 1 :]:
        raw["hash"] = entry_hash(Entry(**raw), prev, seed, salt)
        prev = raw["hash"]


def reject(version: int | None, reason: str) -> dict[str, Any]:
    return {"verdict": "reject", "version": version, "reason": reason}


def middle_step(document: dict[str, Any]) -> dict[str, Any]:
    steps = [e for e in document["events"] if e["action"] is not None]
    return steps[len(steps) // 2]


def bump(data: Any) -> bool:
    """Add one to the first whole number found in ``data`` (depth first); False if none."""
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else []
    )
    for key, value in items:
        if type(value) is int:
            data[key] = value + 1
            return True
        if isinstance(value, dict | list) and bump(value):
            return True
    return False


def edited_step(document: dict[str, Any]) -> dict[str, Any]:
    event = middle_step(document)
    if not bump(event["data"]):
        event["data"]["forged"] = True
    reseal(document, event["version"])
    return reject(event["version"], "it is not what the rules give at this point")


def broken_chain(document: dict[str, Any]) -> dict[str, Any]:
    event = middle_step(document)
    if not bump(event["data"]):
        event["data"]["forged"] = True
    return reject(event["version"], "its hash does not match its content: it was changed")


def forged_result(document: dict[str, Any]) -> dict[str, Any]:
    event = next(e for e in document["events"] if e["type"] == "game_finished")
    event["data"]["scores"] = list(reversed(event["data"]["scores"]))
    event["data"]["scores"][0] += 1
    reseal(document, event["version"])
    document["result"]["scores"] = event["data"]["scores"]
    return reject(event["version"], "the recorded result is not the one the rules give")


def deleted_event(document: dict[str, Any]) -> dict[str, Any]:
    event = middle_step(document)
    version = event["version"]
    del document["events"][version - 1]
    reseal(document, version)
    return reject(version, f"entry {version} is missing (found version {version + 1})")


def forged_seed(document: dict[str, Any]) -> dict[str, Any]:
    document["seed"] = document["events"][0]["data"]["seed"] = "4711"
    reseal(document, 1)
    return reject(1, "the seed does not match the commitment recorded at creation")


def forged_shuffle(document: dict[str, Any]) -> dict[str, Any]:
    """The first setup event's first list reversed: a shuffle that the seed does not give."""
    event = next(
        e
        for e in document["events"]
        if e["type"] not in ("table_created", "seat_taken", "game_started")
    )

    def flip(data: Any) -> bool:
        for key, value in data.items():
            if isinstance(value, list) and len(set(map(repr, value))) > 1:
                data[key] = list(reversed(value))
                return True
        return False

    assert flip(event["data"]), event
    reseal(document, event["version"])
    return reject(event["version"], "it is not what the rules give at this point")


def forged_document_result(document: dict[str, Any]) -> dict[str, Any]:
    document["result"]["winners"] = [
        s for s in range(len(document["players"])) if s not in document["result"]["winners"]
    ]
    return reject(None, "the document's result is not the log's result")


CLOCK_EVENTS = (
    "clock_started",
    "clock_charged",
    "time_expired",
    "seat_taken_over",
    "seat_reclaimed",
)


def expiry_deleted(document: dict[str, Any]) -> dict[str, Any]:
    """A timeout erased: the ``time_expired`` and ``seat_taken_over`` entries deleted (and the
    reclaim that followed), the bot's moves for the seat attributed to its player, the log
    renumbered and re-chained."""
    events = document["events"]
    dropped = [
        e for e in events if e["type"] in ("time_expired", "seat_taken_over", "seat_reclaimed")
    ]
    first = dropped[0]["version"]
    seat = dropped[0]["data"]["seat"]
    player = next(
        e["data"]["player_id"]
        for e in events
        if e["type"] == "seat_taken" and e["data"]["seat"] == seat
    )
    for event in events:
        if first < event["version"] < dropped[-1]["version"] and event["by_seat"] == seat:
            event["actor"] = player
    document["events"] = [e for e in events if e not in dropped]
    for number, event in enumerate(document["events"], start=1):
        event["version"] = number
    reseal(document, first)
    return reject(first, f"seat {seat}'s clock ran out but no time_expired entry is recorded")


def charge_rewritten(document: dict[str, Any]) -> dict[str, Any]:
    """A turn of seconds charged 10 ms (the charge's own times made to agree), re-chained."""
    event = next(
        e
        for e in document["events"]
        if e["type"] == "clock_charged" and e["data"]["used_ms"] > 1_000
    )
    event["data"]["used_ms"] = 10
    event["data"]["at"] = event["data"]["started"] + 10
    reseal(document, event["version"])
    return reject(event["version"], "a charge of 10 ms where the log's times give more")


def clock_shifted(document: dict[str, Any]) -> dict[str, Any]:
    """Every time in the clock's entries moved one day later, re-chained."""
    first = None
    for event in document["events"]:
        if event["type"] in CLOCK_EVENTS:
            first = first or event["version"]
            for key in ("at", "started", "deadline"):
                if key in event["data"]:
                    event["data"][key] += 86_400_000
    assert first is not None
    reseal(document, first)
    return reject(first, "its clock time is not the time it was recorded at")


#: a forger's key: not the kit's (``keys.json``), whatever key id its signatures claim
FORGER = Ed25519PrivateKey.from_private_bytes(
    hashlib.sha256(b"papyrus conformance kit: a forger's key").digest()
)


def signed_by_another_key(document: dict[str, Any]) -> dict[str, Any]:
    signed = document["signature"]
    value = FORGER.sign(signature.message(signed["gameId"], signed["head"]))
    signed["value"] = base64.b64encode(value).decode("ascii")
    return reject(None, f"signature INVALID: it was not made by {signed['keyId']} for this log")


def signature_of_another_game(document: dict[str, Any]) -> dict[str, Any]:
    signed = document["signature"]
    signed["gameId"] = str(uuid.UUID(bytes=hashlib.sha256(signed["gameId"].encode()).digest()[:16]))
    return reject(None, f"signature INVALID: it was not made by {signed['keyId']} for this log")


BAD = [
    Bad(
        "bad-imhotep-edited-rechained",
        "imhotep-2p-sides-A",
        "A game step's data edited and the chain recomputed: the rules give another step.",
        ("re-chained edit",),
        edited_step,
    ),
    Bad(
        "bad-amun-re-edited-rechained",
        "amun-re-4p-afterlife",
        "A game step's data edited and the chain recomputed.",
        ("re-chained edit",),
        edited_step,
    ),
    Bad(
        "bad-imhotep-broken-chain",
        "imhotep-2p-sides-B",
        "A game step's data edited, the chain left as it was.",
        ("broken chain",),
        broken_chain,
    ),
    Bad(
        "bad-amun-re-broken-chain",
        "amun-re-3p-base",
        "A game step's data edited, the chain left as it was.",
        ("broken chain",),
        broken_chain,
    ),
    Bad(
        "bad-imhotep-forged-result",
        "imhotep-3p-sides-A",
        "The final scores rewritten, in the log and the document, and re-chained.",
        ("forged result",),
        forged_result,
    ),
    Bad(
        "bad-amun-re-deleted-event",
        "amun-re-5p-statues",
        "An event deleted and the chain recomputed.",
        ("deleted event",),
        deleted_event,
    ),
    Bad(
        "bad-imhotep-forged-seed",
        "imhotep-2p-wrath",
        "Another seed written in, the chain recomputed: the commitment gives it away.",
        ("forged seed",),
        forged_seed,
    ),
    Bad(
        "bad-amun-re-forged-shuffle",
        "amun-re-3p-pharaoh",
        "A setup shuffle rewritten and re-chained: the seed gives another.",
        ("forged randomness",),
        forged_shuffle,
    ),
    Bad(
        "bad-imhotep-document-result",
        "imhotep-4p-sides-B",
        "The document's winners edited; its log is intact.",
        ("forged header",),
        forged_document_result,
    ),
    Bad(
        "bad-clock-expiry-deleted",
        "imhotep-2p-clock-move-takeover",
        "A timeout erased: time_expired and seat_taken_over deleted (the reclaim too), the "
        "bot's moves attributed to the player, the log renumbered and re-chained.",
        ("forged clock",),
        expiry_deleted,
    ),
    Bad(
        "bad-clock-charge-rewritten",
        "imhotep-2p-clock-move-takeover",
        "A turn's charge rewritten to 10 ms and re-chained.",
        ("forged clock",),
        charge_rewritten,
    ),
    Bad(
        "bad-clock-times-shifted",
        "amun-re-3p-clock-bank-takeover",
        "Every clock time shifted by one day and re-chained.",
        ("forged clock",),
        clock_shifted,
    ),
    Bad(
        "bad-signature-another-key",
        "imhotep-3p-sides-B",
        "The log intact, its signature's value made by another key than the one it names.",
        ("forged signature",),
        signed_by_another_key,
    ),
    Bad(
        "bad-signature-another-game",
        "amun-re-4p-afterlife",
        "The log intact, its signature said to be of another game (its value is this one's).",
        ("forged signature",),
        signature_of_another_game,
    ),
]


def build_bad(bad: Bad, source: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    document = copy.deepcopy(source)
    expected = bad.edit(document)
    return document, expected
