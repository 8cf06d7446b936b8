"""Tournaments: duplicate seatings, ratings, the command and what it stores."""

from __future__ import annotations

import json

import pytest
from cascadia.application.store import GameStore
from cascadia.bots.tournament import rate_games, seatings
from cascadia.domain.errors import InvalidOptionError


def test_each_lineup_is_turned_over_every_seat() -> None:
    assert seatings(["greedy", "random"], 2) == [["greedy", "random"], ["random", "greedy"]]
    assert seatings(["greedy", "random", "search@3"], 3) == [
        ["greedy", "random", "search@3"],
        ["random", "search@3", "greedy"],
        ["search@3", "greedy", "random"],
    ]


def test_fewer_bots_than_seats_repeat_and_repeated_seatings_are_played_once() -> None:
    assert seatings(["greedy", "random"], 4) == [
        ["greedy", "random", "greedy", "random"],
        ["random", "greedy", "random", "greedy"],
    ]
    assert seatings(["greedy"], 3) == [["greedy", "greedy", "greedy"]]


def test_more_bots_than_seats_give_every_window_as_a_lineup() -> None:
    found = seatings(["greedy", "random", "search@2"], 2)
    assert sorted(map(tuple, found)) == sorted(
        [
            ("greedy", "random"),
            ("random", "greedy"),
            ("random", "search@2"),
            ("search@2", "random"),
            ("search@2", "greedy"),
            ("greedy", "search@2"),
        ]
    )


def test_unknown_bots_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="unknown bot"):
        seatings(["greedy", "grandmaster"], 2)


def test_the_bot_that_always_wins_is_rated_higher_with_narrowing_intervals() -> None:
    games = [(["a", "b"], [90, 50], [1, 2]), (["b", "a"], [40, 95], [2, 1])] * 5
    standings = rate_games(games)
    assert [s.bot for s in standings] == ["a", "b"]
    a, b = standings
    assert a.mu > b.mu and a.rating_low > b.mu - 1.96 * b.sigma
    assert a.sigma < rate_games(games[:2])[0].sigma
    assert (a.seats, a.wins, a.mean_score) == (10, 10, 92.5)


def test_a_bot_in_two_seats_gets_one_rating() -> None:
    standings = rate_games([(["a", "b", "a"], [80, 70, 60], [1, 2, 3])])
    assert sorted(s.bot for s in standings) == ["a", "b"]
    assert next(s for s in standings if s.bot == "a").seats == 2


def test_tournament_command_stores_rated_games_under_the_bot_names(cli, tmp_path) -> None:
    args = ("tournament", "--bots", "greedy,random", "-p", "2", "-n", "2", "--cards", "all-a", "--json")
    code, out, _ = cli(*args)
    assert code == 0
    result = json.loads(out)
    assert result["games"] == 4 and result["seatings"] == [["greedy", "random"], ["random", "greedy"]]
    assert [s["bot"] for s in result["standings"]] == ["greedy", "random"]
    names = sorted(tuple(info["names"]) for _, info in GameStore(tmp_path).started_games())
    assert names == [("greedy", "random")] * 2 + [("random", "greedy")] * 2
    code, again, _ = cli(*args)  # stored games are rated again, not replayed
    assert code == 0 and json.loads(again)["standings"] == result["standings"]


def test_tournament_command_rejects_unknown_bots_in_one_line(cli) -> None:
    code, _, err = cli("tournament", "--bots", "greedy,nobody")
    assert code == 1 and err.strip().startswith("error:") and len(err.strip().splitlines()) == 1


def test_tournament_shows_its_progress_on_stderr_when_it_is_a_terminal(cli, monkeypatch) -> None:
    from cascadia.cli.common import err_console

    args = ("tournament", "--bots", "random", "-p", "1", "-n", "2", "--cards", "all-a")
    assert cli(*args)[2] == ""  # stderr is no terminal here: no bar
    monkeypatch.setattr(err_console, "_force_terminal", True)
    monkeypatch.setattr(err_console, "is_interactive", True)
    code, out, err = cli(*args)
    assert code == 0 and "playing" in err and "2/2" in err and "playing" not in out
    assert cli(*args, "--json")[2] == ""  # nor under --json
