// The table scorer (docs/BOARD.md): a game played with cardboard, its boards built here hex
// by hex, scored live by the server's scorer (POST /api/score/board, the scorer of
// `cascadia score --board`). The page keeps the table as board text's parts (cards,
// options, players, hexes) in localStorage; the text it copies and sends is the board
// text format exactly, written as the server writes it (projections/board_text.py).
import { api } from "./api.js";
import { $, h } from "./dom.js";
import { DIRECTIONS, HABITATS, SPECIES, drawBoard, habitatChip, speciesChip, tileSvg } from "./draw.js";

const STORE = "cascadia.table";
const LETTERS = ["A", "B", "C", "D"];
const VARIANTS = ["family", "intermediate"];
const EDGES = ["NE", "E", "SE", "SW", "W", "NW"];
const LETTER_OF = { mountain: "M", forest: "F", prairie: "P", wetland: "W", river: "R" };
const HABITAT_OF = Object.fromEntries(Object.entries(LETTER_OF).map(([habitat, letter]) => [letter, habitat]));
const OPTIONS = {
  salmon_runs: ["strict", "lenient"], elk_rings: ["arc", "any-subset"], majority_bonus: ["on", "off"],
  must_not_match: ["off", "on"], corridors_of_three: ["off", "on"], corridors_min_five: ["off", "on"],
};
/** The scoring options (docs/BOARD.md `options:`), each with its default first. */
const OPTION_WORDS = {
  salmon_runs: "salmon runs", elk_rings: "elk rings", majority_bonus: "majority bonuses",
  must_not_match: "must not match (7.2)", corridors_of_three: "corridors of three (7.3)",
  corridors_min_five: "corridors of five or more (7.4)",
};
const DEBOUNCE_MS = 250;
/** Pointing at a row outlines what scored it only where a pointer hovers (not on a phone,
 * where the page moving under a finger would change the row). */
const HOVER = window.matchMedia("(hover: hover)");
const MAX_PLAYERS = 4;
const MAX_NATURE = 25;

let table = load();
let editing = null; // {q, r, first, second, facing, token, existing}
let answer = null; // the server's last answer for this table
let highlight = null; // the score sheet row outlined: a species or a habitat
let timer = null;
let asked = 0; // changes made: an answer counts only if no change came after its request was due

function fresh() {
  return {
    cards: { bear: "A", elk: "A", salmon: "A", hawk: "A", fox: "A" }, second: null,
    options: Object.fromEntries(Object.entries(OPTIONS).map(([name, values]) => [name, values[0]])),
    players: [{ name: "player 1", nature: 0, hexes: {} }], current: 0,
  };
}

function load() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE));
    if (kept && Array.isArray(kept.players) && kept.players.length) return { ...fresh(), ...kept };
  } catch (err) { /* a table kept by an older page: start afresh */ }
  return fresh();
}

function save() {
  localStorage.setItem(STORE, JSON.stringify(table));
}

const player = () => table.players[table.current];
const key = (q, r) => `${q},${r}`;

// -- board text ----------------------------------------------------------------------------

/** A hex's habitats as the text writes them: ``M``, or ``M/F@E`` (the first habitat, in
 * the order mountain, forest, prairie, wetland, river, and the edge it faces). */
function habitatsText({ first, second, facing }) {
  if (!second) return LETTER_OF[first];
  if (HABITATS.indexOf(first) < HABITATS.indexOf(second)) return `${LETTER_OF[first]}/${LETTER_OF[second]}@${EDGES[facing]}`;
  return `${LETTER_OF[second]}/${LETTER_OF[first]}@${EDGES[(facing + 3) % 6]}`;
}

/** A hex from the text's ``M`` or ``M/F@E``. */
function habitatsOf(text) {
  const [letters, edge] = text.split("@");
  const [a, b] = letters.split("/");
  return { first: HABITAT_OF[a], second: b ? HABITAT_OF[b] : null, facing: edge ? EDGES.indexOf(edge) : 0 };
}

function cardsText(cards) {
  const letters = SPECIES.map((s) => cards[s]);
  return VARIANTS.includes(letters[0]) ? letters[0] : letters.join(" ");
}

const placed = (p) => Object.keys(p.hexes).length > 0;

/** The table as board text (docs/BOARD.md), as ``table_text`` writes it; the players
 * without a hex yet are left out (a board text has none). */
function tableText() {
  const lines = ["# Cascadia boards (docs/BOARD.md)", `cards: ${cardsText(table.cards)}`];
  if (table.second) lines.push(`second cards: ${table.second}`);
  const changed = Object.entries(OPTIONS).filter(([name, values]) => table.options[name] !== values[0]);
  if (changed.length) lines.push("options: " + changed.map(([name]) => `${name}=${table.options[name]}`).join(" "));
  const sections = table.players.filter(placed).map((p) => {
    const rows = [`player: ${p.name}`, `nature: ${p.nature}`];
    const hexes = Object.entries(p.hexes).map(([at, hex]) => [...at.split(",").map(Number), hex]);
    hexes.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    for (const [q, r, hex] of hexes) {
      rows.push(`${key(q, r).padEnd(7)} ${habitatsText(hex).padEnd(7)} ${hex.token || ""}`.trimEnd());
    }
    return rows.join("\n") + "\n";
  });
  return lines.join("\n") + "\n\n" + sections.join("\n");
}

/** The page's table from the server's reading of a text (``answer.table``). */
function tableOf(read) {
  const letters = SPECIES.map((s) => read.cards[s]);
  return {
    cards: Object.fromEntries(SPECIES.map((s, i) => [s, letters[i]])),
    second: read.second_cards ? cardsText(read.second_cards) : null,
    options: { ...read.options },
    players: read.players.map((p) => ({
      name: p.name, nature: p.nature,
      hexes: Object.fromEntries(p.hexes.map((x) => [key(x.q, x.r), { ...habitatsOf(x.habitats), token: x.token }])),
    })),
    current: 0,
  };
}

// -- scoring ---------------------------------------------------------------------------------

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

/** Score the table after a pause (changes in quick succession are sent once). */
function changed() {
  save();
  asked += 1; // an answer still to come, to a request sent before this change, is stale
  document.body.dataset.pending = "1";
  clearTimeout(timer);
  timer = setTimeout(score, DEBOUNCE_MS);
  drawPlayer();
}

async function score() {
  const mine = asked;
  if (!table.players.some(placed)) {
    answer = null;
    showError("");
    finish(mine);
    return;
  }
  try {
    const got = await api("/api/score/board", { method: "POST", body: { text: tableText() } });
    if (mine !== asked) return;
    answer = got;
    showError("");
  } catch (err) {
    if (mine !== asked) return;
    answer = null;
    showError(err.problem && err.problem.type ? `Not scored: ${err.message}` : err.message);
  }
  finish(mine);
}

function finish(mine) {
  if (mine !== asked) return;
  document.body.dataset.pending = "0";
  drawSheet();
  drawTabs();
  if (highlight) drawTableBoard(); // the board is redrawn only when outlines change
}

/** The seat in the answer of the page's player ``index`` (players without hexes are not sent). */
function seatOf(index) {
  if (!placed(table.players[index])) return null;
  return table.players.slice(0, index).filter(placed).length;
}

// -- drawing ---------------------------------------------------------------------------------

/** What a change of the table shows again: the player's tabs, board and editor, the sheet
 * (the cards panel is drawn again only when the cards themselves change). */
function drawPlayer() {
  drawBoardPanel();
  drawEditor();
  drawSheet();
}

function drawCardsPanel() {
  const variant = VARIANTS.includes(table.cards.bear) ? table.cards.bear : "";
  const kind = h("select", { id: "card-variant", "aria-label": "letter cards or a variant card" }, [
    h("option", { value: "", text: "letter cards A-D" }),
    ...VARIANTS.map((v) => h("option", { value: v, text: `${v} variant` })),
  ]);
  kind.value = variant;
  kind.addEventListener("change", () => {
    const chosen = kind.value || "A";
    table.cards = Object.fromEntries(SPECIES.map((s) => [s, chosen]));
    drawCardsPanel();
    changed();
  });
  const picks = SPECIES.map((s) => {
    const select = h("select", { id: `card-${s}`, "data-species": s, "aria-label": `${s} card` },
      LETTERS.map((l) => h("option", { value: l, text: l })));
    select.value = variant ? "A" : table.cards[s];
    select.disabled = Boolean(variant);
    select.addEventListener("change", () => { table.cards[s] = select.value; changed(); });
    return h("label", { class: "card-pick" }, [speciesChip(s, 18), h("span", { text: s }), select]);
  });
  $("card-picks").replaceChildren(kind, ...picks);
  $("option-picks").replaceChildren(...Object.entries(OPTIONS).map(([name, values]) => {
    const select = h("select", { id: `option-${name}` }, values.map((v) => h("option", { value: v, text: v })));
    select.value = table.options[name];
    select.addEventListener("change", () => { table.options[name] = select.value; changed(); });
    return h("label", {}, [h("span", { text: OPTION_WORDS[name] }), select]);
  }));
  $("second-cards").hidden = !table.second;
  $("second-cards").textContent = table.second ? `Second card set (two card sets, RULES.md 7.6): ${table.second}` : "";
}

/** The total of the page's player ``index`` in the last answer (``null``: not scored yet). */
function totalOf(index) {
  const seat = seatOf(index);
  const line = answer && seat !== null ? answer.sheet.players[seat] : undefined;
  return line && line.name === table.players[index].name ? line.total : null;
}

function drawBoardPanel() {
  drawTabs();
  if (document.activeElement !== $("player-name")) $("player-name").value = player().name;
  $("nature").textContent = String(player().nature);
  $("nature-minus").disabled = player().nature <= 0;
  $("nature-plus").disabled = player().nature >= MAX_NATURE;
  $("remove-player").disabled = table.players.length <= 1;
  $("clear-board").disabled = !placed(player());
  drawTableBoard();
}

/** The players' tabs: name and total (a total keeps its width, so that the board below
 * does not move as scores come in). */
function drawTabs() {
  $("players").replaceChildren(...table.players.map((p, i) => {
    const total = totalOf(i);
    return h("button", {
      type: "button", role: "tab", class: i === table.current ? "tab current" : "tab secondary",
      "aria-selected": String(i === table.current), "data-player": i,
      onclick: () => { table.current = i; editing = null; save(); drawPlayer(); },
    }, [h("span", { class: "tab-name", text: p.name }), h("span", { class: "tab-total", text: total === null ? "" : String(total) })]);
  }));
  $("add-player").disabled = table.players.length >= MAX_PLAYERS;
}

/** The cells of the player shown as ``drawBoard`` takes them, with a tile catalogue of
 * their own (one entry per hex: its habitats; no symbols, the text does not ask for them). */
function boardCells(p) {
  const tiles = [];
  const cells = Object.entries(p.hexes).map(([at, hex]) => {
    const [q, r] = at.split(",").map(Number);
    tiles.push({ habitats: hex.second ? [hex.first, hex.second] : [hex.first], wildlife: [] });
    return { q, r, tile: tiles.length - 1, rotation: (hex.facing + 5) % 6, wildlife: hex.token };
  });
  return { cells, tiles };
}

function targetsOf(cells) {
  if (!cells.length) return [{ q: 0, r: 0 }];
  const taken = new Set(cells.map((c) => key(c.q, c.r)));
  const found = new Map();
  for (const c of cells) {
    for (const [dq, dr] of DIRECTIONS) {
      const at = key(c.q + dq, c.r + dr);
      if (!taken.has(at)) found.set(at, { q: c.q + dq, r: c.r + dr });
    }
  }
  return [...found.values()];
}

function scoredCells() {
  const seat = seatOf(table.current);
  const scored = highlight && answer && seat !== null ? answer.scored[seat] : undefined;
  if (!scored) return [];
  const groups = scored.wildlife[highlight] || scored.habitats[highlight] || [];
  return groups.flat().map(([q, r]) => ({ q, r }));
}

function drawTableBoard() {
  const svg = $("table-board");
  const { cells, tiles } = boardCells(player());
  const preview = editing && editing.first ? {
    q: editing.q, r: editing.r, rotation: (editing.facing + 5) % 6, tile: tiles.length,
  } : null;
  if (preview) tiles.push({ habitats: editing.second ? [editing.first, editing.second] : [editing.first], wildlife: [] });
  const shown = editing && editing.existing ? cells.filter((c) => !(c.q === editing.q && c.r === editing.r)) : cells;
  drawBoard(svg, shown, tiles, {
    targets: [...targetsOf(cells), ...(editing && editing.existing ? [{ q: editing.q, r: editing.r }] : [])],
    preview, marked: scoredCells(), onTarget: (q, r) => edit(q, r),
  });
  for (const node of svg.querySelectorAll("g.hex:not(.preview)")) {
    const [q, r] = [Number(node.dataset.q), Number(node.dataset.r)];
    const hex = player().hexes[key(q, r)];
    node.querySelector("title").textContent = `${key(q, r)} ${habitatsText(hex)}${hex.token ? ` ${hex.token}` : ""}`;
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", `change the tile at ${key(q, r)}`);
    node.style.cursor = "pointer";
    node.addEventListener("click", () => edit(q, r));
    node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") edit(q, r); });
  }
}

function edit(q, r) {
  const hex = player().hexes[key(q, r)];
  editing = hex ? { q, r, ...hex, existing: true } : { q, r, first: null, second: null, facing: 0, token: null, existing: false };
  drawEditor();
  drawTableBoard();
  $("editor").scrollIntoView({ block: "nearest" });
}

/** A choice button of the editor; ``pick`` sets the hex being edited. The board is drawn
 * again when the choice shows there (``onBoard``: the habitats preview; a token does not). */
function choice(label, attrs, pick, chip = null, onBoard = true) {
  return h("button", {
    type: "button", class: "choice", "aria-pressed": "false", ...attrs,
    onclick: () => {
      if (!editing) return;
      pick(editing);
      drawEditor();
      if (onBoard) drawTableBoard();
    },
  }, chip ? [chip, h("span", { text: label })] : [label]);
}

/** The editor's buttons, made once (a choice then keeps its focus; drawEditor marks them). */
function buildEditor() {
  $("first-picks").replaceChildren(...HABITATS.map((x) => choice(x, { "data-first": x }, (e) => {
    e.first = x;
    if (e.second === x) e.second = null;
  }, habitatChip(x, 16))));
  $("second-picks").replaceChildren(
    choice("none (keystone)", { "data-second": "" }, (e) => { e.second = null; }),
    ...HABITATS.map((x) => choice(x, { "data-second": x }, (e) => { e.second = x; }, habitatChip(x, 16))),
  );
  $("facing-picks").replaceChildren(...EDGES.map((edge, i) => h("button", {
    type: "button", "data-facing": edge, "aria-pressed": "false",
    onclick: () => { if (editing) { editing.facing = i; drawEditor(); drawTableBoard(); } },
  }, [h("span", { class: "facing-tile" }), h("span", { text: edge })])));
  $("token-picks").replaceChildren(
    choice("none", { "data-token": "" }, (e) => { e.token = null; }, null, false),
    ...SPECIES.map((s) => choice(s, { "data-token": s }, (e) => { e.token = s; }, speciesChip(s, 18), false)),
  );
}

function mark(button, chosen) {
  button.classList.toggle("chosen", chosen);
  button.setAttribute("aria-pressed", String(chosen));
}

function drawEditor() {
  $("editor").hidden = !editing;
  if (!editing) return;
  const e = editing;
  $("editor-title").textContent = `${e.existing ? "The tile at" : "A tile at"} ${key(e.q, e.r)}`;
  for (const b of $("first-picks").children) mark(b, b.dataset.first === e.first);
  for (const b of $("second-picks").children) {
    mark(b, b.dataset.second === (e.second || ""));
    b.hidden = b.dataset.second !== "" && b.dataset.second === e.first;
  }
  $("facing-pick").hidden = !(e.first && e.second);
  if (e.first && e.second) {
    [...$("facing-picks").children].forEach((b, i) => {
      mark(b, e.facing === i);
      b.setAttribute("aria-label", `${e.first} faces ${EDGES[i]}`);
      b.firstChild.replaceChildren(tileSvg({ habitats: [e.first, e.second], wildlife: [] }, (i + 5) % 6));
    });
  }
  for (const b of $("token-picks").children) mark(b, b.dataset.token === (e.token || ""));
  $("hex-save").disabled = !e.first;
  $("hex-save").textContent = e.existing ? "Save" : "Place";
  $("hex-remove").hidden = !e.existing;
}

function drawSheet() {
  const sheet = answer && answer.sheet;
  if (!sheet) {
    $("sheet").replaceChildren();
    $("winner").textContent = table.players.some(placed) ? "" : "Add a tile to a board to see its score.";
    return;
  }
  const names = sheet.players.map((p) => p.name);
  const head = h("tr", {}, [h("th", { class: "name", text: "" }), ...names.map((n, seat) => h("th", { "data-seat": seat, text: n }))]);
  const row = (id, label, values, chip = null) => {
    const tr = h("tr", { "data-row": id, class: id === highlight ? "row-highlight" : null }, [
      h("td", { class: "name" }, chip ? [chip, " ", label] : [label]),
      ...values.map((v, seat) => h("td", { "data-seat": seat, text: v })),
    ]);
    if (SPECIES.includes(id) || HABITATS.includes(id)) {
      tr.classList.add("scorable");
      tr.tabIndex = 0;
      tr.title = "outline the hexes that scored this";
      const pick = (seat) => {
        const index = table.players.findIndex((_, i) => seatOf(i) === seat);
        if (seat !== null && index >= 0) table.current = index;
        highlight = id;
        save();
        drawSheet();
        drawBoardPanel();
      };
      tr.addEventListener("click", (ev) => {
        const cell = ev.target.closest("td[data-seat]");
        pick(cell ? Number(cell.dataset.seat) : null);
      });
      tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") pick(null); });
      tr.addEventListener("pointerenter", (ev) => {
        if (ev.pointerType !== "mouse" || !HOVER.matches || highlight === id) return; // a tap picks by click
        highlight = id;
        drawTableBoard();
        markRow();
      });
    }
    return tr;
  };
  const cards = sheet.cards;
  const rows = [head];
  for (const s of SPECIES) {
    const card = VARIANTS.includes(cards[s]) ? cards[s] : `${cards[s]}${sheet.second_cards ? ` / ${sheet.second_cards[s]}` : ""}`;
    rows.push(row(s, `${s} ${card}`, sheet.players.map((p) => String(p.wildlife[s])), speciesChip(s, 16)));
  }
  for (const x of HABITATS) {
    rows.push(row(x, x, sheet.players.map((p) => `${p.habitat_points[x]}${p.habitat_bonuses[x] ? ` +${p.habitat_bonuses[x]}` : ""}`), habitatChip(x, 13)));
  }
  rows.push(row("nature", "nature tokens", sheet.players.map((p) => String(p.nature_tokens))));
  const total = row("total", "total", sheet.players.map((p) => String(p.total)));
  total.classList.add("total-row");
  rows.push(total, row("rank", "rank", sheet.players.map((p) => String(p.rank))));
  $("sheet").replaceChildren(...rows);
  const winners = sheet.players.filter((p) => p.won);
  if (sheet.solo_rating) $("winner").textContent = `${names[0]}: ${sheet.players[0].total} points, ${sheet.solo_rating}.`;
  else if (winners.length === 1) $("winner").textContent = `Winner: ${winners[0].name} with ${winners[0].total} points.`;
  else $("winner").textContent = `Shared win: ${winners.map((p) => p.name).join(" and ")} with ${winners[0].total} points.`;
}

function markRow() {
  for (const tr of $("sheet").querySelectorAll("tr[data-row]")) tr.classList.toggle("row-highlight", tr.dataset.row === highlight);
}

// -- changes ---------------------------------------------------------------------------------

function addPlayer() {
  if (table.players.length >= MAX_PLAYERS) return;
  table.players.push({ name: `player ${table.players.length + 1}`, nature: 0, hexes: {} });
  table.current = table.players.length - 1;
  editing = null;
  changed();
}

/** A name as a board text can hold it: no ``#`` (it starts a comment), no line break. */
const cleanName = (name) => name.replace(/[#\r\n]/g, "").trim();

function wire() {
  $("add-player").addEventListener("click", addPlayer);
  $("player-name").addEventListener("input", () => {
    player().name = cleanName($("player-name").value) || `player ${table.current + 1}`;
    changed();
  });
  $("nature-minus").addEventListener("click", () => { player().nature = Math.max(0, player().nature - 1); changed(); });
  $("nature-plus").addEventListener("click", () => { player().nature = Math.min(MAX_NATURE, player().nature + 1); changed(); });
  $("remove-player").addEventListener("click", () => {
    if (table.players.length <= 1 || !window.confirm(`Remove ${player().name} and their board?`)) return;
    table.players.splice(table.current, 1);
    table.current = Math.min(table.current, table.players.length - 1);
    editing = null;
    changed();
  });
  $("clear-board").addEventListener("click", () => {
    if (!placed(player()) || !window.confirm(`Clear ${player().name}'s board?`)) return;
    player().hexes = {};
    editing = null;
    changed();
  });
  $("hex-save").addEventListener("click", () => {
    if (!editing || !editing.first) return;
    const { q, r, first, second, facing, token } = editing;
    player().hexes[key(q, r)] = { first, second, facing: second ? facing : 0, token };
    editing = null;
    changed();
    $("table-board").scrollIntoView({ block: "nearest" });
  });
  $("hex-remove").addEventListener("click", () => {
    if (!editing) return;
    delete player().hexes[key(editing.q, editing.r)];
    editing = null;
    changed();
  });
  $("hex-cancel").addEventListener("click", () => { editing = null; drawEditor(); drawTableBoard(); });
  $("copy-text").addEventListener("click", () => {
    const text = tableText();
    $("text-box").value = text;
    $("text-box").readOnly = true;
    $("text-box").hidden = false;
    $("load-row").hidden = true;
    if (navigator.clipboard) {
      navigator.clipboard.writeText(text).then(() => say($("copy-text"), "Copied"), () => say($("copy-text"), "Select and copy below"));
    }
  });
  $("load-text").addEventListener("click", () => {
    $("text-box").readOnly = false;
    $("text-box").value = "";
    $("text-box").hidden = false;
    $("load-row").hidden = false;
    $("text-box").focus();
  });
  $("load-cancel").addEventListener("click", () => {
    $("text-box").hidden = true;
    $("load-row").hidden = true;
    $("load-error").hidden = true;
  });
  $("load-apply").addEventListener("click", async () => {
    document.body.dataset.pending = "1";
    try {
      const got = await api("/api/score/board", { method: "POST", body: { text: $("text-box").value } });
      table = tableOf(got.table);
      $("load-error").hidden = true;
      editing = null;
      highlight = null;
      $("text-box").hidden = true;
      $("load-row").hidden = true;
      drawCardsPanel();
      changed();
    } catch (err) {
      $("load-error").textContent = `Not loaded: ${err.message}`;
      $("load-error").hidden = false;
      document.body.dataset.pending = "0";
    }
  });
}

function say(button, words) {
  const label = button.textContent;
  button.textContent = words;
  setTimeout(() => { button.textContent = label; }, 1500);
}

buildEditor();
wire();
drawCardsPanel();
changed();
