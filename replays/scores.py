"""Score sheets for logs: the running or final scores of a game state, and where two
plain-data values (score sheets, events) first differ."""

from __future__ import annotations

from typing import Any

from cascadia.domain.state import GameState
from cascadia.projections.game_scores import score_state


def score_sheet(state: GameState) -> dict[str, Any]:
    """The score sheet of the boards as they stand (running scores before the end)."""
    return score_state(state).to_dict()


def final_score_sheet(state: GameState) -> dict[str, Any] | None:
    """The final score sheet of a finished game, ``None`` while it is still being played."""
    return score_sheet(state) if state.finished else None


def totals(sheet: dict[str, Any] | None) -> list[int] | None:
    """Each seat's total from a score sheet."""
    if not isinstance(sheet, dict) or not isinstance(sheet.get("players"), list):
        return None
    return [p.get("total") if isinstance(p, dict) else None for p in sheet["players"]]


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place (a dotted path) where two plain-data values differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return (f"{path}.{key}".lstrip("."), a.get(key), b.get(key))
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return (f"{path}.length".lstrip("."), len(a), len(b))
        return None
    if a != b or type(a) is not type(b):
        return (path.lstrip(".") or "value", a, b)
    return None
