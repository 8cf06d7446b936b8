"""``cascadia map``: achievement maps (RULES.md 8.1), a campaign across many games.

``map new``, ``join``, ``mark``, ``show``, ``list``, ``export`` and ``audit``; every
change goes through the application layer (:mod:`cascadia.application.maps`), so the
rules of marking are the map aggregate's and a mark's game facts come from the stored
game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from cascadia.application.campaign import simulate_campaign
from cascadia.application.maps import (
    create_map,
    find_map,
    join_map,
    list_maps,
    load_map,
    map_events,
    mark_achievement,
    record_game,
    stored_facts_source,
    stored_game_facts,
)
from cascadia.application.store import GameStore
from cascadia.cli.common import HomeOption, JsonOption, console, fail, open_store, print_json
from cascadia.cli.viewer_commands import write_text
from cascadia.domain.achievement_map import PATH_LENGTH, AchievementMap
from cascadia.domain.options import GameOptions
from cascadia.projections.achievement_progress import achievement_label, map_progress
from cascadia.projections.map_svg import map_html, map_svg
from cascadia.replays.files import log_files
from cascadia.replays.map_file import audit_map, facts_from_logs, read_map_file, write_map_file

map_app = typer.Typer(
    help="Achievement maps (RULES.md 8.1): players' progress across many games.",
    no_args_is_help=True,
)

MapArgument = Annotated[str, typer.Argument(help="The map's name, or its id (or its first characters).")]


@map_app.command("new")
def new_map(
    name: Annotated[str, typer.Argument(help="A name for the map.")],
    player: Annotated[
        list[str] | None, typer.Option("--player", help="A player who joins at once (repeatable, at most 5).")
    ] = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Create an achievement map (and let players join it)."""
    store = open_store(home, write=True)
    achievement_map = create_map(store, name)
    if player:
        achievement_map = join_map(store, achievement_map.id, list(player))
    _report(achievement_map, json_output)


@map_app.command("join")
def join(
    map_name: MapArgument,
    players: Annotated[list[str], typer.Argument(help="The players who join, each on a path of their own.")],
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Players join a map (at most five on a map; names unique)."""
    store = open_store(home, write=True)
    _report(join_map(store, find_map(store, map_name), players), json_output)


@map_app.command("record", short_help="Record a finished game as played for the map.")
def record(
    map_name: MapArgument,
    game: Annotated[str, typer.Argument(help="The finished game's id (or its first characters).")],
    home: HomeOption = None,
) -> None:
    """Record a finished game as played for the map, so the campaign counts it."""
    store = open_store(home, write=True)
    game_id = store.find_game(game)
    achievement_map = record_game(store, find_map(store, map_name), game_id)
    count = len(achievement_map.state.games)
    console.print(f"game {game_id} recorded: game {count} of the map", markup=False)


@map_app.command("mark", short_help="A winner marks an achievement met in a game.")
def mark(
    map_name: MapArgument,
    player: Annotated[str, typer.Argument(help="The player who marks (a winner of the game).")],
    game: Annotated[str, typer.Argument(help="The finished game's id (or its first characters).")],
    achievement: Annotated[
        str | None, typer.Argument(help="What to mark; leave out to list what may be marked.")
    ] = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """A winner marks an achievement met in a game played for achievements."""
    store = open_store(home, write=achievement is not None)
    map_id, game_id = find_map(store, map_name), store.find_game(game)
    if achievement is None:
        choices = load_map(store, map_id).markable(player, stored_game_facts(store, game_id))
        if json_output:
            print_json({"player": player, "game_id": str(game_id), "markable": choices})
            return
        if not choices:
            raise fail(f"{player} may mark nothing for game {game_id}")
        for choice in choices:
            console.print(f"{choice:<36} {achievement_label(choice)}", markup=False)
        return
    achievement_map = mark_achievement(store, map_id, player, game_id, achievement)
    cell = achievement_map.path(player).marks[-1].cell
    if json_output:
        print_json({"map_id": str(map_id), "player": player, "achievement": achievement, "cell": cell})
        return
    console.print(
        f"{player} marks {achievement} ({achievement_label(achievement)}): cell {cell}", markup=False
    )


@map_app.command("show", short_help="Each player's path, cells, milestones and marks.")
def show(
    map_name: MapArgument,
    at: Annotated[
        int | None, typer.Option("--at", min=1, help="Show the map as it was at this version.")
    ] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Also write the map as an SVG picture.")] = None,
    html: Annotated[Path | None, typer.Option("--html", help="Also write the map as an HTML page.")] = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Each player's path: cells filled, milestones reached (with the game), what is open."""
    store = open_store(home)
    progress = map_progress(load_map(store, find_map(store, map_name), version=at).state)
    if svg is not None:
        write_text(svg, map_svg(progress))
    if html is not None:
        write_text(html, map_html(progress))
    if json_output:
        print_json(progress)
        return
    for line in progress_lines(progress):
        console.print(line, markup=False)


def progress_lines(progress: dict) -> list[str]:
    """The map as text, at most 80 columns wide."""
    lines = [f"map {progress['name']} ({len(progress['players'])} players, version {progress['version']})"]
    for player in progress["players"]:
        bar = "".join("#" if i < player["filled"] else "." for i in range(PATH_LENGTH))
        lines.append(f"{player['player']}: {player['filled']} of {progress['reachable']} cells")
        lines.append(f"  {bar}")
        for milestone in player["milestones"]:
            lines.append(f"  {milestone['cells']:>2} {milestone['name']} (game {milestone['game_id'][:8]})")
        if player["next_milestone"]:
            upcoming = player["next_milestone"]
            lines.append(f"  next: {upcoming['name']} at {upcoming['cells']} cells")
        for cell in player["cells"]:
            lines.append(
                f"  {cell['cell']:>2}. {achievement_label(cell['achievement'])} (game {cell['game_id'][:8]})"
            )
        open_count = len(player["open_standard"]) + len(player["open_restrictions"])
        lines.append(
            f"  open: {len(player['open_standard'])} standard, {len(player['open_restrictions'])} "
            f"restriction ({open_count} in all)"
        )
    return lines


@map_app.command("list")
def list_command(json_output: JsonOption = False, home: HomeOption = None) -> None:
    """Every stored map."""
    store = open_store(home)
    rows = []
    for summary in list_maps(store):
        state = load_map(store, summary.map_id).state
        rows.append(
            {
                "map_id": str(summary.map_id),
                "name": summary.name,
                "players": len(state.paths),
                "marks": sum(len(p.marks) for p in state.paths.values()),
            }
        )
    if json_output:
        print_json(rows)
        return
    if not rows:
        console.print("no maps yet: cascadia map new NAME", markup=False)
    for row in rows:
        console.print(
            f"{row['map_id'][:8]}  {row['name']:<24} {row['players']} players, {row['marks']} marks",
            markup=False,
        )


@map_app.command("export")
def export(
    map_name: MapArgument,
    output: Annotated[Path, typer.Option("--output", "-o", help="The .cascadia-map file to write.")],
    home: HomeOption = None,
) -> None:
    """Write a map's whole history as a .cascadia-map file."""
    store = open_store(home)
    size = write_map_file(output, map_events(store, find_map(store, map_name)))
    console.print(f"wrote {output} ({size} bytes)", markup=False)


@map_app.command("audit", short_help="Re-check every mark of a map file against its games.")
def audit(
    file: Annotated[Path, typer.Argument(help="A .cascadia-map file.")],
    logs: Annotated[
        list[Path] | None,
        typer.Option(
            "--logs",
            help="Game logs (files or folders) to check the marks against; default: the stored games.",
        ),
    ] = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Re-check every mark of a map file against the games it names (their logs,
    audited, or the stored games); exit 1 naming the first mark the rules refuse."""
    events = read_map_file(file)
    facts_of = facts_from_logs(log_files(logs)) if logs else stored_facts_source(open_store(home))
    result = audit_map(str(file), events, facts_of)
    if json_output:
        print_json(result.to_dict())
        return
    console.print(
        f"{file}: valid ({result.players} players, {result.marks} marks over {result.games} games)",
        markup=False,
    )


def run_campaign(
    store: GameStore, map_name: str, seeds: range, base: GameOptions, schedule: str, json_output: bool
) -> None:
    """``simulate --map``: play the campaign's games and report each one's marks."""
    map_id = find_map(store, map_name)
    games = marks = 0
    for game in simulate_campaign(store, map_id, seeds, base, schedule):
        games += 1
        marks += len(game.marks)
        if json_output:
            print_json(
                {
                    "id": str(game.game_id),
                    "seed": game.seed,
                    "mode": game.mode,
                    "stored": game.stored,
                    "winners": list(game.winners),
                    "marks": [{"player": p, "achievement": a} for p, a in game.marks],
                }
            )
        else:
            marked = ", ".join(f"{p} marks {a}" for p, a in game.marks) or "no mark"
            console.print(f"seed {game.seed} {game.mode}: {marked}", markup=False)
    if not json_output:
        console.print(f"{games} game(s) played on map {map_name}, {marks} mark(s)", markup=False)


def _report(achievement_map: AchievementMap, json_output: bool) -> None:
    progress = map_progress(achievement_map.state)
    if json_output:
        print_json(progress)
        return
    for line in progress_lines(progress)[:1]:
        console.print(line, markup=False)
    console.print(f"id {progress['map_id']}", markup=False)


def register(app: typer.Typer) -> None:
    app.add_typer(map_app, name="map", short_help="Achievement maps: progress across many games.")
