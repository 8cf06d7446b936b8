"""``cascadia view`` and ``cascadia board``: pictures of games.

``view`` writes a self-contained HTML replay viewer of a log (audited first; a bad log
writes nothing). ``board`` draws stored boards as SVG. Both write their output
atomically: a file appears complete or not at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from cascadia.bots.analysis import MOVE, analyse_log
from cascadia.cli.common import HomeOption, JsonOption, console, load_game, print_json, progress_bar
from cascadia.cli.viewer_option import AsPlayerOption, viewer_of
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.events import GameEvent, TilePlaced, TurnEnded, WildlifePlaced
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import Hex
from cascadia.projections.player_view import player_view
from cascadia.projections.svg import game_svg
from cascadia.replays.format import atomic_output, loads_bounded, read_regular
from cascadia.replays.viewer import load_events, render_html


def write_text(path: Path, text: str) -> int:
    """Write ``text`` (UTF-8) to ``path`` atomically; returns the size in bytes."""
    data = text.encode("utf-8")
    with atomic_output(path) as out:
        out.write(data)
    return len(data)


MAX_ANALYSIS_BYTES = 16 << 20
"""The largest move analysis file ``view --analysis`` reads."""


def read_analysis(path: Path) -> list[dict[str, Any]]:
    """The rows of a move analysis file (a regular file of at most
    :data:`MAX_ANALYSIS_BYTES`): ``cascadia analyse --json`` output (JSON lines), or one
    JSON array of the same rows, each value nesting at most ``MAX_DEPTH`` levels."""
    data = read_regular(path, "move analysis file", MAX_ANALYSIS_BYTES)
    try:
        text = data.decode("utf-8")
        if text.lstrip().startswith("["):
            rows = loads_bounded(text)
        else:
            rows = [loads_bounded(line) for line in text.splitlines() if line.strip()]
    except ValueError as error:
        raise InvalidOptionError(f"analysis {path}: not the JSON lines of analyse --json ({error})") from None
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise InvalidOptionError(f"analysis {path}: expected one JSON object per line")
    return rows


def view(
    file: Annotated[Path, typer.Argument(help="A log file (.cascadia).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")],
    as_player: AsPlayerOption = None,
    analysis: Annotated[
        Path | None,
        typer.Option("--analysis", help="Show this move analysis (the output of analyse --json)."),
    ] = None,
    analyse: Annotated[
        bool, typer.Option("--analyse", help="Analyse the moves first (as analyse does, default budget).")
    ] = False,
    json_output: JsonOption = False,
) -> None:
    """Write a self-contained HTML replay viewer of a log.

    The log is audited in full first; a bad log is reported in one
    line and nothing is written. The page (inline CSS, JavaScript and
    SVG; no network access) steps through the game turn by turn with
    a slider, buttons or the arrow keys, showing every board, the
    market, the bag, the running scores and the turn's events.
    With --as-player, each step shows only what that seat (or a
    spectator) could see then: no seed, no unrevealed secret card.
    A graph shows every player's total turn by turn; with --analysis
    or --analyse, each turn shows its move's tag and points lost.
    """
    if analysis is not None and analyse:
        raise InvalidOptionError("give --analysis FILE or --analyse, not both")
    events = load_events(file)
    viewer = viewer_of(as_player, Game.replay(events).state)
    turns = sum(1 for e in events if isinstance(e, TurnEnded))
    rows = read_analysis(analysis) if analysis is not None else None
    if analyse:
        rows = analysed_rows(file, turns, json_output)
    size = write_text(output, render_html(events, viewer=viewer, analysis=rows))
    if json_output:
        print_json({"file": str(file), "output": str(output), "turns": turns, "bytes": size})
    else:
        console.print(f"{output}: replay viewer of {file}, {turns} turns, {size} bytes", markup=False)


def analysed_rows(file: Path, turns: int, quiet: bool) -> list[dict[str, Any]]:
    """The move analysis of the log ``file`` of ``turns`` turns, as ``analyse --json``
    rows, with a progress bar of the turns analysed (not when ``quiet``)."""
    rows = []
    with progress_bar("analysing moves", quiet) as progress:
        task = progress.add_task("turns", total=turns)
        for row in analyse_log(file)[1]:
            rows.append(row.to_dict())
            if row.kind == MOVE:  # one move a turn, besides its wipes
                progress.advance(task)
    return rows


def last_placements(events: list[GameEvent]) -> tuple[tuple[int, Hex] | None, tuple[int, Hex] | None]:
    """``(seat, hex)`` of the last tile and of the last token placed in ``events``."""
    tile = token = None
    for event in events:
        if isinstance(event, TilePlaced):
            tile = (event.player, (event.q, event.r))
        elif isinstance(event, WildlifePlaced):
            token = (event.player, (event.q, event.r))
    return tile, token


def board(
    game: Annotated[str, typer.Argument(help="Game id (or its first characters).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The SVG file to write.")],
    turn: Annotated[
        int | None, typer.Option("--turn", "-t", help="Boards at the end of this turn (0: after setup).")
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="Draw only this seat's board, as this seat sees the game."),
    ] = None,
    legend: Annotated[bool, typer.Option("--legend/--no-legend", help="Add the colour key.")] = True,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Draw a stored game's boards as one SVG file.

    By default every seat's board, side by side on one scale, each
    captioned with its seat, name, nature tokens and score; --seat S
    draws that seat's board alone, with the score as seat S may know
    it (none while another seat's secret card is face down). The tile
    placed last is outlined, the token placed last ringed (dashed).
    """
    events, state = load_game(game, home, turn)
    if seat is not None and not 0 <= seat < state.player_count:
        raise InvalidOptionError(f"--seat is a seat from 0 to {state.player_count - 1}, not {seat}")
    tile, token = last_placements(events)
    if token == tile:
        token = None
    totals = [p["total"] for p in player_view(state, seat)["scores"]["players"]]
    picture = game_svg(
        state,
        seats=None if seat is None else [seat],
        highlight=tile,
        token_highlight=token,
        totals=totals,
        legend=legend,
    )
    size = write_text(output, picture)
    if json_output:
        print_json({"game_id": str(state.game_id), "output": str(output), "turn": turn, "bytes": size})
    else:
        what = f"seat {seat}'s board" if seat is not None else f"{state.player_count} board(s)"
        console.print(f"{output}: {what} of game {state.game_id}, {size} bytes", markup=False)


def register(app: typer.Typer) -> None:
    app.command("view")(view)
    app.command("board")(board)
