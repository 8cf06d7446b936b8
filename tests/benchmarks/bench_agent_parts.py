"""Benchmark: what each part of an environment's step costs, found by taking it out.

Run: python tests/benchmarks/bench_agent_parts.py [--env gym|aec] [--players 2] [--games 4]
[--rounds 20]

Plays the workloads of bench_agents.py (Gymnasium against ``random`` bots beside the
engine's ``play_game``; PettingZoo playing the uniform random games beside the engine
playing them) in one process, in turn, ``--rounds`` times, and prints the quickest CPU
time of each, with one part of the environment replaced by next to nothing each time:

- the observation: only the mask, no arrays of the game;
- the mask: an array of ones handed out (copied, as a mask is), nothing marked;
- the rewards: 0 for every seat, nothing scored.

A measurement only: with a part taken out the environment's outputs are wrong, and
the figures say what that part costs, not what it could cost.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from bench_agents import aec_game, gym_game, random_game
from cascadia.bots.agents.actions import ACTION_COUNT, MASK_DTYPE, Choices
from cascadia.bots.agents.episode import Episode
from cascadia.bots.agents.gym_env import CascadiaEnv
from cascadia.bots.agents.observation import Observer
from cascadia.bots.agents.pettingzoo_env import CascadiaAECEnv
from cascadia.bots.registry import play_game

EVERY_ACTION = np.ones(ACTION_COUNT, dtype=MASK_DTYPE)


def _no_rewards(self: Episode, mode: str, seats: Any = None) -> list[float]:
    """0 for every seat asked for: :meth:`Episode.rewards` with nothing scored."""
    return [0.0] * (len(self.game.state.players) if seats is None else len(seats))


TAKEN_OUT: dict[str, tuple[type, str, Callable[..., Any]]] = {
    "observation": (Observer, "observe", lambda self, state, seat, mask: {"action_mask": mask}),
    "mask": (Choices, "mask", lambda self: EVERY_ACTION.copy()),
    "rewards": (Episode, "rewards", _no_rewards),
}
"""Per part, the class attribute replaced to take it out, and its stand-in."""


@contextmanager
def without(part: str | None) -> Iterator[None]:
    """The environments with ``part`` (a key of :data:`TAKEN_OUT`; ``None``: none) taken out."""
    if part is None:
        yield
        return
    owner, name, stand_in = TAKEN_OUT[part]
    real = owner.__dict__[name]
    setattr(owner, name, stand_in)
    try:
        yield
    finally:
        setattr(owner, name, real)


Play = Callable[[int], object]
"""A game of a seed."""


def workloads(env: str, players: int, seeds: range) -> tuple[Play, Play]:
    """The engine's game of a seed and the environment's (``gym`` or ``aec``), as
    bench_agents.py plays them."""
    if env == "gym":
        bots = ["random"] * players
        gym = CascadiaEnv(bots[1:])

        def engine(seed: int) -> object:
            return play_game(seed, bots, decisions=[])

        def environment(seed: int) -> object:
            return gym_game(gym, seed)

        return engine, environment
    decisions = {seed: random_game(seed, players, []) for seed in seeds}
    aec = CascadiaAECEnv(players)

    def uniform(seed: int) -> object:
        return random_game(seed, players, [])

    def aec_play(seed: int) -> object:
        return aec_game(aec, seed, decisions[seed])

    return uniform, aec_play


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--env", choices=("gym", "aec"), default="gym")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    seeds = range(args.games)
    engine, environment = workloads(args.env, args.players, seeds)
    runs: dict[str, tuple[Play, str | None]] = {
        "engine": (engine, None),
        "environment": (environment, None),
        **{f"without the {part}": (environment, part) for part in TAKEN_OUT},
    }
    quickest = dict.fromkeys(runs, float("inf"))
    for _ in range(args.rounds):
        for name, (play, part) in runs.items():
            with without(part):
                started = time.process_time()
                for seed in seeds:
                    play(seed)
                quickest[name] = min(quickest[name], time.process_time() - started)
    print(f"{args.env}, {args.players} players, seeds 0-{args.games - 1}, quickest of {args.rounds}:")
    for name, spent in quickest.items():
        print(f"  {name:26} {spent * 1000:8.2f} ms  {spent / quickest['engine']:.2f}x the engine's")


if __name__ == "__main__":
    main()
