"""RULES.md 3 (setup): events, stack, starters, cards, bag, market, first player, options."""

from __future__ import annotations

from collections import Counter
from uuid import UUID

import pytest
from cascadia.domain import events as ev
from cascadia.domain.components import CARD_LETTERS, HABITAT_TILE_COUNT, TILES, WILDLIFE, starter_layout
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game, derive_game_id
from cascadia.domain.options import RULES_VERSION, GameOptions
from cascadia.domain.rng import draw
from cascadia.domain.state import tile_counts, wildlife_counts

SETUP_TYPES = [
    ev.GameStarted,
    ev.TileStackPrepared,
    ev.ScoringCardsDrawn,
    ev.StarterTilesDealt,
    ev.MarketRefilled,
    ev.FirstPlayerChosen,
]


def setup_events(seed: int = 1, players: int = 2, **options) -> tuple[Game, list[ev.GameEvent]]:
    game = Game.start(seed, players, GameOptions(**options))
    return game, game.collect_events()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_setup_event_order(seed, players):
    game, events = setup_events(seed, players)
    assert [type(e) for e in events[:6]] == SETUP_TYPES
    for extra in events[6:]:
        # only the mandatory four-of-a-kind wipe may follow (RULES.md 4.1)
        assert isinstance(extra, ev.OverpopulationWiped) and extra.mandatory
    assert [e.originator_version for e in events] == list(range(1, len(events) + 1))
    assert all(e.originator_id == game.id for e in events)
    assert game.version == len(events)
    assert not any(e.kind == "decision" for e in events)


def test_game_started_payload():
    game, events = setup_events(5, ["Ann", "Bob", "Cy"], cards="all-a")
    started = events[0]
    assert started.payload() == {
        "seed": 5,
        "players": 3,
        "names": ["Ann", "Bob", "Cy"],
        "options": GameOptions(cards="all-a").to_dict(),
        "rules_version": RULES_VERSION,
    }
    assert game.state.names == ["Ann", "Bob", "Cy"]
    assert [p.name for p in game.state.players] == ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize(("players", "size"), [(1, 43), (2, 43), (3, 63), (4, 83)])
def test_stack_size_is_20_per_player_plus_3_solo_43(players, size):
    game, events = setup_events(3, players)
    (prepared,) = [e for e in events if isinstance(e, ev.TileStackPrepared)]
    assert prepared.size == size
    counts = tile_counts(game.state)
    assert counts["stack"] == size - 4
    assert counts["market"] == 4
    assert counts["out_of_play"] == HABITAT_TILE_COUNT - size
    assert sum(counts.values()) == 85


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_each_player_gets_a_different_starter_at_the_rule_positions(players):
    for seed in range(6):
        game, events = setup_events(seed, players)
        (dealt,) = [e for e in events if isinstance(e, ev.StarterTilesDealt)]
        assert len(dealt.starters) == players == len(set(dealt.starters))
        assert all(0 <= s < 5 for s in dealt.starters)
        for player, starter in zip(game.state.players, dealt.starters, strict=True):
            assert player.starter == starter
            env = player.environment
            assert sorted(env.tiles) == sorted([(0, 0), (-1, 1), (0, 1)])
            key, _ = env.tiles[(0, 0)]
            ll, _ = env.tiles[(-1, 1)]
            lr, _ = env.tiles[(0, 1)]
            assert TILES[key].keystone
            assert len(TILES[ll].wildlife) == 3
            assert len(TILES[lr].wildlife) == 2
            assert {pos: placed for pos, *placed in starter_layout(starter)} == {
                pos: list(placed) for pos, placed in env.tiles.items()
            }
            assert env.wildlife == {}
            assert player.nature_tokens == 0


def test_starters_are_dealt_at_random():
    seen = Counter(
        tuple(e.starters)
        for seed in range(60)
        for e in setup_events(seed, 2)[1]
        if isinstance(e, ev.StarterTilesDealt)
    )
    assert len(seen) > 10


def test_market_of_four_pairs_and_the_bag():
    game, events = setup_events(11, 2)
    refill = events[4]
    assert isinstance(refill, ev.MarketRefilled)
    assert [f[0] for f in refill.fills] == [0, 1, 2, 3]
    tiles = [f[1] for f in refill.fills]
    assert len(set(tiles)) == 4 and all(0 <= t < HABITAT_TILE_COUNT for t in tiles)
    assert all(f[2] in WILDLIFE for f in refill.fills)
    state = game.state
    assert state.market_tiles == tiles
    assert all(w is not None for w in state.market_wildlife)
    shown = Counter(state.market_wildlife)
    assert state.bag_counts() == {s: 20 - shown[s] for s in WILDLIFE}
    assert sum(wildlife_counts(state).values()) == 100


def test_first_player_and_turn():
    seats = Counter()
    for seed in range(40):
        game, events = setup_events(seed, 3)
        (chosen,) = [e for e in events if isinstance(e, ev.FirstPlayerChosen)]
        assert game.state.first_player == game.current_player == chosen.seat
        assert game.state.turn == 1
        assert not game.finished
        seats[chosen.seat] += 1
    assert set(seats) == {0, 1, 2}


def rederive_setup(seed: int, players: int, random_cards: bool) -> tuple[dict, list[int], list, int, int]:
    """Setup's draws from the seed alone, in the documented order (RULES.md 3; the
    MarketRefilled docstring: tile before token within a slot, slots ascending)."""
    position = 0
    cards = None
    if random_cards:
        cards = {}
        for species in WILDLIFE:
            cards[species] = CARD_LETTERS[draw(seed, position, 4)]
            position += 1
    remaining = list(range(5))
    starters = []
    for _ in range(players):
        starters.append(remaining.pop(draw(seed, position, len(remaining))))
        position += 1
    pool = list(range(HABITAT_TILE_COUNT))
    bag = [20] * 5
    fills = []
    for slot in range(4):
        tile = pool.pop(draw(seed, position, len(pool)))
        position += 1
        x = draw(seed, position, sum(bag))
        position += 1
        for i, count in enumerate(bag):
            if x < count:
                bag[i] -= 1
                break
            x -= count
        fills.append([slot, tile, WILDLIFE[i]])
    first = draw(seed, position, players)
    return cards, starters, fills, first, position + 1


@pytest.mark.parametrize("cards", ["random", "RANDOM", " Random "])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_setup_draws_can_be_rederived_from_the_seed(players, cards):
    for seed in (0, 17, 2**64 - 1):
        game, events = setup_events(seed, players, cards=cards)
        want_cards, starters, fills, first, position = rederive_setup(seed, players, True)
        by_type = {type(e): e for e in events[:6]}
        assert by_type[ev.ScoringCardsDrawn].cards == want_cards
        assert by_type[ev.StarterTilesDealt].starters == starters
        assert by_type[ev.MarketRefilled].fills == fills
        assert by_type[ev.FirstPlayerChosen].seat == first
        wiped = sum(len(e.drawn) for e in events[6:])
        assert game.state.draw_position == position + wiped


def test_fixed_cards_use_no_draws():
    game, events = setup_events(17, 2, cards="all-a")
    _, starters, fills, first, position = rederive_setup(17, 2, False)
    assert events[3].starters == starters
    assert events[4].fills == fills
    assert events[5].seat == first
    assert game.state.draw_position == position + sum(len(e.drawn) for e in events[6:])


def test_random_cards_one_letter_per_species():
    drawn = []
    for seed in range(30):
        game, events = setup_events(seed, 2)
        cards = events[2].cards
        assert list(cards) == list(WILDLIFE)
        assert set(cards.values()) <= set(CARD_LETTERS)
        assert game.state.cards == cards
        drawn.append(tuple(cards.values()))
    assert len(set(drawn)) > 20
    assert {letter for cards in drawn for letter in cards} == set(CARD_LETTERS)


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ("all-a", dict.fromkeys(WILDLIFE, "A")),
        ("ALL-A", dict.fromkeys(WILDLIFE, "A")),
        ("A,B,C,D,A", {"bear": "A", "elk": "B", "salmon": "C", "hawk": "D", "fox": "A"}),
        ("d, c, b, a, d", {"bear": "D", "elk": "C", "salmon": "B", "hawk": "A", "fox": "D"}),
        ("family", dict.fromkeys(WILDLIFE, "family")),
        ("intermediate", dict.fromkeys(WILDLIFE, "intermediate")),
    ],
)
def test_cards_by_option(option, expected):
    game, events = setup_events(4, 2, cards=option)
    assert events[2].cards == expected
    assert game.state.cards == expected


@pytest.mark.parametrize(("players", "per_species"), [(2, 10), (3, 15)])
def test_balanced_bag_5_per_species_per_player(players, per_species):
    game, _ = setup_events(8, players, balanced_bag=True)
    state = game.state
    shown = Counter(state.market_wildlife)
    assert state.bag_counts() == {s: per_species - shown[s] for s in WILDLIFE}
    assert sum(wildlife_counts(state).values()) == 5 * per_species


@pytest.mark.parametrize("players", [1, 4])
def test_balanced_bag_refused_for_1_and_4_players(players):
    with pytest.raises(InvalidOptionError):
        Game.start(1, players, GameOptions(balanced_bag=True))


@pytest.mark.parametrize("players", [0, 5, ["a"] * 5, []])
def test_player_count_1_to_4(players):
    with pytest.raises(InvalidOptionError):
        Game.start(1, players)


@pytest.mark.parametrize("seed", [-1, 2**64, True, 2.0])
def test_bad_seed_refused(seed):
    with pytest.raises(InvalidOptionError):
        Game.start(seed, 2)


@pytest.mark.parametrize(
    "options",
    [
        {"cards": "A,B,C,D"},
        {"cards": "A,B,C,D,E"},
        {"cards": "A,B,C,D,A,B"},
        {"cards": "first-game"},
        {"cards": ""},
        {"salmon_runs": "loose"},
        {"elk_rings": "ring"},
    ],
)
def test_invalid_options_raise(options):
    with pytest.raises(InvalidOptionError):
        GameOptions(**options)


def test_unknown_option_in_a_log_is_refused():
    with pytest.raises(InvalidOptionError):
        GameOptions.from_dict({"cards": "random", "colour": "blue"})
    assert GameOptions.from_dict(GameOptions(cards="all-a").to_dict()) == GameOptions(cards="all-a")


def test_game_ids():
    options = GameOptions()
    a = Game.start(5, 2)
    assert a.id == derive_game_id(5, ["player 1", "player 2"], options)
    assert Game.start(5, 2).id == a.id
    assert Game.start(6, 2).id != a.id
    assert Game.start(5, 3).id != a.id
    assert Game.start(5, 2, GameOptions(cards="all-a")).id != a.id
    chosen = UUID("12345678-1234-5678-1234-567812345678")
    assert Game.start(5, 2, game_id=chosen).id == chosen


def test_same_seed_same_setup():
    _, first = setup_events(31, 3)
    _, second = setup_events(31, 3)
    assert first == second
    _, other = setup_events(32, 3)
    assert [e.payload() for e in other] != [e.payload() for e in first]


@pytest.mark.parametrize("bad", ["\x00", "\n", "\r", "\t", "\u2028", "\u2029", "\u202e", "\u2066", "\u200f"])
def test_a_seat_name_holds_no_control_line_break_or_bidi_character(bad):
    with pytest.raises(InvalidOptionError, match="seat name"):
        Game.start(1, ["ann", f"b{bad}b"], GameOptions())
    Game.start(1, ["ann", "Zoë 🦊"], GameOptions())  # any other text is a name
