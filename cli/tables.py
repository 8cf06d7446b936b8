"""Tables of the command line in every output format: a rich table that fits the
terminal, CSV, JSON, Markdown, or one record per block (vertical).

A :class:`Sheet` is a titled list of rows with its :class:`Column` definitions: a short
header, a meaning (printed as a legend under a table) and how to read the raw value from
a row. Rates (dicts with ``rate``, ``low``, ``high``, ``n``, ``small``, see
:func:`cascadia.analytics.stats.rate`) take two lines in a table cell, the 95% interval
on the second, so that nothing is cut at 80 columns; in CSV they become four columns.
A table that is still wider than the terminal is printed vertically instead.
"""

from __future__ import annotations

import csv
import io
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any

import typer
from cascadia.analytics.rates import SMALL_SAMPLE
from cascadia.cli.common import print_json
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text


class Format(StrEnum):
    """The output formats of ``--format``."""

    table = "table"
    csv = "csv"
    json = "json"
    markdown = "markdown"
    vertical = "vertical"


FormatOption = Annotated[
    Format | None,
    typer.Option(
        "--format",
        "-f",
        help="table (the default; one block per row when the rows are wider than the "
        "terminal), vertical (one block per row), csv, json or markdown.",
        show_default=False,
    ),
]

SMALL_FLAG = "*"
RATE_LEGEND = (
    f"rates: percentage, n = sample size ({SMALL_FLAG} n < {SMALL_SAMPLE}: read with care), "
    "[95% Wilson interval]"
)


@dataclass(frozen=True, slots=True)
class Column:
    """One column: ``key`` (CSV header, ``--sort`` name), ``header`` (table header),
    ``meaning`` (legend) and ``get`` (the raw value of a row). ``kind`` says how to show
    it: ``text``, ``int``, ``num`` (1 decimal), ``num2``, ``num3``, ``signed``, ``pct``
    (a fraction as a percentage) or ``rate``. ``wide``: shown in a table only with
    ``--wide`` (the other formats show every column)."""

    key: str
    header: str
    meaning: str
    get: Callable[[Any], Any]
    kind: str = "text"
    wide: bool = False


@dataclass(slots=True)
class Sheet:
    """A titled table: columns, rows (any objects the columns read) and notes printed
    under it."""

    title: str
    columns: list[Column]
    rows: list[Any]
    notes: list[str] = field(default_factory=list)

    def column(self, key: str) -> Column:
        for column in self.columns:
            if column.key == key:
                return column
        raise typer.BadParameter(
            f"no column {key!r}; choose from {', '.join(c.key for c in self.columns)}", param_hint="--sort"
        )

    def sorted_by(self, key: str) -> Sheet:
        """The rows ordered by column ``key``: numbers and rates largest first, text A-Z;
        missing values last."""
        column = self.column(key)
        numeric = column.kind != "text"

        def order(row: Any) -> tuple[bool, Any]:
            value = column.get(row)
            if column.kind == "rate":
                value = value.get("rate") if value else None
            if value is None:
                return (True, 0)
            return (False, -value if numeric else str(value))

        return Sheet(self.title, self.columns, sorted(self.rows, key=order), self.notes)


# -- cells ----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def rate_text(entry: dict[str, Any] | None, two_lines: bool = False) -> str:
    """``25.0% n=184`` and the interval ``[19.3-31.7]`` (on a second line if asked);
    ``*`` marks a small sample."""
    if not entry or not entry.get("n"):
        return "-"
    flag = SMALL_FLAG if entry["small"] else ""
    interval = f"[{entry['low'] * 100:.1f}-{entry['high'] * 100:.1f}]"
    head = f"{_pct(entry['rate'])} n={entry['n']}{flag}"
    return f"{head}\n{interval}" if two_lines else f"{head} {interval}"


def cell(column: Column, row: Any, two_lines: bool = False) -> str:
    """The text of ``row``'s value in ``column``."""
    value = column.get(row)
    kind = column.kind
    if kind == "rate":
        return rate_text(value, two_lines)
    if value is None:
        return "-"
    if kind == "pct":
        return _pct(value)
    if kind in ("num", "num2", "num3"):
        digits = {"num": 1, "num2": 2, "num3": 3}[kind]
        return f"{value:.{digits}f}"
    if kind == "signed":
        return f"{value:+.2f}"
    return str(value)


def _flat(column: Column, row: Any) -> list[tuple[str, Any]]:
    """``(key, raw value)`` pairs of a cell for CSV: a rate gives four."""
    value = column.get(row)
    if column.kind != "rate":
        return [(column.key, value)]
    entry = value or {}
    return [
        (column.key, entry.get("rate")),
        (f"{column.key}_low", entry.get("low")),
        (f"{column.key}_high", entry.get("high")),
        (f"{column.key}_n", entry.get("n")),
    ]


# -- formats --------------------------------------------------------------------------------


def rich_table(sheet: Sheet, wide: bool, two_lines: bool = False) -> Table:
    """The sheet as a compact rich table (columns marked ``wide`` only if ``wide``);
    ``two_lines`` puts the intervals of rates on a line of their own."""
    columns = [c for c in sheet.columns if wide or not c.wide]
    two_lines = two_lines and any(c.kind == "rate" for c in columns)
    table = Table(
        title=sheet.title or None,
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        pad_edge=False,
        leading=1 if two_lines else 0,
        title_justify="left",
    )
    for column in columns:
        numeric = column.kind not in ("text",)
        table.add_column(column.header, justify="right" if numeric else "left", overflow="fold")
    for row in sheet.rows:
        table.add_row(*(Text(cell(c, row, two_lines)) for c in columns))
    return table


def natural_width(table: Table) -> int:
    """The width ``table`` takes when nothing is squeezed: its widest rendered line."""
    wide = Console(file=io.StringIO(), width=100_000, color_system=None)
    with wide.capture() as captured:
        wide.print(table)
    return max((len(line.rstrip()) for line in captured.get().splitlines()), default=0)


def fits(console: Console, table: Table) -> bool:
    """Whether ``table`` shows every cell whole within the console's width."""
    return natural_width(table) <= console.width


def legend(sheet: Sheet, wide: bool) -> list[str]:
    """``header: meaning`` for the columns shown, then how rates read if there are any."""
    columns = [c for c in sheet.columns if wide or not c.wide]
    lines = [f"{c.header}: {c.meaning}" for c in columns if c.meaning]
    if any(c.kind == "rate" for c in columns):
        lines.append(RATE_LEGEND)
    return lines


def say(console: Console, text: str, indent: str = "") -> None:
    """Print plain ``text`` word-wrapped to the console's width (continuation lines
    indented two more spaces)."""
    wrapped = textwrap.fill(
        text,
        width=max(console.width, 40),
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        break_on_hyphens=False,
        break_long_words=False,
    )
    console.print(wrapped, markup=False, highlight=False)


def vertical_text(sheet: Sheet, line_width: int = 80) -> str:
    """One block per row, ``header  value`` per line (long values wrapped under
    themselves within ``line_width``), a blank line between rows."""
    columns = sheet.columns
    width = max((len(c.header) for c in columns), default=0)
    room = max(line_width - width - 2, 20)
    blocks = []
    for number, row in enumerate(sheet.rows, start=1):
        lines = [f"-- {sheet.title or 'row'} {number} --"]
        for column in columns:
            parts = textwrap.wrap(cell(column, row), room, break_on_hyphens=False) or [""]
            lines.append(f"{column.header.ljust(width)}  {parts[0]}")
            lines += [" " * (width + 2) + part for part in parts[1:]]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def markdown_text(sheet: Sheet) -> str:
    """A Markdown (GitHub) pipe table of every column."""

    def escape(text: str) -> str:
        return text.replace("|", "\\|").replace("*", "\\*").replace("\n", " ")

    lines = [f"**{sheet.title}**", ""] if sheet.title else []
    lines.append("| " + " | ".join(escape(c.header) for c in sheet.columns) + " |")
    lines.append("|" + "|".join(" --- " if c.kind == "text" else " ---: " for c in sheet.columns) + "|")
    for row in sheet.rows:
        lines.append("| " + " | ".join(escape(cell(c, row)) for c in sheet.columns) + " |")
    return "\n".join(lines)


def csv_text(sheets: Sequence[Sheet]) -> str:
    """The sheets as CSV, raw values (rates as four columns); several sheets are
    separated by a blank line, each with its header row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for index, sheet in enumerate(sheets):
        if index:
            out.write("\n")
        keys = [key for c in sheet.columns for key, _ in _flat(c, sheet.rows[0] if sheet.rows else None)]
        if not sheet.rows:
            keys = [c.key for c in sheet.columns]
        writer.writerow(keys)
        for row in sheet.rows:
            writer.writerow(
                ["" if value is None else value for c in sheet.columns for _, value in _flat(c, row)]
            )
    return out.getvalue()


def print_sheets(
    console: Console,
    sheets: Sequence[Sheet],
    fmt: Format | None,
    data: Any,
    wide: bool = False,
    footer: Sequence[str] = (),
) -> None:
    """Print ``sheets`` in ``fmt`` (``json`` prints ``data``, the full result). A table
    comes with its legend and notes; ``footer`` lines end the table and vertical formats.
    A table wider than the terminal is printed vertically."""
    if fmt is Format.json:
        print_json(data)  # the JSON Lines convention of every --json
        return
    if fmt is Format.csv:
        sys.stdout.write(csv_text(sheets))
        return
    if fmt is Format.markdown:
        sys.stdout.write("\n\n".join(markdown_text(s) for s in sheets) + "\n")
        return
    for sheet in sheets:
        table = rich_table(sheet, wide)
        if not fits(console, table):
            table = rich_table(sheet, wide, two_lines=True)
        if fmt is Format.vertical or not fits(console, table):
            console.print(vertical_text(sheet, console.width), markup=False, highlight=False)
        else:
            console.print(table)
            for line in legend(sheet, wide):
                say(console, line, "  ")
        for note in sheet.notes:
            say(console, f"note: {note}")
        console.print()
    for line in footer:
        say(console, line)
