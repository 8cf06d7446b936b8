"""A fixed discrete action space: one integer per possible command.

The layout (``HEXES`` is the number of hexes of :data:`BOARD_HEXES`, 1,387: every hex
within :data:`BOARD_RADIUS` = 21 steps of the origin, in sorted ``(q, r)`` order)::

    ===========================  =====  ===================================================
    actions                      count  command
    ===========================  =====  ===================================================
    0 .. 15                         16  ``Take(t, w)``: ``4 * t + w`` (4 tile x 4 token slots)
    16 .. 8,337                  8,322  ``PlaceTile(q, r, rot)``: ``16 + 6 * hex + rot``
    8,338 .. 9,724               1,387  ``PlaceWildlife(q, r)``: ``8,338 + hex``
    9,725                            1  ``ReturnWildlife()``
    9,726                            1  ``WipeThree()``
    9,727                            1  ``NatureFreeChoice()``
    9,728 .. 9,742                  15  ``NatureWipe(slots)``: ``9,728 + bits - 1``, where
                                        bit ``s`` of ``bits`` is set for each slot ``s``
    ===========================  =====  ===================================================

:data:`ACTION_COUNT` is 9,743. Why radius 21: every board starts within one step of the
origin (the starter tile at ``(0, 0), (-1, 1), (0, 1)``, or the opening tiles at
``(0, 0), (1, 0)``) and grows by one connected tile a turn for at most 20 turns, so
before a player's last placement its tiles are at most 20 steps out and the hexes where
the next one may go at most 21.

:func:`mask` marks exactly :meth:`~cascadia.domain.game.Game.legal_commands`, which
lists every decision kind (the wipes and nature-token actions included). A keystone is
offered once, with rotation 0, as the game records it (:meth:`Game.recorded`).
"""

from __future__ import annotations

import operator
from collections.abc import Collection
from functools import cache, lru_cache
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt
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
from cascadia.domain.errors import IllegalMoveError
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import Hex, distance

SLOTS: Final = 4
"""Market slots (a market of three, RULES.md 7.5, leaves slot 3 unused)."""
ROTATIONS: Final = 6
BOARD_RADIUS: Final = 21
"""How far from the origin a tile can ever go (see the module docstring)."""
BOARD_HEXES: Final[tuple[Hex, ...]] = tuple(
    sorted(
        (q, r)
        for q in range(-BOARD_RADIUS, BOARD_RADIUS + 1)
        for r in range(-BOARD_RADIUS, BOARD_RADIUS + 1)
        if distance((q, r), (0, 0)) <= BOARD_RADIUS
    )
)
"""The hexes of the window, in sorted order: a hex's index is its place here."""
HEX_INDEX: Final[dict[Hex, int]] = {h: i for i, h in enumerate(BOARD_HEXES)}

TAKE: Final = 0
PLACE_TILE: Final = TAKE + SLOTS * SLOTS
PLACE_WILDLIFE: Final = PLACE_TILE + len(BOARD_HEXES) * ROTATIONS
RETURN_WILDLIFE: Final = PLACE_WILDLIFE + len(BOARD_HEXES)
WIPE_THREE: Final = RETURN_WILDLIFE + 1
NATURE_FREE: Final = WIPE_THREE + 1
NATURE_WIPE: Final = NATURE_FREE + 1
ACTION_COUNT: Final = NATURE_WIPE + 2**SLOTS - 1
"""The size of the action space."""
MASK_DTYPE: Final = np.dtype(np.int8)
INDEX_DTYPE: Final = np.dtype(np.intp)
"""A mask's dtype and that of an array of indices (dtype objects, which numpy takes
without looking them up)."""
EVERY_ROTATION: Final = tuple(range(ROTATIONS))
PLACEMENT_ROWS: Final = np.arange(PLACE_TILE, PLACE_WILDLIFE, dtype=np.intp).reshape(
    len(BOARD_HEXES), ROTATIONS
)
"""Per hex index, the ``PlaceTile`` actions of its rotations: row ``i`` is hex ``i``'s."""
PLACEMENTS: Final = tuple(tuple(row) for row in PLACEMENT_ROWS.tolist())
""":data:`PLACEMENT_ROWS` as tuples of Python integers."""
HEX_ROTATIONS: Final = np.dtype((np.void, ROTATIONS))
"""One hex's ``PlaceTile`` entries of a mask, its six rotations, as one value: the
placements of a mask seen with this dtype are one entry per hex."""
ROTATION_MARKS: Final[dict[tuple[int, ...], np.void]] = {
    rots: np.frombuffer(bytes(int(rot in rots) for rot in range(ROTATIONS)), HEX_ROTATIONS)[0]
    for size in range(1, ROTATIONS + 1)
    for rots in combinations(range(ROTATIONS), size)
}
"""Per set of rotations (in order), a hex's ``PlaceTile`` entries marking exactly those."""


class IllegalActionError(IllegalMoveError):
    """An action that is not legal now: outside the action space, a command this space
    cannot name, or a command the rules refuse (its mask entry is ``False``). The game
    is left as it was."""


def _hex_index(q: int, r: int) -> int:
    index = HEX_INDEX.get((q, r))
    if index is None:
        raise _outside((q, r))
    return index


def _hex_array(hexes: Collection[Hex]) -> npt.NDArray[np.intp]:
    """The index of each of ``hexes`` (:data:`HEX_INDEX`), as an array;
    :class:`IllegalActionError` for a hex outside the window."""
    try:
        return np.fromiter(map(HEX_INDEX.__getitem__, hexes), INDEX_DTYPE, len(hexes))
    except KeyError as missing:
        raise _outside(missing.args[0]) from None


def _outside(h: Hex) -> IllegalActionError:
    return IllegalActionError(f"hex {h} is outside the action window (radius {BOARD_RADIUS})")


def encode(command: Command) -> int:
    """The action of ``command``; :class:`IllegalActionError` if the space has none for it."""
    if isinstance(command, Take):
        if 0 <= command.tile_slot < SLOTS and 0 <= command.wildlife_slot < SLOTS:
            return TAKE + SLOTS * command.tile_slot + command.wildlife_slot
    elif isinstance(command, PlaceTile):
        if 0 <= command.rotation < ROTATIONS:
            return PLACE_TILE + ROTATIONS * _hex_index(command.q, command.r) + command.rotation
    elif isinstance(command, PlaceWildlife):
        return PLACE_WILDLIFE + _hex_index(command.q, command.r)
    elif isinstance(command, ReturnWildlife):
        return RETURN_WILDLIFE
    elif isinstance(command, WipeThree):
        return WIPE_THREE
    elif isinstance(command, NatureFreeChoice):
        return NATURE_FREE
    elif isinstance(command, NatureWipe):
        slots = set(command.slots)
        if slots and len(slots) == len(command.slots) and slots <= set(range(SLOTS)):
            return NATURE_WIPE + _slot_bits(command.slots) - 1
    raise IllegalActionError(f"the action space has no action for {command!r}")


def decode(action: int) -> Command:
    """The command of ``action``; :class:`IllegalActionError` for anything but a whole
    number from 0 to ``ACTION_COUNT - 1``."""
    try:
        a = operator.index(action)  # a Python or numpy integer
    except TypeError:
        raise IllegalActionError(f"an action is a whole number, not {action!r}") from None
    if not 0 <= a < ACTION_COUNT:
        raise IllegalActionError(f"actions are 0 to {ACTION_COUNT - 1}, not {action!r}")
    return _command(a)


@cache
def _command(a: int) -> Command:
    """The command of action ``a`` (0 to ``ACTION_COUNT - 1``), made once: commands are
    frozen values, so :func:`decode` hands out the same one each time."""
    if a < PLACE_TILE:
        return Take(*divmod(a - TAKE, SLOTS))
    if a < PLACE_WILDLIFE:
        index, rotation = divmod(a - PLACE_TILE, ROTATIONS)
        return PlaceTile(*BOARD_HEXES[index], rotation)
    if a < RETURN_WILDLIFE:
        return PlaceWildlife(*BOARD_HEXES[a - PLACE_WILDLIFE])
    if a == RETURN_WILDLIFE:
        return ReturnWildlife()
    if a == WIPE_THREE:
        return WipeThree()
    if a == NATURE_FREE:
        return NatureFreeChoice()
    bits = a - NATURE_WIPE + 1
    return NatureWipe(tuple(s for s in range(SLOTS) if bits >> s & 1))


def legal_actions(game: Game) -> list[int]:
    """The actions of :meth:`Game.legal_commands`, in its order (:meth:`Choices.actions`)."""
    return Choices(game).actions()


class Choices:
    """The choices of the decision now, as the engine lists them, from which the legal
    actions, their mask and the check of an action are all worked out, so that the
    engine lists them once: before the take, the legal actions themselves (the
    three-alike wipe, the free choice, the nature-token wipes, the takes); after it, per
    hex where the held tile may go its rotations there (none once it is placed), and the
    token's targets (``None`` once the token is placed or returned; else the return is
    legal too). A finished game has none."""

    __slots__ = ("_actions", "before", "rotations", "targets")

    def __init__(self, game: Game) -> None:
        state = game.state
        self.before: list[int] | None = None
        self.rotations: dict[Hex, tuple[int, ...]] = {}
        self.targets: list[Hex] | None = None
        self._actions: list[int] | None = None
        if state.finished:
            self.before = []
        elif not state.turn_state.has_taken:
            self.before = _before_taking(game)
        else:
            self.rotations, self.targets = _after_taking(game)

    def actions(self) -> list[int]:
        """The legal actions, in the order of :meth:`Game.legal_commands`, numbered straight
        from the choices without making a command of each: after the take, every placement
        of the held tile, hex by hex, then every token target, then the return (a new list
        each call)."""
        if self._actions is None:
            self._actions = self.before if self.before is not None else self._after_taking_actions()
        return list(self._actions)

    def _after_taking_actions(self) -> list[int]:
        actions: list[int] = []
        index = HEX_INDEX.get  # looked up inline; _hex_index only raises for a hex outside
        for h, rots in self.rotations.items():
            i = index(h)
            placements = PLACEMENTS[_hex_index(*h) if i is None else i]
            actions += placements if rots == EVERY_ROTATION else [placements[rot] for rot in rots]
        if self.targets is not None:
            for h in self.targets:
                i = index(h)
                actions.append(PLACE_WILDLIFE + (_hex_index(*h) if i is None else i))
            actions.append(RETURN_WILDLIFE)
        return actions

    def mask(self) -> npt.NDArray[np.int8]:
        """A new mask of the legal actions (:func:`mask_of` of :meth:`actions`, all 0 once
        the game is over). After the take, marked from the choices hex by hex rather than
        action by action: when every hex allows the same rotations (always, but under a
        placement restriction), the ``PlaceTile`` entries are seen as one entry per hex
        (:data:`HEX_ROTATIONS`, the hexes numbered as :data:`PLACEMENT_ROWS` numbers them)
        and those hexes' entries are set to the mark of those rotations at once."""
        if self.before is not None:
            return mask_of(self.before)
        rotations, targets = self.rotations, self.targets
        found = np.zeros(ACTION_COUNT, dtype=MASK_DTYPE)
        if rotations:
            every = list(rotations.values())
            rots = every[0]
            if every.count(rots) == len(every):
                hexes = found[PLACE_TILE:PLACE_WILDLIFE].view(HEX_ROTATIONS)
                hexes[_hex_array(rotations)] = ROTATION_MARKS[rots]
            else:
                rows = _hex_array(rotations).tolist()
                found[[PLACEMENTS[i][rot] for i, rots in zip(rows, every, strict=True) for rot in rots]] = 1
        if targets is not None:
            index = HEX_INDEX.get  # looked up inline, as a call per target costs more
            for h in targets:  # a few: one by one costs less than an array of them
                i = index(h)
                if i is None:
                    raise _outside(h)
                found[PLACE_WILDLIFE + i] = 1
            found[RETURN_WILDLIFE] = 1
        return found

    def allows(self, action: int) -> bool:
        """Whether ``action`` (a whole number from 0 to ``ACTION_COUNT - 1``) is legal: its
        entry of :meth:`mask`, read from the choices without making the mask."""
        if self.before is not None:
            return action in self.before
        if action < PLACE_TILE:
            return False
        if action < PLACE_WILDLIFE:
            index, rotation = divmod(action - PLACE_TILE, ROTATIONS)
            return rotation in self.rotations.get(BOARD_HEXES[index], ())
        if self.targets is None:
            return False
        if action < RETURN_WILDLIFE:
            return BOARD_HEXES[action - PLACE_WILDLIFE] in self.targets
        return action == RETURN_WILDLIFE


def _after_taking(game: Game) -> tuple[dict[Hex, tuple[int, ...]], list[Hex] | None]:
    """The choices after the take: per hex where the held tile may go, its rotations
    there (none once it is placed), and the token's targets (``None`` once the token is
    placed or returned; else the return is legal too)."""
    ts = game.state.turn_state
    rotations = game.legal_tile_rotations() if ts.tile_hex is None else {}
    return rotations, None if ts.wildlife_done else game.legal_wildlife_targets()


def _before_taking(game: Game) -> list[int]:
    """:func:`legal_actions` before the take."""
    actions = [WIPE_THREE] if game.can_wipe_three() else []
    nature = game.nature_actions()
    if "free_choice" in nature:
        actions.append(NATURE_FREE)
    actions += [NATURE_WIPES[slots] for slots in game.legal_nature_wipes(nature)]
    actions += [TAKE + SLOTS * tile_slot + wildlife_slot for tile_slot, wildlife_slot in game.legal_takes()]
    return actions


def _slot_bits(slots: tuple[int, ...]) -> int:
    """The bits of a ``NatureWipe`` action: bit ``s`` set for each slot ``s``."""
    return sum(1 << s for s in slots)


NATURE_WIPES: Final[dict[tuple[int, ...], int]] = {
    slots: NATURE_WIPE + _slot_bits(slots) - 1
    for size in range(1, SLOTS + 1)
    for slots in combinations(range(SLOTS), size)
}
"""The ``NatureWipe`` action of each set of slots, as :meth:`Game.legal_nature_wipes` lists
them (in slot order)."""


def mask_of(actions: list[int]) -> npt.NDArray[np.int8]:
    """``ACTION_COUNT`` entries, 1 for exactly ``actions`` (a new array). ``int8`` rather
    than ``bool``, as PettingZoo and Gymnasium spaces expect."""
    return _kept_mask(tuple(actions)).copy()


@lru_cache(maxsize=256)
def _kept_mask(actions: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """The mask of ``actions``, kept (read-only) for the sets of actions that come back
    turn after turn before the take (the same takes, wipes and nature-token actions):
    copying it is cheaper than marking a new one."""
    found = np.zeros(ACTION_COUNT, dtype=MASK_DTYPE)
    found[np.array(actions, dtype=np.intp)] = 1
    found.flags.writeable = False
    return found


def mask(game: Game) -> npt.NDArray[np.int8]:
    """The mask of the legal actions now (:meth:`Choices.mask`)."""
    return Choices(game).mask()


def execute(game: Game, action: int, legal: Choices) -> Command:
    """Play ``action`` if ``legal`` (the game's current :class:`Choices`) allows it; the
    command played. :class:`IllegalActionError`, the game unchanged, if it does not."""
    command = decode(action)
    if not legal.allows(operator.index(action)):
        raise IllegalActionError(f"{command} (action {action}) is not legal now")
    game.execute(command)
    return command
