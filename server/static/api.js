// Talking to the game server (server/API.md): JSON requests with the seat's bearer token,
// RFC 9457 problem details as errors, and where a seat's (or the creator's) token is kept.

/** An error answer of the API: ``problem`` is its problem details object. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.kind = String(problem.type || "").split("/").pop();
  }
}

/** A request to the API; answers the JSON body, or throws an :class:`ApiError`. */
export async function api(path, { method = "GET", body, token, raw = false } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, { title: "Network error", detail: "the server does not answer; is it running?" });
  }
  const text = await response.text();
  if (!response.ok) {
    let problem;
    try {
      problem = JSON.parse(text);
    } catch (err) {
      problem = { title: response.statusText, detail: text.slice(0, 200) };
    }
    throw new ApiError(response.status, problem);
  }
  return raw ? text : JSON.parse(text);
}

// A seat's token and the creator's token travel in the address's fragment (``#token=``,
// ``#creator=``), which browsers never send to a server. The page keeps the fragment,
// so a reload, a bookmark or a copied address still carries it, and keeps the token in
// localStorage (by game), so the bare address works again in this browser.
const SEAT_PREFIX = (game) => `cascadia-seat:${game}:`;
const CREATOR_KEY = (game) => `cascadia-creator:${game}`;

/** The value of ``name`` in the address's fragment (``#name=...``), or null. */
function fromFragment(name) {
  const found = new RegExp(`(?:^#|&)${name}=([A-Za-z0-9_-]+)`).exec(location.hash);
  return found ? found[1] : null;
}

/** The secret ``name`` of the fragment, kept under ``key``; else the one kept before,
 * put back into the fragment of ``address`` (this page's address without it). */
function keptSecret(name, key, address) {
  const given = fromFragment(name);
  if (given) {
    localStorage.setItem(key, given);
    return given;
  }
  const kept = localStorage.getItem(key);
  if (kept) history.replaceState(null, "", `${address}#${name}=${kept}`);
  return kept;
}

/** The seats of ``game`` whose token this browser keeps, lowest first. */
export function keptSeats(game) {
  const prefix = SEAT_PREFIX(game);
  return Object.keys(localStorage).filter((k) => k.startsWith(prefix))
    .map((k) => Number(k.slice(prefix.length))).filter(Number.isInteger).sort((a, b) => a - b);
}

/** The seat this page plays (``seat`` of the address, else the first one kept for the
 * game) and its token (null: none in the address or this browser). */
export function seatToken(game, seat) {
  const chosen = seat ?? keptSeats(game)[0] ?? null;
  if (chosen === null) return { seat: null, token: null };
  const address = `${location.pathname}?game=${encodeURIComponent(game)}&seat=${chosen}`;
  return { seat: chosen, token: keptSecret("token", SEAT_PREFIX(game) + chosen, address) };
}

/** Forget a seat's token (refused by the server: replaced, or not of this game). */
export function forgetToken(game, seat) {
  localStorage.removeItem(SEAT_PREFIX(game) + seat);
}

/** The creator's token of ``game`` (``#creator=...``, or kept by this browser), or null. */
export function creatorToken(game) {
  return keptSecret("creator", CREATOR_KEY(game), `${location.pathname}?game=${encodeURIComponent(game)}`);
}

/** Whether this browser keeps the creator's token of ``game``: a creator who also plays a
 * seat reaches the seats' management from the play page. */
export function keepsCreatorToken(game) {
  return localStorage.getItem(CREATOR_KEY(game)) !== null;
}

/** Keep the creator's token of a game just created in this browser. */
export function keepCreatorToken(game, token) {
  localStorage.setItem(CREATOR_KEY(game), token);
}

/** The tile catalogue ({habitats, wildlife} by id) and the server's options. */
export async function serverOptions() {
  const options = await api("/api/options");
  options.catalogue = options.tiles.map((t) => ({ habitats: t.habitats, wildlife: t.wildlife }));
  return options;
}
