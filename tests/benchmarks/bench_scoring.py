"""Benchmark: final scoring of random dense boards (issue 3 figures).

Run: python tests/benchmarks/bench_scoring.py [--games 500] [--seed 3]

Builds seeded random finished boards (a starter tile plus 20 tiles, each placed on
a free hex chosen with weight 4^(tiled neighbours) so boards are compact, random
rotations, 20 tokens chosen from each tile's symbols) and random cards, then prints
the median microseconds of scoring one board (wildlife + corridors) and one
4-player game (``score_game``: 4 boards, bonuses, ranks). Not collected by pytest.

Corridors are kept per board as its tiles are placed (``CorridorIndex``), so they are
timed two ways: "from scratch" indexes all the board's tiles afresh; "as placed" is
what a game pays after a placement: the board's last tile taken into the index of the
others, and the corridors read.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from cascadia.domain.components import CARD_LETTERS, HABITAT_TILE_COUNT, TILES, WILDLIFE, starter_layout
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import neighbours
from cascadia.domain.options import GameOptions
from cascadia.projections.habitats import largest_corridors
from cascadia.projections.scoresheet import score_game
from cascadia.projections.wildlife import score_wildlife

PLACED_TILES = 20
TOKENS = 20
PLAYERS = 4


def random_board(rng: random.Random, tile_ids: list[int], starter: int) -> Environment:
    """A compact random finished board from ``tile_ids`` (20 of them) and a starter."""
    env = Environment()
    for position, tile_id, rotation in starter_layout(starter):
        env.tiles[position] = (tile_id, rotation)
    for tile_id in tile_ids:
        free = env.open_hexes()
        weights = [4 ** sum(n in env.tiles for n in neighbours(h)) for h in free]
        h = rng.choices(free, weights)[0]
        env.tiles[h] = (tile_id, rng.randrange(6))
    for h in rng.sample(sorted(env.tiles), TOKENS):
        env.wildlife[h] = rng.choice(TILES[env.tiles[h][0]].wildlife)
    return env


def random_game(rng: random.Random) -> tuple[list[Environment], dict[str, str]]:
    """Four boards dealt from one set of tiles, and a random card per species."""
    tiles = rng.sample(range(HABITAT_TILE_COUNT), PLACED_TILES * PLAYERS)
    starters = rng.sample(range(5), PLAYERS)
    boards = [
        random_board(rng, tiles[i * PLACED_TILES : (i + 1) * PLACED_TILES], starters[i])
        for i in range(PLAYERS)
    ]
    return boards, {species: rng.choice(CARD_LETTERS) for species in WILDLIFE}


def blob(size: int) -> list[tuple[int, int]]:
    """The ``size`` hexes nearest the origin (a compact blob, ring by ring)."""
    cells = [(q, r) for q in range(-4, 5) for r in range(-4, 5) if abs(q + r) <= 4]
    cells.sort(key=lambda h: (max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])), h))
    return cells[:size]


def dense_cases() -> list[tuple[str, dict[tuple[int, int], str], GameOptions]]:
    """The worst boards for the maximising cards: all 20 tokens of one species in one blob,
    and a blob of 10 foxes mixed with 10 of the others."""
    cells = blob(TOKENS)
    cases = [(f"20 {species}", dict.fromkeys(cells, species), GameOptions()) for species in WILDLIFE]
    cases.append(
        ("20 elk, elk_rings=any-subset", dict.fromkeys(cells, "elk"), GameOptions(elk_rings="any-subset"))
    )
    mixed = {h: ("fox" if i % 2 else WILDLIFE[i % 4]) for i, h in enumerate(cells)}
    cases.append(("10 fox + 10 others", mixed, GameOptions()))
    return cases


def median_us(samples: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(samples, n=4)
    spread = f"quartiles {q1 * 1e6:.1f}-{q3 * 1e6:.1f}, max {max(samples) * 1e6:.0f}"
    return f"median {median * 1e6:8.1f} us ({spread})"


def as_placed(env: Environment) -> Callable[[], object]:
    """The work of the corridors after ``env``'s last tile is placed, to be called once:
    an index of the other tiles is made first (untimed); the call places the last tile
    and reads the corridors."""
    *before, (last, placement) = env.tiles.items()
    board = Environment(dict(before))
    largest_corridors(board)

    def place_last() -> object:
        board.tiles[last] = placement
        return largest_corridors(board)

    return place_last


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    games = [random_game(rng) for _ in range(args.games)]
    options = GameOptions()
    uniform_sets = [dict.fromkeys(WILDLIFE, letter) for letter in CARD_LETTERS]

    per_board, per_board_scratch, wildlife_only, corridors_only, corridors_scratch, per_game = (
        [],
        [],
        [],
        [],
        [],
        [],
    )
    for boards, cards in games:
        for env in boards:
            wildlife_only.append(
                timed(lambda env=env, cards=cards: score_wildlife(env.wildlife, cards, options))
            )
            corridors_scratch.append(timed(lambda env=env: (env.derived.clear(), largest_corridors(env))))
            corridors_only.append(timed(as_placed(env)))
            per_board_scratch.append(
                timed(
                    lambda env=env, cards=cards: (
                        score_wildlife(env.wildlife, cards, options),
                        env.derived.clear(),
                        largest_corridors(env),
                    )
                )
            )
            place_last = as_placed(env)
            per_board.append(
                timed(
                    lambda env=env, cards=cards, place_last=place_last: (
                        score_wildlife(env.wildlife, cards, options),
                        place_last(),
                    )
                )
            )
        for env in boards:
            env.derived.clear()
        per_game.append(
            timed(lambda boards=boards, cards=cards: score_game(boards, [0] * PLAYERS, cards, options))
        )
    by_letter = {
        cards["bear"]: [
            timed(lambda env=env, cards=cards: score_wildlife(env.wildlife, cards, options))
            for boards, _ in games
            for env in boards
        ]
        for cards in uniform_sets
    }

    tokens = statistics.mean(len(env.wildlife) for boards, _ in games for env in boards)
    tiles = statistics.mean(len(env.tiles) for boards, _ in games for env in boards)
    print(f"{args.games} random 4-player games, {tiles:.0f} tiles and {tokens:.0f} tokens per board")
    print(f"  per board, wildlife (5 random cards): {median_us(wildlife_only)}")
    print(f"  per board, corridors as placed:       {median_us(corridors_only)}")
    print(f"  per board, corridors from scratch:    {median_us(corridors_scratch)}")
    print(f"  per board, wildlife + corridors:      {median_us(per_board)} (corridors as placed)")
    print(f"  per board, the same from scratch:     {median_us(per_board_scratch)}")
    print(f"  per 4-player game, score_game:        {median_us(per_game)} (corridors from scratch)")
    for letter, samples in by_letter.items():
        print(f"  per board, wildlife, all {letter} cards:     {median_us(samples)}")
    print("densest boards (one card per species, each letter):")
    for name, wildlife, case_options in dense_cases():
        for cards in uniform_sets:
            samples = [
                timed(lambda w=wildlife, c=cards, o=case_options: score_wildlife(w, c, o)) for _ in range(5)
            ]
            print(f"  {name:30} all {cards['bear']}: {median_us(samples)}")


if __name__ == "__main__":
    main()
