"""Training the card potential: the least-squares sums, the samples of a shard game, and
``cascadia train`` giving the same module byte for byte when run again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from cascadia.application.study import StudyFolder
from cascadia.application.training import MIX, TrainingPlan, fit, game_samples, train
from cascadia.bots.card_potential import CardModel, terms
from cascadia.bots.potential import turns_left
from cascadia.bots.potential_fit import Layout, NormalEquations, rounded
from cascadia.cli.app import app
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state
from cascadia.replays.shard import ShardReader
from typer.testing import CliRunner


def test_normal_equations_add_up_to_the_fit_of_all_rows() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(200, 6))
    truth = np.array([1.5, -2.0, 0.0, 3.25, 0.5, -1.0])
    y = x @ truth + rng.normal(scale=0.01, size=200)
    whole, first, second = NormalEquations(6), NormalEquations(6), NormalEquations(6)
    whole.add_rows(list(x), list(y))
    first.add_rows(list(x[:70]), list(y[:70]))
    second.add_rows(list(x[70:]), list(y[70:]))
    first.add(second)
    assert first.count == whole.count == 200
    assert np.allclose(first.xtx, whole.xtx) and np.allclose(first.xty, whole.xty)
    solution = whole.solve(ridge=0.0)
    assert np.allclose(solution, truth, atol=0.01)
    direct = float(((y - x @ solution) ** 2).sum())
    assert abs(whole.squared_error(solution) - direct) < 1e-6
    assert whole.r_squared(solution) > 0.999


def test_a_ridge_gives_zero_to_columns_no_sample_reached() -> None:
    equations = NormalEquations(3)
    equations.add_rows([np.array([1.0, 2.0, 0.0]), np.array([2.0, 1.0, 0.0])], [3.0, 3.0])
    assert equations.solve()[2] == 0.0


def test_a_row_puts_each_block_in_its_columns() -> None:
    layout = Layout()
    game = Game.start(5, 4, GameOptions(cards="C,A,B,D,A"))
    blocks = terms(game.state, 0, turns_left(game.state, 0))
    row = layout.row(blocks)
    assert len(row) == layout.width
    for key, values in blocks.items():
        at = layout.offsets[key]
        assert list(row[at : at + len(values)]) == values
    assert np.count_nonzero(row) <= sum(len(v) for v in blocks.values())
    assert rounded(-0.00001) == 0.0 and str(rounded(-0.00001)) == "0.0"


def test_the_plan_shares_the_games_out_over_the_mix() -> None:
    specs = TrainingPlan(games=200, first_seed=50).studies()
    assert [(s.options.cards, s.options.majority_bonus) for s in specs] == [(c, m) for c, m, _ in MIX]
    assert sum(s.games for s in specs) == 200
    assert all(s.start == 50 and s.names == ("greedy",) * 4 for s in specs)


def test_train_writes_the_same_module_when_run_again(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "coefficients.py"
    result = CliRunner().invoke(
        app, ["train", str(data), "--games", "6", "--first-seed", "4000", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "R^2" in result.output and f"wrote {out}" in result.output
    first = out.read_bytes()
    assert b"cascadia train --games 6 --first-seed 4000 --bot greedy" in first
    again = tmp_path / "again.py"
    report = train(data, TrainingPlan(6, 4000), again, workers=2)  # the games are read, not played
    assert again.read_bytes() == first and report.module.encode() == first
    assert set(CardModel.read(out).shared) == {"none", "majority"}

    # the samples: one per turn that leaves turns to play, the target the points still to come
    spec = TrainingPlan(6, 4000).studies()[0]
    reader = ShardReader(StudyFolder(data).shard_file(spec, 0))
    shard_game = reader.games()[0]
    rows, targets = game_samples(reader.header.setup, shard_game, Layout())
    assert len(rows) == len(targets) == 4 * 19
    game = Game.start(
        shard_game.seed,
        list(reader.header.setup.names),
        spec.options,
        game_id=shard_game.game_id,
        bots=reader.header.setup.bots,
    )
    first_mover, first_turn = game.current_player, game.state.turn
    for command in shard_game.decisions:
        game.execute(command)
        if game.state.turn != first_turn:
            break
    now = score_state(game.state).players[first_mover].total
    assert targets[0] == shard_game.totals[first_mover] - now
    assert list(rows[0]) == list(
        Layout().row(terms(game.state, first_mover, turns_left(game.state, first_mover)))
    )
    kept, held = fit(StudyFolder(data), TrainingPlan(6, 4000).studies(), workers=1)
    assert kept.count + held.count == report.samples


def test_an_unknown_bot_is_one_line_and_nothing_is_written(cli, tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "coefficients.py"
    arguments = ("train", str(data), "--games", "6", "--bot", "nobody", "--out", str(out))
    code, stdout, err = cli(*arguments, home=False)
    assert (code, stdout) == (1, "")
    assert err.startswith("error: unknown bot(s) nobody") and err.count("\n") == 1
    assert not data.exists() and not out.exists()
