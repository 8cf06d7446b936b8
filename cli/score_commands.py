"""``cascadia score``, ``achievements`` and ``final-scores``: score sheets of stored games."""

from __future__ import annotations

from typing import Annotated

import typer
from cascadia.application import read_models
from cascadia.cli.common import HomeOption, JsonOption, console, load_game, open_store, print_json
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.state import GameState
from cascadia.projections.achievements import ACHIEVEMENTS, is_standard_game, winner_achievements
from cascadia.projections.game_scores import score_state
from cascadia.projections.scoresheet import ScoreSheet
from rich.table import Table


def sheet_table(state: GameState, sheet: ScoreSheet) -> Table:
    """The score sheet as a table: a column per player, a row per score part."""
    table = Table("", *(f"{p.name} (seat {seat})" for seat, p in enumerate(state.players)))
    second = sheet.second_cards
    for species in WILDLIFE:
        label = f"{species} {sheet.cards[species]}" + (f" / {second[species]}" if second else "")
        table.add_row(label, *(str(p.wildlife[species]) for p in sheet.players))
    if second:
        table.add_row("card set used", *(str(p.card_set + 1) for p in sheet.players))
    for habitat in HABITATS:
        table.add_row(
            habitat,
            *(
                f"{p.habitat_points[habitat]}" + (f" +{b}" if (b := p.habitat_bonuses[habitat]) else "")
                for p in sheet.players
            ),
        )
    table.add_row("nature tokens", *(str(p.nature_tokens) for p in sheet.players))
    table.add_row("total", *(f"[bold]{p.total}[/bold]" for p in sheet.players))
    table.add_row("rank", *(f"{p.rank}" + (" (won)" if p.won else "") for p in sheet.players))
    return table


def score(
    game: Annotated[str, typer.Argument(help="Game id (or its first characters).")],
    turn: Annotated[int | None, typer.Option("--turn", "-t", help="Scores at the end of this turn.")] = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Print a game's score sheet (live for an unfinished game or with --turn)."""
    _, state = load_game(game, home, turn)
    sheet = score_state(state)
    if json_output:
        print_json({"game_id": str(state.game_id), "final": state.finished, **sheet.to_dict()})
        return
    status = "final" if state.finished else f"live, turn {state.turn}"
    console.print(f"game {state.game_id} ({status})", markup=False)
    console.print(sheet_table(state, sheet))
    if sheet.solo_rating:
        console.print(f"solo rating: {sheet.solo_rating}")


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
                "standard_game": is_standard_game(state.options),
                "winners": {str(s): a for s, a in earned.items()},
            }
        )
        return
    if not state.finished:
        console.print("the game has not ended: no achievements yet")
        return
    if not is_standard_game(state.options):
        console.print("note: RULES.md 8 lists achievements for standard games; this one has other options")
    for seat, names in earned.items():
        console.print(f"seat {seat} {state.players[seat].name}: {len(names)} achievement(s)", markup=False)
        for name in names:
            console.print(f"  {name}: {ACHIEVEMENTS[name][0]}", markup=False)


def update_final_score_view(json_output: JsonOption = False, home: HomeOption = None) -> None:
    """Bring the final-score read model up to date and print how many games it holds."""
    store = open_store(home)
    view = read_models.open_final_scores(home)
    added = read_models.update(store, view)
    if json_output:
        print_json({"added": added, "games": view.count()})
    else:
        console.print(f"final-score read model: {added} game(s) added, {view.count()} in all")


def register(app: typer.Typer) -> None:
    app.command("score")(score)
    app.command("achievements")(achievements)
    app.command("final-scores")(update_final_score_view)
