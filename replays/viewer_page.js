// The HTML replay viewer's page script (replays/viewer.py inlines it after draw.js).
// It reads the game's snapshots from the JSON block and shows one point of the game.
import {
  HABITATS, SPECIES, boardView, commonViews, copyText, drawBoard, drawMarket, habitatChip, speciesChip, svgRoot,
} from "./draw.js";

const D = JSON.parse(document.getElementById("game-data").textContent);
const S = D.snapshots;
const TILES = D.catalogue.map(([habitats, wildlife]) => ({ habitats, wildlife }));
const $ = (id) => document.getElementById(id);
const slider = $("slider");
const label = $("label");
let current = -1;
let timer = null;

function text(tag, value, cls) {
  const e = document.createElement(tag);
  e.textContent = String(value);
  if (cls) e.className = cls;
  return e;
}

function cells(board) {
  return board.map(([q, r, tile, rotation, w]) => ({ q, r, tile, rotation, wildlife: w < 0 ? null : SPECIES[w] }));
}

// -- the fixed parts: boards, score header, bag, key ---------------------------------------
const boardSections = D.names.map((name, seat) => {
  const section = document.createElement("section");
  section.className = "player";
  section.dataset.seat = String(seat);
  const h2 = document.createElement("h2");
  h2.append(text("span", `${name} (seat ${seat})`, "pname"), text("span", "", "pinfo"));
  const svg = svgRoot([0, 0, 1, 1], { class: "board", preserveAspectRatio: "xMidYMid meet" });
  section.append(h2, svg);
  $("boards").append(section);
  return section;
});

const SHORT = { mountain: "mount.", forest: "forest", prairie: "prairie", wetland: "wetland", river: "river" };
function headCell(label, chip, title, cls) {
  const th = document.createElement("th");
  th.title = title;
  if (cls) th.className = cls;
  const box = document.createElement("span");
  box.className = "col";
  if (chip) box.append(chip);
  box.append(document.createTextNode(label));
  th.append(box);
  return th;
}
$("score-head").append(
  text("th", "seat, player", "name"),
  headCell("total", null, "total", "total"),
  headCell("rank", null, "rank"),
  ...SPECIES.map((s) => headCell(s, speciesChip(s, 16), `${s} (scoring card)`)),
  ...HABITATS.map((h) => headCell(SHORT[h], habitatChip(h, 12), `${h} corridor`)),
  headCell("bonus", null, "habitat majority bonuses"),
  headCell("nature", null, "unspent nature tokens"),
);
for (const [i, s] of SPECIES.entries()) {
  const item = document.createElement("span");
  item.className = "bagitem";
  item.title = s;
  const count = document.createElement("b");
  count.dataset.species = String(i);
  item.append(speciesChip(s), count);
  $("bag").append(item);
}
for (const h of HABITATS) {
  const key = text("span", ` ${h}`, "key");
  key.prepend(habitatChip(h));
  $("legend").append(key);
}
$("legend").append(document.createElement("br"));
for (const s of SPECIES) {
  const key = text("span", ` ${s}`, "key");
  key.prepend(speciesChip(s));
  $("legend").append(key);
}

// -- one point of the game -----------------------------------------------------------------
const who = (seat) => (seat === null || seat === undefined ? "" : D.names[seat]);
// a player view leaves out (null) what depends on a secret card its viewer may not see
const known = (value) => (value === null ? "?" : value);

function describe(s, i) {
  if (i === 0) return `Setup \u00b7 ${who(s.next)} plays first`;
  // rounds, as everywhere (projections/turns.py): each seat plays one turn a round
  let t = `Round ${s.round} of ${D.rounds}`;
  if (s.player !== null) t += ` \u00b7 ${who(s.player)} played`;
  if (!s.complete) t += " (in progress)";
  if (s.finished) t += " \u00b7 game over";
  return t;
}

function banner(s) {
  const box = $("banner");
  if (!s.finished) {
    box.hidden = true;
    return;
  }
  const TOTAL = 12;
  const RANK = 13;
  const winners = s.scores.map((row, seat) => [row, seat]).filter(([row]) => row[RANK] === 1);
  if (!winners.length) {
    box.hidden = true;
    return;
  }
  const points = winners.length ? winners[0][0][TOTAL] : 0;
  let message;
  if (D.names.length === 1) {
    message = `Solo game over: ${points} points \u00b7 rating: ${s.rating}`;
  } else if (winners.length === 1) {
    message = `\u2605 ${who(winners[0][1])} wins with ${points} points`;
  } else {
    message = `\u2605 Shared win: ${winners.map(([, seat]) => who(seat)).join(" and ")}, ${points} points each`;
  }
  box.textContent = message;
  box.hidden = false;
}

// -- the score graph's cursor and the analysis of the turn (when the page has them) ----------
const graph = document.querySelector("svg.score-graph");
const NOTES = D.analysis || [];

function moveCursor(turn) {
  if (!graph) return;
  const x0 = +graph.dataset.x0;
  const x1 = +graph.dataset.x1;
  const x = String(x0 + ((x1 - x0) * turn) / +graph.dataset.last);
  const cursor = $("score-cursor");
  cursor.setAttribute("x1", x);
  cursor.setAttribute("x2", x);
}

function showNotes(s, i) {
  const box = $("analysis");
  if (!box) return;
  const notes = i > 0 && s.complete ? NOTES.filter((n) => n.turn === s.turn) : [];
  box.replaceChildren(...notes.map((n) => {
    const p = text("p", "", `note${n.tag ? ` tag-${n.tag}` : ""}`);
    p.append(text("b", n.tag || `good ${n.kind}`), ` ${who(n.seat)}: ${n.lost} points lost \u00b7 played ${n.played} `
      + `(${n.played_points}) \u00b7 bot ${n.best} (${n.best_points})`);
    return p;
  }));
  if (!notes.length) box.append(text("p", i === 0 ? "Setup: no move to judge." : "No analysis of this turn.", "hint"));
}

function show(index) {
  const i = Math.max(0, Math.min(S.length - 1, index | 0));
  if (i === current) return;
  current = i;
  const s = S[i];
  const prev = i > 0 ? S[i - 1] : null;
  try {
    history.replaceState(null, "", `#turn=${i}`);
  } catch (err) {
    // a file: URL may refuse; the hash is only a convenience
  }
  slider.value = String(i);
  label.textContent = describe(s, i);
  banner(s);
  moveCursor(s.turn);
  showNotes(s, i);
  const boards = s.boards.map(cells);
  const views = commonViews(boards.map((b) => boardView(b)));
  boardSections.forEach((section, p) => {
    const at = (mark) => (mark && mark[0] === p ? { q: mark[1], r: mark[2] } : null);
    const ring = at(s.ring);
    const placed = at(s.placed);
    drawBoard(section.querySelector("svg.board"), boards[p], TILES, {
      view: views[p], highlight: placed, ring: ring && !(placed && placed.q === ring.q && placed.r === ring.r) ? ring : null,
    });
    section.querySelector(".pinfo").textContent =
      `${known(s.scores[p][12])} points \u00b7 ${s.nature[p]} nature \u00b7 ${s.tiles[p]} tiles`;
    section.classList.toggle("active", s.player === p);
    section.classList.toggle("next", s.next === p);
  });
  drawMarket($("market-svg"), s.market.map(([tile, w], slot) => ({ slot, tile, wildlife: w === null ? null : SPECIES[w] })), TILES);
  document.querySelectorAll("[data-species]").forEach((e) => {
    e.textContent = String(s.bag[+e.dataset.species]);
  });
  $("stack").textContent = `${s.stack} tile${s.stack === 1 ? "" : "s"} in the stack`;
  const body = $("score-rows");
  body.replaceChildren();
  s.scores.forEach((row, p) => {
    const tr = document.createElement("tr");
    if (row[13] === 1) tr.className = "lead";
    const name = text("td", D.names[p], "name");
    name.prepend(text("span", `${p} `, "seat"));
    const total = text("td", known(row[12]), "total");
    if (prev && row[12] !== null && prev.scores[p][12] !== null) {
      const d = row[12] - prev.scores[p][12];
      if (d !== 0) total.append(text("span", (d > 0 ? "+" : "") + d, d > 0 ? "delta" : "delta neg"));
    }
    tr.append(name, total, text("td", known(row[13])));
    for (let c = 0; c < 12; c++) tr.append(text("td", known(row[c])));
    body.append(tr);
  });
  $("cards").textContent = s.cards;
  const list = $("events");
  list.replaceChildren(...s.events.map((line) => text("li", line)));
  $("events-title").textContent = i === 0 ? "Setup events" : "Events of this turn";
}

function stop() {
  if (timer !== null) {
    clearInterval(timer);
    timer = null;
  }
  $("play").textContent = "Play";
}

$("prev").addEventListener("click", () => { stop(); show(current - 1); });
$("next").addEventListener("click", () => { stop(); show(current + 1); });
$("first").addEventListener("click", () => { stop(); show(0); });
$("last").addEventListener("click", () => { stop(); show(S.length - 1); });
$("play").addEventListener("click", (event) => {
  if (timer !== null) {
    stop();
    return;
  }
  if (current >= S.length - 1) show(0);
  event.currentTarget.textContent = "Pause";
  timer = setInterval(() => (current >= S.length - 1 ? stop() : show(current + 1)), 800);
});
$("copy").addEventListener("click", (e) => copyText(S[current].position, e.currentTarget));
slider.addEventListener("input", () => { stop(); show(+slider.value); });
document.addEventListener("keydown", (e) => {
  if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
  const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
  if (step) { stop(); show(current + step); e.preventDefault(); }
  else if (e.key === "Home") { stop(); show(0); e.preventDefault(); }
  else if (e.key === "End") { stop(); show(S.length - 1); e.preventDefault(); }
});
const start = /^#turn=(\d+)$/.exec(location.hash);
show(start ? +start[1] : 0);
