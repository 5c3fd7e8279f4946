"""placeholder"""
from typing import Any


def view(state: Any, seat: Any, full: bool, active: list[int]) -> dict[str, Any]:
    return {}
def view_event(event: Any, seat: Any, full: bool) -> Any:
    return event
