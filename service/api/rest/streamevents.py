"""The events of a game's Server-Sent Event stream (``stream``): the models of their data and
their bytes on the wire (docs/API.md "Push for REST clients (Server-Sent Events)").

* ``GameChange``, the data of a ``change`` event (``id:`` the entry's number in the caller's
  log), made once per step and shared as the same bytes by every stream that sends it;
* ``StreamEnd``, the data of the ``end`` event, once the game is over and everything was sent;
* ``StreamProblem``, the data of a ``problem`` event, why the stream stops.

``message`` writes one event (``data`` is one line of JSON); ``EVENT_DATA`` names each event's
model, for the OpenAPI document (``documented``).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from service.api.bodies import dumps_bytes
from service.api.rest.models import Shown
from service.api.rest.params import JsonObject, StatusName
from service.api.rest.presenters import moves, present_event
from service.api.rest.responses import GameClock, GameEvent, Move
from service.api.rest.shaped import shown
from service.api.rest.typedactions import ShownAction
from service.api.shapes import clocks
from service.app.errors import PapyrusError

MEDIA_TYPE = "text/event-stream"
#: seconds between two comment lines on a quiet stream (nginx's default read timeout is 60)
HEARTBEAT = 15.0
PATH = "/games/{id}/stream"


class GameChange(Shown):
    """A game right after one entry of the caller's log, as the caller may see it: the data of
    a `change` event of the game's stream (`gameStream`)."""

    version: int = Field(
        description="The entry's number in the caller's log (the event's `id`: send it back as "
        "`Last-Event-ID` to resume after it)."
    )
    status: StatusName = Field(description="The game's status right after the entry.")
    active_seats: list[int] = Field(description="Who must act right after the entry.")
    event: GameEvent = Field(description="The entry, as `events` shows it to the caller.")
    state: JsonObject = Field(description="The caller's view right after the entry.")
    legal_actions: list[ShownAction] = Field(
        description="Exactly the actions `act` accepts from the caller right after the entry."
    )
    moves: list[Move] = Field(description="The legal actions, labelled (as `Game.moves`).")
    clock: GameClock | None = Field(
        description="A timed table's clock right after the entry; null without a time control."
    )


class StreamEnd(Shown):
    """The data of the `end` event: the game is over and every entry was sent."""

    status: StatusName = Field(description="FINISHED or ABANDONED.")
    version: int = Field(description="The number of the caller's last entry.")


class StreamProblem(Shown):
    """The data of a `problem` event: why the stream stops (it closes after it)."""

    code: str = Field(description="The error's stable code (docs/API.md).")
    detail: str = Field(description="What happened, and what to do.")


def message(event: str, data: bytes, ident: int | None = None) -> bytes:
    """One Server-Sent Event (``data`` is one line of JSON)."""
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {event}\n".encode() + b"data: " + data + b"\n\n"


def problem(error: PapyrusError) -> bytes:
    """The ``problem`` event of an error that ends the stream."""
    body = StreamProblem(code=error.code, detail=error.message)
    return message("problem", dumps_bytes(body.model_dump(by_alias=True)))


def change(step: Any, kind: str) -> bytes:
    """A step's ``change`` event, made once per step (a shared step is sent to every stream of
    its caller, and to every spectator, as the same bytes)."""
    made = step.made.get("sse")
    if made is None:
        legal = step.legal_actions or []
        body = GameChange.model_validate(
            {
                "version": step.event["version"],
                "status": step.status,
                "active_seats": step.active_seats,
                "event": present_event(step.event),
                "state": step.state or {},
                "legal_actions": legal,
                "moves": moves(kind, legal),
                "clock": None if step.clock is None else shown(clocks.GameClock, step.clock),
            }
        ).model_dump(mode="json", by_alias=True)
        made = step.made["sse"] = message("change", dumps_bytes(body), body["version"])
    assert isinstance(made, bytes)
    return made


#: the data of each event of the stream, by the event's name
EVENT_DATA = {"change": GameChange, "end": StreamEnd, "problem": StreamProblem}


def documented(doc: dict[str, Any]) -> None:
    """The stream's 200 in the OpenAPI document: ``text/event-stream``, a text (FastAPI writes
    the model of a response as JSON), whose events' data are named in ``x-event-data`` (the
    components FastAPI wrote from the models of ``EVENT_DATA``: generators make a class of
    each, which a client fills from an event's ``data``)."""
    operation = doc["paths"][PATH]["get"]
    content = operation["responses"]["200"]["content"]
    content.pop("application/json")
    content[MEDIA_TYPE] = {
        "schema": {"type": "string", "description": "Server-Sent Events (see the operation)."},
        "x-event-data": {
            name: {"$ref": f"#/components/schemas/{model.__name__}"}
            for name, model in EVENT_DATA.items()
        },
    }


STREAM_DESCRIPTION = (
    'Server-Sent Events of the caller\'s log (docs/API.md "Push for REST clients"): `change` '
    "events (`id`: the entry's number in the caller's log; `data`: a `GameChange`), an `end` "
    "event (`data`: a `StreamEnd`) once the game is over and everything was sent, a `problem` "
    "event (`data`: a `StreamProblem`) if the stream must stop, and a comment line every "
    f"{HEARTBEAT:g} s. Resume with `Last-Event-ID` (or `after`): nothing is missed or sent "
    "twice. 204: the game is over and there is nothing after that id."
)
