"""``cascadia score``, ``achievements`` and ``final-scores``: score sheets of stored games and of
boards written down from a real table (``score --board``, docs/BOARD.md)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from cascadia.application import read_models
from cascadia.application.documents import document
from cascadia.application.settings import data_home
from cascadia.cli.common import (
    HomeOption,
    JsonOption,
    console,
    load_game,
    naming_database,
    open_store,
    print_json,
)
from cascadia.cli.data_home import require_writable
from cascadia.cli.viewer_option import AsPlayerOption, viewer_of
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.state import GameState
from cascadia.projections.achievements import ACHIEVEMENTS, is_standard_game, winner_achievements
from cascadia.projections.board_text import (
    MAX_BOARD_BYTES,
    BoardTextError,
    Location,
    parse_boards,
    score_table,
    table_of,
    table_text,
)
from cascadia.projections.describe import plural
from cascadia.projections.game_scores import score_state
from cascadia.projections.player_view import player_view
from cascadia.projections.render import render_score
from cascadia.projections.scoresheet import named_sheet
from cascadia.projections.turns import game_round
from cascadia.replays.format import read_regular
from rich.table import Table


def sheet_table(names: Sequence[str], sheet: dict[str, Any]) -> Table:
    """The score sheet (as a player view gives it) as a table: a column per player (by
    seat, named ``names``), a row per score part; ``?`` for what depends on a card the
    viewer may not see."""
    table = Table("", *(f"{name}\nseat {seat}" for seat, name in enumerate(names)))
    cards, second = sheet["cards"], sheet["second_cards"]
    players = sheet["players"]
    for species in WILDLIFE:
        label = f"{species} {cards[species] or 'hidden'}" + (
            f" / {second[species] or 'hidden'}" if second else ""
        )
        table.add_row(label, *(render_score(p["wildlife"][species]) for p in players))
    if second:
        table.add_row(
            "card set used",
            *(render_score(None if p["card_set"] is None else p["card_set"] + 1) for p in players),
        )
    for habitat in HABITATS:
        table.add_row(
            habitat,
            *(
                f"{p['habitat_points'][habitat]}" + (f" +{b}" if (b := p["habitat_bonuses"][habitat]) else "")
                for p in players
            ),
        )
    table.add_row("nature tokens", *(str(p["nature_tokens"]) for p in players))
    table.add_row("total", *(f"[bold]{render_score(p['total'])}[/bold]" for p in players))
    table.add_row("rank", *(render_score(p["rank"]) + _rank_note(p) for p in players))
    return table


def _rank_note(player: dict[str, Any]) -> str:
    """`` (won)`` once the game is over, `` (leading)`` for a first place before."""
    if player["won"]:
        return " (won)"
    return " (leading)" if player["leading"] else ""


def score_status(state: GameState) -> str:
    """``final``, or where the running scores stand: ``running, turn 31 of 40``."""
    if state.finished:
        return "final"
    return f"running, {game_round(state)}"


BoardOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--board",
        "-b",
        metavar="FILE",
        help="Score the boards of a real table from this board text (docs/BOARD.md) instead of "
        "a stored game; repeat for one file per player.",
        show_default=False,
    ),
]


def score(
    game: Annotated[str | None, typer.Argument(help="Game id (or its first characters).")] = None,
    turn: Annotated[int | None, typer.Option("--turn", "-t", help="Scores at the end of this turn.")] = None,
    as_player: AsPlayerOption = None,
    board: BoardOption = None,
    board_text: Annotated[
        bool,
        typer.Option("--board-text", help="Print the game's boards as board text (docs/BOARD.md) instead."),
    ] = False,
    seat: Annotated[
        list[int] | None, typer.Option("--seat", help="With --board-text: only this seat (repeatable).")
    ] = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="Print the board text format (BOARD.md) and exit.")
    ] = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Print a game's score sheet (live for an unfinished game or with --turn), or score a
    game played on a real table from its boards written down (--board FILE, docs/BOARD.md;
    --explain prints the format). --board-text writes a stored game's boards in that format."""
    if explain:
        console.print(document("board"), markup=False, highlight=False)
        return
    if board:
        if game is not None or turn is not None or as_player is not None or board_text or seat:
            raise InvalidOptionError(
                "--board scores board files: no game, --turn, --as-player or --board-text"
            )
        score_boards(board, json_output)
        return
    if game is None:
        raise InvalidOptionError("name a game (its id or first characters), or give --board FILE")
    _, state = load_game(game, home, turn)
    if board_text:
        if as_player is not None or json_output:
            raise InvalidOptionError("--board-text writes every card and board: no --as-player or --json")
        print_board_text(state, seat)
        return
    if seat:
        raise InvalidOptionError("--seat goes with --board-text")
    sheet = player_view(state, viewer_of(as_player, state))["scores"]
    if json_output:
        print_json({"game_id": str(state.game_id), **sheet})
        return
    console.print(f"game {state.game_id} ({score_status(state)})", markup=False)
    print_sheet(state.names, sheet)


def print_sheet(names: Sequence[str], sheet: dict[str, Any]) -> None:
    """The sheet's table and, in a solo game, its rating."""
    console.print(sheet_table(names, sheet))
    if sheet["solo_rating"]:
        console.print(f"solo rating: {sheet['solo_rating']}")


def score_boards(paths: Sequence[Path], json_output: bool) -> None:
    """The final score sheet of the boards the board texts at ``paths`` describe."""
    table = parse_boards([(str(path), read_board_file(path)) for path in paths])
    names = [p.name for p in table.players]
    sheet = named_sheet(score_table(table), names)
    if json_output:
        print_json({"boards": [str(path) for path in paths], **sheet})
        return
    console.print(f"boards {', '.join(path.name for path in paths)} (final)", markup=False)
    print_sheet(names, sheet)


def read_board_file(path: Path) -> str:
    """The text of a board file (UTF-8), opened as every user-named file is (a regular
    file of at most :data:`MAX_BOARD_BYTES`: never a FIFO or a device that blocks)."""
    data = read_regular(path, "board file", MAX_BOARD_BYTES)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardTextError(Location(str(path), 1), "not a text file (expected UTF-8 board text)") from None


def print_board_text(state: GameState, seats: Sequence[int] | None) -> None:
    """The board text of a game's ``seats`` (default: all): cards, options and boards."""
    wrong = [seat for seat in seats or () if not 0 <= seat < state.player_count]
    if wrong:
        raise InvalidOptionError(f"--seat is a seat from 0 to {state.player_count - 1}, not {wrong[0]}")
    console.print(table_text(table_of(state, seats or None)), markup=False, highlight=False, end="")


def achievements(
    game: Annotated[str, typer.Argument(help="Game id (or its first characters).")],
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """List the achievements (RULES.md 8) the winner of a finished game qualified for."""
    _, state = load_game(game, home)
    earned = winner_achievements(state, score_state(state))
    if json_output:
        print_json(
            {
                "game_id": str(state.game_id),
                "finished": state.finished,
                "standard_game": is_standard_game(state.options),
                "winners": [
                    {"seat": seat, "name": state.names[seat], "achievements": names}
                    for seat, names in earned.items()
                ],
            }
        )
        return
    if not state.finished:
        console.print("the game has not ended: no achievements yet")
        return
    if not is_standard_game(state.options):
        console.print("note: RULES.md 8 lists achievements for standard games; this one has other options")
    for seat, names in earned.items():
        said = f"seat {seat} {state.players[seat].name}: {plural(len(names), 'achievement')}"
        console.print(said, markup=False)
        for name in names:
            console.print(f"  {name}: {ACHIEVEMENTS[name][0]}", markup=False)


def update_final_score_view(json_output: JsonOption = False, home: HomeOption = None) -> None:
    """Bring the final-score read model up to date and print how many games it holds."""
    require_writable(home, read_models.READ_MODELS_FILE)
    store = open_store(home)
    with naming_database(str(data_home(home) / read_models.READ_MODELS_FILE)):
        view = read_models.open_final_scores(home)
        added = read_models.update(store, view)
    if json_output:
        print_json({"added": added, "games": view.count()})
    else:
        console.print(f"final-score read model: {added} game(s) added, {view.count()} in all")


def register(app: typer.Typer) -> None:
    app.command("score", short_help="Print a game's score sheet.")(score)
    app.command("achievements", short_help="The achievements a game's winner met.")(achievements)
    app.command("final-scores", short_help="Update the final-score read model.")(update_final_score_view)
