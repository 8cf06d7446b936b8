"""``cascadia simulate``, ``games`` and ``show``: play, list and look at stored games."""

from __future__ import annotations

import time
from contextlib import nullcontext
from typing import Annotated

import typer
from cascadia.analytics.ingest import Ingest
from cascadia.analytics.storage import ANALYTICS_DIR
from cascadia.application.campaign import CAMPAIGN
from cascadia.application.game_list import GameSummary, list_games
from cascadia.application.ingest import add_store
from cascadia.application.settings import data_home
from cascadia.application.simulation import simulate_and_store
from cascadia.bots.registry import seat_bots
from cascadia.bots.simulation import Shard
from cascadia.bots.tally import Tally
from cascadia.cli.common import (
    HomeOption,
    JsonOption,
    console,
    load_game,
    open_store,
    print_json,
    progress_bar,
)
from cascadia.cli.data_home import require_writable
from cascadia.cli.game_options import (
    AchievementModeOption,
    BalancedBagOption,
    CardsOption,
    ElkRingsOption,
    NoMajorityOption,
    RuleOption,
    SalmonRunsOption,
    check_seed_option,
    options_from_flags,
    seed_range,
)
from cascadia.cli.map_commands import run_campaign
from cascadia.cli.viewer_option import AsPlayerOption, viewer_of
from cascadia.domain.decisions import decisions_of
from cascadia.projections.describe import plural, seat_name
from cascadia.projections.player_view import player_view
from cascadia.projections.render import (
    render_bag,
    render_cards,
    render_environment,
    render_market,
    render_options,
    render_secret_card,
)
from cascadia.projections.turns import game_round
from rich import box
from rich.table import Table


def simulate(
    games: Annotated[
        int | None, typer.Option("--games", "-n", min=1, help="How many games (default 1).")
    ] = None,
    players: Annotated[int, typer.Option("--players", "-p", min=1, max=4, help="Players per game.")] = 4,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            callback=check_seed_option,
            help="Seed of the first game (0 to 2^64 - 1), then +1 each (default 0).",
        ),
    ] = None,
    seeds: Annotated[
        str | None,
        typer.Option(
            "--seeds",
            help="Seed range START:STOP (STOP excluded), instead of --seed/--games, e.g. 0:1000000.",
        ),
    ] = None,
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard",
            help="Run shard i/n of the seeds only: seed s belongs to shard s mod n (e.g. 0/4 ... 3/4).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-w", min=1, help="Worker processes; games are stored in seed order all the same."
        ),
    ] = 1,
    bot: Annotated[
        str, typer.Option("--bot", help="Bot for every seat, or a comma list cycled over seats.")
    ] = "random",
    cards: CardsOption = "random",
    balanced_bag: BalancedBagOption = False,
    salmon_runs: SalmonRunsOption = "strict",
    elk_rings: ElkRingsOption = "arc",
    no_majority: NoMajorityOption = False,
    rule: RuleOption = None,
    achievement_mode: AchievementModeOption = None,
    map_name: Annotated[
        str | None,
        typer.Option(
            "--map",
            help="Simulate a campaign on this achievement map: its players (bots) play every game "
            "and the winners mark (--achievement-mode: campaign, standard or a restriction).",
        ),
    ] = None,
    ingest: Annotated[
        bool, typer.Option("--ingest", help="Also add each stored game to the analytics tables.")
    ] = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Play games with bots and store them (seeds S, S+1, ..., or a --seeds range).

    Games already stored are skipped: an interrupted run can be repeated.
    With --shard i/n only the seeds s with s mod n == i are played: run each
    shard anywhere (its own --home or database) and combine the pieces with
    `cascadia ingest` or `cascadia migrate`."""
    first, stop = seed_range(seed, games, seeds)
    part = Shard.parse(shard) if shard is not None else Shard()
    todo = part.seeds(first, stop)
    if map_name is not None:
        base = options_from_flags(cards, balanced_bag, salmon_runs, elk_rings, no_majority, rule)
        run_campaign(
            open_store(home, write=True), map_name, todo, base, achievement_mode or CAMPAIGN, json_output
        )
        return
    options = options_from_flags(
        cards, balanced_bag, salmon_runs, elk_rings, no_majority, rule, achievement_mode
    )
    names = seat_bots(bot, players)
    store = open_store(home, write=True)
    if ingest:
        require_writable(home, ANALYTICS_DIR)
    outcomes = simulate_and_store(store, todo, names, options, workers=workers)  # checks the setup first
    stored = skipped = 0
    tally = Tally()
    started = time.perf_counter()
    with progress_bar("simulating", json_output) as progress:
        task = progress.add_task("games", total=len(todo))
        with Ingest(data_home(home)) if ingest else nullcontext() as analytics:
            for result, saved in outcomes:
                line = {
                    "id": str(result.game_id),
                    "seed": result.seed,
                    "players": names,
                    "already_stored": not saved,
                }
                if saved:
                    stored += 1
                    state, sheet = result.summary  # scored in the worker that played it
                    tally.add(state, sheet)
                    line["scores"] = [p.total for p in sheet.players]
                    line["winners"] = list(sheet.winners)
                    if analytics is not None:
                        analytics.add(result.events(), state)
                else:
                    skipped += 1
                if json_output:
                    print_json(line)
                progress.advance(task)
            if analytics is not None:  # games an interrupted run stored but did not ingest
                add_store(analytics, store)
    elapsed = time.perf_counter() - started
    if not json_output:
        sharded = f" [shard {part}]" if shard is not None else ""
        console.print(
            f"{stored} game(s) stored, {skipped} already stored, in {elapsed:.2f} s{sharded}\n"
            f"{players} players: {', '.join(names)}\nstore: {store.location}",
            markup=False,
        )
        if tally.games:
            table = Table("bot", "seats", "wins", "mean score", "best", title="Games stored now")
            for row in tally.rows():
                table.add_row(
                    row["bot"],
                    str(row["seats"]),
                    str(row["wins"]),
                    str(row["mean_score"]),
                    str(row["best_score"]),
                )
            console.print(table)
        if analytics is not None:
            report = analytics.report
            console.print(f"analytics: {report.ingested} game(s) ingested, {report.already} already there")


CREATE_HINT = "create one with `cascadia new` or `cascadia simulate`"


def games_list(
    finished: Annotated[
        bool | None,
        typer.Option("--finished/--unfinished", help="Only finished, or only unfinished, games."),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", min=1, max=4, help="Only games of this many players.")
    ] = None,
    limit: Annotated[
        int,
        typer.Option("--limit", "-n", min=0, help="Show the last N games that match (0: all)."),
    ] = 20,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """List the stored games, the last stored last: id, players, status, score, cards.

    The id column shows the first characters of each id; every command takes them."""
    store = open_store(home)
    games, matching = list_games(store, finished, players, limit or None)
    if json_output:
        print_json([game.to_dict() for game in games])
        return
    if not matching:
        filtered = finished is not None or players is not None
        console.print(
            f"no games{' match' if filtered else ''} in {store.location}; "
            + ("widen the filters, or " if filtered else "")
            + CREATE_HINT,
            markup=False,
        )
        return
    table = Table("id", "players", "status", "score", "cards", box=box.SIMPLE_HEAD, pad_edge=False)
    for game in games:
        table.add_row(game.short_id, ", ".join(game.names), _status(game), _score(game), _cards(game.cards))
    console.print(table)
    shown = f"{len(games)} of {matching}" if len(games) < matching else f"{matching}"
    more = " (--limit 0 shows all)" if len(games) < matching else ""
    console.print(f"{shown} game(s){more}\nstore: {store.location}", markup=False)


def _status(game: GameSummary) -> str:
    if game.finished:
        return "finished"
    return f"round {game.round.number}/{game.round.of}"


def _score(game: GameSummary) -> str:
    """The winners and their score once finished (``greedy (seat 1) 84``), the leaders
    and theirs before (``ann 40 (leads)``); ``tied 10`` when every seat has the best."""
    best = max(game.totals)
    if len(game.names) == 1:
        return f"{best}"
    seats = (
        game.winners
        if game.winners is not None
        else [seat for seat, total in enumerate(game.totals) if total == best]
    )
    if len(seats) == len(game.names):
        return f"tied {best}"
    names = ", ".join(seat_name(game.names, seat) for seat in seats)
    return f"{names} {best}" + ("" if game.winners is not None else " (leads)")


def _cards(cards: dict[str, str]) -> str:
    """``ABCDA`` (bear, elk, salmon, hawk, fox), or the variant card's name."""
    letters = list(cards.values())
    if all(len(card) == 1 for card in letters):
        return "".join(letters)
    return letters[0] if len(set(letters)) == 1 else ",".join(letters)


def show(
    game: Annotated[str, typer.Argument(help="Game id (or its first characters).")],
    turn: Annotated[
        int | None,
        typer.Option("--turn", "-t", help="State at the end of this turn (0: after setup)."),
    ] = None,
    as_player: AsPlayerOption = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Show a stored game: market, bag and every player's environment."""
    events, state = load_game(game, home, turn)
    view = player_view(state, viewer_of(as_player, state))
    if json_output:
        decisions = [decision.to_dict() for decision in decisions_of(events)]
        print_json({**view, "decisions": decisions})
        return
    status = (
        "finished"
        if state.finished
        else f"{game_round(state)}, {seat_name(state.names, state.current)} to play"
    )
    seed = f"  seed {view['seed']}" if "seed" in view else ""
    console.print(f"game {state.game_id}{seed}  {status}", markup=False)
    console.print(f"cards: {render_cards(view['cards'])}", markup=False)
    if view["second_cards"]:
        console.print(f"second set: {render_cards(view['second_cards'])}", markup=False)
    if changed := render_options(view["options"]):
        console.print(f"options: {changed}", markup=False)
    if not state.finished:
        console.print(f"market: {render_market(state)}", markup=False)
    console.print(f"bag: {render_bag(state)}   stack: {state.stack_size}", markup=False)
    secrets = view["secret_cards"]
    for seat, player in enumerate(state.players):
        secret = f", secret card {render_secret_card(secrets[seat])}" if secrets else ""
        console.print(
            f"\nseat {seat} {player.name}: {plural(player.nature_tokens, 'nature token')}{secret}",
            markup=False,
        )
        console.print(render_environment(player.environment), markup=False)


def register(app: typer.Typer) -> None:
    app.command("simulate", short_help="Play seeded games with bots and store them.")(simulate)
    app.command("games", short_help="List the stored games, with filters.")(games_list)
    app.command("show", short_help="Show a stored game: market, bag and boards.")(show)
