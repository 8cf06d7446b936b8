"""Shared helpers for the rules-engine tests: staged games, refusal checks, counting.

A *staged* game is rebuilt (``Game.replay``) from a hand-made setup whose market we
choose; the scoring cards are fixed (``all-a``) so that setup uses no draws, and every
later draw continues the seed's stream from the recorded draw position.
"""

from __future__ import annotations

import copy
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

import platformdirs
import pytest
from cascadia.application.settings import default_home
from cascadia.cli.app import main
from cascadia.domain import events as ev
from cascadia.domain.components import WILDLIFE
from cascadia.domain.game import Game, stack_size
from cascadia.domain.options import RULES_VERSION, GameOptions
from cascadia.domain.state import SPECIES_INDEX, GameState, wildlife_counts
from hypothesis import settings

pytest.register_assert_rewrite("browser_support")
"""Its asserts are rewritten like a test module's (the browser tests import it before
loading it as their plugin)."""

settings.register_profile("cascadia", deadline=None)
settings.load_profile("cascadia")
"""No per-example deadline for any property test: pass or fail never depends on the
machine's speed or load (a test's own ``@settings`` may still lower its example count)."""

STAGED_ID = UUID("00000000-0000-4000-8000-000000000001")


def stage(
    market: Sequence[tuple[int, str]],
    *,
    players: int = 2,
    seed: int = 7,
    starters: Sequence[int] | None = None,
    first: int = 0,
    nature: Sequence[int] = (),
    rules_version: str = RULES_VERSION,
) -> Game:
    """A game at the start of its first turn, with ``market`` as its four (tile, token)
    pairs, seat ``first`` to play, the given starters (default 0, 1, ...),
    ``nature[seat]`` nature tokens per seat, under ``rules_version``."""
    opts = GameOptions(cards="all-a")
    starters = list(range(players)) if starters is None else list(starters)
    made: list[tuple[type[ev.GameEvent], dict[str, Any]]] = [
        (
            ev.GameStarted,
            {
                "seed": seed,
                "players": players,
                "names": [f"p{i}" for i in range(players)],
                "options": opts.to_dict(),
                "rules_version": rules_version,
            },
        ),
        (ev.TileStackPrepared, {"size": stack_size(players)}),
        (ev.ScoringCardsDrawn, {"cards": dict.fromkeys(WILDLIFE, "A")}),
        (ev.StarterTilesDealt, {"starters": starters}),
        (ev.MarketRefilled, {"fills": [[slot, t, w] for slot, (t, w) in enumerate(market)]}),
        (ev.FirstPlayerChosen, {"seat": first}),
    ]
    for seat, count in enumerate(nature):
        made += [(ev.NatureTokenEarned, {"player": seat, "q": 0, "r": 0})] * count
    return Game.replay(cls(STAGED_ID, i + 1, **payload) for i, (cls, payload) in enumerate(made))


def rig_tokens(game: Game, market: Sequence[str] | None = None, bag: dict[str, int] | None = None) -> None:
    """Force the market tokens and the bag contents (not through events: replay of such
    a game does not reproduce it). Tokens that the new bag and market do not hold are
    counted as out of the game, so that the 100 tokens are still all accounted for."""
    state = game.state
    total = sum(wildlife_counts(state).values())
    if market is not None:
        state.market_wildlife = list(market)
    if bag is not None:
        state.bag = [bag.get(species, 0) for species in WILDLIFE]
    state.removed_wildlife = [0] * len(WILDLIFE)
    missing = total - sum(wildlife_counts(state).values())
    assert missing >= 0, "rigging may only take tokens out of the game"
    state.removed_wildlife[SPECIES_INDEX["bear"]] = missing


def token_total(state: GameState) -> int:
    return sum(wildlife_counts(state).values())


def assert_refused(game: Game, error: type[Exception], command: Callable[..., Any], *args: Any) -> None:
    """``command(*args)`` raises exactly ``error`` and changes nothing: the state is
    equal to before and no event was emitted."""
    game.collect_events()
    before = copy.deepcopy(game.state)
    with pytest.raises(error) as raised:
        command(*args)
    assert type(raised.value) is error, f"expected {error.__name__}, got {type(raised.value).__name__}"
    assert game.state == before
    assert game.collect_events() == []


def events_of(events: Sequence[ev.GameEvent], cls: type[ev.GameEvent]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def play_simple_turn(game: Game, slot: int = 0) -> list[ev.GameEvent]:
    """Take pair ``slot``, place the tile on the first open hex (rotation 0), place the
    token on the first legal target or return it; the events of the turn."""
    game.collect_events()
    game.take(slot)
    q, r = game.legal_tile_positions()[0]
    game.place_tile(q, r, 0)
    targets = game.legal_wildlife_targets()
    if targets:
        game.place_wildlife(*targets[0])
    else:
        game.return_wildlife()
    return game.collect_events()


@pytest.fixture(autouse=True)
def private_default_home(tmp_path_factory, monkeypatch):
    """No test touches the real user data folder: the default data directory
    (``default_home``) lies in a fresh temporary folder, through ``XDG_DATA_HOME`` (which
    ``platformdirs`` reads on Linux), or where ``platformdirs`` ignores it, by replacing
    its answer. ``clean_env`` leaves this in place."""
    folder = tmp_path_factory.mktemp("xdg-data")
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    if not default_home().is_relative_to(folder):
        monkeypatch.setattr(platformdirs, "user_data_dir", lambda *args, **kwargs: str(folder / "cascadia"))


@pytest.fixture
def home(tmp_path):
    """A data directory not yet made (a server's store, say), in ``tmp_path``."""
    return tmp_path / "home"


@pytest.fixture
def api(home):
    """A client of a game server application, in this process, on a fresh SQLite store in
    ``home`` (FastAPI's TestClient: the app's startup and shutdown run around the test)."""
    from cascadia.server.app import ServerConfig, create_app
    from fastapi.testclient import TestClient

    with TestClient(create_app(ServerConfig(home=str(home)))) as client:
        yield client


@pytest.fixture
def clean_env(monkeypatch):
    """No store settings from the environment: each test chooses its own data directory."""
    for key in list(os.environ):
        if key.startswith(("PERSISTENCE_", "SQLITE_", "POSTGRES_", "CASCADIA_", "TRANSCODER_")):
            monkeypatch.delenv(key)


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys, clean_env):
    """Run ``cascadia ARGS --home tmp_path`` in this process: (exit code, stdout, stderr).
    ``home=False`` leaves ``--home`` out."""

    def run(*args: str, home: bool = True) -> tuple[int, str, str]:
        extra = ["--home", str(tmp_path)] if home else []
        monkeypatch.setattr(sys, "argv", ["cascadia", *args, *extra])
        capsys.readouterr()
        with pytest.raises(SystemExit) as stop:
            main()
        out, err = capsys.readouterr()
        return stop.value.code, out, err

    return run


@pytest.fixture
def app_cli(monkeypatch, capsys):
    """``app_cli(*args)`` -> (exit code, stdout, stderr): ``cascadia ARGS`` run in this
    process through ``run_app`` (no ``--home`` added), on an 80-column console."""
    from cascadia.cli import common
    from cascadia.cli.app import app

    monkeypatch.setattr(common.console, "width", 80)

    def run(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["cascadia", *args])
        capsys.readouterr()
        code = common.run_app(app)
        out, err = capsys.readouterr()
        return code, out, err

    return run


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say plainly what was skipped and why, grouped by reason, after every run: a
    missing browser, PostgreSQL server or node skips whole families of tests, and a bare
    "3 skipped" would hide it (the ``CASCADIA_REQUIRE_*`` variables of README.md turn
    those skips into failures)."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    if not reasons:
        return
    terminalreporter.section("skipped, and why")
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        terminalreporter.write_line(f"{count:5d} skipped: {reason}")
