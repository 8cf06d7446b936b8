"""Fit the coefficients of the position potential (:mod:`cascadia.bots.potential`).

Run: python tests/benchmarks/fit_potential.py [--games 600] [--first-seed 100000]
     [--write bots/potential_coefficients.py]

Plays seeded 4-player games of the greedy bot (all A cards, no majority bonuses: the
games the potential is for). After each turn it records, for the player who just
moved, the potential's terms (their board's features and turns left) and the target:
their final total minus their total then. Ordinary least squares (numpy) on the
samples of the first 80% of the games; it prints the fit's R^2 and mean absolute error
on the other 20%, then refits on all of them and, with ``--write``, writes the
coefficients (rounded to 4 decimals) as a Python module. The games are seeded and the
greedy bot is deterministic, so the same arguments give the same file. Not collected
by pytest.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from cascadia.bots.base import PlanningBot
from cascadia.bots.greedy_bot import GreedyBot
from cascadia.bots.potential import NAMES, features, terms, turns_left
from cascadia.bots.search_bot import SearchBot
from cascadia.bots.valuation import CardCache
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state

PLAYERS = 4


def players(policy: str, seed: int) -> list[PlanningBot]:
    """The seats' bots: the greedy, or the one-ply potential bot (the search bot
    without look-ahead, valuing moves by immediate value plus the current potential)."""
    if policy == "greedy":
        return [GreedyBot(seed, seat) for seat in range(PLAYERS)]
    return [SearchBot(seed, seat, depth=0) for seat in range(PLAYERS)]


def samples(policy: str, seed: int) -> tuple[list[list[float]], list[float]]:
    """One game's samples: per turn, the mover's terms and points still to come."""
    bots = players(policy, seed)
    cards = CardCache()
    game = Game.start(seed, [policy] * PLAYERS, GameOptions(cards="all-a", majority_bonus=False))
    rows: list[tuple[int, list[float], int]] = []
    while not game.finished:
        seat = game.current_player
        bots[seat].play_turn(game)
        turns = turns_left(game.state, seat)
        if turns > 0:
            now = score_state(game.state).players[seat].total
            rows.append((seat, terms(features(game.state, seat, cards), turns), now))
    final = [p.total for p in score_state(game.state).players]
    return [row for _, row, _ in rows], [final[seat] - now for seat, _, now in rows]


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    coefficients, *_ = np.linalg.lstsq(x, y, rcond=None)
    return coefficients


def render(coefficients: np.ndarray, policy: str, games: int, first_seed: int) -> str:
    command = (
        f"python tests/benchmarks/fit_potential.py --policy {policy} --games {games}\n"
        f"--first-seed {first_seed} --write bots/potential_coefficients.py"
    )
    if policy == "greedy":
        played = "the greedy policy."
    else:
        played = (
            "the one-ply bot (``SearchBot(depth=0)``)\n"
            "valuing positions with the coefficients this file held before: a second round of\n"
            "fitted value iteration. To regenerate it, first write the first round to this file\n"
            "(``--policy greedy --games 600``), then run the command above."
        )
    lines = [
        '"""Coefficients of the position potential, one per term of',
        ":data:`cascadia.bots.potential.NAMES` (generated: do not edit).",
        "",
        f"Fitted by ``{command}`` on 4-player games",
        f'(all A cards, no majority bonuses) of {played}"""',
        "",
        "COEFFICIENTS: tuple[float, ...] = (",
        *(f"    {c:.4f},  # {name}" for c, name in zip(coefficients, NAMES, strict=True)),
        ")",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--first-seed", type=int, default=100000)
    parser.add_argument("--policy", choices=("greedy", "ply"), default="greedy")
    parser.add_argument("--write", help="write the coefficients module to this path")
    args = parser.parse_args()
    per_game = [samples(args.policy, seed) for seed in range(args.first_seed, args.first_seed + args.games)]
    split = max(1, args.games * 4 // 5)
    train_x = np.array([row for x, _ in per_game[:split] for row in x])
    train_y = np.array([v for _, y in per_game[:split] for v in y])
    coefficients = fit(train_x, train_y)
    if split < args.games:
        test_x = np.array([row for x, _ in per_game[split:] for row in x])
        test_y = np.array([v for _, y in per_game[split:] for v in y])
        error = test_y - test_x @ coefficients
        r2 = 1 - float(error @ error) / float(((test_y - test_y.mean()) ** 2).sum())
        mae = float(np.abs(error).mean())
        print(f"held-out games {args.games - split}: R^2 {r2:.3f}, mean absolute error {mae:.2f}")
    all_x = np.array([row for x, _ in per_game for row in x])
    all_y = np.array([v for _, y in per_game for v in y])
    coefficients = fit(all_x, all_y)
    for name, c in zip(NAMES, coefficients, strict=True):
        print(f"{name:>28} {c:9.4f}")
    if args.write:
        Path(args.write).write_text(render(coefficients, args.policy, args.games, args.first_seed))
        print(f"wrote {args.write}")


if __name__ == "__main__":
    main()
