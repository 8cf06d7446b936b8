"""What ``cascadia play`` shows: true sentences, whose turn of how many, a board that
says what each tile holds and can hold, and a turn's screen that fits 80x24.

Driven as in ``tests/test_play.py``: the console script's entry point with a scripted
stdin whose answers are made from the stored game when they are read."""

from __future__ import annotations

import math
import re
from uuid import UUID

import pytest
import test_play
from cascadia.bots.registry import play_game
from cascadia.cli.play_view import board_map, tile_label
from cascadia.domain import events as ev
from cascadia.domain.components import TILES
from cascadia.domain.environment import Environment
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.describe import describe_event, possessive, seat_name, subject
from cascadia.projections.turns import Round, game_round, game_turns
from test_play import Answerer, legal_line, new_game

cli = test_play.cli  # the fixture that runs `cascadia ... --home tmp_path` with a stdin

GAME = UUID(int=1)
SCREEN_LINES = 24
WIDTH = 80
RULE = re.compile(r"─ (\S.*) turn, round (\d+) of (\d+) · ")


def physical_lines(lines: list[str]) -> int:
    """How many rows ``lines`` take on an 80-column terminal (long lines wrap)."""
    return sum(max(1, math.ceil(len(line) / WIDTH)) for line in lines)


def turn_screens(out: str) -> list[list[str]]:
    """Each human turn's screen: from its header line to its first prompt (included)."""
    screens, current = [], None
    for line in out.splitlines():
        if RULE.search(line):
            current = [line]
        elif current is not None:
            current.append(line)
            if re.match(r"^\S+: take> ", line):
                screens.append(current)
                current = None
    return screens


# -- the screen fits -----------------------------------------------------------------------


def test_every_turn_screen_fits_an_80_by_24_terminal(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "you,greedy", "--seed", "21")
    code, out, err = cli("play", game_id[:8], stdin=Answerer(tmp_path, game_id))
    assert code == 0, err
    screens = turn_screens(out)
    assert len(screens) == 20
    heights = [physical_lines(screen) for screen in screens]
    print("turn screen heights:", heights)
    assert max(heights) <= SCREEN_LINES, "\n".join(screens[heights.index(max(heights))])
    # every line within 80 columns, but the hint before the prompt when it offers a wipe
    # of three as well as nature tokens (a terminal wraps it: counted above)
    assert all(len(line) <= WIDTH for screen in screens for line in screen[:-2])
    assert sum(len(screen[-2]) > WIDTH for screen in screens) <= 2


# -- whose turn, of how many ---------------------------------------------------------------


def test_the_header_counts_the_rounds(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "you,greedy", "--seed", "21")
    code, out, _ = cli("play", game_id[:8], stdin=Answerer(tmp_path, game_id))
    assert code == 0
    numbers = [(m.group(1), int(m.group(2)), int(m.group(3))) for m in RULE.finditer(out)]
    assert numbers == [("your", k, 20) for k in range(1, 21)]
    assert "greedy's turn, round 20 of 20: greedy took" in out or "your turn, round 20 of 20" in out


def test_no_starter_games_last_18_turns_each(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "ann,greedy,greedy", "--seed", "2", "--rule", "no_starter")
    code, out, _ = cli("play", game_id[:8], stdin=Answerer(tmp_path, game_id, script=[None]))
    assert code == 0
    assert re.search(r"ann's turn, round 1 of 18 · ", out)


@pytest.mark.parametrize(
    ("players", "rules", "per_player"),
    [(1, (), 20), (2, (), 20), (4, (), 20), (3, ("no_starter",), 18), (1, ("no_starter",), 19)],
)
def test_rounds_over_a_whole_game(players, rules, per_player):
    """Before each turn ends, the game knows its length and its round, which is the
    seat's own turn (1, 2, ... per_player): each seat plays once a round."""
    game = play_game(3, ["random"] * players, GameOptions(**dict.fromkeys(rules, True)))
    events = game.collect_events()
    starts = [i + 1 for i, e in enumerate(events) if isinstance(e, ev.TurnEnded)][:-1]
    played: dict[int, int] = {}
    for boundary in [_setup_end(events), *starts]:
        state = Game.replay(events[:boundary]).state
        assert game_turns(state) == per_player * players
        seat = state.current
        played[seat] = played.get(seat, 0) + 1
        assert game_round(state) == Round(played[seat], per_player)
    assert played == dict.fromkeys(range(players), per_player)
    assert game_turns(game.state) == per_player * players


def _setup_end(events: list[ev.GameEvent]) -> int:
    """The number of setup events (those before the first decision)."""
    return next(i for i, e in enumerate(events) if e.kind == "decision")


# -- words ---------------------------------------------------------------------------------


def test_a_seat_named_you_is_spoken_to():
    names = ["you", "greedy"]
    assert describe_event(ev.FirstPlayerChosen(GAME, 7, seat=0), names) == "you play first."
    assert describe_event(ev.FirstPlayerChosen(GAME, 7, seat=1), names) == "greedy plays first."
    assert subject(names, 0, "has", "have") == "you have"
    assert possessive(names, 0) == "your" and possessive(names, 1) == "greedy's"


def test_seats_named_alike_say_which_seat():
    names = ["ann", "greedy", "greedy"]
    assert seat_name(names, 0) == "ann"
    assert seat_name(names, 2) == "greedy (seat 2)"
    assert describe_event(ev.WildlifeReturned(GAME, 9, player=1, wildlife="elk"), names) == (
        "greedy (seat 1) returned the elk to the bag."
    )


def test_a_turns_end_says_its_round_of_the_games_rounds():
    """Turn 5 of a two-seat game is round 3: "of n" when the game's rounds are given."""
    names = ["you", "greedy"]
    ended = ev.TurnEnded(GAME, 40, player=0, turn=5)
    assert describe_event(ended, names, rounds=20) == "End of your turn, round 3 of 20."
    assert describe_event(ended, names) == "End of your turn, round 3."


def test_play_transcript_has_no_third_person_you_and_names_alike_seats(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "you,greedy,greedy", "--seed", "8")
    code, out, _ = cli("play", game_id[:8], stdin=Answerer(tmp_path, game_id))
    assert code == 0
    for wrong in ("you's", "you has", "you plays", "you holds"):
        assert wrong not in out
    assert "your board" in out and "your turn" in out
    assert "greedy (seat 1)'s turn" in out and "greedy (seat 2)'s turn" in out
    assert re.search(r"greedy \(seat [12]\) took tile #", out)
    assert re.search(r"scores now: you \d+.*, greedy \(seat 1\) \d+.*, greedy \(seat 2\) \d+", out)
    winner = re.search(r"Winner: (.*) with \d+ points|Shared win: (.*) with", out)
    assert winner and "greedy," not in (winner.group(1) or "")


# -- the board -----------------------------------------------------------------------------


def test_the_board_shows_rotations_what_empty_tiles_hold_and_open_hexes():
    dual = next(t.id for t in TILES if not t.keystone and len(t.wildlife) == 3)
    key = next(t.id for t in TILES if t.keystone)
    env = Environment({(0, 0): (dual, 3), (1, 0): (key, 0)})
    tile = TILES[dual]
    letters = "".join(w[0] for w in tile.wildlife)
    initials = "".join(h[0].upper() for h in tile.habitats)
    assert tile_label(dual, 3, None).plain == f"{initials}3.{letters}"
    assert tile_label(dual, 3, tile.wildlife[0]).plain == f"{initials}3:{tile.wildlife[0][0]}"
    text = board_map(env, env.open_hexes()).plain
    assert f"{initials}3.{letters}" in text
    assert all(f"{q},{r}" in text for q, r in env.open_hexes())
    assert len(text.splitlines()) == 3  # one line per row: r = -1, 0, 1


def _pair_with_target(answerer: Answerer, game: Game) -> str:
    env = game.state.active.environment
    for slot, token in enumerate(game.state.market_wildlife):
        if env.wildlife_targets(token):
            return str(slot)
    raise AssertionError("no pair with a target in this setup: choose another seed")


def _token_first(answerer: Answerer, game: Game) -> str:
    q, r = game.legal_wildlife_targets()[0]
    return f"token {q} {r}"


def test_after_the_token_goes_first_the_screen_no_longer_says_it_is_held(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "you,greedy", "--seed", "3")
    script = [_pair_with_target, _token_first, "show", None]
    code, out, _ = cli("play", game_id[:8], stdin=Answerer(tmp_path, game_id, script=script))
    assert code == 0
    after = out[out.index("tile> token ") :]
    assert "token and this tile" not in after
    assert "You hold this tile (the " in after and "is no longer in your hand)" in after


def _prefer_a_pair_without_target(answerer: Answerer, game: Game) -> str:
    """A legal answer; at the choice of a pair, one whose token no tile can take (neither
    a tile of the board nor the tile of the pair), when the market offers one."""
    state = game.state
    if not state.turn_state.has_taken:
        env = state.active.environment
        market = zip(state.market_tiles, state.market_wildlife, strict=True)
        for slot, (tile, token) in enumerate(market):
            if not env.wildlife_targets(token) and token not in TILES[tile].wildlife:
                return str(slot)
    return legal_line(game, answerer.rng)


def test_a_token_without_target_is_said_at_once(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "you", "--seed", "4")
    script = [_prefer_a_pair_without_target] * 200
    code, out, _ = cli("play", game_id[:8], stdin=Answerer(tmp_path, game_id, script=script))
    assert code == 0
    assert "none of yours" in out  # the market says it before the pair is taken
    said = (
        r"took tile #\d+ .*\nYou hold the (\w+) token and this tile:(\n.*){9,12}\n"
        r"No tile of yours can take the \1, nor can the tile you hold: it will go back"
    )
    assert re.search(said, out), out[:3000]


def test_a_board_too_wide_for_80_columns_is_drawn_compact():
    dual = next(t.id for t in TILES if not t.keystone and len(t.wildlife) == 3)
    env = Environment({(q, 0): (dual, 0) for q in range(9)})
    full = board_map(env, env.open_hexes(), width=1000).plain
    assert max(len(line) for line in full.splitlines()) > WIDTH
    text = board_map(env, env.open_hexes()).plain
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert all(f"{q},{r}" in text for q, r in env.open_hexes())
    assert text.count(".") == 9  # empty tiles, without what they can hold
