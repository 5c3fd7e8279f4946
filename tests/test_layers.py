"""The layer contract: dependencies point inward (ARCHITECTURE.md "Layers").

    service.asgi, .cli, .settings, .runtime,     the assembly: the command line, the settings,
      .health, .heap, .__main__                  the process (its heap), the routes
      └─ service.api (graphql, rest, web, ...)   transports: call the application only
           └─ service.app                        commands and queries; knows no transport
                └─ service.readmodels            read models kept from the log
                     └─ service.store            the event store, SQL, the store's feed
                          └─ projections         pure event-to-row mappings
                               └─ domain         the rules: standard library only

Each layer has a list of what it may import (``ALLOWED``: module prefixes, the standard library
always); a module belongs to the most specific layer it is in, and every module of the three
packages is in one. The two transports never import each other. Every ``import`` in every
module is checked, including those under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: the assembly: what builds and runs the process from the layers below
ASSEMBLY = (
    "service",
    "service.asgi",
    "service.cli",
    "service.signatures",
    "service.maintenance",
    "service.settings",
    "service.runtime",
    "service.health",
    "service.heap",
    "service.__main__",
)
#: what the transports share: the modules directly in ``service/api``
SHARED_API = (
    *(f"service.api.{path.stem}" for path in sorted((ROOT / "service" / "api").glob("*.py"))),
    "service.api.shapes",  # the response shapes both transports derive their types from
)
APPLICATION = ("service.app", "domain")
SERVING = ("starlette", "uvicorn", "orjson", "prometheus_client")
STRAWBERRY_ADAPTER = ("service.api.graphql.strawberry_private",)
GRAPHQL = ("service.api.graphql", *SHARED_API, *APPLICATION, "strawberry", "graphql")
GRAPHQL += ("starlette", "cross_web")
REST = ("service.api.rest", *SHARED_API, *APPLICATION)
REST += ("fastapi", "pydantic", "pydantic_core", "annotated_types", "starlette")

#: layer -> what it may import besides the standard library
ALLOWED: dict[str, tuple[str, ...]] = {
    "domain": ("domain",),
    "projections": ("projections", "domain"),
    "service.store": ("service.store", "domain", "eventsourcing", "psycopg", "psycopg_pool"),
    "service.readmodels": ("service.readmodels", "service.store", "projections", "domain"),
    "service.app": (
        "service.app",
        "service.readmodels",
        "service.store",
        "domain",
        "eventsourcing",
        "cryptography",  # the signatures of game records (service.app.signing)
    ),
    # the websocket connections (GraphQL's two protocols) reach strawberry through its adapter
    "service.api": (*SHARED_API, *APPLICATION, *SERVING, "graphql", *STRAWBERRY_ADAPTER),
    "service.api.graphql": GRAPHQL,
    "service.api.rest": REST,
    "service.api.web": ("service.api.web", "starlette"),
    # the assembly may import any layer below and what runs them
    **{
        top: (
            "service",
            "domain",
            "projections",
            "starlette",
            "strawberry",
            "uvicorn",
            "psycopg",
            "cross_web",
        )
        for top in ASSEMBLY
    },
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str) -> list[str]:
    """Every module an import statement in ``source`` names (relative imports resolved)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: -node.level]
                base = ".".join([*package, base] if base else package)
            names.append(base)
            names.extend(f"{base}.{alias.name}" for alias in node.names)
    return names


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_of(module: str) -> str | None:
    """The most specific layer ``module`` is in (an assembly module is its own)."""
    if module in ASSEMBLY or any(within(module, top) for top in ASSEMBLY[1:]):
        return next(t for t in ASSEMBLY[::-1] if module == t or within(module, t))
    layers = [layer for layer in ALLOWED if layer not in ASSEMBLY and within(module, layer)]
    return max(layers, key=len, default=None)


def violations(module: str, source: str) -> list[str]:
    layer = layer_of(module)
    if layer is None:
        return [f"{module} is in no layer"]
    found = []
    for name in imports_of(source, module):
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top == "__future__":
            continue
        if not any(within(name, allowed) for allowed in ALLOWED[layer]):
            found.append(f"{module} ({layer}) imports {name}")
    return found


def package_modules() -> list[Path]:
    return sorted(
        path
        for package in ("domain", "projections", "service")
        for path in (ROOT / package).rglob("*.py")
    )


@pytest.mark.parametrize("path", package_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_each_module_imports_only_inward(path: Path) -> None:
    assert violations(module_name(path), path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("service.app.play", "from service.api.hub import Hub"),
        ("service.app.play", "import service.asgi"),
        ("service.api.rest.games", "from service.store import GameTable"),
        ("service.api.rest.games", "from service.readmodels import ReadModels"),
        ("service.api.graphql.schema", "from service.api.rest import problems"),
        ("service.store.database", "from service.settings import Settings"),
        ("service.readmodels.models", "from ..app import views"),
        ("domain.engine", "import eventsourcing"),
        ("projections.games", "from service.store import entry_of"),
        # not on the layer's list, though no rule above forbids it by name
        ("service.readmodels.models", "import fastapi"),
        ("service.api.rest.games", "import strawberry"),
        ("projections.games", "import psycopg"),
        ("service.heap", "import psycopg_pool"),
    ],
)
def test_the_contract_catches_an_import_across_a_boundary(module: str, source: str) -> None:
    assert violations(module, source)


def test_inward_imports_pass() -> None:
    assert not violations("service.api.rest.games", "from service.app.caller import Caller")
    assert not violations("service.app.play", "from service.store import GameTable")
    assert not violations("service.asgi", "from service.store.database import open_store")
    assert not violations("domain.engine", "import copy\nfrom domain.contract import Rules")
