"""A game's running totals as an SVG line graph: one line per player, turn by turn, with
the analysed moves marked (``cascadia analyse``: inaccuracy, mistake, blunder).

The x axis is the game's turn (0: after setup), the y axis the running total (RULES.md 5:
the score sheet of the boards as they stand). A total a viewer may not see (``None``)
breaks its line. Each player's line is a ``<polyline>`` with the id ``score-line-S``; each
marked move a ``<circle>`` with the class ``tag-TAG`` and a ``<title>`` saying what it lost;
the vertical line ``score-cursor`` marks the turn on show (the viewer's script moves it:
turn ``t`` is at ``x0 + (x1 - x0) * t / last``, the ``data-`` attributes of the ``<svg>``).
Pure and deterministic: the same input gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from cascadia.projections.svg import num

WIDTH = 640.0
HEIGHT = 220.0
LEFT, RIGHT, TOP, BOTTOM = 40.0, 120.0, 12.0, 28.0
LINE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
XMLNS = ' xmlns="http://www.w3.org/2000/svg"'
CENTRED = 'font-size="10" text-anchor="middle"'
TAG_COLOURS: Mapping[str, str] = {"inaccuracy": "#e6b800", "mistake": "#ff7f0e", "blunder": "#b00000"}


def score_graph_svg(
    turns: Sequence[int],
    totals: Sequence[Sequence[int | None]],
    names: Sequence[str],
    marks: Sequence[Mapping[str, Any]] = (),
    *,
    standalone: bool = True,
) -> str:
    """The graph of ``totals[i][seat]`` (the totals after ``turns[i]``) for each of
    ``names``; ``marks``: analysed moves, each with ``turn``, ``seat``, ``tag`` (or None:
    not drawn) and ``lost``. ``standalone=False``: for inline use in HTML (no
    namespace declaration)."""
    last = max(turns[-1], 1) if turns else 1
    seen = [t for row in totals for t in row if t is not None]
    top = max(10, -(-max(seen, default=0) // 10) * 10)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(turn: float) -> str:
        return num(LEFT + plot_w * turn / last)

    def y(total: float) -> str:
        return num(TOP + plot_h * (1 - total / top))

    parts = [
        f'<svg{XMLNS if standalone else ""} class="score-graph" '
        f'viewBox="0 0 {num(WIDTH)} {num(HEIGHT)}" width="{num(WIDTH)}" height="{num(HEIGHT)}" '
        'role="img" aria-label="running totals by turn" '
        f'data-x0="{num(LEFT)}" data-x1="{num(LEFT + plot_w)}" data-last="{last}">',
        f'<rect x="{num(LEFT)}" y="{num(TOP)}" width="{num(plot_w)}" height="{num(plot_h)}" '
        'fill="#fafafa" stroke="#999"/>',
    ]
    for step in range(0, top + 1, max(10, top // 5 // 10 * 10)):
        parts.append(
            f'<line x1="{num(LEFT)}" x2="{num(LEFT + plot_w)}" y1="{y(step)}" y2="{y(step)}" stroke="#ddd"/>'
            f'<text x="{num(LEFT - 4)}" y="{y(step)}" font-size="10" text-anchor="end" '
            f'dominant-baseline="middle">{step}</text>'
        )
    tick = max(1, last // 10)
    for turn in range(0, last + 1, tick):
        parts.append(f'<text x="{x(turn)}" y="{num(HEIGHT - BOTTOM + 12)}" {CENTRED}>{turn}</text>')
    parts.append(f'<text x="{num(LEFT + plot_w / 2)}" y="{num(HEIGHT - 4)}" {CENTRED}>turn</text>')
    by_turn = dict(zip(turns, range(len(turns)), strict=True))
    for seat, name in enumerate(names):
        colour = LINE_COLOURS[seat % len(LINE_COLOURS)]
        points = [
            f"{x(turn)},{y(row[seat])}"
            for turn, row in zip(turns, totals, strict=True)
            if seat < len(row) and row[seat] is not None
        ]
        parts.append(
            f'<polyline id="score-line-{seat}" fill="none" stroke="{colour}" stroke-width="2" '
            f'points="{" ".join(points)}"/>'
        )
        legend_y = num(TOP + 14 * seat + 6)
        parts.append(
            f'<line x1="{num(WIDTH - RIGHT + 8)}" x2="{num(WIDTH - RIGHT + 22)}" y1="{legend_y}" '
            f'y2="{legend_y}" stroke="{colour}" stroke-width="2"/>'
            f'<text x="{num(WIDTH - RIGHT + 26)}" y="{legend_y}" font-size="10" '
            f'dominant-baseline="middle">{escape(name[:16])}</text>'
        )
    for mark in marks:
        tag, turn, seat = mark.get("tag"), mark["turn"], mark["seat"]
        index = by_turn.get(turn)
        if tag not in TAG_COLOURS or index is None or totals[index][seat] is None:
            continue
        title = f"turn {turn}, {names[seat]}: {tag}, {mark['lost']} points lost"
        parts.append(
            f'<circle class="tag-{tag}" cx="{x(turn)}" cy="{y(totals[index][seat])}" r="4" '
            f'fill="{TAG_COLOURS[tag]}" stroke="#000" stroke-width="0.5">'
            f"<title>{escape(title)}</title></circle>"
        )
    parts.append(
        f'<line id="score-cursor" x1="{x(0)}" x2="{x(0)}" y1="{num(TOP)}" y2="{num(TOP + plot_h)}" '
        'stroke="#444" stroke-dasharray="3 3"/>'
    )
    parts.append("</svg>")
    return "".join(parts)
