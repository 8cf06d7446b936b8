"""Move analysis (``cascadia analyse``): a row per decision (each wipe and each move), a
bot judged by itself loses nothing, tags by the documented thresholds, deterministic,
never reads the log's future draws, and a tampered log is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cascadia.bots.analysis import (
    MOVE,
    TAGS,
    WIPE,
    Evaluator,
    analyse_log,
    future_seeds,
    positions,
    tag_of,
)
from cascadia.bots.registry import play_game
from cascadia.domain import events as ev
from cascadia.domain.errors import InvalidOptionError
from cascadia.replays.audit import verify
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import LogHeader, open_log, write_log
from cascadia.replays.scores import final_score_sheet


def _write(path: Path, seed: int, bots: list[str]) -> Path:
    game = play_game(seed, bots)
    events = game.collect_events()
    write_log(path, LogHeader.from_events(events), events, final_score_sheet(game.state))
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("analysis")
    return {
        "greedy": _write(folder / "greedy.cascadia", 11, ["greedy", "greedy"]),
        "mixed": _write(folder / "mixed.cascadia", 12, ["greedy", "random"]),
        "search": _write(folder / "search.cascadia", 13, ["search@4", "greedy"]),
    }


@pytest.fixture(scope="module")
def mixed_rows(logs: dict[str, Path]) -> list[dict]:
    _, rows = analyse_log(logs["mixed"], budget=1)
    return [row.to_dict() for row in rows]


def test_every_decision_gets_a_row_in_game_order(logs, mixed_rows):
    moves = [row for row in mixed_rows if row["kind"] == MOVE]
    assert [row["turn"] for row in moves] == list(range(1, 41))
    first = moves[0]["seat"]
    assert [row["seat"] for row in moves] == [(first + t) % 2 for t in range(40)]
    assert [row["seq"] for row in mixed_rows] == sorted(row["seq"] for row in mixed_rows)
    wipes = [row for row in mixed_rows if row["kind"] == WIPE]
    assert wipes and all(row["played"] == "wipe3" or row["played"].startswith("nature wipe") for row in wipes)
    _, seat_rows = analyse_log(logs["mixed"], budget=1, seat=1)
    assert [row.to_dict() for row in seat_rows] == [r for r in mixed_rows if r["seat"] == 1]


def test_the_decisions_are_the_logs(logs):
    with open_log(logs["mixed"]) as reader:
        _, events = verify(reader)
    decisions = list(positions(events))
    wiped = [
        e
        for e in events
        if (isinstance(e, ev.OverpopulationWiped) and not e.mandatory)
        or (isinstance(e, ev.NatureTokenSpent) and e.action == "wipe")
    ]
    assert sum(d.kind == WIPE for d in decisions) == len(wiped) > 0
    moves = [d for d in decisions if d.kind == MOVE]
    assert len(moves) == sum(isinstance(e, ev.TurnEnded) for e in events)
    taken = [e for e in events if isinstance(e, ev.PairTaken)]
    assert [(m.state.current, m.seq <= t.originator_version) for m, t in zip(moves, taken, strict=True)] == [
        (t.player, True) for t in taken
    ]


def test_the_greedy_judged_by_itself_loses_nothing(logs):
    """Its wipes too: the analysis decides a wipe by the greedy's own rule."""
    _, rows = analyse_log(logs["greedy"], "greedy", budget=1)
    rows = list(rows)
    assert sum(row.kind == MOVE for row in rows) == 40 and sum(row.kind == WIPE for row in rows) >= 3
    assert all(row.lost == 0 and row.tag is None and row.best == row.played for row in rows)


def test_a_declined_wipe_is_the_bots_decision_valued_over_the_futures_draws(logs, mixed_rows):
    """Where the random seat moved but the greedy's rule would have wiped, the bot's
    decision is that wipe, valued as the wipe (drawn in each future) and the rest."""
    from cascadia.domain.commands import parse

    declined = [
        row
        for row in mixed_rows
        if row["kind"] == MOVE and (row["best"] == "wipe3" or row["best"].startswith("nature wipe"))
    ]
    assert declined
    with open_log(logs["mixed"]) as reader:
        audit, events = verify(reader)
    at = {p.seq: p for p in positions(events)}
    evaluator = Evaluator(2)
    for row in declined:
        position = at[row["seq"]]
        seeds = future_seeds(audit.header.game_id, position.turn, 1)
        assert evaluator.expected_total(position.state, [parse(row["best"])], seeds) == row["best_points"]


def test_the_search_bot_judged_by_itself_loses_nothing(logs):
    """Seeded as it was in the game and asked every one of its turns in order, the
    search bot draws its own samples as it did then, so it chooses the moves it played."""
    _, rows = analyse_log(logs["search"], "search@4", budget=1, seat=0)
    assert all(row.lost == 0 and row.best == row.played for row in rows)


def test_a_random_player_loses_points_and_tags_follow_the_thresholds(mixed_rows):
    assert [tag for tag, _ in TAGS] == ["blunder", "mistake", "inaccuracy"]
    assert [tag_of(x) for x in (0, 1.99, 2, 4.99, 5, 9.99, 10, 40)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert all(row["tag"] == tag_of(row["lost"]) and row["lost"] >= 0 for row in mixed_rows)
    random_seat = [row for row in mixed_rows if row["seat"] == 1]
    assert sum(row["lost"] for row in random_seat) > 20
    assert {"mistake", "blunder"} & {row["tag"] for row in random_seat}
    for row in mixed_rows:
        assert row["lost"] == round(max(0.0, row["best_points"] - row["played_points"]), 2)


def test_the_analysis_is_deterministic(logs, mixed_rows):
    _, again = analyse_log(logs["mixed"], budget=1)
    assert [row.to_dict() for row in again] == mixed_rows


def test_the_futures_never_read_the_logs_draws(logs):
    """The value of a move does not depend on the game's seed (its real future draws):
    only on the futures seeded by the game id and the turn."""
    with open_log(logs["mixed"]) as reader:
        audit, events = verify(reader)
    position = list(positions(events))[10]
    seeds = future_seeds(audit.header.game_id, position.turn, 3)
    evaluator = Evaluator(2)
    value = evaluator.expected_total(position.state, position.commands, seeds)
    position.state.seed = position.state.seed ^ 0xFFFF
    assert evaluator.expected_total(position.state, position.commands, seeds) == value
    assert future_seeds(audit.header.game_id, position.turn, 3) == seeds
    assert future_seeds(audit.header.game_id, position.turn + 1, 3) != seeds


def test_a_tampered_log_is_refused(logs, tmp_path, cli):
    data = bytearray(logs["mixed"].read_bytes())
    data[len(data) // 2] ^= 0x01
    bad = tmp_path / "bad.cascadia"
    bad.write_bytes(bytes(data))
    with pytest.raises(ReplayError):
        analyse_log(bad, budget=1)
    code, out, err = cli("analyse", str(bad), home=False)
    assert (code, out) == (1, "")
    assert err.startswith("error: ") and "hash chain" in err and err.count("\n") == 1


def test_bad_options_are_refused(logs):
    with pytest.raises(InvalidOptionError, match="greedy, builder or search"):
        analyse_log(logs["mixed"], "random")
    with pytest.raises(InvalidOptionError, match="seat 2"):
        analyse_log(logs["mixed"], seat=2)
    with pytest.raises(InvalidOptionError, match="budget"):
        analyse_log(logs["mixed"], budget=0)


def test_the_command_prints_80_columns_or_json_lines(logs, mixed_rows, cli):
    code, out, _ = cli("analyse", str(logs["mixed"]), "--budget", "1", home=False)
    assert code in (0, None)
    assert max(map(len, out.splitlines())) <= 80
    assert re.search(r"seat 1 random: 20 moves \+ \d+ other, [\d.]+ points lost a decision", out)
    code, out, _ = cli("analyse", str(logs["mixed"]), "--budget", "1", "--json", home=False)
    assert [json.loads(line) for line in out.splitlines()] == mixed_rows
