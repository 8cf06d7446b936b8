"""Benchmark: the cost of the environments for learning agents (cascadia.bots.agents) against
the bare engine playing the same games on one core.

Run: python tests/benchmarks/bench_agents.py [--games 20] [--players 2 4] [--repeats K]
[--baseline DIR]
Prints figures (no pass or fail):

- the size of the action space and the mean number of legal actions per decision;
- PettingZoo: the engine plays each seeded game by uniform random legal commands
  (``legal_commands``, a uniform pick, ``execute``); the AEC environment then plays the
  same decisions as actions, with ``env.last()`` (the observation and its mask) before
  each ``env.step``;
- OpenSpiel (when ``pyspiel`` is installed): the same decisions through a
  ``python_cascadia`` state loaded with the game's seed, ``legal_actions()`` before each
  ``apply_action``;
- Gymnasium: the engine plays each seed with ``random`` bots on every seat
  (``play_game``); the environment plays the same game, its agent choosing through the
  seat's ``random`` bot, against ``random`` bots;

each as decisions a second of CPU time and the environment's cost over the engine's.
``--repeats K`` plays every game K times on each side, in turn, and also prints the ratio of
the sums of each game's quickest play (the plays that other work on the machine slowed
the least). On a shared machine both ratios move by some 3-5% between runs; the
quickest plays' ratio has come out 3-8% above the ratio of all plays.

``--baseline DIR``: instead, the same figures from this checkout and from the checkout in
``DIR`` (another worktree, say ``git worktree add --detach DIR COMMIT``), each in a process
of its own, player count by player count and ``--rounds`` times in turn (who goes first
alternates), so that both see the machine alike; prints the median ratio of each.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import NamedTuple

from cascadia.bots.agents.actions import ACTION_COUNT, encode
from cascadia.bots.agents.gym_env import CascadiaEnv
from cascadia.bots.agents.pettingzoo_env import CascadiaAECEnv
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import play_game
from cascadia.domain.commands import Command
from cascadia.domain.game import Game
from checkouts import CHECKOUT, LineWorker


class Timing(NamedTuple):
    """CPU seconds of the engine's games and of the environment's (all plays), and the
    sums of each game's quickest play (:func:`side_by_side`)."""

    engine: float
    environment: float
    engine_best: float
    environment_best: float


Figures = dict[str, tuple[int, Timing]]
"""Per environment: its decisions and the CPU seconds of the engine and of it."""


def cpu(work: Callable[[], object]) -> float:
    """CPU seconds of ``work()``."""
    started = time.process_time()
    work()
    return time.process_time() - started


def side_by_side(
    seeds: range, engine: Callable[[int], object], environment: Callable[[int], object], repeats: int = 1
) -> Timing:
    """CPU seconds of the engine's games and of the environment's, played game by game
    in turn (who goes first alternates), ``repeats`` times over, so that both see the
    machine alike: a run of one after the other caught a busy or a quiet spell of the
    machine whole. Also, summed over the seeds, each game's quickest of its ``repeats``
    plays (the plays other work on the machine slowed the least)."""
    totals = [0.0, 0.0]
    quickest = {seed: [float("inf"), float("inf")] for seed in seeds}
    for round_ in range(repeats):
        for seed in seeds:
            pair = [(0, engine), (1, environment)]
            for side, play in pair if (seed + round_) % 2 else reversed(pair):
                spent = cpu(partial(play, seed))
                totals[side] += spent
                quickest[seed][side] = min(quickest[seed][side], spent)
    best = [sum(times[side] for times in quickest.values()) for side in (0, 1)]
    return Timing(totals[0], totals[1], best[0], best[1])


def random_game(seed: int, players: int, legal_counts: list[int]) -> list[Command]:
    """The engine alone: a game of uniform random legal commands; its decisions."""
    rng = random.Random(seed)
    game = Game.start(seed, players)
    played = []
    while not game.finished:
        commands = game.legal_commands()
        legal_counts.append(len(commands))
        command = commands[rng.randrange(len(commands))]
        game.execute(command)
        played.append(command)
    return played


def aec_game(env: CascadiaAECEnv, seed: int, decisions: list[Command]) -> None:
    """The AEC environment playing ``decisions`` from ``reset(seed)``."""
    env.reset(seed=seed)
    moves = iter(decisions)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = encode(next(moves))
        assert observation["action_mask"][action]
        env.step(action)


def openspiel_game(pyspiel: object, players: int, seed: int, decisions: list[Command]) -> None:
    """The OpenSpiel game of ``seed`` playing ``decisions``."""
    state = pyspiel.load_game("python_cascadia", {"players": players, "seed": seed}).new_initial_state()  # type: ignore[attr-defined]
    for command in decisions:
        action = encode(command)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.is_terminal()


def gym_game(env: CascadiaEnv, seed: int) -> int:
    """The Gymnasium environment's game of ``seed``, its agent playing as seat 0's
    ``random`` bot would; the agent's decisions."""
    env.reset(seed=seed)
    assert env.episode is not None
    agent = RandomBot(seed, 0)
    steps, finished = 0, False
    while not finished:
        _, _, finished, _, _ = env.step(encode(agent.choose(env.episode.game)))
        steps += 1
    return steps


def measure(seeds: range, players: int, repeats: int = 1) -> tuple[Figures, list[int]]:
    """The figures of ``players``-player games of ``seeds``, each played ``repeats`` times
    by each side, and the number of legal actions at each decision of the uniform
    random games."""
    counts: list[int] = []
    decisions = {seed: random_game(seed, players, counts) for seed in seeds}
    steps = sum(len(played) for played in decisions.values())
    aec = CascadiaAECEnv(players)
    figures = {
        "PettingZoo AEC": (
            steps,
            side_by_side(
                seeds,
                lambda s: random_game(s, players, []),
                lambda s: aec_game(aec, s, decisions[s]),
                repeats,
            ),
        )
    }
    try:
        import cascadia.bots.agents.openspiel_game  # noqa: F401  # registers python_cascadia
        import pyspiel
    except ImportError:
        pass
    else:
        figures["OpenSpiel"] = (
            steps,
            side_by_side(
                seeds,
                lambda s: random_game(s, players, []),
                lambda s: openspiel_game(pyspiel, players, s, decisions[s]),
                repeats,
            ),
        )
    bots = ["random"] * players
    bot_decisions: list[Command] = []
    gym = CascadiaEnv(bots[1:])
    timing = side_by_side(
        seeds, lambda s: play_game(s, bots, decisions=bot_decisions), lambda s: gym_game(gym, s), repeats
    )
    figures["Gymnasium vs random bots"] = (len(bot_decisions) // repeats, timing)
    return figures, counts


def report(name: str, steps: int, timing: Timing, repeats: int) -> None:
    plays = steps * repeats
    print(
        f"  {name} ({steps} decisions): engine {plays / timing.engine:,.0f} decisions/s, environment "
        f"{plays / timing.environment:,.0f}/s ({timing.environment / timing.engine:.2f}x the engine's cost)"
    )
    if repeats > 1:
        print(
            f"    each game's quickest of {repeats} plays: "
            f"{timing.environment_best / timing.engine_best:.2f}x the engine's cost"
        )


def _serve(games: int, repeats: int) -> None:
    """Worker of ``--baseline``: say which checkout's code it runs, then answer each
    player count read from stdin, one a line, with its figures as JSON."""
    print(Path(inspect.getfile(CascadiaAECEnv)).resolve().parents[2], flush=True)
    for line in sys.stdin:
        print(json.dumps(measure(range(games), int(line), repeats)[0]), flush=True)


def compare(baseline: Path, games: int, player_counts: list[int], rounds: int, repeats: int) -> None:
    """The figures of this checkout and of ``baseline``, in turn, ``rounds`` times: the
    ratios of each game's quickest plays (of all plays when ``repeats`` is 1)."""
    arguments = ["--games", str(games), "--repeats", str(repeats)]
    with tempfile.TemporaryDirectory() as home:
        workers = {
            "this checkout": LineWorker(__file__, arguments, CHECKOUT, Path(home, "this")),
            "baseline": LineWorker(__file__, arguments, baseline, Path(home, "baseline")),
        }
        ratios: dict[tuple[int, str, str], list[float]] = {}
        for players in player_counts:
            for round_ in range(rounds):
                order = list(workers) if round_ % 2 else list(reversed(workers))
                for name in order:
                    figures: Figures = json.loads(workers[name].ask(players))
                    for env, (_, found) in figures.items():
                        timing = Timing(*found)
                        ratios.setdefault((players, env, name), []).append(
                            timing.environment_best / timing.engine_best
                        )
        for name, worker in workers.items():
            print(f"{name}: {worker.runs}")
            worker.close()
    print(f"environment's cost over the engine's, median of {rounds} rounds of {games} games:")
    for players in player_counts:
        for env in dict.fromkeys(env for p, env, _ in ratios if p == players):
            this = statistics.median(ratios[players, env, "this checkout"])
            base = statistics.median(ratios.get((players, env, "baseline"), [float("nan")]))
            print(f"  {players} players, {env}: this checkout {this:.2f}x, baseline {base:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="with --baseline: rounds per player count")
    parser.add_argument(
        "--repeats", type=int, default=1, help="plays of each game by each side (figures of the quickest)"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.games, args.repeats)
        return
    if args.baseline is not None:
        compare(args.baseline.resolve(), args.games, args.players, args.rounds, args.repeats)
        return
    print(f"action space: {ACTION_COUNT} actions")
    for players in args.players:
        figures, counts = measure(range(args.games), players, args.repeats)
        print(f"\n{players} players, {args.games} games each:")
        mean = statistics.fmean(counts)
        print(f"  legal actions per decision (uniform random games): mean {mean:.1f}, max {max(counts)}")
        for name, (steps, timing) in figures.items():
            report(name, steps, timing, args.repeats)


if __name__ == "__main__":
    main()
