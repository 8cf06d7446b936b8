"""Text renderings of a game for terminals: a player's hex map, the market, the bag.

A hex is drawn as ``HH:w``: its habitat initials (Mountain, Forest, Prairie, Wetland,
River; one letter for a keystone) and its token (bear ``b``, elk ``e``, salmon ``s``,
hawk ``h``, fox ``f``), or ``.`` when it has none. Rows follow ``r``; each row is shifted
half a hex to the right of the one above, as pointy-top hexes lie.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cascadia.domain.components import TILES
from cascadia.domain.environment import Environment
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState

HABITAT_LETTER = {"mountain": "M", "forest": "F", "prairie": "P", "wetland": "W", "river": "R"}
WILDLIFE_LETTER = {"bear": "b", "elk": "e", "salmon": "s", "hawk": "h", "fox": "f"}
_CELL = 5
_STEP = 3


def hex_label(tile_id: int, token: str | None) -> str:
    """The short text of one hex: habitat initials, a colon, the token letter or ``.``."""
    habitats = "".join(HABITAT_LETTER[h] for h in TILES[tile_id].habitats)
    return f"{habitats}:{WILDLIFE_LETTER[token] if token else '.'}"


def render_environment(environment: Environment) -> str:
    """The hex map of one environment as lines of text."""
    if not environment.tiles:
        return "(no tiles)"
    columns = {h: 2 * h[0] + h[1] for h in environment.tiles}
    left = min(columns.values())
    rows: dict[int, list[tuple[int, str]]] = {}
    for h, (tile_id, _rotation) in environment.tiles.items():
        label = hex_label(tile_id, environment.wildlife.get(h))
        rows.setdefault(h[1], []).append(((columns[h] - left) * _STEP, label))
    lines = []
    for r in sorted(rows):
        line = ""
        for x, label in sorted(rows[r]):
            line = line.ljust(x) + label.ljust(_CELL)
        lines.append(f"r={r:>3} {line.rstrip()}")
    return "\n".join(lines)


def render_market(state: GameState) -> str:
    """The market, slot 0 nearest the stack: each slot's tile and token."""
    parts = []
    for slot, (tile, token) in enumerate(zip(state.market_tiles, state.market_wildlife, strict=True)):
        tile_text = hex_label(tile, None)[:-2] + f"#{tile}" if tile is not None else "-"
        parts.append(f"[{slot}] {tile_text} + {token or '-'}")
    return "  ".join(parts)


def render_bag(state: GameState) -> str:
    return ", ".join(f"{species} {count}" for species, count in state.bag_counts().items())


def render_cards(cards: Mapping[str, str | None]) -> str:
    """``bear A, elk hidden, ...``: scoring cards as a player view gives them (``None``
    for a card the viewer may not see, RULES.md 7.10)."""
    return ", ".join(f"{species} {card or 'hidden'}" for species, card in cards.items())


def render_secret_card(species: str | None) -> str:
    """A seat's secret card as a player view gives it."""
    return species or "hidden"


def render_score(points: int | None) -> str:
    """A score as a player view gives it: ``?`` when it depends on a hidden card."""
    return "?" if points is None else str(points)


def render_options(options: Mapping[str, Any]) -> str | None:
    """``name=value, ...`` for the options (of a player view) that differ from the
    defaults; ``None`` when none does."""
    default = GameOptions().to_dict()
    changed = [f"{k}={v}" for k, v in options.items() if default.get(k) != v]
    return ", ".join(changed) if changed else None
