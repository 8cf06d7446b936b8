"""The position notation (docs/POSITION.md): it round-trips, it hides what the viewer may
not see, a malformed text names the field and the character, a game built from it plays
on, and ``cascadia position`` / ``cascadia analyse --position`` use it."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from cascadia.bots.position_analysis import rank_moves
from cascadia.bots.position_game import position_game
from cascadia.bots.registry import make_bots
from cascadia.cli.common import load_game
from cascadia.domain.commands import PlaceTile, ReturnWildlife, Take, parse
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.player_view import EVERYTHING, SPECTATOR, hidden_species, player_view
from cascadia.projections.position import (
    PositionError,
    format_position,
    parse_position,
    position_of,
    write_position,
)

GAMES = 16
"""Seeded random games of the round-trip property (about a second in all)."""


def _options(rng: random.Random) -> GameOptions:
    """Random options: secret cards, two card sets, the market of three, no starter, a card choice."""
    two_sets = rng.random() < 0.4
    return GameOptions(
        cards=rng.choice(["random", "A,B,C,D,A", "all-a"] + ([] if two_sets else ["family"])),
        secret_cards=rng.random() < 0.5,
        two_card_sets=two_sets,
        market_of_three=rng.random() < 0.3,
        no_starter=rng.random() < 0.2,
    )


def _positions(seed: int) -> Iterator[Game]:
    """A random game of 1-4 random bots, yielded after every few commands (mid-turn too)."""
    rng = random.Random(seed)
    players = seed % 4 + 1
    game = Game.start(seed, ["random"] * players, _options(rng))
    bots = make_bots(["random"] * players, seed)
    yield game
    while not game.finished:
        game.execute(bots[game.current_player].choose(game))
        if rng.random() < 0.15 or game.finished:
            yield game


@pytest.mark.parametrize("seed", range(GAMES))
def test_the_notation_round_trips_for_every_viewer(seed: int) -> None:
    for game in _positions(seed):
        state = game.state
        for viewer in [EVERYTHING, SPECTATOR, *range(state.player_count)]:
            text = format_position(state, viewer)
            position = parse_position(text)
            assert write_position(position) == text
            assert position == position_of(state, viewer) or state.options.cards == "family"
            rebuilt = position_game(position, seed)
            assert format_position(rebuilt.state, viewer) == text
            # from the player view with its scores, as the server writes it
            assert format_position(state, viewer, player_view(state, viewer)) == text


def _secret_game() -> Game:
    """A 3-player game with secret cards, two turns in, no card revealed yet."""
    game = Game.start(5, ["greedy"] * 3, GameOptions(secret_cards=True, two_card_sets=True))
    bots = make_bots(["random"] * 3, 5)
    for _ in range(2):
        bots[game.current_player].play_turn(game)
    assert not any(game.state.secret_revealed)
    return game


def test_a_seat_sees_its_own_secret_card_and_no_other() -> None:
    state = _secret_game().state
    for viewer in [SPECTATOR, 0, 1, 2]:
        position = parse_position(format_position(state, viewer))
        hidden = set(hidden_species(state, viewer))
        assert len(hidden) == (3 if viewer == SPECTATOR else 2)
        for seat, species in enumerate(position.secret_cards):
            assert species == (state.secret_cards[seat] if seat == viewer else None)
        for i, species in enumerate(("bear", "elk", "salmon", "hawk", "fox")):
            assert position.cards[i] == (None if species in hidden else state.cards[species])
            assert position.second_cards is not None and state.second_cards is not None
            assert position.second_cards[i] == (None if species in hidden else state.second_cards[species])
    everything = parse_position(format_position(state, EVERYTHING))
    assert everything.secret_cards == tuple(state.secret_cards)


def test_a_position_does_not_depend_on_what_its_viewer_cannot_see() -> None:
    game = _secret_game()
    seat = game.state.current
    other = game.state.copy()
    other.seed ^= 0xFFFF
    for s, species in enumerate(other.secret_cards):
        if s != seat:
            other.cards[species] = "D" if other.cards[species] != "D" else "A"
    assert format_position(other, seat) == format_position(game.state, seat)
    assert format_position(other, EVERYTHING) != format_position(game.state, EVERYTHING)


BASE = (
    "cascadia-pos1 0 2 secret_cards greedy,greedy 13:1 1:take DCDAC F*,S* 1,0 39S,33E,70B,9F "
    "17,15,18,17,17 27 - 24@-2,1H;6@-2,2;23@-1,0;89@-1,1r4S;2@-1,2E;88@0,0H;90@0,1r5F;75@1,0r1E;13@1,1 "
    "57@-3,1r2E;42@-2,0r5;56@-2,1F;4@-1,0;86@-1,1r4H;11@-1,2E;85@0,0B;87@0,1r5B;76@0,2r3"
)
"""A position from a real game: seat 0's view at turn 13 of a 2-player game."""


@pytest.mark.parametrize(
    ("old", "new", "field", "at"),
    [
        ("cascadia-pos1", "cascadia-pos2", "header", "cascadia-pos2"),
        ("1:take", "1:tak", "to-move", "tak "),
        ("1:take", "1:take+x", "to-move", "x "),
        ("1:take", "2:take", "to-move", "2:take"),
        ("39S,", "39X,", "market", "X,33E"),
        ("70B", "88B", "market", "88B"),
        ("DCDAC", "DCEAC", "cards", "EAC"),
        ("13:1", "13:x", "turn", "x 1:take"),
        ("F*,S*", "F*,S+", "secret", "+ 1,0"),
        ("1,0 39", "1 39", "nature", "1 39"),
        ("secret_cards", "secret_card", "options", "secret_card "),
        ("secret_cards", "secret_cards;must_match", "options", "must_match "),
        ("secret_cards", "salmon_runs=x;secret_cards", "options", "salmon_runs=x"),
        ("secret_cards", "majority_bonus;secret_cards", "options", "majority_bonus;"),
        ("DCDAC", "DCDAC+ABCDA", "cards", "DCDAC+"),
        ("F*,S*", "-", "secret", "- 1,0"),
        ("r5F;75", "r6F;75", "board 0", "6F;75"),
        ("57@-3,1r2E", "57@-3,1r0E", "board 1", "0E;42"),
        ("24@-2,1H", "24@-2;1H", "board 0", ";1H"),
        ("4@-1,0;", "4@-1,0;4@-1,0;", "board 1", "-1,0;86"),
        ("17,15,18,17,17", "17,15,18,17,16", "bag", "17,15,18,17,16"),
        ("greedy,greedy", "gree%ZZdy,greedy", "names", "%ZZ"),
    ],
)
def test_a_malformed_position_names_the_field_and_the_character(
    old: str, new: str, field: str, at: str
) -> None:
    parse_position(BASE)
    text = BASE.replace(old, new, 1)
    with pytest.raises(PositionError) as raised:
        parse_position(text)
    error = raised.value
    assert error.field == field
    assert text[error.column - 1 :].startswith(at), (error, text[error.column - 1 :][:20])
    assert f"column {error.column}" in str(error) and field in str(error)


@pytest.mark.parametrize(("text", "field"), [("", "header"), ("cascadia-pos1 0 2", "options")])
def test_a_short_text_names_the_missing_field(text: str, field: str) -> None:
    with pytest.raises(PositionError) as raised:
        parse_position(text)
    assert raised.value.field == field


def test_a_game_built_from_a_position_plays_to_its_end() -> None:
    game = _secret_game()
    rebuilt = position_game(parse_position(format_position(game.state, game.current_player)), 3)
    bots = make_bots(["greedy"] * 3, 3)
    while not rebuilt.finished:
        bots[rebuilt.current_player].play_turn(rebuilt)
    assert rebuilt.state.turn == 60


def test_ranked_moves_are_legal_in_the_real_game() -> None:
    game = _secret_game()
    position = parse_position(format_position(game.state, game.current_player))
    ranked = rank_moves(position, budget=2, moves=4)
    assert len(ranked) == 4
    assert [r.expected for r in ranked] == sorted((r.expected for r in ranked), reverse=True)
    for row in ranked:
        real = Game(game.state.copy())
        for command in row.text.split("; "):
            real.execute(parse(command))


@pytest.mark.parametrize("done", [(), ("tile",), ("token",)])
def test_a_turn_past_its_take_ranks_the_ways_to_finish_it(done: tuple[str, ...]) -> None:
    game = _secret_game()
    game.execute(Take(*game.legal_takes()[0]))
    if "tile" in done:
        (q, r), rotation = game.legal_tile_placements()[0]
        game.execute(PlaceTile(q, r, rotation))
    if "token" in done:
        game.execute(ReturnWildlife())
    position = parse_position(format_position(game.state, game.current_player))
    ranked = rank_moves(position, budget=1, moves=3)
    assert 1 <= len(ranked) <= 3
    for row in ranked:
        real = Game(game.state.copy())
        turn = real.state.turn
        for command in row.text.split("; "):
            real.execute(parse(command))
        assert real.state.turn == turn + 1


def test_the_commands_print_and_analyse_a_stored_position(cli, tmp_path) -> None:
    code, _, _ = cli("simulate", "-n", "1", "-p", "2", "--bot", "greedy", "--rule", "secret_cards")
    assert code in (0, None)
    code, out, _ = cli("games", "--json")
    game_id = json.loads(out.splitlines()[0])["id"]
    code, text, _ = cli("position", game_id[:8], "--turn", "6", "--as-player", "1")
    assert code in (0, None) and text.count("\n") == 1
    position = parse_position(text.strip())
    assert position.viewer == 1 and position.turn == 7
    code, out, _ = cli(
        "analyse", "--position", text.strip(), "--budget", "1", "--moves", "3", "--json", home=False
    )
    assert code in (0, None)
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 3
    _, state = load_game(game_id, str(tmp_path), 6)
    real = Game(state)
    for command in rows[0]["move"].split("; "):
        real.execute(parse(command))
    code, out, err = cli(
        "analyse", "--position", text.strip().replace("cascadia-pos1", "cascadia"), home=False
    )
    assert (code, out) == (1, "")
    assert err.startswith("error: position field 'header', column 1") and err.count("\n") == 1


def test_the_environments_start_from_a_position() -> None:
    from cascadia.bots.agents.gym_env import CascadiaEnv
    from cascadia.bots.agents.pettingzoo_env import CascadiaAECEnv

    game = _secret_game()
    text = format_position(game.state, game.current_player)
    env = CascadiaEnv(opponents=["random", "random"], seat=game.current_player)
    _, info = env.reset(seed=1, options={"position": text})
    assert env.episode is not None
    assert format_position(env.episode.game.state, game.current_player) == text
    rng = random.Random(0)
    finished = False
    while not finished:
        legal = [action for action, ok in enumerate(info["action_mask"]) if ok]
        _, _, finished, _, info = env.step(rng.choice(legal))
    with pytest.raises(InvalidOptionError, match="no log"):
        env.export_log("unused.cascadia")
    aec = CascadiaAECEnv(players=3)
    aec.reset(seed=2, options={"position": text})
    assert aec.agent_selection == f"seat_{game.current_player}"
    with pytest.raises(InvalidOptionError, match="seats"):
        CascadiaAECEnv(players=2).reset(seed=2, options={"position": text})


def test_the_replay_viewer_holds_each_points_position_as_its_viewer_sees_it() -> None:
    from cascadia.replays.viewer import viewer_data

    game = _secret_game()
    events = game.collect_events()
    for viewer in (0, SPECTATOR):
        snapshots = viewer_data(events, viewer)["snapshots"]
        assert snapshots[-1]["position"] == format_position(game.state, viewer)
        assert all(parse_position(s["position"]).viewer == viewer for s in snapshots)


def test_position_explains_the_notation_and_needs_a_game_otherwise(cli) -> None:
    code, out, _ = cli("position", "--explain", home=False)
    assert code in (0, None) and out.startswith("# The position notation") and "| to-move |" in out
    code, out, err = cli("position")
    assert (code, out) == (1, "") and err.startswith("error: name a game")
