"""``cascadia new`` and ``cascadia play``: a human in the terminal against bots.

``play`` is driven through the console script's entry point with a scripted stdin: an
:class:`Answerer` that, each time ``play`` reads a line, looks at the game as it is
stored *now* and answers with a legal move (or with a scripted line). Because every
completed command is saved at once, the stored game always says which step is asked.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import pytest
from cascadia.application.game_logs import export_game
from cascadia.application.store import GameStore
from cascadia.bots.registry import bot_for_turn
from cascadia.cli.app import main
from cascadia.cli.play_commands import PlayLoop
from cascadia.cli.play_session import PlaySession, Stage, seat_names
from cascadia.domain import events as ev
from cascadia.domain.commands import (
    NatureFreeChoice,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    Take,
    WipeThree,
)
from cascadia.domain.components import TILES
from cascadia.domain.errors import IllegalMoveError, InvalidOptionError
from cascadia.domain.game import Game
from cascadia.replays.audit import audit_file

Line = str | Callable[["Answerer", Game], str | None] | None
"""A scripted answer: a line, a function of the stored game giving one (``None``: the
end of input, as Ctrl-D), or ``None`` itself."""


class Interrupt:
    """A scripted Ctrl-C."""


class Answerer:
    """A stdin for ``cascadia play`` whose lines are made when they are read.

    Scripted lines come first; then, if ``legal`` is set, a legal move for the step the
    stored game is at (random but seeded: sometimes a wipe or a nature action, a pair or
    a free-choice take, any placement and rotation, any token target or ``return``)."""

    def __init__(self, home: Path, game_id: str, script: list[Line | Interrupt] = (), legal: bool = True):
        self.store = GameStore(home)
        self.game_id = UUID(game_id)
        self.script: deque[Line | Interrupt] = deque(script)
        self.legal = legal
        self.rng = random.Random(1)
        self.asked: list[tuple[int, str | None]] = []
        """(stored version when asked, the line given) for every read."""

    def isatty(self) -> bool:
        return False

    def game(self) -> Game:
        return self.store.game(self.game_id)

    def readline(self, size: int = -1) -> str:
        game = self.game()
        if self.script:
            item = self.script.popleft()
            if isinstance(item, Interrupt):
                raise KeyboardInterrupt
            line = item(self, game) if callable(item) else item
        elif self.legal:
            line = legal_line(game, self.rng)
        else:
            line = None
        self.asked.append((game.version, line))
        return "" if line is None else line + "\n"


def legal_line(game: Game, rng: random.Random) -> str:
    """A legal answer for the step ``game`` waits at (a human's turn)."""
    state = game.state
    ts = state.turn_state
    assert not state.finished
    if not ts.has_taken:
        if game.can_wipe_three() and rng.random() < 0.5:
            return "three"
        actions = game.nature_actions()
        if actions and rng.random() < 0.5:
            if "free_choice" in actions:
                return "free"
            slots = [s for s in range(len(state.market_wildlife)) if rng.random() < 0.5] or [0]
            return "wipe " + " ".join(str(s) for s in slots)
        tile_slot, token_slot = rng.choice(game.legal_takes())
        return f"{tile_slot}" if tile_slot == token_slot else f"take {tile_slot} {token_slot}"
    if ts.tile_hex is None:
        (q, r), rotation = rng.choice(game.legal_tile_placements())
        return f"{q} {r} {rotation}" if rng.random() < 0.7 else f"({q}, {r}) {rotation}"
    targets = game.legal_wildlife_targets()
    assert targets, "play returns a token no tile can take by itself"
    if rng.random() < 0.1:
        return "return"
    q, r = rng.choice(targets)
    return f"{q} {r}"


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys, clean_env):
    """Run ``cascadia ARGS --home tmp_path`` in this process with ``stdin``:
    (exit code, stdout, stderr)."""

    def run(*args: str, stdin: Answerer | None = None) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["cascadia", *args, "--home", str(tmp_path)])
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", stdin)
        capsys.readouterr()
        with pytest.raises(SystemExit) as stop:
            main()
        out, err = capsys.readouterr()
        return stop.value.code, out, err

    return run


def new_game(cli, *args: str) -> str:
    code, out, err = cli("new", "--json", *args)
    assert code == 0, err
    return json.loads(out)["id"]


def assert_one_line_error(code: int, out: str, err: str) -> None:
    assert code == 1
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")


def refusal(game: Game, method: str, *args: object) -> str:
    """The engine's message for an illegal command (checked to change nothing)."""
    before = game.version
    with pytest.raises(IllegalMoveError) as raised:
        getattr(game, method)(*args)
    assert game.version == before and not game.collect_events()
    return str(raised.value)


def audit_stored(store_home: Path, game_id: str, tmp_path: Path) -> None:
    """Export the stored game as a log and audit it: every decision legal, every draw
    from the seed, the scores right."""
    path = tmp_path / "game.cascadia"
    export_game(GameStore(store_home), UUID(game_id), path)
    result = audit_file(path)
    assert result.valid, result.message


# -- a whole game -------------------------------------------------------------------------


def test_a_human_plays_a_whole_game_against_a_random_bot(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "ann,random", "--seed", "11")
    answerer = Answerer(tmp_path, game_id)
    code, out, err = cli("play", game_id[:8], stdin=answerer)
    assert code == 0, err
    game = answerer.game()
    assert game.finished
    state = game.state
    assert state.names == ["ann", "random"]
    assert all(len(p.environment.tiles) == 23 for p in state.players)
    # every human step was a prompt and every answer was accepted: 20 turns of 2-3 steps
    assert 40 <= len(answerer.asked) <= 100
    assert "refused" not in out and "did not understand" not in out
    assert "ann: take> " in out and "ann: tile> " in out
    assert "random's turn, round 1 of 20: random took tile #" in out
    assert "final scores" in out and "total" in out
    assert "Winner: " in out or "Shared win: " in out
    assert_stored_game_is_legal(tmp_path, game_id)
    audit_stored(tmp_path, game_id, tmp_path)
    code, out, _ = cli("play", game_id, stdin=Answerer(tmp_path, game_id, legal=False))
    assert code == 0 and "final scores" in out  # a finished game: the sheet again


def assert_stored_game_is_legal(home: Path, game_id: str) -> None:
    events = GameStore(home).game_events(UUID(game_id))
    assert isinstance(events[-1], ev.GameEnded)
    assert Game.replay(events).state == GameStore(home).game(UUID(game_id)).state


def test_the_human_used_wipes_and_nature_tokens(cli, tmp_path):
    """A 3-seat game with two humans (hot seat) and a bot, played to the end: the
    answers include three-of-a-kind wipes and nature actions when they come up."""
    game_id = new_game(cli, "--seat-names", "ann,bob,random", "--seed", "5", "--cards", "all-a")
    answerer = Answerer(tmp_path, game_id)
    code, _, err = cli("play", game_id, stdin=answerer)
    assert code == 0, err
    assert answerer.game().finished
    lines = [line for _, line in answerer.asked]
    events = GameStore(tmp_path).game_events(UUID(game_id))
    humans = (0, 1)
    spent = [e for e in events if isinstance(e, ev.NatureTokenSpent) and e.player in humans]
    threes = [
        e for e in events if isinstance(e, ev.OverpopulationWiped) and not e.mandatory and e.player in humans
    ]
    assert len(spent) == sum(1 for line in lines if line == "free" or line.startswith("wipe"))
    assert len(threes) == lines.count("three")
    assert spent and threes, "seed 5 gives the humans nature tokens and a three of a kind"


@pytest.mark.parametrize(
    "args",
    [
        ["--seat-names", "solo"],
        ["--seat-names", "ann,greedy,random,bob", "--rule", "must_match", "--rule", "no_token_on_new_tile"],
        [
            "--seat-names",
            "random,ann",
            "--rule",
            "market_of_three",
            "--rule",
            "secret_cards",
            "--rule",
            "nature_cost_two",
            "--rule",
            "no_starter",
        ],
    ],
    ids=["solo", "four-seats-must-match", "variants"],
)
def test_games_under_other_setups_play_to_the_end(cli, tmp_path, args):
    game_id = new_game(cli, *args, "--seed", "2")
    answerer = Answerer(tmp_path, game_id)
    code, out, err = cli("play", game_id, stdin=answerer)
    assert code == 0, err
    assert "refused" not in out and "did not understand" not in out
    assert_stored_game_is_legal(tmp_path, game_id)
    audit_stored(tmp_path, game_id, tmp_path)
    if "solo" in args[1]:
        assert "solo rating" in out


# -- illegal entries ----------------------------------------------------------------------


def test_illegal_entries_are_refused_with_the_engines_message_and_change_nothing(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "ann,random", "--seed", "3")
    store = GameStore(tmp_path)
    expected: list[str] = []

    def expect(line: str, method: str, *args: object) -> Callable[[Answerer, Game], str]:
        """``line``, after noting the engine's refusal of what it asks for."""

        def answer(answerer: Answerer, game: Game) -> str:
            expected.append(refusal(game, method, *args))
            return line

        return answer

    def legal(answerer: Answerer, game: Game) -> str:
        return legal_line(game, answerer.rng)

    script: list[Line | Interrupt] = [
        "garbage text",
        expect("7", "take", 7),  # wrong slot
        expect("take 0 1", "take", 0, 1),  # not a pair without free choice
        expect("wipe 0", "spend_nature", "wipe", [0]),  # no nature token
        "take 0",
        "token 0",
        expect("0 0 0", "place_tile", 0, 0, 0),  # occupied hex
        expect("5 5 0", "place_tile", 5, 5, 0),  # not next to a tile
        expect("1 -1 9", "place_tile", 1, -1, 9),  # no such rotation
        "0 0",  # an occupied hex, rotation to come: refused at once
        legal,
        expect("4 4", "place_wildlife", 4, 4),  # no tile there
        "quit",
    ]
    answerer = Answerer(tmp_path, game_id, script, legal=False)
    code, out, err = cli("play", game_id, stdin=answerer)
    assert code == 0, err
    assert "I did not understand 'garbage text'" in out
    assert "I did not understand 'token 0'" in out
    for message in expected:
        assert f"refused: {message}" in out
    assert "refused: hex (0, 0) already holds a tile (RULES.md 4.3)" in out
    assert "market slots are 0 to 3, not 7" in expected[0]
    # the store changed only with the two legal commands (take, then place the tile)
    versions = [version for version, _ in answerer.asked]
    lines = [line for _, line in answerer.asked]
    for i, line in enumerate(lines[:-1]):
        if line not in ("take 0", lines[10]):
            assert versions[i + 1] == versions[i], f"{line!r} changed the game"
    events = store.game_events(UUID(game_id))
    mine = [e for e in events if getattr(e, "player", None) == 0 and e.kind == "decision"]
    assert [type(e).__name__ for e in mine] == ["PairTaken", "TilePlaced"]
    assert mine[0].tile_slot == 0


def test_a_hex_then_its_rotation_step_by_step(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "ann,random", "--seed", "3")
    chosen: dict[str, tuple[int, int]] = {}

    def hex_only(answerer: Answerer, game: Game) -> str:
        placements = [(h, rot) for h, rot in game.legal_tile_placements() if rot == 2]
        assert placements, "a dual tile: seed 3's pair 0 is a dual tile"
        chosen["hex"] = placements[0][0]
        return "{} {}".format(*placements[0][0])

    script: list[Line | Interrupt] = ["0", hex_only, "9", "back", hex_only, "2", "return", "quit"]
    answerer = Answerer(tmp_path, game_id, script, legal=False)
    code, out, err = cli("play", game_id, stdin=answerer)
    assert code == 0, err
    assert "matches" in out and "neighbours" in out  # the rotation table at the hex
    assert "ann: rotation> " in out
    assert "refused: a tile goes on whole-number" in out
    placed = [e for e in GameStore(tmp_path).game_events(UUID(game_id)) if isinstance(e, ev.TilePlaced)]
    human = [e for e in placed if e.player == 0]
    assert [(e.q, e.r, e.rotation) for e in human] == [(*chosen["hex"], 2)]
    assert "ann: token> return" in out or "No tile of yours" in out


# -- quitting and resuming ----------------------------------------------------------------


def at_step(stage: str, human_turns: int) -> Callable[[Answerer, Game], bool]:
    """Whether the stored game is at ``stage`` of the human's turn number ``human_turns``
    or a later one."""

    def check(answerer: Answerer, game: Game) -> bool:
        done = sum(
            1
            for e in answerer.store.game_events(answerer.game_id)
            if isinstance(e, ev.TurnEnded) and e.player == 0
        )
        return done + 1 >= human_turns and PlaySession().stage(game).value == stage

    return check


class StopAnswerer(Answerer):
    """Answers legally until ``when`` holds, then gives ``stop`` (a line, ``None`` for
    Ctrl-D, or an :class:`Interrupt` for Ctrl-C)."""

    def __init__(
        self,
        home: Path,
        game_id: str,
        when: Callable[[Answerer, Game], bool],
        stop: str | Interrupt | None,
    ) -> None:
        super().__init__(home, game_id, [], legal=True)
        self.when = when
        self.stop = stop

    def readline(self, size: int = -1) -> str:
        game = self.game()
        if self.when(self, game):
            if isinstance(self.stop, Interrupt):
                raise KeyboardInterrupt
            self.asked.append((game.version, self.stop))
            return "" if self.stop is None else self.stop + "\n"
        return super().readline(size)


def test_quit_mid_turn_and_resume_the_same_game(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "ann,random", "--seed", "21")
    store = GameStore(tmp_path)
    gid = UUID(game_id)
    prefixes = []

    # 1. `quit` after taking, before placing the tile
    code, out, err = cli("play", game_id, stdin=StopAnswerer(tmp_path, game_id, at_step("tile", 3), "quit"))
    assert code == 0, err
    assert f"Resume with: cascadia play {game_id[:8]}" in out
    prefixes.append(store.game_events(gid))
    state = Game.replay(prefixes[-1]).state
    assert state.turn_state.has_taken and state.turn_state.tile_hex is None and state.current == 0

    # 2. Ctrl-D at the rotation prompt: the half-chosen hex is lost, the take is not
    def first_open(answerer, game):
        return "{} {}".format(*game.legal_tile_placements()[0][0])

    resumed = Answerer(tmp_path, game_id, [first_open, None], legal=False)
    code, out, err = cli("play", game_id, stdin=resumed)
    assert code == 0, err
    assert "ann: tile> " in out and "ann: rotation> " in out and "Resume with" in out
    assert store.game_events(gid) == prefixes[-1]  # nothing new was saved
    assert "ann: take> " not in out  # it resumed at the tile step

    # 3. Ctrl-C at a token step two or more turns later: exit code 130, the moves made are saved
    code, out, err = cli(
        "play", game_id, stdin=StopAnswerer(tmp_path, game_id, at_step("token", 5), Interrupt())
    )
    assert code == 130
    assert "Resume with" in out and "Traceback" not in out + err
    prefixes.append(store.game_events(gid))
    state = Game.replay(prefixes[-1]).state
    assert state.turn_state.tile_hex is not None and not state.turn_state.wildlife_done

    # 4. play to the end
    answerer = Answerer(tmp_path, game_id)
    code, out, err = cli("play", game_id, stdin=answerer)
    assert code == 0, err
    final = store.game_events(gid)
    for prefix in prefixes:
        assert final[: len(prefix)] == prefix
    live = store.game(gid).state
    assert live.finished and Game.replay(final).state == live
    audit_stored(tmp_path, game_id, tmp_path)


def test_the_live_game_equals_the_replay_of_the_store_at_every_prompt(tmp_path, clean_env, capsys):
    """Every command the engine accepted is in the store before the next question."""
    store = GameStore(tmp_path)
    game = Game.start(13, ["ann", "random"])
    store.save_new_game(game.collect_events())
    rng = random.Random(3)
    prompts = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        assert loop.game.state == Game.replay(store.game_events(game.id)).state
        return legal_line(loop.game, rng)

    loop = PlayLoop(store, game.id, read)
    assert loop.run() is True
    assert loop.game.finished
    assert loop.game.state == Game.replay(store.game_events(game.id)).state
    assert len(prompts) >= 40


def test_bot_turns_do_not_depend_on_where_the_game_was_resumed(tmp_path):
    """A bot's turn is seeded by the game seed and the turn, so a bot turn cut short by a
    quit and played again on resume makes the same choices."""
    game = Game.start(8, ["random", "random"])
    replayed = Game.replay(game.collect_events())
    for _ in range(6):
        bot_for_turn(game.state).play_turn(game)
        bot_for_turn(replayed.state).play_turn(replayed)
        assert game.collect_events() == replayed.collect_events()


def test_someone_else_moving_first_reloads_the_game(cli, tmp_path):
    game_id = new_game(cli, "--seat-names", "ann,random", "--seed", "3")

    def other_writer_moves(answerer: Answerer, game: Game) -> str:
        other = answerer.game()
        first, second = other.legal_takes()[:2]
        other.take(*first)
        answerer.store.save_game(other)
        answerer.other_take = first  # type: ignore[attr-defined]
        return str(second[0])  # legal in the stale game this session holds

    answerer = Answerer(tmp_path, game_id, [other_writer_moves, "quit"], legal=False)
    code, out, err = cli("play", game_id, stdin=answerer)
    assert code == 0, err
    assert "The game was changed elsewhere" in out
    assert "ann: tile> quit" in out  # reloaded: the take of the other writer stands
    taken = [e for e in GameStore(tmp_path).game_events(UUID(game_id)) if isinstance(e, ev.PairTaken)]
    human = [e for e in taken if e.player == 0]
    assert [(e.tile_slot, e.wildlife_slot) for e in human] == [answerer.other_take]


# -- new -------------------------------------------------------------------------------------


def test_new_stores_the_setup_and_prints_the_id_and_seed(cli, tmp_path):
    code, out, err = cli("new", "--players", "3", "--seat-names", "Ann,GREEDY,random", "--rule", "must_match")
    assert code == 0, err
    game_line, seed_line = out.splitlines()[:2]
    game_id = game_line.split()[1]
    seed = int(seed_line.split()[1])
    events = GameStore(tmp_path).game_events(UUID(game_id))
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    assert started.seed == seed and started.names == ["Ann", "greedy", "random"]
    assert started.options["must_match"] is True
    assert not any(e.kind == "decision" for e in events)
    assert f"cascadia play {game_id[:8]}" in out
    # a random seed each time; the same seed and seats again is refused
    other = json.loads(cli("new", "--json", "--seat-names", "Ann,greedy,random", "--rule", "must_match")[1])
    assert other["seed"] != seed
    assert_one_line_error(
        *cli("new", "--seed", str(seed), "--seat-names", "Ann,greedy,random", "--rule", "must_match")
    )


def test_new_defaults_to_one_human_and_greedy_bots(cli, tmp_path):
    data = json.loads(cli("new", "--json", "-p", "3")[1])
    assert data["players"] == ["you", "greedy", "greedy"]


@pytest.mark.parametrize(
    "args",
    [
        ["--rule", "no_such_rule"],
        ["--seat-names", "ann,,random"],
        ["--seat-names", "ann,ann"],
        ["--seat-names", "a,b,c,d,e"],
        ["--players", "3", "--seat-names", "ann,random"],
        ["--players", "5"],
        ["--cards", "Z,Z,Z,Z,Z"],
        ["--seat-names", "ann,random,greedy,bob", "--balanced-bag"],
    ],
)
def test_new_refuses_bad_setups_in_one_line(cli, tmp_path, args):
    assert_one_line_error(*cli("new", *args))
    assert not list(GameStore(tmp_path).started_games())


def test_play_an_unknown_game_is_one_line(cli, tmp_path):
    assert_one_line_error(*cli("play", "zzzzzzzz", stdin=None))


def test_seat_names_rules():
    assert seat_names(None, None) == ["you", "greedy"]
    assert seat_names(" ann , Random ", 2) == ["ann", "random"]
    assert seat_names("random,random", None) == ["random", "random"]
    for bad in ("ann,ann", "ann,", "a,b,c,d,e", "x" * 30):
        with pytest.raises(InvalidOptionError):
            seat_names(bad, None)
    with pytest.raises(InvalidOptionError):
        seat_names("ann,random", 3)


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("greedyy", " (did you mean 'greedy'?)"),
        ("Gredy", " (did you mean 'greedy'?)"),
        ("radnom", " (did you mean 'random'?)"),
        ("serch@400", " (did you mean 'search@400'?)"),
        ("greedy@5", "; choose from builder, greedy, hunter, random, search (search@BUDGET for a budget"),
        ("search@0", "; choose from builder, greedy, hunter, random, search (search@BUDGET for a budget"),
        ("nobot@3", "; choose from builder, greedy, hunter, random, search (search@BUDGET for a budget"),
    ],
)
def test_a_misspelt_bot_is_refused_not_seated_as_a_person(name, hint):
    with pytest.raises(InvalidOptionError) as refused:
        seat_names(f"you,{name}", None)
    assert str(refused.value).startswith(f"unknown bot {name!r}{hint}")
    assert str(refused.value).endswith(f'for a person of that name, write it in double quotes: "{name}"')
    assert seat_names(f'you,"{name}"', None) == ["you", name]  # in double quotes: a person


def test_names_further_from_a_bot_are_people_and_a_quoted_bot_name_is_refused():
    assert seat_names("Sarah,Randy,Hunt,ann@example.com", None) == [
        "Sarah",
        "Randy",
        "Hunt",
        "ann@example.com",
    ]
    with pytest.raises(
        InvalidOptionError, match="'Greedy' is a bot's name: a person's seat needs another name"
    ):
        seat_names('you,"Greedy"', None)


def test_new_refuses_a_misspelt_bot_in_one_line_and_stores_nothing(cli, tmp_path):
    code, out, err = cli("new", "--seat-names", "you,greedyy")
    assert (code, out) == (1, "")
    assert err.startswith("error: unknown bot 'greedyy' (did you mean 'greedy'?); ") and err.count("\n") == 1
    assert not (tmp_path / "events.sqlite").exists()


# -- the session, without a terminal -----------------------------------------------------------


def test_session_reads_lines_into_engine_commands():
    game = Game.start(4, ["ann", "random"])
    while game.current_player != 0:
        bot_for_turn(game.state).play_turn(game)
    session = PlaySession()
    assert session.stage(game) is Stage.CHOOSE
    assert session.handle(game, "2").command == Take(2, 2)
    assert session.handle(game, "take 1 3").command == Take(1, 3)
    assert session.handle(game, "free").command == NatureFreeChoice()
    assert session.handle(game, "nature free").command == NatureFreeChoice()
    assert session.handle(game, "nature wipe 0, 2").command == NatureWipe((0, 2))
    assert session.handle(game, "nature wipe 2,0").command == NatureWipe((0, 2))
    assert session.handle(game, "wipe all").command == NatureWipe((0, 1, 2, 3))
    assert session.handle(game, "three").command == WipeThree()
    assert session.handle(game, "wipe3").command == WipeThree()
    assert session.handle(game, "help").action == "help"
    assert session.handle(game, "QUIT").action == "quit"
    assert session.handle(game, "wipe").refused
    assert session.handle(game, "").action == "again"
    assert session.handle(game, "return").refused  # not a move of this step
    game.take(0)
    assert session.stage(game) is Stage.TILE
    assert session.handle(game, "(1, -1) 3").command == PlaceTile(1, -1, 3)
    assert session.handle(game, "tile 1 -1 r3").command == PlaceTile(1, -1, 3)
    assert session.handle(game, "return").command == ReturnWildlife()
    assert session.handle(game, "token 0 1").command == PlaceWildlife(0, 1)
    assert session.handle(game, "tile 1 -1 0").command == PlaceTile(1, -1, 0)
    assert session.handle(game, "1 -1 0 4").refused
    assert session.handle(game, "take 2").refused
    (q, r), rotation = game.legal_tile_placements()[0]
    game.place_tile(q, r, rotation)
    assert session.stage(game) is Stage.TOKEN
    assert session.handle(game, "token 0 1").command == PlaceWildlife(0, 1)
    assert session.handle(game, "0,1").command == PlaceWildlife(0, 1)
    assert session.handle(game, "skip").command == ReturnWildlife()
    assert session.handle(game, "2").refused


def test_session_leaves_a_tile_without_rotation_to_the_rotation_step():
    game = Game.start(4, ["ann", "random"])
    while game.current_player != 0:
        bot_for_turn(game.state).play_turn(game)
    game.take(next(s for s, t in enumerate(game.state.market_tiles) if not TILES[t].keystone))
    session = PlaySession()
    (q, r), _ = game.legal_tile_placements()[0]
    assert session.handle(game, f"tile {q} {r}").action == "rotation"
    assert session.stage(game) is Stage.ROTATION
    assert session.handle(game, f"tile {q} {r} r2").command == PlaceTile(q, r, 2)


def test_the_real_console_script_reads_a_pipe(tmp_path, clean_env):
    script = shutil.which("cascadia")
    if script is None:
        pytest.skip("the cascadia console script is not installed")
    home = ["--home", str(tmp_path)]
    made = subprocess.run(
        [script, "new", "--seat-names", "ann,random", "--seed", "9", "--json", *home],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    game_id = json.loads(made.stdout)["id"]
    done = subprocess.run(
        [script, "play", game_id[:8], *home],
        input="help\n0\nnonsense\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "ann: take> help\n" in done.stdout  # the answers are echoed
    assert "ann: take> 0\n" in done.stdout and "ann: tile> nonsense\n" in done.stdout
    assert "Resume with" in done.stdout  # the end of input stops and saves
    state = GameStore(tmp_path).game(UUID(game_id)).state
    assert state.turn_state.has_taken


# -- playing for an achievement map ---------------------------------------------------------


SEED = "11"
"""A seed whose winner (of two humans answering random legal moves) met an achievement."""


class MarkingAnswerer(Answerer):
    """Plays legal moves, then answers the first choice when asked what to mark."""

    def readline(self, size: int = -1) -> str:
        if self.game().finished:
            self.asked.append((self.game().version, "1"))
            return "1\n"
        return super().readline(size)


def test_play_for_a_map_records_the_game_and_lets_each_winner_mark(cli, tmp_path):
    assert cli("map", "new", "family", "--player", "ann", "--player", "bob")[0] == 0
    game_id = new_game(cli, "--seat-names", "ann,bob", "--seed", SEED, "--achievement-mode", "standard")
    answerer = MarkingAnswerer(tmp_path, game_id)
    code, out, err = cli("play", game_id[:8], "--map", "family", stdin=answerer)
    assert code == 0, err
    code, shown, _ = cli("map", "show", "family", "--json")
    progress = json.loads(shown)
    assert progress["games"] == 1
    winners = [p["player"] for p in progress["players"] if p["filled"]]
    assert winners and all(f"{w} marks " in out for w in winners)
    assert all(f"{w}, you may mark one achievement on the map:" in out for w in winners)
    assert answerer.asked[-1][1] == "1"


def test_a_game_not_played_for_achievements_is_not_recorded(cli, tmp_path):
    cli("map", "new", "family", "--player", "ann", "--player", "random")
    game_id = new_game(cli, "--seat-names", "ann,random", "--seed", "11")
    code, out, err = cli("play", game_id[:8], "--map", "family", stdin=Answerer(tmp_path, game_id))
    assert code == 0, err
    assert "Not recorded on the map family: " in out and "not played for achievements" in out
