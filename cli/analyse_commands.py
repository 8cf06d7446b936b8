"""``cascadia analyse``: every decision of a game log against an analysing bot's, or
(``--position TEXT``) the ranked moves of one position (docs/POSITION.md).

The log is audited in full first; a bad log ends the command with one line ``error:
...`` and exit code 1 before anything is analysed (:mod:`cascadia.bots.analysis`); so
does a malformed position (the error names its field and column).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from cascadia.bots.analysis import DEFAULT_BOT, DEFAULT_BUDGET, MOVE, TAGS, TurnAnalysis, analyse_log
from cascadia.bots.position_analysis import DEFAULT_MOVES, rank_moves
from cascadia.cli.common import console, print_json
from cascadia.domain.errors import InvalidOptionError
from cascadia.projections.describe import seat_name
from cascadia.projections.position import parse_position

INDENT = " " * 6


def seat_summary(rows: list[TurnAnalysis]) -> list[str]:
    """Two lines per seat: its decisions and mean points lost, then how many of each tag."""
    lines = []
    for seat in sorted({row.seat for row in rows}):
        mine = [row for row in rows if row.seat == seat]
        mean = sum(row.lost for row in mine) / len(mine)
        moves = sum(row.kind == MOVE for row in mine)
        others = f" + {len(mine) - moves} other" if len(mine) > moves else ""
        counts = ", ".join(f"{tag} {sum(row.tag == tag for row in mine)}" for tag, _ in reversed(TAGS))
        lines.append(
            f"seat {seat} {mine[0].name[:20]}: {moves} moves{others}, {mean:.2f} points lost a decision"
        )
        lines.append(f"{INDENT}{counts}")
    return lines


def print_row(row: TurnAnalysis) -> None:
    console.print(
        f"{row.turn:>4} {row.seat:>4} {row.name[:12]:<12} {row.played_points:>7.2f} "
        f"{row.best_points:>7.2f} {row.lost:>6.2f}  {row.tag or ''}",
        markup=False,
    )
    console.print(f"{INDENT}played: {row.played}", markup=False)
    if row.best != row.played:
        console.print(f"{INDENT}bot:    {row.best}", markup=False)


def analyse_position(text: str, budget: int, moves: int, json_output: bool) -> None:
    """Print the ranked moves of the position ``text`` (one JSON object a move with ``--json``)."""
    position = parse_position(text)
    ranked = rank_moves(position, budget, moves)
    if json_output:
        print_json([row.to_dict() for row in ranked])
        return
    assert position.to_move is not None  # rank_moves refuses a finished game
    console.print(
        f"turn {position.turn}, {seat_name(list(position.names), position.to_move.seat)} to move "
        f"(futures: {budget})\npoints: now, and the expected final total",
        markup=False,
    )
    for rank, row in enumerate(ranked, 1):
        console.print(f"{rank:>3} {row.immediate:>4} {row.expected:>7.2f}  {row.text}", markup=False)


def analyse(
    file: Annotated[Path | None, typer.Argument(help="A log file (.cascadia).")] = None,
    position: Annotated[
        str | None,
        typer.Option(
            "--position", metavar="TEXT", help="Rank the moves of this position (docs/POSITION.md) instead."
        ),
    ] = None,
    moves: Annotated[
        int, typer.Option("--moves", metavar="N", help="With --position: how many candidate moves to rank.")
    ] = DEFAULT_MOVES,
    bot: Annotated[
        str, typer.Option("--bot", help="The analysing bot: greedy, builder, or search@N (N rollouts).")
    ] = DEFAULT_BOT,
    budget: Annotated[
        int, typer.Option("--budget", help="Determinised futures per move valued (more: slower, surer).")
    ] = DEFAULT_BUDGET,
    seat: Annotated[int | None, typer.Option("--seat", help="Analyse this seat's moves only.")] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="One JSON object per decision (JSON lines).")
    ] = False,
) -> None:
    """Judge every decision of a game (each wipe and each move): expected final
    points of the decision made and of the bot's, the points lost, and a tag.

    Expected points are means over determinised futures (the hidden draws re-sampled
    from what is unrevealed, seeded by the game id: never the log's own draws), the
    rest of the game played by greedy rollouts. Tags by points lost: inaccuracy from
    2, mistake from 5, blunder from 10.

    With --position TEXT instead of a log: the seat to move's best candidate moves
    (the search bot's; after the take, the ways to finish the turn), ranked by
    expected final total (`cascadia position GAME` prints a stored game's position).
    """
    if (file is None) == (position is None):
        raise InvalidOptionError("analyse a log file or a --position, one of the two")
    if position is not None:
        if seat is not None or bot != DEFAULT_BOT:
            raise InvalidOptionError(
                "--seat and --bot judge a log's moves; --position ranks its own candidates"
            )
        analyse_position(position, budget, moves, json_output)
        return
    assert file is not None
    header, analysis = analyse_log(file, bot, budget, seat)
    if json_output:
        for row in analysis:
            print_json(row.to_dict())
        return
    console.print(
        f"game {header.game_id}, analysed by {bot[:20]} (futures: {budget})\n"
        "points: expected final totals of the decision made and of the bot's",
        markup=False,
    )
    heading = f"{'turn':>4} {'seat':>4} {'name':<12} {'played':>7} {'bot':>7} {'lost':>6}  tag"
    console.print(heading, markup=False)
    rows = []
    for row in analysis:
        rows.append(row)
        print_row(row)
    for line in seat_summary(rows):
        console.print(line, markup=False)


def register(app: typer.Typer) -> None:
    app.command("analyse", short_help="Judge every move of a game against a bot's, or rank a position's.")(
        analyse
    )
