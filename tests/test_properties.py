"""Properties over random legal and illegal command sequences (hypothesis).

Legal commands are drawn from the engine's own ``Game.legal_commands``; illegal ones are
random command values, which the engine must refuse with an IllegalMoveError without
changing anything exactly when they are not among the legal ones. After every command:
conservation of tokens and tiles; at the end: replay equals the live state, the same
seed and decisions give the same events, and every event survives the msgpack transcoder.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from cascadia.application.transcoder import MsgpackTranscoder
from cascadia.domain import events as ev
from cascadia.domain.commands import (
    Command,
    NatureFreeChoice,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    Take,
    WipeThree,
)
from cascadia.domain.components import HABITAT_TILE_COUNT, WILDLIFE
from cascadia.domain.errors import IllegalMoveError
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions, parse_card_choice
from cascadia.domain.state import GameState, initial_tokens_per_species, tile_counts, wildlife_counts
from eventsourcing.persistence import Mapper
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def random_command(rng: random.Random) -> Command:
    """Any command with arbitrary (mostly illegal) arguments."""
    kind = rng.randrange(7)
    if kind == 0:
        return Take(rng.randrange(-1, 5), rng.randrange(-1, 5))
    if kind == 1:
        return PlaceTile(rng.randrange(-4, 4), rng.randrange(-4, 4), rng.randrange(-1, 7))
    if kind == 2:
        return PlaceWildlife(rng.randrange(-3, 3), rng.randrange(-3, 3))
    if kind == 3:
        return ReturnWildlife()
    if kind == 4:
        return WipeThree()
    if kind == 5:
        return NatureFreeChoice()
    return NatureWipe(tuple(rng.randrange(-1, 5) for _ in range(rng.randrange(0, 4))))


def expected_draws(events: list[ev.GameEvent], options: GameOptions) -> int:
    """How many draws the recorded outcomes stand for (base-game options)."""
    count = 0
    for e in events:
        if isinstance(e, ev.ScoringCardsDrawn):
            count += len(WILDLIFE) if parse_card_choice(options.cards) is None else 0
        elif isinstance(e, ev.StarterTilesDealt):
            count += len(e.starters)
        elif isinstance(e, ev.FirstPlayerChosen):
            count += 1
        elif isinstance(e, ev.MarketRefilled):
            count += sum((tile is not None) + (token is not None) for _, tile, token in e.fills)
        elif isinstance(e, ev.OverpopulationWiped | ev.WildlifeReplaced):
            count += len(e.drawn)
    return count


def check_conservation(state: GameState, tokens_per_species: int) -> None:
    ts = state.turn_state
    # every habitat tile is in exactly one place
    held_tile = [ts.taken_tile] if ts.taken_tile is not None and ts.tile_hex is None else []
    placed = [t for p in state.players for t, _ in p.environment.tiles.values() if t < HABITAT_TILE_COUNT]
    where = state.unrevealed + [t for t in state.market_tiles if t is not None] + held_tile + placed
    assert sorted(where + state.removed_tiles) == list(range(HABITAT_TILE_COUNT))
    assert 0 <= state.stack_size <= len(state.unrevealed)
    assert sum(tile_counts(state).values()) == HABITAT_TILE_COUNT
    # every wildlife token, species by species
    species = Counter(state.bag_counts())
    species.update(w for w in state.market_wildlife if w is not None)
    species.update(w for p in state.players for w in p.environment.wildlife.values())
    species.update(dict(zip(WILDLIFE, state.removed_wildlife, strict=True)))
    if ts.taken_wildlife is not None and not ts.wildlife_done:
        species[ts.taken_wildlife] += 1
    assert species == dict.fromkeys(WILDLIFE, tokens_per_species)
    assert sum(wildlife_counts(state).values()) == tokens_per_species * len(WILDLIFE)
    assert all(count >= 0 for count in state.bag)
    # one token per tile, only on tiles; nature tokens never below zero
    for p in state.players:
        assert set(p.environment.wildlife) <= set(p.environment.tiles)
        assert p.nature_tokens == p.nature_earned - p.nature_spent >= 0


def run(game: Game, choices: list[int], finish: bool, rng: random.Random) -> tuple[list, list]:
    """Apply the commands ``choices`` pick (then, with ``finish``, legal ones to the end),
    checking the invariants after each; the events and the accepted commands."""
    log = game.collect_events()
    accepted: list[Command] = []
    tokens = initial_tokens_per_species(game.state.options, game.state.player_count)
    check_conservation(game.state, tokens)
    step = 0
    while not game.finished and (step < len(choices) or finish):
        choice = choices[step] if step < len(choices) else rng.randrange(1 << 16)
        step += 1
        legal = game.legal_commands()
        assert legal, "an unfinished game always has a legal command"
        if choice % 4 == 0 and step <= len(choices):
            command = random_command(random.Random(choice))
        else:
            command = legal[(choice // 4) % len(legal)]
        before = copy.deepcopy(game.state)
        recorded = game.recorded(command)
        try:
            game.execute(command)
        except IllegalMoveError:
            assert command not in legal, f"{command} was offered as legal but refused"
            assert game.state == before, f"refused {command} changed the state"
            assert game.collect_events() == [], f"refused {command} emitted events"
            continue
        assert recorded in legal, f"{command} was accepted but is not offered as legal"
        new = game.collect_events()
        assert new, f"{command} was accepted but emitted nothing"
        log += new
        accepted.append(command)
        check_conservation(game.state, tokens)
        assert game.state.version == len(log)
        if len(set(game.state.market_wildlife)) == 1:  # four alike stand only when unbreakable
            wipes = [e for e in log if isinstance(e, ev.OverpopulationWiped)]
            assert wipes and wipes[-1].unbreakable, "four alike left in the market"
    return log, accepted


def check_events(game: Game, log: list[ev.GameEvent], accepted: list[Command], seed, players, options):
    state = game.state
    assert [e.originator_version for e in log] == list(range(1, len(log) + 1))
    assert state.draw_position == expected_draws(log, options)
    # replay (a fold of evolve) gives the live state
    assert Game.replay(log).state == state
    cut = len(log) // 2
    assert Game.replay(log[:cut]).state.version == cut
    # the same seed and decisions give the same events
    again = Game.start(seed, players, options)
    for command in accepted:
        again.execute(command)
    assert again.collect_events() == log
    # msgpack transcoder round trip, as the event store uses it
    mapper = Mapper(transcoder=MsgpackTranscoder())
    for event in log:
        stored = mapper.to_stored_event(event)
        back = mapper.to_domain_event(stored)
        assert back == event
        assert type(back) is type(event)
        assert back.payload() == event.payload()
        rebuilt = ev.make_event(event.type, event.originator_id, event.originator_version, back.payload())
        assert rebuilt == event


OPTIONS = st.sampled_from(
    [
        GameOptions(),
        GameOptions(cards="all-a"),
        GameOptions(cards="A,B,C,D,A"),
        GameOptions(cards="family"),
        GameOptions(cards="Random"),
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(1, 4),
    options=OPTIONS,
    choices=st.lists(st.integers(0, 1 << 16), min_size=10, max_size=250),
)
def test_random_command_sequences(seed, players, options, choices):
    game = Game.start(seed, players, options)
    log, accepted = run(game, choices, finish=False, rng=random.Random(seed))
    check_events(game, log, accepted, seed, players, options)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(1, 4),
    balanced=st.booleans(),
    choices=st.lists(st.integers(0, 1 << 16), max_size=60),
)
def test_whole_games_from_random_command_sequences(seed, players, balanced, choices):
    options = GameOptions(balanced_bag=balanced and players in (2, 3))
    game = Game.start(seed, players, options)
    log, accepted = run(game, choices, finish=True, rng=random.Random(seed))
    assert game.finished
    ended = Counter(e.player for e in log if isinstance(e, ev.TurnEnded))
    assert ended == dict.fromkeys(range(players), 20)
    check_events(game, log, accepted, seed, players, options)
