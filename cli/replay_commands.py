"""``cascadia export``, ``import``, ``replay``, ``audit``, ``rerun`` and ``diff``: game logs.

A log is a ``.cascadia`` file (replays/FORMAT.md). Every malformed or tampered log ends
the command with one line, ``error: <file> (...): <reason>``, and exit code 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated

import typer
from cascadia.application.game_logs import export_game, import_log
from cascadia.application.store import GameStore
from cascadia.bots.registry import continue_game, make_bots
from cascadia.cli.common import HomeOption, JsonOption, console, err_console, open_store, print_json
from cascadia.cli.log_inputs import SkippedEntries, named_logs
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game
from cascadia.projections.describe import plural
from cascadia.projections.render import render_bag, render_environment, render_market
from cascadia.replays.audit import AuditResult, audit_file
from cascadia.replays.commitment import verify_log_commitment
from cascadia.replays.diff import LogDiff, diff_logs
from cascadia.replays.errors import ReplayError
from cascadia.replays.files import export_targets
from cascadia.replays.replay import Snapshot, replay_log
from cascadia.replays.rerun import rerun, rerun_from_turn
from cascadia.replays.scores import totals
from cascadia.replays.shard import is_shard, split_game_ref
from cascadia.replays.shard_games import audit_shard
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

FilesArgument = Annotated[list[Path], typer.Argument(help="Log files (.cascadia), or folders of them.")]


# -- export / import ---------------------------------------------------------------------


def export(
    games: Annotated[list[str] | None, typer.Argument(help="Game ids (or their first characters).")] = None,
    output: Annotated[
        Path, typer.Option("--output", "-o", help="A file for one game, or a folder for several.")
    ] = Path("."),
    all_games: Annotated[bool, typer.Option("--all", help="Export every stored game.")] = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Write stored games as log files."""
    if bool(games) == all_games:
        raise InvalidOptionError("name the games to export, or give --all (not both)")
    store = open_store(home)
    ids = (
        [gid for gid, _ in store.started_games()] if all_games else [store.find_game(g) for g in games or []]
    )
    targets = export_targets(ids, output, folder=all_games)
    total = 0
    for game_id, target in zip(ids, targets, strict=True):
        result = export_game(store, game_id, target)
        total += result.bytes
        if json_output:
            print_json(
                {
                    "game_id": str(game_id),
                    "file": str(result.path),
                    "events": result.events,
                    "bytes": result.bytes,
                    "finished": result.finished,
                }
            )
    if not json_output:
        where = targets[0] if len(targets) == 1 else output
        console.print(f"{plural(len(ids), 'game')} exported to {where} ({total} bytes)", markup=False)


def import_logs(
    files: FilesArgument,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Audit log files and add their games to the event store.

    A log that fails its audit writes nothing (the others are still imported); a game
    already stored is skipped. Exit 1 if any log failed.
    """
    skipped = SkippedEntries(json_lines=json_output)
    paths = named_logs(files, "import", skipped)
    store = open_store(home, write=True)
    counts = {"imported": 0, "already": 0, "failed": 0}
    with Progress(
        TextColumn("importing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=err_console,
        disable=json_output or not err_console.is_terminal,
        transient=True,
    ) as progress:
        task = progress.add_task("", total=len(paths))
        for path in paths:
            progress.update(task, description=path.name)
            outcome = _import_one(store, path, json_output)
            counts[outcome] += 1
            progress.advance(task)
    if not json_output:
        console.print(
            f"{plural(len(paths), 'log')}: {counts['imported']} imported, "
            f"{counts['already']} already stored, {counts['failed']} failed\nstore: {store.location}",
            markup=False,
        )
    if counts["failed"] or skipped.records:
        raise typer.Exit(1)


def _import_one(store: GameStore, path: Path, json_output: bool) -> str:
    """Import one log and report it (a line per log, failures on stderr): ``imported``,
    ``already`` (stored before) or ``failed``."""
    try:
        result = import_log(store, path)
    except (ReplayError, OSError) as error:
        message = str(error) if isinstance(error, ReplayError) else f"{path}: {error.strerror or error}"
        if json_output:
            print_json({"file": str(path), "imported": False, "already_stored": False, "error": message})
        else:
            err_console.print(f"error: {message}", markup=False)
        return "failed"
    if json_output:
        print_json(
            {
                "file": result.file,
                "game_id": str(result.game_id),
                "events": result.events,
                "imported": result.imported,
                "already_stored": not result.imported,
            }
        )
    elif result.imported:
        console.print(f"{path}: imported game {result.game_id} ({result.events} events)", markup=False)
    else:
        console.print(f"{path}: game {result.game_id} is already stored; nothing to do", markup=False)
    return "imported" if result.imported else "already"


# -- replay ------------------------------------------------------------------------------


def _print_snapshot(snapshot: Snapshot) -> None:
    state = snapshot.state
    console.print(f"\n== {snapshot.label} ==", markup=False)
    if not state.finished:
        console.print(f"market: {render_market(state)}", markup=False)
        console.print(f"bag: {render_bag(state)}   stack: {state.stack_size}", markup=False)
    scores = totals(snapshot.scores) or []
    for seat, player in enumerate(state.players):
        marker = "*" if seat == state.current and not state.finished else " "
        score = scores[seat] if seat < len(scores) else "?"
        console.print(
            f"{marker}seat {seat} {player.name}: score {score}, "
            f"{plural(player.nature_tokens, 'nature token')}",
            markup=False,
        )
        console.print(render_environment(player.environment), markup=False)


def replay(
    file: Annotated[Path, typer.Argument(help="A log file.")],
    to: Annotated[int | None, typer.Option("--to", help="Show the state after event N only.")] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="One JSON object per state shown (JSON lines).")
    ] = False,
) -> None:
    """Step through a log: the boards and running scores after each turn (or after event N)."""
    header, snapshots = replay_log(file, to)
    if not json_output:
        console.print(
            f"game {header.game_id}  seed {header.seed}  players {', '.join(header.names)}", markup=False
        )
        console.print("cards: " + ", ".join(f"{s} {c}" for s, c in header.cards.items()), markup=False)
    for snapshot in snapshots:
        if json_output:
            print_json(snapshot.to_dict())
        else:
            _print_snapshot(snapshot)


# -- audit -------------------------------------------------------------------------------


def audit(
    files: FilesArgument,
    json_output: Annotated[
        bool, typer.Option("--json", help="One JSON result per file (JSON lines).")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only failures and the summary.")
    ] = False,
) -> None:
    """Verify logs and shards: framing, hashes, rules, draws and final scores.

    Every decision is re-executed on a fresh game with the log's seed and every event
    compared; the first divergence is reported. A shard (.cascadia-shard) is audited
    game by game (SHARD#ID: one game); its games' logs must be the ones it recorded,
    byte for byte. Exit 1 if any log or game fails.
    """
    skipped = SkippedEntries(json_lines=json_output)
    paths = named_logs(files, "audit", skipped, shards=True)
    failed = checked = 0
    events = 0
    with Progress(
        TextColumn("auditing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[failed]} failed"),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=err_console,
        disable=json_output or len(paths) < 2,
        transient=True,
    ) as progress:
        task = progress.add_task("", total=len(paths), failed=0)
        for path in paths:
            progress.update(task, description=path.name)
            for result in audit_path(path):
                events += result.events
                failed += not result.valid
                checked += 1
                progress.update(task, failed=failed)
                _report(result, json_output, quiet)
            progress.advance(task)
    if not json_output and checked > 1:
        console.print(f"{checked - failed} valid, {failed} failed ({events} events checked)", markup=False)
    if failed or skipped.records:
        raise typer.Exit(1)


def audit_path(path: Path) -> Iterator[AuditResult]:
    """The audit results of a log (one), a shard (one per game) or ``SHARD#ID`` (one)."""
    reference = split_game_ref(path)
    if reference is not None:
        yield from audit_shard(*reference)
    elif is_shard(path):
        yield from audit_shard(path)
    else:
        yield audit_file(path)


def _report(result: AuditResult, json_output: bool, quiet: bool) -> None:
    if json_output:
        print_json(result.to_dict())
    elif not result.valid:
        err_console.print(f"error: {result.message}", markup=False)
    elif not quiet:
        status = f"scores {result.totals}" if result.finished else "game not finished"
        console.print(
            f"{result.file}: valid ({result.players} players, {result.events} events, {status})", markup=False
        )


# -- rerun -------------------------------------------------------------------------------


def bots_finish(bot: str) -> Callable[[Game], Game]:
    """Play a game to its end with ``bot`` in every seat (seeded from the game's seed);
    an unknown bot name fails at once."""
    make_bots([bot], 0)

    def finish(game: Game) -> Game:
        return continue_game(game, make_bots([bot] * len(game.state.players), game.state.seed))

    return finish


def rerun_command(
    file: Annotated[Path, typer.Argument(help="A log file.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the new log.")],
    bot: Annotated[
        str | None, typer.Option("--bot", help="What-if: this bot plays every seat from --from-turn on.")
    ] = None,
    from_turn: Annotated[
        int | None, typer.Option("--from-turn", help="What-if: the first turn the bot plays.")
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """Re-play a log's decisions from its seed and write a new log.

    The new log of a valid log is byte-identical to it. With --bot and --from-turn the
    game is continued from that turn with the bot in every seat instead (a what-if with
    its own game id).
    """
    if (bot is None) != (from_turn is None):
        raise InvalidOptionError("--bot and --from-turn go together")
    if bot is not None and from_turn is not None:
        result = rerun_from_turn(file, output, from_turn, bot, bots_finish(bot))
    else:
        result = rerun(file, output)
    if json_output:
        print_json(
            {
                "source": result.source,
                "output": str(result.output),
                "game_id": str(result.game_id),
                "events": result.events,
                "bytes": result.bytes,
                "totals": result.totals,
            }
        )
    else:
        console.print(
            f"{result.output}: game {result.game_id}, {result.events} events, {result.bytes} bytes, "
            f"scores {result.totals}",
            markup=False,
        )


# -- diff --------------------------------------------------------------------------------


def diff(
    a: Annotated[Path, typer.Argument(help="The first log.")],
    b: Annotated[Path, typer.Argument(help="The second log.")],
    json_output: JsonOption = False,
) -> None:
    """Where two logs first diverge and what differs; exit 0 when identical, 1 otherwise."""
    result = diff_logs(a, b)
    if json_output:
        print_json(result.to_dict())
    else:
        _print_diff(result)
    if not result.identical:
        raise typer.Exit(1)


def _print_diff(result: LogDiff) -> None:
    if result.identical:
        console.print(f"identical: {result.events[0]} events, scores {result.totals[0]}", markup=False)
        return
    for name, (va, vb) in result.header.items():
        console.print(f"header {name}: {va!r} vs {vb!r}", markup=False)
    if result.first_seq is not None:
        console.print(f"first divergence at event {result.first_seq}:", markup=False)
        console.print(f"  a: {_event_text(result.first_a)}", markup=False)
        console.print(f"  b: {_event_text(result.first_b)}", markup=False)
    console.print(
        f"{result.differing_events} event position(s) differ; "
        f"events {result.events[0]} vs {result.events[1]}; turns {result.turns[0]} vs {result.turns[1]}",
        markup=False,
    )
    console.print(
        f"final scores {result.totals[0]} vs {result.totals[1]}; winners {result.winners[0]} vs "
        f"{result.winners[1]}",
        markup=False,
    )


def _event_text(event: dict | None) -> str:
    if event is None:
        return "(no event: the log ends before)"
    payload = ", ".join(f"{k}={v!r}" for k, v in event["payload"].items())
    return f"{event['type']}({payload})"


def verify_commitment(
    log: Annotated[Path, typer.Argument(help="The game's log (.cascadia), after the end.")],
    commitment: Annotated[str, typer.Option("--commitment", help="The published commitment (64 hex).")],
    salt: Annotated[str, typer.Option("--salt", help="The salt revealed at the end (64 hex).")],
) -> None:
    """Audit a server game's log and check its seed against the commitment published at
    its creation (server/API.md: SHA-256 of a tag, the seed and the salt)."""
    seed = verify_log_commitment(log, commitment, salt)
    console.print(f"{log}: valid; seed {seed} matches the commitment", markup=False)


def register(app: typer.Typer) -> None:
    app.command("export")(export)
    app.command("import")(import_logs)
    app.command("replay", short_help="Step through a log: boards and running scores.")(replay)
    app.command("audit", short_help="Verify logs: chain, rules, draws and scores.")(audit)
    app.command("rerun", short_help="Re-play a log's decisions from its seed.")(rerun_command)
    app.command("diff", short_help="Where two logs first diverge, and how.")(diff)
    app.command("verify-commitment", short_help="Audit a server game, check its seed commitment.")(
        verify_commitment
    )
