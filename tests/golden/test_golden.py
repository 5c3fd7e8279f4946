"""Golden playthroughs (tests/golden/*.txt) must match a fresh in-memory regeneration.

After an intended change to rules, events or views, regenerate with
``.venv/bin/python scripts/golden.py`` and review the diff (``git diff tests/golden``).
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def _golden_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_script", ROOT / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GOLDEN = _golden_script()


@pytest.mark.parametrize("name", sorted(GOLDEN.GOLDENS))
def test_golden_playthrough_is_unchanged(name: str) -> None:
    kind, seats, options, seed = GOLDEN.GOLDENS[name]
    path = GOLDEN.GOLDEN_DIR / f"{name}.txt"
    expected = path.read_text("utf-8")
    actual = GOLDEN.render(kind, seats, options, seed)
    if actual != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                    f"{name}.txt (committed)", f"{name}.txt (regenerated)", n=2,
                )
            )[:60]
        )  # fmt: skip
        pytest.fail(
            f"golden {name} differs; if the change is intended run "
            f"`.venv/bin/python scripts/golden.py` and review `git diff tests/golden`\n{diff}"
        )
