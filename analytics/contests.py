"""Each game's contest for each scoring card, kept in its ``games`` row.

``stats cards`` (analytics/STATS.md) asks, of every game and species: the highest and
second-highest points scored with the card at that table, whether the one player with
the most won, the points of all players (their sum and sum of squares, for the mean and
standard deviation), and the winners' share of their total that came from the card; and,
for the win rate by bot, which seats won. Computed from the ``players`` table each time,
that is a join and a million groups for a million games (most of the query's time).
So a batch stores them in its ``games`` rows when it is written: ``seat_won`` (each
seat's ``won``, in seat order) and one ``<species>_contest`` struct per species.

One SQL definition (:func:`contests_sql`) serves both the writer (over the batch's own
``players`` table) and the reader, for the games of batches written before these
columns existed (:func:`games_with_contests`): what a stored row says is exactly what
the reader would compute.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa
from cascadia.domain.components import WILDLIFE

CONTEST_TYPE = pa.struct(
    [
        pa.field("best", pa.int16()),
        pa.field("runner_up", pa.int16()),
        pa.field("best_won", pa.bool_()),
        pa.field("points", pa.int32()),
        pa.field("squares", pa.int32()),
        pa.field("winner_share", pa.float64()),
    ]
)
"""One card's contest at one table: the highest points scored with it (``best``), the
second highest (``runner_up``; null in solo), whether the player with the most won
(``best_won``; null when the most is shared, and in solo), the sum of every player's
points and of their squares, and the winners' mean share of their total from the card
(null when no winner scored)."""

SEAT_WON = "seat_won"
CONTEST_COLUMNS: tuple[str, ...] = tuple(f"{s}_contest" for s in WILDLIFE)
DERIVED_COLUMNS: tuple[str, ...] = (SEAT_WON, *CONTEST_COLUMNS)
"""The columns of ``games`` computed from the game's ``players`` rows."""

_SQL_TYPE = (
    "STRUCT(best SMALLINT, runner_up SMALLINT, best_won BOOLEAN, "
    "points INTEGER, squares INTEGER, winner_share DOUBLE)"
)


def _contest(species: str) -> str:
    points = f"{species}_points"
    top2 = f"max({points}, 2)"
    return (
        f"{{'best': {top2}[1], 'runner_up': {top2}[2],"
        f" 'best_won': CASE WHEN {top2}[1] > {top2}[2] THEN arg_max(won, {points}) END,"
        f" 'points': sum({points}), 'squares': sum({points}::INTEGER * {points}),"
        f" 'winner_share': avg({points} / total) FILTER (WHERE won AND total > 0)}}"
        f"::{_SQL_TYPE} AS {species}_contest"
    )


def contests_sql(players: str) -> str:
    """A ``SELECT`` of ``game_id`` and the derived columns of each game in ``players`` (a
    relation with the columns of the ``players`` table)."""
    columns = ",\n       ".join(_contest(s) for s in WILDLIFE)
    return (
        f"SELECT game_id, list(won ORDER BY seat) AS {SEAT_WON},\n       {columns}\n"
        f"FROM {players} GROUP BY game_id"
    )


def with_contests(games: pa.Table, players: pa.Table) -> pa.Table:
    """``games`` with its derived columns filled in from ``players`` (the same batch's)."""
    with duckdb.connect(":memory:") as con:
        con.register("batch_players", players)
        derived = con.sql(contests_sql("batch_players")).to_arrow_table()
    row_of = {game_id: row for row, game_id in enumerate(derived.column("game_id").to_pylist())}
    order = pa.array([row_of[game_id] for game_id in games.column("game_id").to_pylist()], pa.int64())
    derived = derived.take(order)
    for name in DERIVED_COLUMNS:
        index = games.schema.get_field_index(name)
        column = derived.column(name).cast(games.schema.field(name).type)
        games = games.set_column(index, games.schema.field(name), column)
    return games


def games_with_contests(games: str, players: str, missing: int) -> str:
    """A ``SELECT`` of ``games`` (a query of the ``games`` view) whose derived columns are
    filled in everywhere: as stored, or, for the ``missing`` games of older batches
    (``seat_won`` null), computed from ``players`` (the ``players`` view)."""
    if not missing:
        return games
    replaced = ", ".join(f"c.{name} AS {name}" for name in DERIVED_COLUMNS)
    older_ids = f"SELECT game_id FROM ({games}) WHERE {SEAT_WON} IS NULL"
    older = f"(SELECT * FROM {players} WHERE game_id IN ({older_ids}))"
    return (
        f"SELECT * FROM ({games}) WHERE {SEAT_WON} IS NOT NULL UNION ALL BY NAME "
        f"SELECT g.* REPLACE ({replaced}) FROM ({games}) g JOIN ({contests_sql(older)}) c USING (game_id)"
    )
