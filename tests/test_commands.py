"""Commands as data (domain/commands.py, domain/decisions.py): the plain-data and text
forms round-trip, malformed input gets the typed error, ``Game.execute`` and
``legal_commands`` agree, and ``commands_of`` is the inverse of executing commands."""

from __future__ import annotations

import json
import random
import string
from itertools import pairwise

import msgpack
import pytest
from cascadia.bots.registry import make_bots, play_game
from cascadia.domain import events as ev
from cascadia.domain.commands import (
    COMMAND_TYPES,
    NatureFreeChoice,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    Take,
    WipeThree,
    from_dict,
    parse,
)
from cascadia.domain.decisions import commands_of, decisions_of, is_decision
from cascadia.domain.errors import CommandFormatError, IllegalMoveError, OutOfOrderError
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.domain.timeline import through_turn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

INTS = st.integers(-(2**40), 2**40)
COMMANDS = st.one_of(
    st.just(WipeThree()),
    st.just(NatureFreeChoice()),
    st.builds(NatureWipe, st.lists(st.integers(0, 9), min_size=1, max_size=5).map(tuple)),
    st.builds(Take, INTS, INTS),
    st.builds(PlaceTile, INTS, INTS, INTS),
    st.builds(PlaceWildlife, INTS, INTS),
    st.just(ReturnWildlife()),
)


# -- the two forms --------------------------------------------------------------------------


@given(COMMANDS)
def test_every_command_round_trips_through_dict_json_msgpack_and_text(command):
    data = command.to_dict()
    assert data["type"] == command.type and from_dict(data) == command
    assert from_dict(json.loads(json.dumps(data))) == command
    assert from_dict(msgpack.unpackb(msgpack.packb(data))) == command
    text = str(command)
    assert parse(text) == command
    assert parse(f"  {text.upper()}  ") == command  # case and outer spacing are free
    assert str(parse(text)) == text


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("wipe3", WipeThree()),
        ("nature free", NatureFreeChoice()),
        ("nature wipe 0,2", NatureWipe((0, 2))),
        ("nature wipe 2, 0", NatureWipe((0, 2))),
        ("take 2", Take(2, 2)),
        ("take 1 3", Take(1, 3)),
        ("tile 1 0 r3", PlaceTile(1, 0, 3)),
        ("tile -1 2", PlaceTile(-1, 2, 0)),
        ("token 1 -1", PlaceWildlife(1, -1)),
        ("return", ReturnWildlife()),
    ],
)
def test_the_move_notation(text, command):
    assert parse(text) == command


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"type": "take", "tile_slot": 1}, "needs wildlife_slot"),
        ({"type": "take", "tile_slot": 1, "wildlife_slot": True}, "wildlife_slot is a whole number"),
        ({"type": "take", "tile_slot": "1", "wildlife_slot": 1}, "tile_slot is a whole number"),
        ({"type": "take", "tile_slot": 1, "wildlife_slot": 1, "x": 0}, "has no x"),
        ({"type": "nature_wipe", "slots": 2}, "slots is a list"),
        ({"type": "nature_wipe", "slots": [0, 1.0]}, "slots is a list"),
        ({"type": "place_tile", "q": 0, "r": 1}, "needs rotation"),
        ({"type": "fly"}, "unknown command type 'fly'"),
        ({"tile_slot": 1}, "unknown command type None"),
        (["take", 1], "not list"),
        (None, "not NoneType"),
    ],
)
def test_a_malformed_dict_says_what_is_wrong(data, says):
    with pytest.raises(CommandFormatError, match=says):
        from_dict(data)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("take", "like 'take 2'"),
        ("take 1 2 3", "like 'take 2'"),
        ("tile 1", "like 'tile 1 0 r3'"),
        ("tile 1 0 3", "like 'tile 1 0 r3'"),
        ("nature wipe", "like 'nature wipe 0,2'"),
        ("nature wipe 0,,2", "like 'nature wipe 0,2'"),
        ("fly 2", "moves are: wipe3 | nature free"),
        ("", "moves are"),
    ],
)
def test_bad_text_says_what_is_wrong(text, says):
    with pytest.raises(CommandFormatError, match=says):
        parse(text)
    with pytest.raises(CommandFormatError, match="a move is text"):
        parse(3)  # type: ignore[arg-type]


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def malformed_dicts(draw):
    """A valid command's dict with one key dropped, added or given a junk value; or junk."""
    data = draw(COMMANDS).to_dict()
    how = draw(st.sampled_from(["drop", "add", "junk", "type", "whole"]))
    key = draw(st.sampled_from(sorted(data)))
    if how == "drop":
        del data[key]
    elif how == "add":
        data[draw(st.text(max_size=6))] = draw(JUNK)
    elif how == "junk":
        data[key] = draw(JUNK)
    elif how == "type":
        data["type"] = draw(st.sampled_from([*COMMAND_TYPES, "take ", "TAKE", 1, None]))
    else:
        return draw(JUNK)
    return data


@given(malformed_dicts())
def test_malformed_dicts_get_the_typed_error_and_nothing_else(data):
    try:
        command = from_dict(data)
    except CommandFormatError as error:
        assert str(error)
        return
    assert from_dict(command.to_dict()) == command  # still a well-formed command


WORDS = st.sampled_from(
    ["take", "tile", "token", "nature", "wipe", "wipe3", "free", "return", "r3", "r", "x"]
)
NUMBERS = st.integers(-99, 99).map(str)


@given(st.lists(WORDS | NUMBERS | st.text(string.printable, max_size=4), max_size=5).map(" ".join))
def test_any_text_is_a_move_or_the_typed_error(text):
    try:
        command = parse(text)
    except CommandFormatError as error:
        assert str(error).startswith("cannot read the move")
        return
    assert parse(str(command)) == command


# -- execute and legal_commands ------------------------------------------------------------

OPTIONS = st.sampled_from(
    [
        GameOptions(),
        GameOptions(cards="family", secret_cards=True),
        GameOptions(market_of_three=True, nature_cost_two=True),
        GameOptions(must_match=True, no_token_on_new_tile=True),
        GameOptions(must_not_match=True, no_starter=True),
    ]
)


def play_legal(game: Game, rng: random.Random, steps: int | None = None) -> None:
    """Execute random commands from ``legal_commands`` (to the end, or ``steps`` of them)."""
    while not game.finished and steps != 0:
        legal = game.legal_commands()
        assert legal, "an unfinished game always has a legal decision"
        game.execute(rng.choice(legal))
        steps = None if steps is None else steps - 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(1, 4), options=OPTIONS)
def test_commands_of_a_game_played_again_give_the_same_events(seed, players, options):
    game = Game.start(seed, players, options)
    play_legal(game, random.Random(seed))
    events = game.collect_events()
    commands = commands_of(events)
    assert commands == commands_of(iter(events))  # streaming gives the same
    again = Game.start(seed, players, options)
    for command in commands:
        again.execute(command)
    assert again.collect_events() == events
    decisions = list(decisions_of(events))
    assert [d.command for d in decisions] == commands
    assert all(events[d.seq - 1].player == d.player for d in decisions)  # type: ignore[attr-defined]


def nearby_commands(game: Game, rng: random.Random) -> list:
    """Commands near the legal ones and beyond them, legal or not."""
    size = len(game.state.market_wildlife)
    hexes = [h for p in game.state.players for h in p.environment.tiles] + [(5, 5), (-9, 0)]
    commands = [WipeThree(), NatureFreeChoice(), ReturnWildlife()]
    for _ in range(25):
        q, r = rng.choice(hexes)
        q, r = q + rng.randint(-1, 1), r + rng.randint(-1, 1)
        commands += [
            Take(rng.randint(-1, size), rng.randint(-1, size)),
            NatureWipe(tuple(rng.randint(-1, size) for _ in range(rng.randint(0, 3)))),
            PlaceTile(q, r, rng.randint(-1, 6)),
            PlaceWildlife(q, r),
        ]
    return commands


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(1, 4), options=OPTIONS, steps=st.integers(0, 120))
def test_legal_commands_execute_and_every_other_command_is_refused(seed, players, options, steps):
    rng = random.Random(seed)
    game = Game.start(seed, players, options)
    play_legal(game, rng, steps)
    game.collect_events()
    legal = game.legal_commands()
    assert len(set(legal)) == len(legal)
    for command in legal + nearby_commands(game, rng):
        trial = Game(game.state.copy())
        try:
            trial.execute(command)
        except IllegalMoveError:
            assert command not in legal, f"{command} is offered as legal but refused"
            assert trial.state == game.state and trial.collect_events() == []
            continue
        assert game.recorded(command) in legal, f"{command} was accepted but is not in legal_commands"
        assert trial.collect_events()


def test_a_nature_wipe_offers_every_subset_of_the_occupied_slots():
    game = Game.start(5, 2)
    game.state.active.nature_tokens = 1
    wipes = [c for c in game.legal_commands() if isinstance(c, NatureWipe)]
    assert len(wipes) == 15 and len(set(wipes)) == 15
    game.state.market_wildlife[1] = None
    assert len([c for c in game.legal_commands() if isinstance(c, NatureWipe)]) == 7


def test_execute_refuses_with_the_engines_typed_errors_and_wrappers_keep_their_messages():
    game = Game.start(1, 2)
    with pytest.raises(OutOfOrderError, match="take a tile and a token before you place a tile"):
        game.execute(PlaceTile(1, 0, 0))
    with pytest.raises(OutOfOrderError, match="take a tile and a token before you place a tile"):
        game.place_tile(1, 0)
    with pytest.raises(CommandFormatError, match="not a command"):
        game.execute("take 2")  # type: ignore[arg-type]
    assert game.state.version == len(game.collect_events())


# -- decisions in the event stream ------------------------------------------------------------


def wipe_openings(count: int) -> list[int]:
    """Seeds of two-player random games whose first decision is a three-of-a-kind wipe."""
    found = []
    for seed in range(2000):
        game = Game.start(seed, ["random", "random"])
        if isinstance(make_bots(["random", "random"], seed)[game.current_player].choose(game), WipeThree):
            found.append(seed)
            if len(found) == count:
                return found
    raise AssertionError("no game opens with a wipe")


def test_an_opening_wipe_is_the_first_decision_and_setup_ends_before_it():
    seed = wipe_openings(1)[0]
    events = play_game(seed, ["random", "random"]).collect_events()
    setup = through_turn(events, 0)
    wipe = events[len(setup)]
    assert isinstance(wipe, ev.OverpopulationWiped) and wipe.mandatory is False
    assert is_decision(wipe) and not any(is_decision(e) for e in setup)
    assert commands_of(events)[0] == WipeThree()


def test_secret_card_reveal_starts_the_decision_of_the_first_spend():
    events = play_game(11, ["random"] * 3, GameOptions(secret_cards=True)).collect_events()
    for before, event in pairwise(events):
        if isinstance(before, ev.SecretCardRevealed):
            assert is_decision(before) and isinstance(event, ev.NatureTokenSpent)
            assert not is_decision(event, before)
    assert any(isinstance(e, ev.SecretCardRevealed) for e in events)


# -- show --turn and replay agree --------------------------------------------------------------


def test_show_turn_and_replay_agree_after_every_turn_also_after_an_opening_wipe(cli, tmp_path):
    for seed in [*wipe_openings(1), 1]:
        code, _, _ = cli("simulate", "--games", "1", "--players", "2", "--seed", str(seed), "--bot", "random")
        assert code == 0
    code, out, _ = cli("export", "--all", "-o", str(tmp_path / "logs"), "--json")
    assert code == 0
    openings = []
    for line in out.splitlines():
        exported = json.loads(line)
        code, out, _ = cli("replay", exported["file"], "--json", home=False)
        snapshots = [json.loads(row) for row in out.splitlines()]
        assert [s["turn"] for s in snapshots] == list(range(len(snapshots)))
        decided: list = []
        for snapshot in snapshots:
            decided += snapshot["decisions"]
            code, out, _ = cli("show", exported["game_id"], "--turn", str(snapshot["turn"]), "--json")
            shown = json.loads(out)
            assert shown.pop("decisions") == decided
            assert shown.pop("scores") == snapshot["scores"], f"turn {snapshot['turn']}"
            assert shown == snapshot["state"], f"turn {snapshot['turn']}"
        opening = snapshots[1]["decisions"][0]
        assert snapshots[0]["version"] == opening["seq"] - 1
        openings.append(opening["text"])
    assert sorted(openings)[-1] == "wipe3" and len(openings) == 2
