"""What one seat may see, as numpy arrays: built from
:func:`~cascadia.projections.player_view.player_view`, the one place that decides what is
hidden (another seat's unrevealed secret card, the seed and so the future draws).

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

from typing import Any

import numpy as np
import numpy.typing as npt
from cascadia.bots.agents.actions import ACTION_COUNT, BOARD_HEXES, HEX_INDEX, SLOTS
from cascadia.domain.components import CARD_LETTERS, HABITATS, TILES, VARIANT_CARDS, WILDLIFE
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import tile_edges
from cascadia.projections.player_view import player_view
from gymnasium import spaces

BOARD_CHANNELS = 14
TILE_FEATURES = 9
TURN_FEATURES = 9
CARD_NAMES: tuple[str, ...] = CARD_LETTERS + VARIANT_CARDS
MAX_COUNT = 200
"""A bound for the counts (turn, stack, nature tokens, bag): none of them reaches it."""

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
    when another seat is to move)."""
    view = player_view(game.state, seat, scores=False)
    players = len(view["players"])
    order = [(seat + k) % players for k in range(players)]
    ts = view["turn_state"]
    turn = [
        view["turn"],
        view["stack_size"],
        order.index(view["current_player"]),
        ts["three_wipe_used"],
        ts["free_choice"],
        ts["taken_tile"] is not None,
        ts["tile_placed_at"] is not None,
        ts["wildlife_done"],
        view["finished"],
    ]
    return {
        "boards": _boards([view["players"][s]["environment"] for s in order]),
        "market": np.array(
            [_tile(row["tile"], row["wildlife"]) for row in view["market"]]
            + [[0] * TILE_FEATURES] * (SLOTS - len(view["market"])),
            dtype=np.int8,
        ),
        "held": np.array(_tile(ts["taken_tile"], ts["taken_wildlife"]), dtype=np.int8),
        "turn": np.array(turn, dtype=np.int16),
        "nature_tokens": np.array([view["players"][s]["nature_tokens"] for s in order], dtype=np.int16),
        "cards": np.array([_cards(view["cards"]), _cards(view["second_cards"] or {})], dtype=np.int8),
        "secret_cards": np.array(
            [_one_hot(_secret(view["secret_cards"], s), WILDLIFE) for s in order], dtype=np.int8
        ).reshape(players, len(WILDLIFE)),
        "bag": np.array([view["bag"][species] for species in WILDLIFE], dtype=np.int16),
        "action_mask": action_mask.copy(),
    }


def _number(value: str | None, names: tuple[str, ...]) -> int:
    return 0 if value is None else names.index(value) + 1


def _one_hot(value: str | None, names: tuple[str, ...]) -> list[int]:
    return [int(value == name) for name in names]


def _one_hot_all(values: tuple[str, ...], names: tuple[str, ...]) -> list[int]:
    return [int(name in values) for name in names]


def _tile_rows() -> npt.NDArray[np.int8]:
    """Per tile id and rotation, the board channels of that tile (no token): what
    :func:`_boards` copies onto a placed tile's hex."""
    rows = np.zeros((len(TILES), 6, BOARD_CHANNELS), dtype=np.int8)
    for tile in TILES:
        for rotation in range(6):
            row = rows[tile.id, rotation]
            row[0] = 1
            row[1:7] = [HABITATS.index(h) + 1 for h in tile_edges(tile.id, rotation)]
            row[8:13] = _one_hot_all(tile.wildlife, WILDLIFE)
            row[13] = tile.keystone
    return rows


TILE_ROWS = _tile_rows()


def _boards(environments: list[list[dict[str, Any]]]) -> npt.NDArray[np.int8]:
    """The seats' board planes from their placed tiles (``player_view``'s environments)."""
    boards = np.zeros((len(environments), len(BOARD_HEXES), BOARD_CHANNELS), dtype=np.int8)
    placed = [(seat, p) for seat, environment in enumerate(environments) for p in environment]
    seats = [seat for seat, _ in placed]
    hexes = [HEX_INDEX[p["q"], p["r"]] for _, p in placed]
    boards[seats, hexes] = TILE_ROWS[[p["tile"] for _, p in placed], [p["rotation"] for _, p in placed]]
    boards[seats, hexes, 7] = [_number(p["wildlife"], WILDLIFE) for _, p in placed]
    return boards


def _tile(tile_id: int | None, token: str | None) -> list[int]:
    """A market row: the tile's presence, habitats and species, then the token."""
    if tile_id is None:
        return [0] * (TILE_FEATURES - 1) + [_number(token, WILDLIFE)]
    tile = TILES[tile_id]
    habitats = [HABITATS.index(h) + 1 for h in tile.habitats] + [0]
    return [1, *habitats[:2], *_one_hot_all(tile.wildlife, WILDLIFE), _number(token, WILDLIFE)]


def _cards(cards: dict[str, str | None]) -> list[list[int]]:
    return [_one_hot(cards.get(species), CARD_NAMES) for species in WILDLIFE]


def _secret(secret_cards: list[str | None], seat: int) -> str | None:
    return secret_cards[seat] if secret_cards else None
