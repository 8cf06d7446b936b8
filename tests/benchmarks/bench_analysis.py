"""Benchmark: seconds to analyse one game log (``cascadia analyse``) at the default budget.

Run: python tests/benchmarks/bench_analysis.py [--players 2 4] [--bots greedy,random] [--budget 8]
For each player count, plays one seeded game with the bots cycled over the seats, writes
its log, and prints the wall and CPU seconds of analysing every move with the greedy
(a move the bot would not have played is valued twice, so a game of other players costs
more than a greedy game).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from cascadia.bots.analysis import DEFAULT_BUDGET, analyse_log
from cascadia.bots.registry import play_game, seat_bots
from cascadia.replays.format import LogHeader, write_log
from cascadia.replays.scores import final_score_sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for players in args.players:
            names = seat_bots(args.bots, players)
            game = play_game(args.seed, names)
            events = game.collect_events()
            path = Path(folder) / f"game{players}.cascadia"
            write_log(path, LogHeader.from_events(events), events, final_score_sheet(game.state))
            started, cpu_started = time.perf_counter(), time.process_time()
            _, rows = analyse_log(path, budget=args.budget)
            moves = len(list(rows))
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
            print(
                f"{players} players ({', '.join(names)}), budget {args.budget}: {moves} moves analysed "
                f"in {wall:.1f} s wall, {cpu:.1f} s CPU ({cpu / moves * 1000:.0f} ms CPU a move)"
            )


if __name__ == "__main__":
    main()
