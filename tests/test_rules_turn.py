"""RULES.md 4.2-4.4 for 2-4 players: free choice, take, place, keystone reward, refill,
and every illegal command refused with its typed error and no change."""

from __future__ import annotations

from collections import Counter

import pytest
from cascadia.bots.registry import play_game
from cascadia.domain import events as ev
from cascadia.domain.errors import (
    GameOverError,
    MarketChoiceError,
    NatureTokenError,
    OutOfOrderError,
    TilePlacementError,
    WildlifePlacementError,
)
from cascadia.domain.state import tile_counts
from conftest import assert_refused, events_of, play_simple_turn, stage, token_total

# Market tiles: 25 mountain/forest (bear, hawk), 26 mountain/forest (bear, fox),
# 34 mountain/prairie (hawk, fox), 45 mountain/river (bear, hawk); none shows elk or salmon.
TILES4 = (25, 26, 34, 45)
# Starter 0 (seat 0 unless said otherwise): keystone mountain/bear at (0, 0), forest/wetland
# (elk, hawk, fox) at (-1, 1), river/prairie (bear, salmon) at (0, 1).


def staged(tokens=("bear", "elk", "fox", "hawk"), **kwargs):
    return stage(list(zip(TILES4, tokens, strict=True)), **kwargs)


def test_take_a_pair_place_both_and_the_turn_ends():
    game = staged()
    game.take(2)
    game.place_tile(1, 0, 3)
    game.place_wildlife(1, 0)
    events = game.collect_events()
    assert [type(e) for e in events[:5]] == [
        ev.PairTaken,
        ev.TilePlaced,
        ev.WildlifePlaced,
        ev.MarketRefilled,
        ev.TurnEnded,
    ]
    taken, placed, token, refill, ended = events[:5]
    assert taken.payload() == {"player": 0, "tile_slot": 2, "wildlife_slot": 2, "tile": 34, "wildlife": "fox"}
    assert placed.payload() == {"player": 0, "tile": 34, "q": 1, "r": 0, "rotation": 3}
    assert token.payload() == {"player": 0, "wildlife": "fox", "q": 1, "r": 0}
    assert [f[0] for f in refill.fills] == [2]
    assert refill.fills[0][1] is not None and refill.fills[0][2] is not None
    assert ended.payload() == {"player": 0, "turn": 1}
    state = game.state
    env = state.players[0].environment
    assert env.tiles[(1, 0)] == (34, 3)
    assert env.wildlife == {(1, 0): "fox"}
    assert state.current == 1 and state.turn == 2
    assert all(t is not None for t in state.market_tiles)
    assert all(w is not None for w in state.market_wildlife)
    assert state.market_tiles[:2] + state.market_tiles[3:] == [25, 26, 45]
    assert state.stack_size == 43 - 4 - 1
    assert sum(tile_counts(state).values()) == 85
    assert token_total(state) == 100


def test_play_passes_clockwise_in_seat_order():
    game = staged(players=3, first=2)
    seats = []
    for _ in range(6):
        seats.append(game.current_player)
        play_simple_turn(game)
    assert seats == [2, 0, 1, 2, 0, 1]
    assert game.state.turn == 7


def test_token_on_an_older_tile_before_the_tile_earns_the_keystone_reward():
    game = staged()
    game.take(0)  # tile 25 and a bear
    game.place_wildlife(0, 0)  # the starter's mountain keystone shows a bear
    assert game.state.players[0].nature_tokens == 1
    assert game.current_player == 0, "the turn goes on until the tile is placed"
    game.place_tile(-1, 0, 0)
    events = game.collect_events()
    assert [type(e) for e in events[:6]] == [
        ev.PairTaken,
        ev.WildlifePlaced,
        ev.NatureTokenEarned,
        ev.TilePlaced,
        ev.MarketRefilled,
        ev.TurnEnded,
    ]
    assert events[2].payload() == {"player": 0, "q": 0, "r": 0}
    player = game.state.players[0]
    assert (player.nature_tokens, player.nature_earned) == (1, 1)
    assert player.environment.wildlife == {(0, 0): "bear"}


def test_token_on_an_older_dual_tile_earns_nothing():
    game = staged()
    game.take(0)
    game.place_tile(1, 1, 2)
    game.place_wildlife(0, 1)  # the starter's river/prairie hex shows a bear
    events = game.collect_events()
    assert not events_of(events, ev.NatureTokenEarned)
    assert game.state.players[0].nature_tokens == 0
    assert game.state.players[0].environment.wildlife == {(0, 1): "bear"}


def test_token_on_a_new_keystone_earns_a_nature_token():
    game = stage([(0, "bear"), (26, "elk"), (34, "fox"), (45, "hawk")])  # tile 0: mountain keystone, bear
    game.take(0)
    game.place_tile(1, -1, 5)
    game.place_wildlife(1, -1)
    earned = events_of(game.collect_events(), ev.NatureTokenEarned)
    assert [e.payload() for e in earned] == [{"player": 0, "q": 1, "r": -1}]
    assert game.state.players[0].nature_tokens == 1


def test_token_returned_by_choice_goes_back_to_the_bag():
    game = staged()
    bears = game.state.bag_counts()["bear"]
    game.take(0)
    assert game.legal_wildlife_targets()  # it could be placed
    game.return_wildlife()
    game.place_tile(1, 0, 0)
    events = game.collect_events()
    returned = events_of(events, ev.WildlifeReturned)
    assert [e.payload() for e in returned] == [{"player": 0, "wildlife": "bear"}]
    refill = events_of(events, ev.MarketRefilled)[0]
    refilled_bear = sum(1 for f in refill.fills if f[2] == "bear")
    assert game.state.bag_counts()["bear"] == bears + 1 - refilled_bear
    assert game.state.players[0].environment.wildlife == {}
    assert token_total(game.state) == 100


def test_token_returned_when_no_tile_can_take_it():
    """Solo: the first salmon fills the only salmon hex of starter 0; the second salmon
    (which slid from slot 1 to slot 2) has nowhere to go and returns to the bag."""
    game = stage(
        [(25, "salmon"), (26, "salmon"), (34, "elk"), (45, "hawk")],
        players=1,
        starters=[0],
    )
    game.take(0)
    game.place_tile(1, 0, 0)
    game.place_wildlife(0, 1)
    assert game.state.market_tiles[2:] == [26, 34]
    assert game.state.market_wildlife[2:] == ["salmon", "elk"]
    game.collect_events()
    game.take(2)
    game.place_tile(-1, 0, 0)
    assert game.legal_wildlife_targets() == []
    assert_refused(game, WildlifePlacementError, game.place_wildlife, 0, 1)
    assert_refused(game, WildlifePlacementError, game.place_wildlife, -1, 0)
    salmon = game.state.bag_counts()["salmon"]
    game.return_wildlife()
    events = game.collect_events()
    assert events[0].payload() == {"player": 0, "wildlife": "salmon"}
    refilled = sum(1 for f in events_of(events, ev.MarketRefilled)[0].fills if f[2] == "salmon")
    assert game.state.bag_counts()["salmon"] == salmon + 1 - refilled


# -- free choice (RULES.md 4.2) and the refill of two gaps (4.4) --------------------------------


def test_free_choice_takes_tile_and_token_from_different_slots():
    game = staged(nature=[1])
    assert game.legal_takes() == [(0, 0), (1, 1), (2, 2), (3, 3)]
    game.spend_nature("free_choice")
    assert sorted(game.legal_takes()) == [(t, w) for t in range(4) for w in range(4)]
    game.take(0, 2)
    state = game.state
    assert state.market_tiles == [None, 26, 34, 45]
    assert state.market_wildlife == ["bear", "elk", None, "hawk"]
    game.place_tile(1, 0, 1)  # tile 25 shows bear and hawk
    game.place_wildlife(-1, 1)  # the fox goes on the starter's forest/wetland hex
    events = game.collect_events()
    spent, taken = events[:2]
    assert spent.payload() == {"player": 0, "action": "free_choice", "cost": 1}
    assert taken.payload() == {"player": 0, "tile_slot": 0, "wildlife_slot": 2, "tile": 25, "wildlife": "fox"}
    (refill,) = events_of(events, ev.MarketRefilled)
    assert [f[0] for f in refill.fills] == [0, 2]
    (_, tile0, token0), (_, tile2, token2) = refill.fills
    assert tile0 is not None and token0 is None
    assert tile2 is None and token2 is not None
    assert state.market_tiles == [tile0, 26, 34, 45]
    if not events_of(events, ev.OverpopulationWiped):
        assert state.market_wildlife[:2] + state.market_wildlife[3:] == ["bear", "elk", "hawk"]
        assert state.market_wildlife[2] == token2
    assert all(t is not None for t in state.market_tiles)
    assert all(w is not None for w in state.market_wildlife)
    player = state.players[0]
    assert (player.nature_tokens, player.nature_spent) == (0, 1)
    assert not state.turn_state.free_choice, "free choice lasts one turn"
    assert sum(tile_counts(state).values()) == 85
    assert token_total(state) == 100


def test_free_choice_may_still_take_a_pair():
    game = staged(nature=[1])
    game.spend_nature("free_choice")
    game.take(3)
    assert game.state.turn_state.taken_tile == 45
    assert game.state.turn_state.taken_wildlife == "hawk"


# -- illegal commands: the specific error, and nothing changes ----------------------------------


def test_taking_apart_without_free_choice_is_refused():
    game = staged()
    assert_refused(game, MarketChoiceError, game.take, 0, 2)
    assert_refused(game, MarketChoiceError, game.take, 3, 0)


@pytest.mark.parametrize(
    ("tile_slot", "token_slot"), [(4, None), (-1, None), ("0", None), (None, None), (0, 4), (0, -1)]
)
def test_bad_market_slots_are_refused(tile_slot, token_slot):
    game = staged(nature=[1])
    game.spend_nature("free_choice")
    assert_refused(game, MarketChoiceError, game.take, tile_slot, token_slot)


def test_taking_twice_is_refused():
    game = staged()
    game.take(1)
    assert game.legal_takes() == []
    assert_refused(game, OutOfOrderError, game.take, 2)
    game.place_tile(1, 0, 0)
    assert_refused(game, OutOfOrderError, game.take, 2)


def test_placing_before_taking_is_refused():
    game = staged()
    assert_refused(game, OutOfOrderError, game.place_tile, 1, 0, 0)
    assert_refused(game, OutOfOrderError, game.place_wildlife, 0, 0)
    assert_refused(game, OutOfOrderError, game.return_wildlife)


@pytest.mark.parametrize(
    ("q", "r", "rotation"),
    [
        (0, 0, 0),  # the starter keystone is there
        (-1, 1, 2),
        (0, 1, 0),
        (3, 3, 0),  # shares no edge with a tile
        (2, 0, 0),
        (0, -2, 0),
        (1, 0, 6),  # rotations are 0..5
        (1, 0, -1),
        (1, 0, 1.5),
        (1, 0, True),
        (1.0, 0, 0),
        ("1", 0, 0),
    ],
)
def test_illegal_tile_placements_are_refused(q, r, rotation):
    game = staged()
    game.take(0)
    assert_refused(game, TilePlacementError, game.place_tile, q, r, rotation)


def test_legal_tile_positions_are_the_empty_hexes_next_to_the_tiles():
    game = staged()
    game.take(0)
    positions = game.legal_tile_positions()
    assert positions == sorted(positions)
    assert len(positions) == 9
    assert (0, 0) not in positions and (3, 3) not in positions
    for q, r in positions:
        assert game.state.players[0].environment.is_adjacent_to_tiles((q, r))


def test_placing_the_tile_twice_is_refused():
    game = staged()
    game.take(0)
    game.place_tile(1, 0, 0)
    assert_refused(game, OutOfOrderError, game.place_tile, 2, 0, 0)


@pytest.mark.parametrize(
    ("slot", "q", "r"),
    [
        (0, -1, 1),  # a bear on the forest/wetland hex (elk, hawk, fox)
        (1, 0, 0),  # an elk on the mountain/bear keystone
        (1, 0, 1),  # an elk on the river/prairie hex (bear, salmon)
        (3, 0, 1),  # a hawk on the river/prairie hex
        (0, 5, 5),  # no tile there
        (0, 1, 0),  # not yet a tile there
        (0, "0", 0),
        (0, 0.0, 0),
    ],
)
def test_token_on_a_tile_without_its_species_is_refused(slot, q, r):
    game = staged()
    game.take(slot)
    assert_refused(game, WildlifePlacementError, game.place_wildlife, q, r)


def test_token_on_a_tile_that_already_holds_one_is_refused():
    game = stage([(25, "bear"), (26, "bear"), (34, "fox"), (45, "hawk")], players=1, starters=[0])
    game.take(0)
    game.place_tile(1, 0, 0)
    game.place_wildlife(0, 0)
    assert game.state.market_wildlife[2] == "bear"
    game.take(2)
    assert (0, 0) not in game.legal_wildlife_targets()
    assert_refused(game, WildlifePlacementError, game.place_wildlife, 0, 0)
    game.place_wildlife(0, 1)  # another bear hex is fine
    assert game.state.players[0].environment.wildlife == {(0, 0): "bear", (0, 1): "bear"}


def test_placing_or_returning_the_token_twice_is_refused():
    game = staged()
    game.take(0)
    game.place_wildlife(0, 0)
    assert game.legal_wildlife_targets() == []
    assert_refused(game, OutOfOrderError, game.place_wildlife, 0, 1)
    assert_refused(game, OutOfOrderError, game.return_wildlife)
    game = staged()
    game.take(0)
    game.return_wildlife()
    assert_refused(game, OutOfOrderError, game.place_wildlife, 0, 0)
    assert_refused(game, OutOfOrderError, game.return_wildlife)


def test_spending_nature_tokens_without_any_is_refused():
    game = staged()
    assert game.nature_actions() == []
    assert_refused(game, NatureTokenError, game.spend_nature, "free_choice")
    assert_refused(game, NatureTokenError, game.spend_nature, "wipe", [0])


@pytest.mark.parametrize(("action", "slots"), [("swap", None), ("", None), ("free_choice", [1])])
def test_unknown_nature_actions_are_refused(action, slots):
    game = staged(nature=[1])
    assert_refused(game, NatureTokenError, game.spend_nature, action, slots)


def test_nothing_is_accepted_after_the_game_ended():
    game = play_game(3, ["random", "random"])
    assert game.finished
    assert game.legal_takes() == []
    assert not game.can_wipe_three()
    assert game.nature_actions() == []
    for command, args in [
        (game.take, (0,)),
        (game.take, (0, 1)),
        (game.place_tile, (5, 5, 0)),
        (game.place_wildlife, (0, 0)),
        (game.return_wildlife, ()),
        (game.spend_nature, ("free_choice",)),
        (game.spend_nature, ("wipe", [0])),
        (game.wipe_three, ()),
    ]:
        assert_refused(game, GameOverError, command, *args)


def test_the_refill_fills_only_the_emptied_slot_in_a_three_player_game():
    game = staged(players=3, first=1)
    game.take(1)
    game.place_tile(-1, 0, 0)
    game.return_wildlife()
    events = game.collect_events()
    (refill,) = events_of(events, ev.MarketRefilled)
    assert [f[0] for f in refill.fills] == [1]
    assert game.state.market_tiles[0] == 25 and game.state.market_tiles[2:] == [34, 45]
    assert Counter(type(e) for e in events)[ev.TurnEnded] == 1
    assert game.current_player == 2


def test_the_refusal_of_a_second_token_names_the_first_with_its_article():
    game = stage([(25, "elk"), (26, "elk"), (34, "fox"), (45, "hawk")], players=1, starters=[0])
    game.take(0)
    game.place_tile(1, 0, 0)
    game.place_wildlife(-1, 1)  # the starter hex of elk, hawk and fox
    game.take(1)
    game.place_tile(*game.legal_tile_positions()[0], 0)
    with pytest.raises(WildlifePlacementError, match=r"the tile at \(-1, 1\) already holds an elk: "):
        game.place_wildlife(-1, 1)
