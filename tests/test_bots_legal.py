"""Every bot plays only legal moves, for 1 to 4 players and under every option (issue
12: "bots play only legal moves for 1-4 players and every option"): a game played to
its end raises at the first illegal command, and its events replay to the same state.

The random and greedy bots have property tests of their own (``test_properties.py``,
``test_greedy_bot.py``, and the hunter's goals are tested in ``test_hunter_bot.py``);
here the search bot (at its smallest budget, beside greedy seats) and the hunter (in
games for achievements too) play each option, each at another table size."""

from __future__ import annotations

import pytest
from cascadia.bots.registry import play_game
from cascadia.domain.game import Game
from cascadia.domain.options import RESTRICTIONS, GameOptions

OPTIONS: list[dict[str, object]] = [
    *({rule: True} for rule in RESTRICTIONS),
    {"cards": "family"},
    {"cards": "intermediate", "majority_bonus": False},
    {"salmon_runs": "lenient", "elk_rings": "any-subset"},
    {"cards": "B,C,D,A,B", "two_card_sets": True, "no_starter": True},
    {"balanced_bag": True},
    {"achievement_mode": "standard"},
    {"achievement_mode": "must_match", "must_match": True},
]


def table(index: int, options: dict[str, object]) -> int:
    """A table size for the ``index``-th option, 1 to 4 in turn, within what it allows."""
    if options.get("balanced_bag"):
        return 2 + index % 2
    if "achievement_mode" in options:
        return 2 + index % 3
    return 1 + index % 4


@pytest.mark.parametrize(("index", "options"), list(enumerate(OPTIONS)), ids=[str(o) for o in OPTIONS])
@pytest.mark.parametrize("bot", ["search@1", "hunter"])
def test_the_bot_plays_a_whole_legal_game(bot: str, index: int, options: dict[str, object]) -> None:
    players = table(index, options)
    seats = [bot, *["greedy"] * (players - 1)]
    game = play_game(100 + index, seats, GameOptions(**options))  # type: ignore[arg-type]
    assert game.finished
    assert Game.replay(game.collect_events()).state == game.state
