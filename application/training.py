"""Training the card potential on the project's own games (``cascadia train``).

One command does it all, from nothing to the coefficients module, and gives the same
file when run again with the same arguments:

1. **Games.** The training games are studies (:mod:`cascadia.application.study`): the
   mix of :data:`MIX` (random cards with and without majority bonuses, the variant
   cards), 4 seats of one bot each, played into a study folder as shards and Parquet
   like any study. Running the command again resumes or skips them.
2. **Positions.** Every game of every shard is played again from its seed and
   decisions; after each turn the mover's position gives one sample: its terms
   (:func:`cascadia.bots.card_potential.terms`) and the points the mover still scored
   (the shard's final total minus the total then). Shards are read in worker
   processes, each summing its samples into normal equations
   (:class:`~cascadia.bots.potential_fit.NormalEquations`), added up here in shard order.
3. **Fit.** The last fifth of each study's seeds are held out: the fit on the rest is
   scored on them (R^2, root mean squared error), then the coefficients are fitted on
   every sample and written as a Python module
   (:mod:`cascadia.bots.card_potential_coefficients`).

Self-improvement: the games of a bot that uses the potential (``--bot builder``, ``--bot
search@N``) are the next generation's training data (docs/BOTS.md).
"""

from __future__ import annotations

import multiprocessing
import textwrap
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from cascadia.application.study import StudyFolder, StudySpec
from cascadia.application.study_runner import run_study
from cascadia.bots.card_potential import covers, terms
from cascadia.bots.potential import turns_left
from cascadia.bots.potential_fit import Layout, NormalEquations, render
from cascadia.bots.registry import seat_bots
from cascadia.bots.valuation import CardCache
from cascadia.bots.worker_processes import START_METHOD, serve_parent
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState
from cascadia.projections.game_scores import score_state
from cascadia.replays.format import atomic_output
from cascadia.replays.shard import ShardGame, ShardReader, ShardSetup
from cascadia.replays.shard_games import start_game

PLAYERS = 4
MIX: tuple[tuple[str, bool, int], ...] = (
    ("random", False, 7),
    ("random", True, 7),
    ("family", False, 2),
    ("family", True, 1),
    ("intermediate", False, 2),
    ("intermediate", True, 1),
)
"""The training games: (cards, majority bonuses, share of the games in twentieths)."""
HELD_OUT = 5
"""One game in this many (the last of each study's seeds) is held out of the first fit."""
SHARD_SIZE = 50
"""Games per training shard: small, so that the workers share each study."""


@dataclass(frozen=True)
class TrainingPlan:
    """What ``cascadia train`` plays and fits: ``games`` games of ``bot`` from
    ``first_seed``, shared out over :data:`MIX`."""

    games: int
    first_seed: int = 0
    bot: str = "greedy"

    def studies(self) -> list[StudySpec]:
        """The training studies, one per part of the mix (each at least one game)."""
        total = sum(share for *_, share in MIX)
        specs = []
        for cards, majority, share in MIX:
            count = max(1, self.games * share // total)
            options = GameOptions(cards=cards, majority_bonus=majority)
            names = tuple(seat_bots(self.bot, PLAYERS))
            specs.append(StudySpec(names, options, self.first_seed, self.first_seed + count, SHARD_SIZE))
        return specs

    def command(self) -> str:
        return f"cascadia train --games {self.games} --first-seed {self.first_seed} --bot {self.bot}"


@dataclass
class FitReport:
    """What a training run found: samples, the held-out fit's quality, the module."""

    samples: int
    held_out_samples: int
    r_squared: float
    rms_error: float
    module: str


def play_studies(folder: StudyFolder, plan: TrainingPlan, workers: int) -> list[StudySpec]:
    """Play (or resume) the plan's studies in ``folder``."""
    specs = plan.studies()
    for spec in specs:
        run_study(folder, spec, workers=workers, allow_mix=True)
    return specs


def shard_sums(path: Path, held_out_from: int) -> tuple[NormalEquations, NormalEquations]:
    """One shard's samples summed: those of the games seeded before ``held_out_from``,
    then those of the held-out games."""
    reader = ShardReader(path)
    layout = Layout()
    kept, held = NormalEquations(layout.width), NormalEquations(layout.width)
    setup = reader.header.setup
    for shard_game in reader.games():
        rows, targets = game_samples(setup, shard_game, layout)
        (kept if shard_game.seed < held_out_from else held).add_rows(rows, targets)
    return kept, held


def game_samples(
    setup: ShardSetup, shard_game: ShardGame, layout: Layout
) -> tuple[list[np.ndarray], list[float]]:
    """A game's samples: after each turn, the mover's terms and the points still to come."""
    game = start_game(setup, shard_game)
    cards = CardCache()
    rows: list[np.ndarray] = []
    targets: list[float] = []
    for seat, state in _turn_ends(game, shard_game):
        turns = turns_left(state, seat)
        if turns <= 0 or not covers(state):
            continue
        now = score_state(state).players[seat].total
        rows.append(layout.row(terms(state, seat, turns, cards)))
        targets.append(float(shard_game.totals[seat] - now))
    return rows, targets


def _turn_ends(game: Game, shard_game: ShardGame) -> Iterator[tuple[int, GameState]]:
    """After each turn of the game replayed from its decisions: the seat that moved and
    the state then."""
    turn = game.state.turn
    for command in shard_game.decisions:
        seat = game.state.current
        game.execute(command)
        if game.state.turn != turn or game.finished:
            turn = game.state.turn
            yield seat, game.state


def fit(
    folder: StudyFolder,
    specs: list[StudySpec],
    workers: int,
    on_shard: Callable[[], None] | None = None,
) -> tuple[NormalEquations, NormalEquations]:
    """The samples of every shard of ``specs`` summed, kept and held out."""
    layout = Layout()
    kept, held = NormalEquations(layout.width), NormalEquations(layout.width)
    paths = [folder.shard_file(spec, index) for spec in specs for index in range(spec.shard_count)]
    held_out_from = [
        spec.stop - max(1, spec.games // HELD_OUT) for spec in specs for _ in range(spec.shard_count)
    ]
    with ExitStack() as stack:
        mapper = map
        if workers > 1:
            context = multiprocessing.get_context(START_METHOD)
            pool = ProcessPoolExecutor(workers, mp_context=context, initializer=serve_parent)
            mapper = stack.enter_context(pool).map
        for part_kept, part_held in mapper(shard_sums, paths, held_out_from):
            kept.add(part_kept)
            held.add(part_held)
            if on_shard is not None:
                on_shard()
    return kept, held


def train(
    data: Path,
    plan: TrainingPlan,
    out: Path,
    workers: int = 1,
    on_shard: Callable[[], None] | None = None,
) -> FitReport:
    """Play the plan's games into ``data``, fit the card potential and write the
    coefficients module to ``out`` (atomically)."""
    folder = StudyFolder(data)
    specs = play_studies(folder, plan, workers)
    kept, held = fit(folder, specs, workers, on_shard)
    layout = Layout()
    first = kept.solve()
    r_squared = held.r_squared(first) if held.count else float("nan")
    rms = held.rms_error(first) if held.count else float("nan")
    kept.add(held)
    coefficients = layout.split(kept.solve())
    provenance = textwrap.wrap(
        f"Fitted by ``{plan.command()}`` on {kept.count:,} positions of "
        f"{sum(spec.games for spec in specs):,} 4-player games of ``{plan.bot}`` (cards and "
        "majority bonuses as in :data:`cascadia.application.training.MIX`); held-out games: "
        f"R^2 {r_squared:.3f}, root mean squared error {rms:.2f} points.",
        88,
        break_on_hyphens=False,
    )
    module = render(coefficients, layout, provenance)
    with atomic_output(out) as handle:
        handle.write(module.encode())
    return FitReport(kept.count, held.count, r_squared, rms, module)
