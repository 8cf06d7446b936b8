"""What one seat may see, as numpy arrays: what is hidden (another seat's unrevealed
secret card) decided by :func:`~cascadia.projections.player_view.hidden_species`, the
one place that decides it; the seed, and so the future draws, never read.

Seats are listed from the observer's point of view: row 0 is the observing seat, then
the seats after it in seat order. Habitats and species are numbered 1.. in the order of
:data:`~cascadia.domain.components.HABITATS` (mountain, forest, prairie, wetland, river)
and :data:`~cascadia.domain.components.WILDLIFE` (bear, elk, salmon, hawk, fox), 0 for
none. Every entry is a small whole number (``int8``, ``int16`` for counts)::

    =================  ======================  ===========================================
    key                shape                   content
    =================  ======================  ===========================================
    ``boards``         (players, 1387, 14)     per seat, per hex of
                                               :data:`~cascadia.bots.agents.actions.BOARD_HEXES`:
                                               0 a tile is there; 1-6 the habitat on its
                                               edges 0..5 (hexgrid.py directions); 7 the
                                               species of its token; 8-12 each species it
                                               allows (0/1); 13 it is a keystone
    ``market``         (4, 9)                  per slot: 0 a tile is there; 1-2 its
                                               habitats A and B (B 0 for a keystone; A
                                               is on edges ``rot .. rot+2``); 3-7 each
                                               species it allows; 8 the slot's token
    ``held``           (9,)                    the tile and token taken this turn, as a
                                               market row
    ``turn``           (9,)                    turn number, tiles left in the stack, the
                                               active seat (0 = the observer), then 0/1:
                                               three-alike wipe used, free choice bought,
                                               taken, tile placed, token placed or
                                               returned, game over
    ``nature_tokens``  (players,)              each seat's nature tokens
    ``cards``          (2, 5, 6)               per card set (the second only with
                                               ``two_card_sets``), per species, one-hot of
                                               A B C D family intermediate; all 0 when
                                               hidden
    ``secret_cards``   (players, 5)            one-hot species of each seat's secret card
                                               (RULES.md 7.10), all 0 when hidden or none
    ``bag``            (5,)                    tokens of each species in the bag
    ``action_mask``    (9743,)                 1 for each legal action of the observer
                                               (all 0 when it is not the observer's turn)
    =================  ======================  ===========================================
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import islice
from operator import attrgetter
from typing import Any

import numpy as np
import numpy.typing as npt
from cascadia.bots.agents.actions import ACTION_COUNT, BOARD_HEXES, HEX_INDEX, SLOTS
from cascadia.domain.components import CARD_LETTERS, HABITATS, TILES, VARIANT_CARDS, WILDLIFE
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import tile_edges
from cascadia.domain.state import GameState
from cascadia.projections.player_view import hidden_species
from gymnasium import spaces

BOARD_CHANNELS = 14
TOKEN_CHANNEL = 7
"""The board channel of a hex's token."""
TILE_FEATURES = 9
TURN_FEATURES = 9
CARD_NAMES: tuple[str, ...] = CARD_LETTERS + VARIANT_CARDS
MAX_COUNT = 200
"""A bound for the counts (turn, stack, nature tokens, bag): none of them reaches it."""

NATURE_TOKENS = attrgetter("nature_tokens")
INT8 = np.dtype(np.int8)
INT16 = np.dtype(np.int16)
"""The dtypes of the arrays (as dtype objects, which numpy takes without looking them up)."""

Observation = dict[str, npt.NDArray[Any]]


def observation_space(players: int) -> spaces.Dict:
    """The space of :func:`observe` for a game of ``players`` seats."""

    def box(high: int, shape: tuple[int, ...], dtype: type = np.int8) -> spaces.Box:
        return spaces.Box(0, high, shape, dtype)

    return spaces.Dict(
        {
            "boards": box(len(HABITATS), (players, len(BOARD_HEXES), BOARD_CHANNELS)),
            "market": box(len(HABITATS), (SLOTS, TILE_FEATURES)),
            "held": box(len(HABITATS), (TILE_FEATURES,)),
            "turn": box(MAX_COUNT, (TURN_FEATURES,), np.int16),
            "nature_tokens": box(MAX_COUNT, (players,), np.int16),
            "cards": box(1, (2, len(WILDLIFE), len(CARD_NAMES))),
            "secret_cards": box(1, (players, len(WILDLIFE))),
            "bag": box(MAX_COUNT, (len(WILDLIFE),), np.int16),
            "action_mask": box(1, (ACTION_COUNT,)),
        }
    )


def observe(game: Game, seat: int, action_mask: npt.NDArray[np.int8]) -> Observation:
    """What ``seat`` sees of ``game`` now, with (a copy of) its ``action_mask`` (all 0
    when another seat is to move): :meth:`Observer.observe` of a new observer."""
    return Observer(len(game.state.players)).observe(game.state, seat, action_mask.copy())


class Observer:
    """The observations of one game, as it goes on: each seat's board planes are kept
    between observations and only the hexes where a tile or a token went since are
    written (tiles and tokens never move, RULES.md 4.3); the rest is read from the state
    each time, what is hidden decided by :func:`~cascadia.projections.player_view.hidden_species`."""

    def __init__(self, players: int) -> None:
        self._boards = np.zeros((players, len(BOARD_HEXES), BOARD_CHANNELS), dtype=np.int8)
        self._planes = memoryview(self._boards).cast("B")
        """:attr:`_boards` as bytes, written a hex's row at a time (cheaper than numpy's
        indexing for a few bytes)."""
        self._orders = [[*range(seat, players), *range(seat)] for seat in range(players)]
        """Per observing seat, the seats in the order it sees them."""
        self._tiled = [0] * players
        """Per seat, the number of tiles written onto its planes."""
        self._tokened = [0] * players
        """Per seat, the number of tokens written onto its planes."""
        self._cards: dict[tuple[int | bool, ...], tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]] = {}
        """Per seat, whether the game is over and which secret cards are revealed, its
        ``cards`` and ``secret_cards``."""
        self._market = Kept(_market_array)
        self._nature_tokens = Kept(_seat_counts_array)
        self._bag = Kept(_counts_array)

    def observe(self, state: GameState, seat: int, action_mask: npt.NDArray[np.int8]) -> Observation:
        """What ``seat`` sees of ``state`` (a state of this observer's game), with its
        ``action_mask``, which the observation holds as it is (the caller hands in an array
        of the observation's own); every other array a new one."""
        players = state.players
        order = self._orders[seat]
        self._bring_up_to_date(state)
        cards, secret_cards = self._cards_seen(state, seat, order)
        ts = state.turn_state
        turn = [
            state.turn,
            state.stack_size,
            (state.current - seat) % len(players),
            ts.three_wipe_used,
            ts.free_choice,
            ts.taken_tile is not None,
            ts.tile_hex is not None,
            ts.wildlife_done,
            state.finished,
        ]
        return {
            "boards": self._boards.copy()
            if seat == 0
            else np.concatenate((self._boards[seat:], self._boards[:seat])),
            "market": self._market.copy_of((*state.market_tiles, *state.market_wildlife)),
            "held": HELD_ROWS[TILE_ROW[ts.taken_tile]][TOKEN_ROW[ts.taken_wildlife]].copy(),
            "turn": np.fromiter(turn, INT16, TURN_FEATURES),
            "nature_tokens": self._nature_tokens.copy_of((seat, *map(NATURE_TOKENS, players))),
            "cards": cards.copy(),
            "secret_cards": secret_cards.copy(),
            "bag": self._bag.copy_of(tuple(state.bag)),
            "action_mask": action_mask,
        }

    def _cards_seen(
        self, state: GameState, seat: int, order: list[int]
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        """The ``cards`` and ``secret_cards`` arrays of ``seat`` (the seats in ``order``),
        kept while what decides the species hidden from it stays the same (cards and
        secret cards are dealt once: the game's end and the secret cards revealed,
        :func:`~cascadia.projections.player_view.hidden_species`, asked only then)."""
        key = (seat, state.finished, *state.secret_revealed)
        seen = self._cards.get(key)
        if seen is None:
            hidden = hidden_species(state, seat)
            secrets = [state.secret_cards[s] if state.secret_cards else None for s in order]
            cards = _cards(state.cards, hidden) + _cards(state.second_cards or {}, hidden)
            secret_rows = b"".join(_one_hot_row(None if s in hidden else s, WILDLIFE) for s in secrets)
            seen = self._cards[key] = (
                np.frombuffer(cards, INT8).reshape(2, len(WILDLIFE), len(CARD_NAMES)),
                np.frombuffer(secret_rows, INT8).reshape(len(order), len(WILDLIFE)),
            )
        return seen

    def _bring_up_to_date(self, state: GameState) -> None:
        """Write onto the board planes the tiles and tokens placed since the last call:
        the last entries of each board's maps, which only ever grow (nothing on a board
        moves or goes, RULES.md 4.3, and a dict keeps its keys in the order they came)."""
        planes = self._planes
        for seat, player in enumerate(state.players):
            tiles, wildlife = player.environment.tiles, player.environment.wildlife
            if len(tiles) != self._tiled[seat]:
                for h, (tile, rotation) in islice(reversed(tiles.items()), len(tiles) - self._tiled[seat]):
                    at = (seat * len(BOARD_HEXES) + HEX_INDEX[h]) * BOARD_CHANNELS
                    planes[at : at + BOARD_CHANNELS] = TILE_ROW_BYTES[tile][rotation]
                self._tiled[seat] = len(tiles)
            if len(wildlife) != self._tokened[seat]:
                for h, species in islice(reversed(wildlife.items()), len(wildlife) - self._tokened[seat]):
                    at = (seat * len(BOARD_HEXES) + HEX_INDEX[h]) * BOARD_CHANNELS
                    planes[at + TOKEN_CHANNEL] = SPECIES_NUMBER[species]
                self._tokened[seat] = len(wildlife)


def _number(value: str | None, names: tuple[str, ...]) -> int:
    return 0 if value is None else names.index(value) + 1


SPECIES_NUMBER: dict[str, int] = {species: _number(species, WILDLIFE) for species in WILDLIFE}
"""Per species, its number in the ``boards`` planes."""


def _one_hot(value: str | None, names: tuple[str, ...]) -> list[int]:
    return [int(value == name) for name in names]


def _one_hot_all(values: tuple[str, ...], names: tuple[str, ...]) -> list[int]:
    return [int(name in values) for name in names]


def _tile_rows() -> npt.NDArray[np.int8]:
    """Per tile id and rotation, the board channels of that tile (no token)."""
    rows = np.zeros((len(TILES), 6, BOARD_CHANNELS), dtype=np.int8)
    for tile in TILES:
        for rotation in range(6):
            row = rows[tile.id, rotation]
            row[0] = 1
            row[1:7] = [HABITATS.index(h) + 1 for h in tile_edges(tile.id, rotation)]
            row[8:13] = _one_hot_all(tile.wildlife, WILDLIFE)
            row[13] = tile.keystone
    return rows


TILE_ROW_BYTES: list[list[bytes]] = [[row.tobytes() for row in rows] for rows in _tile_rows()]
"""Per tile id and rotation, the board channels of that tile (no token), as bytes: what
:class:`Observer` writes onto a placed tile's hex."""


def _market_rows() -> npt.NDArray[np.int8]:
    """Per tile id + 1 (0: no tile) and species number (0: no token), a market row: the
    tile's presence, its habitats A and B (B 0 for a keystone) and its species, then the
    token."""
    rows = np.zeros((len(TILES) + 1, len(WILDLIFE) + 1, TILE_FEATURES), dtype=np.int8)
    for tile in TILES:
        habitats = [HABITATS.index(h) + 1 for h in tile.habitats] + [0]
        rows[tile.id + 1, :, :8] = (1, *habitats[:2], *_one_hot_all(tile.wildlife, WILDLIFE))
    rows[:, :, 8] = range(len(WILDLIFE) + 1)
    return rows


MARKET_ROWS = _market_rows()


MARKET_ROW_BYTES: list[list[bytes]] = [[row.tobytes() for row in rows] for rows in MARKET_ROWS]
""":data:`MARKET_ROWS` as bytes."""
HELD_ROWS: list[list[npt.NDArray[np.int8]]] = [list(rows) for rows in MARKET_ROWS]
""":data:`MARKET_ROWS` as lists of rows, from which the ``held`` array is copied (two list
lookups cost less than numpy's indexing by two numbers)."""


TILE_ROW: dict[int | None, int] = {None: 0} | {tile.id: tile.id + 1 for tile in TILES}
"""Per tile id (``None``: no tile), its first index in :data:`MARKET_ROWS` (and :data:`HELD_ROWS`)."""
TOKEN_ROW: dict[str | None, int] = {None: 0} | SPECIES_NUMBER
"""Per species (``None``: no token), its second index in :data:`MARKET_ROWS`."""


def _market_array(market: tuple[int | str | None, ...]) -> npt.NDArray[np.int8]:
    """The ``market`` array of ``market`` (its tiles, then its tokens; read-only): its rows
    from :data:`MARKET_ROW_BYTES` put together slot by slot (a plain loop: cheaper than
    pairing the tiles with the tokens), padded with rows of nothing to :data:`SLOTS`."""
    slots = len(market) // 2
    rows = b""
    for slot in range(slots):
        rows += MARKET_ROW_BYTES[TILE_ROW[market[slot]]][TOKEN_ROW[market[slots + slot]]]
    return np.ndarray((SLOTS, TILE_FEATURES), INT8, rows.ljust(SLOTS * TILE_FEATURES, b"\0"))


def _counts_array(counts: tuple[int, ...]) -> npt.NDArray[np.int16]:
    """An array of ``counts``."""
    return np.array(counts, dtype=INT16)


def _seat_counts_array(of: tuple[int, ...]) -> npt.NDArray[np.int16]:
    """An array of counts from the point of view of a seat: ``of`` is that seat, then a
    count per seat in seat order; the seat's count first, then those of the seats after
    it."""
    seat, *counts = of
    return _counts_array((*counts[seat:], *counts[:seat]))


class Kept:
    """One array of an observation, kept while what it is made from stays the same (a
    market between takes, a bag between refills), and handed out as copies."""

    __slots__ = ("_array", "_make", "_of")

    def __init__(self, make: Callable[[Any], npt.NDArray[Any]]) -> None:
        self._make = make
        self._of: object = None
        self._array: npt.NDArray[Any] = np.zeros(0)

    def copy_of(self, of: tuple[Any, ...]) -> npt.NDArray[Any]:
        """A copy of ``make(of)``, made again only when ``of`` differs from the last."""
        if of != self._of:
            self._array = self._make(of)
            self._of = of
        return self._array.copy()


def _cards(cards: dict[str, str], hidden: list[str]) -> bytes:
    """Per species, the one-hot of its card's letter (all 0 for a ``hidden`` species), as
    the bytes of a ``cards`` array's card set."""
    return b"".join(
        _one_hot_row(None if species in hidden else cards.get(species), CARD_NAMES) for species in WILDLIFE
    )


@cache
def _one_hot_row(value: str | None, names: tuple[str, ...]) -> bytes:
    """:func:`_one_hot` as bytes, made once per value (the card and secret-card arrays
    are put together from these rows: cheaper than numpy reading nested lists)."""
    return bytes(_one_hot(value, names))
