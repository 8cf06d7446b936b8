"""Board text: a game on a real table, written down hex by hex and scored (docs/BOARD.md).

A board text names the cards in play, the options that change scoring and, per player,
the nature tokens left and one line per hex: its position ``q,r`` (RULES.md 2: axial,
``q`` east, ``r`` south-east, the starter's keystone at ``0,0``), its habitat(s) and the
wildlife token on it. A dual hex ``M/F@E`` shows its first habitat on the three edges
around the edge it names (RULES.md 2: "A dual tile listed ``[A, B]`` with rotation ``rho``
shows A on edges ``rho, rho+1, rho+2``": A faces edge ``rho+1``).

:func:`parse_boards` reads one or more files into a :class:`BoardTable` whose boards are
:class:`~cascadia.domain.environment.Environment` s of component tiles, scored by the
project's one scorer (:func:`score_table`); :func:`table_text` writes one back.
Scoring depends only on habitats, edges and tokens (RULES.md 5), so any component tile
of the same habitats stands for a hex, and the wildlife symbols printed on it are not
asked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from cascadia.domain.components import (
    CARD_LETTERS,
    HABITAT_TILE_COUNT,
    HABITATS,
    NATURE_TOKENS,
    TILES,
    VARIANT_CARDS,
    WILDLIFE,
)
from cascadia.domain.environment import Environment
from cascadia.domain.errors import CascadiaError, InvalidOptionError
from cascadia.domain.game import check_seat_name
from cascadia.domain.hexgrid import DIRECTION_NAMES, Hex, neighbours
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState
from cascadia.projections.habitats import MAX_PLAYERS
from cascadia.projections.scoresheet import ScoreSheet, score_game

HABITAT_LETTERS: dict[str, str] = {habitat[0].upper(): habitat for habitat in HABITATS}
"""``M`` mountain, ``F`` forest, ``P`` prairie, ``W`` wetland, ``R`` river."""
LETTER_OF: dict[str, str] = {habitat: letter for letter, habitat in HABITAT_LETTERS.items()}
SCORING_OPTIONS: dict[str, tuple[str, ...]] = {
    "salmon_runs": ("strict", "lenient"),
    "elk_rings": ("arc", "any-subset"),
    "majority_bonus": ("on", "off"),
    "must_not_match": ("on", "off"),
    "corridors_of_three": ("on", "off"),
    "corridors_min_five": ("on", "off"),
}
"""The game options that change scoring (RULES.md 5.4, 5.5, 5.8, 7.2-7.4) and their values;
``two_card_sets`` (RULES.md 7.6) is on when a ``second cards:`` line names the second set."""
KEYS = ("cards", "second cards", "options", "player", "nature")
MAX_BOARD_BYTES = 1 << 20
"""The largest board file read: a table's boards are a few kB."""
_POSITION = re.compile(r"[+-]?\d{1,3},[+-]?\d{1,3}", re.ASCII)
"""``q,r``: a board reaches at most some 20 hexes from its starter (RULES.md 4.3)."""
_NATURE = re.compile(r"\d{1,2}", re.ASCII)


def _quoted(text: str, limit: int = 40) -> str:
    """``text`` as an error quotes it: in quotes, cut to ``limit`` characters (a line of
    the file may be a megabyte long; the error stays one readable line)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


class BoardTextError(CascadiaError, ValueError):
    """A board text that cannot be read: ``FILE:LINE:COLUMN: what was expected``."""

    def __init__(self, where: Location, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a board text (line and column count from 1)."""

    file: str
    line: int
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class BoardPlayer:
    """One player's board and the nature tokens they have left."""

    name: str
    environment: Environment
    nature_tokens: int = 0


@dataclass(frozen=True, slots=True)
class BoardTable:
    """The boards of one game, by seat, with the cards and options they are scored under."""

    players: tuple[BoardPlayer, ...]
    cards: Mapping[str, str]
    options: GameOptions
    second_cards: Mapping[str, str] | None = None


def score_table(table: BoardTable) -> ScoreSheet:
    """The final score sheet of ``table`` (RULES.md 5, 6): cards, corridors, majority (or
    solo) bonuses, 1 per nature token left, ranks; the scorer of every game."""
    return score_game(
        [p.environment for p in table.players],
        [p.nature_tokens for p in table.players],
        table.cards,
        table.options,
        second_cards=table.second_cards,
    )


def table_of(state: GameState, seats: Sequence[int] | None = None) -> BoardTable:
    """The boards of a game's ``seats`` (default: all) as they stand, with its cards and
    options (and the second card set of ``two_card_sets``)."""
    chosen = range(state.player_count) if seats is None else seats
    players = tuple(
        BoardPlayer(state.players[s].name, state.players[s].environment, state.players[s].nature_tokens)
        for s in chosen
    )
    second = state.second_cards if state.options.two_card_sets else None
    return BoardTable(players, dict(state.cards), state.options, dict(second) if second else None)


# -- writing ---------------------------------------------------------------------------------------


def table_text(table: BoardTable) -> str:
    """The board text of ``table``: the cards, the scoring options that differ from the
    defaults, then each player's :func:`board_text`."""
    lines = ["# Cascadia boards (docs/BOARD.md)", f"cards: {_cards_text(table.cards)}"]
    if table.second_cards is not None:
        lines.append(f"second cards: {_cards_text(table.second_cards)}")
    changed = [f"{name}={option_text(table.options, name)}" for name in SCORING_OPTIONS]
    default = [f"{name}={option_text(GameOptions(), name)}" for name in SCORING_OPTIONS]
    if changed != default:
        lines.append("options: " + " ".join(c for c, d in zip(changed, default, strict=True) if c != d))
    sections = [board_text(p.environment, p.name, p.nature_tokens) for p in table.players]
    return "\n".join(lines) + "\n\n" + "\n".join(sections)


def board_text(environment: Environment, name: str, nature_tokens: int = 0) -> str:
    """One player's part of a board text: ``player:``, ``nature:`` and a line per hex,
    row by row (``r``, then ``q``)."""
    lines = [f"player: {name}", f"nature: {nature_tokens}"]
    for q, r in sorted(environment.tiles, key=lambda h: (h[1], h[0])):
        tile_id, rotation = environment.tiles[(q, r)]
        token = environment.wildlife.get((q, r), "")
        lines.append(f"{f'{q},{r}':<7} {hex_habitats(tile_id, rotation):<7} {token}".rstrip())
    return "\n".join(lines) + "\n"


def hex_habitats(tile_id: int, rotation: int) -> str:
    """``M`` for a keystone; for a dual tile its habitats in ``HABITATS`` order and the
    edge the first one faces (the middle of its three edges): ``M/F@E``."""
    habitats = TILES[tile_id].habitats
    if len(habitats) == 1:
        return LETTER_OF[habitats[0]]
    first, second = sorted(habitats, key=HABITATS.index)
    facing = rotation + 1 if first == habitats[0] else rotation + 4
    return f"{LETTER_OF[first]}/{LETTER_OF[second]}@{DIRECTION_NAMES[facing % 6]}"


def _cards_text(cards: Mapping[str, str], separator: str = " ") -> str:
    """``A B C D A`` (bear to fox), or the variant card's name; with ``separator=","``
    the ``GameOptions.cards`` choice."""
    letters = [cards[species] for species in WILDLIFE]
    return letters[0] if letters[0] in VARIANT_CARDS else separator.join(letters)


def option_text(options: GameOptions, name: str) -> str:
    """The value of the scoring option ``name`` as a board text writes it (``on``/``off``
    for a yes-or-no option)."""
    value = getattr(options, name)
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


# -- reading ---------------------------------------------------------------------------------------


def tile_for(habitats: Sequence[str], facing: int) -> tuple[int, int]:
    """A component habitat tile showing ``habitats`` and the rotation that turns the first
    of them to face edge ``facing`` (a keystone: rotation 0)."""
    wanted = set(habitats)
    tile = next(
        t
        for t in TILES[:HABITAT_TILE_COUNT]
        if set(t.habitats) == wanted and len(t.habitats) == len(habitats)
    )
    if len(habitats) == 1:
        return tile.id, 0
    rotation = facing - 1 if tile.habitats[0] == habitats[0] else facing - 4
    return tile.id, rotation % 6


@dataclass
class _Player:
    name: str
    where: Location
    nature_tokens: int = 0
    tiles: dict[Hex, tuple[int, int]] = field(default_factory=dict)
    wildlife: dict[Hex, str] = field(default_factory=dict)
    lines: dict[Hex, Location] = field(default_factory=dict)


@dataclass
class _Reader:
    """What the files read so far said; each setting given once, or the same again."""

    players: list[_Player] = field(default_factory=list)
    settings: dict[str, tuple[Any, Location]] = field(default_factory=dict)

    def setting(self, key: str, value: Any, where: Location) -> None:
        known = self.settings.get(key)
        if known is not None and known[0] != value:
            raise BoardTextError(where, f"{key}: differs from {key}: at {known[1]}")
        self.settings.setdefault(key, (value, where))


def parse_boards(files: Sequence[tuple[str, str]]) -> BoardTable:
    """The table that board texts describe: ``files`` are ``(file name, text)``, read in
    order; the seats follow the order of the players. A file without a ``player:`` line
    is one player named after the file. Raises :class:`BoardTextError` at the first line
    that cannot be read."""
    reader = _Reader()
    for name, text in files:
        _read_file(reader, name, text)
    if not files:
        raise BoardTextError(Location("-", 1), "no board text given")
    first = Location(files[0][0], 1)
    if "cards" not in reader.settings:
        raise BoardTextError(first, "cards missing: expected a line such as `cards: A B C D A`")
    if not reader.players:
        raise BoardTextError(first, "no board: expected hex lines such as `0,0 M bear`")
    for player in reader.players:
        _check_connected(player)
    cards = reader.settings["cards"]
    second = reader.settings.get("second cards")
    chosen = dict(reader.settings.get("options", ((), first))[0])
    try:
        options = GameOptions(cards=_cards_text(cards[0], ","), two_card_sets=second is not None, **chosen)
    except InvalidOptionError as error:
        raise BoardTextError((second or cards)[1], str(error)) from None
    return BoardTable(
        tuple(BoardPlayer(p.name, Environment(p.tiles, p.wildlife), p.nature_tokens) for p in reader.players),
        cards[0],
        options,
        second[0] if second else None,
    )


def _words(text: str, offset: int) -> list[tuple[str, int]]:
    """The words of ``text`` with their columns (``text`` starts at column ``offset + 1``)."""
    return [(m.group(), offset + m.start() + 1) for m in re.finditer(r"\S+", text)]


def _read_file(reader: _Reader, name: str, text: str) -> None:
    """Read one file's lines into ``reader``."""
    current: list[_Player] = []  # the player the file's lines are about (none yet)

    def player(where: Location) -> _Player:
        if not current:
            _add_player(reader, current, PurePath(name).stem, where)
        return current[-1]

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        words = _words(line, 0)
        if not words:
            continue
        where = Location(name, number, words[0][1])
        if ":" in line:
            key_text, value = line.split(":", 1)
            key = " ".join(key_text.split()).lower()
            values = _words(value, len(key_text) + 1)
            _read_key(reader, current, player, key, values, where, Location(name, number, len(line) + 1))
        else:
            _read_hex(player(where), words, name, number)


def _add_player(reader: _Reader, current: list[_Player], name: str, where: Location) -> None:
    """A player named ``name``, checked as every seat name is (:func:`check_seat_name`:
    no control or bidi character reaches a terminal from a board file)."""
    if len(reader.players) == MAX_PLAYERS:
        raise BoardTextError(where, f"a game has 1 to {MAX_PLAYERS} players; this is a fifth")
    try:
        check_seat_name(name)
    except InvalidOptionError as error:
        raise BoardTextError(where, str(error)) from None
    reader.players.append(_Player(name, where))
    current.append(reader.players[-1])


def _read_key(
    reader: _Reader,
    current: list[_Player],
    player: Callable[[Location], _Player],
    key: str,
    values: list[tuple[str, int]],
    where: Location,
    end: Location,
) -> None:
    """One ``key: value`` line."""
    if key not in KEYS:
        raise BoardTextError(
            where,
            f"unknown key {_quoted(key)}: expected cards:, second cards:, options:, player:, nature: "
            "or a hex",
        )
    if key == "player":
        if not values:
            raise BoardTextError(end, "expected the player's name after player:")
        _add_player(reader, current, " ".join(word for word, _ in values), where)
    elif key == "nature":
        if len(values) != 1 or not _NATURE.fullmatch(values[0][0]) or int(values[0][0]) > NATURE_TOKENS:
            raise BoardTextError(
                Location(where.file, where.line, values[0][1]) if values else end,
                f"expected the number of nature tokens left (0 to {NATURE_TOKENS}), such as `nature: 2`",
            )
        player(where).nature_tokens = int(values[0][0])
    elif key == "options":
        reader.setting(key, tuple(sorted(_read_options(values, where).items())), where)
    else:
        reader.setting(key, _read_cards(key, values, where, end), where)


def _read_cards(key: str, values: list[tuple[str, int]], where: Location, end: Location) -> dict[str, str]:
    """``A B C D A`` (bear, elk, salmon, hawk, fox) or ``family`` / ``intermediate``."""
    expected = "five card letters A-D for bear, elk, salmon, hawk, fox (such as `A B C D A`)"
    if key == "cards":
        expected += " or family or intermediate"
        if len(values) == 1 and values[0][0].lower() in VARIANT_CARDS:
            return dict.fromkeys(WILDLIFE, values[0][0].lower())
    for word, column in values:
        if word.upper() not in CARD_LETTERS:
            raise BoardTextError(
                Location(where.file, where.line, column), f"expected {expected}, not {_quoted(word)}"
            )
    count = len(WILDLIFE)
    if len(values) != count:
        at = Location(where.file, where.line, values[count][1]) if len(values) > count else end
        raise BoardTextError(at, f"expected {expected}; {len(values)} given")
    return {species: word.upper() for species, (word, _) in zip(WILDLIFE, values, strict=True)}


def _read_options(values: list[tuple[str, int]], where: Location) -> dict[str, Any]:
    """``name=value ...`` of :data:`SCORING_OPTIONS`, checked together by ``GameOptions``."""
    chosen: dict[str, Any] = {}
    for word, column in values:
        at = Location(where.file, where.line, column)
        name, _, value = word.partition("=")
        if name not in SCORING_OPTIONS:
            raise BoardTextError(
                at, f"expected a scoring option ({', '.join(SCORING_OPTIONS)}), not {_quoted(name)}"
            )
        if value not in SCORING_OPTIONS[name]:
            choices = " or ".join(SCORING_OPTIONS[name])
            raise BoardTextError(at, f"expected {name}={choices}, not {_quoted(word)}")
        chosen[name] = value == "on" if SCORING_OPTIONS[name] == ("on", "off") else value
    try:
        GameOptions(**chosen)
    except InvalidOptionError as error:
        raise BoardTextError(where, str(error)) from None
    return chosen


def _read_hex(player: _Player, words: list[tuple[str, int]], file: str, number: int) -> None:
    """``q,r HABITATS [SPECIES]``."""
    (position, column), rest = words[0], words[1:]
    at = Location(file, number, column)
    if not _POSITION.fullmatch(position):
        raise BoardTextError(
            at,
            "expected a position q,r (such as 0,0 or -1,1) or a key (cards:, player: ...), "
            f"not {_quoted(position)}",
        )
    q, r = (int(part) for part in position.split(","))
    h = (q, r)
    if h in player.tiles:
        raise BoardTextError(at, f"two tiles on hex {position} (the first at line {player.lines[h].line})")
    if not rest:
        raise BoardTextError(
            Location(file, number, column + len(position)),
            "expected the hex's habitat(s), such as M or M/F@E",
        )
    habitats, facing = _read_habitats(*rest[0], file, number)
    player.tiles[h] = tile_for(habitats, facing)
    player.lines[h] = at
    if len(rest) > 2:
        raise BoardTextError(
            Location(file, number, rest[2][1]), "expected at most one wildlife token per hex"
        )
    if len(rest) == 2:
        species, where = rest[1][0].lower(), rest[1][1]
        if species not in WILDLIFE:
            raise BoardTextError(
                Location(file, number, where),
                f"expected a species ({', '.join(WILDLIFE)}), not {_quoted(rest[1][0])}",
            )
        player.wildlife[h] = species


def _read_habitats(word: str, column: int, file: str, number: int) -> tuple[tuple[str, ...], int]:
    """``M`` (a keystone) or ``M/F@E`` (the first habitat faces that edge): the habitats
    and the edge the first one faces."""

    def fail(offset: int, message: str) -> BoardTextError:
        return BoardTextError(Location(file, number, column + offset), message)

    letters, at, direction = word.partition("@")
    parts = letters.split("/")
    offset = 0
    habitats = []
    for part in parts:
        if part.upper() not in HABITAT_LETTERS:
            raise fail(
                offset,
                f"expected a habitat letter ({', '.join(f'{k} {v}' for k, v in HABITAT_LETTERS.items())})"
                f", not {_quoted(part)}",
            )
        habitats.append(HABITAT_LETTERS[part.upper()])
        offset += len(part) + 1
    if len(habitats) > 2 or len(set(habitats)) != len(habitats):
        raise fail(0, f"expected one habitat or two different ones (such as M/F@E), not {_quoted(letters)}")
    if len(habitats) == 1:
        if at:
            raise fail(len(letters), "a one-habitat hex has no facing: expected just its letter, such as M")
        return tuple(habitats), 0
    if direction.upper() not in DIRECTION_NAMES:
        raise fail(
            len(letters) + (1 if at else 0),
            f"expected @ and the edge the first habitat faces ({', '.join(DIRECTION_NAMES)}), "
            f"such as {letters}@E",
        )
    return tuple(habitats), DIRECTION_NAMES.index(direction.upper())


def _check_connected(player: _Player) -> None:
    """RULES.md 4.3: every tile goes next to one already placed, so a board is connected."""
    if not player.tiles:
        raise BoardTextError(player.where, f"player {player.name} has no hexes")
    start = next(iter(player.tiles))
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in player.tiles and n not in seen:
                seen.add(n)
                todo.append(n)
    for h, where in player.lines.items():
        if h not in seen:
            raise BoardTextError(
                where,
                f"hex {h[0]},{h[1]} is not connected to the hex at line {player.lines[start].line} "
                f"(a board is one piece)",
            )
