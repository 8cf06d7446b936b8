"""Pictures of a game as SVG: a player's board, the market, a legend.

Hexes are pointy-top at their axial position (RULES.md 2): ``(q, r)`` lies at
``x = size * sqrt(3) * (q + r / 2)``, ``y = size * 3 / 2 * r``. Corner ``k`` of a hex is
at the angle ``60 k - 90`` degrees (clockwise from east, as the y axis points down), so
edge ``i`` (``0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW``) runs from corner ``i`` to corner
``i + 1``. Each hex is drawn as its six edge triangles (centre to edge), each filled with
the habitat on that edge (:func:`~cascadia.domain.hexgrid.tile_edges`): a dual tile shows
its two halves as its rotation turns them, a keystone is one colour and carries a small
white diamond. The wildlife a tile shows are small lettered discs; a placed token is a
large disc with the species' letter.

Colours: the five habitats use Paul Tol's colour-blind-safe "bright" scheme (grey,
green, yellow, cyan, blue); the species discs differ in lightness as well as hue and
always carry their letter (**B**ear, **E**lk, **S**almon, **H**awk, **F**ox), so nothing
depends on telling colours apart.

Everything here is a pure function of its arguments, uses only the standard library,
and gives the same bytes for the same input (hexes are drawn in sorted order and every
number is rounded to one decimal).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from xml.sax.saxutils import escape

from cascadia.domain.components import HABITATS, TILES, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex, tile_edges
from cascadia.domain.state import GameState

HEX_SIZE = 30.0
"""Centre-to-corner distance of a hex, in SVG user units."""

HABITAT_COLOURS: Mapping[str, str] = {
    "mountain": "#A5A5A5",
    "forest": "#228833",
    "prairie": "#CCBB44",
    "wetland": "#66CCEE",
    "river": "#4477AA",
}
"""Fill of each habitat (Paul Tol's "bright" scheme, mountain a darker grey)."""

WILDLIFE_COLOURS: Mapping[str, str] = {
    "bear": "#5B3A1E",
    "elk": "#C99A5B",
    "salmon": "#EE7A95",
    "hawk": "#7FB2E5",
    "fox": "#E8601C",
}
"""Fill of each species' disc."""

WILDLIFE_INK: Mapping[str, str] = {
    "bear": "#FFFFFF",
    "elk": "#1A1A1A",
    "salmon": "#1A1A1A",
    "hawk": "#1A1A1A",
    "fox": "#1A1A1A",
}
"""Colour of the letter on each species' disc (the one that contrasts with it)."""

WILDLIFE_LETTERS: Mapping[str, str] = {"bear": "B", "elk": "E", "salmon": "S", "hawk": "H", "fox": "F"}
FONT_FAMILY = "system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"
BACKGROUND = "#F6F3EA"
INK = "#2B2B2B"
HIGHLIGHT = "#111111"
TOKEN_RING = "#FFF8E6"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"

_SQRT3 = math.sqrt(3.0)
_INSET = 0.95
"""Tiles are drawn slightly smaller than their cell, so a thin gutter separates them."""
_MARGIN = 8.0
_CAPTION = 24.0
_CAPTION_CHAR = 8.2
"""A generous width of one character of a 15-unit caption (to keep captions apart)."""

ViewBox = tuple[float, float, float, float]
"""``(x, y, width, height)`` of an SVG view box."""


# -- numbers and geometry ----------------------------------------------------------------


def num(x: float) -> str:
    """A coordinate as short, stable text: one decimal, no trailing zero, no ``-0``."""
    text = f"{round(x, 6):.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def hex_center(q: int, r: int, size: float = HEX_SIZE) -> tuple[float, float]:
    """The pixel centre of axial hex ``(q, r)`` (pointy-top, y down)."""
    return size * _SQRT3 * (q + r / 2), size * 1.5 * r


def hex_corners(radius: float) -> tuple[tuple[float, float], ...]:
    """The six corners of a pointy-top hex around ``(0, 0)``: corner ``k`` at ``60 k - 90``
    degrees, so that edge ``i`` joins corners ``i`` and ``i + 1``."""
    return tuple(
        (radius * math.cos(math.radians(60 * k - 90)), radius * math.sin(math.radians(60 * k - 90)))
        for k in range(6)
    )


def _polygon(points: Iterable[tuple[float, float]]) -> str:
    return "M" + "L".join(f"{num(x)} {num(y)}" for x, y in points) + "Z"


def _view_text(view: ViewBox) -> str:
    return " ".join(num(v) for v in view)


def board_view(hexes: Iterable[Hex], size: float = HEX_SIZE, margin: float = _MARGIN) -> ViewBox:
    """The view box that frames ``hexes`` (a single hex at the origin when there are none)."""
    centres = [hex_center(q, r, size) for q, r in hexes] or [(0.0, 0.0)]
    half_width = size * _SQRT3 / 2
    left = min(x for x, _ in centres) - half_width - margin
    right = max(x for x, _ in centres) + half_width + margin
    top = min(y for _, y in centres) - size - margin
    bottom = max(y for _, y in centres) + size + margin
    return (left, top, right - left, bottom - top)


def common_views(boards: Sequence[Iterable[Hex]], size: float = HEX_SIZE) -> list[ViewBox]:
    """One view box per board, all of the same width and height (the largest), each
    centred on its own board: boards drawn side by side then share one scale."""
    views = [board_view(hexes, size) for hexes in boards]
    width = max((v[2] for v in views), default=0.0)
    height = max((v[3] for v in views), default=0.0)
    return [(x + (w - width) / 2, y + (h - height) / 2, width, height) for x, y, w, h in views]


# -- pieces ------------------------------------------------------------------------------


def _disc(x: float, y: float, radius: float, species: str, font: float, ring: float) -> str:
    """A species disc with its letter (a token, or a wildlife symbol on a tile)."""
    return (
        f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(radius)}" fill="{WILDLIFE_COLOURS[species]}" '
        f'stroke="{TOKEN_RING}" stroke-width="{num(ring)}"/>'
        f'<text x="{num(x)}" y="{num(y + 0.36 * font)}" font-size="{num(font)}" font-weight="700" '
        f'fill="{WILDLIFE_INK[species]}">{WILDLIFE_LETTERS[species]}</text>'
    )


def _symbol_positions(count: int, size: float) -> list[tuple[float, float]]:
    if count == 1:
        return [(0.0, 0.0)]
    if count == 2:
        return [(-0.27 * size, 0.05 * size), (0.27 * size, 0.05 * size)]
    return [(-0.27 * size, 0.2 * size), (0.27 * size, 0.2 * size), (0.0, -0.26 * size)]


def _describe(q: int, r: int, tile_id: int, rotation: int, token: str | None) -> str:
    tile = TILES[tile_id]
    habitats = "/".join(tile.habitats) + (" keystone" if tile.keystone else f", rotation {rotation}")
    placed = f"; token {token}" if token else ""
    return f"({q}, {r}) tile {tile_id}: {habitats}; shows {', '.join(tile.wildlife)}{placed}"


def tile_body(tile_id: int, rotation: int, token: str | None, size: float = HEX_SIZE) -> str:
    """The drawing of one tile around ``(0, 0)``: six edge triangles, outline, keystone
    marker, and the token or else the wildlife symbols."""
    tile = TILES[tile_id]
    corners = hex_corners(size * _INSET)
    parts = ['<g class="edges" stroke-width=".8" stroke-linejoin="round">']
    for edge, habitat in enumerate(tile_edges(tile_id, rotation)):
        colour = HABITAT_COLOURS[habitat]
        a, b = corners[edge], corners[(edge + 1) % 6]
        parts.append(
            f'<path data-edge="{edge}" fill="{colour}" stroke="{colour}" '
            f'd="M0 0L{num(a[0])} {num(a[1])}L{num(b[0])} {num(b[1])}Z"/>'
        )
    parts.append("</g>")
    parts.append(
        f'<path fill="none" stroke="{INK}" stroke-opacity=".45" stroke-width="1" d="{_polygon(corners)}"/>'
    )
    if tile.keystone:
        top = -0.78 * size
        half = 0.1 * size
        parts.append(
            f'<path class="keystone" fill="#FFFFFF" stroke="{INK}" stroke-width=".8" '
            f'd="M0 {num(top)}l{num(half)} {num(half * 1.3)}l{num(-half)} {num(half * 1.3)}'
            f'l{num(-half)} {num(-half * 1.3)}Z"/>'
        )
    if token is not None:
        parts.append(
            f'<g class="token" data-wildlife="{token}">'
            + _disc(0, 0, 0.47 * size, token, 0.52 * size, 0.09 * size)
            + "</g>"
        )
    else:
        positions = _symbol_positions(len(tile.wildlife), size)
        for species, (x, y) in zip(tile.wildlife, positions, strict=True):
            parts.append(
                f'<g class="symbol" data-wildlife="{species}">'
                + _disc(x, y, 0.2 * size, species, 0.25 * size, 0.045 * size)
                + "</g>"
            )
    return "".join(parts)


def hex_fragment(
    q: int, r: int, tile_id: int, rotation: int, token: str | None, size: float = HEX_SIZE
) -> str:
    """One placed tile as a ``<g class="hex">`` at its axial position, with a tooltip."""
    x, y = hex_center(q, r, size)
    token_attr = f' data-wildlife="{token}"' if token else ""
    return (
        f'<g class="hex" data-q="{q}" data-r="{r}" data-tile="{tile_id}" data-rotation="{rotation}"'
        f'{token_attr} transform="translate({num(x)} {num(y)})">'
        f"<title>{escape(_describe(q, r, tile_id, rotation, token))}</title>"
        f"{tile_body(tile_id, rotation, token, size)}</g>"
    )


def highlight_fragment(q: int, r: int, size: float = HEX_SIZE) -> str:
    """A bold outline around hex ``(q, r)`` (the tile placed last)."""
    x, y = hex_center(q, r, size)
    outline = _polygon(hex_corners(size * _INSET))
    return (
        f'<g class="highlight" transform="translate({num(x)} {num(y)})" fill="none" stroke-linejoin="round">'
        f'<path stroke="#FFFFFF" stroke-width="6" d="{outline}"/>'
        f'<path stroke="{HIGHLIGHT}" stroke-width="3" d="{outline}"/></g>'
    )


def token_ring_fragment(q: int, r: int, size: float = HEX_SIZE) -> str:
    """A dashed ring around the token on hex ``(q, r)`` (the token placed last)."""
    x, y = hex_center(q, r, size)
    return (
        f'<circle class="token-highlight" cx="{num(x)}" cy="{num(y)}" r="{num(0.6 * size)}" fill="none" '
        f'stroke="{HIGHLIGHT}" stroke-width="2.2" stroke-dasharray="4 3"/>'
    )


def board_fragments(environment: Environment, size: float = HEX_SIZE) -> list[str]:
    """Every placed tile of ``environment`` as a :func:`hex_fragment`, in hex order."""
    return [
        hex_fragment(q, r, tile_id, rotation, environment.wildlife.get((q, r)), size)
        for (q, r), (tile_id, rotation) in sorted(environment.tiles.items())
    ]


def legend_fragment(x: float, y: float, width: float) -> tuple[str, float]:
    """The habitat and species key, laid out from ``(x, y)`` within ``width`` (one row
    when it fits, else habitats then species); returns the fragment and its height."""
    column = 92.0
    per_row = max(1, int(width // column))
    groups: list[list[tuple[str, str]]] = [
        [("habitat", h) for h in HABITATS],
        [("wildlife", w) for w in WILDLIFE],
    ]
    if per_row >= len(HABITATS) + len(WILDLIFE):
        groups = [groups[0] + groups[1]]
    row_height = 22.0
    parts = ['<g class="legend" font-size="12">']
    row = 0
    for group in groups:
        for index, (kind, name) in enumerate(group):
            if index and index % per_row == 0:
                row += 1
            cx = x + (index % per_row) * column
            cy = y + row * row_height
            if kind == "habitat":
                parts.append(
                    f'<rect x="{num(cx)}" y="{num(cy)}" width="16" height="16" rx="3" '
                    f'fill="{HABITAT_COLOURS[name]}" stroke="{INK}" stroke-opacity=".45"/>'
                )
            else:
                parts.append(_disc(cx + 8, cy + 8, 8, name, 10, 1.2))
            parts.append(
                f'<text x="{num(cx + 21)}" y="{num(cy + 12.5)}" text-anchor="start" '
                f'fill="{INK}">{name}</text>'
            )
        row += 1
    parts.append("</g>")
    return "".join(parts), row * row_height


def svg_open(view: ViewBox, *, standalone: bool = True, scale: float = 1.0, extra: str = "") -> str:
    """The opening ``<svg>`` tag with the shared text settings; ``standalone`` adds the
    namespace (an SVG inside an HTML page does without it)."""
    namespace = f' xmlns="{SVG_NAMESPACE}"' if standalone else ""
    return (
        f'<svg{namespace} viewBox="{_view_text(view)}" width="{num(view[2] * scale)}" '
        f'height="{num(view[3] * scale)}" font-family="{FONT_FAMILY}" text-anchor="middle"{extra}>'
    )


def _background(view: ViewBox) -> str:
    x, y, w, h = view
    return f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" fill="{BACKGROUND}"/>'


# -- whole pictures ----------------------------------------------------------------------


def environment_svg(
    environment: Environment,
    *,
    highlight: Hex | None = None,
    token_highlight: Hex | None = None,
    legend: bool = False,
    title: str | None = None,
    size: float = HEX_SIZE,
    view: ViewBox | None = None,
    standalone: bool = True,
) -> str:
    """A player's board as a standalone SVG document.

    ``highlight`` outlines one hex (the tile placed last) and ``token_highlight`` rings
    one token; ``legend`` adds the colour key below the board; ``title`` a caption above
    it (escaped). ``view`` fixes the framed area (for example the extent of the board at
    the end of the game, so that successive pictures line up); by default the board's
    own extent. ``standalone=False`` leaves out the XML namespace, for inline use in HTML.
    """
    x, y, width, height = view or board_view(environment.tiles, size)
    parts: list[str] = []
    top = y
    if title is not None:
        top -= _CAPTION
        parts.append(
            f'<text x="{num(x + 6)}" y="{num(y - 7)}" text-anchor="start" font-size="15" '
            f'font-weight="600" fill="{INK}">{escape(title)}</text>'
        )
    parts.extend(board_fragments(environment, size))
    if not environment.tiles:
        parts.append(f'<text x="0" y="4" font-size="12" fill="{INK}">no tiles</text>')
    if highlight is not None and highlight in environment.tiles:
        parts.append(highlight_fragment(*highlight, size))
    if token_highlight is not None and token_highlight in environment.wildlife:
        parts.append(token_ring_fragment(*token_highlight, size))
    bottom = y + height
    if legend:
        width = max(width, 92.0 * 5 + 2 * _MARGIN)
        fragment, legend_height = legend_fragment(x + _MARGIN, bottom + 4, width - 2 * _MARGIN)
        parts.append(fragment)
        bottom += legend_height + 8
    frame = (x, top, width, bottom - top)
    return svg_open(frame, standalone=standalone) + _background(frame) + "".join(parts) + "</svg>\n"


def game_svg(
    state: GameState,
    *,
    seats: Sequence[int] | None = None,
    highlight: tuple[int, Hex] | None = None,
    token_highlight: tuple[int, Hex] | None = None,
    totals: Sequence[int | None] | None = None,
    legend: bool = True,
    size: float = HEX_SIZE,
    columns: int | None = None,
) -> str:
    """Several players' boards in a grid (all seats by default), on one scale, each
    with a caption (seat, name, nature tokens and, given ``totals``, the score).

    ``columns`` boards per row: by default two rows of two for four boards (one row of
    four would be some 1700 units wide), else one row. ``highlight`` /
    ``token_highlight`` are ``(seat, hex)``: the tile or token placed last."""
    chosen = list(range(len(state.players))) if seats is None else list(seats)
    views = common_views([state.players[s].environment.tiles for s in chosen], size)
    captions = []
    for seat in chosen:
        player = state.players[seat]
        caption = f"seat {seat} · {player.name} · {player.nature_tokens} nature"
        if totals is not None and totals[seat] is not None:  # None: hidden from the viewer
            caption += f" · {totals[seat]} points"
        captions.append(caption)
    cell_height = max((v[3] for v in views), default=0.0)
    cell_width = max([v[2] for v in views] + [_CAPTION_CHAR * len(c) + 12 for c in captions])
    views = [(x - (cell_width - w) / 2, y, cell_width, h) for x, y, w, h in views]
    gap = 12.0
    per_row = max(1, columns if columns is not None else (2 if len(chosen) == 4 else len(chosen)))
    rows = max(1, -(-len(chosen) // per_row))
    parts: list[str] = []
    for index, (seat, view, caption) in enumerate(zip(chosen, views, captions, strict=True)):
        player = state.players[seat]
        left = (index % per_row) * (cell_width + gap)
        top = (index // per_row) * (_CAPTION + cell_height + gap)
        parts.append(
            f'<text x="{num(left + 6)}" y="{num(top + 17)}" text-anchor="start" font-size="15" '
            f'font-weight="600" fill="{INK}">{escape(caption)}</text>'
        )
        inner = board_fragments(player.environment, size)
        if highlight is not None and highlight[0] == seat and highlight[1] in player.environment.tiles:
            inner.append(highlight_fragment(*highlight[1], size))
        if (
            token_highlight is not None
            and token_highlight[0] == seat
            and token_highlight[1] in player.environment.wildlife
        ):
            inner.append(token_ring_fragment(*token_highlight[1], size))
        parts.append(
            f'<svg class="board" data-seat="{seat}" x="{num(left)}" y="{num(top + _CAPTION)}" '
            f'width="{num(view[2])}" height="{num(view[3])}" viewBox="{_view_text(view)}">'
            + "".join(inner)
            + "</svg>"
        )
    width = max(min(len(chosen), per_row) * (cell_width + gap) - gap, 1.0)
    height = rows * (_CAPTION + cell_height + gap) - gap
    if legend:
        width = max(width, 92.0 * 5 + 2 * _MARGIN)
        fragment, legend_height = legend_fragment(_MARGIN, height + 4, width - 2 * _MARGIN)
        parts.append(fragment)
        height += legend_height + 8
    frame = (0.0, 0.0, width, height)
    return svg_open(frame) + _background(frame) + "".join(parts) + "</svg>\n"


def _market_layout(size: float) -> tuple[float, float, float]:
    """Slot width, token centre height and slot label height of the market picture."""
    return size * _SQRT3 + 14, size + 8 + 0.5 * size, -size - 6


def market_view(slots: int, size: float = HEX_SIZE) -> ViewBox:
    """The view box of a market of ``slots`` slots (see :func:`market_svg`)."""
    slot_width, token_y, label_y = _market_layout(size)
    top = label_y - 14
    return (0.0, top, max(slots, 1) * slot_width, token_y + 0.5 * size + 6 - top)


def market_labels(slots: int, size: float = HEX_SIZE) -> str:
    """The slot numbers above the market's slots."""
    slot_width, _, label_y = _market_layout(size)
    return "".join(
        f'<text x="{num(slot * slot_width + slot_width / 2)}" y="{num(label_y)}" font-size="11" '
        f'fill="{INK}">slot {slot}</text>'
        for slot in range(slots)
    )


def market_fragments(state: GameState, size: float = HEX_SIZE) -> list[str]:
    """Each market slot's tile and token (or a dashed outline where one is missing), as
    separate fragments in slot order, tile before token."""
    slot_width, token_y, _ = _market_layout(size)
    parts: list[str] = []
    for slot, (tile, token) in enumerate(zip(state.market_tiles, state.market_wildlife, strict=True)):
        cx = slot * slot_width + slot_width / 2
        if tile is None:
            parts.append(
                f'<path transform="translate({num(cx)} 0)" fill="none" stroke="{INK}" stroke-opacity=".5" '
                f'stroke-dasharray="4 3" d="{_polygon(hex_corners(size * _INSET))}"/>'
            )
        else:
            parts.append(
                f'<g class="slot" data-slot="{slot}" data-tile="{tile}" transform="translate({num(cx)} 0)">'
                f"<title>slot {slot}: tile {tile}, {escape('/'.join(TILES[tile].habitats))}, shows "
                f"{escape(', '.join(TILES[tile].wildlife))}</title>{tile_body(tile, 0, None, size)}</g>"
            )
        if token is None:
            parts.append(
                f'<circle cx="{num(cx)}" cy="{num(token_y)}" r="{num(0.47 * size)}" fill="none" '
                f'stroke="{INK}" stroke-opacity=".5" stroke-dasharray="4 3"/>'
            )
        else:
            parts.append(
                f'<g class="market-token" data-slot="{slot}" data-wildlife="{token}">'
                + _disc(cx, token_y, 0.47 * size, token, 0.52 * size, 0.09 * size)
                + "</g>"
            )
    return parts


def market_svg(state: GameState, *, size: float = HEX_SIZE, standalone: bool = True) -> str:
    """The market as an SVG: per slot (0, nearest the stack, on the left) its tile
    (rotation 0, with the wildlife it shows) and below it its token; an empty place is
    a dashed outline."""
    slots = len(state.market_tiles)
    frame = market_view(slots, size)
    return (
        svg_open(frame, standalone=standalone)
        + _background(frame)
        + market_labels(slots, size)
        + "".join(market_fragments(state, size))
        + "</svg>\n"
    )


def legend_svg(width: float = 92.0 * 5 + 2 * _MARGIN, *, standalone: bool = True) -> str:
    """The colour key alone: the five habitats and the five species."""
    fragment, height = legend_fragment(_MARGIN, _MARGIN, width - 2 * _MARGIN)
    frame = (0.0, 0.0, width, height + 2 * _MARGIN - 6)
    return svg_open(frame, standalone=standalone) + _background(frame) + fragment + "</svg>\n"
