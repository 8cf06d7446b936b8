// The end screen's part for a game played for an achievement map (RULES.md 8.1): a
// winner on the map sees what they may mark as buttons; after marking, their cell filled.
import { ApiError, api } from "./api.js";
import { h, showError } from "./game.js";

/** Append the map section to the end screen ``box`` of seat ``seat``'s page. */
export async function drawMarks(box, view, token, seat) {
  const section = h("section", { id: "marks" });
  box.append(section);
  const base = `/api/games/${view.game_id}`;

  async function show() {
    const info = await api(`${base}/seats/${seat}/markable`, { token });
    const mapLink = h("a", { id: "map-link", href: `/map.html?map=${encodeURIComponent(info.map_id)}`, text: `the map \u201c${info.map_name}\u201d` });
    const parts = [h("h3", { text: `Achievement map: ${info.map_name} (${info.mode} game)` })];
    if (info.marked) {
      parts.push(h("p", { id: "marked", class: "verdict ok", text: `\u2714 You marked \u201c${info.marked.label}\u201d: cell ${info.marked.cell} of your path.` }));
      const picture = await api(`/api/maps/${encodeURIComponent(info.map_id)}/svg`, { raw: true });
      const holder = h("div", { class: "map-svg", id: "marks-map" });
      holder.innerHTML = picture; // the server's own SVG, its texts escaped
      parts.push(holder);
    } else if (!info.on_map) {
      parts.push(h("p", { class: "hint", text: `${info.player} is not on this map: only its players mark it.` }));
    } else if (!info.winner) {
      parts.push(h("p", { class: "hint", text: "Only a winner marks the map (RULES.md 8.1)." }));
    } else if (!info.markable.length) {
      parts.push(h("p", { class: "hint", text: "You won, but there is nothing you may mark for this game (RULES.md 8.1)." }));
    } else {
      parts.push(h("p", { text: "You won: mark one achievement of this game on your path." }));
      parts.push(h("div", { class: "marks" }, info.markable.map((m) => h("button", {
        type: "button", class: "mark", "data-achievement": m.achievement, text: m.label,
        onclick: (e) => mark(e.currentTarget, m.achievement, info.map_version),
      }))));
    }
    parts.push(h("p", {}, ["See ", mapLink, " (it follows every mark live)."]));
    section.replaceChildren(...parts);
  }

  async function mark(button, achievement, version) {
    for (const b of section.querySelectorAll("button.mark")) b.disabled = true;
    try {
      await api(`${base}/marks`, { method: "POST", token, body: { achievement, seat, expected_version: version } });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409)) showError(err);
      else showError(new Error("The map changed meanwhile (another mark); here it is now, please choose again."));
    }
    await show().catch(showError);
  }

  await show();
}
