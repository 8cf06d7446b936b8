"""The game's components as data, transcribed from the project's component facts.

RULES.md section 1: 85 habitat tiles (25 keystones, 60 duals: 6 per habitat pair,
45 with two wildlife symbols and 15 with three), 5 starter tiles of three hexes,
100 wildlife tokens (20 per species), 25 nature tokens, 21 wildlife scoring cards.

Ids 0..84 are the habitat tiles. Each starter tile is three hexes; the hexes get
ids 85..99 (starter ``s``, hex ``k`` -> ``85 + 3 * s + k``) so that every hex on a
board is a :class:`Tile` with one id space.
"""

from __future__ import annotations

from dataclasses import dataclass

HABITATS: tuple[str, ...] = ("mountain", "forest", "prairie", "wetland", "river")
WILDLIFE: tuple[str, ...] = ("bear", "elk", "salmon", "hawk", "fox")

TOKENS_PER_SPECIES = 20
NATURE_TOKENS = 25
TURNS_PER_PLAYER = 20
CARD_LETTERS: tuple[str, ...] = ("A", "B", "C", "D")
VARIANT_CARDS: tuple[str, ...] = ("family", "intermediate")


def article(word: str) -> str:
    """``word`` after its indefinite article: ``a bear``, ``an elk`` (``an`` before a vowel)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


@dataclass(frozen=True, slots=True)
class Tile:
    """One hex of habitat: one habitat (a keystone) or two, and its wildlife symbols."""

    id: int
    habitats: tuple[str, ...]
    wildlife: tuple[str, ...]

    @property
    def keystone(self) -> bool:
        """A keystone tile shows a single habitat and a single wildlife symbol."""
        return len(self.habitats) == 1


# (id, habitats, wildlife) for the 85 habitat tiles.
_HABITAT_TILES: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...] = (
    (0, ("mountain",), ("bear",)),
    (1, ("mountain",), ("elk",)),
    (2, ("mountain",), ("elk",)),
    (3, ("mountain",), ("hawk",)),
    (4, ("mountain",), ("hawk",)),
    (5, ("forest",), ("bear",)),
    (6, ("forest",), ("bear",)),
    (7, ("forest",), ("elk",)),
    (8, ("forest",), ("fox",)),
    (9, ("forest",), ("fox",)),
    (10, ("prairie",), ("elk",)),
    (11, ("prairie",), ("elk",)),
    (12, ("prairie",), ("salmon",)),
    (13, ("prairie",), ("salmon",)),
    (14, ("prairie",), ("fox",)),
    (15, ("wetland",), ("salmon",)),
    (16, ("wetland",), ("salmon",)),
    (17, ("wetland",), ("hawk",)),
    (18, ("wetland",), ("fox",)),
    (19, ("wetland",), ("fox",)),
    (20, ("river",), ("bear",)),
    (21, ("river",), ("bear",)),
    (22, ("river",), ("salmon",)),
    (23, ("river",), ("hawk",)),
    (24, ("river",), ("hawk",)),
    (25, ("mountain", "forest"), ("bear", "hawk")),
    (26, ("mountain", "forest"), ("bear", "fox")),
    (27, ("mountain", "forest"), ("elk", "hawk")),
    (28, ("mountain", "forest"), ("elk", "fox")),
    (29, ("mountain", "forest"), ("bear", "elk", "hawk")),
    (30, ("mountain", "forest"), ("bear", "elk", "fox")),
    (31, ("mountain", "prairie"), ("bear", "salmon")),
    (32, ("mountain", "prairie"), ("elk", "salmon")),
    (33, ("mountain", "prairie"), ("elk", "hawk")),
    (34, ("mountain", "prairie"), ("hawk", "fox")),
    (35, ("mountain", "prairie"), ("bear", "elk", "fox")),
    (36, ("mountain", "prairie"), ("bear", "salmon", "fox")),
    (37, ("mountain", "wetland"), ("bear", "salmon")),
    (38, ("mountain", "wetland"), ("elk", "hawk")),
    (39, ("mountain", "wetland"), ("elk", "fox")),
    (40, ("mountain", "wetland"), ("salmon", "hawk")),
    (41, ("mountain", "wetland"), ("bear", "elk", "salmon")),
    (42, ("mountain", "wetland"), ("bear", "hawk", "fox")),
    (43, ("mountain", "river"), ("bear", "elk")),
    (44, ("mountain", "river"), ("bear", "salmon")),
    (45, ("mountain", "river"), ("bear", "hawk")),
    (46, ("mountain", "river"), ("elk", "hawk")),
    (47, ("mountain", "river"), ("salmon", "hawk")),
    (48, ("mountain", "river"), ("bear", "salmon", "hawk")),
    (49, ("forest", "prairie"), ("bear", "elk")),
    (50, ("forest", "prairie"), ("bear", "fox")),
    (51, ("forest", "prairie"), ("elk", "salmon")),
    (52, ("forest", "prairie"), ("elk", "fox")),
    (53, ("forest", "prairie"), ("salmon", "fox")),
    (54, ("forest", "prairie"), ("elk", "salmon", "fox")),
    (55, ("forest", "wetland"), ("bear", "salmon")),
    (56, ("forest", "wetland"), ("bear", "fox")),
    (57, ("forest", "wetland"), ("elk", "salmon")),
    (58, ("forest", "wetland"), ("elk", "hawk")),
    (59, ("forest", "wetland"), ("hawk", "fox")),
    (60, ("forest", "wetland"), ("elk", "salmon", "hawk")),
    (61, ("forest", "river"), ("bear", "elk")),
    (62, ("forest", "river"), ("bear", "salmon")),
    (63, ("forest", "river"), ("bear", "fox")),
    (64, ("forest", "river"), ("elk", "hawk")),
    (65, ("forest", "river"), ("salmon", "fox")),
    (66, ("forest", "river"), ("elk", "hawk", "fox")),
    (67, ("prairie", "wetland"), ("elk", "salmon")),
    (68, ("prairie", "wetland"), ("elk", "fox")),
    (69, ("prairie", "wetland"), ("salmon", "hawk")),
    (70, ("prairie", "wetland"), ("hawk", "fox")),
    (71, ("prairie", "wetland"), ("elk", "salmon", "fox")),
    (72, ("prairie", "wetland"), ("salmon", "hawk", "fox")),
    (73, ("prairie", "river"), ("bear", "fox")),
    (74, ("prairie", "river"), ("elk", "salmon")),
    (75, ("prairie", "river"), ("elk", "hawk")),
    (76, ("prairie", "river"), ("hawk", "fox")),
    (77, ("prairie", "river"), ("bear", "salmon", "fox")),
    (78, ("prairie", "river"), ("bear", "hawk", "fox")),
    (79, ("wetland", "river"), ("bear", "salmon")),
    (80, ("wetland", "river"), ("bear", "hawk")),
    (81, ("wetland", "river"), ("salmon", "hawk")),
    (82, ("wetland", "river"), ("salmon", "fox")),
    (83, ("wetland", "river"), ("hawk", "fox")),
    (84, ("wetland", "river"), ("bear", "salmon", "hawk")),
)

# Per starter tile, its three hexes in the order keystone (0,0), lower left (-1,1),
# lower right (0,1): (habitats, wildlife, rotation).
_STARTER_HEXES: tuple[tuple[tuple[tuple[str, ...], tuple[str, ...], int], ...], ...] = (
    # 0: starter mountain keystone (bear)
    (
        (("mountain",), ("bear",), 0),
        (("forest", "wetland"), ("elk", "hawk", "fox"), 4),
        (("river", "prairie"), ("bear", "salmon"), 5),
    ),
    # 1: starter wetland keystone (hawk)
    (
        (("wetland",), ("hawk",), 0),
        (("river", "forest"), ("elk", "salmon", "hawk"), 4),
        (("prairie", "mountain"), ("bear", "fox"), 5),
    ),
    # 2: starter prairie keystone (fox)
    (
        (("prairie",), ("fox",), 0),
        (("wetland", "river"), ("salmon", "hawk", "fox"), 4),
        (("forest", "mountain"), ("bear", "elk"), 5),
    ),
    # 3: starter river keystone (salmon)
    (
        (("river",), ("salmon",), 0),
        (("prairie", "forest"), ("bear", "elk", "salmon"), 4),
        (("mountain", "wetland"), ("hawk", "fox"), 5),
    ),
    # 4: starter forest keystone (elk)
    (
        (("forest",), ("elk",), 0),
        (("mountain", "river"), ("bear", "elk", "hawk"), 4),
        (("wetland", "prairie"), ("salmon", "fox"), 5),
    ),
)

STARTER_POSITIONS: tuple[tuple[int, int], ...] = ((0, 0), (-1, 1), (0, 1))
"""Where a starter tile's keystone, lower-left and lower-right hexes lie (RULES.md 3.4)."""

HABITAT_TILE_COUNT = len(_HABITAT_TILES)
STARTER_COUNT = len(_STARTER_HEXES)
FIRST_STARTER_ID = HABITAT_TILE_COUNT

TILES: tuple[Tile, ...] = tuple(Tile(i, h, w) for i, h, w in _HABITAT_TILES) + tuple(
    Tile(FIRST_STARTER_ID + 3 * s + k, h, w)
    for s, hexes in enumerate(_STARTER_HEXES)
    for k, (h, w, _rotation) in enumerate(hexes)
)
"""Every hex tile by id: the 85 habitat tiles, then the 15 starter hexes."""


def starter_layout(starter: int) -> tuple[tuple[tuple[int, int], int, int], ...]:
    """The three ``(position, tile id, rotation)`` placements of starter tile ``starter``."""
    return tuple(
        (STARTER_POSITIONS[k], FIRST_STARTER_ID + 3 * starter + k, hexes[2])
        for k, hexes in enumerate(_STARTER_HEXES[starter])
    )
