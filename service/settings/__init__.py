"""Server settings, from the command line or the environment (``DATABASE_URL``)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from service.store.database import DEFAULT_DATABASE_URL


@dataclass(frozen=True)
class Settings:
    database_url: str = field(
        default_factory=lambda: os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    )
    #: threads that run the synchronous event store work
    workers: int = field(default_factory=lambda: int(os.environ.get("PAPYRUS_WORKERS", "16")))
    #: origins allowed to open cross-origin websockets (browsers on another host)
    allowed_origins: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            o for o in os.environ.get("PAPYRUS_ALLOWED_ORIGINS", "").split(",") if o
        )
    )
    #: keep the read models current in this process (off when a ``papyrus projections run``
    #: process does it for every server)
    run_projections: bool = field(
        default_factory=lambda: os.environ.get("PAPYRUS_RUN_PROJECTIONS", "1") not in ("0", "no")
    )
    #: largest accepted request body, in bytes
    max_body_bytes: int = 2 * 1024 * 1024
    #: largest accepted exported game (importGame), in bytes
    max_import_bytes: int = 8 * 1024 * 1024
