"""Actions typed in REST, for clients generated from the OpenAPI document (issue #23).

Two forms, the same actions:

- **The JSON action** (``{"type": "place_stone", "ship": 2, "slot": 3}``), what ``act`` takes
  as ``action``: in responses (``legalActions``, ``moves[].action``) it is declared as exactly
  one of the named action bodies (``ImhotepPlaceStone``..., ``ShownAction``), so that a
  generator reads each legal action into its class instead of a dictionary.
- **The typed action** (``{"imhotepPlaceStone": {"ship": 2, "slot": 3}}``), ``TypedAction``:
  one member per action of every game kind, named as GraphQL's ``ActionInput`` members (the
  kind and the action's name in camelCase), whose value is the action's parameters as in its
  JSON form (``{}`` for an action without any), each a named component
  (``ImhotepPlaceStoneParams``). Its member names say the game kind, so the form stays
  unambiguous where two games name an action alike (both have ``place_stone``). Every legal
  action is shown in it too (``moves[].typedAction``); ``act`` takes it as ``typedAction``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    WithJsonSchema,
    create_model,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from domain import actions
from service.api.rest.params import JsonObject
from service.app.errors import BadInput

REF = "#/components/schemas/"


def pascal(snake: str) -> str:
    """``amun_re_bid`` -> ``AmunReBid``."""
    return "".join(part[:1].upper() + part[1:] for part in snake.split("_"))


@dataclass(frozen=True, slots=True)
class Member:
    """One member of ``TypedAction``: an action of a game kind."""

    kind: str
    spec: actions.ActionSpec

    @property
    def body(self) -> str:
        """The name of the action's JSON body component (``ImhotepPlaceStone``)."""
        return pascal(f"{self.kind}_{self.spec.name}")

    @property
    def name(self) -> str:
        """The member's JSON name (``imhotepPlaceStone``), GraphQL's ``ActionInput`` member."""
        return self.body[:1].lower() + self.body[1:]


MEMBERS: tuple[Member, ...] = tuple(
    Member(catalog.kind, spec) for catalog in actions.catalogs() for spec in catalog.actions
)
BY_NAME: dict[str, Member] = {m.name: m for m in MEMBERS}
BY_ACTION: dict[tuple[str, str], Member] = {(m.kind, m.spec.name): m for m in MEMBERS}

#: a JSON action in a response: one of the named action bodies (the ``Act`` request declares
#: them as components); validated as any object, like the actions the rules give
ShownAction = Annotated[
    JsonObject,
    WithJsonSchema(
        {"type": "object", "oneOf": [{"$ref": f"{REF}{m.body}"} for m in MEMBERS]}, mode=None
    ),
]


def params_body(member: Member) -> type[BaseModel]:
    """The named component of an action's parameters: its JSON Schema without ``type``."""
    schema = actions.json_schema(member.spec)
    del schema["$schema"]
    schema["properties"] = {k: v for k, v in schema.get("properties", {}).items() if k != "type"}
    schema["required"] = [k for k in schema.get("required", []) if k != "type"]
    if not schema["required"]:
        del schema["required"]
    title = f"{member.body}Params"
    schema.update(title=title, description=f"The parameters of: {member.spec.label}")

    def declared(generated: dict[str, Any]) -> None:
        generated.clear()
        generated.update(schema)

    return create_model(
        title,
        __config__=ConfigDict(title=title, json_schema_extra=declared, extra="allow"),
        __module__=__name__,
    )


def one_member(schema: dict[str, Any]) -> None:
    schema.update(minProperties=1, maxProperties=1, additionalProperties=False)


class TypedBase(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=one_member)

    @model_validator(mode="before")
    @classmethod
    def objects_only(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError("typedAction is a JSON object with one member (one action)")
        return data


#: each member's declaration: its parameters' component, absent by default (never null)
DECLARED: dict[str, Any] = {
    m.name: (
        params_body(m) | SkipJsonSchema[None],  # type: ignore[misc]
        Field(None, description=f"{m.spec.label} ({m.kind})."),
    )
    for m in MEMBERS
}
TypedAction: type[BaseModel] = create_model(
    "TypedAction",
    __base__=TypedBase,
    __doc__="An action typed: exactly one member, named by the game kind and the action "
    '(`{"imhotepPlaceStone": {"ship": 2, "slot": 3}}`), whose value is its parameters '
    "(`{}` for an action without any).",
    __module__=__name__,
    **DECLARED,
)


#: a typed action in a response (``moves[].typedAction``): the ``TypedAction`` component, shown
#: as the presenter made it (the one member it sets)
ShownTyped = Annotated[
    JsonObject, WithJsonSchema({"allOf": [{"$ref": f"{REF}TypedAction"}]}, mode=None)
]


def typed_of(kind: str, action: dict[str, Any]) -> dict[str, Any]:
    """The typed form of a JSON action of ``kind``."""
    member = BY_ACTION[(kind, action["type"])]
    return {member.name: {k: v for k, v in action.items() if k != "type"}}


def action_of(typed: BaseModel) -> tuple[str, dict[str, Any]]:
    """The game kind of a typed action and the action as JSON, exactly as ``act`` takes it;
    ``BadInput`` unless it sets exactly one member."""
    chosen = [name for name in BY_NAME if getattr(typed, name, None) is not None]
    if len(chosen) != 1:
        raise BadInput(
            "typedAction must set exactly one member (one action), e.g. "
            '{"imhotepPlaceStone": {"ship": 2, "slot": 3}}; '
            f"it sets {len(chosen)}."
        )
    member = BY_NAME[chosen[0]]
    params = getattr(typed, member.name).model_dump()
    declared = [p.name for p in member.spec.params]
    unknown = sorted(set(params) - set(declared))  # ``type`` too: the member names the action
    if unknown:
        raise BadInput(
            f"typedAction.{member.name} has no parameter {', '.join(unknown)}; its parameters: "
            f"{', '.join(declared) or 'none'}."
        )
    return member.kind, {
        "type": member.spec.name,
        **{k: params[k] for k in declared if k in params},
    }
