"""A self-contained HTML replay viewer for a game: step through it turn by turn.

:func:`render_html` turns a log (audited in full first, like every other replay tool) or a
list of events into one HTML file with inline CSS and inline JavaScript, and no reference
to anything outside it (no network, no web fonts). A slider, previous/next buttons and
the arrow keys (Home/End too) select a point of the game: after setup, then after each
turn (a turn's automatic events, such as a refill or a mandatory wipe, included). For
that point the page shows every player's board (the tile placed in the turn outlined,
the token placed ringed), the market, the bag and the stack, the running scores of
:func:`~cascadia.projections.game_scores.score_state`, and the turn's events in words;
at the end a banner names the winner (a solo game: its rating). Given a viewer (a seat,
or a spectator), every point of the game shows only what that viewer may see then
(:func:`~cascadia.projections.player_view.player_view`). A "Copy position" button copies
the point shown in the position notation (docs/POSITION.md), for ``cascadia analyse
--position``.

Drawing: the page draws with the browser client's own module, ``server/static/draw.js``,
inlined here (its ``export`` keywords dropped) in front of ``replays/viewer_page.js``, so
the viewer and the client share one drawing code. The snapshots are plain data: per
seat, the placed tiles as ``[q, r, tile, rotation, species index or -1]``; each board is
framed on its extent at that point of the game, all boards of a snapshot on one scale.

Escaping: text that comes from a log (seat names above all) reaches the page only as
HTML-escaped text or inside the JSON data block, where ``<``, ``>`` and ``&`` are written as
``\\u003c``, ``\\u003e``, ``\\u0026``; the scripts put it on the page with ``textContent``
only.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from cascadia.domain import events as ev
from cascadia.domain.components import HABITATS, TILES, WILDLIFE
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState, evolve
from cascadia.domain.timeline import TurnPoints
from cascadia.projections.describe import describe_event, plural
from cascadia.projections.player_view import EVERYTHING, Viewer, check_viewer, player_view
from cascadia.projections.position import format_position
from cascadia.projections.render import render_cards
from cascadia.projections.score_graph import TAG_COLOURS, score_graph_svg
from cascadia.projections.turns import game_round, round_of_turn
from cascadia.replays.audit import verify
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import open_log

Source = str | os.PathLike[str] | Sequence[ev.GameEvent]
"""A log file's path, or a game's events in order."""


# -- snapshots ----------------------------------------------------------------------------


def _score_rows(sheet: Mapping[str, Any]) -> list[list[int | None]]:
    """Per seat: points per species, per habitat (corridors), bonuses, nature, total, rank
    (``None`` where a player view hides them)."""
    return [
        [p["wildlife"][s] for s in WILDLIFE]
        + [p["habitat_points"][h] for h in HABITATS]
        + [p["bonus_total"], p["nature_tokens"], p["total"], p["rank"]]
        for p in sheet["players"]
    ]


def _board(state: GameState, seat: int) -> list[list[int]]:
    """A seat's placed tiles as ``[q, r, tile, rotation, species index or -1]``, sorted."""
    env = state.players[seat].environment
    return [
        [q, r, tile, rotation, WILDLIFE.index(env.wildlife[(q, r)]) if (q, r) in env.wildlife else -1]
        for (q, r), (tile, rotation) in sorted(env.tiles.items())
    ]


def viewer_data(events: Sequence[ev.GameEvent], viewer: Viewer = EVERYTHING) -> dict[str, Any]:
    """The snapshots of a game (after setup, after each turn, and a last one if the
    events end inside a turn) as plain data, with the tile catalogue they refer to, each
    as ``viewer`` may see it (:func:`~cascadia.projections.player_view.player_view`)."""
    if not events or not isinstance(events[0], ev.GameStarted):
        raise ReplayError("a game's events start with GameStarted")
    final = Game.replay(events).state
    check_viewer(final, viewer)
    names = list(final.names)
    rounds = game_round(final).of
    state = GameState(final.game_id)
    snapshots: list[dict[str, Any]] = []
    pending: list[ev.GameEvent] = []

    def snapshot() -> None:
        placed: list[int] | None = None
        token: list[int] | None = None
        player: int | None = None
        for e in pending:
            if isinstance(e, ev.TilePlaced):
                placed = [e.player, e.q, e.r]
            elif isinstance(e, ev.WildlifePlaced):
                token = [e.player, e.q, e.r]
            elif isinstance(e, ev.TurnEnded):
                player = e.player
        completed = sum(1 for e in pending if isinstance(e, ev.TurnEnded))
        turn = snapshots[-1]["turn"] + completed if snapshots else 0
        seen = player_view(state, viewer)
        cards = render_cards(seen["cards"])
        if seen["second_cards"]:
            cards += f" | second set: {render_cards(seen['second_cards'])}"
        snapshots.append(
            {
                "turn": turn,
                "round": round_of_turn(turn, len(names)),
                "version": state.version,
                "player": player,
                "next": None if state.finished else state.current,
                "finished": state.finished,
                "complete": not snapshots or completed > 0,
                "boards": [_board(state, seat) for seat in range(len(state.players))],
                "placed": placed,
                "ring": token,
                "market": [
                    [tile, None if w is None else WILDLIFE.index(w)]
                    for tile, w in zip(state.market_tiles, state.market_wildlife, strict=True)
                ],
                "bag": list(state.bag),
                "stack": state.stack_size,
                "nature": [p.nature_tokens for p in state.players],
                "tiles": [len(p.environment.tiles) for p in state.players],
                "cards": cards,
                "scores": _score_rows(seen["scores"]),
                "rating": seen["scores"]["solo_rating"],
                "events": [describe_event(e, names, seen, rounds) for e in pending],
                "position": format_position(state, viewer),
            }
        )
        pending.clear()

    points = TurnPoints()
    for event in events:
        if points.before(event) is not None:
            snapshot()
        evolve(state, event)
        pending.append(event)
    if pending or not snapshots:
        snapshot()
    data = {
        "game_id": str(final.game_id),
        "names": names,
        "rounds": rounds,
        "species": list(WILDLIFE),
        "habitats": list(HABITATS),
        "catalogue": [[list(t.habitats), list(t.wildlife)] for t in TILES],
        "snapshots": snapshots,
    }
    if viewer is EVERYTHING:
        data["seed"] = final.seed
    return data


# -- the page -------------------------------------------------------------------------------


def load_events(path: str | os.PathLike[str]) -> list[ev.GameEvent]:
    """The events of the log at ``path``, audited in full (a bad log raises a
    :class:`~cascadia.replays.errors.ReplayError`)."""
    with open_log(path) as reader:
        _, events = verify(reader)
    return events


def _json_for_html(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` appears literally."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


DRAW_JS = Path(__file__).resolve().parents[1] / "server" / "static" / "draw.js"
"""The browser client's drawing module (package data of ``cascadia.server``)."""
PAGE_JS = Path(__file__).with_name("viewer_page.js")


@cache
def page_script() -> str:
    """The viewer's script: ``draw.js`` with its ``export`` keywords dropped, then
    ``viewer_page.js`` without its import of ``draw.js``, as one inline module."""
    draw = re.sub(r"^export (?=const |function )", "", DRAW_JS.read_text(encoding="utf-8"), flags=re.M)
    page = re.sub(
        r'^import \{[^}]*\} from "\./draw\.js";\n', "", PAGE_JS.read_text(encoding="utf-8"), flags=re.M
    )
    if re.search(r"^\s*(export|import)\b", draw + page, flags=re.M) or "</script" in draw + page:
        raise RuntimeError("draw.js or viewer_page.js has a form the viewer cannot inline")
    return draw + "\n" + page


TOTAL = len(WILDLIFE) + len(HABITATS) + 2
"""The index of the total in a snapshot's score row (see :func:`_score_rows`)."""
NOTE_FIELDS = ("turn", "seat", "played", "played_points", "best", "best_points", "lost", "tag")


def score_graph(data: Mapping[str, Any], notes: Sequence[Mapping[str, Any]] = ()) -> str:
    """The running totals of every player after setup and after each turn, as an SVG
    line graph (a total the viewer may not see breaks its line), the notes marked."""
    shown = [s for s in data["snapshots"] if s["complete"]]
    return score_graph_svg(
        [s["turn"] for s in shown],
        [[row[TOTAL] for row in s["scores"]] for s in shown],
        data["names"],
        notes,
        standalone=False,
    )


def check_analysis(rows: Sequence[Mapping[str, Any]], data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The notes of a move analysis (``cascadia analyse --json`` rows) for the game of
    ``data``; a :class:`ReplayError` for rows of another game, of a turn the game does
    not have or of a seat that did not play it, or not shaped like analysis rows."""
    played = {s["turn"]: s["player"] for s in data["snapshots"] if s["complete"] and s["player"] is not None}
    notes = []
    for number, row in enumerate(rows, 1):
        where = f"analysis row {number}"
        if not isinstance(row, Mapping) or any(k not in row for k in ("game_id", *NOTE_FIELDS)):
            raise ReplayError(f"{where}: not a row of cascadia analyse --json")
        if row["game_id"] != data["game_id"]:
            raise ReplayError(f"{where} is of game {row['game_id']}, not {data['game_id']}")
        if played.get(row["turn"], -1) != row["seat"]:
            raise ReplayError(f"{where}: seat {row['seat']} did not play turn {row['turn']} of this game")
        lost = row["lost"]
        if isinstance(lost, bool) or not isinstance(lost, int | float) or lost < 0:
            raise ReplayError(f"{where}: points lost {lost!r} is not a number >= 0")
        if row["tag"] is not None and row["tag"] not in TAG_COLOURS:
            raise ReplayError(f"{where}: unknown tag {row['tag']!r}")
        kind = row.get("kind", "move")  # rows written before wipes were judged are moves
        if not isinstance(kind, str) or not 0 < len(kind) <= 20:
            raise ReplayError(f"{where}: kind of decision {kind!r} is not a short name")
        notes.append({**{key: row[key] for key in NOTE_FIELDS}, "kind": kind})
    return notes


def render_html(
    source: Source,
    *,
    title: str | None = None,
    viewer: Viewer = EVERYTHING,
    analysis: Sequence[Mapping[str, Any]] | None = None,
) -> str:
    """The replay viewer of a game as one self-contained HTML page.

    ``source`` is a log file (audited in full first: a bad log raises a
    :class:`~cascadia.replays.errors.ReplayError` and nothing is rendered) or the
    game's events in order. Given a seat or ``"spectator"`` as ``viewer``, every step
    shows only what that viewer may see then (no seed; another seat's secret card only
    once revealed). ``analysis``: the game's move analysis (``cascadia analyse --json``
    rows, :func:`check_analysis`), shown turn by turn and marked on the score graph.
    The same input gives the same bytes."""
    events = list(source) if isinstance(source, Sequence) and not isinstance(source, str) else None
    if events is None:
        events = load_events(source)  # type: ignore[arg-type]
    data = viewer_data(events, viewer)
    names: list[str] = data["names"]
    notes = check_analysis(analysis, data) if analysis is not None else []
    if analysis is not None:
        data["analysis"] = notes
    first = next(e for e in events if isinstance(e, ev.GameStarted))
    heading = title or f"Cascadia · {', '.join(names)}"
    seed = [f"seed {data['seed']}"] if "seed" in data else []
    facts = [f"game {data['game_id']}", *seed, plural(len(names), "player")]
    changed = {k: v for k, v in first.options.items() if k != "cards"}
    default = GameOptions().to_dict()
    options = [f"{k}={v}" for k, v in sorted(changed.items()) if default.get(k) != v]
    drawn = any(isinstance(e, ev.ScoringCardsDrawn) for e in events)
    card_text = data["snapshots"][0]["cards"] if drawn else ""
    return _TEMPLATE.format(
        title=html.escape(heading),
        facts=html.escape(" · ".join(facts)),
        cards=html.escape(card_text or "cards not drawn"),
        options=html.escape(("options: " + ", ".join(options)) if options else "standard rules"),
        last=len(data["snapshots"]) - 1,
        data=_json_for_html(data),
        graph=score_graph(data, notes),
        analysed="" if analysis is not None else " hidden",
        style=_STYLE,
        script=page_script(),
    )


_STYLE = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#ece8dc;color:#2b2b2b;
 font:14px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif}
header{padding:10px 14px 4px}
h1{font-size:20px;margin:0 0 2px;overflow-wrap:anywhere}
.facts{color:#555;font-size:12.5px;overflow-wrap:anywhere}
.controls{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:6px 8px;align-items:center;
 padding:8px 14px;background:#2f4f4f;color:#fff}
.controls button{font:inherit;font-weight:600;border:0;border-radius:6px;padding:5px 10px;background:#f6f3ea;
 color:#2b2b2b;cursor:pointer;min-width:44px;min-height:36px;white-space:nowrap}
.controls button:focus-visible,#slider:focus-visible{outline:3px solid #ffcc33;outline-offset:2px}
#play{min-width:72px}
#slider{flex:1 1 160px;min-width:0;accent-color:#ffcc33}
#label{flex:1 1 100%;font-weight:600;min-width:0;overflow-wrap:anywhere}
@media (min-width:861px){#label{flex:0 1 auto;min-width:260px}}
#banner{margin:10px 14px 0;padding:10px 14px;border-radius:10px;background:#ffcc33;color:#2b2b2b;
 font-weight:700;font-size:16px;box-shadow:0 1px 3px #0003}
#banner[hidden]{display:none}
main{display:grid;grid-template-columns:minmax(280px,370px) minmax(0,1fr);gap:14px;padding:12px 14px 24px}
.panel,.player,.scores{background:#f6f3ea;border-radius:10px;padding:10px 12px;box-shadow:0 1px 3px #0002;
 min-width:0}
.side{display:flex;flex-direction:column;gap:12px;min-width:0}
h2{font-size:15px;margin:0 0 6px;display:flex;flex-wrap:wrap;justify-content:space-between;gap:2px 8px;
 align-items:baseline}
h3{font-size:13px;margin:8px 0 4px;color:#444}
#market svg{width:100%;height:auto;display:block}
.bag{display:flex;flex-wrap:wrap;gap:10px;align-items:center}
.bagitem{display:inline-flex;gap:3px;align-items:center}
.chip{vertical-align:middle;flex:none}
#events{margin:0;padding-left:20px;font-size:12.5px;max-height:360px;overflow:auto;overflow-wrap:anywhere}
#events li{margin:2px 0}
.boards{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,300px),1fr));gap:12px}
.player.active{box-shadow:0 0 0 3px #2f4f4f}
.player.next h2 .pname::before{content:"\\25B6  ";color:#2f4f4f}
.pinfo{font-weight:400;color:#555;font-size:12.5px}
svg.board{width:100%;height:auto;display:block;max-height:62vh;aspect-ratio:1.15}
.maincol{display:flex;flex-direction:column;gap:12px;min-width:0}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:3px 5px;text-align:right;border-bottom:1px solid #0001}
th{font-size:11px;color:#444;font-weight:600;vertical-align:bottom}
th .col{display:flex;flex-direction:column;align-items:flex-end;gap:1px}
th.name,td.name{text-align:left;position:sticky;left:0;background:#f6f3ea;max-width:9em;overflow:hidden;
 text-overflow:ellipsis;white-space:nowrap}
td.total,th.total{font-weight:700}
td .seat{color:#888;font-size:11px}
tr.lead td{background:#fbe7a1}
.delta{color:#2e7d32;font-size:11px;margin-left:3px}
.key{display:inline-flex;align-items:center;gap:4px;margin:0 12px 6px 0;font-size:13px}
.delta.neg{color:#b3261e}
.hint{color:#666;font-size:12px}
.graph svg{max-width:100%;height:auto}
.note{margin:2px 0}.note b{padding:0 4px;border-radius:4px}
.tag-inaccuracy b{background:#e6b800}.tag-mistake b{background:#ff7f0e}
.tag-blunder b{background:#b00000;color:#fff}
@media (max-width:860px){main{grid-template-columns:minmax(0,1fr)}.maincol{order:-1}}
"""

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
script-src 'unsafe-inline'; img-src data:">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<div class="facts">{facts}</div>
<div class="facts">scoring cards: <span id="cards">{cards}</span> · {options}</div>
</header>
<div class="controls" role="toolbar" aria-label="turns">
<button id="first" title="Setup (Home)" aria-label="setup">|&#x25C0;</button>
<button id="prev" title="Previous turn (Left arrow)" aria-label="previous turn">&#x25C0;</button>
<button id="play">Play</button>
<button id="next" title="Next turn (Right arrow)" aria-label="next turn">&#x25B6;</button>
<button id="last" title="Last turn (End)" aria-label="last turn">&#x25B6;|</button>
<button id="copy" title="Copy this position (for cascadia analyse --position)">Copy position</button>
<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="turn">
<span id="label" aria-live="polite"></span>
</div>
<div id="banner" role="status" hidden></div>
<noscript><p style="padding:0 14px">This viewer needs JavaScript to step through the game.</p></noscript>
<main>
<div class="side">
<section class="panel"><h2>Market</h2><div id="market"><svg id="market-svg"></svg></div>
<h3>Bag</h3><div class="bag" id="bag"></div>
<h3 id="stack"></h3></section>
<section class="panel"><h2 id="events-title">Events</h2><ol id="events"></ol></section>
<section class="panel legend"><h2>Key</h2><div id="legend"></div>
<p class="hint">Outlined hex: the tile placed this turn; dashed ring: the token placed this turn.
&#x25B6; marks the player to play next. Hover a hex for its details.</p></section>
</div>
<div class="maincol">
<section class="panel" id="analysis-panel"{analysed}><h2>Analysis of this turn</h2><div id="analysis"></div>
<p class="hint">Expected final points of the move played and of the analysing bot's move
(cascadia analyse); tags by points lost: inaccuracy from 2, mistake from 5, blunder from 10.</p></section>
<section class="panel graph"><h2>Score by turn</h2><div class="scroll">{graph}</div></section>
<section class="scores"><h2>Running scores</h2><div class="scroll">
<table><thead><tr id="score-head"></tr></thead><tbody id="score-rows"></tbody></table></div></section>
<div class="boards" id="boards"></div>
</div>
</main>
<script type="application/json" id="game-data">{data}</script>
<script type="module">{script}</script>
</body>
</html>
"""
