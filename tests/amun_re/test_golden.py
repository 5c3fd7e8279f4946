"""Golden Amun-Re playthroughs (tests/amun_re/golden/*.txt), rendered by the generic
``scripts/golden.py``: every event, what each seat and a spectator see of it, and how each view
changes. A change of any rule, event or view shows up as a diff.

After an intended change regenerate with
``PAPYRUS_UPDATE_GOLDEN=1 .venv/bin/pytest tests/amun_re/test_golden.py`` and review
``git diff tests/amun_re/golden``.
"""

from __future__ import annotations

import difflib
import importlib.util
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

#: name -> (seats, options, seed)
GOLDENS: dict[str, tuple[int, dict[str, Any], int]] = {
    "amun_re_3p": (3, {"start_player": 0}, 1),
    "amun_re_4p_classic_no_farmer_points": (
        4,
        {"classic_bank_majority": True, "no_farmer_points": True},
        2,
    ),
    "amun_re_4p_all_modules": (
        4,
        {
            "afterlife": True,
            "statues": True,
            "pharaoh": True,
            "promo_favours": True,
            "start_player": 1,
        },
        3,
    ),
}


def golden_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_script", ROOT / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_playthrough_is_unchanged(name: str) -> None:
    seats, options, seed = GOLDENS[name]
    actual = golden_script().render("amun_re", seats, options, seed)
    path = GOLDEN_DIR / f"{name}.txt"
    if os.environ.get("PAPYRUS_UPDATE_GOLDEN"):
        path.write_text(actual, "utf-8")
    expected = path.read_text("utf-8")
    if actual != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(keepends=True),
                    actual.splitlines(keepends=True),
                    f"{name}.txt (committed)",
                    f"{name}.txt (regenerated)",
                    n=2,
                )
            )[:60]
        )
        pytest.fail(
            f"golden {name} differs; regenerate with PAPYRUS_UPDATE_GOLDEN=1 if the "
            f"change is intended\n{diff}"
        )
