// The scoring cards of a game, one small button per card: its rule (the texts of
// ``cascadia cards``, served by GET /api/cards) on hover (the title) and on tap (shown
// below the line; tapped again it hides, another card replaces it). A secret card still
// hidden from the viewer (RULES.md 7.10: its letter null in the view) shows "?".
import { api } from "./api.js";
import { $, h } from "./dom.js";

const VARIANTS = ["family", "intermediate"];
const HIDDEN = "a secret card, hidden until revealed (when its holder first spends a nature token, or at the end of the game)";
let shown = null; // the id of the card button whose rule is shown, kept across redraws

/** Each card's rule by its name (``bear A``, ``family``): "bear A: ... (rules 5.3)". */
export async function cardRules() {
  const { cards } = await api("/api/cards");
  return new Map(cards.map((c) => [c.card, `${c.card}: ${c.scores} (rules ${c.rule})`]));
}

/** One card set's buttons: a card per species, or the variant card once (``prefix`` keeps
 * the ids of a second set apart). */
function setButtons(cards, rules, prefix) {
  const names = Object.entries(cards).map(([species, letter]) => (
    VARIANTS.includes(letter) ? [letter, letter] : [species, letter === null ? null : `${species} ${letter}`]
  ));
  const unique = names.filter(([key], i) => names.findIndex(([other]) => other === key) === i);
  return unique.map(([key, name]) => {
    const label = name ?? `${key} ?`;
    const text = name === null ? `${label}: ${HIDDEN}` : rules.get(name) ?? name;
    return h("button", {
      type: "button", class: `card${name === null ? " hidden-card" : ""}`, id: `${prefix}${key}`,
      title: text, "data-rule": text, "aria-controls": "card-rule", text: label,
    });
  });
}

/** Show the rule of ``button`` below the line (``null``: none), and mark it pressed. */
function show(button) {
  shown = button ? button.id : null;
  for (const b of $("cards").querySelectorAll("button.card")) b.setAttribute("aria-expanded", String(b === button));
  $("card-rule").textContent = button ? button.dataset.rule : "";
  $("card-rule").hidden = !button;
}

/** The cards line into ``#cards`` (after it, the rule shown in ``#card-rule``): the
 * cards in play, the second set of ``two_card_sets``, and ``extra`` (nodes such as the
 * viewer's own secret card); ``rules`` is :func:`cardRules`' map. */
export function drawCards(state, rules, extra = []) {
  const line = ["Scoring cards: ", ...setButtons(state.cards, rules, "card-")];
  if (state.second_cards) line.push(" second set: ", ...setButtons(state.second_cards, rules, "card2-"));
  $("cards").replaceChildren(...line, ...extra);
  for (const button of $("cards").querySelectorAll("button.card")) {
    button.addEventListener("click", () => show(button.id === shown ? null : button));
  }
  show(shown && $(shown));
}
