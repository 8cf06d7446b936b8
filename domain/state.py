"""The state of a game and ``evolve``, the only way it changes.

``evolve(state, event)`` applies one recorded event; replay is a fold of ``evolve``
over a game's events. It never draws: every drawn outcome is in the event, and the
draw position advances by one per outcome so that the next draw continues the stream.

The tile stack is modelled as the pool of habitat tiles not yet revealed plus the
number of tiles left in the stack: each tile drawn from the stack is a uniform draw
from the unrevealed pool. That is exactly a random subset of ``20 x players + 3``
tiles in random order (RULES.md 3.2), and it keeps the hidden order out of the state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from cascadia.domain import events as ev
from cascadia.domain.components import (
    HABITAT_TILE_COUNT,
    TOKENS_PER_SPECIES,
    WILDLIFE,
    starter_layout,
)
from cascadia.domain.environment import Environment
from cascadia.domain.errors import CascadiaError
from cascadia.domain.options import RULES_V1, GameOptions, check_rules_version, parse_card_choice

MARKET_SIZE = 4
OPENING_POSITIONS: tuple[tuple[int, int], ...] = ((0, 0), (1, 0))
"""Where the two opening tiles of ``no_starter`` go (RULES.md 7.7 says only 'adjacent')."""
SPECIES_INDEX = {species: i for i, species in enumerate(WILDLIFE)}


class CorruptEventError(CascadiaError):
    """An event that cannot follow the events before it (a damaged or forged stream)."""


@dataclass(slots=True)
class PlayerState:
    """One seat: its environment and its nature tokens."""

    name: str
    environment: Environment = field(default_factory=Environment)
    nature_tokens: int = 0
    nature_earned: int = 0
    nature_spent: int = 0
    starter: int | None = None


@dataclass(slots=True)
class TurnState:
    """What the active player has done so far this turn."""

    three_wipe_used: bool = False
    free_choice: bool = False
    taken_tile: int | None = None
    taken_wildlife: str | None = None
    tile_hex: tuple[int, int] | None = None
    wildlife_done: bool = False

    @property
    def has_taken(self) -> bool:
        return self.taken_tile is not None


@dataclass(slots=True)
class GameState:
    """Everything about a game that its events determine."""

    game_id: UUID
    seed: int = 0
    names: list[str] = field(default_factory=list)
    options: GameOptions = field(default_factory=GameOptions)
    rules_version: str = ""
    version: int = 0
    draw_position: int = 0
    cards: dict[str, str] = field(default_factory=dict)
    second_cards: dict[str, str] | None = None
    secret_cards: list[str | None] = field(default_factory=list)
    secret_revealed: list[bool] = field(default_factory=list)
    unrevealed: list[int] = field(default_factory=lambda: list(range(HABITAT_TILE_COUNT)))
    stack_size: int = 0
    bag: list[int] = field(default_factory=lambda: [TOKENS_PER_SPECIES] * len(WILDLIFE))
    market_tiles: list[int | None] = field(default_factory=lambda: [None] * MARKET_SIZE)
    market_wildlife: list[str | None] = field(default_factory=lambda: [None] * MARKET_SIZE)
    players: list[PlayerState] = field(default_factory=list)
    first_player: int = 0
    current: int = 0
    turn: int = 0
    turn_state: TurnState = field(default_factory=TurnState)
    removed_tiles: list[int] = field(default_factory=list)
    removed_wildlife: list[int] = field(default_factory=lambda: [0] * len(WILDLIFE))
    wipes: int = 0
    set_aside: list[str] = field(default_factory=list)
    """RULES.md 4.1-4.2 (rules version 2): tokens set aside by the wipes of an
    overpopulation not yet resolved; empty between commands."""
    finished: bool = False

    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def is_solo(self) -> bool:
        return len(self.players) == 1

    @property
    def active(self) -> PlayerState:
        return self.players[self.current]

    @property
    def holds_set_aside(self) -> bool:
        """Whether wiped tokens stay aside until the overpopulation is resolved (RULES.md
        4.1, rules version 2), rather than going back to the bag after each single wipe
        (rules version 1)."""
        return self.rules_version != RULES_V1

    def bag_counts(self) -> dict[str, int]:
        return dict(zip(WILDLIFE, self.bag, strict=True))

    def copy(self) -> GameState:
        """A deep copy, for what-if search (bots) and snapshots."""
        return GameState(
            game_id=self.game_id,
            seed=self.seed,
            names=list(self.names),
            options=self.options,
            rules_version=self.rules_version,
            version=self.version,
            draw_position=self.draw_position,
            cards=dict(self.cards),
            second_cards=dict(self.second_cards) if self.second_cards else None,
            secret_cards=list(self.secret_cards),
            secret_revealed=list(self.secret_revealed),
            unrevealed=list(self.unrevealed),
            stack_size=self.stack_size,
            bag=list(self.bag),
            market_tiles=list(self.market_tiles),
            market_wildlife=list(self.market_wildlife),
            players=[
                PlayerState(
                    p.name,
                    p.environment.copy(),
                    p.nature_tokens,
                    p.nature_earned,
                    p.nature_spent,
                    p.starter,
                )
                for p in self.players
            ],
            first_player=self.first_player,
            current=self.current,
            turn=self.turn,
            turn_state=TurnState(
                self.turn_state.three_wipe_used,
                self.turn_state.free_choice,
                self.turn_state.taken_tile,
                self.turn_state.taken_wildlife,
                self.turn_state.tile_hex,
                self.turn_state.wildlife_done,
            ),
            removed_tiles=list(self.removed_tiles),
            removed_wildlife=list(self.removed_wildlife),
            wipes=self.wipes,
            set_aside=list(self.set_aside),
            finished=self.finished,
        )


def _take_from_bag(state: GameState, species: str) -> None:
    i = SPECIES_INDEX.get(species)
    if i is None or state.bag[i] <= 0:
        raise CorruptEventError(f"no {species!r} token left in the bag to draw")
    state.bag[i] -= 1


def _reveal_tile(state: GameState, tile: int) -> None:
    try:
        state.unrevealed.remove(tile)
    except ValueError:
        raise CorruptEventError(f"tile {tile} is not in the stack") from None
    if state.stack_size <= 0:
        raise CorruptEventError("the stack is empty")
    state.stack_size -= 1


def _game_started(state: GameState, e: ev.GameStarted) -> None:
    state.seed = e.seed
    state.names = list(e.names)
    state.options = GameOptions.from_dict(dict(e.options))
    state.rules_version = check_rules_version(e.rules_version)
    state.players = [PlayerState(name) for name in e.names]
    state.bag = [initial_tokens_per_species(state.options, e.players)] * len(WILDLIFE)
    size = state.options.market_size
    state.market_tiles = [None] * size
    state.market_wildlife = [None] * size


def _stack_prepared(state: GameState, e: ev.TileStackPrepared) -> None:
    state.stack_size = e.size


def _cards_drawn(state: GameState, e: ev.ScoringCardsDrawn) -> None:
    state.cards = dict(e.cards)
    if parse_card_choice(state.options.cards) is None:  # drawn at random (any spelling of "random")
        state.draw_position += len(WILDLIFE)
    if e.second_cards is not None:
        state.second_cards = dict(e.second_cards)
        state.draw_position += len(WILDLIFE)


def _opening_tiles(state: GameState, e: ev.OpeningTilesDealt) -> None:
    if len(e.tiles) != len(state.players):
        raise CorruptEventError("two opening tiles per player expected")
    for player, tiles in zip(state.players, e.tiles, strict=True):
        for position, tile in zip(OPENING_POSITIONS, tiles, strict=True):
            _reveal_tile(state, tile)
            player.environment.tiles[position] = (tile, 0)
            state.draw_position += 1


def _secret_cards(state: GameState, e: ev.SecretCardsDealt) -> None:
    if len(e.species) != len(state.players):
        raise CorruptEventError("one secret card per player expected")
    state.secret_cards = list(e.species)
    state.secret_revealed = [False] * len(e.species)
    state.draw_position += len(e.species)


def _secret_revealed(state: GameState, e: ev.SecretCardRevealed) -> None:
    if state.secret_cards[e.player] != e.species:
        raise CorruptEventError(f"seat {e.player}'s secret card is not {e.species}")
    state.secret_revealed[e.player] = True


def _starters_dealt(state: GameState, e: ev.StarterTilesDealt) -> None:
    if len(e.starters) != len(state.players):
        raise CorruptEventError("one starter tile per player expected")
    for player, starter in zip(state.players, e.starters, strict=True):
        player.starter = starter
        for position, tile, rotation in starter_layout(starter):
            player.environment.tiles[position] = (tile, rotation)
    state.draw_position += len(e.starters)


def _first_player(state: GameState, e: ev.FirstPlayerChosen) -> None:
    state.first_player = state.current = e.seat
    state.turn = 1
    state.draw_position += 1


def _market_refilled(state: GameState, e: ev.MarketRefilled) -> None:
    for slot, tile, wildlife in e.fills:
        if tile is not None:
            if state.market_tiles[slot] is not None:
                raise CorruptEventError(f"market slot {slot} already holds a tile")
            _reveal_tile(state, tile)
            state.market_tiles[slot] = tile
            state.draw_position += 1
        if wildlife is not None:
            if state.market_wildlife[slot] is not None:
                raise CorruptEventError(f"market slot {slot} already holds a token")
            _take_from_bag(state, wildlife)
            state.market_wildlife[slot] = wildlife
            state.draw_position += 1


def all_alike(market: list[str | None]) -> bool:
    """Whether every market slot holds a token of one species: the overpopulation of
    RULES.md 4.1 (with ``market_of_three``, 7.5, three slots)."""
    return market[0] is not None and market.count(market[0]) == len(market)


def _replace_wildlife(
    state: GameState, slots: list[int], set_aside: list[str], drawn: list[str], resolved: bool
) -> None:
    """Set the tokens of ``slots`` aside and draw ``drawn`` into them.

    Rules version 1: the set-aside tokens go back to the bag at once. Version 2 (RULES.md
    4.1-4.2): they join those already aside and stay there until the overpopulation is
    resolved (``resolved``: the market is no longer all alike, or the wipe was
    unbreakable), except that a draw from an empty bag first puts them all back."""
    for slot, old in zip(slots, set_aside, strict=True):
        if state.market_wildlife[slot] != old:
            raise CorruptEventError(f"market slot {slot} does not hold {old!r}")
    if not state.holds_set_aside:
        for slot, new in zip(slots, drawn, strict=True):
            _take_from_bag(state, new)
            state.market_wildlife[slot] = new
        for old in set_aside:
            state.bag[SPECIES_INDEX[old]] += 1
    else:
        state.set_aside.extend(set_aside)
        for slot, new in zip(slots, drawn, strict=True):
            if not any(state.bag):  # the bag ran out in the middle of the resolution
                _return_set_aside(state)
            _take_from_bag(state, new)
            state.market_wildlife[slot] = new
        if resolved or not all_alike(state.market_wildlife):
            _return_set_aside(state)
    state.draw_position += len(drawn)
    state.wipes += 1


def _return_set_aside(state: GameState) -> None:
    """RULES.md 4.1 (version 2): all the set-aside tokens go back to the bag."""
    for old in state.set_aside:
        state.bag[SPECIES_INDEX[old]] += 1
    state.set_aside = []


def _overpopulation(state: GameState, e: ev.OverpopulationWiped) -> None:
    _replace_wildlife(state, e.slots, e.set_aside, e.drawn, resolved=e.unbreakable)
    if not e.mandatory:
        state.turn_state.three_wipe_used = True


def _nature_spent(state: GameState, e: ev.NatureTokenSpent) -> None:
    player = state.players[e.player]
    player.nature_tokens -= e.cost
    player.nature_spent += e.cost
    if e.action == "free_choice":
        state.turn_state.free_choice = True


def _wildlife_replaced(state: GameState, e: ev.WildlifeReplaced) -> None:
    _replace_wildlife(state, e.slots, e.set_aside, e.drawn, resolved=False)


def _pair_taken(state: GameState, e: ev.PairTaken) -> None:
    ts = state.turn_state
    ts.taken_tile = state.market_tiles[e.tile_slot]
    ts.taken_wildlife = state.market_wildlife[e.wildlife_slot]
    if ts.taken_tile != e.tile or ts.taken_wildlife != e.wildlife:
        raise CorruptEventError("the market does not hold the pair the event says was taken")
    state.market_tiles[e.tile_slot] = None
    state.market_wildlife[e.wildlife_slot] = None


def _tile_placed(state: GameState, e: ev.TilePlaced) -> None:
    state.players[e.player].environment.tiles[(e.q, e.r)] = (e.tile, e.rotation)
    state.turn_state.tile_hex = (e.q, e.r)


def _wildlife_placed(state: GameState, e: ev.WildlifePlaced) -> None:
    state.players[e.player].environment.wildlife[(e.q, e.r)] = e.wildlife
    state.turn_state.wildlife_done = True


def _nature_earned(state: GameState, e: ev.NatureTokenEarned) -> None:
    player = state.players[e.player]
    player.nature_tokens += 1
    player.nature_earned += 1


def _wildlife_returned(state: GameState, e: ev.WildlifeReturned) -> None:
    state.bag[SPECIES_INDEX[e.wildlife]] += 1
    state.turn_state.wildlife_done = True


def _solo_discard(state: GameState, e: ev.SoloPairDiscarded) -> None:
    state.market_tiles[e.tile_slot] = None
    state.market_wildlife[e.wildlife_slot] = None
    state.removed_tiles.append(e.tile)
    state.removed_wildlife[SPECIES_INDEX[e.wildlife]] += 1
    state.market_tiles = slide_away_from_stack(state.market_tiles)
    state.market_wildlife = slide_away_from_stack(state.market_wildlife)


def _turn_ended(state: GameState, e: ev.TurnEnded) -> None:
    state.turn_state = TurnState()
    state.current = (state.current + 1) % len(state.players)
    state.turn = e.turn + 1


def _game_ended(state: GameState, e: ev.GameEnded) -> None:
    state.finished = True
    state.turn = e.turns


def slide_away_from_stack(slots: list[Any]) -> list[Any]:
    """RULES.md 4.4 (solo): the remaining items keep their order and move to the
    highest-numbered slots, leaving the empty slots nearest the stack."""
    remaining = [item for item in slots if item is not None]
    return [None] * (len(slots) - len(remaining)) + remaining


_EVOLVERS: dict[type, Callable[[GameState, Any], None]] = {
    ev.GameStarted: _game_started,
    ev.TileStackPrepared: _stack_prepared,
    ev.ScoringCardsDrawn: _cards_drawn,
    ev.StarterTilesDealt: _starters_dealt,
    ev.OpeningTilesDealt: _opening_tiles,
    ev.SecretCardsDealt: _secret_cards,
    ev.SecretCardRevealed: _secret_revealed,
    ev.FirstPlayerChosen: _first_player,
    ev.MarketRefilled: _market_refilled,
    ev.OverpopulationWiped: _overpopulation,
    ev.NatureTokenSpent: _nature_spent,
    ev.WildlifeReplaced: _wildlife_replaced,
    ev.PairTaken: _pair_taken,
    ev.TilePlaced: _tile_placed,
    ev.WildlifePlaced: _wildlife_placed,
    ev.NatureTokenEarned: _nature_earned,
    ev.WildlifeReturned: _wildlife_returned,
    ev.SoloPairDiscarded: _solo_discard,
    ev.TurnEnded: _turn_ended,
    ev.GameEnded: _game_ended,
}


def evolve(state: GameState, event: ev.GameEvent) -> GameState:
    """Apply one event to ``state`` (in place) and return it."""
    if event.originator_version != state.version + 1:
        raise CorruptEventError(f"event {event.originator_version} cannot follow event {state.version}")
    try:
        _EVOLVERS[type(event)](state, event)
    except (IndexError, KeyError, TypeError, ValueError) as error:
        raise CorruptEventError(f"event {event.originator_version} ({event.type}): {error}") from None
    state.version = event.originator_version
    return state


def initial_tokens_per_species(options: GameOptions, players: int) -> int:
    """RULES.md 3.1: 20 of each species, or with the balanced bag 5 per player."""
    return 5 * players if options.balanced_bag else TOKENS_PER_SPECIES


def tile_counts(state: GameState) -> dict[str, int]:
    """Where the 85 habitat tiles are: conservation says these add up to 85."""
    held = 0 if state.turn_state.tile_hex is not None or state.turn_state.taken_tile is None else 1
    placed = sum(
        1 for p in state.players for tile, _ in p.environment.tiles.values() if tile < HABITAT_TILE_COUNT
    )
    return {
        "stack": state.stack_size,
        "out_of_play": len(state.unrevealed) - state.stack_size,
        "market": sum(1 for t in state.market_tiles if t is not None),
        "held": held,
        "environments": placed,
        "removed": len(state.removed_tiles),
    }


def wildlife_counts(state: GameState) -> dict[str, int]:
    """Where the 100 wildlife tokens are: conservation says these add up to 100."""
    ts = state.turn_state
    return {
        "bag": sum(state.bag),
        "market": sum(1 for w in state.market_wildlife if w is not None),
        "held": 1 if ts.taken_wildlife is not None and not ts.wildlife_done else 0,
        "environments": sum(len(p.environment.wildlife) for p in state.players),
        "removed": sum(state.removed_wildlife),
        "set_aside": len(state.set_aside),
    }
