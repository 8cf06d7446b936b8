"""Benchmark: two generations of the card potential, rated in duplicate games.

Run: python tests/benchmarks/bench_generations.py --new FILE --old FILE [--bot builder]
     [--games 30] [--first-seed 600000] [--cards random] [--no-majority]

``FILE``: a coefficients module written by ``cascadia train`` (the package's own is
``bots/card_potential_coefficients.py``), or ``none``: the A model alone (the search as
the ``search`` bot plays it; not for ``builder``). Each deal (seed) is played twice by 4 seats of
the same bot (``builder``, or ``search@N``), one with each model on alternate seats: new,
old, new, old, then old, new, old, new, so each model sits in every seat once on the
same deal. Prints each model's mean seat score and the mean per-deal difference (new
minus old: the mean of its seats minus the mean of the other's, over both seatings)
with its 95% interval, and the CPU time a move. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from cascadia.bots.base import Bot
from cascadia.bots.card_potential import CardModel
from cascadia.bots.search_bot import OnePlyBot, SearchBot
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state

PLAYERS = 4


def make_bot(bot: str, seed: int, seat: int, model: CardModel | None) -> Bot:
    """``builder`` or ``search@N`` with ``model`` as its potential (``None``: the A model)."""
    if bot == "builder" and model is not None:
        return OnePlyBot(seed, seat, model)
    base, _, budget = bot.partition("@")
    if base != "search" or not budget.isdigit():
        raise SystemExit(f"--bot is builder (with two models) or search@N, not {bot!r}")
    return SearchBot(seed, seat, iterations=int(budget), model=model)


def play(
    bot: str, seed: int, options: GameOptions, models: list[CardModel | None]
) -> tuple[list[int], float, int]:
    """One game, seat ``i`` with ``models[i]``: the totals, CPU seconds and turns."""
    bots = [make_bot(bot, seed, seat, model) for seat, model in enumerate(models)]
    game = Game.start(seed, PLAYERS, options)
    cpu, turns = 0.0, 0
    while not game.finished:
        started = time.process_time()
        bots[game.current_player].play_turn(game)
        cpu += time.process_time() - started
        turns += 1
    return [p.total for p in score_state(game.state).players], cpu, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--new", required=True)
    parser.add_argument("--old", required=True)
    parser.add_argument("--bot", default="builder")
    parser.add_argument("--games", type=int, default=30, help="deals (each played twice)")
    parser.add_argument("--first-seed", type=int, default=600000)
    parser.add_argument("--cards", default="random")
    parser.add_argument("--no-majority", action="store_true")
    args = parser.parse_args()
    new, old = (None if path == "none" else CardModel.read(path) for path in (args.new, args.old))
    options = GameOptions(cards=args.cards, majority_bonus=not args.no_majority)
    scores: dict[str, list[int]] = {"new": [], "old": []}
    differences: list[float] = []
    cpu, turns = 0.0, 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        deal = {"new": 0.0, "old": 0.0}
        for first, second in (("new", "old"), ("old", "new")):
            labels = [first, second] * (PLAYERS // 2)
            totals, seconds, moves = play(
                args.bot, seed, options, [new if x == "new" else old for x in labels]
            )
            cpu, turns = cpu + seconds, turns + moves
            for label, total in zip(labels, totals, strict=True):
                scores[label].append(total)
                deal[label] += total / PLAYERS  # two seats a seating, two seatings
        differences.append(deal["new"] - deal["old"])
    mean = statistics.fmean(differences)
    half = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else 0.0
    print(
        f"{args.bot}, {PLAYERS}p, cards {args.cards}, majority {'off' if args.no_majority else 'on'}, "
        f"{args.games} deals from seed {args.first_seed}, each played twice:\n"
        f"  new {statistics.fmean(scores['new']):.2f}, old {statistics.fmean(scores['old']):.2f}; "
        f"new - old {mean:+.2f} (95% CI {mean - half:+.2f} to {mean + half:+.2f})\n"
        f"  {cpu / turns * 1000:.1f} ms CPU per move"
    )


if __name__ == "__main__":
    main()
