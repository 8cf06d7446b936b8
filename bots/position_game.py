"""A game from a position (projections/position.py), determinised for bots and analysis.

A position holds what its viewer may see; a game needs the rest. The order of the tile
stack and of the bag is never in a game state (the state keeps the unrevealed tiles and
the bag's counts, and each draw comes from the game's seed), so, as the search bot and
the move analysis do (:func:`cascadia.bots.analysis.determinised`), the seed given here
decides the future draws. The scoring cards the viewer may not see (the other seats'
unrevealed secret cards) are drawn from the same seed: each a letter A-D (a second set's
letter is one of the other three), never read from anywhere else.
"""

from __future__ import annotations

from uuid import NAMESPACE_URL, UUID, uuid5

from cascadia.bots.analysis import determinised
from cascadia.domain.components import CARD_LETTERS, FIRST_STARTER_ID, HABITAT_TILE_COUNT, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.domain.rng import DrawStream
from cascadia.domain.state import GameState, PlayerState, TurnState
from cascadia.projections.position import Placed, Position, write_position

POSITION_NAMESPACE = uuid5(NAMESPACE_URL, "https://cascadia.invalid/positions")
_STREAM = b"cascadia-position/hidden-cards/v1"


def position_state(position: Position, seed: int) -> GameState:
    """The game state of ``position``, its hidden cards drawn from ``seed``; its id is
    is :func:`position_id`."""
    cards, second_cards = _cards(position, DrawStream(seed, stream=_STREAM))
    options = dict(position.options)
    if "," in str(options.get("cards", "")):
        options["cards"] = ",".join(cards[species] for species in WILDLIFE)
    to_move = position.to_move
    players = [
        PlayerState(name, _environment(board), tokens, starter=_starter(board))
        for name, board, tokens in zip(position.names, position.boards, position.nature_tokens, strict=True)
    ]
    state = GameState(
        position_id(position),
        seed=seed,
        names=list(position.names),
        options=GameOptions.from_dict(options),
        rules_version=position.rules_version,
        cards=cards,
        second_cards=second_cards,
        secret_cards=[_secret(position, seat) for seat in range(len(position.names))]
        if position.secret_cards
        else [],
        secret_revealed=list(position.secret_revealed),
        unrevealed=_unrevealed(position),
        stack_size=position.stack_size,
        bag=list(position.bag),
        market_tiles=[tile for tile, _ in position.market],
        market_wildlife=[token for _, token in position.market],
        players=players,
        first_player=position.first_player,
        current=to_move.seat if to_move else position.first_player,
        turn=position.turn,
        removed_tiles=list(position.removed_tiles),
        removed_wildlife=list(position.removed_wildlife),
        finished=to_move is None,
    )
    if to_move is not None:
        state.turn_state = TurnState(
            to_move.three_wipe_used,
            to_move.free_choice,
            to_move.taken_tile,
            to_move.taken_wildlife,
            to_move.tile_hex,
            to_move.wildlife_done,
        )
    return state


def position_id(position: Position) -> UUID:
    """The id of the games built from ``position``: a UUIDv5 of its text."""
    return uuid5(POSITION_NAMESPACE, write_position(position))


def position_game(position: Position, seed: int) -> Game:
    """A game at ``position`` whose hidden cards and future draws come from ``seed``."""
    return determinised(position_state(position, seed), seed)


def _cards(position: Position, rng: DrawStream) -> tuple[dict[str, str], dict[str, str] | None]:
    """The card sets, each hidden letter drawn: A-D, and in a second set one of the
    letters the first set does not use for that species."""
    first = {
        species: card or CARD_LETTERS[rng.next(len(CARD_LETTERS))]
        for species, card in zip(WILDLIFE, position.cards, strict=True)
    }
    if position.second_cards is None:
        return first, None
    second = {}
    for species, card in zip(WILDLIFE, position.second_cards, strict=True):
        others = [letter for letter in CARD_LETTERS if letter != first[species]]
        second[species] = card or others[rng.next(len(others))]
    return first, second


def _secret(position: Position, seat: int) -> str:
    """Seat ``seat``'s secret card; when hidden, one of the species whose card the viewer
    may not see, the hidden seats taking them in order (which seat holds which does not
    change the game: only the letters score, and those are drawn); with a variant card,
    which hides no letter, one of the species no seat is seen holding."""
    species = position.secret_cards[seat]
    if species is not None:
        return species
    known = set(position.secret_cards)
    unseen = [s for s, card in zip(WILDLIFE, position.cards, strict=True) if card is None] or [
        s for s in WILDLIFE if s not in known
    ]
    return unseen[sum(s is None for s in position.secret_cards[:seat])]


def _environment(board: tuple[Placed, ...]) -> Environment:
    return Environment(
        {(h.q, h.r): (h.tile, h.rotation) for h in board},
        {(h.q, h.r): h.wildlife for h in board if h.wildlife is not None},
    )


def _starter(board: tuple[Placed, ...]) -> int | None:
    """The starter tile whose hexes the board holds (``None``: ``no_starter``)."""
    return next(((h.tile - FIRST_STARTER_ID) // 3 for h in board if h.tile >= FIRST_STARTER_ID), None)


def _unrevealed(position: Position) -> list[int]:
    """The habitat tiles nobody has seen: not on a board, in the market, in hand or removed."""
    seen = {tile for tile, _ in position.market if tile is not None} | set(position.removed_tiles)
    seen |= {h.tile for board in position.boards for h in board}
    if position.to_move is not None and position.to_move.taken_tile is not None:
        seen.add(position.to_move.taken_tile)
    return [tile for tile in range(HABITAT_TILE_COUNT) if tile not in seen]
