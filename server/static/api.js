// Talking to the game server (server/API.md): JSON requests with the seat's bearer token,
// RFC 9457 problem details as errors, and where a seat's token is kept.

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

const KEY = (game, seat) => `cascadia-token:${game}:${seat}`;

/** The seat's token: taken from the address (``#token=...``, a join link) into
 * sessionStorage and removed from the address bar, else the one stored before. */
export function seatToken(game, seat) {
  const found = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (found) {
    sessionStorage.setItem(KEY(game, seat), found[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(KEY(game, seat));
}

export function forgetToken(game, seat) {
  sessionStorage.removeItem(KEY(game, seat));
}

/** The tile catalogue ({habitats, wildlife} by id) and the server's options. */
export async function serverOptions() {
  const options = await api("/api/options");
  options.catalogue = options.tiles.map((t) => ({ habitats: t.habitats, wildlife: t.wildlife }));
  return options;
}
