"""The Game aggregate: commands that check the rules and emit events.

Each command first checks every rule that applies (raising a typed
:class:`~cascadia.domain.errors.IllegalMoveError` and changing nothing), then emits
its events one by one through :func:`~cascadia.domain.state.evolve`, the only code
that changes the state. Draws are made by the command, from the game's seeded stream
at the state's draw position, and recorded in the events; replay never draws.

Commands are values (:mod:`cascadia.domain.commands`), applied by :meth:`Game.execute`;
:meth:`Game.legal_commands` lists the legal ones. The active player's turn (RULES.md 4):
an optional ``WipeThree``, any number of nature-token actions (``NatureFreeChoice``,
``NatureWipe``), then ``Take``, then ``PlaceTile`` and ``PlaceWildlife`` (or
``ReturnWildlife``) in either order. When both are done the turn ends by itself: refill,
next player, four-of-a-kind check. The methods :meth:`Game.take`, :meth:`Game.place_tile`
... are shorthands for :meth:`Game.execute`.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from cascadia.domain import events as ev
from cascadia.domain.commands import (
    Command,
    NatureFreeChoice,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    Take,
    WipeThree,
)
from cascadia.domain.components import (
    CARD_LETTERS,
    STARTER_COUNT,
    TILES,
    TURNS_PER_PLAYER,
    WILDLIFE,
    article,
)
from cascadia.domain.errors import (
    CommandFormatError,
    GameOverError,
    InvalidOptionError,
    MarketChoiceError,
    NatureTokenError,
    OutOfOrderError,
    OverpopulationError,
    TilePlacementError,
    WildlifePlacementError,
)
from cascadia.domain.hexgrid import Hex, distinct_rotations, neighbours, opposite, tile_edges
from cascadia.domain.options import RULES_VERSION, GameOptions, check_rules_version, parse_card_choice
from cascadia.domain.rng import check_seed, draw_from, stream_start
from cascadia.domain.state import GameState, all_alike, evolve

GAME_ID_NAMESPACE = uuid5(NAMESPACE_URL, "https://cascadia.invalid/games")
MAX_PLAYERS = 4
MAX_BOT_NAME = 40
"""The longest bot name a game records (`GameStarted.bots`)."""
NATURE_ACTIONS = ("free_choice", "wipe")
PLACEMENT_COMMANDS_KEPT = 8192
"""How many tile placements (and as many token targets) :meth:`Game.legal_commands` keeps
built (a board's open hexes in six rotations: a few hundred per board)."""


def stack_size(players: int, options: GameOptions | None = None) -> int:
    """RULES.md 3.2: ``20 x players + 3`` tiles, solo 43, so that the stack runs out
    after exactly 20 turns per player.

    ``market_of_three`` (RULES.md 7.5) reveals one tile fewer at setup, so the stack has
    one tile fewer and the game still lasts 20 turns each. ``no_starter`` (7.7) deals
    the two opening tiles per player "from the stack", as the rule says; the stack keeps
    its size (four players could not have 20 turns each otherwise: 91 > 85 tiles), so
    such a game ends by the same rule (4.5) after 18 turns per player (solo: 19)."""
    options = options or GameOptions()
    return TURNS_PER_PLAYER * max(players, 2) + options.market_size - 1


BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The characters that reorder text around them (Unicode bidi embeddings, overrides,
isolates and marks): in a name they could make a table or a log line read otherwise."""


def check_seat_name(name: str) -> None:
    """Raise :class:`InvalidOptionError` unless ``name`` is a seat name: text without
    control characters (NUL, line breaks, tabs...), line or paragraph separators, or
    bidi formatting characters (:data:`BIDI_CONTROLS`)."""
    for char in name:
        if char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            refused = f"U+{ord(char):04X}"
            raise InvalidOptionError(
                f"a seat name holds no control, line-break or bidi character, not {refused}"
            )


def check_setup(names: Sequence[str], options: GameOptions) -> None:
    """Raise :class:`InvalidOptionError` unless a game of these seats and options can be
    set up: 1 to 4 players, each a seat name (:func:`check_seat_name`), the balanced bag
    for 2 or 3 only (RULES.md 3.1), a game for achievements multiplayer without the
    balanced bag (RULES.md 8)."""
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise InvalidOptionError(f"a game has 1 to {MAX_PLAYERS} players, not {len(names)}")
    for name in names:
        check_seat_name(name)
    if options.balanced_bag and len(names) not in (2, 3):
        raise InvalidOptionError("the balanced bag is for 2 or 3 players only (RULES.md 3.1)")
    if options.achievement_mode is not None and (len(names) < 2 or options.balanced_bag):
        raise InvalidOptionError(
            "only multiplayer games without the balanced bag are played for achievements (RULES.md 8)"
        )


def check_bots(bots: object, players: int) -> None:
    """Raise :class:`InvalidOptionError` unless ``bots`` is ``None`` or, per seat, ``None``
    (a person) or ``{"name": str, "version": int, "budget": int | None}`` (the bot that
    plays the seat, :attr:`~cascadia.domain.events.GameStarted.bots`)."""
    if bots is None:
        return
    if not isinstance(bots, list) or len(bots) != players:
        raise InvalidOptionError(f"bots lists one entry per seat ({players}), not {bots!r}"[:200])
    for seat, bot in enumerate(bots):
        if bot is None:
            continue
        if not isinstance(bot, dict) or set(bot) != {"name", "version", "budget"}:
            raise InvalidOptionError(f"seat {seat}'s bot is {{name, version, budget}}, not {bot!r}"[:200])
        name, version, budget = bot["name"], bot["version"], bot["budget"]
        if not isinstance(name, str) or not 0 < len(name) <= MAX_BOT_NAME:
            raise InvalidOptionError(f"seat {seat}'s bot name must be 1-{MAX_BOT_NAME} characters")
        if not _whole_positive(version):
            raise InvalidOptionError(f"seat {seat}'s bot version must be a whole number >= 1")
        if budget is not None and not _whole_positive(budget):
            raise InvalidOptionError(f"seat {seat}'s bot budget must be a whole number >= 1")


def _whole_positive(value: object) -> bool:
    """A whole number >= 1 (a bool is not a number here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def derive_game_id(
    seed: int,
    names: Sequence[str],
    options: GameOptions,
    rules_version: str = RULES_VERSION,
    bots: Sequence[dict[str, Any] | None] | None = None,
) -> UUID:
    """The id of a game that was given none: a UUIDv5 of its seed and setup, so that a
    rerun of the same seed with the same seats, options, rules version and bots is
    recognisably the same game (and another version of a bot plays another game). The
    bots count only when recorded, so the ids of games without them stay as they were."""
    setup: dict[str, Any] = {
        "seed": seed,
        "names": list(names),
        "options": options.to_dict(),
        "rules": rules_version,
    }
    if bots is not None:
        setup["bots"] = list(bots)
    text = json.dumps(setup, sort_keys=True, separators=(",", ":"))
    return uuid5(GAME_ID_NAMESPACE, text)


class _Draws:
    """Draws for one command, continuing the game's stream from its draw position.

    Works on copies of the bag, of the set-aside tokens and of the unrevealed tiles, so
    that several draws in one event see each other's effect; ``evolve`` later applies
    the recorded outcome."""

    __slots__ = ("_start", "_state", "bag", "pool", "position", "set_aside")

    def __init__(self, state: GameState) -> None:
        self._start = stream_start(state.seed)
        self.position = state.draw_position
        self.bag = list(state.bag)
        self.set_aside = list(state.set_aside)
        self.pool: list[int] | None = None
        self._state = state

    def next(self, bound: int) -> int:
        value = draw_from(self._start, self.position, bound)
        self.position += 1
        return value

    def tile(self) -> int:
        """A uniform draw among the tiles not yet revealed (the top of the stack)."""
        if self.pool is None:
            self.pool = list(self._state.unrevealed)
        return self.pool.pop(self.next(len(self.pool)))

    def wildlife(self) -> str:
        """A uniform draw of one token from the bag. RULES.md 4.1 (version 2): when the
        bag has run out in the middle of an overpopulation, the set-aside tokens go back
        into it first."""
        bag = self.bag
        if not any(bag):
            for species in self.set_aside:
                bag[WILDLIFE.index(species)] += 1
            self.set_aside = []
        x = self.next(sum(bag))
        for i, count in enumerate(bag):
            if x < count:
                bag[i] -= 1
                return WILDLIFE[i]
            x -= count
        raise AssertionError("unreachable: x < sum(bag)")


class TilePlacements(Sequence[tuple[Hex, int]]):
    """The ``(hex, rotation)`` placements of :meth:`Game.legal_tile_rotations` in the
    order of :meth:`Game.legal_tile_placements`, read without making that list. Without a
    placement restriction every hex has the same rotations (:meth:`everywhere`) and the
    ``i``-th placement is found by division; else by walking the hexes."""

    __slots__ = ("_common", "_count", "_hexes", "_rotations")

    def __init__(self, rotations: dict[Hex, tuple[int, ...]]) -> None:
        self._rotations = rotations
        self._hexes: Sequence[Hex] = ()
        self._common: tuple[int, ...] = ()
        """The rotations of every hex, when the same for all (:meth:`everywhere`)."""
        self._count = sum(map(len, rotations.values()))

    @classmethod
    def everywhere(cls, hexes: Sequence[Hex], rotations: tuple[int, ...]) -> TilePlacements:
        """Each of ``hexes`` in each of ``rotations``, in that order."""
        placements = cls({})
        placements._hexes, placements._common = hexes, rotations
        placements._count = len(hexes) * len(rotations)
        return placements

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> tuple[Hex, int]:  # type: ignore[override]  # no slices
        """The ``index``-th placement (from 0; no slices, no negative index)."""
        if not 0 <= index < self._count:
            raise IndexError(f"placement {index} of {self._count}")
        common = self._common
        if common:
            return self._hexes[index // len(common)], common[index % len(common)]
        for h, rotations in self._rotations.items():
            if index < len(rotations):
                return h, rotations[index]
            index -= len(rotations)
        raise AssertionError("unreachable: index < the count of placements")


class Game:
    """One game of Cascadia: its state, and the events not yet saved."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._pending: list[ev.GameEvent] = []

    # -- identity, as the eventsourcing library expects of an aggregate -------------

    @property
    def id(self) -> UUID:
        return self.state.game_id

    @property
    def version(self) -> int:
        return self.state.version

    def collect_events(self) -> list[ev.GameEvent]:
        """Hand over (and forget) the events emitted since the last collection."""
        pending, self._pending = self._pending, []
        return pending

    # -- construction -----------------------------------------------------------------

    @classmethod
    def start(
        cls,
        seed: int,
        players: int | Sequence[str] = 2,
        options: GameOptions | None = None,
        game_id: UUID | None = None,
        rules_version: str = RULES_VERSION,
        bots: list[dict[str, Any] | None] | None = None,
    ) -> Game:
        """Set up a new game (RULES.md 3) from ``seed``: ``players`` is a count or the
        seat names in seat order. ``rules_version`` is one of
        :data:`~cascadia.domain.options.RULES_VERSIONS` (default: the newest). ``bots``:
        the bot of each seat, recorded in ``GameStarted`` (see :func:`check_bots`)."""
        check_seed(seed)
        check_rules_version(rules_version)
        if isinstance(players, bool) or not isinstance(players, int | list | tuple):
            raise InvalidOptionError(f"players is a count or a list of seat names, not {players!r}")
        names = [f"player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        options = options or GameOptions()
        check_setup(names, options)
        check_bots(bots, len(names))
        game_id = game_id or derive_game_id(seed, names, options, rules_version, bots)
        game = cls(GameState(game_id))
        game._setup(seed, names, options, rules_version, bots)
        return game

    def _setup(
        self,
        seed: int,
        names: list[str],
        options: GameOptions,
        rules_version: str,
        bots: list[dict[str, Any] | None] | None,
    ) -> None:
        self._emit(
            ev.GameStarted,
            seed=seed,
            players=len(names),
            names=names,
            options=options.to_dict(),
            rules_version=rules_version,
            bots=bots,
        )
        self._emit(ev.TileStackPrepared, size=stack_size(len(names), options))
        self._draw_cards(options)
        draws = _Draws(self.state)
        if options.no_starter:
            tiles = [[draws.tile(), draws.tile()] for _ in names]
            self._emit(ev.OpeningTilesDealt, tiles=tiles)
        else:
            remaining = list(range(STARTER_COUNT))
            starters = [remaining.pop(draws.next(len(remaining))) for _ in names]
            self._emit(ev.StarterTilesDealt, starters=starters)
        if options.secret_cards:
            draws = _Draws(self.state)
            species = list(WILDLIFE)
            self._emit(ev.SecretCardsDealt, species=[species.pop(draws.next(len(species))) for _ in names])
        self._refill()
        self._emit(ev.FirstPlayerChosen, seat=_Draws(self.state).next(len(names)))
        self._wipe_four_of_a_kind()

    def _draw_cards(self, options: GameOptions) -> None:
        """RULES.md 3.3: one card per species (A-D at random unless chosen); with
        ``two_card_sets`` (7.6) a second set, one of the other three letters per species."""
        draws = _Draws(self.state)
        cards = parse_card_choice(options.cards) or {
            species: CARD_LETTERS[draws.next(len(CARD_LETTERS))] for species in WILDLIFE
        }
        second = None
        if options.two_card_sets:
            second = {}
            for species in WILDLIFE:
                others = [letter for letter in CARD_LETTERS if letter != cards[species]]
                second[species] = others[draws.next(len(others))]
        self._emit(ev.ScoringCardsDrawn, cards=cards, second_cards=second)

    @classmethod
    def replay(cls, events: Iterable[ev.GameEvent], game_id: UUID | None = None) -> Game:
        """Rebuild a game from its events (a fold of ``evolve``; nothing is drawn)."""
        iterator = iter(events)
        first = next(iterator, None)
        if first is None:
            raise InvalidOptionError("a game needs at least its GameStarted event")
        state = evolve(GameState(game_id or first.originator_id), first)
        for event in iterator:
            evolve(state, event)
        return cls(state)

    @classmethod
    def project(cls, game: Game | None, events: Iterable[ev.GameEvent]) -> Game | None:
        """The projector function for ``Repository.get``: continue ``game`` or start anew
        (``None`` when there are no events: the repository then reports "not found")."""
        if game is None:
            events = list(events)
            return cls.replay(events) if events else None
        for event in events:
            evolve(game.state, event)
        return game

    # -- queries for players, bots and interfaces ------------------------------------

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def current_player(self) -> int:
        return self.state.current

    def nature_cost(self) -> int:
        """Nature tokens one action costs (RULES.md 4.2; 2 with ``nature_cost_two``)."""
        return self.state.options.nature_cost

    def can_wipe_three(self) -> bool:
        """RULES.md 4.1: exactly three market tokens alike, not yet wiped this turn,
        nothing taken yet (never with ``market_of_three``, RULES.md 7.5)."""
        return (
            not self.state.options.market_of_three
            and not self.state.turn_state.three_wipe_used
            and self._three_alike_slots() is not None
            and self._before_taking_ok()
        )

    def nature_actions(self) -> list[str]:
        """What the active player's nature tokens can buy now (RULES.md 4.2)."""
        if not self._before_taking_ok() or self.state.active.nature_tokens < self.nature_cost():
            return []
        if self.state.turn_state.free_choice:
            return ["wipe"]
        return list(NATURE_ACTIONS)

    def legal_nature_wipes(self, actions: list[str] | None = None) -> list[tuple[int, ...]]:
        """The slot sets a wipe bought with nature tokens may clear now (RULES.md 4.2):
        every non-empty subset of the occupied token slots, the smaller first, in slot
        order; none unless a wipe can be bought. ``actions``: :meth:`nature_actions`, when
        the caller has it already."""
        if "wipe" not in (self.nature_actions() if actions is None else actions):
            return []
        occupied = [s for s, w in enumerate(self.state.market_wildlife) if w is not None]
        return [subset for size in range(1, len(occupied) + 1) for subset in combinations(occupied, size)]

    def legal_takes(self) -> list[tuple[int, int]]:
        """``(tile_slot, wildlife_slot)`` choices: the pairs, or any combination after
        free choice was bought (RULES.md 4.3)."""
        state = self.state
        if state.finished or state.turn_state.has_taken:
            return []
        slots = [s for s, tile in enumerate(state.market_tiles) if tile is not None]
        tokens = [s for s, token in enumerate(state.market_wildlife) if token is not None]
        if state.turn_state.free_choice:
            return [(t, w) for t in slots for w in tokens]
        return [(s, s) for s in slots if s in tokens]

    def legal_tile_positions(self) -> list[Hex]:
        """Empty hexes next to one of the active player's tiles (RULES.md 4.3) where the
        held tile fits in at least one rotation under the game's restrictions."""
        if not self._restricts_placement():
            return self.state.active.environment.open_hexes()
        return sorted({h for h, _ in self.legal_tile_placements()})

    def legal_tile_placements(self, tile: int | None = None) -> list[tuple[Hex, int]]:
        """Every ``(hex, rotation)`` where the held tile (or ``tile``, to look ahead before
        taking it) may go, one rotation for a keystone (:meth:`legal_tile_rotations`, hex
        by hex)."""
        return [(h, rot) for h, rotations in self.legal_tile_rotations(tile).items() for rot in rotations]

    def tile_placements(self) -> TilePlacements:
        """:meth:`legal_tile_placements` as a sequence that is not built: its length and
        its ``i``-th placement, for a choice of one of them by its place in the list."""
        tile = self.state.turn_state.taken_tile
        if tile is None or self._restricts_placement():
            return TilePlacements(self.legal_tile_rotations())
        return TilePlacements.everywhere(self.state.active.environment.open_hexes(), distinct_rotations(tile))

    def legal_tile_rotations(self, tile: int | None = None) -> dict[Hex, tuple[int, ...]]:
        """Per hex where the held tile (or ``tile``) may go, in order, its rotations there
        (one for a keystone).

        With ``must_match`` / ``must_not_match`` (RULES.md 7.1-7.2) only the placements
        that keep the restriction; the rules are silent on a tile that fits nowhere under
        it, and then (our ruling) every adjacent placement is allowed."""
        tile = self.state.turn_state.taken_tile if tile is None else tile
        if tile is None:
            return {}
        return self._tile_rotations(tile, self.state.active.environment.open_hexes())

    def market_tile_rotations(self) -> dict[int, dict[Hex, tuple[int, ...]]]:
        """Per tile of the market, :meth:`legal_tile_rotations` of it, to look ahead
        before taking. Without a placement restriction a tile may go on every open hex
        in each of its distinct rotations, so tiles alike (keystones, dual tiles) share
        one answer (which is not to be changed)."""
        hexes = self.state.active.environment.open_hexes()
        restricted = self._restricts_placement()
        found: dict[int, dict[Hex, tuple[int, ...]]] = {}
        alike: dict[object, dict[Hex, tuple[int, ...]]] = {}
        for tile in self.state.market_tiles:
            if tile is not None:
                key = tile if restricted else distinct_rotations(tile)
                rotations = alike.get(key)
                if rotations is None:
                    rotations = alike[key] = self._tile_rotations(tile, hexes)
                found[tile] = rotations
        return found

    def _tile_rotations(self, tile: int, hexes: list[Hex]) -> dict[Hex, tuple[int, ...]]:
        """:meth:`legal_tile_rotations` of ``tile`` on the open ``hexes``."""
        rotations = distinct_rotations(tile)
        every = dict.fromkeys(hexes, rotations)
        if not self._restricts_placement():
            return every
        kept = {}
        for h in every:
            fits = tuple(rot for rot in rotations if self._keeps_restriction(h, tile, rot))
            if fits:
                kept[h] = fits
        return kept or every

    def legal_wildlife_targets(self) -> list[Hex]:
        """The active player's tiles that can take the held token now (RULES.md 4.3; not
        the tile placed this turn with ``no_token_on_new_tile``, RULES.md 7.9)."""
        ts = self.state.turn_state
        if ts.taken_wildlife is None or ts.wildlife_done:
            return []
        targets = self.state.active.environment.wildlife_targets(ts.taken_wildlife)
        if self.state.options.no_token_on_new_tile and ts.tile_hex in targets:
            targets.remove(ts.tile_hex)
        return targets

    def legal_commands(self) -> list[Command]:
        """Every legal next decision of the active player, as command values: before
        taking, the three-of-a-kind wipe, the nature-token actions (free choice, and a
        wipe of every non-empty subset of the occupied token slots) and every take;
        after taking, every tile placement and every token target or its return.

        Each executes without error (:meth:`execute`); every other command is refused, but
        for a keystone in another rotation, the same placement (:meth:`recorded`)."""
        ts = self.state.turn_state
        if self.state.finished:
            return []
        if not ts.has_taken:
            commands: list[Command] = [WipeThree()] if self.can_wipe_three() else []
            actions = self.nature_actions()
            if "free_choice" in actions:
                commands.append(NatureFreeChoice())
            commands += [NatureWipe(slots) for slots in self.legal_nature_wipes(actions)]
            return commands + [Take(t, w) for t, w in self.legal_takes()]
        commands = []
        if ts.tile_hex is None:
            commands += [_place_tile(q, r, rotation) for (q, r), rotation in self.legal_tile_placements()]
        if not ts.wildlife_done:
            commands += [_place_wildlife(q, r) for q, r in self.legal_wildlife_targets()]
            commands.append(ReturnWildlife())
        return commands

    def recorded(self, command: Command) -> Command:
        """``command`` as the game records it: a keystone looks the same in every rotation,
        so its placement in any rotation is recorded, and offered by :meth:`legal_commands`,
        with rotation 0 (one game has one log)."""
        taken = self.state.turn_state.taken_tile
        if (
            isinstance(command, PlaceTile)
            and taken is not None
            and TILES[taken].keystone
            and _is_int(command.rotation)
            and 0 < command.rotation <= 5
        ):
            return PlaceTile(command.q, command.r, 0)
        return command

    # -- commands --------------------------------------------------------------------

    def execute(self, command: Command) -> None:
        """Apply one decision: check every rule (an illegal command raises a typed
        :class:`~cascadia.domain.errors.IllegalMoveError` and changes nothing), then
        emit its events."""
        if isinstance(command, Take):
            self._take(command.tile_slot, command.wildlife_slot)
        elif isinstance(command, PlaceTile):
            self._place_tile(command.q, command.r, command.rotation)
        elif isinstance(command, PlaceWildlife):
            self._place_wildlife(command.q, command.r)
        elif isinstance(command, ReturnWildlife):
            self._return_wildlife()
        elif isinstance(command, NatureFreeChoice):
            self._spend_free_choice()
        elif isinstance(command, NatureWipe):
            self._spend_wipe(command.slots)
        elif isinstance(command, WipeThree):
            self._wipe_three()
        else:
            raise CommandFormatError(f"not a command: {command!r}")

    def wipe_three(self) -> None:
        """:class:`WipeThree` (RULES.md 4.1)."""
        self.execute(WipeThree())

    def spend_nature(self, action: str, slots: Sequence[int] | None = None) -> None:
        """:class:`NatureFreeChoice` (``"free_choice"``) or :class:`NatureWipe` of the
        market tokens in ``slots`` (``"wipe"``), RULES.md 4.2."""
        if action == "free_choice" and slots:
            self._check_nature(action)
            raise NatureTokenError("free choice takes no slots")
        if action == "free_choice":
            self.execute(NatureFreeChoice())
        elif action == "wipe":
            self.execute(NatureWipe(slots))  # type: ignore[arg-type]  # execute checks the slots
        else:
            self._check_before_taking("spend nature tokens")
            raise NatureTokenError(f"a nature token buys 'free_choice' or 'wipe', not {action!r}")

    def take(self, tile_slot: int, wildlife_slot: int | None = None) -> None:
        """:class:`Take` (RULES.md 4.3): the pair of ``tile_slot``, or, after buying free
        choice, the tile of ``tile_slot`` and the token of ``wildlife_slot``."""
        self.execute(Take(tile_slot, tile_slot if wildlife_slot is None else wildlife_slot))

    def place_tile(self, q: int, r: int, rotation: int = 0) -> None:
        """:class:`PlaceTile` (RULES.md 4.3)."""
        self.execute(PlaceTile(q, r, rotation))

    def place_wildlife(self, q: int, r: int) -> None:
        """:class:`PlaceWildlife` (RULES.md 4.3)."""
        self.execute(PlaceWildlife(q, r))

    def return_wildlife(self) -> None:
        """:class:`ReturnWildlife` (RULES.md 4.3)."""
        self.execute(ReturnWildlife())

    # -- what each command does ------------------------------------------------------------

    def _wipe_three(self) -> None:
        """RULES.md 4.1, optional, once per turn: set aside exactly three alike tokens and
        draw three replacements; a four of a kind then follows (under rules version 2 the
        three stay aside until it is resolved)."""
        self._check_before_taking("wipe three of a kind")
        if self.state.options.market_of_three:
            raise OverpopulationError(
                "with a market of three, three alike is the mandatory wipe and there is no "
                "optional wipe (RULES.md 7.5)"
            )
        if self.state.turn_state.three_wipe_used:
            raise OverpopulationError("the three-of-a-kind wipe may be used once per turn (RULES.md 4.1)")
        slots = self._three_alike_slots()
        if slots is None:
            raise OverpopulationError(
                "a three-of-a-kind wipe needs exactly three market tokens of one species (RULES.md 4.1)"
            )
        self._wipe(ev.OverpopulationWiped, slots, mandatory=False)
        self._wipe_four_of_a_kind()

    def _check_nature(self, action: str) -> int:
        """RULES.md 4.2: before taking, with enough nature tokens; the cost."""
        self._check_before_taking("spend nature tokens")
        cost = self.nature_cost()
        player = self.state.active
        if player.nature_tokens < cost:
            raise NatureTokenError(
                f"{player.name} has {player.nature_tokens} nature token(s); "
                f"{action} costs {cost} (RULES.md 4.2)"
            )
        return cost

    def _spend_free_choice(self) -> None:
        """RULES.md 4.2: a nature token buys free choice of tile and token, once a turn."""
        cost = self._check_nature("free_choice")
        if self.state.turn_state.free_choice:
            raise NatureTokenError("free choice is already bought this turn")
        self._pay_nature("free_choice", cost)

    def _spend_wipe(self, slots: Sequence[int]) -> None:
        """RULES.md 4.2: a nature token wipes the market tokens of any non-empty set of slots."""
        cost = self._check_nature("wipe")
        given = list(slots) if isinstance(slots, list | tuple) else [slots]
        if not all(_is_int(slot) for slot in given):
            raise NatureTokenError(f"a wipe names market slots by number, not {slots!r}")
        chosen = sorted(set(given))
        if not chosen or len(chosen) != len(given):
            raise NatureTokenError("a wipe needs a non-empty set of distinct market slots (RULES.md 4.2)")
        for slot in chosen:
            self._check_slot(slot, self.state.market_wildlife, "token", NatureTokenError)
        self._pay_nature("wipe", cost)
        self._wipe(ev.WildlifeReplaced, chosen)
        self._wipe_four_of_a_kind()

    def _take(self, tile_slot: int, wildlife_slot: int) -> None:
        """RULES.md 4.3: take the pair of a slot, or any tile and token after free choice."""
        self._check_not_over()
        state = self.state
        if state.turn_state.has_taken:
            raise OutOfOrderError("a tile and a token were already taken this turn")
        self._check_slot(tile_slot, state.market_tiles, "tile", MarketChoiceError)
        self._check_slot(wildlife_slot, state.market_wildlife, "token", MarketChoiceError)
        if tile_slot != wildlife_slot and not state.turn_state.free_choice:
            raise MarketChoiceError(
                f"tile {tile_slot} and token {wildlife_slot} are not a pair; taking them apart "
                "needs free choice, bought with a nature token (RULES.md 4.2)"
            )
        self._emit(
            ev.PairTaken,
            player=state.current,
            tile_slot=tile_slot,
            wildlife_slot=wildlife_slot,
            tile=state.market_tiles[tile_slot],
            wildlife=state.market_wildlife[wildlife_slot],
        )

    def _place_tile(self, q: int, r: int, rotation: int = 0) -> None:
        """RULES.md 4.3: the taken tile goes on an empty hex that shares an edge with at
        least one of the player's tiles, in any rotation.

        A keystone looks the same in every rotation, so it is always recorded with
        rotation 0 (:func:`distinct_rotations`): one game has exactly one log."""
        ts = self._check_holding("place a tile")
        if ts.tile_hex is not None:
            raise OutOfOrderError("the tile was already placed this turn")
        if not (_is_int(q) and _is_int(r) and _is_int(rotation)) or not 0 <= rotation <= 5:
            raise TilePlacementError(
                "a tile goes on whole-number (q, r) with rotation 0..5, "
                f"not ({q!r}, {r!r}) rotation {rotation!r}"
            )
        environment = self.state.active.environment
        if (q, r) in environment.tiles:
            raise TilePlacementError(f"hex ({q}, {r}) already holds a tile (RULES.md 4.3)")
        if not environment.is_adjacent_to_tiles((q, r)):
            raise TilePlacementError(
                f"hex ({q}, {r}) does not share an edge with any of your tiles (RULES.md 4.3)"
            )
        tile = ts.taken_tile
        if TILES[tile].keystone:  # every rotation looks the same: recorded as rotation 0
            rotation = 0
        if (
            self._restricts_placement()
            and not self._keeps_restriction((q, r), tile, rotation)
            and any(self._keeps_restriction(h, tile, rot) for h, rot in self.legal_tile_placements())
        ):
            if self.state.options.must_match:
                rule = "must touch at least one edge of the same habitat (must_match, RULES.md 7.1)"
            else:
                rule = "must not touch any edge of the same habitat (must_not_match, RULES.md 7.2)"
            raise TilePlacementError(f"the tile at ({q}, {r}) rotation {rotation} {rule}")
        self._emit(
            ev.TilePlaced,
            player=self.state.current,
            tile=ts.taken_tile,
            q=q,
            r=r,
            rotation=rotation,
        )
        self._end_turn_when_done()

    def _place_wildlife(self, q: int, r: int) -> None:
        """RULES.md 4.3: the taken token goes on one of the player's tiles that has no
        token and shows that species; on a keystone tile it earns a nature token."""
        ts = self._check_holding("place a wildlife token")
        if ts.wildlife_done:
            raise OutOfOrderError("the wildlife token was already placed or returned this turn")
        species = ts.taken_wildlife
        assert species is not None
        environment = self.state.active.environment
        placed = environment.tiles.get((q, r)) if _is_int(q) and _is_int(r) else None
        if placed is None:
            raise WildlifePlacementError(f"there is no tile of yours at ({q!r}, {r!r}) (RULES.md 4.3)")
        if (q, r) in environment.wildlife:
            raise WildlifePlacementError(
                f"the tile at ({q}, {r}) already holds {article(environment.wildlife[(q, r)])}: "
                "one token per tile (RULES.md 4.3)"
            )
        tile = TILES[placed[0]]
        if species not in tile.wildlife:
            raise WildlifePlacementError(
                f"the tile at ({q}, {r}) shows {', '.join(tile.wildlife)}, not {species} (RULES.md 4.3)"
            )
        if self.state.options.no_token_on_new_tile and ts.tile_hex == (q, r):
            raise WildlifePlacementError(
                f"the token may not go on the tile placed this turn at ({q}, {r}) "
                "(no_token_on_new_tile, RULES.md 7.9)"
            )
        player = self.state.current
        self._emit(ev.WildlifePlaced, player=player, wildlife=species, q=q, r=r)
        if tile.keystone:
            self._emit(ev.NatureTokenEarned, player=player, q=q, r=r)
        self._end_turn_when_done()

    def _return_wildlife(self) -> None:
        """RULES.md 4.3: the taken token is not placed and goes back into the bag."""
        ts = self._check_holding("return the wildlife token")
        if ts.wildlife_done:
            raise OutOfOrderError("the wildlife token was already placed or returned this turn")
        self._emit(ev.WildlifeReturned, player=self.state.current, wildlife=ts.taken_wildlife)
        self._end_turn_when_done()

    # -- rule checks --------------------------------------------------------------------

    def _check_not_over(self) -> None:
        if self.state.finished:
            raise GameOverError("the game is over (RULES.md 4.5)")

    def _before_taking_ok(self) -> bool:
        return not self.state.finished and not self.state.turn_state.has_taken

    def _check_before_taking(self, what: str) -> None:
        self._check_not_over()
        if self.state.turn_state.has_taken:
            raise OutOfOrderError(f"{what} only before taking a tile and token (RULES.md 4.1-4.2)")

    def _check_holding(self, what: str) -> Any:
        self._check_not_over()
        ts = self.state.turn_state
        if not ts.has_taken:
            raise OutOfOrderError(f"take a tile and a token before you {what} (RULES.md 4.3)")
        return ts

    @staticmethod
    def _check_slot(slot: int, row: list[Any], what: str, error: type[Exception]) -> None:
        if not _is_int(slot) or not 0 <= slot < len(row):
            raise error(f"market slots are 0 to {len(row) - 1}, not {slot!r}")
        if row[slot] is None:
            raise error(f"market slot {slot} holds no {what}")

    def _restricts_placement(self) -> bool:
        options = self.state.options
        return options.must_match or options.must_not_match

    def _keeps_restriction(self, h: Hex, tile: int, rotation: int) -> bool:
        """Whether a tile at ``h`` keeps ``must_match`` (some touching edge of the same
        habitat) or ``must_not_match`` (no touching edge of the same habitat)."""
        environment = self.state.active.environment
        edges = tile_edges(tile, rotation)
        matches = any(
            n in environment.tiles and edges[i] == environment.edges(n)[opposite(i)]
            for i, n in enumerate(neighbours(h))
        )
        return matches if self.state.options.must_match else not matches

    def _three_alike_slots(self) -> list[int] | None:
        """The slots of the market's three tokens of one species, if it shows exactly three alike."""
        market = self.state.market_wildlife
        for species in set(market):
            if species is not None and market.count(species) == 3:
                return [s for s, w in enumerate(market) if w == species]
        return None

    # -- event emission and the flow of a turn --------------------------------------------

    def _pay_nature(self, action: str, cost: int) -> None:
        """Spend nature tokens; with ``secret_cards`` the first spend reveals the card."""
        state = self.state
        seat = state.current
        if state.secret_cards and not state.secret_revealed[seat]:
            self._emit(ev.SecretCardRevealed, player=seat, species=state.secret_cards[seat])
        self._emit(ev.NatureTokenSpent, player=seat, action=action, cost=cost)

    def _emit(self, cls: type[ev.GameEvent], **payload: Any) -> None:
        event = cls(self.state.game_id, self.state.version + 1, **payload)
        evolve(self.state, event)
        self._pending.append(event)

    def _wipe(self, cls: type[ev.GameEvent], slots: list[int], **extra: Any) -> None:
        """Set the market tokens of ``slots`` aside and draw replacements (RULES.md 4.1-4.2);
        ``evolve`` puts the set-aside tokens back as the game's rules version says."""
        state = self.state
        draws = _Draws(state)
        set_aside = [state.market_wildlife[s] for s in slots]
        if state.holds_set_aside:
            draws.set_aside += set_aside
        drawn = [draws.wildlife() for _ in slots]
        self._emit(cls, player=state.current, slots=slots, set_aside=set_aside, drawn=drawn, **extra)

    def _wipe_four_of_a_kind(self) -> None:
        """RULES.md 4.1: while all market tokens are alike, wipe them all; stop after a
        wipe that cannot break the repetition, recorded as ``unbreakable``.

        Rules version 2 decides that on the bag and the set-aside tokens together
        (:meth:`_cannot_break`). Version 1, kept for its logs, decided it on the bag alone
        (a single species left in it) and skipped the wipe when the bag held fewer tokens
        than the market."""
        state = self.state
        while all_alike(state.market_wildlife):
            if state.holds_set_aside:
                unbreakable = self._cannot_break()
            else:
                unbreakable = sum(1 for count in state.bag if count) == 1
                if sum(state.bag) < len(state.market_wildlife):
                    return
            self._wipe(
                ev.OverpopulationWiped,
                list(range(len(state.market_wildlife))),
                mandatory=True,
                unbreakable=unbreakable,
            )
            if unbreakable:
                return

    def _cannot_break(self) -> bool:
        """RULES.md 4.1 (version 2): "if every token in the bag and set aside is of the
        market's own species, no wipe can change the market: wipe once, record it as
        unbreakable, and play on"."""
        state = self.state
        species = state.market_wildlife[0]
        others = sum(count for s, count in zip(WILDLIFE, state.bag, strict=True) if s != species)
        return others == 0 and all(token == species for token in state.set_aside)

    def _refill(self) -> None:
        """RULES.md 4.4: every empty tile slot gets the top tile, every empty token slot a
        token from the bag, slot by slot from the stack outwards."""
        state = self.state
        draws = _Draws(state)
        fills = []
        for slot in range(len(state.market_tiles)):
            tile = draws.tile() if state.market_tiles[slot] is None else None
            wildlife = draws.wildlife() if state.market_wildlife[slot] is None else None
            if tile is not None or wildlife is not None:
                fills.append([slot, tile, wildlife])
        self._emit(ev.MarketRefilled, fills=fills)

    def _end_turn_when_done(self) -> None:
        state = self.state
        ts = state.turn_state
        if ts.tile_hex is None or not ts.wildlife_done:
            return
        tiles_needed = 2 if state.is_solo else state.market_tiles.count(None)
        if state.stack_size < tiles_needed:
            self._emit(ev.TurnEnded, player=state.current, turn=state.turn)
            self._emit(ev.GameEnded, turns=state.turn - 1)
            return
        if state.is_solo:
            self._discard_solo_pair()
        self._refill()
        self._emit(ev.TurnEnded, player=state.current, turn=state.turn)
        self._wipe_four_of_a_kind()

    def _discard_solo_pair(self) -> None:
        """RULES.md 4.4 (solo): the remaining tile and the remaining token farthest from
        the stack leave the game; the rest slide away from the stack."""
        state = self.state
        tile_slot = max(s for s, t in enumerate(state.market_tiles) if t is not None)
        wildlife_slot = max(s for s, w in enumerate(state.market_wildlife) if w is not None)
        self._emit(
            ev.SoloPairDiscarded,
            tile_slot=tile_slot,
            tile=state.market_tiles[tile_slot],
            wildlife_slot=wildlife_slot,
            wildlife=state.market_wildlife[wildlife_slot],
        )


@functools.lru_cache(maxsize=PLACEMENT_COMMANDS_KEPT)
def _place_tile(q: int, r: int, rotation: int) -> PlaceTile:
    """The command value of one tile placement, built once and shared: command values
    never change, and a list of legal commands holds up to a few hundred placements
    (building each anew was most of the cost of the list)."""
    return PlaceTile(q, r, rotation)


@functools.lru_cache(maxsize=PLACEMENT_COMMANDS_KEPT)
def _place_wildlife(q: int, r: int) -> PlaceWildlife:
    """The command value of one token target, built once and shared (as :func:`_place_tile`)."""
    return PlaceWildlife(q, r)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
