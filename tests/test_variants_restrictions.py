"""The rule restrictions of RULES.md 7 and the variants of RULES.md 3 as the engine
enforces them: each option changes what it should (a refused command leaves the game
unchanged) and nothing else.

Seat 0's starter 0 (RULES.md 3.4, components): the mountain keystone (bear) at (0, 0),
forest/wetland (elk, hawk, fox) at (-1, 1) with rotation 4 (forest on edges 4, 5, 0,
wetland on 1, 2, 3), river/prairie (bear, salmon) at (0, 1) with rotation 5 (river on
edges 5, 0, 1, prairie on 2, 3, 4). Its open hexes are (1, -1), (1, 0), (-1, 0),
(0, -1), (-1, 2), (-2, 2), (-2, 1), (1, 1) and (0, 2).
"""

from __future__ import annotations

from collections import Counter

import pytest
from cascadia.bots.registry import make_bots, play_game
from cascadia.domain import events as ev
from cascadia.domain.components import HABITAT_TILE_COUNT, WILDLIFE
from cascadia.domain.errors import (
    InvalidOptionError,
    MarketChoiceError,
    NatureTokenError,
    OverpopulationError,
    TilePlacementError,
    WildlifePlacementError,
)
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import distinct_rotations
from cascadia.domain.options import RESTRICTIONS, GameOptions
from cascadia.domain.state import GameState, evolve, tile_counts, wildlife_counts
from cascadia.projections.player_view import player_view
from conftest import assert_refused, rig_tokens
from test_variants_helpers import of_type, open_hexes, stage, touches_same_habitat

STARTER0_OPEN = {(1, -1), (1, 0), (-1, 0), (0, -1), (-1, 2), (-2, 2), (-2, 1), (1, 1), (0, 2)}
# 17: wetland keystone (hawk); 25: mountain/forest (bear, hawk); 26: mountain/forest
# (bear, fox); 34: mountain/prairie (hawk, fox).
MARKET = [(17, "hawk"), (25, "bear"), (26, "fox"), (34, "elk")]


def opts(**changes) -> GameOptions:
    return GameOptions(cards="all-a", **changes)


def turns_per_seat(events) -> Counter:
    return Counter(e.player for e in of_type(events, ev.TurnEnded))


def played(seed: int, players: int, **options) -> tuple[Game, list[ev.GameEvent]]:
    game = play_game(seed, ["random"] * players, GameOptions(**options))
    return game, game.collect_events()


# -- options themselves ------------------------------------------------------------------


def test_the_ten_restrictions_are_options_off_by_default():
    assert len(RESTRICTIONS) == 10
    default = GameOptions()
    assert all(getattr(default, name) is False for name in RESTRICTIONS)
    for name in RESTRICTIONS:
        assert GameOptions(**{name: True}).changed() == {name: True}


@pytest.mark.parametrize(
    "options",
    [
        {"must_match": True, "must_not_match": True},
        {"corridors_of_three": True, "corridors_min_five": True},
        {"two_card_sets": True, "cards": "family"},
        {"two_card_sets": True, "cards": "intermediate"},
    ],
)
def test_options_that_exclude_each_other_are_refused(options):
    with pytest.raises(InvalidOptionError):
        GameOptions(**options)


def test_unknown_option_in_a_stored_game_is_refused():
    with pytest.raises(InvalidOptionError, match="no_bears"):
        GameOptions.from_dict({**GameOptions().to_dict(), "no_bears": True})


# -- must_match (RULES.md 7.1) ---------------------------------------------------------------


def test_must_match_lists_only_placements_touching_the_same_habitat():
    game = stage(MARKET, opts(must_match=True))
    game.take(0)  # the wetland keystone: only the forest/wetland hex shows wetland edges (1, 2, 3)
    assert sorted(game.legal_tile_placements()) == [((-2, 2), 0), ((-1, 2), 0)]
    assert game.legal_tile_positions() == [(-2, 2), (-1, 2)]


def test_must_match_refuses_a_tile_touching_no_same_habitat_edge():
    game = stage(MARKET, opts(must_match=True))
    game.take(0)
    assert_refused(game, TilePlacementError, game.place_tile, 1, -1, 0)  # next to the mountain
    assert_refused(game, TilePlacementError, game.place_tile, 0, 2, 0)  # next to a prairie edge
    game.place_tile(-1, 2, 0)
    (placed,) = of_type(game.collect_events(), ev.TilePlaced)
    assert (placed.q, placed.r, placed.tile) == (-1, 2, 17)


def test_without_must_match_the_same_tile_goes_anywhere_adjacent():
    game = stage(MARKET)
    game.take(0)
    assert {h for h, _ in game.legal_tile_placements()} == STARTER0_OPEN
    game.place_tile(1, -1, 0)
    assert game.state.players[0].environment.tiles[(1, -1)] == (17, 0)


def test_must_match_dual_tile_rotations_follow_the_edges():
    game = stage(MARKET, opts(must_match=True))
    game.take(3)  # mountain/prairie 34
    tiles = game.state.players[0].environment.tiles
    expected = {
        (h, rot) for h in STARTER0_OPEN for rot in range(6) if touches_same_habitat(tiles, h, 34, rot)
    }
    assert set(game.legal_tile_placements()) == expected
    assert 0 < len(expected) < 9 * 6
    # (1, -1) touches only the mountain keystone, across its edge 3 (SW): legal exactly
    # when edge 3 of the new tile is mountain, i.e. for rotations 1, 2 and 3
    assert sorted(rot for h, rot in expected if h == (1, -1)) == [1, 2, 3]
    assert_refused(game, TilePlacementError, game.place_tile, 1, -1, 0)
    game.place_tile(1, -1, 2)


@pytest.mark.parametrize("restriction", [{}, {"must_match": True}, {"must_not_match": True}])
def test_the_market_s_placements_are_each_tile_s_own(restriction):
    """``market_tile_rotations`` looks ahead for the whole market: per tile, exactly what
    ``legal_tile_rotations`` of that tile gives, under either restriction or none."""
    game = stage(MARKET, opts(**restriction))
    ahead = game.market_tile_rotations()
    assert sorted(ahead) == sorted(tile for tile, _ in MARKET)
    for tile, rotations in ahead.items():
        assert rotations == game.legal_tile_rotations(tile)


@pytest.mark.parametrize("restriction", [{}, {"must_match": True}, {"must_not_match": True}])
def test_tile_placements_read_the_list_of_legal_placements_without_making_it(restriction):
    """``tile_placements`` (what the random bot picks from by place) has the length and,
    place by place, the items of ``legal_tile_placements``, at every placement of a game."""
    game = Game.start(7, ["random"] * 3, opts(**restriction))
    bots = make_bots(["random"] * 3, 7)
    checked = 0
    while not game.finished:
        if game.state.turn_state.has_taken and game.state.turn_state.tile_hex is None:
            placements = game.tile_placements()
            assert len(placements) == len(game.legal_tile_placements())
            assert [placements[i] for i in range(len(placements))] == game.legal_tile_placements()
            with pytest.raises(IndexError):
                placements[len(placements)]
            checked += 1
        game.execute(bots[game.current_player].choose(game))
    assert checked >= 60  # every turn, once more when its token went first


def test_must_match_allows_any_placement_when_nothing_fits():
    # two mountain keystones, no starter: a wetland keystone matches nowhere
    options = opts(must_match=True, no_starter=True)
    game = stage(MARKET, options, openings=[[0, 1], [3, 4]])
    game.take(0)
    allowed = open_hexes([(0, 0), (1, 0)])
    assert len(allowed) == 8
    assert sorted(game.legal_tile_placements()) == sorted((h, 0) for h in allowed)
    game.place_tile(1, -1, 0)
    assert game.state.players[0].environment.tiles[(1, -1)] == (17, 0)


# -- must_not_match (RULES.md 7.2) -----------------------------------------------------------


def test_must_not_match_lists_only_placements_touching_no_same_habitat():
    game = stage(MARKET, opts(must_not_match=True))
    game.take(0)
    assert {h for h, _ in game.legal_tile_placements()} == STARTER0_OPEN - {(-1, 2), (-2, 2)}
    assert_refused(game, TilePlacementError, game.place_tile, -1, 2, 0)
    assert_refused(game, TilePlacementError, game.place_tile, -2, 2, 3)
    game.place_tile(1, 1, 0)
    assert game.state.players[0].environment.tiles[(1, 1)] == (17, 0)


def test_must_not_match_dual_tile_is_the_converse_of_must_match():
    game = stage(MARKET, opts(must_not_match=True))
    game.take(3)
    tiles = game.state.players[0].environment.tiles
    expected = {
        (h, rot) for h in STARTER0_OPEN for rot in range(6) if not touches_same_habitat(tiles, h, 34, rot)
    }
    assert set(game.legal_tile_placements()) == expected
    assert sorted(rot for h, rot in expected if h == (1, -1)) == [0, 4, 5]
    assert_refused(game, TilePlacementError, game.place_tile, 1, -1, 2)
    game.place_tile(1, -1, 5)


def test_must_not_match_allows_any_placement_when_nothing_fits():
    # two mountain keystones: a mountain keystone touches a mountain edge wherever it goes
    options = opts(must_not_match=True, no_starter=True)
    game = stage([(4, "hawk"), (25, "bear"), (26, "fox"), (34, "elk")], options, openings=[[0, 1], [2, 3]])
    game.take(0)
    assert sorted(game.legal_tile_placements()) == sorted((h, 0) for h in open_hexes([(0, 0), (1, 0)]))
    game.place_tile(0, -1, 0)


def placements_audit(events: list[ev.GameEvent], must_match: bool) -> int:
    """Fold ``events`` and check every TilePlaced against the restriction with an
    independent search: a placement breaking it is allowed only if no placement kept it.
    Returns how many placements had a choice."""
    state = GameState(events[0].originator_id)
    with_choice = 0
    for event in events:
        if isinstance(event, ev.TilePlaced):
            tiles = state.players[event.player].environment.tiles
            keeps = [
                touches_same_habitat(tiles, h, event.tile, rot) == must_match
                for h in open_hexes(tiles)
                for rot in distinct_rotations(event.tile)
            ]
            this = touches_same_habitat(tiles, (event.q, event.r), event.tile, event.rotation) == must_match
            assert this or not any(keeps), f"event {event.originator_version} breaks the restriction"
            with_choice += any(keeps) and not all(keeps)
        evolve(state, event)
    return with_choice


@pytest.mark.parametrize("must_match", [True, False])
@pytest.mark.parametrize("players", [1, 3])
def test_whole_games_keep_the_placement_restriction(must_match, players):
    name = "must_match" if must_match else "must_not_match"
    for seed in (1, 2):
        _, events = played(seed, players, **{name: True})
        assert placements_audit(events, must_match) > 10
    # and a game without the restriction does break it somewhere (the audit can fail)
    _, events = played(1, players)
    with pytest.raises(AssertionError):
        placements_audit(events, must_match)


# -- market_of_three (RULES.md 7.5) --------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 4])
def test_market_of_three_has_three_pairs_and_a_stack_one_smaller(players):
    game = Game.start(5, players, GameOptions(market_of_three=True))
    events = game.collect_events()
    (prepared,) = of_type(events, ev.TileStackPrepared)
    assert prepared.size == 20 * max(players, 2) + 2
    state = game.state
    assert len(state.market_tiles) == len(state.market_wildlife) == 3
    assert None not in state.market_tiles and None not in state.market_wildlife
    assert state.stack_size == 20 * max(players, 2) + 2 - 3
    assert [f[0] for f in of_type(events, ev.MarketRefilled)[0].fills] == [0, 1, 2]


def test_market_of_three_has_no_slot_3():
    game = stage([(25, "bear"), (26, "elk"), (34, "fox")], opts(market_of_three=True), nature=[1])
    assert game.legal_takes() == [(0, 0), (1, 1), (2, 2)]
    assert_refused(game, MarketChoiceError, game.take, 3)
    assert_refused(game, NatureTokenError, game.spend_nature, "wipe", [3])
    game.spend_nature("free_choice")
    assert sorted(game.legal_takes()) == [(t, w) for t in range(3) for w in range(3)]


def test_market_of_three_three_alike_is_the_mandatory_wipe_at_setup():
    wiped = 0
    for seed in range(150):
        game = Game.start(seed, 2, GameOptions(market_of_three=True))
        events = game.collect_events()
        for wipe in of_type(events, ev.OverpopulationWiped):
            wiped += 1
            assert wipe.mandatory is True
            assert wipe.slots == [0, 1, 2]
            assert len(set(wipe.set_aside)) == 1
        assert len(set(game.state.market_wildlife)) > 1, seed
    assert wiped > 0  # about 4% of setups draw three alike


def test_market_of_three_has_no_optional_wipe():
    game = stage([(25, "bear"), (26, "bear"), (34, "bear")], opts(market_of_three=True))
    assert game.can_wipe_three() is False
    assert_refused(game, OverpopulationError, game.wipe_three)
    # the standard market: three alike of four may be wiped
    game = stage([(25, "bear"), (26, "bear"), (34, "bear"), (17, "hawk")])
    assert game.can_wipe_three() is True
    game.wipe_three()
    (wipe,) = of_type(game.collect_events(), ev.OverpopulationWiped)
    assert wipe.mandatory is False and wipe.slots == [0, 1, 2]


def test_market_of_three_a_nature_wipe_making_three_alike_is_wiped_again():
    game = stage([(25, "bear"), (26, "bear"), (34, "elk")], opts(market_of_three=True), nature=[1])
    rig_tokens(game, bag={"bear": 5})  # the replacement for the elk can only be a bear
    game.spend_nature("wipe", [2])
    events = game.collect_events()
    (replaced,) = of_type(events, ev.WildlifeReplaced)
    assert replaced.drawn == ["bear"]
    wipes = of_type(events, ev.OverpopulationWiped)
    assert wipes, "three bears in a market of three must be wiped"
    assert all(w.mandatory and w.slots == [0, 1, 2] for w in wipes)
    assert wipes[0].set_aside == ["bear"] * 3
    assert len(set(game.state.market_wildlife)) > 1
    assert sum(wildlife_counts(game.state).values()) == 100


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_market_of_three_games_still_last_20_turns_each(players):
    game, events = played(players, players, market_of_three=True)
    assert turns_per_seat(events) == dict.fromkeys(range(players), 20)
    assert all(w.mandatory for w in of_type(events, ev.OverpopulationWiped))
    assert sum(tile_counts(game.state).values()) == 85
    assert sum(wildlife_counts(game.state).values()) == 100
    for taken in of_type(events, ev.PairTaken):
        assert 0 <= taken.tile_slot < 3 and 0 <= taken.wildlife_slot < 3


# -- no_starter (RULES.md 7.7) -------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_no_starter_deals_two_opening_tiles_per_seat(players):
    game = Game.start(9, players, GameOptions(no_starter=True))
    events = game.collect_events()
    assert of_type(events, ev.StarterTilesDealt) == []
    (dealt,) = of_type(events, ev.OpeningTilesDealt)
    assert len(dealt.tiles) == players and all(len(pair) == 2 for pair in dealt.tiles)
    every = [t for pair in dealt.tiles for t in pair]
    assert len(set(every)) == 2 * players
    assert all(0 <= t < HABITAT_TILE_COUNT for t in every)
    market = set(game.state.market_tiles)
    assert not market & set(every)
    for player, (a, b) in zip(game.state.players, dealt.tiles, strict=True):
        assert player.environment.tiles == {(0, 0): (a, 0), (1, 0): (b, 0)}
        assert player.environment.wildlife == {}
        assert player.starter is None
    size = 20 * max(players, 2) + 3
    assert of_type(events, ev.TileStackPrepared)[0].size == size
    assert game.state.stack_size == size - 2 * players - 4
    counts = tile_counts(game.state)
    assert sum(counts.values()) == 85
    assert counts["environments"] == 2 * players
    assert Game.replay(events).state == game.state


@pytest.mark.parametrize(("players", "turns"), [(1, 19), (2, 18), (3, 18), (4, 18)])
def test_no_starter_games_last_18_turns_each_solo_19(players, turns):
    game, events = played(3, players, no_starter=True)
    assert turns_per_seat(events) == dict.fromkeys(range(players), turns)
    assert game.finished and game.state.stack_size < (2 if players == 1 else 1)
    assert sum(tile_counts(game.state).values()) == 85
    assert sum(wildlife_counts(game.state).values()) == 100
    for player in game.state.players:
        assert len(player.environment.tiles) == 2 + turns


# -- nature_cost_two (RULES.md 7.8) --------------------------------------------------------


def test_nature_cost_two_one_token_buys_nothing():
    game = stage(MARKET, opts(nature_cost_two=True), nature=[1])
    assert game.nature_cost() == 2
    assert game.nature_actions() == []
    assert_refused(game, NatureTokenError, game.spend_nature, "free_choice")
    assert_refused(game, NatureTokenError, game.spend_nature, "wipe", [0])
    # the same token buys an action in a standard game
    game = stage(MARKET, nature=[1])
    assert game.nature_cost() == 1
    assert game.nature_actions() == ["free_choice", "wipe"]


def test_nature_cost_two_an_action_spends_two_tokens():
    game = stage(MARKET, opts(nature_cost_two=True), nature=[3])
    assert game.nature_actions() == ["free_choice", "wipe"]
    game.spend_nature("free_choice")
    (spent,) = of_type(game.collect_events(), ev.NatureTokenSpent)
    assert (spent.action, spent.cost) == ("free_choice", 2)
    player = game.state.players[0]
    assert (player.nature_tokens, player.nature_spent) == (1, 2)
    assert game.nature_actions() == []
    assert_refused(game, NatureTokenError, game.spend_nature, "wipe", [1])
    game.take(0, 3)  # free choice was bought


def test_nature_cost_two_wipe():
    game = stage(MARKET, opts(nature_cost_two=True), nature=[2])
    game.spend_nature("wipe", [0, 1])
    events = game.collect_events()
    assert of_type(events, ev.NatureTokenSpent)[0].cost == 2
    assert of_type(events, ev.WildlifeReplaced)[0].slots == [0, 1]
    assert game.state.players[0].nature_tokens == 0
    assert game.nature_actions() == []


# -- no_token_on_new_tile (RULES.md 7.9) ---------------------------------------------------


def test_no_token_on_new_tile_refuses_the_new_tile_and_allows_an_older_one():
    game = stage(MARKET, opts(no_token_on_new_tile=True))
    game.take(1)  # tile 25 (bear, hawk) with a bear
    game.place_tile(1, -1, 0)
    # bears may go on the keystone (0, 0) and the river/prairie hex (0, 1), not on (1, -1)
    assert game.legal_wildlife_targets() == [(0, 0), (0, 1)]
    assert_refused(game, WildlifePlacementError, game.place_wildlife, 1, -1)
    game.place_wildlife(0, 1)
    assert game.state.players[0].environment.wildlife == {(0, 1): "bear"}


def test_without_the_option_the_new_tile_takes_the_token():
    game = stage(MARKET)
    game.take(1)
    game.place_tile(1, -1, 0)
    assert game.legal_wildlife_targets() == [(0, 0), (0, 1), (1, -1)]
    game.place_wildlife(1, -1)
    assert game.state.players[0].environment.wildlife == {(1, -1): "bear"}


def test_no_token_on_new_tile_token_before_tile():
    game = stage(MARKET, opts(no_token_on_new_tile=True))
    game.take(1)
    assert game.legal_wildlife_targets() == [(0, 0), (0, 1)]
    game.place_wildlife(0, 0)  # the keystone: a nature token
    game.place_tile(1, -1, 0)
    assert game.state.players[0].nature_tokens == 1
    assert game.state.turn == 2


def test_no_token_on_new_tile_whole_games():
    for players in (1, 2, 4):
        _, events = played(players, players, no_token_on_new_tile=True)
        placed_tile = None
        tokens = 0
        for event in events:
            if isinstance(event, ev.TilePlaced):
                placed_tile = (event.q, event.r)
            elif isinstance(event, ev.WildlifePlaced):
                tokens += 1
                assert (event.q, event.r) != placed_tile
            elif isinstance(event, ev.TurnEnded):
                placed_tile = None
        assert tokens > 5


# -- secret_cards (RULES.md 7.10) ----------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 4])
def test_secret_cards_are_dealt_with_distinct_species(players):
    seen = set()
    for seed in range(8):
        game = Game.start(seed, players, GameOptions(secret_cards=True))
        events = game.collect_events()
        (dealt,) = of_type(events, ev.SecretCardsDealt)
        assert len(dealt.species) == players == len(set(dealt.species))
        assert set(dealt.species) <= set(WILDLIFE)
        assert game.state.secret_cards == dealt.species
        assert game.state.secret_revealed == [False] * players
        seen.update(dealt.species)
        # dealt during setup, before the market is filled
        types = [type(e) for e in events]
        assert types.index(ev.SecretCardsDealt) < types.index(ev.MarketRefilled)
    assert len(seen) >= 4  # the deal is random


def test_no_secret_cards_without_the_option():
    game = Game.start(1, 3)
    assert of_type(game.collect_events(), ev.SecretCardsDealt) == []
    assert player_view(game.state, 0)["secret_cards"] == []


def test_secret_card_is_revealed_on_the_first_spend_only():
    game = stage(MARKET, opts(secret_cards=True), secret=["elk", "fox"], nature=[2, 0])
    assert player_view(game.state, 0)["secret_cards"] == ["elk", None]
    assert player_view(game.state, 1)["secret_cards"] == [None, "fox"]
    assert player_view(game.state, None)["secret_cards"] == ["elk", "fox"]
    assert player_view(game.state, 1)["secret_cards"] == [None, "fox"]
    game.spend_nature("wipe", [0])
    events = game.collect_events()
    assert [type(e) for e in events[:2]] == [ev.SecretCardRevealed, ev.NatureTokenSpent]
    assert events[0].payload() == {"player": 0, "species": "elk"}
    assert player_view(game.state, 1)["secret_cards"] == ["elk", "fox"]
    assert player_view(game.state, 0)["secret_cards"] == ["elk", None]  # seat 1 has not spent
    game.spend_nature("free_choice")
    assert of_type(game.collect_events(), ev.SecretCardRevealed) == []


def test_a_refused_spend_reveals_nothing():
    game = stage(MARKET, opts(secret_cards=True, nature_cost_two=True), secret=["hawk", "bear"], nature=[1])
    assert_refused(game, NatureTokenError, game.spend_nature, "free_choice")  # costs 2
    game = stage(MARKET, opts(secret_cards=True), secret=["hawk", "bear"], nature=[1])
    assert_refused(game, NatureTokenError, game.spend_nature, "wipe", [4])
    assert_refused(game, NatureTokenError, game.spend_nature, "wipe", [])
    assert game.state.secret_revealed == [False, False]
    assert player_view(game.state, 1)["secret_cards"] == [None, "bear"]


def test_secret_cards_whole_games_reveal_once_per_spending_seat():
    for seed in (1, 2, 3):
        game, events = played(seed, 4, secret_cards=True)
        spenders = {e.player for e in of_type(events, ev.NatureTokenSpent)}
        revealed = [e.player for e in of_type(events, ev.SecretCardRevealed)]
        assert sorted(revealed) == sorted(spenders)
        for e in of_type(events, ev.SecretCardRevealed):
            assert e.species == game.state.secret_cards[e.player]
            following = events[events.index(e) + 1]
            assert isinstance(following, ev.NatureTokenSpent) and following.player == e.player
        assert game.state.secret_revealed == [seat in spenders for seat in range(4)]


# -- two_card_sets (RULES.md 7.6): the deal ------------------------------------------------


@pytest.mark.parametrize("cards", ["random", "all-a", "A,B,C,D,A"])
def test_two_card_sets_second_set_has_another_letter_per_species(cards):
    seconds = Counter()
    for seed in range(25):
        game = Game.start(seed, 2, GameOptions(cards=cards, two_card_sets=True))
        (drawn,) = of_type(game.collect_events(), ev.ScoringCardsDrawn)
        assert set(drawn.second_cards) == set(WILDLIFE)
        for species in WILDLIFE:
            assert drawn.second_cards[species] in "ABCD"
            assert drawn.second_cards[species] != drawn.cards[species]
            seconds[species, drawn.second_cards[species]] += 1
        assert game.state.second_cards == drawn.second_cards
    # every other letter turns up for every species
    assert len(seconds) == 3 * 5 if cards != "random" else len(seconds) == 4 * 5


def test_one_card_set_without_the_option():
    game = Game.start(3, 2)
    (drawn,) = of_type(game.collect_events(), ev.ScoringCardsDrawn)
    assert drawn.second_cards is None and game.state.second_cards is None


# -- the balanced bag (RULES.md 3.1) ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_balanced_bag_holds_five_per_species_per_player(players):
    game = Game.start(4, players, GameOptions(balanced_bag=True))
    state = game.state
    market = Counter(state.market_wildlife)
    for species in WILDLIFE:
        assert state.bag_counts()[species] + market[species] == 5 * players
    assert sum(wildlife_counts(state).values()) == 25 * players


@pytest.mark.parametrize("players", [2, 3])
def test_balanced_bag_games_play_out_with_their_tokens(players):
    game, events = played(11, players, balanced_bag=True)
    assert turns_per_seat(events) == dict.fromkeys(range(players), 20)
    state = game.state
    assert sum(wildlife_counts(state).values()) == 25 * players
    placed = Counter(s for p in state.players for s in p.environment.wildlife.values())
    market = Counter(state.market_wildlife)
    for species in WILDLIFE:
        total = state.bag_counts()[species] + market[species] + placed[species]
        assert total == 5 * players


@pytest.mark.parametrize("players", [1, 4])
def test_balanced_bag_is_refused_for_solo_and_four_players(players):
    with pytest.raises(InvalidOptionError, match="2 or 3 players"):
        Game.start(1, players, GameOptions(balanced_bag=True))


# -- and nothing else ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["corridors_of_three", "corridors_min_five"])
@pytest.mark.parametrize("players", [1, 3])
def test_scoring_only_options_change_no_event(name, players):
    _, plain = played(6, players)
    _, varied = played(6, players, **{name: True})
    assert varied[0].options == {**plain[0].options, name: True}
    assert [(e.type, e.payload()) for e in varied[1:]] == [(e.type, e.payload()) for e in plain[1:]]


@pytest.mark.parametrize("name", RESTRICTIONS)
def test_options_are_in_game_started_and_replay_to_the_live_state(name):
    for players in (1, 2, 4):
        game, events = played(8, players, **{name: True})
        assert events[0].options == GameOptions(**{name: True}).to_dict()
        assert events[0].options[name] is True
        replayed = Game.replay(events)
        assert replayed.state == game.state
        assert replayed.state.options == GameOptions(**{name: True})
        assert sum(tile_counts(game.state).values()) == 85
