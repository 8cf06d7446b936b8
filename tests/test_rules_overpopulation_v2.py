"""RULES.md 4.1-4.2 under rules version 2 (``cascadia-rules-2``): the tokens an
overpopulation sets aside go back to the bag only once it is resolved, not after each
single wipe; the corner cases of 4.1 (the bag running out in the middle of a
repetition, the truly unbreakable wipe); and games and logs of version 1 kept as such."""

from __future__ import annotations

from collections import Counter

import pytest
from cascadia.application.store import GameStore
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import play_game, recorded_bots
from cascadia.domain import events as ev
from cascadia.domain.components import WILDLIFE
from cascadia.domain.errors import UnknownRulesVersionError
from cascadia.domain.game import Game
from cascadia.domain.options import RULES_V1, RULES_V2, GameOptions
from cascadia.domain.rng import draw
from cascadia.domain.state import CorruptEventError, GameState, evolve, wildlife_counts
from conftest import events_of, play_simple_turn, rig_tokens, stage, token_total
from test_rules_overpopulation import bag_plus_market, market, within


def staged(*tokens: str, seed: int = 7, nature: int = 0) -> Game:
    return stage(market(*tokens), seed=seed, starters=[4, 0], nature=[nature], rules_version=RULES_V2)


def expected_draws(seed: int, position: int, bag: dict[str, int], aside: list[str], count: int) -> list[str]:
    """The tokens RULES.md 4.1 (version 2) draws, worked out here from the seed: an index
    into the bag counted in species order; a draw from an empty bag first puts the
    set-aside tokens back."""
    bag, aside, drawn = Counter(bag), list(aside), []
    for i in range(count):
        if not sum(bag.values()):
            bag.update(aside)
            aside = []
        x = draw(seed, position + i, sum(bag.values()))
        for species in WILDLIFE:
            if x < bag[species]:
                drawn.append(species)
                bag[species] -= 1
                break
            x -= bag[species]
    return drawn


def folded(before: GameState, events: list[ev.GameEvent]) -> list[GameState]:
    """The state after each of ``events``, applied with ``evolve`` to a copy of ``before``."""
    state, states = before.copy(), []
    for event in events:
        evolve(state, event)
        states.append(state.copy())
    return states


# -- the set-aside tokens stay aside until the overpopulation is resolved ----------------------


def test_the_three_of_a_kind_wipe_keeps_its_tokens_aside_through_the_mandatory_wipe():
    """RULES.md 4.1: "If that makes four of a kind, the mandatory wipe follows, and these 3
    stay aside with the wiped groups until it is resolved"."""
    for seed in range(2000):
        game = staged("bear", "bear", "bear", "elk", seed=seed)
        rig_tokens(game, bag={"elk": 3, "fox": 4})
        before = game.state.copy()
        totals = bag_plus_market(game)
        with within(5):
            game.wipe_three()
        events = game.collect_events()
        if events[0].drawn != ["elk"] * 3:
            continue
        _, first, *rest = events
        assert first.mandatory and first.set_aside == ["elk"] * 4
        # the bears are aside, so the bag holds only the four foxes
        assert first.drawn == ["fox"] * 4 and not first.unbreakable
        states = folded(before, events)
        assert states[0].set_aside == ["bear"] * 3 and states[0].bag_counts()["bear"] == 0
        assert states[1].set_aside == ["bear"] * 3 + ["elk"] * 4 and sum(states[1].bag) == 0
        # four foxes again; the bag is empty, so everything aside goes back and is drawn from
        assert rest and rest[0].set_aside == ["fox"] * 4
        aside = ["bear"] * 3 + ["elk"] * 4 + ["fox"] * 4
        assert rest[0].drawn == expected_draws(seed, states[1].draw_position, {}, aside, 4)
        assert game.state.set_aside == [] and len(set(game.state.market_wildlife)) > 1
        assert bag_plus_market(game) == totals and token_total(game.state) == 100
        return
    pytest.fail("no seed drew three elk")


def test_a_bag_of_one_other_species_is_not_unbreakable():
    """The corner of the brief: a market of four bears and a bag of foxes only. Version 1
    wiped once and left four foxes while the bag held bears again; version 2 keeps the
    bears aside, wipes the foxes too, and when the bag runs out in the middle of a
    repetition puts everything aside back and goes on drawing (RULES.md 4.1)."""
    checked = 0
    for seed in range(300):
        game = staged("bear", "bear", "bear", "elk", seed=seed)
        rig_tokens(game, bag={"bear": 1, "fox": 5})
        with within(5):
            events = play_simple_turn(game, 3)
        wipes = events_of(events, ev.OverpopulationWiped)
        if not wipes:
            continue
        checked += 1
        first, second, *_ = wipes
        assert first.set_aside == ["bear"] * 4 and first.drawn == ["fox"] * 4
        assert second.set_aside == ["fox"] * 4
        # one fox is left in the bag; then the bag is empty and the eight set-aside come back
        position = game.state.draw_position - sum(len(w.drawn) for w in wipes[1:])
        assert second.drawn[0] == "fox"
        assert second.drawn == expected_draws(seed, position, {"fox": 1}, ["bear"] * 4 + ["fox"] * 4, 4)
        assert not any(w.unbreakable for w in wipes)
        assert len(set(game.state.market_wildlife)) > 1
        assert game.state.set_aside == [] and token_total(game.state) == 100
        if checked >= 3:
            break
    assert checked >= 1


def test_the_same_corner_under_rules_1_stops_at_four_foxes():
    for seed in range(300):
        game = stage(
            market("bear", "bear", "bear", "elk"), seed=seed, starters=[4, 0], rules_version=RULES_V1
        )
        rig_tokens(game, bag={"bear": 1, "fox": 5})
        wipes = events_of(play_simple_turn(game, 3), ev.OverpopulationWiped)
        if wipes:
            assert [w.unbreakable for w in wipes] == [True]
            assert game.state.market_wildlife == ["fox"] * 4 and game.state.bag_counts()["bear"] == 4
            return
    pytest.fail("no seed drew the bear")


def test_a_nature_wipe_keeps_its_tokens_aside_until_the_bag_runs_out():
    """RULES.md 4.2: the chosen tokens stay aside until the four of a kind is resolved.
    The elk wiped away cannot come back until the bag of bears runs out, so the four
    bears are not unbreakable: bears are wiped until the elk is drawn again."""
    game = staged("bear", "bear", "bear", "elk", nature=1)
    rig_tokens(game, bag={"bear": 6})
    before = game.state.copy()
    with within(5):
        game.spend_nature("wipe", [3])
    events = game.collect_events()
    replaced, *wipes = events[1:]
    assert replaced.drawn == ["bear"]
    assert len(wipes) >= 2 and not any(w.unbreakable for w in wipes)
    assert wipes[0].drawn == ["bear"] * 4
    states = folded(before, events)
    assert states[1].set_aside == ["elk"] and states[2].set_aside == ["elk"] + ["bear"] * 4
    assert states[2].bag_counts() == dict.fromkeys(WILDLIFE, 0) | {"bear": 1}
    # the second wipe draws the last bear, then the nine set-aside tokens are back in the bag
    position = states[2].draw_position
    assert wipes[1].drawn == expected_draws(7, position, {"bear": 1}, ["elk"] + ["bear"] * 8, 4)
    assert sorted(game.state.market_wildlife) == ["bear"] * 3 + ["elk"]
    assert game.state.set_aside == [] and token_total(game.state) == 100
    for state in states:
        assert sum(wildlife_counts(state).values()) == 100


def test_unbreakable_counts_the_set_aside_tokens():
    """RULES.md 4.1: "if every token in the bag and set aside is of the market's own
    species ... wipe once, record it as unbreakable, and play on"."""
    game = staged("bear", "bear", "bear", "bear", nature=1)  # staged without the mandatory wipe
    rig_tokens(game, bag={"bear": 5})
    with within(5):
        game.spend_nature("wipe", [0])
    _, replaced, wipe = game.collect_events()
    assert replaced.drawn == ["bear"]
    assert wipe.mandatory and wipe.unbreakable and wipe.drawn == ["bear"] * 4
    assert game.state.market_wildlife == ["bear"] * 4
    assert game.state.bag_counts()["bear"] == 5 and game.state.set_aside == []


def test_nothing_is_left_aside_between_commands():
    """Whole games: every token is somewhere after every event (bag, market, boards,
    held, removed or set aside), and nothing is aside once a command is done."""
    for seed in (5, 8, 13):
        game = play_game(seed, ["random"] * 4, GameOptions(), rules_version=RULES_V2)
        state = GameState(game.id)
        for event in game.collect_events():
            evolve(state, event)
            assert sum(wildlife_counts(state).values()) == 100
            if isinstance(event, ev.TurnEnded | ev.PairTaken):
                assert state.set_aside == []
        assert state == game.state


# -- versions -----------------------------------------------------------------------------------


def test_an_unknown_rules_version_is_refused():
    with pytest.raises(UnknownRulesVersionError, match="cascadia-rules-9"):
        Game.start(1, 2, rules_version="cascadia-rules-9")
    started = Game.start(1, 2).collect_events()[0]
    forged = ev.GameStarted(started.originator_id, 1, **{**started.payload(), "rules_version": "x"})
    with pytest.raises(CorruptEventError, match="unknown rules version 'x'"):
        Game.replay([forged])


def test_a_stored_rules_1_game_keeps_playing_under_rules_1(tmp_path, clean_env):
    """A game created under version 1 and played on from the store, one turn at a time,
    is the game version 1 plays (seed 5 differs between the versions at event 74)."""
    store = GameStore(tmp_path)
    game = Game.start(5, ["random"] * 4, rules_version=RULES_V1, bots=recorded_bots(["random"] * 4))
    store.save_game(game)
    bots = [RandomBot(5, seat) for seat in range(4)]
    while not game.finished:
        game = store.game(game.id)
        assert game.state.rules_version == RULES_V1
        bots[game.current_player].play_turn(game)
        store.save_game(game)
    expected = play_game(5, ["random"] * 4, GameOptions(), rules_version=RULES_V1).collect_events()
    assert store.game_events(game.id) == expected
