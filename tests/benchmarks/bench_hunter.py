"""Benchmark: how often the hunter meets each achievement it pursues (RULES.md 8).

Run: python tests/benchmarks/bench_hunter.py [--games 30] [--cards C,A,A,A,B] [GOAL ...]
For each goal (default: all 25 standard achievements), plays two-player standard games
for achievements, the hunter pursuing that goal against the random bot (seeds 2000,
2001, ...), and prints how many games it won, in how many it met the goal as a winner
(what it could mark), its mean score and the CPU time of a game.
"""

from __future__ import annotations

import argparse
import time

from cascadia.bots.hunter_bot import HunterBot
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import continue_game
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.achievements import ACHIEVEMENTS, winner_achievements
from cascadia.projections.game_scores import score_state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--cards", default="C,A,A,A,B")
    parser.add_argument("goals", nargs="*", default=list(ACHIEVEMENTS))
    args = parser.parse_args()
    options = GameOptions(cards=args.cards, achievement_mode="standard")
    print(f"{'goal':36} {'met':>7} {'won':>5} {'mean':>6} {'ms':>5}")
    for goal in args.goals:
        met = won = total = 0
        started = time.process_time()
        for seed in range(2000, 2000 + args.games):
            game = Game.start(seed, ["hunter", "random"], options)
            continue_game(game, [HunterBot(seed, 0, [goal]), RandomBot(seed, 1)])
            sheet = score_state(game.state)
            earned = winner_achievements(game.state, sheet)
            won += 0 in earned
            met += goal in earned.get(0, [])
            total += sheet.players[0].total
        cpu = (time.process_time() - started) / args.games * 1000
        print(f"{goal:36} {met:>3}/{args.games:<3} {won:>5} {total / args.games:>6.1f} {cpu:>5.0f}")


if __name__ == "__main__":
    main()
