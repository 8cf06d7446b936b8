"""``cascadia stats ...``: the standard statistics as tables that fit 80 columns, with a
legend under each table, or as CSV, JSON, Markdown or one block per row (``--format``).

Every command can print its definition from STATS.md (``--explain``) and notes under a
table when the games it pools were played by different bots.
"""

from __future__ import annotations

from operator import itemgetter
from pathlib import Path
from typing import Annotated, Any

import typer
from cascadia.analytics.achievements import achievement_rates, milestone_games
from cascadia.analytics.charts import chart_format, write_chart
from cascadia.analytics.query import AnalyticsDB
from cascadia.analytics.stats import (
    DEFAULT_BIN,
    bot_stats,
    card_stats,
    nature_stats,
    overpopulation_stats,
    score_stats,
    seat_names,
    seat_stats,
)
from cascadia.application.documents import document, section
from cascadia.cli.common import HomeOption, JsonOption, console, err_console, fail
from cascadia.cli.data_home import require_data
from cascadia.cli.tables import Column, Format, FormatOption, Sheet, print_sheets, rate_text, say
from rich.table import Table

WhereOption = Annotated[
    str | None,
    typer.Option("--where", help='SQL condition on the games table, e.g. "players = 4".', show_default=False),
]
HISTOGRAM_WIDTH = 50


# -- shared options and notes ------------------------------------------------------------------

WideOption = Annotated[bool, typer.Option("--wide", help="Show every column in tables (wider than 80).")]
ExplainOption = Annotated[
    bool, typer.Option("--explain", help="Print how this statistic is defined (STATS.md) and exit.")
]
ChartOption = Annotated[
    Path | None,
    typer.Option(
        "--chart",
        help="Also draw it as a chart: OUT.svg or OUT.png (needs pip install 'cascadia[charts]').",
        show_default=False,
    ),
]
NO_GAMES = "no games match (run `cascadia ingest` first, or widen --where)"
MORE = "definitions: --explain, or STATS.md installed with the package (`cascadia stats --explain`)"


def _open(home: str | None) -> AnalyticsDB:
    return AnalyticsDB(require_data(home))


def _explain(name: str | None) -> None:
    """Print STATS.md (``name`` None), or its rates section and the section of ``stats name``."""
    text = document("stats")
    if name is None:
        console.print(text, markup=False, highlight=False)
        return
    for part in (section(text, "Rates"), section(text, f"`stats {name}`")):
        console.print(part, markup=False, highlight=False)


def _mixed_note(names: list[str]) -> list[str]:
    """A note when the games were played by different bots (or players)."""
    if len(names) < 2:
        return []
    shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
    return [
        f"these games mix players of different strength ({shown}): each figure pools them; "
        "select the games of one bot with --where, e.g. "
        "--where \"list_unique(names) = 1 AND names[1] = 'greedy'\""
    ]


def _check_chart(path: Path | None) -> None:
    """Refuse a chart file name of another format before any work is done."""
    if path is not None:
        chart_format(path)


def _chart(name: str, data: Any, path: Path | None, empty: bool) -> None:
    """Draw the chart of ``stats name`` when asked; one line on stderr says where. With
    no games (``empty``) there is nothing to draw: the command fails, writing nothing."""
    if path is None:
        return
    if empty:
        raise fail(f"{NO_GAMES}; {path} not written")
    size = write_chart(name, data, path)
    err_console.print(f"chart of stats {name}: {path} ({size} bytes)", markup=False)


def _output(
    sheets: list[Sheet], data: Any, fmt: Format | None, json_output: bool, wide: bool, empty: bool
) -> None:
    """Print the sheets (or ``data`` as JSON), or say that no games match."""
    if json_output:
        fmt = Format.json
    if empty and fmt is not Format.json:
        console.print(NO_GAMES, markup=False)
        return
    table_like = fmt in (None, Format.table, Format.vertical)
    print_sheets(console, sheets, fmt, data, wide, footer=[MORE] if table_like else [])


# -- stats ----------------------------------------------------------------------------------

stats_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)


@stats_app.callback(invoke_without_command=True)
def stats_main(
    ctx: typer.Context,
    explain: Annotated[
        bool, typer.Option("--explain", help="Print STATS.md, the definitions of every statistic.")
    ] = False,
) -> None:
    """Standard statistics over the ingested games (rates with 95% Wilson intervals).

    Which scoring card wins most? `cascadia stats cards --sort top`: "top" is how often
    the player who scored most with the card won, against "base", the chance level.
    Every table explains its columns below it; `cascadia stats --explain` prints the
    definitions (STATS.md, installed with the package)."""
    if explain:
        _explain(None)
        raise typer.Exit()
    if ctx.invoked_subcommand is None:
        console.print(ctx.get_help(), markup=False, highlight=False)


CARD_COLUMNS = [
    Column("card", "card", "", itemgetter("card")),
    Column("games", "games", "games with the card in play", itemgetter("games"), "int"),
    Column("mean", "mean", "mean points scored with the card, per player", itemgetter("mean"), "num"),
    Column("sd", "sd", "standard deviation of those points", itemgetter("sd"), "num", wide=True),
    Column(
        "share",
        "share",
        "mean share of the winner's total that came from this card",
        itemgetter("winner_share"),
        "pct",
    ),
    Column(
        "top",
        "top",
        "how often the player who scored most with the card won the game "
        "(top-scorer win rate); far above base: the card decides games",
        lambda r: r["top_scorer"],
        "rate",
    ),
    Column(
        "ties",
        "ties",
        "games left out of top: several players tied for most with the card",
        lambda r: r["top_scorer"]["ties_excluded"],
        "int",
        wide=True,
    ),
    Column(
        "base",
        "base",
        "chance level of top: mean of 1/players over the same games",
        lambda r: r["top_scorer"]["baseline"],
        "pct",
    ),
]
CARD_BOT_COLUMNS = [
    Column("card", "card", "", itemgetter("card")),
    Column("bot", "bot", "", itemgetter("bot")),
    Column(
        "win", "win", "share of the bot's seats that won, in games with the card", lambda entry: entry, "rate"
    ),
    Column("base", "base", "chance level: mean of 1/players", itemgetter("baseline"), "pct"),
]


@stats_app.command("cards", short_help="Which scoring card wins most, with intervals.")
def stats_cards(
    where: WhereOption = None,
    sort: Annotated[
        str | None,
        typer.Option(
            "--sort",
            help="Order by a column: card, games, mean, sd, share, top, ties, base "
            "(numbers largest first), e.g. --sort top.",
            show_default=False,
        ),
    ] = None,
    chart: ChartOption = None,
    fmt: FormatOption = None,
    wide: WideOption = False,
    explain: ExplainOption = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Which scoring card wins most: per card, its points and its top-scorer win rate.

    Every player at a table has the same five cards, so a card's "win rate" is
    defined as "top": how often the player who scored most with the card won
    (games where several tied for most are left out), to be compared with
    "base", the chance level 1/players. "share" is how much of the winner's
    score came from the card. A second table gives each bot's win rate when
    the card is in play. Games with two_card_sets are left out. The columns
    are explained under the table; --explain prints the full definitions."""
    if explain:
        _explain("cards")
        return
    _check_chart(chart)
    with _open(home) as db:
        data = card_stats(db, where)
        names = seat_names(db, where)
    main = Sheet("Scoring cards", CARD_COLUMNS, data, _mixed_note(names))
    if sort:
        main = main.sorted_by(sort)
    by_bot = [{"card": row["card"], **entry} for row in main.rows for entry in row["by_bot"]]
    bots = Sheet("Win rate by bot when the card is in play", CARD_BOT_COLUMNS, by_bot)
    _chart("cards", data, chart, empty=not data)
    _output([main, bots], data, fmt, json_output, wide, empty=not data)


SEAT_COLUMNS = [
    Column("players", "pl", "players in the game", itemgetter("players"), "int"),
    Column(
        "position",
        "pos",
        "turn position: 0 = the first player, 1 = second, ...",
        itemgetter("turn_position"),
        "int",
    ),
    Column("win", "win", "win rate of the position", itemgetter("win"), "rate"),
    Column("base", "base", "chance level 1/players", itemgetter("baseline"), "pct"),
    Column("mean", "mean", "mean final score", itemgetter("mean"), "num"),
    Column("sd", "sd", "standard deviation of the final score", itemgetter("sd"), "num"),
    Column(
        "vs_mean",
        "vs mean",
        "mean score minus the mean of all positions",
        itemgetter("score_difference"),
        "signed",
    ),
    Column("rank", "rank", "mean rank (1 = won)", itemgetter("mean_rank"), "num2"),
]


@stats_app.command("seats", short_help="First-player and seat advantage.")
def stats_seats(
    where: WhereOption = None,
    chart: ChartOption = None,
    fmt: FormatOption = None,
    wide: WideOption = False,
    explain: ExplainOption = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """First-player and seat advantage: by turn position (0 = first player)."""
    if explain:
        _explain("seats")
        return
    _check_chart(chart)
    with _open(home) as db:
        data = seat_stats(db, where)
        names = seat_names(db, where)
    sheet = Sheet("Turn position (0 = first player)", SEAT_COLUMNS, data, _mixed_note(names))
    _chart("seats", data, chart, empty=not data)
    _output([sheet], data, fmt, json_output, wide, empty=not data)


BOT_COLUMNS = [
    Column("bot", "bot", "", itemgetter("bot")),
    Column("players", "pl", "players in the game", itemgetter("players"), "int"),
    Column("seats", "seats", "seats the bot played", itemgetter("seats"), "int"),
    Column("win", "win", "share of its seats that won (not for solo games)", itemgetter("win"), "rate"),
    Column("base", "base", "chance level 1/players", itemgetter("baseline"), "pct"),
    Column("mean", "mean", "mean final score", itemgetter("mean"), "num"),
    Column("sd", "sd", "standard deviation of the final score", itemgetter("sd"), "num"),
    Column("rank", "rank", "mean rank (1 = won)", itemgetter("mean_rank"), "num2"),
]


@stats_app.command("bots")
def stats_bots(
    where: WhereOption = None,
    chart: ChartOption = None,
    fmt: FormatOption = None,
    wide: WideOption = False,
    explain: ExplainOption = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Each bot's win rate and score by player count."""
    if explain:
        _explain("bots")
        return
    _check_chart(chart)
    with _open(home) as db:
        data = bot_stats(db, where)
    _chart("bots", data, chart, empty=not data)
    _output([Sheet("Bots", BOT_COLUMNS, data)], data, fmt, json_output, wide, empty=not data)


NATURE_COLUMNS = [
    Column("players", "pl", "players in the game", itemgetter("players"), "int"),
    Column("seats", "seats", "player seats counted", itemgetter("seats"), "int"),
    Column("earned", "earned", "nature tokens earned per player (keystones)", itemgetter("earned"), "num2"),
    Column("earned_sd", "sd", "standard deviation of earned", itemgetter("earned_sd"), "num2", wide=True),
    Column("spent", "spent", "tokens spent per player", itemgetter("spent"), "num2"),
    Column("left", "left", "tokens left per player (1 point each)", itemgetter("left"), "num2"),
    Column("left_winners", "left(w)", "tokens left per winner", itemgetter("left_winners"), "num2"),
    Column(
        "spent_any", "spent any", "share of players who spent at least one", itemgetter("spent_any"), "rate"
    ),
]
ACTION_COLUMNS = [
    Column("action", "action", "free_choice or wipe (RULES.md 4.2)", itemgetter("action")),
    Column("times", "times", "times bought", itemgetter("times"), "int"),
    Column("tokens", "tokens", "tokens paid", itemgetter("tokens"), "int"),
    Column("per_game", "per game", "times bought per game", itemgetter("per_game"), "num2"),
    Column("share", "share", "share of all purchases", itemgetter("share"), "rate"),
]


@stats_app.command("nature", short_help="Nature tokens: earned, spent, left, and on what.")
def stats_nature(
    where: WhereOption = None,
    fmt: FormatOption = None,
    wide: WideOption = False,
    explain: ExplainOption = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Nature tokens: earned, spent, left, and what they were spent on."""
    if explain:
        _explain("nature")
        return
    with _open(home) as db:
        data = nature_stats(db, where)
        names = seat_names(db, where)
    sheets = [
        Sheet("Nature tokens per player", NATURE_COLUMNS, data["players"], _mixed_note(names)),
        Sheet("Spent on", ACTION_COLUMNS, data["actions"]),
    ]
    _output(sheets, data, fmt, json_output, wide, empty=not data["players"])


OVERPOPULATION_COLUMNS = [
    Column("players", "pl", "players in the game", itemgetter("players"), "int"),
    Column("games", "games", "games counted", itemgetter("games"), "int"),
    Column(
        "mandatory_per_game",
        "4/game",
        "mandatory wipes (four alike, RULES.md 4.1) per game",
        itemgetter("mandatory_per_game"),
        "num2",
    ),
    Column(
        "games_with_mandatory",
        "4 games",
        "share of games with a mandatory wipe",
        itemgetter("games_with_mandatory"),
        "rate",
    ),
    Column(
        "chosen_per_game",
        "3/game",
        "optional three-alike wipes chosen per game",
        itemgetter("chosen_per_game"),
        "num2",
    ),
    Column(
        "chosen_per_turn",
        "3/turn",
        "share of turns in which the optional wipe was chosen",
        itemgetter("chosen_per_turn"),
        "rate",
    ),
    Column(
        "nature_wipes_per_game",
        "nat/game",
        "wipes bought with nature tokens per game",
        itemgetter("nature_wipes_per_game"),
        "num2",
    ),
    Column(
        "unbreakable",
        "unbr",
        "wipes the bag could not break (one species left)",
        itemgetter("unbreakable"),
        "int",
    ),
]


@stats_app.command("overpopulation", short_help="Overpopulation wipes per game.")
def stats_overpopulation(
    where: WhereOption = None,
    fmt: FormatOption = None,
    wide: WideOption = False,
    explain: ExplainOption = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Overpopulation wipes per game: mandatory (four of a kind) and chosen (three)."""
    if explain:
        _explain("overpopulation")
        return
    with _open(home) as db:
        data = overpopulation_stats(db, where)
        names = seat_names(db, where)
    sheet = Sheet("Overpopulation", OVERPOPULATION_COLUMNS, data, _mixed_note(names))
    _output([sheet], data, fmt, json_output, wide, empty=not data)


SUMMARY_STATISTICS = [
    ("n", "players counted", "int"),
    ("mean", "mean final score", "num"),
    ("sd", "standard deviation", "num"),
    ("min", "lowest", "num"),
    ("p10", "10th percentile", "num"),
    ("q1", "25th percentile (first quartile)", "num"),
    ("median", "median", "num"),
    ("q3", "75th percentile (third quartile)", "num"),
    ("p90", "90th percentile", "num"),
    ("max", "highest", "num"),
]


def _score_sheets(result: dict[str, Any], names: list[str]) -> list[Sheet]:
    """The summary with one row per statistic and a column per group (all players,
    winners), and the histogram's bins."""
    groups = [row["group"] for row in result["summary"]]
    by_group = {row["group"]: row for row in result["summary"]}
    rows = [{"statistic": key, "meaning": meaning, "kind": kind} for key, meaning, kind in SUMMARY_STATISTICS]

    def value(row: dict[str, Any], group: str) -> Any:
        number = by_group[group][row["statistic"]]
        return number if row["kind"] == "int" or number is None else round(number, 1)

    columns = [Column("statistic", "", "", itemgetter("statistic"))] + [
        Column(group.replace(" ", "_"), group, "", lambda r, g=group: value(r, g), "raw") for group in groups
    ]
    summary = Sheet("Final scores", columns, rows, _mixed_note(names))
    histogram = Sheet(
        f"Histogram ({result['bin_width']}-point bins)",
        [
            Column("low", "from", "", itemgetter("low"), "int"),
            Column("high", "to", "", itemgetter("high"), "int"),
            Column("n", "players", "", itemgetter("n"), "int"),
            Column("winners", "winners", "", itemgetter("winners"), "int"),
        ],
        result["histogram"],
    )
    return [summary, histogram]


def _histogram_chart(result: dict[str, Any]) -> Table:
    histogram = result["histogram"]
    top = max(row["n"] for row in histogram)
    chart = Table("points", "players", "", "winners", title="Histogram", box=None, title_justify="left")
    for row in histogram:
        width = round(row["n"] / top * HISTOGRAM_WIDTH)
        chart.add_row(
            f"{row['low']}-{row['high']}", str(row["n"]), "[cyan]" + "█" * width + "[/]", str(row["winners"])
        )
    return chart


@stats_app.command("scores")
def stats_scores(
    where: WhereOption = None,
    bin_width: Annotated[
        int, typer.Option("--bin", min=1, help="Histogram bin width in points.")
    ] = DEFAULT_BIN,
    chart: ChartOption = None,
    fmt: FormatOption = None,
    wide: WideOption = False,
    explain: ExplainOption = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """The distribution of final scores, with a histogram."""
    if explain:
        _explain("scores")
        return
    _check_chart(chart)
    with _open(home) as db:
        data = score_stats(db, where, bin_width)
        names = seat_names(db, where)
    _chart("scores", data, chart, empty=not data["histogram"])
    if json_output or fmt not in (None, Format.table):
        _output(_score_sheets(data, names), data, fmt, json_output, wide, empty=not data["histogram"])
        return
    if not data["histogram"]:
        console.print(NO_GAMES, markup=False)
        return
    summary, _ = _score_sheets(data, names)
    print_sheets(console, [summary], fmt, data, wide)
    console.print(_histogram_chart(data))
    parts = ", ".join(f"{key} {value:.1f}" for key, value in data["parts"].items() if value is not None)
    say(console, f"mean parts: {parts}")
    say(console, f"games with a shared win: {rate_text(data['shared_win'])}")
    say(console, MORE)


ACHIEVEMENT_COLUMNS = [
    Column("achievement", "achievement", "RULES.md 8", itemgetter("achievement")),
    Column("bot", "bot", "", itemgetter("bot")),
    Column("players", "pl", "players in the game", itemgetter("players"), "int"),
    Column("met", "met", "share of the bot's wins in which it met the achievement", lambda r: r, "rate"),
]
MILESTONE_COLUMNS = [
    Column("player", "player", "a player of a map (a bot, in a campaign)", itemgetter("player")),
    Column("milestone", "milestone", "RULES.md 8.1", itemgetter("milestone")),
    Column("cells", "cells", "cells filled at the milestone", itemgetter("cells"), "int"),
    Column("maps", "maps", "maps on which the player reached it", itemgetter("maps"), "int"),
    Column("mean", "games", "mean games played for the map by then", itemgetter("mean_games"), "num"),
    Column("fewest", "min", "fewest games", itemgetter("fewest_games"), "int"),
    Column("most", "max", "most games", itemgetter("most_games"), "int"),
]


@stats_app.command("achievements", short_help="How often winners meet each achievement.")
def stats_achievements(
    where: WhereOption = None,
    fmt: FormatOption = None,
    wide: WideOption = False,
    explain: ExplainOption = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """How often winners meet each achievement (RULES.md 8: multiplayer games without
    the balanced bag), per bot and player count; and from the achievement maps
    (RULES.md 8.1, after `ingest --from-store`), the games each player took to each
    milestone (a bot campaign: `simulate --map`)."""
    if explain:
        _explain("achievements")
        return
    with _open(home) as db:
        rates = achievement_rates(db, where)
        milestones = milestone_games(db)
    sheets = [
        Sheet("Achievements met by the winners", ACHIEVEMENT_COLUMNS, rates),
        Sheet("Milestones of the achievement maps", MILESTONE_COLUMNS, milestones),
    ]
    data = {"achievements": rates, "milestones": milestones}
    _output(sheets, data, fmt, json_output, wide, empty=not rates and not milestones)


def register(app: typer.Typer) -> None:
    app.add_typer(stats_app, name="stats", short_help="Standard statistics over the ingested games.")
