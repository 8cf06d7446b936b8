"""``cascadia new`` and ``cascadia play``: a human in the terminal against bots.

``new`` stores a game's setup events and prints its id. ``play`` loads the game from the
event store and runs it: bots' turns are played and saved one turn at a time; on a
human's turn it shows the market and the player's board and asks for the turn step by
step (the turn logic is :mod:`cascadia.cli.play_session`, the pictures
:mod:`cascadia.cli.play_view`). The events of every command the engine accepts are
saved at once, so quitting loses at most a half-typed command and ``play`` resumes where
the game stopped. Input is read with :func:`input`, so a pipe can drive it; when input
is not a terminal each line read is echoed, so that a transcript reads like a session.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Annotated, Any
from uuid import UUID

import typer
from cascadia.application.games import (
    CommandConflictError,
    GameAlreadyStoredError,
    apply_command,
    play_bot_turn,
    start_game,
)
from cascadia.application.map_games import settle_map_game
from cascadia.application.maps import find_map
from cascadia.application.store import GameStore
from cascadia.bots.base import Bot
from cascadia.bots.marking import bot_mark
from cascadia.bots.registry import bot_for_turn
from cascadia.cli.common import INTERRUPTED, HomeOption, JsonOption, console, fail, open_store, print_json
from cascadia.cli.game_options import (
    AchievementModeOption,
    BalancedBagOption,
    CardsOption,
    ElkRingsOption,
    NoMajorityOption,
    RuleOption,
    SalmonRunsOption,
    check_seed_option,
    options_from_flags,
)
from cascadia.cli.play_session import PlaySession, Reply, Stage, is_bot, seat_names
from cascadia.cli.play_view import (
    BOARD_KEY,
    board_map,
    card_rules,
    hex_list,
    market_table,
    rotation_table,
)
from cascadia.cli.score_commands import sheet_table
from cascadia.domain.commands import Command
from cascadia.domain.components import TILES
from cascadia.domain.errors import IllegalMoveError
from cascadia.projections.achievement_progress import achievement_label
from cascadia.projections.describe import describe_moves, plural, possessive, seat_name
from cascadia.projections.player_view import SPECTATOR, player_view
from cascadia.projections.render import render_cards, render_options, render_score
from cascadia.projections.turns import game_round

ReadLine = Callable[[str], str]


def read_line(prompt: str) -> str:
    """One line from the player (EOFError on Ctrl-D or the end of a pipe); echoed when
    the input is not a terminal."""
    line = input(prompt)
    if not sys.stdin.isatty():
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    return line


def say(text: str, style: str | None = None) -> None:
    """Print plain text: word-wrapped on a terminal, one line per line in a pipe."""
    console.print(text, style=style, markup=False, soft_wrap=not console.is_terminal)


class QuitPlay(Exception):
    """The player asked to stop (``quit``, Ctrl-D)."""


class PlayLoop:
    """Runs one stored game from where it stands until it ends or the player quits."""

    def __init__(
        self, store: GameStore, game_id: UUID, read: ReadLine = read_line, map_id: UUID | None = None
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.read = read
        self.map_id = map_id
        """The achievement map the game is played for: its winners mark at the end."""
        self.session = PlaySession()
        self.game = store.game(game_id)
        self._shown: tuple[int, int] | None = None
        self._hinted: tuple[int, Stage] | None = None

    # -- the loop -------------------------------------------------------------------

    def run(self) -> bool:
        """Play until the game ends (``True``) or the player quits (``False``)."""
        state = self.game.state
        if not state.finished:
            self.introduce()
        try:
            while not self.game.finished:
                self.step()
        except QuitPlay:
            self.say_saved()
            return False
        self.finish()
        return True

    def step(self) -> None:
        """Play one bot turn, or ask the human one question and act on the answer."""
        game = self.game
        stage = self.session.stage(game)
        if stage is Stage.BOT:
            state = game.state
            who = f"{possessive(state.names, state.current)} turn, {game_round(state)}: "
            self.save(bot_for_turn(state), lead=who)
            return
        self.show_turn_start()
        automatic = self.session.automatic(game)
        if automatic is not None:
            species = game.state.turn_state.taken_wildlife
            say(f"No tile of yours can take the {species}: it goes back to the bag.")
            self.issue(automatic)
            return
        hinted = (game.version, self.session.stage(game))
        if hinted != self._hinted:
            self._hinted = hinted
            say(self.session.hint(game), style="dim")
        try:
            line = self.read(self.session.prompt(game))
        except EOFError:
            console.print()
            raise QuitPlay from None
        self.react(self.session.handle(game, line))

    def react(self, reply: Reply) -> None:
        if reply.action == "quit":
            raise QuitPlay
        if reply.action == "show":
            self.show_turn()
        elif reply.action == "boards":
            self.show_boards()
        elif reply.action == "cards":
            view = self.view()
            for text in card_rules(view["cards"]):
                say(text)
            if view["second_cards"]:
                say("second set:")
                for text in card_rules(view["second_cards"]):
                    say(text)
        elif reply.action == "rotation":
            self.show_rotations()
        if reply.message:
            say(reply.message, style="red" if reply.refused else None)
        if reply.command is not None:
            self.issue(reply.command)

    def issue(self, command: Command) -> None:
        """Give the command to the engine; refused: say why (nothing changed); accepted:
        save its events now, and show what comes next."""
        before = self.session.stage(self.game)
        try:
            if not self.save(command, lead="  done: "):
                return
        except IllegalMoveError as error:
            say(f"refused: {error}", style="red")
            return
        self.session.done()
        game = self.game
        after = self.session.stage(game)
        if after is before is Stage.CHOOSE:
            console.print(market_table(game.state, game.state.active.environment))
        elif after is Stage.TILE and before is Stage.CHOOSE:
            self.show_tile()
        elif after is before is Stage.TILE:  # the token went first (or back to the bag)
            self.show_board()
            self.show_tile()
        elif after is Stage.TOKEN:
            self.show_board(targets=True)

    def save(self, command: Command | Bot, lead: str) -> bool:
        """Apply ``command`` (a command value, or a bot's whole turn) to the stored game
        and save it at once (one attempt, on the game as shown: a move is never replayed
        on a game that changed under the player);
        on a conflict (another writer moved first) reload the game from the store and say
        so. Whether the command was saved; an illegal one raises ``IllegalMoveError``."""
        try:
            if isinstance(command, Bot):
                applied = play_bot_turn(self.store, self.game_id, command, attempts=1, game=self.game)
            else:
                applied = apply_command(self.store, self.game_id, command, attempts=1, game=self.game)
        except CommandConflictError:
            say(
                "The game was changed elsewhere (another window or player moved first): "
                "reloaded from the store; this move was not saved.",
                style="yellow",
            )
            self.reload()
            return False
        self.game = applied.game
        said = describe_moves(applied.events, self.game.state.names)
        if said:
            say(lead + " ".join(said))
        return True

    def reload(self) -> None:
        self.game = self.store.game(self.game_id)
        self.session.reset()
        self._shown = None

    # -- what is shown ----------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The game as the seat to play may see it (RULES.md 7.10): on a shared screen a
        seat's secret card is shown on that seat's turn only."""
        return player_view(self.game.state, self.game.state.current)

    def introduce(self) -> None:
        state = self.game.state
        console.print(f"game {state.game_id}", markup=False)
        seats = ", ".join(
            f"{seat} {name} ({'bot' if is_bot(name) else 'human'})" for seat, name in enumerate(state.names)
        )
        console.print(f"seats: {seats}", markup=False)
        if not any(not is_bot(name) for name in state.names):
            console.print("no human seat: the bots play it out", markup=False)

    def show_turn_start(self) -> None:
        """The whole picture once at the start of each human turn (and after a reload)."""
        state = self.game.state
        key = (state.turn, state.current)
        if key == self._shown:
            return
        self._shown = key
        self.show_turn()

    def show_turn(self) -> None:
        """The turn's screen, made to fit a 24-line terminal: a header (whose turn, the
        cards, the scores), the market while a pair is to be chosen, the board."""
        game = self.game
        state = game.state
        seat = state.current
        names = state.names
        console.rule(
            f"{possessive(names, seat)} turn, {game_round(state)} · "
            f"{plural(state.stack_size, 'tile')} in the stack"
        )
        view = self.view()
        cards = render_cards(view["cards"])
        if view["second_cards"]:
            cards += f" | second set: {render_cards(view['second_cards'])}"
        if view["secret_cards"]:
            cards += f" | {possessive(names, seat)} secret card: {view['secret_cards'][seat]}"
        if changed := render_options(view["options"]):
            cards += f" | options: {changed}"
        say(f"cards: {cards}")
        say(
            "scores now: "
            + ", ".join(
                f"{seat_name(names, i)} {render_score(s['total'])}"
                + (f" ({plural(p.nature_tokens, 'nature token')})" if p.nature_tokens else "")
                for i, (p, s) in enumerate(zip(state.players, view["scores"]["players"], strict=True))
            )
        )
        stage = self.session.stage(game)
        if stage is Stage.CHOOSE:
            console.print(market_table(state, state.active.environment))
        self.show_board(targets=stage is Stage.TOKEN)
        if stage in (Stage.TILE, Stage.ROTATION):
            self.show_tile()
        if stage is Stage.ROTATION:
            self.show_rotations()

    def show_board(self, targets: bool = False) -> None:
        game = self.game
        state = game.state
        ts = state.turn_state
        player = state.active
        environment = player.environment
        hexes = [] if ts.tile_hex is not None else environment.open_hexes()
        marked = game.legal_wildlife_targets() if targets else []
        nature = plural(player.nature_tokens, "nature token")
        say(f"{possessive(state.names, state.current)} board ({nature}):")
        console.print(board_map(environment, hexes, marked, ts.tile_hex))
        say(BOARD_KEY, style="dim")
        if targets and ts.taken_wildlife and not ts.wildlife_done:
            where = hex_list(marked) if marked else "none"
            say(f"tiles that can take the {ts.taken_wildlife} (magenta): {where}")

    def show_boards(self) -> None:
        state = self.game.state
        sheet = self.view()["scores"]
        for seat, (player, score) in enumerate(zip(state.players, sheet["players"], strict=True)):
            console.print(
                f"seat {seat} {player.name}: {render_score(score['total'])} points now, "
                f"{plural(player.nature_tokens, 'nature token')}",
                markup=False,
            )
            console.print(board_map(player.environment))

    def show_tile(self) -> None:
        """The tile held (and the token, until it is placed), where it may go, and a
        warning when no tile of the board can take the token."""
        game = self.game
        ts = game.state.turn_state
        if ts.taken_tile is None:
            return
        if ts.wildlife_done:
            say(f"You hold this tile (the {ts.taken_wildlife} is no longer in your hand):")
        else:
            say(f"You hold the {ts.taken_wildlife} token and this tile:")
        console.print(rotation_table(ts.taken_tile))
        say(f"where it may go: {hex_list(game.legal_tile_positions())}")
        if not ts.wildlife_done and not game.legal_wildlife_targets():
            say(self.no_target_warning(), style="yellow")

    def no_target_warning(self) -> str:
        """RULES.md 4.3: a token no tile can take goes back to the bag; say so as soon as
        it is taken, and whether the tile taken with it could still hold it."""
        state = self.game.state
        ts = state.turn_state
        species = ts.taken_wildlife
        tile = TILES[ts.taken_tile]  # type: ignore[index]
        if species in tile.wildlife and not state.options.no_token_on_new_tile:
            return f"No tile of yours can take the {species} now; the tile you hold can, once placed."
        return (
            f"No tile of yours can take the {species}, nor can the tile you hold: it will go back to the bag."
        )

    def show_rotations(self) -> None:
        game = self.game
        at = self.session.pending_hex
        tile = game.state.turn_state.taken_tile
        if at is None or tile is None:
            return
        allowed = [rot for h, rot in game.legal_tile_placements() if h == at]
        console.print(rotation_table(tile, game.state.active.environment, at, allowed))

    def say_saved(self) -> None:
        state = self.game.state
        console.print(
            f"Stopped in {possessive(state.names, state.current)} turn, {game_round(state)}; "
            "every completed move is saved. "
            f"Resume with: cascadia play {str(self.game_id)[:8]}",
            markup=False,
        )

    def finish(self) -> None:
        state = self.game.state
        sheet = player_view(state, SPECTATOR)["scores"]  # the game is over: every card shows
        console.rule("final scores")
        names = state.names
        for seat, player in enumerate(state.players):
            if not is_bot(player.name):
                say(f"{possessive(names, seat)} board:")
                console.print(board_map(player.environment))
        console.print(sheet_table(names, sheet))
        winners = [seat_name(names, seat) for seat in sheet["winners"]]
        best = max(p["total"] for p in sheet["players"])
        if len(winners) == 1:
            say(f"Winner: {winners[0]} with {best} points")
        else:
            say(f"Shared win: {', '.join(winners)} with {best} points")
        if sheet["solo_rating"]:
            console.print(f"solo rating: {sheet['solo_rating']}", markup=False)
        if self.map_id is not None:
            self.mark_on_map(self.map_id)

    def mark_on_map(self, map_id: UUID) -> None:
        """RULES.md 8.1, as every map's game ends
        (:func:`~cascadia.application.map_games.settle_map_game`): the game is recorded on
        the map, then each winner on the map may mark: a human chooses among what they
        may mark (or nothing), a bot by its rule."""
        settled = settle_map_game(self.store, map_id, self.game_id, self.choose_mark)
        name = settled.map.state.name
        if settled.refusal is not None:
            say(f"Not recorded on the map {name}: {settled.refusal}")
            return
        for winner in settled.winners:
            if not winner.choices:
                say(f"{winner.player} has nothing to mark on the map {name}.")
            elif winner.achievement is None:
                say(f"{winner.player} marks nothing.")
            else:
                label = achievement_label(winner.achievement)
                say(f"{winner.player} marks {label} on the map {name}: cell {winner.cell}.")

    def choose_mark(self, _: int, winner: str, choices: list[str]) -> str | None:
        """What a winner marks: a bot by its rule, a human as asked (:meth:`ask_mark`)."""
        return bot_mark(choices) if is_bot(winner) else self.ask_mark(winner, choices)

    def ask_mark(self, winner: str, choices: list[str]) -> str | None:
        """Ask a human winner which achievement to mark (a number, or ``none``)."""
        say(f"{winner}, you may mark one achievement on the map:")
        for number, choice in enumerate(choices, 1):
            say(f"  {number}. {achievement_label(choice)}")
        while True:
            try:
                answer = self.read(f"{winner}: mark (1-{len(choices)}, or none)> ").strip().lower()
            except EOFError:
                return None
            if answer in ("none", "no", "skip", ""):
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(choices):
                return choices[int(answer) - 1]
            say(f"Answer a number from 1 to {len(choices)}, or none.")


# -- the commands -------------------------------------------------------------------------


def new(
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Seats (default: as many as --seat-names, else 2)."),
    ] = None,
    seat_names_text: Annotated[
        str | None,
        typer.Option(
            "--seat-names",
            help="Comma list in seat order; a bot's name (greedy, random, search@200) is that bot, "
            "any other name a human. A name one typo from a bot's (greedyy) is refused; "
            "a person so named goes in double quotes: 'you,\"Ransom\"'. Default: you,greedy,...",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            callback=check_seed_option,
            help="Seed, 0 to 2^64 - 1 (default: a random one, printed).",
        ),
    ] = None,
    cards: CardsOption = "random",
    balanced_bag: BalancedBagOption = False,
    salmon_runs: SalmonRunsOption = "strict",
    elk_rings: ElkRingsOption = "arc",
    no_majority: NoMajorityOption = False,
    rule: RuleOption = None,
    achievement_mode: AchievementModeOption = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Create a game for humans and bots, store its setup and print its id.

    Then play it with `cascadia play GAME`."""
    names = seat_names(seat_names_text, players)
    options = options_from_flags(
        cards, balanced_bag, salmon_runs, elk_rings, no_majority, rule, achievement_mode
    )
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big")
    try:
        game = start_game(open_store(home, write=True), seed, names, options)
    except GameAlreadyStoredError as error:
        game_id = error.game_id
        raise fail(
            f"game {game_id} (seed {seed}, the same seats and options) is already stored; "
            f"resume it with `cascadia play {str(game_id)[:8]}` or choose another --seed"
        ) from None
    if json_output:
        print_json({"id": str(game.id), "seed": seed, "players": names, "options": options.changed()})
        return
    console.print(f"game {game.id}", markup=False)
    console.print(f"seed {seed}", markup=False)
    seats = ", ".join(
        f"{seat} {name} ({'bot' if is_bot(name) else 'human'})" for seat, name in enumerate(names)
    )
    console.print(f"seats: {seats}", markup=False)
    console.print(f"play it with: cascadia play {str(game.id)[:8]}", markup=False)


def play(
    game: Annotated[str, typer.Argument(help="Game id (or its first characters).")],
    map_name: Annotated[
        str | None,
        typer.Option("--map", help="An achievement map the game is played for: the winners mark at the end."),
    ] = None,
    home: HomeOption = None,
) -> None:
    """Play a stored game in the terminal: bots move by themselves, humans are asked.

    Every move is saved as it is made; `quit` (or Ctrl-D, Ctrl-C) stops and
    `cascadia play GAME` resumes. Type `help` at any prompt."""
    game_id = open_store(home).find_game(game)  # read first: no store is created for a game not there
    store = open_store(home, write=True)
    loop = PlayLoop(store, game_id, map_id=None if map_name is None else find_map(store, map_name))
    try:
        loop.run()
    except KeyboardInterrupt:
        console.print()
        loop.say_saved()
        raise typer.Exit(INTERRUPTED) from None


def register(app: typer.Typer) -> None:
    app.command("new", short_help="Create a game for humans and bots and store it.")(new)
    app.command("play", short_help="Play a stored game in the terminal.")(play)
