// The map page (map.html?map=ID): an achievement map's paths (the server's SVG) and each
// player's progress, kept up to date by asking for the map every few seconds: one small
// JSON answer, and the picture fetched again only when the map's version has moved.
import { api } from "./api.js";
import { $, h, showError } from "./game.js";

export const POLL_MS = 3000;
const mapId = new URLSearchParams(location.search).get("map");
let shown = null;

function drawPlayers(progress) {
  const head = h("tr", {}, ["player", "cells", "games", "milestones", "next"].map((t) => h("th", { class: t === "player" ? "name" : "", text: t })));
  const rows = progress.players.map((p) => h("tr", { "data-player": p.player }, [
    h("td", { class: "name", text: p.player }),
    h("td", { class: "filled", text: `${p.filled} / ${progress.reachable}` }),
    h("td", { text: String(p.games_played) }),
    h("td", { text: p.milestones.map((m) => m.name).join(", ") || "\u2013" }),
    h("td", { text: p.next_milestone ? `${p.next_milestone.name} at ${p.next_milestone.cells}` : "\u2013" }),
  ]));
  $("map-players").replaceChildren(h("thead", {}, [head]), h("tbody", {}, rows));
}

async function look() {
  const progress = await api(`/api/maps/${encodeURIComponent(mapId)}`);
  if (shown !== progress.version) {
    const svg = await api(`/api/maps/${encodeURIComponent(mapId)}/svg`, { raw: true });
    // the server's own SVG (every text in it escaped): drawn inline, so its tooltips work
    $("map-svg").innerHTML = svg;
    drawPlayers(progress);
    shown = progress.version;
    document.title = `Cascadia \u00b7 ${progress.name}`;
    $("map-name").textContent = `Map: ${progress.name}`;
    document.body.dataset.version = String(progress.version);
  }
  $("map-live").textContent = `${progress.games} game${progress.games === 1 ? "" : "s"} recorded \u00b7 live`;
  $("error").hidden = true;
}

async function poll() {
  try {
    await look();
  } catch (err) {
    showError(err);
  }
  setTimeout(poll, POLL_MS);
}

if (!mapId) showError(new Error("This page shows one map: /map.html?map=ID (the lobby lists the maps)."));
else poll();
