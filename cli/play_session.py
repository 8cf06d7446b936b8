"""The turn logic of ``cascadia play``, free of terminal I/O.

A :class:`PlaySession` looks at a :class:`~cascadia.domain.game.Game` and says what to
ask the active human next (:meth:`PlaySession.stage`, :meth:`PlaySession.prompt`,
:meth:`PlaySession.hint`), and turns one line of their input into a :class:`Reply`: a
domain :data:`~cascadia.domain.commands.Command` to issue, or a request (help, show,
quit), or a message about a line it could not read. Besides the step-by-step answers
(``2``, ``1 -1 3``, ``0 1``) it reads the game's move notation (``take 1 3``,
``tile 1 -1 r3``, ``wipe3``: :mod:`cascadia.domain.commands`) where it fits the step.
It never checks the rules itself: numbers go to the engine as typed, so an illegal move
is refused by the engine with the engine's message, and the game is unchanged.

The stage of a turn is read off the game's state, so a game reloaded from the store
(after a quit, or after another writer moved) continues at the right step; the only
thing a session remembers is a half-chosen tile placement (the hex, before the rotation).

Seats: a seat named like a bot (:func:`~cascadia.bots.registry.is_bot_name`) is that bot,
every other seat is a human (:func:`seat_names` refuses a name that looks like a misspelt
bot, unless it is in double quotes). A bot plays each of its turns with a bot seeded from the
game seed and the turn number (:func:`~cascadia.bots.registry.bot_for_turn`), so its
choices do not depend on where a session was interrupted and resumed.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from enum import Enum

from cascadia.application.setup import check_seat_names
from cascadia.bots.registry import is_bot_name, misspelt_bot, unknown_bot_message
from cascadia.domain.commands import (
    Command,
    NatureFreeChoice,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    Take,
    WipeThree,
    parse,
)
from cascadia.domain.components import TILES
from cascadia.domain.errors import CommandFormatError, IllegalMoveError, InvalidOptionError
from cascadia.domain.game import MAX_PLAYERS, Game
from cascadia.domain.hexgrid import Hex, distinct_rotations

DEFAULT_HUMAN = "you"
DEFAULT_BOT = "greedy"

QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "h", "?"})
SHOW_WORDS = frozenset({"show", "look", "board", "map", "market"})
BOARDS_WORDS = frozenset({"boards", "others"})
CARDS_WORDS = frozenset({"cards", "scoring"})
RETURN_WORDS = frozenset({"return", "none", "skip", "bag"})
BACK_WORDS = frozenset({"back", "cancel"})
_INT = re.compile(r"^[+-]?\d+$")
_BUDGETED_NAME = re.compile(r"[^@]+@\d+")
"""A seat name of the form ``NAME@N``: a bot with a budget, or a mistake (never a person)."""
_SPLIT = re.compile(r"[\s,()\[\]]+")


class Stage(Enum):
    """Where the game waits: a bot's turn, one of a human's steps, or nothing (over)."""

    BOT = "bot"
    CHOOSE = "take"
    TILE = "tile"
    ROTATION = "rotation"
    TOKEN = "token"
    OVER = "over"


# -- seats ------------------------------------------------------------------------------


def is_bot(name: str) -> bool:
    """Whether the seat ``name`` is played by a bot (its name is a bot's name)."""
    return is_bot_name(name)


def seat_names(text: str | None, players: int | None) -> list[str]:
    """The seat names of a new game from ``--seat-names`` and ``--players``.

    Without names: one human (``you``) and ``players - 1`` greedy bots (2 seats by
    default). Names are comma-separated; one that spells a bot's name in any case is
    that bot (stored in lower case); the others are humans
    (:func:`~cascadia.application.setup.check_seat_names`: at most 4 seats, humans'
    names differ). A name one
    typo from a bot's (``greedyy``), or of the form ``NAME@N`` that is no bot, is refused
    as a misspelt bot; in double quotes (``"Ransom"``) it is a person's name."""
    if players is not None and not 1 <= players <= MAX_PLAYERS:
        raise InvalidOptionError(f"a game has 1 to {MAX_PLAYERS} players, not {players}")
    if text is None:
        count = 2 if players is None else players
        return [DEFAULT_HUMAN] + [DEFAULT_BOT] * (count - 1)
    names = [_seat_name(part.strip()) for part in text.split(",")]
    if any(not name for name in names):
        raise InvalidOptionError(f"--seat-names has an empty name in {text!r}; give names like 'ann,greedy'")
    if players is not None and players != len(names):
        raise InvalidOptionError(f"--seat-names names {len(names)} seat(s) but --players is {players}")
    check_seat_names(names)
    return names


def _seat_name(part: str) -> str:
    """One name of ``--seat-names``: a bot's (in lower case), or a person's; see :func:`seat_names`."""
    if len(part) >= 2 and part[0] == part[-1] == '"':
        name = part[1:-1].strip()
        if is_bot_name(name.lower()):
            raise InvalidOptionError(f"{name!r} is a bot's name: a person's seat needs another name")
        return name
    if is_bot_name(part.lower()):
        return part.lower()
    if misspelt_bot(part) is not None or _BUDGETED_NAME.fullmatch(part):
        raise InvalidOptionError(
            f'{unknown_bot_message(part)}; for a person of that name, write it in double quotes: "{part}"'
        )
    return part


# -- commands ---------------------------------------------------------------------------


def refusal(game: Game, command: Command) -> IllegalMoveError | None:
    """The engine's refusal of ``command``, tried on a copy of ``game`` (``None``: legal)."""
    try:
        Game(game.state.copy()).execute(command)
    except IllegalMoveError as error:
        return error
    return None


@dataclass(frozen=True)
class Reply:
    """What to do with one line of input.

    ``command``: issue it (then call :meth:`PlaySession.done` if the engine accepts it);
    ``action``: ``help``, ``show``, ``boards`` (every player's board), ``cards`` (the
    scoring cards' rules), ``quit``,
    ``rotation`` (a hex was chosen: show the rotations there), ``back`` or ``again``
    (ask again); ``message``: text to show (a help text, or why the line was not
    understood or the move is illegal); ``refused``: the line was not accepted."""

    command: Command | None = None
    action: str | None = None
    message: str | None = None
    refused: bool = False


def _words(line: str) -> list[str]:
    return [word for word in _SPLIT.split(line.strip().lower()) if word]


def _ints(words: list[str]) -> list[int] | None:
    """The words as whole numbers, or ``None`` when one of them is not a number."""
    if not all(_INT.match(word) for word in words):
        return None
    return [int(word) for word in words]


_STAGE_COMMANDS: dict[Stage, tuple[type, ...]] = {
    Stage.CHOOSE: (WipeThree, NatureFreeChoice, NatureWipe, Take),
    Stage.TILE: (PlaceTile, PlaceWildlife, ReturnWildlife),
    Stage.ROTATION: (PlaceTile,),
    Stage.TOKEN: (PlaceWildlife, ReturnWildlife),
}
_ROTATION = re.compile(r"\sr[+-]?\d+\s*$")


def _notation(line: str, stage: Stage) -> Command | None:
    """The line as a move in the game's notation (``take 1 3``, ``tile 1 -1 r3``,
    ``wipe3`` ...) when it is one of this step's moves; ``tile q r`` without a rotation
    is left to the step, which shows the rotations first."""
    try:
        command = parse(line)
    except CommandFormatError:
        return None
    if not isinstance(command, _STAGE_COMMANDS.get(stage, ())):
        return None
    if isinstance(command, PlaceTile) and not _ROTATION.search(line.lower()):
        return None
    return command


def _not_understood(line: str, expected: str) -> Reply:
    return Reply(
        action="again", refused=True, message=f"I did not understand {line.strip()!r}: {expected} (or help)"
    )


# -- the session ------------------------------------------------------------------------


class PlaySession:
    """The prompt state machine of the human seats of one game."""

    def __init__(self) -> None:
        self.pending_hex: Hex | None = None
        """The hex chosen for the held tile while its rotation is still to be chosen."""

    def reset(self) -> None:
        """Forget the half-chosen placement (after a command, or when the game was reloaded)."""
        self.pending_hex = None

    done = reset

    # -- where the game stands ------------------------------------------------------

    def stage(self, game: Game) -> Stage:
        state = game.state
        if state.finished:
            return Stage.OVER
        if is_bot(state.names[state.current]):
            return Stage.BOT
        ts = state.turn_state
        if not ts.has_taken:
            return Stage.CHOOSE
        if ts.tile_hex is None:
            return Stage.ROTATION if self.pending_hex is not None else Stage.TILE
        return Stage.TOKEN

    def prompt(self, game: Game) -> str:
        """The input prompt: the player's name and the step, e.g. ``ann: take> ``."""
        stage = self.stage(game)
        return f"{game.state.active.name}: {stage.value}> "

    def hint(self, game: Game) -> str:
        """One line on what may be typed at this step (only what is possible now)."""
        stage = self.stage(game)
        state = game.state
        ts = state.turn_state
        if stage is Stage.CHOOSE:
            slots = sorted({t for t, _ in game.legal_takes()})
            parts = []
            if ts.free_choice:
                parts.append("Take a tile slot and a token slot (e.g. `2 0`)")
            else:
                parts.append(f"Take a pair: its slot ({_spell(slots)})")
            if game.can_wipe_three():
                counts = Counter(w for w in state.market_wildlife if w is not None)
                species = next(w for w, n in counts.items() if n == 3)
                parts.append(f"`three` wipes the {species} (free)")
            actions = game.nature_actions()
            if actions:
                cost = game.nature_cost()
                what = "`free` or `wipe 0 2`" if "free_choice" in actions else "`wipe 0 2`"
                parts.append(f"{what}: {cost} nature token{'s' if cost > 1 else ''}")
            return "; ".join(parts) + ("; `help`." if len(parts) > 1 else ". `help` explains.")
        if stage is Stage.TILE:
            tile = TILES[ts.taken_tile]  # type: ignore[index]
            if tile.keystone:
                return "Place the tile: `q r` (an open hex). `help` explains."
            return "Place the tile: `q r rotation` (e.g. `1 -1 3`), or `q r` to see the rotations there."
        if stage is Stage.ROTATION:
            q, r = self.pending_hex  # type: ignore[misc]
            return f"Rotation for ({q}, {r}): 0-5 (see the table), another hex `q r`, or `back`."
        if stage is Stage.TOKEN:
            return f"Place the {ts.taken_wildlife}: `q r` of a tile shown by its coordinates, or `return` it."
        return ""

    def automatic(self, game: Game) -> Command | None:
        """A command with no choice in it: returning a token that no tile can take."""
        if self.stage(game) is Stage.TOKEN and not game.legal_wildlife_targets():
            return ReturnWildlife()
        return None

    # -- reading a line ---------------------------------------------------------------

    def handle(self, game: Game, line: str) -> Reply:
        """What one line of input asks for at the current step."""
        words = _words(line)
        stage = self.stage(game)
        if not words:
            return Reply(action="again", message=self.hint(game))
        head = words[0]
        if head in QUIT_WORDS and len(words) == 1:
            return Reply(action="quit")
        if head in HELP_WORDS and len(words) == 1:
            return Reply(action="help", message=help_text(stage))
        if head in SHOW_WORDS and len(words) == 1:
            return Reply(action="show")
        if head in BOARDS_WORDS and len(words) == 1:
            return Reply(action="boards")
        if head in CARDS_WORDS and len(words) == 1:
            return Reply(action="cards")
        notation = _notation(line, stage)
        if notation is not None:
            self.pending_hex = None
            return Reply(command=notation)
        if stage in (Stage.TILE, Stage.ROTATION) and head in ("tile", "place") and len(words) > 1:
            words = words[1:]
        if stage is Stage.TOKEN and head in ("token", "place") and len(words) > 1:
            words = words[1:]
        if stage is Stage.CHOOSE:
            return self._choose(game, line, words)
        if stage is Stage.TILE:
            return self._tile(game, line, words)
        if stage is Stage.ROTATION:
            return self._rotation(game, line, words)
        if stage is Stage.TOKEN:
            return self._token(line, words)
        return Reply(action="again", message="It is not a human's turn.", refused=True)

    def _choose(self, game: Game, line: str, words: list[str]) -> Reply:
        head, rest = words[0], words[1:]
        if head in ("take", "pair"):
            words = rest
        numbers = _ints(words)
        if numbers is not None and words:
            if len(numbers) > 2:
                return _not_understood(line, "give one slot (a pair) or two (tile slot, token slot)")
            return Reply(command=Take(numbers[0], numbers[-1]))
        if words == ["three"] or words == ["wipe", "three"]:
            return Reply(command=WipeThree())
        if head == "nature":
            words = rest
            head, rest = (words[0], words[1:]) if words else ("", [])
        if words in (["free"], ["free", "choice"], ["free_choice"]):
            return Reply(command=NatureFreeChoice())
        if head == "wipe":
            if rest == ["all"]:
                slots = [s for s, w in enumerate(game.state.market_wildlife) if w is not None]
                return Reply(command=NatureWipe(tuple(slots)))
            slots = _ints(rest)
            if slots:
                return Reply(command=NatureWipe(tuple(slots)))
            return _not_understood(
                line,
                "`wipe` takes market slots (e.g. `wipe 0 2`, or `wipe all`) and costs a nature "
                "token; `three` is the free three-of-a-kind wipe",
            )
        if head in RETURN_WORDS or head == "token":
            return Reply(
                action="again", refused=True, message="First take a tile and a token from the market."
            )
        return _not_understood(line, "give a market slot number, e.g. `2`")

    def _tile(self, game: Game, line: str, words: list[str]) -> Reply:
        if words[0] == "token":
            return self._token(line, words[1:], before_tile=True)
        if words[0] in RETURN_WORDS and len(words) == 1:
            return Reply(command=ReturnWildlife())
        numbers = _ints(words)
        if numbers is None or len(numbers) not in (2, 3):
            return _not_understood(line, "give the hex as `q r` or `q r rotation`, e.g. `1 -1 3`")
        if len(numbers) == 3:
            return Reply(command=PlaceTile(*numbers))
        q, r = numbers
        tile = game.state.turn_state.taken_tile
        assert tile is not None
        if TILES[tile].keystone:
            return Reply(command=PlaceTile(q, r, 0))
        refusals = [refusal(game, PlaceTile(q, r, rot)) for rot in distinct_rotations(tile)]
        if all(refusals):
            return Reply(action="again", refused=True, message=f"refused: {refusals[0]}")
        self.pending_hex = (q, r)
        return Reply(action="rotation")

    def _rotation(self, game: Game, line: str, words: list[str]) -> Reply:
        if words[0] in BACK_WORDS and len(words) == 1:
            self.pending_hex = None
            return Reply(action="back")
        numbers = _ints(words)
        if numbers is not None and len(numbers) == 1:
            q, r = self.pending_hex  # type: ignore[misc]
            return Reply(command=PlaceTile(q, r, numbers[0]))
        if numbers is not None and len(numbers) in (2, 3):
            self.pending_hex = None
            return self._tile(game, line, words)
        return _not_understood(line, "give a rotation 0-5, another hex `q r`, or `back`")

    def _token(self, line: str, words: list[str], before_tile: bool = False) -> Reply:
        if len(words) == 1 and words[0] in RETURN_WORDS:
            return Reply(command=ReturnWildlife())
        numbers = _ints(words)
        if numbers is None or len(numbers) != 2:
            example = "`token q r`" if before_tile else "`q r`"
            return _not_understood(line, f"give the hex of one of your tiles as {example}, or `return`")
        return Reply(command=PlaceWildlife(*numbers))


def _spell(slots: list[int]) -> str:
    if not slots:
        return "none"
    if slots == list(range(slots[0], slots[-1] + 1)) and len(slots) > 2:
        return f"{slots[0]}-{slots[-1]}"
    return ", ".join(str(s) for s in slots)


_COORDINATES = (
    "Hexes are written `q r`: q grows to the east, r to the south-east (each row r is drawn "
    "half a hex right of the one above). The neighbours of (q, r) are NE (q+1, r-1), "
    "E (q+1, r), SE (q, r+1), SW (q-1, r+1), W (q-1, r), NW (q, r-1). The map draws one "
    "line per row: an open hex (where a tile may go) as its coordinates `q,r`; a tile as "
    "its habitat initials, the rotation of a dual tile, and `:` and its token (`RF3:b`) "
    "or `.` and what it can still hold (`RF3.bef`: bear, elk or fox); while a token is "
    "placed, the tiles that can take it as their coordinates."
)
_GENERAL = (
    "Any time: `show` redraws the market and your board, `boards` shows every player's board, "
    "`cards` what the scoring cards score, `help`, `quit` (every completed move is saved; "
    "`cascadia play GAME` resumes)."
)

HELP: dict[Stage, str] = {
    Stage.CHOOSE: (
        "Your turn (RULES.md 4). Before taking you may, in any order:\n"
        "  three        wipe the three alike market tokens (free, once a turn, when exactly three match)\n"
        "  free         spend a nature token: take any tile with any token this turn\n"
        "  wipe 0 2     spend a nature token: replace the tokens of market slots 0 and 2 (`wipe all`)\n"
        "Then take:\n"
        "  2            the pair in market slot 2 (tile and token of one slot)\n"
        "  1 3          after `free`: the tile of slot 1 with the token of slot 3\n"
        "The game's move notation works too: `wipe3`, `nature free`, `nature wipe 0,2`, `take 1 3`."
    ),
    Stage.TILE: (
        "Place the tile you took on an open hex next to your tiles (RULES.md 4.3):\n"
        "  1 -1 3       at hex (1, -1) with rotation 3\n"
        "  1 -1         at hex (1, -1): shows each rotation's edges against the neighbours first\n"
        "Rotation r puts the tile's first habitat on the edges r, r+1, r+2 counted clockwise\n"
        "from NE (0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW) and the second habitat on the others;\n"
        "the table shows it. A keystone tile looks the same in every rotation.\n"
        "You may place the token first: `token q r`, or `return` it.\n"
        "In the game's move notation: `tile 1 -1 r3`."
    ),
    Stage.ROTATION: (
        "Choose the rotation: 0-5 as in the table (the habitat on each edge, and how many\n"
        "edges match the touching neighbours). `back` chooses another hex."
    ),
    Stage.TOKEN: (
        "Place the token on one of your tiles that shows its species and has no token yet\n"
        "(the map shows those tiles as their coordinates):\n"
        "  0 1          on the tile at (0, 1)\n"
        "  return       put it back in the bag (it is not placed)\n"
        "A token on a keystone tile (one habitat) earns a nature token."
    ),
}


def help_text(stage: Stage) -> str:
    """The help of one step, with the coordinate system and the commands of every step."""
    return "\n".join([HELP.get(stage, ""), _COORDINATES, _GENERAL]).strip()
