"""Bots by name, and playing whole games with them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from cascadia.bots.base import Bot
from cascadia.bots.greedy_bot import GreedyBot
from cascadia.bots.hunter_bot import HunterBot
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.search_bot import OnePlyBot, SearchBot
from cascadia.domain.commands import Command
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game, derive_game_id
from cascadia.domain.options import RULES_VERSION, GameOptions
from cascadia.domain.rng import MAX_SEED, draw
from cascadia.domain.state import GameState

BOTS: dict[str, Callable[[int, int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
    "builder": OnePlyBot,
    "hunter": HunterBot,
}
"""Bot factories by name: ``factory(seed, seat) -> Bot``."""
VERSIONS: dict[str, int] = {"random": 1, "greedy": 2, "search": 4, "builder": 1, "hunter": 1}
"""Each bot's version, recorded with every game it plays (``GameStarted.bots``) and part
of a simulated game's id: raised whenever the bot would choose differently in the same
game, so that games of two versions are two games and the analytics tell them apart.
``greedy`` 2 values a move by its whole-board score and decides the wipes, ``search`` 2
adds the fitted potential of the position at its rollouts' leaves, ``search`` 3 picks its
candidates from a wider pool by one-ply value (all issue 12), ``search`` 4 values the
positions of games with any cards and with majority bonuses by the card potential (issue
25; its games with all A cards and no majority bonuses are those of version 3)."""
BOT_SEED_STREAM = b"cascadia-play/bot-turn/v1"
BUDGETED: dict[str, Callable[[int, int, int], Bot]] = {
    "search": lambda seed, seat, iterations: SearchBot(seed, seat, iterations=iterations)
}
"""Bots that take a budget, named ``name@budget`` (``search@400``: 400 rollouts a move)."""
MAX_BUDGET = 1_000_000


def parse_bot_name(name: str) -> tuple[str, int | None] | None:
    """``(bot, budget)`` of a seat called ``name`` (``greedy`` -> ``("greedy", None)``,
    ``search@400`` -> ``("search", 400)``), or ``None`` when no bot has that name."""
    base, at, budget = name.partition("@")
    if not at:
        return (name, None) if name in BOTS else None
    if base not in BUDGETED or not budget.isdigit() or not 1 <= int(budget) <= MAX_BUDGET:
        return None
    return base, int(budget)


def bot_factory(name: str) -> Callable[[int, int], Bot] | None:
    """The factory of the bot called ``name`` (``greedy``, ``search``, ``search@400``),
    or ``None`` when no bot has that name."""
    parsed = parse_bot_name(name)
    if parsed is None:
        return None
    base, budget = parsed
    if budget is None:
        return BOTS[base]
    make = BUDGETED[base]
    return lambda seed, seat: make(seed, seat, budget)


def is_bot_name(name: str) -> bool:
    """Whether ``name`` names a bot (a seat so named is played by that bot)."""
    return parse_bot_name(name) is not None


def bot_record(name: str) -> dict[str, Any] | None:
    """What a game records of the seat called ``name`` (``GameStarted.bots``): the bot's
    name, version and budget (``None`` when it takes none), or ``None`` for a person."""
    parsed = parse_bot_name(name)
    if parsed is None:
        return None
    base, budget = parsed
    return {"name": base, "version": VERSIONS[base], "budget": budget}


def recorded_bots(names: Sequence[str]) -> list[dict[str, Any] | None] | None:
    """Per seat, :func:`bot_record`; ``None`` when no seat is a bot."""
    records = [bot_record(name) for name in names]
    return records if any(record is not None for record in records) else None


def bot_game_id(
    seed: int, names: Sequence[str], options: GameOptions, rules_version: str = RULES_VERSION
) -> UUID:
    """The id of the game of ``seed`` that :func:`play_game` plays with these seats: derived
    from the setup and the seats' bots (:func:`~cascadia.domain.game.derive_game_id`)."""
    return derive_game_id(seed, names, options, rules_version, recorded_bots(names))


def _bot_choices() -> str:
    """The bots to choose from, for messages."""
    return (
        f"choose from {', '.join(sorted(BOTS))} "
        f"({', '.join(f'{b}@BUDGET' for b in sorted(BUDGETED))} for a budget, 1 to {MAX_BUDGET})"
    )


def check_bot_names(names: Sequence[str]) -> None:
    """Raise :class:`InvalidOptionError` naming every unknown bot of ``names``."""
    unknown = sorted({n for n in names if not is_bot_name(n)})
    if unknown:
        raise InvalidOptionError(f"unknown bot(s) {', '.join(unknown)}; {_bot_choices()}")


def _one_typo_apart(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one typo: one letter added, dropped or
    changed, or two neighbouring letters swapped."""
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        swapped = (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
        return len(diff) == 1 or swapped
    short, long = sorted((a, b), key=len)
    return len(long) == len(short) + 1 and any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def misspelt_bot(name: str) -> str | None:
    """The bot's name that ``name`` (any case) misspells by one typo (``greedyy`` ->
    ``greedy``, ``Serch@400`` -> ``search@400``), or ``None``: ``name`` is a bot's name,
    or no bot's name is one typo from it."""
    base, at, budget = name.lower().partition("@")
    for bot in sorted(BUDGETED if at else BOTS):
        guess = f"{bot}{at}{budget}"
        if guess != name and (base == bot or _one_typo_apart(base, bot)) and is_bot_name(guess):
            return guess
    return None


def unknown_bot_message(name: str) -> str:
    """Why ``name`` names no bot: ``unknown bot 'greedyy' (did you mean 'greedy'?)``, or
    the bots to choose from when it misspells none."""
    guess = misspelt_bot(name)
    return f"unknown bot {name!r}" + (f" (did you mean {guess!r}?)" if guess else f"; {_bot_choices()}")


def make_bots(names: Sequence[str], seed: int) -> list[Bot]:
    """One bot per seat, each seeded from the game seed and its seat."""
    check_bot_names(names)
    factories = [bot_factory(name) for name in names]
    return [make(seed, seat) for seat, make in enumerate(factories) if make is not None]


def seat_bots(bot_spec: str, players: int) -> list[str]:
    """``random`` for every seat, or a comma list cycled over the seats (``greedy,random``)."""
    names = [n.strip() for n in bot_spec.split(",") if n.strip()]
    if not names:
        raise InvalidOptionError("name at least one bot")
    return [names[seat % len(names)] for seat in range(players)]


def play_game(
    seed: int,
    bot_names: Sequence[str],
    options: GameOptions | None = None,
    game_id: UUID | None = None,
    rules_version: str = RULES_VERSION,
    decisions: list[Command] | None = None,
) -> Game:
    """Set up a game with one seat per bot (``game_id``: its id if already derived) under
    ``rules_version``, the bots recorded in its first event, and let them play it to the
    end (``decisions``: see :func:`continue_game`)."""
    bots = make_bots(bot_names, seed)
    game = Game.start(
        seed, list(bot_names), options, game_id, rules_version=rules_version, bots=recorded_bots(bot_names)
    )
    continue_game(game, bots, decisions)
    return game


def continue_game(game: Game, bots: Sequence[Bot], decisions: list[Command] | None = None) -> Game:
    """Let ``bots`` (one per seat) play ``game`` from where it stands to the end, one
    decision at a time; each command executed is appended to ``decisions`` if given (the
    game's decisions as :func:`~cascadia.domain.decisions.decisions_of` reads them from
    its events, without reading them)."""
    while not game.finished:
        command = bots[game.current_player].choose(game)
        game.execute(command)
        if decisions is not None:
            decisions.append(command)
    return game


def bot_seed(state: GameState) -> int:
    """The seed of the bot that plays the current turn of a game with human seats: draw
    number ``turn`` of its own stream of the game seed, so that a game resumed (or
    continued by another process) makes the same bot choices."""
    return turn_seed(state.seed, state.turn)


def turn_seed(seed: int, turn: int) -> int:
    """The seed of a bot for turn ``turn``, from ``seed`` (a game's, or a remote bot's own:
    ``cascadia bot --seed``)."""
    return draw(seed, turn, MAX_SEED + 1, BOT_SEED_STREAM)


def bot_for_turn(state: GameState) -> Bot:
    """A bot for the active seat's current turn (the seat's name is the bot's name)."""
    return bot_playing(state, state.names[state.current])


def bot_playing(state: GameState, name: str) -> Bot:
    """The bot called ``name`` for the active seat's current turn (e.g. a bot a server
    handed a person's seat to)."""
    make = bot_factory(name)
    assert make is not None, "only bot seats are played by bots"
    return make(bot_seed(state), state.current)
