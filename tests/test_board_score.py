"""Scoring a real table from board text (docs/BOARD.md): the worked examples of RULES.md,
boards of simulated games scored as the engine scored them, round trips, bad input, and
``cascadia score --board`` end to end."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from cascadia.application.documents import document
from cascadia.bots.registry import play_game
from cascadia.domain.components import STARTER_COUNT, STARTER_POSITIONS, starter_layout
from cascadia.domain.hexgrid import DIRECTION_NAMES, tile_edges
from cascadia.domain.options import GameOptions
from cascadia.projections.board_text import (
    MAX_BOARD_BYTES,
    SCORING_OPTIONS,
    BoardTable,
    BoardTextError,
    parse_boards,
    score_table,
    table_of,
    table_text,
)
from cascadia.projections.game_scores import score_state


def rows(name: str, sizes: dict[str, int], nature: int = 0) -> str:
    """A board of keystone rows, one per habitat (``M`` at ``r = 0``, ``F`` below, ...),
    each from ``q = 0``: one corridor of each habitat, of the size given (0: no row)."""
    lines = [f"player: {name}", f"nature: {nature}"]
    letters = [letter for letter in "MFPWR" if sizes.get(letter)]
    for r, letter in enumerate(letters):
        lines += [f"{q},{r} {letter}" for q in range(sizes[letter])]
    return "\n".join(lines) + "\n"


def score(text: str) -> dict:
    return score_table(parse_boards([("table.txt", text)])).to_dict()


# -- the worked examples of RULES.md ----------------------------------------------------------

WORKED_EXAMPLE_BOARD = """\
player: worked example
nature: 2
0,-2    M       hawk
1,-2    M
2,-2    W       bear
3,-2    R
4,-2    P
-1,-1   M
0,-1    F       fox
1,-1    W       bear
3,-1    R       hawk
-4,0    W
-3,0    M       bear
-2,0    M       bear
-1,0    M       fox
0,0     W       fox
1,0     W       elk
2,0     R       elk
-2,1    W
-1,1    W       hawk
0,1     P       salmon
1,1     R
2,1     F
-2,2    W
-1,2    P
0,2     P       salmon
1,2     R
2,2     F
3,2     F       elk
4,2     F       elk
5,2     W       elk
6,2     W
-4,3    F
-3,3    W       hawk
0,3     P       salmon
0,4     P       salmon
1,4     P
0,5     P
"""


def test_the_rulebook_worked_example_scores_98() -> None:
    """RULES.md 5.9: two bear pairs (11), elk lines of 2 and 3 (14), a salmon run of 4
    (12), four lone hawks (11), foxes seeing 3, 5 and 3 species (11); corridors 6, 4, 7,
    8, 5; in a 4-player game tied for mountain with one other (+2), for forest with two
    others (+1), second in prairie (+1), alone first in wetland (+3), smallest river (0);
    2 nature tokens: 59 + 30 + 7 + 2 = 98."""
    text = "cards: A A A A A\n" + "\n".join(
        [
            WORKED_EXAMPLE_BOARD,
            rows("b", {"M": 6, "F": 4, "P": 8, "W": 1, "R": 7}),
            rows("c", {"M": 1, "F": 4, "P": 1, "W": 1, "R": 6}),
            rows("d", {"M": 1, "F": 1, "P": 1, "W": 1, "R": 6}),
        ]
    )
    player = score(text)["players"][0]
    assert player["wildlife"] == {"bear": 11, "elk": 14, "salmon": 12, "hawk": 11, "fox": 11}
    assert player["corridors"] == {"mountain": 6, "forest": 4, "prairie": 7, "wetland": 8, "river": 5}
    assert player["habitat_bonuses"] == {"mountain": 2, "forest": 1, "prairie": 1, "wetland": 3, "river": 0}
    assert (player["wildlife_total"], player["habitat_total"], player["bonus_total"]) == (59, 30, 7)
    assert player["nature_tokens"] == 2 and player["total"] == 98


def test_majority_sizes_7_5_5_2_give_3_0_0_0() -> None:
    """RULES.md 5.1: "sizes 7, 5, 5, 2 in a 4-player game give 3, 0, 0, 0"."""
    text = "cards: A A A A A\n" + "".join(
        rows(n, {"M": s}) for n, s in zip("abcd", (7, 5, 5, 2), strict=True)
    )
    assert [p["habitat_bonuses"]["mountain"] for p in score(text)["players"]] == [3, 0, 0, 0]


def test_two_players_tied_get_one_each_and_nature_tokens_break_the_tie() -> None:
    """RULES.md 5.1 "2 players: the larger scores 2; a tie gives 1 each"; 5: "a tie goes
    to the tied player with more nature tokens"."""
    sheet = score("cards: B B B B B\n" + rows("a", {"F": 3}, nature=1) + rows("b", {"F": 4}))
    assert [p["habitat_bonuses"]["forest"] for p in sheet["players"]] == [0, 2]
    sheet = score("cards: B B B B B\n" + rows("a", {"F": 4}, nature=1) + rows("b", {"F": 5}))
    assert [p["habitat_bonuses"]["forest"] for p in sheet["players"]] == [0, 2]
    assert [p["total"] for p in sheet["players"]] == [5, 7]
    sheet = score("cards: B B B B B\n" + rows("a", {"F": 4}, nature=1) + rows("b", {"F": 4}))
    assert [p["habitat_bonuses"]["forest"] for p in sheet["players"]] == [1, 1]
    assert sheet["winners"] == [0]


def test_solo_bonus_and_rating() -> None:
    """RULES.md 5.1 "Solo: ... +2 for each habitat whose largest corridor has 7 or more
    tiles"; 6: the rating; 5.8: ``majority_bonus=off`` skips the solo bonus too."""
    sheet = score("cards: family\n" + rows("solo", {"W": 7, "R": 6}))
    (player,) = sheet["players"]
    assert player["habitat_bonuses"] == {"mountain": 0, "forest": 0, "prairie": 0, "wetland": 2, "river": 0}
    assert player["total"] == 7 + 6 + 2 and sheet["solo_rating"] == "keep practising"
    sheet = score("cards: family\noptions: majority_bonus=off\n" + rows("solo", {"W": 7}))
    assert sheet["players"][0]["bonus_total"] == 0


def test_a_dual_hex_shows_its_first_habitat_around_the_edge_it_faces() -> None:
    """RULES.md 2: "A dual tile listed [A, B] with rotation rho shows A on edges rho,
    rho+1, rho+2": ``M/F@E`` shows mountain on NE, E, SE; ``F/M@W`` says the same."""
    for facing, direction in enumerate(DIRECTION_NAMES):
        text = f"cards: A A A A A\nplayer: a\n0,0 M/F@{direction}\n"
        edges = parse_boards([("t", text)]).players[0].environment.edges((0, 0))
        expected = tuple("mountain" if (edge - facing) % 6 in (5, 0, 1) else "forest" for edge in range(6))
        assert edges == expected
        back = DIRECTION_NAMES[(facing + 3) % 6]
        swapped = parse_boards([("t", f"cards: A A A A A\nplayer: a\n0,0 F/M@{back}\n")])
        assert swapped.players[0].environment.edges((0, 0)) == expected


def test_the_documented_example_reads() -> None:
    example = re.search(r"## An example\n\n```\n(.*?)```", document("board"), re.S)
    assert example
    table = parse_boards([("example.txt", example.group(1))])
    assert [p.name for p in table.players] == ["Anna", "Ben"]
    assert table.options.salmon_runs == "lenient"
    assert score_table(table).players[0].corridors["mountain"] == 3


def test_the_documented_starter_tiles_are_the_components() -> None:
    """docs/BOARD.md's table of the five starter tiles, hex by hex, shows the edges of
    components.py's starters (RULES.md 3.4: keystone at 0,0, the others at -1,1 and 0,1)."""
    found = re.findall(r"^\| \w+ \(\w+\) \| `(\w)` \| `(\S+)` \| `(\S+)` \|$", document("board"), re.M)
    assert len(found) == STARTER_COUNT
    for starter, habitats in enumerate(found):
        lines = "".join(f"{q},{r} {h}\n" for (q, r), h in zip(STARTER_POSITIONS, habitats, strict=True))
        board = parse_boards([("t", "cards: A A A A A\nplayer: a\n" + lines)]).players[0].environment
        for position, tile_id, rotation in starter_layout(starter):
            assert board.edges(position) == tile_edges(tile_id, rotation), (starter, position)


# -- boards of simulated games ----------------------------------------------------------------

GAME_OPTIONS = (
    GameOptions(),
    GameOptions(salmon_runs="lenient", elk_rings="any-subset"),
    GameOptions(cards="family", majority_bonus=False),
    GameOptions(cards="intermediate"),
    GameOptions(two_card_sets=True),
    GameOptions(corridors_min_five=True),
    GameOptions(corridors_of_three=True),
    GameOptions(must_not_match=True),
    GameOptions(no_starter=True),
    GameOptions(secret_cards=True),
)


@pytest.mark.parametrize("seed", range(20))
def test_a_simulated_game_written_as_board_text_scores_as_the_engine_did(seed: int) -> None:
    players = 2 + seed % 3
    options = GAME_OPTIONS[seed % len(GAME_OPTIONS)]
    bots = ["greedy" if (seed + seat) % 2 else "random" for seat in range(players)]
    state = play_game(seed, bots, options).state
    expected = score_state(state).to_dict()
    whole = table_of(state)
    one_file = table_text(whole)
    per_player = [
        (f"seat{seat}.txt", table_text(BoardTable((player,), whole.cards, whole.options, whole.second_cards)))
        for seat, player in enumerate(whole.players)
    ]
    for files in ([("table.txt", one_file)], per_player):
        table = parse_boards(files)
        sheet = score_table(table).to_dict()
        assert sheet["players"] == expected["players"]
        assert sheet["winners"] == expected["winners"] and sheet["cards"] == expected["cards"]
        assert sheet["second_cards"] == expected["second_cards"]
        for name in (*SCORING_OPTIONS, "two_card_sets"):
            assert getattr(table.options, name) == getattr(options, name), name
        for parsed, player in zip(table.players, state.players, strict=True):
            board, original = parsed.environment, player.environment
            assert board.tiles.keys() == original.tiles.keys() and board.wildlife == original.wildlife
            assert all(board.edges(h) == original.edges(h) for h in original.tiles)
    assert [p.name for p in parse_boards(per_player).players] == state.names
    assert table_text(parse_boards([("table.txt", one_file)])) == one_file


def test_hexes_in_any_order_and_habitats_either_way_round_read_the_same() -> None:
    """``F/M@W`` is ``M/F@E``; letters in either case; hex lines in any order: the board
    reads the same, and is written back in the one way the writer writes it."""
    state = play_game(5, ["greedy", "greedy"]).state
    text = table_text(table_of(state))
    sections = []
    for section in text.split("player: "):
        lines = section.splitlines()
        hexes = [_swapped(line) for line in lines[2:] if line]
        sections.append("\n".join([*lines[:2], *reversed(hexes)]) + "\n")
    rewritten = "player: ".join(sections)
    assert rewritten != text
    table = parse_boards([("t", rewritten)])
    assert score_table(table).to_dict()["players"] == score_state(state).to_dict()["players"]
    assert table_text(table) == text


def _swapped(line: str) -> str:
    """A hex line with a dual hex's habitats the other way round, in lower case."""
    match = re.fullmatch(r"(\S+)\s+([MFPWR])/([MFPWR])@(\w+)(.*)", line)
    if not match:
        return line
    position, first, second, facing, token = match.groups()
    back = DIRECTION_NAMES[(DIRECTION_NAMES.index(facing) + 3) % 6]
    return f"{position} {second.lower()}/{first}@{back.lower()}{token}"


def test_one_file_per_player_named_after_the_file() -> None:
    table = parse_boards([("cards.txt", "cards: C C C C C\n"), ("boards/anna.txt", "0,0 M bear\n1,0 F\n")])
    assert [p.name for p in table.players] == ["anna"]
    assert table.cards == dict.fromkeys(("bear", "elk", "salmon", "hawk", "fox"), "C")


# -- bad input ------------------------------------------------------------------------------------

GOOD_HEAD = "cards: A B C D A\nplayer: anna\n"

BAD_INPUT = [
    (
        "two tiles on one hex",
        GOOD_HEAD + "0,0 M\n1,0 F\n0,0 W\n",
        "5:1",
        "two tiles on hex 0,0 (the first at line 3)",
    ),
    ("not a species", GOOD_HEAD + "0,0 M wolf\n", "3:7", "expected a species"),
    ("unknown habitat", GOOD_HEAD + "0,0 M\n1,0 X\n", "4:5", "expected a habitat letter"),
    ("unknown second habitat", GOOD_HEAD + "0,0 M/Q@E\n", "3:7", "expected a habitat letter"),
    ("no facing", GOOD_HEAD + "0,0 M/F\n", "3:8", "expected @ and the edge the first habitat faces"),
    ("bad facing", GOOD_HEAD + "0,0 M/F@UP\n", "3:9", "expected @ and the edge the first habitat faces"),
    ("keystone facing", GOOD_HEAD + "0,0 M@E\n", "3:6", "a one-habitat hex has no facing"),
    ("same habitat twice", GOOD_HEAD + "0,0 M/M@E\n", "3:5", "two different ones"),
    ("no habitat", GOOD_HEAD + "0,0\n", "3:4", "expected the hex's habitat(s)"),
    ("two tokens", GOOD_HEAD + "0,0 M bear elk\n", "3:12", "at most one wildlife token"),
    ("not a position", GOOD_HEAD + "0;0 M\n", "3:1", "expected a position q,r"),
    ("not connected", GOOD_HEAD + "0,0 M\n1,0 F\n5,5 W\n", "5:1", "hex 5,5 is not connected"),
    ("cards missing", "player: anna\n0,0 M\n", "1:1", "cards missing"),
    ("card letter", "cards: A B E D A\nplayer: a\n0,0 M\n", "1:12", "expected five card letters A-D"),
    ("four cards", "cards: A B C D\nplayer: a\n0,0 M\n", "1:15", "4 given"),
    ("unknown key", GOOD_HEAD + "tokens: 3\n", "3:1", "unknown key 'tokens'"),
    (
        "nature not a number",
        GOOD_HEAD + "nature: two\n0,0 M\n",
        "3:9",
        "expected the number of nature tokens",
    ),
    ("nature not in ASCII digits", GOOD_HEAD + "nature: ²\n0,0 M\n", "3:9", "nature tokens left (0 to 25)"),
    ("more nature tokens than the game has", GOOD_HEAD + "nature: 26\n0,0 M\n", "3:9", "(0 to 25)"),
    ("a position of 5,000 digits", GOOD_HEAD + "9" * 5000 + ",0 M\n", "3:1", "expected a position q,r"),
    ("a bidi character in a name", "cards: A B C D A\nplayer: ann\u202e\n0,0 M\n", "2:1", "bidi"),
    (
        "unknown option",
        "options: balanced_bag=on\n" + GOOD_HEAD + "0,0 M\n",
        "1:10",
        "expected a scoring option",
    ),
    (
        "option value",
        "options: salmon_runs=loose\n" + GOOD_HEAD + "0,0 M\n",
        "1:10",
        "salmon_runs=strict or lenient",
    ),
    ("options clash", "options: corridors_of_three=on corridors_min_five=on\n" + GOOD_HEAD, "1:1", "exclude"),
    ("player without hexes", GOOD_HEAD + "player: ben\n0,0 M\n", "2:1", "player anna has no hexes"),
    ("no name", "cards: A B C D A\nplayer:\n", "2:8", "expected the player's name"),
    (
        "fifth player",
        "cards: A A A A A\n" + "".join(f"player: {n}\n0,0 M\n" for n in "abcde"),
        "10:1",
        "fifth",
    ),
    (
        "cards twice",
        GOOD_HEAD + "0,0 M\ncards: B B B B B\n",
        "4:1",
        "cards: differs from cards: at table.txt:1:1",
    ),
]


@pytest.mark.parametrize(
    ("text", "where", "message"), [case[1:] for case in BAD_INPUT], ids=[c[0] for c in BAD_INPUT]
)
def test_bad_input_is_one_clear_error_at_its_line_and_column(text: str, where: str, message: str) -> None:
    with pytest.raises(BoardTextError) as error:
        parse_boards([("table.txt", text)])
    said = str(error.value)
    assert said.startswith(f"table.txt:{where}: "), said
    assert message in said and "\n" not in said


def test_an_error_quotes_a_long_word_cut_short() -> None:
    with pytest.raises(BoardTextError) as error:
        parse_boards([("table.txt", GOOD_HEAD + "9" * 5000 + ",0 M\n")])
    assert str(error.value).endswith("not '" + "9" * 40 + "…'")


def test_files_that_disagree_on_the_cards_name_both() -> None:
    with pytest.raises(BoardTextError, match=r"^b.txt:1:1: cards: differs from cards: at a.txt:1:1$"):
        parse_boards([("a.txt", "cards: A A A A A\n0,0 M\n"), ("b.txt", "cards: B A A A A\n0,0 M\n")])


# -- the command line ----------------------------------------------------------------------------


def test_score_board_prints_the_sheet_at_80_columns_and_json(app_cli, tmp_path: Path) -> None:
    table = tmp_path / "table.txt"
    table.write_text(
        "cards: A A A A A\n" + WORKED_EXAMPLE_BOARD + rows("b", {"M": 6, "F": 4, "P": 8, "W": 1, "R": 7})
    )
    code, out, err = app_cli("score", "--board", str(table))
    assert code == 0, err
    assert "worked example" in out and "total" in out and "(won)" in out and "(final)" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    code, out, _ = app_cli("score", "--board", str(table), "--json")
    sheet = json.loads(out)
    assert sheet["boards"] == [str(table)] and sheet["final"] is True
    assert [p["name"] for p in sheet["players"]] == ["worked example", "b"]
    assert sheet["players"][0]["wildlife_total"] == 59


def test_score_board_solo_file_per_player_and_explain(app_cli, tmp_path: Path) -> None:
    cards, solo = tmp_path / "cards.txt", tmp_path / "kim.txt"
    cards.write_text("cards: family\n")
    solo.write_text(rows("kim", {"W": 7}))
    code, out, _ = app_cli("score", "-b", str(cards), "-b", str(solo))
    assert code == 0 and "kim" in out and "solo rating: keep practising" in out
    code, out, _ = app_cli("score", "--explain")
    assert code == 0 and "# Board text" in out and "M/F@E" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cards: A B C D A\n0,0 M\n0,1 X\n", ":3:5: expected a habitat letter"),
        ("0,0 M\n", ":1:1: cards missing"),
    ],
)
def test_score_board_bad_input_is_one_line_and_exit_1(
    app_cli, tmp_path: Path, text: str, message: str
) -> None:
    board = tmp_path / "bad.txt"
    board.write_text(text)
    code, out, err = app_cli("score", "--board", str(board))
    assert code == 1 and out == ""
    assert err.startswith(f"error: {board}{message}") and err.count("\n") == 1 and "Traceback" not in err


def test_score_board_opens_only_a_regular_file_of_bounded_size(app_cli, tmp_path: Path) -> None:
    """A device or a FIFO would block or never end: refused at once, as every user-named
    file is (replays/format.py ``open_regular``); so is a file over MAX_BOARD_BYTES."""
    code, _, err = app_cli("score", "--board", "/dev/zero")
    assert code == 1 and err == "error: /dev/zero is a character device, not a board file\n"
    fifo = tmp_path / "board.fifo"
    os.mkfifo(fifo)
    code, _, err = app_cli("score", "--board", str(fifo))
    assert code == 1 and "not a board file" in err and err.count("\n") == 1
    big = tmp_path / "big.txt"
    big.write_text(GOOD_HEAD + "#" * MAX_BOARD_BYTES + "\n0,0 M\n")
    code, _, err = app_cli("score", "--board", str(big))
    assert code == 1 and f"a board file has at most {MAX_BOARD_BYTES}" in err


def test_score_board_refuses_a_missing_file_and_a_game_with_it(app_cli, tmp_path: Path) -> None:
    code, _, err = app_cli("score", "--board", str(tmp_path / "none.txt"))
    assert code == 1 and err.startswith("error: ") and "none.txt" in err and err.count("\n") == 1
    code, _, err = app_cli("score", "abc", "--board", str(tmp_path / "none.txt"))
    assert code == 1 and "--board scores board files" in err


def test_board_text_of_a_stored_game_scores_as_the_game(cli, tmp_path: Path) -> None:
    assert cli("simulate", "-n", "1", "-p", "3", "--bot", "greedy")[0] == 0
    code, out, _ = cli("games", "--json")
    game = json.loads(out.splitlines()[0])["id"]
    code, text, err = cli("score", game, "--board-text")
    assert code == 0, err
    board = tmp_path / "game.txt"
    board.write_text(text)
    code, out, _ = cli("score", "--board", str(board), "--json", home=False)
    from_text = json.loads(out)
    code, out, _ = cli("score", game, "--json")
    stored = json.loads(out)
    assert from_text["players"] == stored["players"] and from_text["winners"] == stored["winners"]
    code, text, _ = cli("score", game, "--board-text", "--seat", "1")
    assert code == 0 and text.count("player:") == 1
    code, _, err = cli("score", game, "--board-text", "--seat", "7")
    assert code == 1 and "--seat is a seat from 0 to 2" in err
