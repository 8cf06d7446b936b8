// The spectator page: a game as everyone may see it, following its event stream. With
// the creator's token (``#creator=...``, or kept by this browser) it also re-issues a
// seat's link or hands a seat to a bot (server/API.md): the creator's view.
import { api, creatorToken, serverOptions } from "./api.js";
import { copyText, drawMarket } from "./draw.js";
import { cardRules } from "./cards.js";
import { drawKey } from "./key.js";
import { $, GameFeed, drawEnd, drawShared, h, pageParams, seatName, showError, stopPage } from "./game.js";

/** A button that asks to be clicked twice (what it does cuts a player off), then runs ``act``. */
function twiceButton(text, confirmText, title, cls, act) {
  const button = h("button", { type: "button", class: `secondary ${cls}`, text, title });
  button.addEventListener("click", async () => {
    if (!button.classList.contains("confirm")) {
      button.classList.add("confirm");
      button.textContent = confirmText;
      return;
    }
    button.disabled = true;
    try {
      await act();
    } catch (err) {
      showError(err);
      button.disabled = false;
    }
  });
  return button;
}

/** One human seat's row of the creator's panel: "New link" (clicked twice: it replaces
 * the seat's link, the old one stops working), then the new link and its copy button. */
function seatRow(game, creator, seat, feed) {
  const row = h("li", { "data-seat": seat.seat }, [`${seat.name} \u00b7 `]);
  const newLink = twiceButton("New link", `Replace ${seat.name}'s link?`,
    "Replace this seat's link: the old one stops working", "new-link", async () => {
      const made = await api(`/api/games/${game}/seats/${seat.seat}/link`, { method: "POST", token: creator });
      const link = new URL(made.join_link, location.href).href;
      const copy = h("button", { type: "button", class: "secondary", text: "Copy link" });
      copy.addEventListener("click", () => copyText(link, copy, "New link"));
      row.replaceChildren(`${seat.name} \u00b7 new link (give it to ${seat.name} only; the old one no longer works): `,
        copy, h("br"), h("code", { class: "join-link", text: link }));
    });
  const toBot = twiceButton("Hand to a bot", `Hand ${seat.name}'s seat to greedy?`,
    "The greedy bot plays this seat from now on: its link stops working", "hand-to-bot", async () => {
      await api(`/api/games/${game}/seats/${seat.seat}/bot`, { method: "POST", token: creator, body: { bot: "greedy" } });
      feed.reloadSoon();
    });
  newLink.dataset.seat = seat.seat;
  toBot.dataset.seat = seat.seat;
  row.append(newLink, " ", toBot);
  return row;
}

/** The creator's panel: "New link" and "Hand to a bot" per human seat, the seats handed
 * to a bot listed as such (drawn again when the seats change). */
function drawCreator(game, creator, view, feed) {
  const rows = view.seats.map((s) => (s.kind === "human" ? seatRow(game, creator, s, feed)
    : s.handed ? h("li", { "data-seat": s.seat, text: seatName(view, s.seat, s.name) }) : null));
  $("seat-links").replaceChildren(...rows.filter((r) => r !== null));
  $("creator").hidden = false;
}

async function start() {
  const { game } = pageParams();
  if (!game) {
    stopPage("No game", new Error("This page needs a game: /spectate.html?game=ID"));
    return;
  }
  const creator = creatorToken(game);
  let endShown = false;
  let seatsDrawn = null;
  try {
    const [{ catalogue }, rules] = await Promise.all([serverOptions(), cardRules()]);
    const feed = new GameFeed(game, null, (view, events) => {
      const seats = JSON.stringify(view.seats);
      if (creator && seats !== seatsDrawn) {
        seatsDrawn = seats;
        drawCreator(game, creator, view, feed);
      }
      drawShared(view, catalogue, rules, events, null);
      drawMarket($("market-svg"), view.state.market, catalogue);
      if (view.finished && !endShown) {
        endShown = true;
        drawEnd($("end"), view, null).catch(showError);
      }
    }, showError);
    await feed.load();
    await feed.connect();
  } catch (err) {
    if (err.kind === "game-not-found") stopPage("Game not found", err);
    else showError(err);
  }
}

drawKey($("key-body"));
start();
