"""The achievement map as a picture (SVG) and as a self-contained HTML page.

Each player's path is a trail of :data:`~cascadia.domain.achievement_map.PATH_LENGTH`
cells in five rows of ten, running left to right and back (a hiking trail); a filled
cell is a disc in the path's colour with the number of the cell, and its tooltip names
the achievement and the game; a milestone cell (RULES.md 8.1: 8, 16, 24, 32, 40, 50)
has a ring and the milestone's name. The cells only scenarios can fill (36-50 here,
RULES.md 9) are dotted. Colours are the project's colour-blind-safe palette, and every
cell also carries text, so nothing depends on telling colours apart.

Pure functions of the progress data (:func:`~cascadia.projections.achievement_progress.map_progress`):
the same map gives the same bytes.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from cascadia.domain.achievement_map import MILESTONES, PATH_LENGTH
from cascadia.projections.achievement_progress import achievement_label
from cascadia.projections.svg import BACKGROUND, FONT_FAMILY, INK, SVG_NAMESPACE

PATH_COLOURS = ("#4477AA", "#EE6677", "#228833", "#CCBB44", "#AA3377")
"""One colour per path (Paul Tol's "bright" scheme)."""

PER_ROW = 10
CELL = 34.0
RADIUS = 13.0
BLOCK_WIDTH = PER_ROW * CELL + 20.0
BLOCK_HEIGHT = (PATH_LENGTH // PER_ROW) * CELL + 48.0
COLUMNS = 2


def _cell_centre(index: int) -> tuple[float, float]:
    """The centre of cell ``index`` (0-based) inside a path's block: rows of ten, the
    odd rows running right to left."""
    row, column = divmod(index, PER_ROW)
    if row % 2:
        column = PER_ROW - 1 - column
    return 10.0 + CELL * column + CELL / 2, 40.0 + CELL * row + CELL / 2


def _path_block(player: dict[str, Any], reachable: int) -> list[str]:
    colour = PATH_COLOURS[player["path"] % len(PATH_COLOURS)]
    reached = ", ".join(m["name"] for m in player["milestones"]) or "no milestone yet"
    parts = [
        f'<text x="10" y="18" font-size="15" font-weight="bold" fill="{INK}">'
        f"{escape(player['player'])}</text>",
        f'<text x="10" y="34" font-size="11" fill="{INK}">{player["filled"]} of {reachable} cells · '
        f"{escape(reached)}</text>",
    ]
    previous: tuple[float, float] | None = None
    for index in range(PATH_LENGTH):
        x, y = _cell_centre(index)
        if previous is not None:
            parts.append(
                f'<line x1="{previous[0]:.1f}" y1="{previous[1]:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                f'stroke="#B8B0A0" stroke-width="2"/>'
            )
        previous = (x, y)
    for index in range(PATH_LENGTH):
        parts.append(_cell(player, index, colour, reachable))
    return parts


def _cell(player: dict[str, Any], index: int, colour: str, reachable: int) -> str:
    x, y = _cell_centre(index)
    number = index + 1
    filled = player["cells"][index] if index < len(player["cells"]) else None
    milestone = MILESTONES.get(number)
    title = f"cell {number}"
    if filled is not None:
        title += f": {achievement_label(filled['achievement'])} (game {filled['game_id'][:8]})"
    if milestone:
        title += f" · milestone: {milestone}"
    fill, ink, dash = (colour, "#FFFFFF", "") if filled else ("#FFFFFF", "#6B6458", "")
    if filled is None and number > reachable:
        dash = ' stroke-dasharray="2 3"'
    ring = (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS + 3:.1f}" fill="none" stroke="{INK}" '
        'stroke-width="2"/>'
        if milestone
        else ""
    )
    return (
        f'<g class="cell{" filled" if filled else ""}"><title>{escape(title)}</title>{ring}'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS:.1f}" fill="{fill}" stroke="{colour}" '
        f'stroke-width="2"{dash}/>'
        f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" text-anchor="middle" fill="{ink}">'
        f"{number}</text></g>"
    )


def map_svg(progress: dict[str, Any], columns: int = COLUMNS) -> str:
    """The map's paths as one SVG document, ``columns`` paths side by side per row (one
    for a narrow screen, where two would shrink every cell by half)."""
    players = progress["players"]
    rows = max(1, -(-len(players) // columns))
    width = columns * BLOCK_WIDTH
    height = 36.0 + rows * BLOCK_HEIGHT
    parts = [
        f'<svg xmlns="{SVG_NAMESPACE}" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" '
        f'height="{height:.0f}" font-family="{FONT_FAMILY}" role="img" '
        f'aria-label="achievement map {escape(progress["name"])}">',
        f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>',
        f'<text x="10" y="24" font-size="18" font-weight="bold" fill="{INK}">'
        f"Achievement map: {escape(progress['name'])}</text>",
    ]
    if not players:
        parts.append(f'<text x="10" y="60" font-size="13" fill="{INK}">no players yet</text>')
    for n, player in enumerate(players):
        row, column = divmod(n, columns)
        parts.append(f'<g transform="translate({column * BLOCK_WIDTH:.0f},{36 + row * BLOCK_HEIGHT:.0f})">')
        parts.extend(_path_block(player, progress["reachable"]))
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def map_html(progress: dict[str, Any]) -> str:
    """A self-contained page: the picture, then each path's marks and milestones as a table."""
    sections = []
    for player in progress["players"]:
        rows = "".join(
            f"<tr><td>{c['cell']}</td><td>{escape(achievement_label(c['achievement']))}</td>"
            f"<td>{escape(c['mode'])}</td><td><code>{escape(c['game_id'][:8])}</code></td></tr>"
            for c in player["cells"]
        )
        milestones = ", ".join(f"{m['name']} ({m['cells']})" for m in player["milestones"]) or "none yet"
        sections.append(
            f"<section><h2>{escape(player['player'])}</h2><p>{player['filled']} cells · milestones: "
            f"{escape(milestones)}</p><table><thead><tr><th>cell</th><th>achievement</th><th>mode</th>"
            f"<th>game</th></tr></thead><tbody>{rows}</tbody></table></section>"
        )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Achievement map: {escape(progress['name'])}</title><style>"
        f"body{{margin:0;padding:12px;background:{BACKGROUND};color:{INK};font-family:{FONT_FAMILY}}}"
        "svg{width:100%;height:auto;max-width:760px;display:block}"
        "table{border-collapse:collapse;font-size:14px}td,th{padding:2px 8px;text-align:left}"
        "section{margin-top:12px;overflow-x:auto}"
        f"</style></head><body>{map_svg(progress)}{''.join(sections)}</body></html>"
    )
