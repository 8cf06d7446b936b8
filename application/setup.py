"""One way to build a new game's seats and options from what a user gave: the command
line's flags, a create request of the server, the lobby's form (which asks the server
for :func:`setup_choices` rather than spelling the rules again).

Seats: 1 to :data:`~cascadia.domain.game.MAX_PLAYERS`, each a human's name or a bot's
name (a seat named like a bot is played by that bot); a human's name is at most
:data:`MAX_NAME_LENGTH` characters, is no bot's name, and no two humans share one.
Options: the fields of :class:`~cascadia.domain.options.GameOptions`, with the rule
restrictions of RULES.md 7 as a list (``rules``); a game played for achievements in a
restriction's mode (RULES.md 8.1) has that restriction on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cascadia.bots.registry import BOTS, is_bot_name
from cascadia.domain.achievement_map import ACHIEVEMENT_MODES
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import MAX_PLAYERS
from cascadia.domain.options import RESTRICTIONS, GameOptions

HUMAN = "human"
"""The kind of a seat a person plays (a bot's seat has the bot's name as its kind)."""
MAX_NAME_LENGTH = 24
MAP_PLAYERS = (2, 4)
"""How many seats a game that counts for an achievement map has (RULES.md 8)."""
QUOTED = 40
"""How much of a user's word an error message repeats."""


class InvalidSetupError(InvalidOptionError):
    """Seats or options a new game cannot have: nothing is stored."""


@dataclass(frozen=True)
class SeatSpec:
    """One seat of a new game as asked for: a human's name, or a bot's name."""

    name: str | None = None
    bot: str | None = None


@dataclass(frozen=True)
class Seats:
    """A new game's seats: each one's name, and its kind (:data:`HUMAN` or the bot's name)."""

    names: list[str]
    kinds: list[str]

    @property
    def bots(self) -> list[bool]:
        """Per seat, whether a bot plays it."""
        return bot_seats(self.kinds)


def bot_seats(kinds: Sequence[str]) -> list[bool]:
    """Per seat of kind :data:`HUMAN` or a bot's name, whether a bot plays it."""
    return [kind != HUMAN for kind in kinds]


def check_seat_names(names: Sequence[str]) -> None:
    """The rules every new game's seat names follow (a name spelt like a bot's is that
    bot's seat): 1 to :data:`MAX_PLAYERS` seats, human names of at most
    :data:`MAX_NAME_LENGTH` characters, no two humans of one name."""
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise InvalidSetupError(f"a game has 1 to {MAX_PLAYERS} seats, not {len(names)}")
    humans = [name for name in names if not is_bot_name(name)]
    too_long = [name for name in humans if len(name) > MAX_NAME_LENGTH]
    if too_long:
        raise InvalidSetupError(
            f"seat names have at most {MAX_NAME_LENGTH} characters: {too_long[0][:QUOTED]!r}"
        )
    if len(set(humans)) != len(humans):
        raise InvalidSetupError("two human seats have the same name")


def check_bot_choice(bot: str) -> None:
    """A bot a caller chooses by its plain name (one of
    :data:`~cascadia.bots.registry.BOTS`: no budget), else :class:`InvalidSetupError`."""
    if bot not in BOTS:
        raise InvalidSetupError(f"unknown bot {bot[:QUOTED]!r}; choose from {', '.join(sorted(BOTS))}")


def seats_of(specs: Sequence[SeatSpec]) -> Seats:
    """The seats of a create request: each a human's name, or a bot by its plain name
    (one of :data:`~cascadia.bots.registry.BOTS`: no budget chosen by the caller)."""
    if not 1 <= len(specs) <= MAX_PLAYERS:
        raise InvalidSetupError(f"a game has 1 to {MAX_PLAYERS} seats, not {len(specs)}")
    names, kinds = [], []
    for spec in specs:
        if (spec.name is None) == (spec.bot is None):
            raise InvalidSetupError("each seat is {'name': ...} (a human) or {'bot': ...}")
        if spec.bot is not None:
            check_bot_choice(spec.bot)
            names.append(spec.bot)
            kinds.append(spec.bot)
            continue
        name = (spec.name or "").strip()
        if not name:
            raise InvalidSetupError("a human seat needs a name")
        if is_bot_name(name.lower()):
            raise InvalidSetupError(f"{name[:QUOTED]!r} is a bot's name; name a human seat otherwise")
        names.append(name)
        kinds.append(HUMAN)
    check_seat_names(names)
    return Seats(names, kinds)


def restriction(name: str) -> str:
    """The rule restriction (RULES.md 7) ``name`` stands for (``must-match``: ``must_match``)."""
    key = str(name).strip().replace("-", "_")
    if key not in RESTRICTIONS:
        raise InvalidSetupError(f"unknown rule {str(name)[:QUOTED]!r}; choose from {', '.join(RESTRICTIONS)}")
    return key


def game_options(settings: Mapping[str, Any]) -> GameOptions:
    """The options ``settings`` name: :class:`GameOptions` fields, with ``rules`` a list
    of restrictions; an ``achievement_mode`` that is a restriction turns it on."""
    fields = dict(settings)
    rules = [restriction(name) for name in fields.pop("rules", None) or []]
    mode = fields.get("achievement_mode")
    if isinstance(mode, str):
        fields["achievement_mode"] = mode = mode.strip().replace("-", "_")
        if mode in RESTRICTIONS:
            rules.append(mode)
    fields.update(dict.fromkeys(rules, True))
    try:
        return GameOptions.from_dict(fields)
    except (InvalidOptionError, TypeError) as error:
        raise InvalidSetupError(str(error)) from None


def setup_choices() -> dict[str, Any]:
    """What a form for a new game offers and how the choices combine, as plain data: the
    bots, how many seats, the restrictions, the default options, the achievement modes
    (a restriction's mode turns it on) and how many seats a game for a map has."""
    return {
        "bots": sorted(BOTS),
        "min_players": 1,
        "max_players": MAX_PLAYERS,
        "name_length": MAX_NAME_LENGTH,
        "restrictions": list(RESTRICTIONS),
        "options": GameOptions().to_dict(),
        "achievement_modes": list(ACHIEVEMENT_MODES),
        "map_players": {"min": MAP_PLAYERS[0], "max": MAP_PLAYERS[1]},
    }
