// Pictures of Cascadia as SVG, built with DOM calls: hexes, tiles, tokens, boards, the
// market. One module for the browser client (server/static) and the HTML replay viewer
// (replays/viewer.py inlines this file), so both draw a game the same way.
//
// Geometry (RULES.md 2, as projections/svg.py): pointy-top hexes, axial (q, r) at
// x = size * sqrt(3) * (q + r / 2), y = size * 3 / 2 * r; corner k at 60k - 90 degrees;
// edge i (0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW) joins corners i and i + 1. A tile listed
// [A, B] at rotation rho shows A on edges rho, rho + 1, rho + 2 and B on the others.
// Colours: Paul Tol's colour-blind-safe "bright" habitats; species discs always carry
// their letter, so nothing depends on telling colours apart. Text reaches the page only
// through textContent.

export const SVG_NS = "http://www.w3.org/2000/svg";
export const HEX_SIZE = 30;
export const HABITATS = ["mountain", "forest", "prairie", "wetland", "river"];
export const SPECIES = ["bear", "elk", "salmon", "hawk", "fox"];
export const HABITAT_COLOURS = {
  mountain: "#A5A5A5", forest: "#228833", prairie: "#CCBB44", wetland: "#66CCEE", river: "#4477AA",
};
export const WILDLIFE_COLOURS = {
  bear: "#5B3A1E", elk: "#C99A5B", salmon: "#EE7A95", hawk: "#7FB2E5", fox: "#E8601C",
};
export const WILDLIFE_INK = { bear: "#FFFFFF", elk: "#1A1A1A", salmon: "#1A1A1A", hawk: "#1A1A1A", fox: "#1A1A1A" };
export const WILDLIFE_LETTERS = { bear: "B", elk: "E", salmon: "S", hawk: "H", fox: "F" };
export const DIRECTIONS = [[1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1]];
export const FONT_FAMILY = "system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = "#2B2B2B";
const RING = "#FFF8E6";
const SQRT3 = Math.sqrt(3);
const INSET = 0.95;
const MARGIN = 8;

function round(x) {
  const v = Math.round(x * 10) / 10;
  return Object.is(v, -0) ? 0 : v;
}

/** An SVG element with attributes and children (elements or text). */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children) {
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** An empty <svg> for inline use, with the shared text settings. */
export function svgRoot(view, attrs = {}) {
  return el("svg", {
    viewBox: view.map(round).join(" "), "font-family": FONT_FAMILY, "text-anchor": "middle", ...attrs,
  });
}

export function hexCenter(q, r, size = HEX_SIZE) {
  return [size * SQRT3 * (q + r / 2), size * 1.5 * r];
}

export function hexCorners(radius) {
  const corners = [];
  for (let k = 0; k < 6; k++) {
    const a = ((60 * k - 90) * Math.PI) / 180;
    corners.push([radius * Math.cos(a), radius * Math.sin(a)]);
  }
  return corners;
}

function polygon(points) {
  return "M" + points.map(([x, y]) => `${round(x)} ${round(y)}`).join("L") + "Z";
}

/** The habitat on each edge 0..5 of ``tile`` ({habitats: [...]}) turned by ``rotation``. */
export function tileEdges(tile, rotation) {
  const [a, b] = tile.habitats;
  if (b === undefined) return [a, a, a, a, a, a];
  return [0, 1, 2, 3, 4, 5].map((edge) => (((edge - rotation) % 6) + 6) % 6 < 3 ? a : b);
}

export function isKeystone(tile) {
  return tile.habitats.length === 1;
}

/** Edges of ``tile`` at (q, r) turned by ``rotation`` whose habitat equals the touching
 * edge of the neighbour across them; ``cells`` are the board's placed tiles. */
export function matchingEdges(cells, tiles, q, r, tile, rotation) {
  const byHex = new Map(cells.map((c) => [`${c.q},${c.r}`, c]));
  const edges = tileEdges(tile, rotation);
  const matches = [];
  DIRECTIONS.forEach(([dq, dr], edge) => {
    const other = byHex.get(`${q + dq},${r + dr}`);
    if (other && tileEdges(tiles[other.tile], other.rotation)[(edge + 3) % 6] === edges[edge]) {
      matches.push(edge);
    }
  });
  return matches;
}

/** A species disc with its letter (a token, or a symbol on a tile). */
export function disc(x, y, radius, species, font, ring) {
  return el("g", { class: "disc", "data-wildlife": species }, [
    el("circle", {
      cx: round(x), cy: round(y), r: round(radius), fill: WILDLIFE_COLOURS[species],
      stroke: RING, "stroke-width": round(ring),
    }),
    el("text", {
      x: round(x), y: round(y + 0.36 * font), "font-size": round(font), "font-weight": 700,
      fill: WILDLIFE_INK[species],
    }, [WILDLIFE_LETTERS[species]]),
  ]);
}

function symbolPositions(count, size) {
  if (count === 1) return [[0, 0]];
  if (count === 2) return [[-0.27 * size, 0.05 * size], [0.27 * size, 0.05 * size]];
  return [[-0.27 * size, 0.2 * size], [0.27 * size, 0.2 * size], [0, -0.26 * size]];
}

/** The keystone mark: a white diamond, its top at (0, ``top``), ``half`` wide each side. */
function keystoneMark(top, half) {
  return el("path", {
    class: "keystone", fill: "#FFFFFF", stroke: INK, "stroke-width": 0.8,
    d: `M0 ${round(top)}l${round(half)} ${round(half * 1.3)}l${round(-half)} ${round(half * 1.3)}` +
      `l${round(-half)} ${round(-half * 1.3)}Z`,
  });
}

/** One tile around (0, 0): six edge triangles, outline, keystone mark, and its token or
 * else its wildlife symbols. ``matches`` lists edges to mark as matching a neighbour. */
export function tileBody(tile, rotation, token, { size = HEX_SIZE, matches = [] } = {}) {
  const corners = hexCorners(size * INSET);
  const group = el("g", { class: "tile" });
  const edges = el("g", { class: "edges", "stroke-width": 0.8, "stroke-linejoin": "round" });
  tileEdges(tile, rotation).forEach((habitat, edge) => {
    const [a, b] = [corners[edge], corners[(edge + 1) % 6]];
    const colour = HABITAT_COLOURS[habitat];
    edges.append(el("path", {
      "data-edge": edge, "data-habitat": habitat, fill: colour, stroke: colour,
      d: `M0 0L${round(a[0])} ${round(a[1])}L${round(b[0])} ${round(b[1])}Z`,
    }));
  });
  group.append(edges);
  group.append(el("path", {
    fill: "none", stroke: INK, "stroke-opacity": 0.45, "stroke-width": 1, d: polygon(corners),
  }));
  for (const edge of matches) {
    const [a, b] = [corners[edge], corners[(edge + 1) % 6]];
    group.append(el("path", {
      class: "match", "data-edge": edge, fill: "none", stroke: "#FFFFFF", "stroke-width": 4,
      "stroke-linecap": "round", d: `M${round(a[0] * 0.93)} ${round(a[1] * 0.93)}L${round(b[0] * 0.93)} ${round(b[1] * 0.93)}`,
    }));
  }
  if (isKeystone(tile)) group.append(keystoneMark(-0.78 * size, 0.1 * size));
  if (token) {
    const g = disc(0, 0, 0.47 * size, token, 0.52 * size, 0.09 * size);
    g.setAttribute("class", "token");
    group.append(g);
  } else {
    const positions = symbolPositions(tile.wildlife.length, size);
    tile.wildlife.forEach((species, i) => {
      const g = disc(positions[i][0], positions[i][1], 0.2 * size, species, 0.25 * size, 0.045 * size);
      g.setAttribute("class", "symbol");
      group.append(g);
    });
  }
  return group;
}

/** A tile in words, for tooltips: "tile 34: mountain/prairie, shows elk, hawk". */
export function tileText(id, tile, rotation) {
  const kind = isKeystone(tile) ? `${tile.habitats[0]} keystone` : `${tile.habitats.join("/")}, rotation ${rotation}`;
  return `tile ${id}: ${kind}; shows ${tile.wildlife.join(", ")}`;
}

/** A placed tile as a <g class="hex"> at its position, with a tooltip. */
export function hexGroup(cell, tiles, { size = HEX_SIZE, matches = [] } = {}) {
  const tile = tiles[cell.tile];
  const [x, y] = hexCenter(cell.q, cell.r, size);
  const token = cell.wildlife || null;
  return el("g", {
    class: "hex", "data-q": cell.q, "data-r": cell.r, "data-tile": cell.tile, "data-rotation": cell.rotation,
    "data-wildlife": token, transform: `translate(${round(x)} ${round(y)})`,
  }, [
    el("title", {}, [`(${cell.q}, ${cell.r}) ${tileText(cell.tile, tile, cell.rotation)}${token ? `; token ${token}` : ""}`]),
    tileBody(tile, cell.rotation, token, { size, matches }),
  ]);
}

/** The view box [x, y, w, h] framing ``hexes`` ([{q, r}]), at least ``minRadius`` hexes
 * around the centre of their extent so that a young board is not drawn huge. */
export function boardView(hexes, { size = HEX_SIZE, minRadius = 2 } = {}) {
  const centres = (hexes.length ? hexes : [{ q: 0, r: 0 }]).map((h) => hexCenter(h.q, h.r, size));
  const xs = centres.map((c) => c[0]);
  const ys = centres.map((c) => c[1]);
  let [left, right] = [Math.min(...xs) - size * SQRT3 / 2, Math.max(...xs) + size * SQRT3 / 2];
  let [top, bottom] = [Math.min(...ys) - size, Math.max(...ys) + size];
  const minWidth = (2 * minRadius + 1) * size * SQRT3;
  const minHeight = (3 * minRadius + 2) * size;
  if (right - left < minWidth) {
    const mid = (left + right) / 2;
    [left, right] = [mid - minWidth / 2, mid + minWidth / 2];
  }
  if (bottom - top < minHeight) {
    const mid = (top + bottom) / 2;
    [top, bottom] = [mid - minHeight / 2, mid + minHeight / 2];
  }
  return [left - MARGIN, top - MARGIN, right - left + 2 * MARGIN, bottom - top + 2 * MARGIN];
}

/** One view box per board, all as large as the largest, each centred on its board:
 * boards drawn side by side then share one scale. */
export function commonViews(views) {
  const width = Math.max(...views.map((v) => v[2]));
  const height = Math.max(...views.map((v) => v[3]));
  return views.map(([x, y, w, h]) => [x + (w - width) / 2, y + (h - height) / 2, width, height]);
}

function outline(q, r, size, attrs) {
  const [x, y] = hexCenter(q, r, size);
  return el("path", { transform: `translate(${round(x)} ${round(y)})`, d: polygon(hexCorners(size * INSET)), ...attrs });
}

/** Draw a board into ``svg`` (emptied first).
 *
 * ``cells``: [{q, r, tile, rotation, wildlife}]; ``tiles``: the tile catalogue by id.
 * Options: ``view`` (else framed on the cells and targets), ``highlight`` {q, r} (the tile
 * placed last: a bold outline), ``ring`` {q, r} (the token placed last: a dashed ring),
 * ``targets`` [{q, r}] (empty hexes to offer: dashed, clickable with ``onTarget``),
 * ``preview`` {q, r, tile, rotation} (a tile not yet placed, its matching edges marked),
 * ``tokenTargets`` [{q, r}] (placed tiles a token may go on, clickable with ``onToken``),
 * ``marked`` [{q, r}] (hexes to outline together, such as the cells that scored a card). */
export function drawBoard(svg, cells, tiles, opts = {}) {
  const size = HEX_SIZE;
  const targets = opts.targets || [];
  const view = opts.view || boardView([...cells, ...targets], { size });
  svg.setAttribute("viewBox", view.map(round).join(" "));
  svg.setAttribute("font-family", FONT_FAMILY);
  svg.setAttribute("text-anchor", "middle");
  const nodes = cells.map((cell) => hexGroup(cell, tiles, { size }));
  for (const t of targets) {
    const chosen = opts.preview && opts.preview.q === t.q && opts.preview.r === t.r;
    const node = outline(t.q, t.r, size, {
      class: chosen ? "target chosen" : "target", "data-q": t.q, "data-r": t.r, fill: "#FFFFFF",
      "fill-opacity": chosen ? 0 : 0.55, stroke: "#2F4F4F", "stroke-width": 2, "stroke-dasharray": "5 3", tabindex: 0,
      role: "button", "aria-label": `place the tile at (${t.q}, ${t.r})`,
    });
    if (opts.onTarget) {
      node.addEventListener("click", () => opts.onTarget(t.q, t.r));
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") opts.onTarget(t.q, t.r); });
      node.style.cursor = "pointer";
    }
    nodes.push(node);
  }
  if (opts.preview) {
    const p = opts.preview;
    const matches = matchingEdges(cells, tiles, p.q, p.r, tiles[p.tile], p.rotation);
    const ghost = hexGroup({ ...p, wildlife: null }, tiles, { size, matches });
    ghost.setAttribute("class", "hex preview");
    ghost.setAttribute("opacity", "0.92");
    ghost.style.pointerEvents = "none";
    nodes.push(ghost, outline(p.q, p.r, size, { class: "preview-outline", fill: "none", stroke: "#111", "stroke-width": 3 }));
  }
  if (opts.highlight) {
    const { q, r } = opts.highlight;
    nodes.push(el("g", { class: "highlight", fill: "none", "stroke-linejoin": "round" }, [
      outline(q, r, size, { stroke: "#FFFFFF", "stroke-width": 6 }),
      outline(q, r, size, { stroke: "#111111", "stroke-width": 3 }),
    ]));
  }
  if (opts.marked && opts.marked.length) {
    nodes.push(el("g", { class: "marked", fill: "none", "stroke-linejoin": "round", "pointer-events": "none" }, [
      ...opts.marked.map(({ q, r }) => outline(q, r, size, { class: "scored", "data-q": q, "data-r": r, stroke: "#FFFFFF", "stroke-width": 7 })),
      ...opts.marked.map(({ q, r }) => outline(q, r, size, { stroke: "#B3261E", "stroke-width": 3.5 })),
    ]));
  }
  if (opts.ring) {
    const [x, y] = hexCenter(opts.ring.q, opts.ring.r, size);
    nodes.push(el("circle", {
      class: "token-highlight", cx: round(x), cy: round(y), r: round(0.6 * size), fill: "none",
      stroke: "#111111", "stroke-width": 2.2, "stroke-dasharray": "4 3",
    }));
  }
  for (const t of opts.tokenTargets || []) {
    const [x, y] = hexCenter(t.q, t.r, size);
    const node = el("circle", {
      class: "token-target", "data-q": t.q, "data-r": t.r, cx: round(x), cy: round(y), r: round(0.62 * size),
      fill: "#FFFFFF", "fill-opacity": 0.35, stroke: "#111111", "stroke-width": 3, tabindex: 0, role: "button",
      "aria-label": `place the token at (${t.q}, ${t.r})`,
    });
    if (opts.onToken) {
      node.addEventListener("click", () => opts.onToken(t.q, t.r));
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") opts.onToken(t.q, t.r); });
      node.style.cursor = "pointer";
    }
    nodes.push(node);
  }
  svg.replaceChildren(...nodes);
  return view;
}

const SLOT_WIDTH = HEX_SIZE * SQRT3 + 14;
const TOKEN_Y = HEX_SIZE + 8 + 0.5 * HEX_SIZE;
const LABEL_Y = -HEX_SIZE - 6;

/** The view box of a market of ``slots`` slots. */
export function marketView(slots) {
  const top = LABEL_Y - 14;
  return [0, top, Math.max(slots, 1) * SLOT_WIDTH, TOKEN_Y + 0.5 * HEX_SIZE + 6 - top];
}

/** Draw the market into ``svg``: per slot its tile (rotation 0) and below it its token;
 * an empty place is a dashed outline. ``market``: [{slot, tile, wildlife}]. Options:
 * ``tileSelected`` / ``tokenSelected`` (slot numbers to outline), ``marked`` (token slots
 * to mark, e.g. chosen for a wipe), ``dim`` (slots not on offer), ``onTile(slot)``,
 * ``onToken(slot)`` (click handlers). */
export function drawMarket(svg, market, tiles, opts = {}) {
  svg.setAttribute("viewBox", marketView(market.length).map(round).join(" "));
  svg.setAttribute("font-family", FONT_FAMILY);
  svg.setAttribute("text-anchor", "middle");
  const nodes = [];
  const dim = new Set(opts.dim || []);
  const marked = new Set(opts.marked || []);
  for (const { slot, tile, wildlife } of market) {
    const cx = slot * SLOT_WIDTH + SLOT_WIDTH / 2;
    nodes.push(el("text", { x: round(cx), y: round(LABEL_Y), "font-size": 11, fill: INK }, [`slot ${slot}`]));
    if (tile === null || tile === undefined) {
      nodes.push(el("path", {
        transform: `translate(${round(cx)} 0)`, fill: "none", stroke: INK, "stroke-opacity": 0.5,
        "stroke-dasharray": "4 3", d: polygon(hexCorners(HEX_SIZE * INSET)),
      }));
    } else {
      const g = el("g", {
        class: "slot", "data-slot": slot, "data-tile": tile, transform: `translate(${round(cx)} 0)`,
        opacity: dim.has(slot) ? 0.45 : null,
      }, [el("title", {}, [`slot ${slot}: ${tileText(tile, tiles[tile], 0)}`]), tileBody(tiles[tile], 0, null)]);
      if (opts.tileSelected === slot) {
        g.append(el("path", { class: "selected", fill: "none", stroke: "#111", "stroke-width": 4, d: polygon(hexCorners(HEX_SIZE)) }));
      }
      if (opts.onTile) {
        g.style.cursor = "pointer";
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", `tile of slot ${slot}`);
        g.addEventListener("click", () => opts.onTile(slot));
        g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") opts.onTile(slot); });
      }
      nodes.push(g);
    }
    if (!wildlife) {
      nodes.push(el("circle", {
        cx: round(cx), cy: round(TOKEN_Y), r: round(0.47 * HEX_SIZE), fill: "none", stroke: INK,
        "stroke-opacity": 0.5, "stroke-dasharray": "4 3",
      }));
    } else {
      const g = disc(cx, TOKEN_Y, 0.47 * HEX_SIZE, wildlife, 0.52 * HEX_SIZE, 0.09 * HEX_SIZE);
      g.setAttribute("class", "market-token");
      g.setAttribute("data-slot", slot);
      if (dim.has(slot)) g.setAttribute("opacity", "0.45");
      if (opts.tokenSelected === slot || marked.has(slot)) {
        g.append(el("circle", {
          class: "selected", cx: round(cx), cy: round(TOKEN_Y), r: round(0.62 * HEX_SIZE), fill: "none",
          stroke: "#111", "stroke-width": 3, "stroke-dasharray": marked.has(slot) ? "4 3" : null,
        }));
      }
      if (opts.onToken) {
        g.style.cursor = "pointer";
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", `${wildlife} of slot ${slot}`);
        g.addEventListener("click", () => opts.onToken(slot));
        g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") opts.onToken(slot); });
      }
      nodes.push(g);
    }
  }
  svg.replaceChildren(...nodes);
}

/** A small species disc with its letter, as an inline <svg>. */
export function speciesChip(species, px = 18) {
  const svg = el("svg", { class: "chip", viewBox: "-9 -9 18 18", width: px, height: px, "font-family": FONT_FAMILY, "text-anchor": "middle", "aria-hidden": "true" });
  svg.append(disc(0, 0, 8, species, 10, 1.2));
  return svg;
}

/** A small square of a habitat's colour, as an inline <svg>. */
export function habitatChip(habitat, px = 14) {
  const svg = el("svg", { class: "chip", viewBox: "0 0 16 16", width: px, height: px, "aria-hidden": "true" });
  svg.append(el("rect", { width: 16, height: 16, rx: 3, fill: HABITAT_COLOURS[habitat], stroke: INK, "stroke-opacity": 0.45 }));
  return svg;
}

/** The keystone mark of a tile, on a hexagon of ``habitat``'s colour, as an inline <svg>. */
export function keystoneChip(habitat, px = 22) {
  const svg = el("svg", { class: "chip", viewBox: "-11 -11 22 22", width: px, height: px, "aria-hidden": "true" });
  svg.append(
    el("path", { d: polygon(hexCorners(10.5)), fill: HABITAT_COLOURS[habitat], stroke: INK, "stroke-opacity": 0.45 }),
    keystoneMark(-7.5, 3.5),
  );
  return svg;
}

/** A tile alone (for a rotation picker), centred in its own small <svg>. */
export function tileSvg(tile, rotation, { matches = [], token = null } = {}) {
  const r = HEX_SIZE + 4;
  const svg = svgRoot([-r, -r, 2 * r, 2 * r], { class: "tile-svg" });
  svg.append(tileBody(tile, rotation, token, { matches }));
  return svg;
}

/** Copy ``text`` (a position, docs/POSITION.md, or a link) to the clipboard and say so on
 * ``button`` for a moment; where the clipboard is not available (some file: pages, a
 * page not served over https), show it in a prompt, titled ``what``, to copy by hand. */
export function copyText(text, button, what = "Position") {
  const label = button.textContent;
  const copied = () => {
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = label; }, 1500);
  };
  const byHand = () => window.prompt(what, text);
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(copied, byHand);
  else byHand();
}
