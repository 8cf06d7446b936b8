// The play page: a seat's view of its game, and every move made by clicking.
//
// What may be done comes from the server: ``legal_commands`` of the seat's view lists
// every command the rules accept now. The page offers exactly those: market pairs (or,
// after a nature token's free choice, any tile with any token), the wipes, the legal
// hexes of the tile with its legal rotations (previewed, matching edges marked), and
// the legal token targets. A move is chosen first, then confirmed with a button.
import { ApiError, api, forgetToken, keepsCreatorToken, seatToken, serverOptions } from "./api.js";
import { boardView, copyText, drawBoard, drawMarket, isKeystone, matchingEdges, speciesChip, tileSvg } from "./draw.js";
import { cardRules } from "./cards.js";
import { drawKey } from "./key.js";
import { $, GameFeed, drawEnd, drawShared, h, pageParams, showError, stopPage, totalText } from "./game.js";
import { drawMarks } from "./marks.js";

const { game: gameId } = pageParams();
let seat = null;
let catalogue = [];
let token = null;
let feed = null;
let view = null;
let sel = {};
let busy = false;
let endShown = false;

function legal() {
  const list = (view && view.legal_commands ? view.legal_commands : []).map((c) => c.command);
  const of = (type) => list.filter((c) => c.type === type);
  const tiles = new Map();
  for (const c of of("place_tile")) {
    const key = `${c.q},${c.r}`;
    if (!tiles.has(key)) tiles.set(key, { q: c.q, r: c.r, rotations: [] });
    tiles.get(key).rotations.push(c.rotation);
  }
  return {
    takes: of("take"),
    tiles,
    wildlife: of("place_wildlife"),
    canReturn: of("return_wildlife").length > 0,
    canThree: of("wipe_three").length > 0,
    canFree: of("nature_free").length > 0,
    wipes: of("nature_wipe").map((c) => [...c.slots].sort((a, b) => a - b).join(",")),
  };
}

async function send(command) {
  if (busy) return;
  busy = true;
  render();
  try {
    await api(`/api/games/${gameId}/commands`, {
      method: "POST", token, body: { command, expected_version: view.version },
    });
    $("error").hidden = true;
  } catch (err) {
    if (err instanceof ApiError && err.kind === "stale-version") {
      showError(new Error("The game moved on meanwhile; the page shows it now. Please choose again."));
    } else {
      showError(err);
    }
  } finally {
    busy = false;
    sel = {};
  }
  try {
    await feed.load();
  } catch (err) {
    showError(err);
  }
}

function button(label, onclick, { id, secondary = false, disabled = false } = {}) {
  return h("button", { id, class: secondary ? "secondary" : "", onclick, disabled: disabled || busy, text: label });
}

function rotationScore(cells, q, r, tile, rotation) {
  return matchingEdges(cells, catalogue, q, r, catalogue[tile], rotation).length;
}

function render() {
  if (!view) return;
  document.body.dataset.version = String(view.version);
  document.body.dataset.busy = String(busy);
  const state = view.state;
  const me = state.players[seat];
  const ts = state.turn_state;
  const L = legal();
  const mine = view.your_turn;
  const cells = me.environment;
  $("my-name").textContent = `Your board (${me.name})`;
  const myScore = `${totalText(view.state.scores.players[seat])} points \u00b7 `;
  $("my-info").textContent = `${myScore}${me.nature_tokens} nature token${me.nature_tokens === 1 ? "" : "s"}`;

  // -- the market -------------------------------------------------------------------------
  const choosing = mine && L.takes.length > 0;
  const free = ts.free_choice;
  const wipeMode = Boolean(sel.wipe);
  drawMarket($("market-svg"), state.market, catalogue, {
    tileSelected: sel.tileSlot, tokenSelected: sel.tokenSlot, marked: wipeMode ? [...sel.wipe] : [],
    onTile: choosing && !wipeMode ? (slot) => {
      sel.tileSlot = slot;
      if (!free) sel.tokenSlot = slot;
      render();
    } : null,
    onToken: choosing ? (slot) => {
      if (wipeMode) {
        if (sel.wipe.has(slot)) sel.wipe.delete(slot);
        else sel.wipe.add(slot);
      } else {
        sel.tokenSlot = slot;
        if (!free) sel.tileSlot = slot;
      }
      render();
    } : null,
  });

  // -- the prompt, the hand and the market's actions ---------------------------------------
  const actions = [];
  let prompt;
  if (state.finished) prompt = "The game is over.";
  else if (!mine) prompt = `Waiting for ${state.players[state.current_player].name}\u2026`;
  else if (choosing && wipeMode) {
    prompt = "Choose the tokens to wipe (click them in the market).";
    const key = [...sel.wipe].sort((a, b) => a - b).join(",");
    actions.push(button(`Wipe ${sel.wipe.size} token${sel.wipe.size === 1 ? "" : "s"}`, () => {
      send({ type: "nature_wipe", slots: [...sel.wipe].sort((a, b) => a - b) });
    }, { id: "confirm-wipe", disabled: !L.wipes.includes(key) }));
    actions.push(button("Cancel", () => { sel = {}; render(); }, { secondary: true }));
  } else if (choosing) {
    prompt = free
      ? "Free choice: pick any tile and any token in the market."
      : "Take a pair: click a tile or a token in the market.";
    const take = L.takes.find((c) => c.tile_slot === sel.tileSlot && c.wildlife_slot === sel.tokenSlot);
    if (sel.tileSlot !== undefined && sel.tokenSlot !== undefined) {
      // the tile as the player sees it (its habitats), not its id: "Take forest/river + elk"
      const tile = catalogue[state.market[sel.tileSlot].tile];
      const animal = state.market[sel.tokenSlot].wildlife;
      actions.push(button(`Take ${tile.habitats.join("/")}${isKeystone(tile) ? " keystone" : ""} + ${animal}`, () => send({ type: "take", tile_slot: sel.tileSlot, wildlife_slot: sel.tokenSlot }),
        { id: "take", disabled: !take }));
    }
    if (L.canThree) actions.push(button("Wipe the three alike tokens", () => send({ type: "wipe_three" }), { id: "wipe-three", secondary: true }));
    if (L.canFree) actions.push(button("Nature token: any tile + any token", () => send({ type: "nature_free" }), { id: "nature-free", secondary: true }));
    if (L.wipes.length) actions.push(button("Nature token: wipe tokens\u2026", () => { sel = { wipe: new Set() }; render(); }, { id: "nature-wipe", secondary: true }));
  } else if (L.tiles.size) {
    const keystone = isKeystone(catalogue[ts.taken_tile]);  // one habitat: no side to turn
    prompt = !sel.hex ? "Place your tile: click a dashed hex on your board."
      : keystone ? "Place the tile (a keystone: every way round is the same)."
      : "Turn the tile (the white edges match a neighbour), then place it.";
  } else if (L.wildlife.length || L.canReturn) {
    prompt = L.wildlife.length ? `Place the ${ts.taken_wildlife}: click a ringed tile, or return it to the bag.`
      : `No tile of yours can take the ${ts.taken_wildlife}: return it to the bag.`;
  } else {
    prompt = "\u2026";
  }
  $("prompt").textContent = prompt;
  const hand = [];
  if (mine && ts.taken_tile !== null && ts.taken_tile !== undefined && !ts.tile_placed_at) {
    hand.push(h("span", { text: "In hand:" }), tileSvg(catalogue[ts.taken_tile], sel.rotation || 0));
  } else if (mine && ts.taken_wildlife && !ts.wildlife_done) {
    hand.push(h("span", { text: "In hand:" }));
  }
  if (mine && ts.taken_wildlife && !ts.wildlife_done) hand.push(speciesChip(ts.taken_wildlife, 30));
  $("hand").replaceChildren(...hand);
  $("market-actions").replaceChildren(...actions);

  // -- the board: legal hexes, rotations, token targets ------------------------------------
  const targets = mine ? [...L.tiles.values()] : [];
  let preview = null;
  const boardButtons = [];
  const rotationButtons = [];
  if (sel.hex && ts.taken_tile !== null) {
    const spot = L.tiles.get(`${sel.hex.q},${sel.hex.r}`);
    if (spot) {
      preview = { q: spot.q, r: spot.r, tile: ts.taken_tile, rotation: sel.rotation };
      if (spot.rotations.length > 1) {
        for (const rotation of spot.rotations) {
          const matches = matchingEdges(cells, catalogue, spot.q, spot.r, catalogue[ts.taken_tile], rotation);
          rotationButtons.push(h("button", {
            class: rotation === sel.rotation ? "chosen" : "", "data-rotation": rotation,
            "aria-label": `rotation ${rotation}, ${matches.length} matching edges`,
            onclick: () => { sel.rotation = rotation; render(); },
          }, [tileSvg(catalogue[ts.taken_tile], rotation, { matches }), `${matches.length} match`]));
        }
      }
      boardButtons.push(button(`Place tile at (${spot.q}, ${spot.r})`, () => send({ type: "place_tile", q: spot.q, r: spot.r, rotation: sel.rotation }), { id: "place-tile" }));
    }
  }
  const tokenTargets = mine ? L.wildlife : [];
  if (sel.tokenHex) {
    boardButtons.push(button(`Place the ${ts.taken_wildlife} at (${sel.tokenHex.q}, ${sel.tokenHex.r})`, () => send({ type: "place_wildlife", q: sel.tokenHex.q, r: sel.tokenHex.r }), { id: "place-token" }));
  }
  if (mine && L.canReturn && !L.tiles.size) {
    boardButtons.push(button(`Return the ${ts.taken_wildlife} to the bag`, () => send({ type: "return_wildlife" }), { id: "return-token", secondary: true }));
  }
  const placedHere = ts.tile_placed_at ? { q: ts.tile_placed_at[0], r: ts.tile_placed_at[1] } : null;
  const frame = boardView([...cells, ...targets]);
  // the board's box follows its shape (within limits), so a long board is not tiny
  $("my-board").style.aspectRatio = String(Math.min(2.2, Math.max(0.8, frame[2] / frame[3])));
  drawBoard($("my-board"), cells, catalogue, {
    view: frame,
    targets, preview, highlight: placedHere,
    ring: sel.tokenHex || null,
    tokenTargets: L.tiles.size ? [] : tokenTargets,
    onTarget: (q, r) => {
      const spot = L.tiles.get(`${q},${r}`);
      const best = [...spot.rotations].sort((a, b) => rotationScore(cells, q, r, ts.taken_tile, b) - rotationScore(cells, q, r, ts.taken_tile, a))[0];
      sel = { hex: { q, r }, rotation: best };
      render();
    },
    onToken: (q, r) => { sel = { tokenHex: { q, r } }; render(); },
  });
  $("rotations").replaceChildren(...rotationButtons);
  $("board-actions").replaceChildren(...boardButtons);
}

const HEADLINES = {
  "game-not-found": "Game not found",
  "link-replaced": "Link replaced",
  "seat-handed-to-bot": "Seat handed to a bot",
  "invalid-token": "Link not valid",
};

/** An error of the API or the network: a refused link stops the page (and is forgotten
 * by this browser; a seat handed to a bot is offered the spectator's page); anything
 * else is shown and the page goes on. */
function failed(err) {
  const headline = err instanceof ApiError ? HEADLINES[err.kind] : undefined;
  if (!headline) {
    showError(err);
    return;
  }
  if (feed) feed.close();
  if (err.kind !== "game-not-found") forgetToken(gameId, seat);
  view = null;
  $("copy-link").hidden = true;
  stopPage(headline, err);
  if (err.kind === "seat-handed-to-bot") {
    // the game goes on without this seat: its player may still watch it to the end
    $("error").append(" ", h("a", { id: "watch-game", href: `/spectate.html?game=${encodeURIComponent(gameId)}`, text: "Watch the game" }));
  }
}

/** The creator who also plays reaches the seats' management (the spectator page's
 * creator panel: a new link for a seat, a seat handed to a bot) from the header. */
function showManageSeats() {
  const link = $("manage-seats");
  link.href = `/spectate.html?game=${encodeURIComponent(gameId)}`;
  link.hidden = false;
}

async function start() {
  const params = new URLSearchParams(location.search);
  if (params.has("token")) {
    // a token in the query reaches server logs: this server never gives such links
    params.delete("token");
    history.replaceState(null, "", `${location.pathname}?${params}`);
    stopPage("Link not accepted", new Error("This link carries its token in the address's query (?token=), which this server does not accept. Open the link from the lobby, or ask the game's creator for a new one."));
    return;
  }
  if (!gameId) {
    stopPage("No game", new Error("This page needs a join link: /play.html?game=ID&seat=N#token=..."));
    return;
  }
  ({ seat, token } = seatToken(gameId, pageParams().seat));
  try {
    if (!token) {
      await api(`/api/games/${encodeURIComponent(gameId)}`); // an unknown game: "game not found"
      stopPage("No seat", new Error("This browser has no link for a seat of this game. Open your join link, or ask the game's creator for a new one."));
      return;
    }
    if (keepsCreatorToken(gameId)) showManageSeats();
    let rules;
    [{ catalogue }, rules] = await Promise.all([serverOptions(), cardRules()]);
    feed = new GameFeed(gameId, token, (next, events) => {
      if (!view || next.version !== view.version) sel = {};
      view = next;
      if (view.seat !== seat) {
        showError(new Error(`This token is for seat ${view.seat}, not seat ${seat}.`));
      }
      $("copy-link").hidden = false;
      drawShared(view, catalogue, rules, events, seat);
      render();
      if (view.finished && !endShown) {
        endShown = true;
        const ended = view;
        drawEnd($("end"), ended, token)
          .then(() => (ended.map_id ? drawMarks($("end"), ended, token, seat) : null))
          .catch(showError);
      }
    }, failed);
    await feed.load();
    await feed.connect();
  } catch (err) {
    failed(err);
  }
}

// another link pasted into this tab differs only in its fragment: the browser does not
// load the page again by itself
window.addEventListener("hashchange", () => {
  if (!location.hash.includes(`token=${token}`)) location.reload();
});
$("copy-link").addEventListener("click", (e) => {
  const link = `${location.origin}/play.html?game=${encodeURIComponent(gameId)}&seat=${seat}#token=${token}`;
  copyText(link, e.currentTarget, "Your link");
});
$("copy-position").addEventListener("click", (e) => {
  if (view) copyText(view.state.position, e.currentTarget);
});
drawKey($("key-body"));
start();
