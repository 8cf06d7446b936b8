"""``cascadia tournament``: bots against bots in duplicate format, rated with openskill."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Annotated

import typer
from cascadia.analytics.ingest import Ingest
from cascadia.application.settings import data_home
from cascadia.application.simulation import simulate_and_store
from cascadia.bots.tournament import rate_games, seatings
from cascadia.cli.common import HomeOption, JsonOption, console, open_store, print_json, progress_bar
from cascadia.cli.game_options import (
    BalancedBagOption,
    CardsOption,
    ElkRingsOption,
    NoMajorityOption,
    RuleOption,
    SalmonRunsOption,
    options_from_flags,
)
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game
from cascadia.projections.game_scores import score_state
from rich.table import Table


def tournament(
    bots: Annotated[
        str, typer.Option("--bots", help="Bots to rate, comma-separated: greedy,search@200,random.")
    ],
    players: Annotated[int, typer.Option("--players", "-p", min=1, max=4, help="Seats per game.")] = 4,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Seeds (deals); each is played once per seating.")
    ] = 10,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of the first deal, then +1.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Worker processes.")] = 1,
    cards: CardsOption = "random",
    balanced_bag: BalancedBagOption = False,
    salmon_runs: SalmonRunsOption = "strict",
    elk_rings: ElkRingsOption = "arc",
    no_majority: NoMajorityOption = False,
    rule: RuleOption = None,
    ingest: Annotated[
        bool, typer.Option("--ingest", help="Also add the games to the analytics tables.")
    ] = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Play every deal once per seating (the line-up turned seat by seat), store the
    games (seat names are the bots, e.g. search@200) and rate the bots with a
    Plackett-Luce model: mean score and rating, each with a 95% interval."""
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if len(set(names)) != len(names):
        raise InvalidOptionError(f"--bots names a bot twice: {bots!r}")
    options = options_from_flags(cards, balanced_bag, salmon_runs, elk_rings, no_majority, rule)
    tables = seatings(names, players)
    Game.start(seed, tables[0], options)  # impossible setups fail before anything is played
    store = open_store(home, write=True)
    results: dict[tuple[int, int], tuple[list[str], list[int], list[int]]] = {}
    stored = 0
    with (
        progress_bar("playing", json_output) as progress,
        Ingest(data_home(home)) if ingest else nullcontext() as analytics,
    ):
        task = progress.add_task("games", total=games * len(tables))
        for table, seating in enumerate(tables):
            played = simulate_and_store(store, range(seed, seed + games), seating, options, workers=workers)
            for result, saved in played:
                if result.skipped:
                    sheet = score_state(store.game(result.game_id).state)
                else:
                    state, sheet = result.summary
                    stored += saved
                    if saved and analytics is not None:
                        analytics.add(result.events(), state)
                totals = [p.total for p in sheet.players]
                results[(result.seed, table)] = (seating, totals, [p.rank for p in sheet.players])
                progress.advance(task)
    standings = rate_games(results[key] for key in sorted(results))
    if json_output:
        print_json({"games": len(results), "seatings": tables, "standings": [s.to_dict() for s in standings]})
        return
    console.print(
        f"{len(results)} game(s) ({games} deal(s) x {len(tables)} seating(s)), {stored} stored now\n"
        f"store: {store.location}",
        markup=False,
    )
    table_view = Table("bot", "seats", "wins", "mean score (95%)", "rating mu (95%)", "mu - 3 sigma")
    for s in standings:
        table_view.add_row(
            s.bot,
            str(s.seats),
            str(s.wins),
            f"{s.mean_score:.1f} ({s.score_low:.1f}-{s.score_high:.1f})",
            f"{s.mu:.1f} ({s.rating_low:.1f}-{s.rating_high:.1f})",
            f"{s.ordinal:.1f}",
        )
    console.print(table_view)


def register(app: typer.Typer) -> None:
    app.command("tournament", short_help="Rate bots in duplicate games (openskill).")(tournament)
