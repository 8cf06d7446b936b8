"""What one poll of the map page (``map.html``) costs the server: ``GET /api/maps/{id}``
and its SVG on a large map: 5 players, 125 marks, 150 recorded games (281 events),
in process on SQLite. Run: ``python tests/benchmarks/bench_map_poll.py``."""

from __future__ import annotations

import tempfile
import time
from uuid import uuid4

from cascadia.domain.achievement_map import AchievementMap, GameFacts
from cascadia.projections.achievements import ACHIEVEMENTS
from cascadia.server.app import ServerConfig, create_app
from fastapi.testclient import TestClient

PLAYERS = ["ann", "bob", "cat", "dan", "eve"]
GAMES = 150
REQUESTS = 100


def large_map() -> AchievementMap:
    """Each game won by the next player in turn, who marks the next achievement left."""
    achievements = list(ACHIEVEMENTS)
    the_map = AchievementMap.create(uuid4(), "bench")
    for player in PLAYERS:
        the_map.join(player)
    for game in range(GAMES):
        winner = PLAYERS[game % len(PLAYERS)]
        table = (winner, *[p for p in PLAYERS if p != winner][:3])
        met = {winner: tuple(achievements)}
        facts = GameFacts(str(uuid4()), True, "standard", 4, False, table, (winner,), met)
        the_map.record_game(facts)
        if game // len(PLAYERS) < len(achievements):
            the_map.mark(winner, facts, achievements[game // len(PLAYERS)])
    return the_map


def main() -> None:
    with tempfile.TemporaryDirectory() as home, TestClient(create_app(ServerConfig(home=home))) as api:
        the_map = large_map()
        api.app.state.maps.store.save_events(the_map.collect_events())  # type: ignore[attr-defined]
        for what, path in (("json", f"/api/maps/{the_map.id}"), ("svg", f"/api/maps/{the_map.id}/svg")):
            size = len(api.get(path).content)
            start = time.perf_counter()
            for _ in range(REQUESTS):
                api.get(path)
            ms = (time.perf_counter() - start) / REQUESTS * 1000
            print(f"{what:4} {the_map.version} events  {size / 1024:5.1f} kB  {ms:5.1f} ms a request")


if __name__ == "__main__":
    main()
