"""The standard statistics, each a function of an :class:`AnalyticsDB` returning plain data.

Every function takes ``where``: an SQL condition on the columns of ``games`` (for example
``"players = 4 AND cards = 'random'"``) that selects the games it looks at. Every rate
is a :func:`rate` dict: successes ``k``, sample size ``n``, the proportion, its 95%
Wilson score interval and ``small`` when ``n`` is below ``SMALL_SAMPLE``
(:mod:`cascadia.analytics.rates`). The
definitions (above all of the card win rates) are in ``analytics/STATS.md``.
"""

from __future__ import annotations

from typing import Any

from cascadia.analytics import schema
from cascadia.analytics.contests import CONTEST_COLUMNS, SEAT_WON, games_with_contests
from cascadia.analytics.query import AnalyticsDB
from cascadia.analytics.rates import rate
from cascadia.domain.components import WILDLIFE

DEFAULT_BIN = 5


def _number(value: Any, digits: int = 4) -> float | None:
    return None if value is None else round(float(value), digits)


def _unnest(values: list[str]) -> str:
    return "unnest([" + ", ".join(values) + "])"


_CARD_COLUMNS = [schema.card_column(s) for s in WILDLIFE]
_SPECIES = _unnest([f"'{s}'" for s in WILDLIFE])
_CARDS = _unnest(_CARD_COLUMNS)
_CONTESTS = _unnest(list(CONTEST_COLUMNS))


def card_stats(db: AnalyticsDB, where: str | None = None) -> list[dict[str, Any]]:
    """Per scoring card (species and card): games, mean and standard deviation of the
    points scored with it, its mean share of the winner's score, the win rate of the
    player who scored most with it (ties for most excluded) and the win rate of each bot
    when it is in play. Games with two card sets are left out (a player's points are
    not all from one card there); win rates count games of 2 or more players.

    Each game's contest for each card is in its ``games`` row
    (:mod:`cascadia.analytics.contests`; computed here from ``players`` only for games of
    batches written before those columns), so a million games are a million rows spread
    over five species, with no join: the most points is not shared exactly when
    ``best`` is above ``runner_up``."""
    games = db.games_where(where)
    missing = (
        0 if db.all_current else db.run(f"SELECT count(*) FROM ({games}) WHERE {SEAT_WON} IS NULL").rows[0][0]
    )
    g = games_with_contests(games, "players", missing)
    if missing:  # the contests of older batches' games: worked out once, for both queries
        kept = ", ".join(["players", "two_card_sets", "names", SEAT_WON, *_CARD_COLUMNS, *CONTEST_COLUMNS])
        db.run(f"CREATE OR REPLACE TEMP TABLE card_games AS SELECT {kept} FROM ({g})")
        g = "SELECT * FROM card_games"
    try:
        return _card_stats(db, g)
    finally:
        if missing:
            db.run("DROP TABLE card_games")


def _card_stats(db: AnalyticsDB, g: str) -> list[dict[str, Any]]:
    """:func:`card_stats` of the games ``g`` (a query with their contests)."""
    rows = db.records(
        f"""
        WITH per_card AS (
            SELECT players, {_SPECIES} AS species, {_CARDS} AS card, {_CONTESTS} AS c
            FROM ({g}) WHERE NOT coalesce(two_card_sets, false)
        )
        SELECT species, card, count(*) AS games, avg(c.winner_share) AS winner_share,
               count(*) FILTER (WHERE c.best > c.runner_up) AS decided,
               count(*) FILTER (WHERE c.best = c.runner_up) AS tied,
               count(*) FILTER (WHERE c.best > c.runner_up AND c.best_won) AS top_wins,
               avg(1.0 / players) FILTER (WHERE c.best > c.runner_up) AS baseline,
               sum(players) AS n, sum(c.points) / sum(players) AS mean,
               CASE WHEN sum(players) > 1 THEN sqrt(
                   (sum(players) * sum(c.squares) - sum(c.points) * sum(c.points))::DOUBLE
                   / (sum(players) * (sum(players) - 1))
               ) END AS sd
        FROM per_card GROUP BY species, card
        """
    )
    bots = db.records(
        f"""
        WITH per_table AS (
            SELECT name, players, {", ".join(_CARD_COLUMNS)}, count(*) AS n, count(*) FILTER (WHERE won) AS k
            FROM (
                SELECT unnest(names) AS name, unnest({SEAT_WON}) AS won, players, {", ".join(_CARD_COLUMNS)}
                FROM ({g}) WHERE NOT coalesce(two_card_sets, false) AND players > 1
            )
            GROUP BY ALL
        ),
        per_card AS (
            SELECT name, players, n, k, {_SPECIES} AS species, {_CARDS} AS card FROM per_table
        )
        SELECT species, card, name, sum(n) AS n, sum(k) AS k, sum(n / players) / sum(n) AS baseline
        FROM per_card GROUP BY species, card, name ORDER BY name
        """
    )
    by_bot: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in bots:
        entry = {"bot": row["name"], **rate(row["k"], row["n"]), "baseline": _number(row["baseline"])}
        by_bot.setdefault((row["species"], row["card"]), []).append(entry)
    result = []
    for row in rows:
        key = (row["species"], row["card"])
        result.append(
            {
                "card": f"{row['species']} {row['card']}",
                "species": row["species"],
                "letter": row["card"],
                "games": row["games"],
                "players": row["n"],
                "mean": _number(row["mean"], 3),
                "sd": _number(row["sd"], 3),
                "winner_share": _number(row["winner_share"]),
                "top_scorer": {
                    **rate(row["top_wins"], row["decided"]),
                    "ties_excluded": row["tied"],
                    "baseline": _number(row["baseline"]),
                },
                "by_bot": by_bot.get(key, []),
            }
        )
    order = {s: i for i, s in enumerate(WILDLIFE)}
    result.sort(key=lambda r: (order.get(r["species"], len(order)), str(r["letter"])))
    return result


def seat_stats(db: AnalyticsDB, where: str | None = None) -> list[dict[str, Any]]:
    """Per player count and turn position (0 = the first player, then in playing order):
    win rate, mean and standard deviation of the total, mean rank, and the difference of
    the mean total from the mean of all positions at that player count."""
    games = db.games_where(where)
    rows = db.records(
        f"""
        WITH g AS ({games})
        SELECT g.players, p.turn_position, count(*) AS n, count(*) FILTER (WHERE p.won) AS k,
               avg(p.total) AS mean, stddev_samp(p.total) AS sd, avg(p.rank) AS mean_rank,
               avg(p.total) - avg(avg(p.total)) OVER (PARTITION BY g.players) AS score_difference
        FROM players p JOIN g USING (game_id)
        WHERE g.players > 1
        GROUP BY g.players, p.turn_position ORDER BY g.players, p.turn_position
        """
    )
    return [
        {
            "players": row["players"],
            "turn_position": row["turn_position"],
            "win": rate(row["k"], row["n"]),
            "baseline": round(1 / row["players"], 4),
            "mean": _number(row["mean"], 3),
            "sd": _number(row["sd"], 3),
            "mean_rank": _number(row["mean_rank"], 3),
            "score_difference": _number(row["score_difference"], 3),
        }
        for row in rows
    ]


def bot_stats(db: AnalyticsDB, where: str | None = None) -> list[dict[str, Any]]:
    """Per bot (the seat's name) and player count: seats played, win rate (not for solo
    games), mean and standard deviation of the total, mean rank."""
    games = db.games_where(where)
    rows = db.records(
        f"""
        WITH g AS ({games})
        SELECT p.name AS bot, g.players, count(*) AS n, count(*) FILTER (WHERE p.won) AS k,
               avg(p.total) AS mean, stddev_samp(p.total) AS sd, avg(p.rank) AS mean_rank
        FROM players p JOIN g USING (game_id)
        GROUP BY p.name, g.players ORDER BY p.name, g.players
        """
    )
    return [
        {
            "bot": row["bot"],
            "players": row["players"],
            "seats": row["n"],
            "win": rate(row["k"], row["n"]) if row["players"] > 1 else None,
            "baseline": round(1 / row["players"], 4),
            "mean": _number(row["mean"], 3),
            "sd": _number(row["sd"], 3),
            "mean_rank": _number(row["mean_rank"], 3),
        }
        for row in rows
    ]


def nature_stats(db: AnalyticsDB, where: str | None = None) -> dict[str, Any]:
    """Nature tokens: per player count, tokens earned, spent and left per player and the
    share of players who spent any; and what they were spent on (per action: times,
    tokens, share of all spends, times per game)."""
    games = db.games_where(where)
    players = db.records(
        f"""
        WITH g AS ({games})
        SELECT g.players, count(*) AS n, count(DISTINCT game_id) AS games,
               avg(p.nature_earned) AS earned, avg(p.nature_spent) AS spent, avg(p.nature_left) AS left,
               stddev_samp(p.nature_earned) AS earned_sd,
               count(*) FILTER (WHERE p.nature_spent > 0) AS spenders,
               avg(p.nature_left) FILTER (WHERE p.won) AS left_winners
        FROM players p JOIN g USING (game_id)
        GROUP BY g.players ORDER BY g.players
        """
    )
    actions = db.records(
        f"""
        WITH g AS ({games}),
        spends AS (
            SELECT e.action, e.cost FROM events e JOIN g USING (game_id)
            WHERE e.type = 'NatureTokenSpent'
        )
        SELECT action, count(*) AS times, sum(cost) AS tokens,
               (SELECT count(*) FROM spends) AS all_times,
               (SELECT count(*) FROM g) AS games
        FROM spends GROUP BY action ORDER BY action
        """
    )
    return {
        "players": [
            {
                "players": row["players"],
                "seats": row["n"],
                "games": row["games"],
                "earned": _number(row["earned"], 3),
                "earned_sd": _number(row["earned_sd"], 3),
                "spent": _number(row["spent"], 3),
                "left": _number(row["left"], 3),
                "left_winners": _number(row["left_winners"], 3),
                "spent_any": rate(row["spenders"], row["n"]),
            }
            for row in players
        ],
        "actions": [
            {
                "action": row["action"],
                "times": row["times"],
                "tokens": int(row["tokens"] or 0),
                "per_game": _number(row["times"] / row["games"] if row["games"] else None, 3),
                "share": rate(row["times"], row["all_times"]),
            }
            for row in actions
        ],
    }


def overpopulation_stats(db: AnalyticsDB, where: str | None = None) -> list[dict[str, Any]]:
    """Per player count: wipes per game, mandatory (four of a kind) and chosen (the
    optional three of a kind), the share of games with at least one of each, the share
    of turns in which the optional wipe was chosen, unbreakable repetitions, and for
    comparison the wipes bought with nature tokens."""
    games = db.games_where(where)
    rows = db.records(
        f"""
        WITH g AS ({games}),
        w AS (
            SELECT e.game_id,
                   count(*) FILTER (WHERE e.type = 'OverpopulationWiped' AND e.mandatory) AS mandatory,
                   count(*) FILTER (WHERE e.type = 'OverpopulationWiped' AND NOT e.mandatory) AS chosen,
                   count(*) FILTER (WHERE e.type = 'OverpopulationWiped' AND e.unbreakable) AS unbreakable,
                   count(*) FILTER (WHERE e.type = 'WildlifeReplaced') AS nature
            FROM events e JOIN g USING (game_id)
            WHERE e.type IN ('OverpopulationWiped', 'WildlifeReplaced')
            GROUP BY e.game_id
        )
        SELECT g.players, count(*) AS games, sum(g.turns) AS turns,
               avg(coalesce(w.mandatory, 0)) AS mandatory,
               stddev_samp(coalesce(w.mandatory, 0)) AS mandatory_sd,
               max(coalesce(w.mandatory, 0)) AS mandatory_max,
               avg(coalesce(w.chosen, 0)) AS chosen, stddev_samp(coalesce(w.chosen, 0)) AS chosen_sd,
               sum(coalesce(w.chosen, 0)) AS chosen_total,
               avg(coalesce(w.nature, 0)) AS nature,
               sum(coalesce(w.unbreakable, 0)) AS unbreakable,
               count(*) FILTER (WHERE w.mandatory > 0) AS with_mandatory,
               count(*) FILTER (WHERE w.chosen > 0) AS with_chosen
        FROM g LEFT JOIN w USING (game_id)
        GROUP BY g.players ORDER BY g.players
        """
    )
    return [
        {
            "players": row["players"],
            "games": row["games"],
            "mandatory_per_game": _number(row["mandatory"], 3),
            "mandatory_sd": _number(row["mandatory_sd"], 3),
            "mandatory_max": row["mandatory_max"],
            "chosen_per_game": _number(row["chosen"], 3),
            "chosen_sd": _number(row["chosen_sd"], 3),
            "nature_wipes_per_game": _number(row["nature"], 3),
            "unbreakable": int(row["unbreakable"]),
            "games_with_mandatory": rate(row["with_mandatory"], row["games"]),
            "games_with_chosen": rate(row["with_chosen"], row["games"]),
            "chosen_per_turn": rate(int(row["chosen_total"]), int(row["turns"])),
        }
        for row in rows
    ]


def score_stats(db: AnalyticsDB, where: str | None = None, bin_width: int = DEFAULT_BIN) -> dict[str, Any]:
    """The distribution of final totals, of all players and of the winners: summary
    (n, mean, sd, min, deciles and quartiles, max), a histogram with ``bin_width``-point
    bins, the mean of each part of the score, the same summary per bot (the seat's
    name) and player count, and the share of games with a shared win."""
    if bin_width < 1:
        raise ValueError("the histogram bin width must be at least 1")
    games = db.games_where(where)
    summary = db.records(
        f"""
        WITH g AS ({games}),
        t AS (SELECT p.total, p.won FROM players p JOIN g USING (game_id)),
        groups AS (
            SELECT 'all players' AS "group", total FROM t
            UNION ALL SELECT 'winners', total FROM t WHERE won
        )
        SELECT "group", count(*) AS n, avg(total) AS mean, stddev_samp(total) AS sd, min(total) AS min,
               quantile_cont(total, 0.1) AS p10, quantile_cont(total, 0.25) AS q1,
               median(total) AS median, quantile_cont(total, 0.75) AS q3,
               quantile_cont(total, 0.9) AS p90, max(total) AS max
        FROM groups GROUP BY "group" ORDER BY "group"
        """
    )
    histogram = db.records(
        f"""
        WITH g AS ({games})
        SELECT floor(p.total / ?) * ? AS low, count(*) AS n, count(*) FILTER (WHERE p.won) AS winners
        FROM players p JOIN g USING (game_id) GROUP BY ALL ORDER BY low
        """,
        [bin_width, bin_width],
    )
    part_columns = [*schema.SPECIES_POINTS, "wildlife_total", "corridor_total", "bonus_total", "nature_left"]
    parts = db.records(
        f"""
        WITH g AS ({games})
        SELECT {", ".join(f"avg(p.{c}) AS {c}" for c in part_columns)}
        FROM players p JOIN g USING (game_id)
        """
    )[0]
    by_bot = db.records(
        f"""
        WITH g AS ({games})
        SELECT p.name AS bot, g.players, count(*) AS n, avg(p.total) AS mean, stddev_samp(p.total) AS sd,
               min(p.total) AS min, quantile_cont(p.total, 0.1) AS p10, quantile_cont(p.total, 0.25) AS q1,
               median(p.total) AS median, quantile_cont(p.total, 0.75) AS q3,
               quantile_cont(p.total, 0.9) AS p90, max(p.total) AS max
        FROM players p JOIN g USING (game_id)
        GROUP BY p.name, g.players ORDER BY p.name, g.players
        """
    )
    shared = db.records(f"SELECT count(*) AS n, count(*) FILTER (WHERE winners > 1) AS k FROM ({games})")[0]
    return {
        "summary": [
            {key: value if key in ("group", "n") else _number(value, 3) for key, value in row.items()}
            for row in summary
        ],
        "bin_width": bin_width,
        "histogram": [
            {
                "low": int(row["low"]),
                "high": int(row["low"]) + bin_width - 1,
                "n": row["n"],
                "winners": row["winners"],
            }
            for row in histogram
        ],
        "parts": {key: _number(value, 3) for key, value in parts.items()},
        "by_bot": [
            {k: v if k in ("bot", "players", "n") else _number(v, 3) for k, v in row.items()}
            for row in by_bot
        ],
        "shared_win": rate(shared["k"], shared["n"]),
    }


def seat_names(db: AnalyticsDB, where: str | None = None) -> list[str]:
    """The distinct seat names (bots, or humans) of the games matching ``where``: more
    than one means a statistic over these games mixes players of different strength.
    Read from each game's ``names`` (no join of a million games with their players)."""
    games = db.games_where(where)
    rows = db.records(f"SELECT DISTINCT unnest(names) AS name FROM ({games}) ORDER BY 1")
    return [row["name"] for row in rows]


STATS = {
    "cards": card_stats,
    "seats": seat_stats,
    "bots": bot_stats,
    "nature": nature_stats,
    "overpopulation": overpopulation_stats,
    "scores": score_stats,
}
"""The standard statistics by name (as in ``cascadia stats NAME``)."""
