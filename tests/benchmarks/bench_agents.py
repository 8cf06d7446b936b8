"""Benchmark: the cost of the environments for learning agents (cascadia.bots.agents) against
the bare engine playing the same games on one core.

Run: python tests/benchmarks/bench_agents.py [--games 20] [--players 2 4]
Prints figures (no pass or fail):

- the size of the action space and the mean number of legal actions per decision;
- PettingZoo: the engine plays each seeded game by uniform random legal commands
  (``legal_commands``, a uniform pick, ``execute``); the AEC environment then plays the
  same decisions as actions, with ``env.last()`` (the observation and its mask) before
  each ``env.step``;
- Gymnasium: the engine plays each seed with ``random`` bots on every seat
  (``play_game``); the environment plays the same game, its agent choosing through the
  seat's ``random`` bot, against ``random`` bots;

each as decisions a second of CPU time and the environment's cost over the engine's.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from cascadia.bots.agents.actions import ACTION_COUNT, encode
from cascadia.bots.agents.gym_env import CascadiaEnv
from cascadia.bots.agents.pettingzoo_env import CascadiaAECEnv
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import play_game
from cascadia.domain.commands import Command
from cascadia.domain.game import Game


def cpu(work: Callable[[], object]) -> float:
    """CPU seconds of ``work()``."""
    started = time.process_time()
    work()
    return time.process_time() - started


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    print(f"action space: {ACTION_COUNT} actions")
    for players in args.players:
        bench(range(args.games), players)


def bench(seeds: range, players: int) -> None:
    """The figures of ``players``-player games of ``seeds``."""
    counts: list[int] = []
    decisions = {seed: random_game(seed, players, counts) for seed in seeds}
    steps = sum(len(played) for played in decisions.values())
    print(f"\n{players} players, {len(seeds)} games of uniform random legal decisions ({steps} decisions):")
    print(f"  legal actions per decision: mean {sum(counts) / len(counts):.1f}, max {max(counts)}")
    engine = cpu(lambda: [random_game(seed, players, []) for seed in seeds])
    aec = CascadiaAECEnv(players)
    env = cpu(lambda: [aec_game(aec, seed, decisions[seed]) for seed in seeds])
    report("PettingZoo AEC", steps, engine, env)

    bots = ["random"] * players
    bot_decisions: list[Command] = []
    engine = cpu(lambda: [play_game(seed, bots, decisions=bot_decisions) for seed in seeds])
    gym = CascadiaEnv(bots[1:])
    print(f"  {len(seeds)} games of random bots ({len(bot_decisions)} decisions):")
    env = cpu(lambda: [gym_game(gym, seed) for seed in seeds])
    report("Gymnasium vs random", len(bot_decisions), engine, env)


def report(name: str, steps: int, engine: float, env: float) -> None:
    print(
        f"  {name}: engine {steps / engine:,.0f} decisions/s, environment {steps / env:,.0f}/s "
        f"({env / engine:.2f}x the engine's cost)"
    )


if __name__ == "__main__":
    main()
