"""A self-contained HTML replay viewer for a game: step through it turn by turn.

:func:`render_html` turns a log (audited in full first, like every other replay tool) or a
list of events into one HTML file with inline CSS, inline JavaScript and inline SVG, and
no reference to anything outside it (no network, no web fonts). A slider, previous/next
buttons and the arrow keys (Home/End too) select a point of the game: after setup, then
after each turn (a turn's automatic events, such as a refill or a mandatory wipe,
included). For that point the page shows every player's board (the tile placed in the
turn outlined, the token placed ringed), the market, the bag and the stack, the running
scores of :func:`~cascadia.projections.game_scores.score_state`, and the turn's events in
words. Given a viewer (a seat, or a spectator), every point of the game shows only what
that viewer may see then (:func:`~cascadia.projections.player_view.player_view`).

Size: the snapshots are computed in Python and embedded, but a board is not repeated per
snapshot. Every distinct placed hex (tile, position, token) is drawn once as an SVG
fragment inside a ``<template>``; a snapshot lists, per seat, the fragments that make up
the board, and the script clones them. A finished 4-player game comes to a few hundred kB.

Escaping: text that comes from a log (seat names above all) reaches the page only as
HTML-escaped text or inside the JSON data block, where ``<``, ``>`` and ``&`` are written as
``\\u003c``, ``\\u003e``, ``\\u0026``; the script puts it on the page with ``textContent``
only. The SVG markup is generated here and holds no log text.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cascadia.domain import events as ev
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import Hex
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState, evolve
from cascadia.domain.timeline import TurnPoints
from cascadia.projections.describe import describe_event, plural
from cascadia.projections.player_view import EVERYTHING, Viewer, check_viewer, player_view
from cascadia.projections.render import render_cards
from cascadia.projections.svg import (
    FONT_FAMILY,
    HABITAT_COLOURS,
    WILDLIFE_COLOURS,
    WILDLIFE_INK,
    WILDLIFE_LETTERS,
    common_views,
    hex_fragment,
    highlight_fragment,
    market_fragments,
    market_labels,
    market_view,
    num,
    svg_open,
    token_ring_fragment,
)
from cascadia.replays.audit import verify
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import open_log

Source = str | os.PathLike[str] | Sequence[ev.GameEvent]
"""A log file's path, or a game's events in order."""


# -- snapshots ----------------------------------------------------------------------------


@dataclass
class _Fragments:
    """Distinct SVG fragments, each stored once, by first appearance."""

    items: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)

    def add(self, fragment: str) -> int:
        found = self.index.get(fragment)
        if found is None:
            found = self.index[fragment] = len(self.items)
            self.items.append(fragment)
        return found


@dataclass
class ViewerData:
    """What the page embeds: the snapshots as plain data, and the SVG fragments they use."""

    data: dict[str, Any]
    fragments: list[str]
    """Every distinct SVG fragment (a placed hex, a highlight, a market slot's tile or token)."""


def _score_rows(sheet: Mapping[str, Any]) -> list[list[int | None]]:
    """Per seat: points per species, per habitat (corridors), bonuses, nature, total, rank
    (``None`` where a player view hides them)."""
    rows = []
    for p in sheet["players"]:
        rows.append(
            [p["wildlife"][s] for s in WILDLIFE]
            + [p["habitat_points"][h] for h in HABITATS]
            + [p["bonus_total"], p["nature_tokens"], p["total"], p["rank"]]
        )
    return rows


def viewer_data(events: Sequence[ev.GameEvent], viewer: Viewer = EVERYTHING) -> ViewerData:
    """The snapshots of a game (after setup, after each turn, and a last one if the
    events end inside a turn), with the SVG fragments they use, each as ``viewer`` may
    see it (:func:`~cascadia.projections.player_view.player_view`)."""
    if not events or not isinstance(events[0], ev.GameStarted):
        raise ReplayError("a game's events start with GameStarted")
    final = Game.replay(events).state
    check_viewer(final, viewer)
    views = common_views([p.environment.tiles for p in final.players])
    names = list(final.names)
    state = GameState(final.game_id)
    fragments = _Fragments()
    snapshots: list[dict[str, Any]] = []
    pending: list[ev.GameEvent] = []

    def snapshot() -> None:
        placed: tuple[int, Hex] | None = None
        token: tuple[int, Hex] | None = None
        player: int | None = None
        for e in pending:
            if isinstance(e, ev.TilePlaced):
                placed = (e.player, (e.q, e.r))
            elif isinstance(e, ev.WildlifePlaced):
                token = (e.player, (e.q, e.r))
            elif isinstance(e, ev.TurnEnded):
                player = e.player
        boards = []
        for seat, p in enumerate(state.players):
            env = p.environment
            ids = [
                fragments.add(hex_fragment(q, r, tile, rotation, env.wildlife.get((q, r))))
                for (q, r), (tile, rotation) in sorted(env.tiles.items())
            ]
            if placed and placed[0] == seat:
                ids.append(fragments.add(highlight_fragment(*placed[1])))
            if token and token[0] == seat and token != placed:
                ids.append(fragments.add(token_ring_fragment(*token[1])))
            boards.append(ids)
        seen = player_view(state, viewer)
        completed = sum(1 for e in pending if isinstance(e, ev.TurnEnded))
        turn = snapshots[-1]["turn"] + completed if snapshots else 0
        snapshots.append(
            {
                "turn": turn,
                "version": state.version,
                "player": player,
                "next": None if state.finished else state.current,
                "finished": state.finished,
                "complete": not snapshots or completed > 0,
                "boards": boards,
                "market": [fragments.add(f) for f in market_fragments(state)],
                "bag": list(state.bag),
                "stack": state.stack_size,
                "nature": [p.nature_tokens for p in state.players],
                "tiles": [len(p.environment.tiles) for p in state.players],
                "cards": render_cards(seen["cards"])
                + (f" | second set: {render_cards(seen['second_cards'])}" if seen["second_cards"] else ""),
                "scores": _score_rows(seen["scores"]),
                "events": [describe_event(e, names, seen) for e in pending],
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
        "turns": snapshots[-1]["turn"],
        "views": [" ".join(num(v) for v in view) for view in views],
        "market_slots": len(final.market_tiles),
        "species": list(WILDLIFE),
        "habitats": list(HABITATS),
        "snapshots": snapshots,
    }
    if viewer is EVERYTHING:
        data["seed"] = final.seed
    return ViewerData(data, fragments.items)


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


def _species_chip(species: str) -> str:
    colour, ink, letter = WILDLIFE_COLOURS[species], WILDLIFE_INK[species], WILDLIFE_LETTERS[species]
    return (
        f'<svg class="chip" viewBox="-9 -9 18 18" width="18" height="18" font-family="{FONT_FAMILY}" '
        f'text-anchor="middle"><circle r="8" fill="{colour}" stroke="#fff8e6" stroke-width="1.2"/>'
        f'<text y="3.6" font-size="10" font-weight="700" fill="{ink}">{letter}</text></svg>'
    )


def _habitat_chip(habitat: str) -> str:
    return (
        f'<svg class="chip" viewBox="0 0 16 16" width="14" height="14"><rect width="16" height="16" rx="3" '
        f'fill="{HABITAT_COLOURS[habitat]}"/></svg>'
    )


def _header_cells() -> str:
    cells = ['<th class="name">seat, player</th>']
    cells += [f'<th title="{s}">{_species_chip(s)}</th>' for s in WILDLIFE]
    cells += [f'<th title="{h} corridor">{_habitat_chip(h)}</th>' for h in HABITATS]
    cells += [
        '<th title="habitat majority bonuses">bonus</th>',
        '<th title="unspent nature tokens">nature</th>',
        '<th title="total">total</th>',
        '<th title="rank">rank</th>',
    ]
    return "".join(cells)


def render_html(source: Source, *, title: str | None = None, viewer: Viewer = EVERYTHING) -> str:
    """The replay viewer of a game as one self-contained HTML page.

    ``source`` is a log file (audited in full first: a bad log raises a
    :class:`~cascadia.replays.errors.ReplayError` and nothing is rendered) or the
    game's events in order. Given a seat or ``"spectator"`` as ``viewer``, every step
    shows only what that viewer may see then (no seed; another seat's secret card only
    once revealed). The same input gives the same bytes."""
    events = list(source) if isinstance(source, Sequence) and not isinstance(source, str) else None
    if events is None:
        events = load_events(source)  # type: ignore[arg-type]
    built = viewer_data(events, viewer)
    data = built.data
    names: list[str] = data["names"]
    first = next(e for e in events if isinstance(e, ev.GameStarted))
    heading = title or f"Cascadia · {', '.join(names)}"
    seed = [f"seed {data['seed']}"] if "seed" in data else []
    facts = [f"game {data['game_id']}", *seed, plural(len(names), "player")]
    changed = {k: v for k, v in first.options.items() if k != "cards"}
    default = GameOptions().to_dict()
    options = [f"{k}={v}" for k, v in sorted(changed.items()) if default.get(k) != v]
    drawn = any(isinstance(e, ev.ScoringCardsDrawn) for e in events)
    card_text = data["snapshots"][0]["cards"] if drawn else ""
    boards = "".join(
        f'<section class="player" data-seat="{seat}"><h2><span class="pname"></span>'
        f'<span class="pinfo"></span></h2>'
        f'<svg class="board" viewBox="{view}" preserveAspectRatio="xMidYMid meet" '
        f'font-family="{FONT_FAMILY}" text-anchor="middle"></svg></section>'
        for seat, view in enumerate(data["views"])
    )
    bag = "".join(
        f'<span class="bagitem" title="{s}">{_species_chip(s)}<b data-species="{i}"></b></span>'
        for i, s in enumerate(WILDLIFE)
    )
    page = _TEMPLATE.format(
        title=html.escape(heading),
        facts=html.escape(" · ".join(facts)),
        cards=html.escape(card_text or "cards not drawn"),
        options=html.escape(("options: " + ", ".join(options)) if options else "standard rules"),
        last=len(data["snapshots"]) - 1,
        boards=boards,
        bag=bag,
        header_cells=_header_cells(),
        legend="".join(
            f'<span class="key">{_habitat_chip(h)} {h}</span>' for h in HABITATS
        )
        + "<br>"
        + "".join(f'<span class="key">{_species_chip(w)} {w}</span>' for w in WILDLIFE),
        market=svg_open(market_view(data["market_slots"]), standalone=False, extra=' id="market-svg"')
        + market_labels(data["market_slots"])
        + '<g id="market-slots"></g></svg>',
        fragments="".join(built.fragments),
        data=_json_for_html(data),
        style=_STYLE.replace("{font}", FONT_FAMILY),
        script=_SCRIPT,
    )
    return page


_STYLE = """
*{box-sizing:border-box}
body{margin:0;background:#ece8dc;color:#2b2b2b;font:14px/1.4 {font}}
header{padding:10px 18px 4px}
h1{font-size:20px;margin:0 0 2px}
.facts{color:#555;font-size:12.5px}
.controls{position:sticky;top:0;z-index:2;display:flex;gap:10px;align-items:center;padding:8px 18px;
 background:#2f4f4f;color:#fff}
.controls button{font:inherit;font-weight:600;border:0;border-radius:6px;padding:5px 12px;background:#f6f3ea;
 color:#2b2b2b;cursor:pointer;min-width:44px}
.controls button:focus-visible,#slider:focus-visible{outline:3px solid #ffcc33;outline-offset:2px}
#slider{flex:1;accent-color:#ffcc33}
#label{min-width:260px;font-weight:600}
main{display:grid;grid-template-columns:minmax(300px,370px) 1fr;gap:14px;padding:12px 18px 24px}
.panel,.player,.scores{background:#f6f3ea;border-radius:10px;padding:10px 12px;box-shadow:0 1px 3px #0002}
.side{display:flex;flex-direction:column;gap:12px}
h2{font-size:15px;margin:0 0 6px;display:flex;justify-content:space-between;gap:8px;align-items:baseline}
h3{font-size:13px;margin:8px 0 4px;color:#444}
#market svg{width:100%;height:auto;display:block}
.bag{display:flex;flex-wrap:wrap;gap:10px;align-items:center}
.bagitem{display:inline-flex;gap:3px;align-items:center}
.chip{vertical-align:middle}
#events{margin:0;padding-left:20px;font-size:12.5px;max-height:360px;overflow:auto}
#events li{margin:2px 0}
.boards{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:12px}
.player.active{box-shadow:0 0 0 3px #2f4f4f}
.player.next h2 .pname::before{content:"\\25B6  ";color:#2f4f4f}
.pinfo{font-weight:400;color:#555;font-size:12.5px}
svg.board{width:100%;height:auto;display:block;max-height:62vh}
.maincol{display:flex;flex-direction:column;gap:12px;min-width:0}
.scores{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:3px 6px;text-align:right;border-bottom:1px solid #0001}
th{font-size:12px;color:#444;font-weight:600}
th.name,td.name{text-align:left}
td.total{font-weight:700}
td .seat{color:#888;font-size:11px}
tr.lead td{background:#ffcc3333}
.delta{color:#2e7d32;font-size:11px;margin-left:3px}
.key{display:inline-flex;align-items:center;gap:4px;margin:0 12px 6px 0;font-size:13px}
.delta.neg{color:#b3261e}
.hint{color:#666;font-size:12px}
@media (max-width:860px){main{grid-template-columns:1fr}}
"""

_SCRIPT = """
(function(){
"use strict";
var D=JSON.parse(document.getElementById("game-data").textContent);
var S=D.snapshots;
var frags=document.getElementById("fragments").content.firstElementChild.children;
var slider=document.getElementById("slider");
var label=document.getElementById("label");
var players=document.querySelectorAll(".player");
var current=-1,timer=null;
function text(tag,value,cls){var e=document.createElement(tag);e.textContent=String(value);
 if(cls){e.className=cls;}return e;}
function place(parent,ids){var nodes=ids.map(function(k){return document.importNode(frags[k],true);});
 parent.replaceChildren.apply(parent,nodes);}
function who(seat){return seat===null||seat===undefined?"":D.names[seat];}
function known(v){return v===null?"?":v;}
function describe(s,i){
 if(i===0){return "Setup \\u00b7 "+who(s.next)+" plays first";}
 var t="Turn "+s.turn+" of "+D.turns;
 if(s.player!==null){t+=" \\u00b7 "+who(s.player)+" played";}
 if(!s.complete){t+=" (in progress)";}
 if(s.finished){t+=" \\u00b7 game over";}
 return t;}
function show(i){
 i=Math.max(0,Math.min(S.length-1,i|0));
 if(i===current){return;}
 current=i;var s=S[i],prev=i>0?S[i-1]:null;
 try{history.replaceState(null,"","#turn="+i);}catch(err){}
 slider.value=String(i);label.textContent=describe(s,i);
 for(var p=0;p<players.length;p++){
  var sec=players[p];
  place(sec.querySelector("svg.board"),s.boards[p]);
  sec.querySelector(".pname").textContent=D.names[p]+" (seat "+p+")";
  sec.querySelector(".pinfo").textContent=known(s.scores[p][12])+" points \\u00b7 "+s.nature[p]+
   " nature \\u00b7 "+s.tiles[p]+" tiles";
  sec.classList.toggle("active",s.player===p);
  sec.classList.toggle("next",s.next===p);}
 place(document.getElementById("market-slots"),s.market);
 document.querySelectorAll("[data-species]").forEach(function(e){e.textContent=s.bag[+e.dataset.species];});
 document.getElementById("stack").textContent=s.stack+" tile"+(s.stack===1?"":"s")+" in the stack";
 var body=document.getElementById("score-rows");body.replaceChildren();
 s.scores.forEach(function(row,p){
  var tr=document.createElement("tr");if(row[13]===1){tr.className="lead";}
  var name=text("td",D.names[p],"name");name.prepend(text("span",p+" ","seat"));tr.appendChild(name);
  for(var c=0;c<12;c++){tr.appendChild(text("td",known(row[c])));}
  var total=text("td",known(row[12]),"total");
  if(prev&&row[12]!==null&&prev.scores[p][12]!==null){var d=row[12]-prev.scores[p][12];
   if(d!==0){total.appendChild(text("span",(d>0?"+":"")+d,d>0?"delta":"delta neg"));}}
  tr.appendChild(total);tr.appendChild(text("td",known(row[13])));body.appendChild(tr);});
 document.getElementById("cards").textContent=s.cards;
 var list=document.getElementById("events");list.replaceChildren();
 s.events.forEach(function(line){list.appendChild(text("li",line));});
 document.getElementById("events-title").textContent=i===0?"Setup events":"Events of this turn";}
function stop(){if(timer!==null){clearInterval(timer);timer=null;}
 document.getElementById("play").textContent="Play";}
document.getElementById("prev").addEventListener("click",function(){stop();show(current-1);});
document.getElementById("next").addEventListener("click",function(){stop();show(current+1);});
document.getElementById("first").addEventListener("click",function(){stop();show(0);});
document.getElementById("last").addEventListener("click",function(){stop();show(S.length-1);});
document.getElementById("play").addEventListener("click",function(){
 if(timer!==null){stop();return;}
 if(current>=S.length-1){show(0);}
 this.textContent="Pause";
 timer=setInterval(function(){if(current>=S.length-1){stop();}else{show(current+1);}},800);});
slider.addEventListener("input",function(){stop();show(+slider.value);});
document.addEventListener("keydown",function(e){
 if(e.target===slider||e.altKey||e.ctrlKey||e.metaKey){return;}
 var k={ArrowLeft:-1,ArrowRight:1};
 if(e.key in k){stop();show(current+k[e.key]);e.preventDefault();}
 else if(e.key==="Home"){stop();show(0);e.preventDefault();}
 else if(e.key==="End"){stop();show(S.length-1);e.preventDefault();}});
var start=/^#turn=(\\d+)$/.exec(location.hash);
show(start?+start[1]:0);
})();
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
<button id="first" title="Setup (Home)">|&#x25C0;</button>
<button id="prev" title="Previous turn (Left arrow)">&#x25C0;</button>
<button id="play">Play</button>
<button id="next" title="Next turn (Right arrow)">&#x25B6;</button>
<button id="last" title="Last turn (End)">&#x25B6;|</button>
<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="turn">
<span id="label" aria-live="polite"></span>
</div>
<noscript><p style="padding:0 18px">This viewer needs JavaScript to step through the game.</p></noscript>
<main>
<div class="side">
<section class="panel"><h2>Market</h2><div id="market">{market}</div>
<h3>Bag</h3><div class="bag">{bag}</div>
<h3 id="stack"></h3></section>
<section class="panel"><h2 id="events-title">Events</h2><ol id="events"></ol></section>
<section class="panel legend"><h2>Key</h2>{legend}
<p class="hint">Outlined hex: the tile placed this turn; dashed ring: the token placed this turn.
&#x25B6; marks the player to play next. Hover a hex for its details.</p></section>
</div>
<div class="maincol">
<section class="scores"><h2>Running scores</h2>
<table><thead><tr>{header_cells}</tr></thead><tbody id="score-rows"></tbody></table></section>
<div class="boards">{boards}</div>
</div>
</main>
<template id="fragments"><svg>{fragments}</svg></template>
<script type="application/json" id="game-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
