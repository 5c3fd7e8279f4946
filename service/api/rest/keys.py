"""``GET /api/v1/keys``: the public keys that sign finished games' records (docs/API.md
"Signed records"), what ``papyrus verify --keys-url`` fetches and ``papyrus keys`` prints."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import Field

from service.api.rest.models import Shown
from service.api.rest.problems import errors
from service.api.rest.routing import JsonRoute, Runtime

router = APIRouter(route_class=JsonRoute)


class SigningKey(Shown):
    """One of the server's signing keys."""

    key_id: str = Field(
        description="The key's id, as a signature's `keyId` names it: `ed25519:` and the "
        "first 16 hex digits of the SHA-256 of the raw public key.",
        examples=["ed25519:3f0c6a9e1b2d4c57"],
    )
    alg: Literal["Ed25519"] = Field(description="The signature algorithm (RFC 8032).")
    public_key: str = Field(description="The raw 32-byte public key, in base64 (RFC 4648).")
    status: Literal["active", "retired"] = Field(
        description="`active`: it signs what the server exports now; `retired`: it signed "
        "earlier exports, which still verify with it."
    )


class SigningKeys(Shown):
    """The server's signing keys, the active one first."""

    alg: Literal["Ed25519"] = Field(description="The signature algorithm (RFC 8032).")
    message: str = Field(
        description="What a signature signs: this text with the game's id and its chain "
        "head filled in, in UTF-8."
    )
    keys: list[SigningKey] = Field(description="Every key: none on a server that signs nothing.")


@router.get(
    "/keys",
    tags=["audit"],
    operation_id="signingKeys",
    summary="The public keys that sign exported games",
    response_model=SigningKeys,
    responses=errors(),
)
async def signing_keys(rt: Runtime) -> Any:
    return rt.app.signing.keyring.published()
