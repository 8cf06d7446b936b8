// The spectator page: a game as everyone may see it, following its event stream. With
// the creator's token (``#creator=...``, or kept by this browser) it also re-issues a
// seat's link (server/API.md): the creator's view.
import { api, creatorToken, serverOptions } from "./api.js";
import { copyText, drawMarket } from "./draw.js";
import { cardRules } from "./cards.js";
import { drawKey } from "./key.js";
import { $, GameFeed, drawEnd, drawShared, h, pageParams, showError, stopPage } from "./game.js";

/** One human seat's row of the creator's panel: "New link" (clicked twice: it replaces
 * the seat's link, the old one stops working), then the new link and its copy button. */
function seatRow(game, creator, seat) {
  const row = h("li", { "data-seat": seat.seat }, [`${seat.name} \u00b7 `]);
  const button = h("button", {
    type: "button", class: "secondary new-link", "data-seat": seat.seat, text: "New link",
    title: "Replace this seat's link: the old one stops working",
  });
  button.addEventListener("click", async () => {
    if (!button.classList.contains("confirm")) {
      button.classList.add("confirm");
      button.textContent = `Replace ${seat.name}'s link?`;
      return;
    }
    button.disabled = true;
    try {
      const made = await api(`/api/games/${game}/seats/${seat.seat}/link`, { method: "POST", token: creator });
      const link = new URL(made.join_link, location.href).href;
      const copy = h("button", { type: "button", class: "secondary", text: "Copy link" });
      copy.addEventListener("click", () => copyText(link, copy, "New link"));
      row.replaceChildren(`${seat.name} \u00b7 new link (give it to ${seat.name} only; the old one no longer works): `,
        copy, h("br"), h("code", { class: "join-link", text: link }));
    } catch (err) {
      showError(err);
      button.disabled = false;
    }
  });
  row.append(button);
  return row;
}

/** The creator's panel: a "New link" action per human seat. */
function drawCreator(game, creator, view) {
  const humans = view.seats.filter((s) => s.kind === "human");
  $("seat-links").replaceChildren(...humans.map((s) => seatRow(game, creator, s)));
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
  try {
    const [{ catalogue }, rules] = await Promise.all([serverOptions(), cardRules()]);
    const feed = new GameFeed(game, null, (view, events) => {
      if (creator && $("creator").hidden) drawCreator(game, creator, view);
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
