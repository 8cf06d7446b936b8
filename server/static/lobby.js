// The lobby: create a game (seats: humans or bots by name; options; the achievement map
// and mode it is played for), the seats' join links and the creator's link (kept by this
// browser too), joining by a pasted link, the games of the server (newest first: where
// each stands, its result, a link to watch it, kept fresh when the page is shown), the
// achievement maps (their pages, a new one). What a game may have and how the choices
// combine come from GET /api/options (the application's one rule for seats and options).
import { api, keepCreatorToken, keptSeats } from "./api.js";
import { copyText } from "./draw.js";
import { $, h, showError } from "./game.js";

let options = null;

function seatRow(kind = "human", name = "") {
  const select = h("select", { class: "seat-kind", "aria-label": "seat" }, [
    h("option", { value: "human", text: "human" }),
    ...options.bots.map((b) => h("option", { value: `bot:${b}`, text: `bot: ${b}` })),
  ]);
  select.value = kind;
  const input = h("input", { class: "seat-name", type: "text", maxlength: options.name_length, placeholder: "name", value: name, "aria-label": "name" });
  const row = h("div", { class: "seat-row" }, [
    select, input,
    h("button", {
      type: "button", class: "secondary", text: "Remove", "aria-label": "remove this seat",
      onclick: () => { row.remove(); update(); },
    }),
  ]);
  const sync = () => { input.hidden = select.value !== "human"; };
  select.addEventListener("change", sync);
  sync();
  return row;
}

function update() {
  const rows = $("seats").children.length;
  $("add-seat").disabled = rows >= options.max_players;
  for (const b of $("seats").querySelectorAll("button")) b.disabled = rows <= options.min_players;
}

async function create(event) {
  event.preventDefault();
  const seats = [...$("seats").children].map((row, i) => {
    const kind = row.querySelector(".seat-kind").value;
    if (kind.startsWith("bot:")) return { bot: kind.slice(4) };
    return { name: row.querySelector(".seat-name").value.trim() || `player ${i + 1}` };
  });
  const body = {
    seats,
    options: {
      cards: $("cards").value,
      balanced_bag: $("balanced-bag").checked,
      majority_bonus: $("majority").checked,
      rules: [...$("restrictions").querySelectorAll("input:checked")].map((i) => i.value),
    },
    turn_seconds: $("turn-seconds").value ? Number($("turn-seconds").value) : null,
  };
  if ($("map").value) {
    // RULES.md 8.1: the mode is named before the game; the server turns a restriction's on
    body.map_id = $("map").value;
    body.options.achievement_mode = $("mode").value;
    body.options.rules = [];
  }
  try {
    $("create-game").disabled = true;
    const created = await api("/api/games", { method: "POST", body });
    $("error").hidden = true;
    keepCreatorToken(created.game_id, created.creator_token);
    const copyButton = (link, what) => h("button", {
      type: "button", class: "secondary", text: "Copy link", onclick: (e) => copyText(link, e.currentTarget, what),
    });
    const items = created.seats.map((s) => {
      if (!s.join_link) return h("li", { text: `seat ${s.seat}: ${s.name} (bot)` });
      const link = new URL(s.join_link, location.href).href;
      return h("li", { "data-seat": s.seat }, [
        `seat ${s.seat}: ${s.name} \u00b7 `,
        h("a", { class: "button join", href: s.join_link, "data-seat": s.seat, text: `Play as ${s.name}` }),
        " ", copyButton(link, `${s.name}'s link`),
        h("br"), h("code", { class: "join-link", text: link }),
      ]);
    });
    items.push(h("li", {}, ["Spectators: ", h("a", { href: created.spectate_link, text: new URL(created.spectate_link, location.href).href })]));
    const creatorLink = new URL(created.creator_link, location.href).href;
    items.push(h("li", { id: "creator-item" }, [
      "Your creator link (a new link for a seat whose player lost theirs; keep it to yourself): ",
      h("a", { id: "creator-link", href: created.creator_link, text: "manage the seats" }), " ",
      copyButton(creatorLink, "Creator link"),
    ]));
    $("links").replaceChildren(...items);
    $("created").hidden = false;
    $("created").scrollIntoView({ block: "start" });
    refresh();
  } catch (err) {
    showError(err);
  } finally {
    $("create-game").disabled = false;
  }
}

const GAMES_PAGE = 20;
const GAMES_MOST = 200; // what GET /api/games lists at most
const GAMES_POLL_MS = 30000;
let gamesShown = GAMES_PAGE;

/** A seat as the list names it: "greedy (bot)", "bob (bot: greedy, took over)". */
function seatLabel(seat) {
  if (seat.handed) return `${seat.name} (bot: ${seat.handed.bot}, took over)`;
  return seat.kind === "bot" ? `${seat.name} (bot)` : seat.name;
}

/** Names joined as a sentence says them: "ann", "ann and bob", "ann, bob and cy". */
function andList(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** Where a game stands: its round ("round 7 of 20", as the game pages number it) and who
 * is to play, or how long it lasted and who won with what. */
function gameStatus(g) {
  const names = g.seats.map(seatLabel);
  const map = g.map_id ? ` \u00b7 for an achievement map (${(g.achievement_mode || "standard").replaceAll("_", " ")})` : "";
  if (!g.finished) return [`In play \u00b7 round ${g.round.number} of ${g.round.of} \u00b7 ${names[g.current_player]} to play${map}`];
  const { scores, winners } = g.result;
  const won = winners.length === 1 ? "won" : "tied for the win";
  return [
    `Finished after ${g.round.number} rounds${map} \u00b7 `,
    h("strong", { class: "winner", text: `${andList(winners.map((s) => g.seats[s].name))} ${won}` }),
    " \u00b7 ",
    ...g.seats.flatMap((s, i) => [i ? ", " : "", h("span", { class: "score", text: `${s.name} ${scores[s.seat]}` })]),
  ];
}

/** One game of the list: its seats, where it stands, "Watch" (the spectator page: no
 * token needed), and "Play as ..." for a seat of a game in play whose token this browser
 * keeps (the play page reads it from this browser; the address carries none). */
function gameItem(g) {
  const watch = `/spectate.html?game=${encodeURIComponent(g.game_id)}`;
  const links = [h("a", { class: "button secondary watch", href: watch, text: "Watch" })];
  if (!g.finished) {
    for (const seat of keptSeats(g.game_id)) {
      if (!g.seats[seat] || g.seats[seat].kind !== "human") continue;
      const play = `/play.html?game=${encodeURIComponent(g.game_id)}&seat=${seat}`;
      links.unshift(h("a", { class: "button play", href: play, text: `Play as ${g.seats[seat].name}` }));
    }
  }
  return h("li", { class: "listed-game", "data-game": g.game_id, "data-finished": String(g.finished) }, [
    h("div", { class: "game-main" }, [
      h("div", { class: "game-seats", text: g.seats.map(seatLabel).join(", ") }),
      h("div", { class: "hint game-status" }, gameStatus(g)),
    ]),
    h("div", { class: "game-links" }, links),
  ]);
}

async function refresh() {
  try {
    const { games, total } = await api(`/api/games?limit=${gamesShown}`);
    $("games").replaceChildren(...(games.length ? games.map(gameItem)
      : [h("li", { class: "hint empty", text: "No games on this server yet: a game created above is listed here, for anyone to watch." })]));
    const more = total > games.length && gamesShown < GAMES_MOST;
    $("more-games").hidden = !more;
    $("games-count").textContent = total > games.length
      ? `The ${games.length} newest of ${total} games${more ? "" : " (the list stops there)"}.`
      : `${total} game${total === 1 ? "" : "s"}, newest first.`;
    $("games-count").hidden = !total;
  } catch (err) {
    showError(err);
  }
}

/** The list is read again when the page is shown again (another tab, or back from a
 * game) and every half minute while it is in view: no stream is kept open. */
function keepGamesFresh() {
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  window.addEventListener("pageshow", (event) => { if (event.persisted) refresh(); });
  setInterval(() => { if (!document.hidden) refresh(); }, GAMES_POLL_MS);
}

async function refreshMaps() {
  try {
    const { maps } = await api("/api/maps");
    const chosen = $("map").value;
    $("map").replaceChildren(h("option", { value: "", text: "no map" }),
      ...maps.map((m) => h("option", { value: m.map_id, text: m.name })));
    $("map").value = maps.some((m) => m.map_id === chosen) ? chosen : "";
    $("mode-label").hidden = !$("map").value;
    $("maps").replaceChildren(...(maps.length
      ? maps.map((m) => h("li", {}, [h("a", { href: m.link, "data-map": m.map_id, text: m.name })]))
      : [h("li", { class: "hint", text: "No maps yet." })]));
  } catch (err) {
    showError(err);
  }
}

async function createMap(event) {
  event.preventDefault();
  const players = $("map-players").value.split(",").map((p) => p.trim()).filter(Boolean);
  try {
    $("create-map").disabled = true;
    const made = await api("/api/maps", { method: "POST", body: { name: $("map-name").value.trim(), players } });
    $("error").hidden = true;
    $("new-map").reset();
    await refreshMaps();
    $("map").value = made.map_id;
    $("mode-label").hidden = false;
  } catch (err) {
    showError(err);
  } finally {
    $("create-map").disabled = false;
  }
}

async function start() {
  try {
    options = await api("/api/options");
  } catch (err) {
    showError(err);
    return;
  }
  $("seats").append(seatRow("human", "you"), seatRow(options.bots.includes("greedy") ? "bot:greedy" : `bot:${options.bots[0]}`));
  update();
  $("add-seat").addEventListener("click", () => { $("seats").append(seatRow()); update(); });
  $("restrictions").replaceChildren(...options.restrictions.map((r) => h("label", {}, [h("input", { type: "checkbox", value: r }), r.replaceAll("_", " ")])));
  $("create").addEventListener("submit", create);
  $("mode").replaceChildren(...options.achievement_modes.map((m) => h("option", { value: m, text: m.replaceAll("_", " ") })));
  $("map-seats").textContent = `${options.map_players.min}-${options.map_players.max}`;
  $("map").addEventListener("change", () => { $("mode-label").hidden = !$("map").value; });
  $("new-map").addEventListener("submit", createMap);
  refreshMaps();
  $("join").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("join-link").value.trim();
    try {
      const url = new URL(text, location.href);
      if (url.origin !== location.origin || !url.pathname.endsWith("/play.html")) throw new Error("not a join link of this server");
      location.assign(url.href);
    } catch (err) {
      showError(new Error(`That is not a join link of this server: ${err.message}`));
    }
  });
  $("refresh").addEventListener("click", refresh);
  $("more-games").addEventListener("click", () => { gamesShown = Math.min(gamesShown + GAMES_PAGE, GAMES_MOST); refresh(); });
  refresh();
  keepGamesFresh();
}

start();
