// The map page (map.html?map=ID): an achievement map's paths (the server's SVG) and each
// player's progress, kept up to date by the map's event stream (GET /api/maps/{id}/stream):
// every change of the map, by any server process, arrives as its new progress, and the
// picture is fetched again. The browser reconnects a dropped stream by itself.
import { api } from "./api.js";
import { $, h, showError } from "./game.js";

const mapId = new URLSearchParams(location.search).get("map");
const NARROW = 640; // px: below this the paths are drawn one per row, so cells stay readable
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

async function show(progress) {
  if (shown === null || progress.version > shown) {
    const columns = window.innerWidth < NARROW ? 1 : 2;
    const svg = await api(`/api/maps/${encodeURIComponent(mapId)}/svg?columns=${columns}`, { raw: true });
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

async function follow() {
  await show(await api(`/api/maps/${encodeURIComponent(mapId)}`));
  const stream = new EventSource(`/api/maps/${encodeURIComponent(mapId)}/stream?after=${shown}`);
  stream.addEventListener("map", (message) => show(JSON.parse(message.data)).catch(showError));
  stream.addEventListener("error", () => {
    $("map-live").textContent = stream.readyState === EventSource.CLOSED ? "not live: reload the page" : "reconnecting\u2026";
  });
}

if (!mapId) showError(new Error("This page shows one map: /map.html?map=ID (the lobby lists the maps)."));
else follow().catch(showError);
