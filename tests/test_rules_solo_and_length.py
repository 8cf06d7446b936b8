"""RULES.md 4.4 (solo refill), 4.5 (end of the game) and 6 (solo)."""

from __future__ import annotations

from collections import Counter

import pytest
from cascadia.bots.registry import play_game
from cascadia.domain import events as ev
from cascadia.domain.state import tile_counts
from conftest import events_of, stage, token_total

TILES4 = (25, 26, 34, 45)
TOKENS4 = ("bear", "elk", "fox", "hawk")


def solo(**kwargs):
    return stage(list(zip(TILES4, TOKENS4, strict=True)), players=1, starters=[0], **kwargs)


@pytest.mark.parametrize(
    ("slot", "discarded", "tiles_after", "tokens_after"),
    [
        (0, 3, [26, 34], ["elk", "fox"]),
        (1, 3, [25, 34], ["bear", "fox"]),
        (2, 3, [25, 26], ["bear", "elk"]),
        (3, 2, [25, 26], ["bear", "elk"]),
    ],
)
def test_solo_refill_discards_the_pair_farthest_from_the_stack_and_slides(
    slot, discarded, tiles_after, tokens_after
):
    game = solo()
    stack = game.state.stack_size
    game.take(slot)
    game.place_tile(1, 0, 0)
    game.return_wildlife()
    events = game.collect_events()
    types = [type(e) for e in events]
    assert types[:6] == [
        ev.PairTaken,
        ev.TilePlaced,
        ev.WildlifeReturned,
        ev.SoloPairDiscarded,
        ev.MarketRefilled,
        ev.TurnEnded,
    ]
    discard, refill = events[3], events[4]
    assert discard.payload() == {
        "tile_slot": discarded,
        "tile": TILES4[discarded],
        "wildlife_slot": discarded,
        "wildlife": TOKENS4[discarded],
    }
    assert [f[0] for f in refill.fills] == [0, 1]
    assert all(tile is not None and token is not None for _, tile, token in refill.fills)
    state = game.state
    assert state.market_tiles == [refill.fills[0][1], refill.fills[1][1], *tiles_after]
    if not events_of(events, ev.OverpopulationWiped):
        assert state.market_wildlife == [refill.fills[0][2], refill.fills[1][2], *tokens_after]
    assert state.removed_tiles == [TILES4[discarded]]
    assert sum(state.removed_wildlife) == 1
    assert state.stack_size == stack - 2
    assert sum(tile_counts(state).values()) == 85
    assert token_total(state) == 100
    assert state.current == 0 and state.turn == 2


def test_solo_refill_after_free_choice_discards_tile_and_token_separately():
    game = solo(nature=[1])
    game.spend_nature("free_choice")
    game.take(3, 0)  # tile 45, and the bear of slot 0
    game.place_tile(1, 0, 0)
    game.place_wildlife(1, 0)  # tile 45 shows a bear
    events = game.collect_events()
    (discard,) = events_of(events, ev.SoloPairDiscarded)
    # tiles left in slots 0, 1, 2: the farthest is slot 2; tokens left in 1, 2, 3: slot 3
    assert discard.payload() == {"tile_slot": 2, "tile": 34, "wildlife_slot": 3, "wildlife": "hawk"}
    (refill,) = events_of(events, ev.MarketRefilled)
    assert [f[0] for f in refill.fills] == [0, 1]
    state = game.state
    assert state.market_tiles[2:] == [25, 26]
    if not events_of(events, ev.OverpopulationWiped):
        assert state.market_wildlife[2:] == ["elk", "fox"]
    assert sum(tile_counts(state).values()) == 85
    assert token_total(state) == 100


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1])
def test_exactly_20_turns_per_player(players, seed):
    game = play_game(seed, ["random"] * players)
    events = game.collect_events()
    ended = events_of(events, ev.TurnEnded)
    assert Counter(e.player for e in ended) == dict.fromkeys(range(players), 20)
    first = game.state.first_player
    assert [e.player for e in ended] == [(first + i) % players for i in range(20 * players)]
    assert [e.turn for e in ended] == list(range(1, 20 * players + 1))
    assert isinstance(events[-1], ev.GameEnded)
    assert isinstance(events[-2], ev.TurnEnded)
    assert events[-1].turns == 20 * players
    assert len(events_of(events, ev.GameEnded)) == 1
    assert game.finished
    state = game.state
    placed = [len(p.environment.tiles) for p in state.players]
    assert placed == [3 + 20] * players
    assert sum(tile_counts(state).values()) == 85
    assert token_total(state) == 100
    if players == 1:
        assert len(events_of(events, ev.SoloPairDiscarded)) == 19
        assert len(state.removed_tiles) == 19
    else:
        assert not events_of(events, ev.SoloPairDiscarded)
        assert state.stack_size == 0


def test_the_game_ends_when_the_stack_cannot_refill():
    game = play_game(5, ["random", "random"])
    events = game.collect_events()
    refills = events_of(events, ev.MarketRefilled)
    # the setup refill, then one per turn but the last
    assert len(refills) == 1 + 39
    last_turn = max(i for i, e in enumerate(events) if isinstance(e, ev.PairTaken))
    assert not events_of(events[last_turn:], ev.MarketRefilled)
