// A remote bot in plain JavaScript (node 18 or later, no packages): plays one seat of a
// cascadia server game to the end, choosing uniformly among the legal commands.
// The protocol is docs/REMOTE_BOTS.md's.
//
//   node tests/remote_bot.js 'http://127.0.0.1:8000/play.html?game=ID&seat=0#token=TOKEN'
//
// One line per command on stderr; the final totals on stdout; exit 0 at the game's end.
"use strict";

const WAKING = new Set(["TurnEnded", "FirstPlayerChosen", "GameEnded"]);

function parseLink(text) {
  const url = new URL(text);
  const token = new URLSearchParams(url.hash.slice(1)).get("token");
  const game = url.searchParams.get("game");
  const seat = Number(url.searchParams.get("seat"));
  if (!token || !game || !Number.isInteger(seat)) throw new Error(`not a join link: ${text}`);
  return { base: `${url.origin}/api/games/${game}`, seat, headers: { Authorization: `Bearer ${token}` } };
}

async function request(link, path, body) {
  const init = { headers: { ...link.headers } };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const answer = await fetch(link.base + path, init);
  return { status: answer.status, body: await answer.json() };
}

// Read the seat's event stream after `version` until the seat may be to move.
async function waitForTurn(link, version) {
  const controller = new AbortController();
  const answer = await fetch(`${link.base}/stream`, {
    headers: { ...link.headers, "Last-Event-ID": String(version) },
    signal: controller.signal,
  });
  if (answer.status !== 200) throw new Error(`stream: ${answer.status}`);
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for await (const chunk of answer.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = Object.fromEntries(
          message.split("\n").filter((l) => l && !l.startsWith(":")).map((l) => {
            const at = l.indexOf(":");
            return [l.slice(0, at), l.slice(at + 1).replace(/^ /, "")];
          }),
        );
        if (fields.event === "game-over") return;
        if (fields.event === "game-event" && WAKING.has(JSON.parse(fields.data).type)) return;
      }
    }
  } finally {
    controller.abort();
  }
}

async function main() {
  const link = parseLink(process.argv[2] || "");
  for (;;) {
    const { status, body: view } = await request(link, "");
    if (status !== 200) throw new Error(`view: ${status} ${JSON.stringify(view)}`);
    if (view.finished) break;
    if (!view.your_turn) {
      await waitForTurn(link, view.version);
      continue;
    }
    const choices = view.legal_commands;
    const pick = choices[Math.floor(Math.random() * choices.length)];
    const answer = await request(link, "/commands", { command: pick.command, expected_version: view.version });
    if (answer.status === 409) continue; // stale: read the game again
    if (answer.status !== 200) throw new Error(`${pick.text}: ${answer.status} ${JSON.stringify(answer.body)}`);
    process.stderr.write(`version ${view.version}: ${pick.text}\n`);
  }
  const score = await request(link, "/score");
  for (const player of score.body.players) console.log(`seat ${player.seat}: ${player.total}`);
}

main().catch((error) => {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
});
