// What the play page and the spectator page share: loading a game's view, following its
// event stream, drawing the boards, the scores, the recent events and the end screen.
import { ApiError, api } from "./api.js";
import { drawCards } from "./cards.js";
import { $, h } from "./dom.js";
import {
  HABITATS, SPECIES, boardView, commonViews, drawBoard, habitatChip, speciesChip, svgRoot,
} from "./draw.js";

export { $, h };

/** A score the viewer may see, or "?" (null: it depends on a secret card still hidden). */
const known = (value) => (value === null || value === undefined ? "?" : String(value));

/** A player's total as the viewer may know it: the total, or while it depends on a secret
 * card still hidden (null, projections/player_view.py) the sum of the parts the viewer
 * sees, "+ ?" for the hidden card's points (e.g. "41 + ?"). */
export function totalText(p) {
  if (p.total !== null && p.total !== undefined) return String(p.total);
  const wildlife = Object.values(p.wildlife).reduce((sum, points) => sum + (points ?? 0), 0);
  return `${wildlife + p.habitat_total + p.bonus_total + p.nature_tokens} + ?`;
}

/** The game id and seat of the page's address (``?game=...&seat=...``). */
export function pageParams() {
  const params = new URLSearchParams(location.search);
  const seat = params.get("seat");
  return { game: params.get("game"), seat: seat === null ? null : Number(seat) };
}

/** Follows a game: loads its view (as the seat of ``token``, or as a spectator), then
 * reloads it whenever the event stream brings something new; ``onView(view, events)``
 * gets each view and the events seen since the previous one. */
export class GameFeed {
  constructor(gameId, token, onView, onError) {
    Object.assign(this, { gameId, token, onView, onError });
    this.view = null;
    this.pending = [];
    this.timer = null;
    this.source = null;
    this.closed = false;
  }

  async load() {
    const view = await api(`/api/games/${this.gameId}`, { token: this.token });
    const events = this.pending;
    this.pending = [];
    // a seat handed to a bot changes the seats, not the version
    const seatsChanged = this.view && JSON.stringify(view.seats) !== JSON.stringify(this.view.seats);
    if (!this.view || view.version > this.view.version || seatsChanged) {
      this.view = view;
      this.onView(view, events);
    }
    return view;
  }

  reloadSoon() {
    if (this.timer !== null) return;
    this.timer = setTimeout(async () => {
      this.timer = null;
      try {
        await this.load();
      } catch (err) {
        this.onError(err);
      }
    }, 80);
  }

  async connect() {
    if (this.closed || (this.view && this.view.finished)) return;
    let url = `/api/games/${this.gameId}/stream?after=${this.view ? this.view.version : 0}`;
    if (this.token) {
      const { ticket } = await api(`/api/games/${this.gameId}/stream-tickets`, { method: "POST", token: this.token });
      url += `&ticket=${encodeURIComponent(ticket)}`;
    }
    const source = new EventSource(url);
    this.source = source;
    source.addEventListener("game-event", (message) => {
      try {
        this.pending.push(JSON.parse(message.data));
      } catch (err) {
        // an unreadable message: the reload below still brings the state
      }
      this.reloadSoon();
    });
    // a seat handed to a bot (by the creator, or its turn time ran out): read the view again
    source.addEventListener("seat-handed", () => this.reloadSoon());
    source.addEventListener("game-over", () => {
      source.close();
      this.closed = true;
      this.reloadSoon();
    });
    source.addEventListener("error", () => {
      // a ticket opens one stream, once: a seat reconnects with a new one (the browser
      // would retry with the used one), a spectator lets the browser reconnect
      if ((this.token || source.readyState === EventSource.CLOSED) && !this.closed) {
        source.close();
        setTimeout(() => this.connect().catch((err) => this.onError(err)), 1000);
        this.reloadSoon();
      }
    });
  }

  close() {
    this.closed = true;
    if (this.source) this.source.close();
  }
}

/** The boards of ``seats`` into ``container`` (one section per seat), on one scale. */
export function drawBoards(container, view, catalogue, seats, { mark = null } = {}) {
  const state = view.state;
  const boards = seats.map((s) => state.players[s].environment);
  const views = commonViews(boards.map((b) => boardView(b)));
  const scores = view.state.scores ? view.state.scores.players : null;
  const sections = seats.map((seat, i) => {
    const player = state.players[seat];
    const svg = svgRoot([0, 0, 1, 1], { class: "board", preserveAspectRatio: "xMidYMid meet" });
    drawBoard(svg, boards[i], catalogue, { view: views[i], highlight: mark && mark[seat] });
    const info = [`${player.nature_tokens} nature`, `${boards[i].length} tiles`];
    if (scores) info.unshift(`${totalText(scores[seat])} points`);
    return h("section", {
      class: `player${state.current_player === seat && !state.finished ? " current" : ""}`, "data-seat": seat,
    }, [h("h3", {}, [h("span", { class: "pname", text: seatName(view, seat, player.name) }), h("span", { class: "pinfo", text: info.join(" \u00b7 ") })]), svg]);
  });
  container.replaceChildren(...sections);
}

/** The score table (running scores, or the final sheet) into ``table``. */
export function drawScores(table, sheet, names) {
  const head = h("tr", {}, [
    h("th", { class: "name", text: "player" }), h("th", { class: "total", text: "total" }), h("th", { text: "rank" }),
    ...SPECIES.map((s) => h("th", { title: s }, [h("span", { class: "col" }, [speciesChip(s, 15), s])])),
    ...HABITATS.map((x) => h("th", { title: `${x} corridor` }, [h("span", { class: "col" }, [habitatChip(x, 12), x])])),
    h("th", { text: "bonus", title: "habitat majority bonuses" }), h("th", { text: "nature", title: "unspent nature tokens" }),
  ]);
  const rows = sheet.players.map((p) => h("tr", { class: p.rank === 1 ? "lead" : "" }, [
    h("td", { class: "name", text: names[p.seat] }), h("td", { class: "total", text: totalText(p) }),
    h("td", { text: known(p.rank) }),
    ...SPECIES.map((s) => h("td", { text: known(p.wildlife[s]) })),
    ...HABITATS.map((x) => h("td", { text: known(p.habitat_points[x]) })),
    h("td", { text: known(p.bonus_total) }), h("td", { text: known(p.nature_tokens) }),
  ]));
  table.replaceChildren(h("thead", {}, [head]), h("tbody", {}, rows));
}

/** SHA-256 of the seed commitment (server/API.md): checks the revealed seed and salt. */
export async function commitmentHolds(seedText, saltHex, commitment) {
  if (!(crypto && crypto.subtle)) return null;
  const prefix = new TextEncoder().encode("cascadia-seed-commitment/v1");
  const seed = BigInt(seedText);
  const bytes = new Uint8Array(prefix.length + 1 + 8 + saltHex.length / 2);
  bytes.set(prefix, 0);
  let at = prefix.length + 1;
  for (let i = 7; i >= 0; i--) bytes[at++] = Number((seed >> BigInt(8 * i)) & 0xffn);
  for (let i = 0; i < saltHex.length; i += 2) bytes[at++] = parseInt(saltHex.slice(i, i + 2), 16);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  return hex === commitment;
}

/** The end screen: winner, final scores, the seed revealed, the commitment checked, the
 * log to download. */
export async function drawEnd(box, view, token) {
  const names = view.state.players.map((p) => seatName(view, p.seat, p.name));
  const [sheet, fairnessText] = await Promise.all([
    api(`/api/games/${view.game_id}/score`, { token }),
    api(`/api/games/${view.game_id}/fairness`, { token, raw: true }),
  ]);
  const fairness = JSON.parse(fairnessText);
  // the seed is a 64-bit number: read its digits from the text, not as a JS number
  const seedText = (/"seed"\s*:\s*"?(\d+)/.exec(fairnessText) || [])[1] || String(fairness.seed);
  const winners = sheet.players.filter((p) => p.rank === 1);
  let headline;
  if (names.length === 1) headline = `Game over: ${winners[0].total} points \u00b7 rating: ${sheet.solo_rating}`;
  else if (winners.length === 1) {
    const winner = winners[0];
    const who = winner.seat === view.seat ? "You win" : `${names[winner.seat]} wins`;
    // RULES.md 5: equal totals are decided by the nature tokens left
    const tied = sheet.players.some((p) => p.seat !== winner.seat && p.total === winner.total);
    headline = `\u2605 ${who} with ${winner.total} points${tied ? " (the tie broken by nature tokens)" : ""}`;
  }
  else headline = `\u2605 Shared win: ${winners.map((p) => names[p.seat]).join(" and ")}, ${winners[0].total} points`;
  const verdict = h("p", { class: "verdict", id: "commitment-verdict", text: "Checking the seed commitment\u2026" });
  const table = h("table", { id: "final-scores" });
  drawScores(table, sheet, names);
  box.replaceChildren(
    h("h2", { id: "winner", text: headline }),
    h("div", { class: "scroll" }, [table]),
    h("p", {}, [`Seed: `, h("code", { id: "seed", text: seedText }), ` \u00b7 salt `, h("code", { class: "salt", text: fairness.salt })]),
    verdict,
    h("p", {}, [
      h("a", { id: "download-log", class: "button", href: `/api/games/${view.game_id}/log`, download: `${view.game_id}.cascadia`, text: "Download the game log" }),
      " ",
      h("a", { class: "button secondary", href: "/", text: "Back to the lobby" }),
    ]),
    h("p", { class: "hint", text: "Anyone can re-check the whole game: cascadia audit GAME.cascadia re-derives every draw from the seed." }),
  );
  box.hidden = false;
  try {
    const holds = await commitmentHolds(seedText, fairness.salt, fairness.commitment);
    verdict.textContent = holds === null ? "This browser cannot check the seed commitment (no WebCrypto)."
      : holds ? "\u2714 The seed matches the commitment published when the game was created."
        : "\u2718 The seed does NOT match the commitment published at creation.";
    verdict.className = `verdict ${holds ? "ok" : "bad"}`;
  } catch (err) {
    verdict.textContent = `The seed commitment could not be checked: ${err.message}`;
  }
}

/** Stop the page: ``headline`` in the bar, the reason shown, the game's panels hidden
 * (a game not found, a link refused: nothing more to show). */
export function stopPage(headline, err) {
  $("turn-label").textContent = headline;
  stopCountdown();
  $("game").hidden = true;
  showError(err);
}

export function showError(err) {
  const box = $("error");
  if (!box) return;
  box.textContent = err instanceof ApiError ? `${err.problem.title || "Error"}: ${err.message}` : String(err.message || err);
  box.hidden = false;
}

const recent = [];

/** Event types the recent-events list leaves out: the market drawn on the page shows
 * its refills. Every other event is listed by the sentence the server sends with it
 * (``text``, from projections/describe.py). */
const UNLISTED = new Set(["MarketRefilled"]);

/** A seat's name, with "(bot: greedy, took over)" once the seat was handed to a bot. */
export function seatName(view, seat, name) {
  const handed = view.seats[seat] && view.seats[seat].handed;
  return handed ? `${name} (bot: ${handed.bot}, took over)` : name;
}

let countdown = null;

/** Stop and hide the turn's countdown (a page stopped, or a turn without a time limit). */
function stopCountdown() {
  clearInterval(countdown);
  const box = $("turn-clock");
  if (box) box.hidden = true;
}

/** The turn's time left (a game with a turn time limit), ticking each second until the
 * next view: "0:42 left" after the turn label. */
function countDown(view) {
  stopCountdown();
  const box = $("turn-clock");
  let left = view.turn_seconds_left;
  if (!box || left === null || left === undefined) return;
  box.hidden = false;
  const show = () => {
    const m = Math.floor(left / 60);
    const s = String(left % 60).padStart(2, "0");
    box.textContent = `${m}:${s} left`;
    box.classList.toggle("urgent", left <= 10);
    left = Math.max(0, left - 1);
  };
  show();
  countdown = setInterval(show, 1000);
}

/** What both pages show the same way: the turn label, bag, cards (``rules``: their texts,
 * cards.js ``cardRules``), scores, other boards, recent events. ``mySeat`` is left out of
 * the boards (the play page draws it itself). */
export function drawShared(view, catalogue, rules, events, mySeat = null) {
  const state = view.state;
  const names = state.players.map((p) => seatName(view, p.seat, p.name));
  const round = `round ${state.round.number} of ${state.round.of}`;
  let label;
  if (state.finished) label = "Game over";
  else if (view.your_turn) label = `Your turn \u00b7 ${round}`;
  else label = `${names[state.current_player]} to play \u00b7 ${round}`;
  $("turn-label").textContent = label;
  countDown(view);
  $("bag").textContent = `Bag: ${SPECIES.map((s) => `${state.bag[s]} ${s}`).join(", ")} \u00b7 ${state.stack_size} tiles in the stack`;
  const secrets = [];
  (state.secret_cards || []).forEach((card, seat) => {
    if (card === null) return;
    const mine = seat === mySeat;
    secrets.push(" \u00b7 ", h("span", {
      class: mine ? "secret" : "", id: mine ? "my-secret" : null,
      text: `${mine ? "your" : `${names[seat]}'s`} secret card: ${card}`,
    }));
  });
  drawCards(state, rules, secrets);
  drawScores($("scores"), view.state.scores, names);
  const hidden = view.state.scores.players.some((p) => p.total === null);
  $("scores-hint").textContent = state.finished ? "Final scores."
    : `Running scores: the boards as they stand now.${hidden ? " ? : the points of a card not revealed yet (N + ?: the N points known so far, plus those)." : ""}`;
  const others = state.players.map((p) => p.seat).filter((s) => s !== mySeat);
  const mark = {};
  for (const e of events) if (e.type === "TilePlaced") mark[e.payload.player] = { q: e.payload.q, r: e.payload.r };
  drawBoards($("boards"), view, catalogue, others, { mark });
  for (const e of events) if (!UNLISTED.has(e.type)) recent.unshift(e.text);
  recent.splice(30);
  $("events").replaceChildren(...recent.map((line) => h("li", { text: line })));
}
