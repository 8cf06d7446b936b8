"""The position notation: a whole position, as one viewer sees it, in one line of text.

:func:`position_of` takes what a viewer may see of a game state (hiding is decided by
:func:`~cascadia.projections.player_view.player_view` alone), :func:`write_position`
writes it and :func:`parse_position` reads it back: ``write_position(parse_position(text))
== text`` for every text this module writes. docs/POSITION.md documents the fields; a
malformed text raises :class:`PositionError`, which names the field and the column
(1-based) of the offending character.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import quote, unquote

from cascadia.domain.components import CARD_LETTERS, HABITAT_TILE_COUNT, TILES, VARIANT_CARDS, WILDLIFE
from cascadia.domain.errors import CascadiaError
from cascadia.domain.options import RULES_VERSIONS, GameOptions
from cascadia.domain.state import GameState, initial_tokens_per_species
from cascadia.projections.player_view import EVERYTHING, SPECTATOR, Viewer, player_view

MAGIC = "cascadia-pos1"
"""The first field: the notation and its version."""
SPECIES_LETTERS = "BESHF"
"""bear, elk, salmon, hawk, fox: one capital each, in :data:`WILDLIFE` order."""
LETTER_OF = dict(zip(WILDLIFE, SPECIES_LETTERS, strict=True))
SPECIES_OF = dict(zip(SPECIES_LETTERS, WILDLIFE, strict=True))
FIELDS: tuple[str, ...] = (
    "header",
    "viewer",
    "rules",
    "options",
    "names",
    "turn",
    "to-move",
    "cards",
    "secret",
    "nature",
    "market",
    "bag",
    "stack",
    "removed",
)
"""The fixed fields, in order; one ``board`` field per seat follows them."""
_OPTION_FIELDS = {f.name: f for f in fields(GameOptions)}
_DEFAULT_OPTIONS = GameOptions().to_dict()
"""Every option's default, by name (read only)."""
PLACED_KEPT = 8192
"""How many board hexes :func:`position_of` keeps built (a game in play: a few tens)."""


class PositionError(CascadiaError):
    """A malformed position: the field, the column (1-based, in the whole text) of the
    character found wrong, and why."""

    def __init__(self, field: str, column: int, reason: str) -> None:
        super().__init__(f"position field {field!r}, column {column}: {reason}")
        self.field = field
        self.column = column
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Placed:
    """One hex of a board: where, which tile, its rotation and its token (or ``None``)."""

    q: int
    r: int
    tile: int
    rotation: int
    wildlife: str | None


@dataclass(frozen=True, slots=True)
class ToMove:
    """Whose decision it is and how far their turn has gone (``None``: the game is over).

    Before the take: whether the free three-of-a-kind wipe was used and a free choice
    bought. After it: the pair held, where the tile went (``None``: not placed yet) and
    whether the token was placed or returned."""

    seat: int
    three_wipe_used: bool = False
    free_choice: bool = False
    taken_tile: int | None = None
    taken_wildlife: str | None = None
    tile_hex: tuple[int, int] | None = None
    wildlife_done: bool = False


@dataclass(frozen=True, slots=True)
class Position:
    """A position as one viewer sees it. A card or secret card hidden from the viewer
    is ``None`` (``?`` in the text, and in a card choice of ``options``)."""

    viewer: Viewer
    rules_version: str
    options: tuple[tuple[str, str | bool], ...]
    """The options that differ from the defaults, in :class:`GameOptions` order."""
    names: tuple[str, ...]
    turn: int
    first_player: int
    to_move: ToMove | None
    cards: tuple[str | None, ...]
    second_cards: tuple[str | None, ...] | None
    secret_cards: tuple[str | None, ...]
    secret_revealed: tuple[bool, ...]
    nature_tokens: tuple[int, ...]
    market: tuple[tuple[int | None, str | None], ...]
    bag: tuple[int, ...]
    stack_size: int
    removed_tiles: tuple[int, ...]
    removed_wildlife: tuple[int, ...]
    boards: tuple[tuple[Placed, ...], ...]

    @property
    def finished(self) -> bool:
        return self.to_move is None


# -- from a game state ------------------------------------------------------------------


def position_of(
    state: GameState, viewer: Viewer, view: dict[str, Any] | None = None, *, boards: bool = True
) -> Position:
    """The position of ``state`` as ``viewer`` may see it (its hiding is the player view's);
    ``view``: ``player_view(state, viewer)`` if the caller has it already (not built again);
    ``boards=False``: without the boards (none listed; the view's environments not read)."""
    if view is None:
        view = player_view(state, viewer, scores=False)
    ts = state.turn_state
    to_move = (
        None
        if state.finished
        else ToMove(
            state.current,
            ts.three_wipe_used,
            ts.free_choice,
            ts.taken_tile,
            ts.taken_wildlife,
            ts.tile_hex,
            ts.wildlife_done,
        )
    )
    options = tuple(
        (name, value) for name, value in view["options"].items() if _DEFAULT_OPTIONS.get(name) != value
    )
    return Position(
        viewer=viewer,
        rules_version=state.rules_version,
        options=options,
        names=tuple(state.names),
        turn=state.turn,
        first_player=state.first_player,
        to_move=to_move,
        cards=tuple(view["cards"][species] for species in WILDLIFE),
        second_cards=(
            tuple(view["second_cards"][species] for species in WILDLIFE) if view["second_cards"] else None
        ),
        secret_cards=tuple(view["secret_cards"]),
        secret_revealed=tuple(state.secret_revealed),
        nature_tokens=tuple(p.nature_tokens for p in state.players),
        market=tuple((slot["tile"], slot["wildlife"]) for slot in view["market"]),
        bag=tuple(state.bag),
        stack_size=state.stack_size,
        removed_tiles=tuple(state.removed_tiles),
        removed_wildlife=tuple(state.removed_wildlife),
        boards=tuple(_board(p["environment"]) for p in view["players"]) if boards else (),
    )


def format_position(
    state: GameState,
    viewer: Viewer,
    view: dict[str, Any] | None = None,
    *,
    boards: Sequence[str] | None = None,
) -> str:
    """The notation of ``state`` as ``viewer`` may see it (``view``: as :func:`position_of`);
    ``boards``: each seat's board field as :func:`board_field` wrote it, for a caller that
    keeps them (then the view's environments are not read)."""
    if boards is None:
        return write_position(position_of(state, viewer, view))
    return " ".join([write_position(position_of(state, viewer, view, boards=False)), *boards])


def board_field(environment: Sequence[dict[str, Any]]) -> str:
    """The board field of a board's hexes as the player view lists them
    (:func:`~cascadia.projections.player_view.environment_view`)."""
    return _write_board(_board(environment))


def _board(environment: Sequence[dict[str, Any]]) -> tuple[Placed, ...]:
    return tuple(_placed(h["q"], h["r"], h["tile"], h["rotation"], h["wildlife"]) for h in environment)


@functools.lru_cache(maxsize=PLACED_KEPT)
def _placed(q: int, r: int, tile: int, rotation: int, wildlife: str | None) -> Placed:
    """One hex of a board, built once and shared (a :class:`Placed` never changes; a
    position of a game in play lists every tile of every board, mostly the same ones
    from one position of the game to the next)."""
    return Placed(q, r, tile, rotation, wildlife)


# -- writing ----------------------------------------------------------------------------


def write_position(position: Position) -> str:
    """The one-line text of ``position`` (docs/POSITION.md)."""
    p = position
    parts = [
        MAGIC,
        _write_viewer(p.viewer),
        str(RULES_VERSIONS.index(p.rules_version) + 1),
        _write_options(p.options),
        ",".join(quote(name, safe="") for name in p.names),
        f"{p.turn}:{p.first_player}",
        _write_to_move(p.to_move),
        _write_cards(p.cards) + ("" if p.second_cards is None else "+" + _write_cards(p.second_cards)),
        _write_secret(p.secret_cards, p.secret_revealed),
        ",".join(map(str, p.nature_tokens)),
        ",".join(_write_slot(tile, token) for tile, token in p.market),
        ",".join(map(str, p.bag)),
        str(p.stack_size),
        _write_removed(p.removed_tiles, p.removed_wildlife),
        *(_write_board(board) for board in p.boards),
    ]
    return " ".join(parts)


def _write_viewer(viewer: Viewer) -> str:
    return "*" if viewer is EVERYTHING else "s" if viewer == SPECTATOR else str(viewer)


def _write_options(options: Sequence[tuple[str, str | bool]]) -> str:
    written = [
        name if value is True else f"{name}={int(value) if isinstance(value, bool) else value}"
        for name, value in options
    ]
    return ";".join(written) or "-"


def _write_to_move(to_move: ToMove | None) -> str:
    """``-``, ``SEAT:take[+FLAGS]`` or ``SEAT:place:TILE SPECIES[+FLAGS][@Q,R][!]``."""
    if to_move is None:
        return "-"
    m = to_move
    flags = ("w" if m.three_wipe_used else "") + ("f" if m.free_choice else "")
    flags = f"+{flags}" if flags else ""
    if m.taken_tile is None or m.taken_wildlife is None:
        return f"{m.seat}:take{flags}"
    placed = "" if m.tile_hex is None else f"@{m.tile_hex[0]},{m.tile_hex[1]}"
    done = "!" if m.wildlife_done else ""
    return f"{m.seat}:place:{m.taken_tile}{LETTER_OF[m.taken_wildlife]}{flags}{placed}{done}"


def _write_cards(cards: Sequence[str | None]) -> str:
    """Five letters (``?`` hidden), or the variant card every species uses: a variant
    card hides nothing, even when it is a secret card."""
    variant = next((card for card in cards if card in VARIANT_CARDS), None)
    return variant or "".join(card or "?" for card in cards)


def _write_secret(species: Sequence[str | None], revealed: Sequence[bool]) -> str:
    if not species:
        return "-"
    return ",".join(
        ("?" if s is None else LETTER_OF[s]) + ("*" if shown else "")
        for s, shown in zip(species, revealed, strict=True)
    )


def _write_slot(tile: int | None, token: str | None) -> str:
    return ("-" if tile is None else str(tile)) + ("-" if token is None else LETTER_OF[token])


def _write_removed(tiles: Sequence[int], wildlife: Sequence[int]) -> str:
    if not tiles and not any(wildlife):
        return "-"
    return ".".join(map(str, tiles)) + ":" + ",".join(map(str, wildlife))


def _write_board(board: Sequence[Placed]) -> str:
    return ";".join(
        f"{h.tile}@{h.q},{h.r}"
        + (f"r{h.rotation}" if h.rotation else "")
        + (LETTER_OF[h.wildlife] if h.wildlife else "")
        for h in board
    )


# -- parsing ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Field:
    """One field of the text: its name, its text and the column of its first character."""

    name: str
    text: str
    column: int

    def error(self, offset: int, reason: str) -> PositionError:
        return PositionError(self.name, self.column + offset, reason)

    def parts(self, separator: str) -> list[_Field]:
        """The field split at ``separator``, each part with its own column."""
        found, offset = [], 0
        for piece in self.text.split(separator):
            found.append(_Field(self.name, piece, self.column + offset))
            offset += len(piece) + len(separator)
        return found

    def integer(self, what: str, high: int | None = None) -> int:
        """The whole field as a whole number from 0 to ``high``."""
        scan = _Scanner(self)
        value = scan.number(what, high=high)
        scan.end(what)
        return value

    def integers(
        self, separator: str, what: str, count: int | None = None, high: int | None = None
    ) -> tuple[int, ...]:
        parts = self.parts(separator)
        if count is not None and len(parts) != count:
            raise self.error(0, f"expected {count} {what} separated by {separator!r}, found {len(parts)}")
        return tuple(part.integer(what, high) for part in parts)


class _Scanner:
    """Reads a field character by character; an error names the character it stopped at."""

    def __init__(self, field: _Field) -> None:
        self.field = field
        self.text = field.text
        self.at = 0

    def fail(self, expected: str, at: int | None = None) -> PositionError:
        at = self.at if at is None else at
        found = repr(self.text[at]) if at < len(self.text) else "the end of the field"
        return self.field.error(at, f"expected {expected}, found {found}")

    def take(self, literal: str) -> bool:
        """Consume ``literal`` if it comes next."""
        if self.text.startswith(literal, self.at):
            self.at += len(literal)
            return True
        return False

    def expect(self, literal: str) -> None:
        if not self.take(literal):
            raise self.fail(repr(literal))

    def letter(self, allowed: str, what: str) -> str:
        char = self.text[self.at : self.at + 1]
        if not char or char not in allowed:
            raise self.fail(what)
        self.at += 1
        return char

    def number(self, what: str, signed: bool = False, high: int | None = None) -> int:
        """A whole number (with ``signed``, perhaps negative), no leading zeros, at most ``high``."""
        start = self.at
        negative = signed and self.take("-")
        digits = self.at
        while self.text[self.at : self.at + 1].isdigit() and self.text[self.at].isascii():
            self.at += 1
        if self.at == digits or (self.text[digits] == "0" and self.at - digits > 1):
            raise self.fail(what, digits if self.at == digits else digits + 1)
        value = int(self.text[digits : self.at]) * (-1 if negative else 1)
        if high is not None and value > high:
            raise self.field.error(start, f"expected {what} up to {high}, found {value}")
        return value

    def end(self, what: str) -> None:
        if self.at != len(self.text):
            raise self.fail(f"the end of {what}")


def parse_position(text: str) -> Position:
    """The position a text of :func:`write_position` names; :class:`PositionError`
    (naming the field and the column of the character found wrong) for anything else."""
    found = _Field("position", text, 1).parts(" ")
    if found[0].text != MAGIC:
        raise PositionError("header", 1, f"a position starts with {MAGIC!r}")
    if len(found) < len(FIELDS) + 1:
        missing = FIELDS[len(found)] if len(found) < len(FIELDS) else "board"
        raise PositionError(missing, len(text) + 1, f"the text ends before the {missing} field")
    named = {name: _Field(name, part.text, part.column) for name, part in zip(FIELDS, found, strict=False)}
    boards = [
        _Field(f"board {seat}", part.text, part.column) for seat, part in enumerate(found[len(FIELDS) :])
    ]
    names = _parse_names(named["names"])
    players = len(names)
    if len(boards) != players:
        where = boards[players] if len(boards) > players else None
        column = where.column if where else len(text) + 1
        raise PositionError("board", column, f"the names field names {players} seat(s), so as many boards")
    options = _parse_options(named["options"])
    option_values = dict(options)
    market_size = 3 if option_values.get("market_of_three") is True else 4
    cards, second = _parse_cards(named["cards"])
    secret, revealed = _parse_secret(named["secret"], players)
    turn_field, first_field = _pair(named["turn"], ":", "turn:first seat")
    market = _parse_market(named["market"], market_size)
    removed_tiles, removed_wildlife = _parse_removed(named["removed"])
    position = Position(
        viewer=_parse_viewer(named["viewer"], players),
        rules_version=_parse_rules(named["rules"]),
        options=options,
        names=names,
        turn=turn_field.integer("a turn number"),
        first_player=first_field.integer("a seat", players - 1),
        to_move=_parse_to_move(named["to-move"], players),
        cards=cards,
        second_cards=second,
        secret_cards=secret,
        secret_revealed=revealed,
        nature_tokens=named["nature"].integers(",", "nature-token counts", players),
        market=market,
        bag=named["bag"].integers(",", "bag counts", len(WILDLIFE)),
        stack_size=named["stack"].integer("a stack size", HABITAT_TILE_COUNT),
        removed_tiles=removed_tiles,
        removed_wildlife=removed_wildlife,
        boards=tuple(_parse_board(board) for board in boards),
    )
    _check_options(position, named)
    _check_tiles(position, named, boards)
    _check_tokens(position, named["bag"])
    return position


def _pair(field: _Field, separator: str, what: str) -> tuple[_Field, _Field]:
    parts = field.parts(separator)
    if len(parts) != 2:
        raise field.error(0, f"expected {what}, not {field.text!r}")
    return parts[0], parts[1]


def _parse_rules(field: _Field) -> str:
    """The rules version by its number: 1 for ``cascadia-rules-1``, ..."""
    if field.text == "0":
        raise field.error(0, f"expected a rules version from 1 to {len(RULES_VERSIONS)}, found '0'")
    return RULES_VERSIONS[field.integer("a rules version", len(RULES_VERSIONS)) - 1]


def _parse_names(field: _Field) -> tuple[str, ...]:
    """The seat names, each percent-encoded (UTF-8) as :func:`urllib.parse.quote` writes it."""
    names = []
    for part in field.parts(","):
        text = part.text
        for i, char in enumerate(text):
            if char == "%":
                bad = re.fullmatch("[0-9A-F]{2}", text[i + 1 : i + 3]) is None
            else:
                bad = quote(char, safe="") != char
            if bad:
                raise part.error(i, f"a name is percent-encoded UTF-8 (%XX), not {char!r}")
        try:
            name = unquote(text, errors="strict")
        except UnicodeDecodeError:
            raise part.error(0, "a name is percent-encoded UTF-8") from None
        if quote(name, safe="") != text:
            raise part.error(text.find("%"), "a name escapes only what needs it")
        names.append(name)
    return tuple(names)


def _parse_viewer(field: _Field, players: int) -> Viewer:
    if field.text == "*":
        return EVERYTHING
    if field.text == "s":
        return SPECTATOR
    return field.integer("a seat, s (spectator) or * (everything)", players - 1)


def _parse_options(field: _Field) -> tuple[tuple[str, str | bool], ...]:
    """``-``, or the options that differ from the defaults, ``;``-separated, in the
    order of the :class:`GameOptions` fields: ``name`` (on), ``name=0`` (off), ``name=value``."""
    if field.text == "-":
        return ()
    order = list(_OPTION_FIELDS)
    defaults = GameOptions()
    options: list[tuple[str, str | bool]] = []
    for part in field.parts(";"):
        name, _, text = part.text.partition("=")
        if name not in _OPTION_FIELDS:
            raise part.error(0, f"unknown option {name!r}")
        if options and order.index(name) <= order.index(options[-1][0]):
            raise part.error(0, f"{name} comes before {options[-1][0]}, and each option once")
        default = getattr(defaults, name)
        value: str | bool = text
        if isinstance(default, bool):
            if text not in ("", "0"):
                raise part.error(len(name), f"{name} is written bare (on) or {name}=0 (off)")
            value = text == ""
        elif not text:
            raise part.error(len(name), f"{name} needs =VALUE")
        if value == default:
            raise part.error(0, f"{name} is the default: only options that differ are written")
        options.append((name, value))
    return tuple(options)


def _parse_cards(field: _Field) -> tuple[tuple[str | None, ...], tuple[str | None, ...] | None]:
    sets = field.parts("+")
    if len(sets) > 2:
        raise sets[2].error(-1, "at most two card sets")
    first = _parse_card_set(sets[0])
    second = _parse_card_set(sets[1]) if len(sets) == 2 else None
    return first, second


def _parse_card_set(field: _Field) -> tuple[str | None, ...]:
    if field.text in VARIANT_CARDS:
        return (field.text,) * len(WILDLIFE)
    if len(field.text) != len(WILDLIFE):
        raise field.error(0, f"expected five card letters (A-D or ?) or a variant card, not {field.text!r}")
    for offset, letter in enumerate(field.text):
        if letter not in CARD_LETTERS and letter != "?":
            raise field.error(offset, f"a card is A, B, C, D or ?, not {letter!r}")
    return tuple(None if letter == "?" else letter for letter in field.text)


def _parse_secret(field: _Field, players: int) -> tuple[tuple[str | None, ...], tuple[bool, ...]]:
    if field.text == "-":
        return (), ()
    parts = field.parts(",")
    if len(parts) != players:
        raise field.error(0, f"expected one secret card per seat ({players}), found {len(parts)}")
    species, revealed = [], []
    for part in parts:
        scan = _Scanner(part)
        species.append(SPECIES_OF.get(scan.letter(SPECIES_LETTERS + "?", "a species letter or ?")))
        revealed.append(scan.take("*"))
        scan.end("a secret card")
    return tuple(species), tuple(revealed)


def _parse_to_move(field: _Field, players: int) -> ToMove | None:
    """``-``, ``SEAT:take[+FLAGS]`` or ``SEAT:place:TILE SPECIES[+FLAGS][@Q,R][!]``."""
    if field.text == "-":
        return None
    scan = _Scanner(field)
    seat = scan.number("a seat (or - when the game is over)", high=players - 1)
    scan.expect(":")
    if scan.take("take"):
        wipe, free = _flags(scan)
        scan.end("the to-move field")
        return ToMove(seat, wipe, free)
    if not scan.take("place:"):
        raise scan.fail("'take' or 'place:'")
    tile = scan.number("the tile held", high=HABITAT_TILE_COUNT - 1)
    token = SPECIES_OF[scan.letter(SPECIES_LETTERS, "the species held")]
    wipe, free = _flags(scan)
    hex_ = (scan.number("q", signed=True), _after(scan, ",", "r")) if scan.take("@") else None
    done = scan.take("!")
    scan.end("the to-move field")
    return ToMove(seat, wipe, free, tile, token, hex_, done)


def _flags(scan: _Scanner) -> tuple[bool, bool]:
    """``+w``, ``+f`` or ``+wf`` (the three-of-a-kind wipe used, free choice bought), or nothing."""
    if not scan.take("+"):
        return False, False
    wipe, free = scan.take("w"), scan.take("f")
    if not (wipe or free):
        raise scan.fail("w or f")
    return wipe, free


def _after(scan: _Scanner, separator: str, what: str) -> int:
    scan.expect(separator)
    return scan.number(what, signed=True)


def _parse_market(field: _Field, size: int) -> tuple[tuple[int | None, str | None], ...]:
    parts = field.parts(",")
    if len(parts) != size:
        raise field.error(0, f"expected {size} market slots, found {len(parts)}")
    slots = []
    for part in parts:
        scan = _Scanner(part)
        tile = None if scan.take("-") else scan.number("a tile id or -", high=HABITAT_TILE_COUNT - 1)
        token = SPECIES_OF.get(scan.letter(SPECIES_LETTERS + "-", "a species letter or -"))
        scan.end("a market slot")
        slots.append((tile, token))
    return tuple(slots)


def _parse_removed(field: _Field) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if field.text == "-":
        return (), (0,) * len(WILDLIFE)
    tiles, counts = _pair(field, ":", "TILE.TILE...:five counts")
    ids = tiles.integers(".", "tile ids", high=HABITAT_TILE_COUNT - 1) if tiles.text else ()
    return ids, counts.integers(",", "removed token counts", len(WILDLIFE))


def _parse_board(field: _Field) -> tuple[Placed, ...]:
    """``TILE@Q,R[rN][SPECIES]`` for each hex, separated by ``;``, in order of (q, r)."""
    placed: list[Placed] = []
    for part in field.parts(";"):
        scan = _Scanner(part)
        tile = scan.number("a tile id", high=len(TILES) - 1)
        scan.expect("@")
        at = scan.at
        q, r = scan.number("q", signed=True), _after(scan, ",", "r")
        if placed and (q, r) <= (placed[-1].q, placed[-1].r):
            raise part.error(at, "a board lists its hexes once each, in order of q, then r")
        rotation = _rotation(scan) if scan.take("r") else 0
        token = (
            SPECIES_OF[scan.letter(SPECIES_LETTERS, "a species letter")] if scan.at < len(part.text) else None
        )
        scan.end("a hex")
        placed.append(Placed(q, r, tile, rotation, token))
    return tuple(placed)


def _rotation(scan: _Scanner) -> int:
    """A rotation after ``r``: 1 to 5 (rotation 0 is written as nothing)."""
    if scan.text[scan.at : scan.at + 1] == "0":
        raise scan.fail("a rotation 1-5")
    return scan.number("a rotation", high=5)


def _check_options(position: Position, named: dict[str, _Field]) -> None:
    """The options make a game (a hidden card of a card choice read as any letter), and
    the cards and secret fields are there exactly when the options call for them."""
    options = dict(position.options)
    if "cards" in options:
        options["cards"] = str(options["cards"]).replace("?", "A")
    try:
        game_options = GameOptions.from_dict(options)
    except CascadiaError as error:
        raise named["options"].error(0, str(error)) from None
    if game_options.two_card_sets != (position.second_cards is not None):
        raise named["cards"].error(0, "two card sets (joined by +) exactly when two_card_sets is on")
    if game_options.secret_cards != bool(position.secret_cards):
        raise named["secret"].error(0, "one secret card per seat exactly when secret_cards is on, else -")


def _check_tiles(position: Position, named: dict[str, _Field], boards: Sequence[_Field]) -> None:
    """Each tile is in one place at most: the market, the hand, a board or out of the game."""
    held = position.to_move.taken_tile if position.to_move and position.to_move.tile_hex is None else None
    places: list[tuple[_Field, list[int]]] = [
        (named["market"], [tile for tile, _ in position.market if tile is not None]),
        (named["to-move"], [] if held is None else [held]),
        (named["removed"], list(position.removed_tiles)),
        *((field, [h.tile for h in board]) for field, board in zip(boards, position.boards, strict=True)),
    ]
    seen: set[int] = set()
    for field, tiles in places:
        for tile in tiles:
            if tile in seen:
                raise field.error(0, f"tile {tile} is in two places")
            seen.add(tile)


def _check_tokens(position: Position, bag: _Field) -> None:
    """Every species' tokens add up: in the bag, the market, the hand, on the boards and
    out of the game, as many as the game started with."""
    options = GameOptions(balanced_bag=dict(position.options).get("balanced_bag") is True)
    start = initial_tokens_per_species(options, len(position.names))
    m = position.to_move
    held = (
        m.taken_wildlife if m is not None and m.taken_wildlife is not None and not m.wildlife_done else None
    )
    for i, species in enumerate(WILDLIFE):
        count = (
            position.bag[i]
            + position.removed_wildlife[i]
            + sum(token == species for _, token in position.market)
            + (held == species)
            + sum(h.wildlife == species for board in position.boards for h in board)
        )
        if count != start:
            raise bag.error(0, f"{count} {species} tokens in play and in the bag, not {start}")
