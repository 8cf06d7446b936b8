"""RULES.md 4.1 (overpopulation) and 4.2 (the nature-token wipe).

What both rules versions share, and what version 1 (``cascadia-rules-1``, kept for its
logs) did differently; version 2's holding of the set-aside tokens until the
overpopulation is resolved is tested in ``test_rules_overpopulation_v2.py``."""

from __future__ import annotations

import signal
from collections import Counter
from contextlib import contextmanager
from itertools import pairwise

import pytest
from cascadia.domain import events as ev
from cascadia.domain.components import WILDLIFE
from cascadia.domain.errors import NatureTokenError, OutOfOrderError, OverpopulationError
from cascadia.domain.game import Game
from cascadia.domain.options import RULES_V1, RULES_VERSIONS
from conftest import assert_refused, events_of, play_simple_turn, rig_tokens, stage, token_total

TILES4 = (25, 26, 34, 45)


def market(*tokens: str) -> list[tuple[int, str]]:
    return list(zip(TILES4, tokens, strict=True))


@contextmanager
def within(seconds: float):
    """Fail (instead of hanging) when the block runs longer than ``seconds``."""

    def expire(signum, frame):
        raise AssertionError(f"did not finish within {seconds} s (endless wipe loop?)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def bag_plus_market(game: Game) -> Counter:
    state = game.state
    counts = Counter(state.bag_counts())
    counts.update(w for w in state.market_wildlife if w is not None)
    return counts


# -- four of a kind (mandatory) --------------------------------------------------------------


@pytest.mark.parametrize("rules_version", RULES_VERSIONS)
def test_four_of_a_kind_at_setup_is_wiped(rules_version):
    found = 0
    for seed in range(600):
        game = Game.start(seed, 2, rules_version=rules_version)
        events = game.collect_events()
        wipes = events_of(events, ev.OverpopulationWiped)
        state = game.state
        assert len(set(state.market_wildlife)) > 1, f"seed {seed}: four alike left in the market"
        if not wipes:
            continue
        found += 1
        shown = [f[2] for f in events[4].fills]
        assert wipes[0].set_aside == shown and len(set(shown)) == 1
        for before, after in pairwise(wipes):
            assert after.set_aside == before.drawn
        for wipe in wipes:
            assert wipe.mandatory and not wipe.unbreakable
            assert wipe.slots == [0, 1, 2, 3]
            assert wipe.player == state.first_player
        assert state.market_wildlife == wipes[-1].drawn
        assert token_total(state) == 100
        assert Counter(state.bag_counts()) + Counter(state.market_wildlife) == dict.fromkeys(WILDLIFE, 20)
    assert found >= 1


def test_repeated_four_of_a_kind_wipes_form_a_chain_rules_1():
    """Seat 0 takes the elk of [bear, bear, bear, elk]; the refill draws a bear from a
    small bag, so four bears are wiped for seat 1, and again while all four are alike
    (version 1: each wiped group is back in the bag for the next draw)."""
    longest: list[ev.OverpopulationWiped] = []
    for seed in range(3000):
        game = stage(
            market("bear", "bear", "bear", "elk"), seed=seed, starters=[4, 0], rules_version=RULES_V1
        )
        rig_tokens(game, bag={"bear": 1, "elk": 4, "fox": 1})
        before = sum(game.state.bag) + 3  # the three bears left in the market
        with within(5):
            events = play_simple_turn(game, 3)
        wipes = events_of(events, ev.OverpopulationWiped)
        if not wipes:
            continue
        turn_end = next(i for i, e in enumerate(events) if isinstance(e, ev.TurnEnded))
        assert events[turn_end + 1 :] == wipes, "the wipes follow the end of the turn"
        assert wipes[0].set_aside == ["bear"] * 4
        for earlier, later in pairwise(wipes):
            assert later.set_aside == earlier.drawn
            assert len(set(earlier.drawn)) == 1
        for wipe in wipes:
            assert wipe.mandatory and wipe.slots == [0, 1, 2, 3] and wipe.player == 1
            assert len(set(wipe.set_aside)) == 1
        last = wipes[-1]
        assert len(set(last.drawn)) > 1 or last.unbreakable
        assert game.state.market_wildlife == last.drawn
        assert sum(game.state.bag) + 4 == before
        assert token_total(game.state) == 100
        if len(wipes) > len(longest):
            longest = wipes
        if len(longest) >= 3:
            break
    assert len(longest) >= 3


@pytest.mark.parametrize("rules_version", RULES_VERSIONS)
def test_unbreakable_when_the_bag_holds_only_that_species(rules_version):
    """RULES.md 4.1: every token in the bag (and none set aside) is a bear, like the
    market: wipe once, record it as unbreakable, and play on."""
    game = stage(market("bear", "bear", "bear", "elk"), starters=[4, 0], rules_version=rules_version)
    rig_tokens(game, bag={"bear": 6})
    with within(5):
        events = play_simple_turn(game, 3)
    wipes = events_of(events, ev.OverpopulationWiped)
    assert len(wipes) == 1
    (wipe,) = wipes
    assert wipe.mandatory and wipe.unbreakable
    assert wipe.set_aside == wipe.drawn == ["bear"] * 4
    assert game.state.market_wildlife == ["bear"] * 4
    assert game.state.bag_counts()["bear"] == 6 - 1
    assert token_total(game.state) == 100
    # the game goes on: seat 1 takes a pair as usual
    play_simple_turn(game, 0)
    assert game.current_player == 0


def test_rules_1_called_a_bag_of_one_other_species_unbreakable():
    """Version 1 decided on the bag alone, before the set-aside tokens went back: four
    bears and a bag of salmon only was wiped once, recorded as unbreakable, and left four
    salmon while the bag held bears again (version 2: see test_rules_overpopulation_v2)."""
    checked = 0
    for seed in range(200):
        game = stage(
            market("bear", "bear", "bear", "elk"), seed=seed, starters=[4, 0], rules_version=RULES_V1
        )
        rig_tokens(game, bag={"bear": 1, "salmon": 4})
        with within(5):
            events = play_simple_turn(game, 3)
        wipes = events_of(events, ev.OverpopulationWiped)
        if not wipes:
            assert game.state.market_wildlife == ["bear", "bear", "bear", "salmon"]
            continue
        checked += 1
        assert len(wipes) == 1
        assert wipes[0].set_aside == ["bear"] * 4
        assert wipes[0].drawn == ["salmon"] * 4
        assert wipes[0].unbreakable
        assert game.state.market_wildlife == ["salmon"] * 4
        assert game.state.bag_counts()["bear"] == 4
        if checked >= 3:
            break
    assert checked >= 1


# -- three of a kind (optional, once per turn) --------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "slots"),
    [
        (("bear", "bear", "bear", "elk"), [0, 1, 2]),
        (("elk", "hawk", "hawk", "hawk"), [1, 2, 3]),
        (("fox", "salmon", "fox", "fox"), [0, 2, 3]),
    ],
)
def test_three_of_a_kind_wipe(tokens, slots):
    game = stage(market(*tokens))
    assert game.can_wipe_three()
    before = bag_plus_market(game)
    game.wipe_three()
    events = game.collect_events()
    wipe = events[0]
    assert isinstance(wipe, ev.OverpopulationWiped)
    assert wipe.slots == slots
    assert wipe.set_aside == [tokens[s] for s in slots]
    assert len(wipe.drawn) == 3
    assert not wipe.mandatory and not wipe.unbreakable
    assert wipe.player == 0
    (other,) = set(range(4)) - set(slots)
    if len(events) == 1:
        assert game.state.market_wildlife[other] == tokens[other]
        assert [game.state.market_wildlife[s] for s in slots] == wipe.drawn
    else:  # the draw made four alike: the mandatory wipe followed
        assert all(isinstance(e, ev.OverpopulationWiped) and e.mandatory for e in events[1:])
    assert bag_plus_market(game) == before
    assert game.state.turn_state.three_wipe_used
    assert game.state.market_tiles == list(TILES4)


@pytest.mark.parametrize(
    "tokens",
    [
        ("bear", "bear", "elk", "elk"),  # two pairs
        ("bear", "elk", "salmon", "hawk"),
        ("bear", "bear", "elk", "fox"),
        ("hawk", "hawk", "hawk", "hawk"),  # four alike (staged without the mandatory wipe)
    ],
)
def test_three_of_a_kind_wipe_needs_exactly_three_alike(tokens):
    game = stage(market(*tokens))
    assert not game.can_wipe_three()
    assert_refused(game, OverpopulationError, game.wipe_three)


def test_three_of_a_kind_wipe_only_once_per_turn():
    still_three = 0
    for seed in range(400):
        game = stage(market("bear", "bear", "bear", "elk"), seed=seed)
        game.wipe_three()
        counts = Counter(game.state.market_wildlife)
        if 3 in counts.values():
            still_three += 1
        assert not game.can_wipe_three()
        assert_refused(game, OverpopulationError, game.wipe_three)
        if still_three >= 3:
            break
    assert still_three >= 1, "no seed left exactly three alike after the wipe"


def test_three_of_a_kind_wipe_is_available_again_next_turn():
    game = stage(market("bear", "bear", "bear", "elk"))
    game.wipe_three()
    play_simple_turn(game, 0)
    assert not game.state.turn_state.three_wipe_used
    assert game.can_wipe_three() == (3 in Counter(game.state.market_wildlife).values())


def test_three_of_a_kind_wipe_making_four_alike_is_followed_by_the_mandatory_wipe():
    for seed in range(500):
        game = stage(market("bear", "bear", "bear", "elk"), seed=seed)
        rig_tokens(game, bag={"elk": 3, "fox": 2})
        game.wipe_three()
        events = game.collect_events()
        if events[0].drawn != ["elk"] * 3:
            continue
        assert len(events) >= 2
        mandatory = events[1]
        assert isinstance(mandatory, ev.OverpopulationWiped)
        assert mandatory.mandatory
        assert mandatory.set_aside == ["elk"] * 4
        assert token_total(game.state) == 100
        return
    pytest.fail("no seed drew three elk")


def test_three_of_a_kind_wipe_only_before_taking():
    game = stage(market("bear", "bear", "bear", "elk"))
    game.take(3)
    assert not game.can_wipe_three()
    assert_refused(game, OutOfOrderError, game.wipe_three)


# -- the nature-token wipe (RULES.md 4.2) ------------------------------------------------------


@pytest.mark.parametrize("chosen", [[1, 3], [3, 1], [0], [0, 1, 2, 3]])
def test_nature_wipe_of_a_chosen_subset(chosen):
    tokens = ("bear", "elk", "salmon", "hawk")
    game = stage(market(*tokens), nature=[1])
    before = bag_plus_market(game)
    game.spend_nature("wipe", chosen)
    events = game.collect_events()
    spent, replaced = events[:2]
    assert isinstance(spent, ev.NatureTokenSpent)
    assert (spent.player, spent.action, spent.cost) == (0, "wipe", 1)
    assert isinstance(replaced, ev.WildlifeReplaced)
    assert replaced.slots == sorted(chosen)
    assert replaced.set_aside == [tokens[s] for s in sorted(chosen)]
    assert len(replaced.drawn) == len(chosen)
    if len(events) == 2:
        for slot in range(4):
            expected = replaced.drawn[sorted(chosen).index(slot)] if slot in chosen else tokens[slot]
            assert game.state.market_wildlife[slot] == expected
    assert bag_plus_market(game) == before
    player = game.state.players[0]
    assert (player.nature_tokens, player.nature_spent) == (0, 1)
    assert game.state.market_tiles == list(TILES4)


@pytest.mark.parametrize("chosen", [[], None, [1, 1], [4], [-1], [0, 4], ["1"], [True]])
def test_nature_wipe_needs_distinct_market_slots(chosen):
    game = stage(market("bear", "elk", "salmon", "hawk"), nature=[1])
    assert_refused(game, NatureTokenError, game.spend_nature, "wipe", chosen)


def test_nature_wipe_making_four_alike_is_followed_by_the_mandatory_wipe():
    game = stage(market("bear", "bear", "bear", "elk"), nature=[1])
    rig_tokens(game, bag={"bear": 5})
    with within(5):
        game.spend_nature("wipe", [3])
    events = game.collect_events()
    assert isinstance(events[1], ev.WildlifeReplaced)
    assert events[1].drawn == ["bear"]
    assert isinstance(events[2], ev.OverpopulationWiped)
    assert events[2].mandatory and events[2].set_aside == ["bear"] * 4
    assert token_total(game.state) == 100


def test_several_nature_actions_in_one_turn():
    game = stage(market("bear", "elk", "salmon", "hawk"), nature=[3])
    assert game.nature_actions() == ["free_choice", "wipe"]
    game.spend_nature("wipe", [0])
    game.spend_nature("free_choice")
    assert game.nature_actions() == ["wipe"]
    assert_refused(game, NatureTokenError, game.spend_nature, "free_choice")
    game.spend_nature("wipe", [2])
    assert game.state.players[0].nature_tokens == 0
    assert game.nature_actions() == []
    assert_refused(game, NatureTokenError, game.spend_nature, "wipe", [1])


def test_nature_tokens_only_before_taking():
    game = stage(market("bear", "elk", "salmon", "hawk"), nature=[2])
    game.take(0)
    assert game.nature_actions() == []
    assert_refused(game, OutOfOrderError, game.spend_nature, "wipe", [1])
    assert_refused(game, OutOfOrderError, game.spend_nature, "free_choice")
