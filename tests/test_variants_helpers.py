"""Shared helpers of the variant tests (no tests here; the ``test_variants_*`` modules,
``test_achievements`` and ``test_cli_variants`` import them).

A *staged* game is rebuilt with ``Game.replay`` from a hand-made setup under any game
options: the market is chosen, the cards are fixed (``all-a`` unless said otherwise, so
setup draws nothing for them), and ``no_starter`` / ``secret_cards`` / ``two_card_sets``
get their setup events too. Independent reference computations (groups, edge matches)
live here so that the tests do not check the engine against itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from uuid import UUID

from cascadia.domain import events as ev
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.game import Game, stack_size
from cascadia.domain.hexgrid import Hex, tile_edges
from cascadia.domain.options import RULES_VERSION, GameOptions

STAGED_ID = UUID("00000000-0000-4000-8000-00000000000a")
ALL_A = dict.fromkeys(WILDLIFE, "A")
NO_WILDLIFE = dict.fromkeys(WILDLIFE, 0)
DIRECTIONS: tuple[Hex, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
"""RULES.md 2, written out again here: NE, E, SE, SW, W, NW."""


def stage(
    market: Sequence[tuple[int, str]],
    options: GameOptions | None = None,
    *,
    players: int = 2,
    seed: int = 7,
    starters: Sequence[int] | None = None,
    openings: Sequence[Sequence[int]] | None = None,
    secret: Sequence[str] | None = None,
    second_cards: Mapping[str, str] | None = None,
    first: int = 0,
    nature: Sequence[int] = (),
) -> Game:
    """A game at the start of its first turn under ``options`` (cards forced to fixed
    letters), with ``market`` as its pairs, seat ``first`` to play and ``nature[seat]``
    nature tokens per seat. ``openings`` (two tile ids per seat) replace the starters
    when ``options.no_starter``; ``secret`` are the secret cards (``secret_cards``)."""
    options = options or GameOptions(cards="all-a")
    if options.cards == "random":
        raise ValueError("stage a game with fixed cards")
    assert len(market) == options.market_size
    cards = {species: ("A" if options.cards == "all-a" else options.cards) for species in WILDLIFE}
    if "," in options.cards:
        cards = dict(zip(WILDLIFE, options.cards.split(","), strict=True))
    second = None
    if options.two_card_sets:
        second = dict(second_cards or dict.fromkeys(WILDLIFE, "B"))
    made: list[tuple[type[ev.GameEvent], dict[str, Any]]] = [
        (
            ev.GameStarted,
            {
                "seed": seed,
                "players": players,
                "names": [f"p{i}" for i in range(players)],
                "options": options.to_dict(),
                "rules_version": RULES_VERSION,
            },
        ),
        (ev.TileStackPrepared, {"size": stack_size(players, options)}),
        (ev.ScoringCardsDrawn, {"cards": cards, "second_cards": second}),
    ]
    if options.no_starter:
        assert openings is not None and len(openings) == players
        made.append((ev.OpeningTilesDealt, {"tiles": [list(pair) for pair in openings]}))
    else:
        made.append(
            (ev.StarterTilesDealt, {"starters": list(range(players)) if starters is None else list(starters)})
        )
    if options.secret_cards:
        made.append((ev.SecretCardsDealt, {"species": list(secret or WILDLIFE[:players])}))
    made += [
        (ev.MarketRefilled, {"fills": [[slot, t, w] for slot, (t, w) in enumerate(market)]}),
        (ev.FirstPlayerChosen, {"seat": first}),
    ]
    for seat, count in enumerate(nature):
        made += [(ev.NatureTokenEarned, {"player": seat, "q": 0, "r": 0})] * count
    return Game.replay(cls(STAGED_ID, i + 1, **payload) for i, (cls, payload) in enumerate(made))


def of_type(events: Iterable[ev.GameEvent], cls: type[ev.GameEvent]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def touches_same_habitat(tiles: Mapping[Hex, tuple[int, int]], h: Hex, tile: int, rotation: int) -> bool:
    """Whether a tile at ``h`` would show, on some edge, the habitat of the touching edge of
    a neighbour (RULES.md 2: edge ``i`` faces direction ``i``; the neighbour's edge is i+3)."""
    edges = tile_edges(tile, rotation)
    for i, (dq, dr) in enumerate(DIRECTIONS):
        n = (h[0] + dq, h[1] + dr)
        if n in tiles and tile_edges(*tiles[n])[(i + 3) % 6] == edges[i]:
            return True
    return False


def open_hexes(tiles: Iterable[Hex]) -> set[Hex]:
    taken = set(tiles)
    return {(q + dq, r + dr) for q, r in taken for dq, dr in DIRECTIONS} - taken


def groups(wildlife: Mapping[Hex, str], species: str) -> list[int]:
    """Sizes of the maximal connected groups of ``species`` (a plain flood fill)."""
    left = {h for h, s in wildlife.items() if s == species}
    sizes = []
    while left:
        todo = [left.pop()]
        size = 0
        while todo:
            q, r = todo.pop()
            size += 1
            for dq, dr in DIRECTIONS:
                n = (q + dq, r + dr)
                if n in left:
                    left.remove(n)
                    todo.append(n)
        sizes.append(size)
    return sizes


def family_points(size: int) -> int:
    """RULES.md 5.8, Family: 1 -> 2, 2 -> 5, 3+ -> 9."""
    return {1: 2, 2: 5}.get(size, 9)


def intermediate_points(size: int) -> int:
    """RULES.md 5.8, Intermediate: 1 -> 0, 2 -> 5, 3 -> 8, 4+ -> 12."""
    return {1: 0, 2: 5, 3: 8}.get(size, 12)


def corridors(**sizes: Sequence[int]) -> dict[str, list[int]]:
    """Per habitat the sizes of all its corridors (unnamed habitats: none)."""
    return {h: list(sizes.get(h, ())) for h in HABITATS}


def per_habitat(
    mountain: int = 0, forest: int = 0, prairie: int = 0, wetland: int = 0, river: int = 0
) -> dict:
    return dict(zip(HABITATS, (mountain, forest, prairie, wetland, river), strict=True))


def corridor_sizes_ref(tiles: Mapping[Hex, tuple[int, int]]) -> dict[str, list[int]]:
    """RULES.md 5.1 by flood fill: per habitat the sizes of its corridors, largest first.
    Two tiles are joined in H when both touching edges show H; a tile is in H's
    corridors when it shows H at all."""
    found: dict[str, list[int]] = {}
    for habitat in HABITATS:
        left = {h for h, (tile, rot) in tiles.items() if habitat in tile_edges(tile, rot)}
        sizes = []
        while left:
            todo = [left.pop()]
            size = 0
            while todo:
                h = todo.pop()
                size += 1
                own = tile_edges(*tiles[h])
                for i, (dq, dr) in enumerate(DIRECTIONS):
                    n = (h[0] + dq, h[1] + dr)
                    if n in left and own[i] == habitat and tile_edges(*tiles[n])[(i + 3) % 6] == habitat:
                        left.remove(n)
                        todo.append(n)
            sizes.append(size)
        found[habitat] = sorted(sizes, reverse=True)
    return found
