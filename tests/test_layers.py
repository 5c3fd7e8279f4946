"""The layer contract: dependencies point inward (ARCHITECTURE.md "Layers").

    service.asgi, service.cli, service.settings   the assembly, the command line, the settings
      └─ service.api (graphql, rest, hub)          transports: call the application only
           └─ service.app                          commands and queries; knows no transport
                └─ service.readmodels              read models kept from the log
                     └─ service.store              the event store, SQL, the store's feed
                          └─ projections           pure event-to-row mappings
                               └─ domain           the rules: standard library only

Every ``import`` in every module is checked, including those under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOP = (
    "service.asgi",
    "service.cli",
    "service.settings",
    "service.runtime",
    "service.health",
    "service.__main__",
)

#: (layer, what it must never import); a layer is a module prefix
FORBIDDEN: list[tuple[str, tuple[str, ...]]] = [
    ("service.api.graphql", ("service.api.rest",)),
    ("service.api.rest", ("service.api.graphql",)),
    ("service.api", ("service.store", "service.readmodels", *TOP)),
    ("service.app", ("service.api", *TOP)),
    ("service.readmodels", ("service.app", "service.api", *TOP)),
    ("service.store", ("service.readmodels", "service.app", "service.api", *TOP)),
    ("projections", ("service",)),
    ("domain", ("service", "projections")),
]


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


def violations(module: str, source: str) -> list[str]:
    found = []
    for name in imports_of(source, module):
        for layer, banned in FORBIDDEN:
            if within(module, layer):
                found += [f"{module} imports {name}" for b in banned if within(name, b)]
        if within(module, "domain"):
            top = name.split(".")[0]
            if top not in sys.stdlib_module_names and top not in ("domain", "__future__"):
                found.append(f"{module} imports the third-party {name}")
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
    ],
)
def test_the_contract_catches_an_import_across_a_boundary(module: str, source: str) -> None:
    assert violations(module, source)


def test_inward_imports_pass() -> None:
    assert not violations("service.api.rest.games", "from service.app.caller import Caller")
    assert not violations("service.app.play", "from service.store import GameTable")
    assert not violations("service.asgi", "from service.store.database import open_store")
    assert not violations("domain.engine", "import copy\nfrom domain.contract import Rules")
