"""What ``cascadia play`` shows: the market, a board with coordinates, the held tile's
rotations, the scoring cards in words. Pure functions that build rich renderables or
text; printing them is :mod:`cascadia.cli.play_commands`' job (what a move did is said
by :mod:`cascadia.projections.describe`).

The board is drawn one line per row so that a turn fits a 24-line terminal: each tile as
habitat initials, the rotation of a dual tile, and its token (``RF3:b``) or what it can
still hold (``RF3.bef``); each open hex, and each tile the held token may go to, as its
axial coordinates ``q,r`` (what the player types).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Mapping, Sequence

from cascadia.domain.components import TILES
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import DIRECTION_NAMES, Hex, distinct_rotations, neighbours, opposite, tile_edges
from cascadia.domain.state import GameState
from cascadia.projections.render import HABITAT_LETTER, WILDLIFE_LETTER
from cascadia.projections.wildlife import card_scorer
from rich.table import Table
from rich.text import Text

HABITAT_STYLE = {
    "mountain": "bright_black",
    "forest": "green",
    "prairie": "yellow",
    "wetland": "cyan",
    "river": "blue",
}
_STEP = 4
"""Characters per half hex: neighbours in a row are ``2 * _STEP`` apart."""
_CELL = 7
_COMPACT_STEP = 3
_COMPACT_CELL = 5


def tile_name(tile_id: int) -> str:
    """``mountain/forest (bear, hawk)``, or ``river keystone (salmon)``."""
    tile = TILES[tile_id]
    habitats = "/".join(tile.habitats) + (" keystone" if tile.keystone else "")
    return f"{habitats} ({', '.join(tile.wildlife)})"


def _habitat_text(habitats: Iterable[str]) -> Text:
    text = Text()
    for i, habitat in enumerate(habitats):
        if i:
            text.append("/")
        text.append(habitat, style=HABITAT_STYLE[habitat])
    return text


def market_table(state: GameState, environment: Environment | None = None) -> Table:
    """The market, a line per slot (slot 0 nearest the stack): tile, what it can hold,
    token; given the player's ``environment``, how many of its tiles could take each
    token now (before the tile taken with it is placed)."""
    free = state.turn_state.free_choice
    title = "market (free choice: any tile with any token)" if free else None
    columns = ["slot", "tile", "can hold", "token"] + (["fits"] if environment is not None else [])
    table = Table(*columns, title=title, title_justify="left", box=None, pad_edge=False, padding=(0, 1))
    for slot, (tile, token) in enumerate(zip(state.market_tiles, state.market_wildlife, strict=True)):
        if tile is None:
            habitats, holds = Text("-"), "-"
        else:
            t = TILES[tile]
            habitats = _habitat_text(t.habitats)
            if t.keystone:
                habitats.append(" keystone")
            holds = ", ".join(t.wildlife)
        row = [str(slot), habitats, holds, Text(token or "-", style="bold")]
        if environment is not None:
            row.append(_fits(environment, token))
        table.add_row(*row)
    return table


def _fits(environment: Environment, token: str | None) -> str:
    """``3 tiles``: how many empty tiles of the board can take ``token`` now."""
    if token is None:
        return ""
    count = len(environment.wildlife_targets(token))
    return "none of yours" if count == 0 else f"{count} tile{'s' if count > 1 else ''}"


def tile_label(tile_id: int, rotation: int, token: str | None, compact: bool = False) -> Text:
    """One placed tile on the play board: habitat initials, the rotation of a dual tile
    (its first habitat lies on the edges ``rotation`` to ``rotation + 2`` clockwise from
    NE), then ``:`` and the token, or ``.`` and the initials of what the empty tile can
    hold: ``RF3:b`` (a bear on it), ``RF3.bef`` (empty: bear, elk or fox), ``W:s``.
    ``compact`` leaves out what an empty tile can hold (``RF3.``)."""
    tile = TILES[tile_id]
    text = Text()
    for habitat in tile.habitats:
        text.append(HABITAT_LETTER[habitat], style=HABITAT_STYLE[habitat])
    if not tile.keystone:
        text.append(str(rotation), style="dim")
    if token is not None:
        text.append(":" + WILDLIFE_LETTER[token], style="bold")
    else:
        holds = "" if compact else "".join(WILDLIFE_LETTER[w] for w in tile.wildlife)
        text.append("." + holds, style="dim")
    return text


BOARD_KEY = "key: RF3:b rotation 3, a bear · RF3.be empty: bear or elk fit · 1,-1 open hex"
BOARD_WIDTH = 80
"""A board wider than this is drawn compact: closer hexes, without what empty tiles hold."""


def board_map(
    environment: Environment,
    open_hexes: Sequence[Hex] = (),
    targets: Iterable[Hex] = (),
    new_hex: Hex | None = None,
    width: int = BOARD_WIDTH,
) -> Text:
    """The board as a hex map, one line per row ``r`` (each row half a hex right of the
    one above): each tile as :func:`tile_label`, each open hex as its coordinates
    ``q,r`` (where a tile may go), each token target as its coordinates in magenta (where
    the held token may go); the tile placed this turn underlined. A map wider than
    ``width`` columns is drawn compact (6 columns a hex instead of 8, and empty tiles
    without what they can hold)."""
    full = _board_text(environment, open_hexes, set(targets), new_hex, compact=False)
    if max((len(line) for line in full.plain.splitlines()), default=0) <= width:
        return full
    return _board_text(environment, open_hexes, set(targets), new_hex, compact=True)


def _board_text(
    environment: Environment,
    open_hexes: Sequence[Hex],
    targets: set[Hex],
    new_hex: Hex | None,
    compact: bool,
) -> Text:
    cells: dict[Hex, Text] = {}
    for h, (tile_id, rotation) in environment.tiles.items():
        if h in targets:
            label = Text(f"{h[0]},{h[1]}", style="bold magenta")
        else:
            label = tile_label(tile_id, rotation, environment.wildlife.get(h), compact)
        if h == new_hex:
            label.stylize("underline")
        cells[h] = label
    for h in open_hexes:
        cells.setdefault(h, Text(f"{h[0]},{h[1]}", style="dim"))
    if not cells:
        return Text("(no tiles)")
    step, cell = (_COMPACT_STEP, _COMPACT_CELL) if compact else (_STEP, _CELL)
    left = min(2 * q + r for q, r in cells)
    rows: dict[int, list[tuple[int, Hex]]] = {}
    for h in cells:
        rows.setdefault(h[1], []).append(((2 * h[0] + h[1] - left) * step, h))
    out = Text()
    for r in sorted(rows):
        line = Text()
        for x, h in sorted(rows[r]):
            _put(line, x, cells[h], cell)
        out.append_text(line)
        out.append("\n")
    out.rstrip()
    return out


def _put(line: Text, x: int, cell: Text, width: int) -> None:
    """Write ``cell`` centred in the ``width`` columns from ``x`` (after a space at least)."""
    start = x + max(0, (width - len(cell)) // 2)
    start = max(start, len(line) + 1) if len(line) else start
    line.append(" " * (start - len(line)))
    line.append_text(cell)


def hex_list(hexes: Sequence[Hex]) -> str:
    return " ".join(f"{q},{r}" for q, r in hexes)


def rotation_table(
    tile_id: int,
    environment: Environment | None = None,
    at: Hex | None = None,
    allowed: Iterable[int] | None = None,
) -> Table | Text:
    """The held tile's edges per rotation (habitat initial per direction NE ... NW).

    With ``at``: a first row with the habitat of each touching neighbour edge, and per
    rotation how many edges match it; rotations not in ``allowed`` are marked."""
    tile = TILES[tile_id]
    if tile.keystone:
        (habitat,) = tile.habitats
        return Text.assemble(
            "keystone: ", (habitat, HABITAT_STYLE[habitat]), " on every edge; the rotation does not matter"
        )
    a, b = tile.habitats
    legend = Text.assemble(
        (HABITAT_LETTER[a], HABITAT_STYLE[a]), f" {a}   ", (HABITAT_LETTER[b], HABITAT_STYLE[b]), f" {b}"
    )
    title = Text.assemble(f"tile {tile_name(tile_id)}: edges by rotation  ", legend)
    columns = ["rotation", *DIRECTION_NAMES]
    near: list[str | None] = []
    if at is not None and environment is not None:
        near = [
            environment.edges(n)[opposite(i)] if n in environment.tiles else None
            for i, n in enumerate(neighbours(at))
        ]
        columns.append("matches")
        title.append(f"  at ({at[0]}, {at[1]})")
    table = Table(*columns, title=title, title_justify="left", box=None, pad_edge=False)
    if near:
        table.add_row(
            Text("neighbours", style="dim"),
            *(Text(HABITAT_LETTER[h], style=HABITAT_STYLE[h]) if h else Text("-", style="dim") for h in near),
            "",
        )
    allowed_set = set(allowed) if allowed is not None else None
    for rotation in distinct_rotations(tile_id):
        edges = tile_edges(tile_id, rotation)
        cells = [Text(HABITAT_LETTER[h], style=HABITAT_STYLE[h]) for h in edges]
        row = [str(rotation), *cells]
        if near:
            matches = sum(1 for h, n in zip(edges, near, strict=True) if n == h)
            note = "" if allowed_set is None or rotation in allowed_set else " (not allowed)"
            row.append(f"{matches}{note}")
        table.add_row(*row)
    return table


def card_rules(cards: Mapping[str, str | None]) -> list[str]:
    """What each species' card scores, one paragraph each: the rule text of RULES.md 5
    that the card's scoring function quotes in its docstring. ``cards`` come from a player
    view: a card the viewer may not see (``None``) is said to be face down."""
    said = []
    for species, card in cards.items():
        if card is None:
            said.append(f"{species} hidden: another player's secret card, face down (RULES.md 7.10)")
            continue
        doc = inspect.getdoc(card_scorer(species, card)) or ""
        title, _, body = doc.partition("\n")
        title = title.strip().rstrip(".")
        prefix = f"{species} {card}".lower()
        name = title[len(prefix) :].strip(" ,") if title.lower().startswith(prefix) else ""
        body = re.sub(r"RULES\.md [\d.]+:\s*", "", body.replace("**", "").replace("``", "").replace('"', ""))
        body = re.sub(r"\s+", " ", body).strip()
        said.append(f"{species} {card}{f' ({name})' if name else ''}: {body}")
    return said
