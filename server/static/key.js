// The key of the play and spectator pages (and the how-to-play page): the colour of each
// habitat, the disc and letter of each species, and the keystone mark, drawn with the
// boards' own pictures (draw.js).
import { h } from "./dom.js";
import { HABITATS, SPECIES, habitatChip, keystoneChip, speciesChip } from "./draw.js";

/** One entry of the key: a picture and its words. */
const entry = (chip, words, attrs = {}) => h("li", attrs, [chip, h("span", { text: words })]);

/** The key into ``box``: habitats, species, the keystone mark. */
export function drawKey(box) {
  box.replaceChildren(
    h("h3", { text: "Habitats (the colours of the tiles' edges)" }),
    h("ul", { class: "key-list", id: "key-habitats" }, HABITATS.map((x) => entry(habitatChip(x, 18), x, { "data-habitat": x }))),
    h("h3", { text: "Wildlife (a disc with its letter: a token, or small on a tile the species it may take)" }),
    h("ul", { class: "key-list", id: "key-species" }, SPECIES.map((s) => entry(speciesChip(s, 22), s, { "data-species": s }))),
    h("h3", { text: "Keystone tiles" }),
    h("ul", { class: "key-list wide" }, [
      entry(keystoneChip("forest", 26), "The white mark: a keystone tile (one habitat, one species). " +
        "A token of that species placed on it earns a nature token."),
    ]),
  );
}
