// The spectator page: a game as everyone may see it, following its event stream.
import { serverOptions } from "./api.js";
import { drawMarket } from "./draw.js";
import { $, GameFeed, drawEnd, drawShared, pageParams, showError } from "./game.js";

async function start() {
  const { game } = pageParams();
  if (!game) {
    showError(new Error("This page needs a game: /spectate.html?game=ID"));
    return;
  }
  let endShown = false;
  try {
    const { catalogue } = await serverOptions();
    const feed = new GameFeed(game, null, (view, events) => {
      drawShared(view, catalogue, events, null);
      drawMarket($("market-svg"), view.state.market, catalogue);
      if (view.finished && !endShown) {
        endShown = true;
        drawEnd($("end"), view, null).catch(showError);
      }
    }, showError);
    await feed.load();
    await feed.connect();
  } catch (err) {
    showError(err);
  }
}

start();
