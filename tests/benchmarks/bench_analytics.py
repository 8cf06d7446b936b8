"""Benchmark: analytics ingest and queries over N simulated random games (issue 5 figures).

Run: python tests/benchmarks/bench_analytics.py [N] [--players 4] [--home DIR]

Plays N games with random bots in memory (cascadia.bots.registry.play_game), streams
the finished games straight into the analytics store (ingest_games), and prints:
the ingest rate (games per second, simulation time excluded), the on-disk bytes per
game, the time of ``stats cards`` (the Python function, and the whole CLI command in a
new process), a typical ad-hoc query, and a second, no-op ingest of the same games.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from cascadia.analytics.ingest import ingest_games
from cascadia.analytics.query import AnalyticsDB
from cascadia.analytics.stats import card_stats
from cascadia.analytics.storage import AnalyticsStore
from cascadia.bots.registry import play_game
from cascadia.domain.events import GameEvent

AD_HOC = """
SELECT p.turn_position, pl.keystone, count(*) AS placements,
       avg(CASE WHEN pl.wildlife IS NOT NULL THEN 1 ELSE 0 END) AS token_on_new_tile
FROM placements pl
JOIN games g USING (game_id)
JOIN players p ON p.game_id = pl.game_id AND p.seat = pl.player
WHERE g.players = 4
GROUP BY ALL ORDER BY ALL
"""
"""A typical ad-hoc question: how often the token goes on the tile just placed, by turn
position and keystone (joins the 3.2 M-row placements table to games and players)."""


def _timed(function: Callable[[], object], repeat: int = 5) -> float:
    """The median wall time of ``function()`` over ``repeat`` runs."""
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="?", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--home", help="data directory to use (default: a temporary one, removed after)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        run(args.games, args.players, args.home or temporary)


def run(count: int, players: int, home: str) -> None:
    bots = ["random"] * players
    simulation = 0.0

    def games() -> Iterator[list[GameEvent]]:
        nonlocal simulation
        for seed in range(count):
            started = time.perf_counter()
            game = play_game(seed, bots)
            events = game.collect_events()
            simulation += time.perf_counter() - started
            yield events

    started = time.perf_counter()
    report = ingest_games(home, games())
    total = time.perf_counter() - started
    ingest = total - simulation
    size = AnalyticsStore(home).size_on_disk()
    print(f"{count} games, {players} players, random bots")
    print(f"  simulation {simulation:.1f} s ({simulation / count * 1000:.2f} ms per game)")
    print(
        f"  ingest {ingest:.1f} s: {report.ingested / ingest:.0f} games/s "
        f"({len(report.batches)} batch(es), simulation time excluded)"
    )
    print(f"  on disk {size / 1e6:.1f} MB: {size / count:.0f} bytes per game")

    again = time.perf_counter()
    second = ingest_games(home, [])
    print(
        f"  start of an ingest (lock, clean-up, load the {count} known game ids): "
        f"{time.perf_counter() - again:.2f} s, {second.ingested} added"
    )

    with AnalyticsDB(home) as db:
        rows = db.run("SELECT count(*) FROM events").rows[0][0]
        print(f"  events table: {rows} rows")
        cards = _timed(lambda: card_stats(db))
        print(f"  stats cards (function, views open): {cards * 1000:.0f} ms")
        cards_filtered = _timed(lambda: card_stats(db, "players = 4 AND seed % 2 = 0"))
        print(f"  stats cards --where 'players = 4 AND seed % 2 = 0': {cards_filtered * 1000:.0f} ms")
        ad_hoc = _timed(lambda: db.user_query(AD_HOC))
        print(f"  ad-hoc query (placements x games x players): {ad_hoc * 1000:.0f} ms")
    opened = _timed(lambda: card_stats(AnalyticsDB(home)))
    print(f"  stats cards (open + query): {opened * 1000:.0f} ms")
    command = [str(Path(sys.executable).with_name("cascadia")), "stats", "cards", "--json", "--home", home]
    cli = _timed(lambda: subprocess.run(command, check=True, capture_output=True), repeat=3)
    print(f"  `cascadia stats cards --json` (new process, imports included): {cli * 1000:.0f} ms")


if __name__ == "__main__":
    main()
