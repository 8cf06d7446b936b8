"""``cascadia sql``: one read-only SELECT over the analytics tables, printed as a table."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

import typer
from cascadia.analytics.query import AnalyticsDB
from cascadia.cli.common import HomeOption, JsonOption, console, print_json
from cascadia.cli.data_home import require_data
from cascadia.cli.tables import Column, Format, FormatOption, Sheet, print_sheets


def _numeric(values: Iterable[Any]) -> bool:
    """Whether a result column holds numbers only (NULLs aside): shown right-aligned."""
    present = [v for v in values if v is not None]
    return bool(present) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present)


def sql(
    query: Annotated[
        str,
        typer.Argument(
            help="One SELECT statement (tables: analytics/SCHEMA.md). A query that starts "
            'with "-" (a comment) goes after "--".'
        ),
    ],
    max_rows: Annotated[int, typer.Option("--max-rows", min=1, help="Rows shown in the table.")] = 200,
    fmt: FormatOption = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Run one read-only SELECT over the analytics tables.

    Rows wider than the terminal are shown one block per row (--format vertical);
    --format csv, json or markdown print every row."""
    with AnalyticsDB(require_data(home)) as db:
        result = db.user_query(query)
    if json_output or fmt is Format.json:
        print_json(result.records())
        return
    columns = [
        Column(
            name,
            name,
            "",
            lambda row, i=i: "NULL" if row[i] is None else row[i],
            "raw" if _numeric(row[i] for row in result.rows) else "text",
        )
        for i, name in enumerate(result.columns)
    ]
    everything = fmt in (Format.csv, Format.markdown)
    sheet = Sheet("", columns, result.rows if everything else result.rows[:max_rows])
    print_sheets(console, [sheet], fmt, None)
    if everything:
        return
    hidden = len(result.rows) - max_rows
    more = f" ({hidden} not shown: use --max-rows, LIMIT or --format csv)" if hidden > 0 else ""
    console.print(f"{len(result.rows)} row(s){more}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("sql")(sql)
