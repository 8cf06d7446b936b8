"""The domain events of a game. Every state change is one of these, appended in order.

Payloads are plain data (ints, strings, booleans, lists, dicts, ``None``) so that they
encode the same way in msgpack, JSON and the event store; lists are used where a tuple
might be expected because msgpack returns lists. No wall-clock time is recorded: the
canonical form of an event is its type name and payload, and it is the same on every
machine for the same seed and decisions.

Draw events (``ScoringCardsDrawn``, ``StarterTilesDealt``, ``FirstPlayerChosen``,
``MarketRefilled``, ``OverpopulationWiped``, ``WildlifeReplaced``) carry the drawn
outcome, so replay never calls the random generator; each outcome advances the game's
draw position by one, which lets an audit re-derive every draw from the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar
from uuid import UUID


@dataclass(frozen=True)
class DomainEvent:
    """Base of every aggregate's events: which aggregate (``originator_id``) and the
    event's position in it; its type is its class name and its payload its own fields."""

    originator_id: UUID
    originator_version: int

    @property
    def type(self) -> str:
        return type(self).__name__

    def payload(self) -> dict[str, Any]:
        """The event's own fields as a plain dict (without id and version), an optional
        field (:data:`OPTIONAL_FIELDS`) left out while it is ``None``."""
        data = dict(vars(self))
        del data["originator_id"], data["originator_version"]
        for name in OPTIONAL_FIELDS.get(self.type, ()):
            if data.get(name) is None:
                data.pop(name, None)
        return data


@dataclass(frozen=True)
class GameEvent(DomainEvent):
    """Base of all game events: which game (``originator_id``) and its position in it."""

    kind: ClassVar[str] = "decision"
    """``setup``, ``draw``, ``decision`` or ``flow``: what produced the event."""


@dataclass(frozen=True)
class GameStarted(GameEvent):
    """A new game: its seed, seats, options and the rules version it is played under."""

    kind: ClassVar[str] = "setup"
    seed: int
    players: int
    names: list[str]
    options: dict[str, Any]
    rules_version: str
    bots: list[dict[str, Any] | None] | None = None
    """Per seat, the bot that plays it (``{"name", "version", "budget"}``: a budget only
    for a bot that takes one) or ``None`` for a person; ``None`` throughout (and left out)
    when no seat is known to be a bot, as in every log written before it was recorded."""


@dataclass(frozen=True)
class TileStackPrepared(GameEvent):
    """RULES.md 3.2: ``20 x players + 3`` tiles (solo: 43) stacked face down.

    Only the size is recorded: the order stays hidden until tiles are revealed.
    """

    kind: ClassVar[str] = "setup"
    size: int


@dataclass(frozen=True)
class ScoringCardsDrawn(GameEvent):
    """RULES.md 3.3: the scoring card for each species (a letter, or a variant card name)."""

    kind: ClassVar[str] = "draw"
    cards: dict[str, str]
    second_cards: dict[str, str] | None = None
    """RULES.md 7.6 (``two_card_sets``): the second set, one other letter per species."""


@dataclass(frozen=True)
class StarterTilesDealt(GameEvent):
    """RULES.md 3.4: the starter tile dealt to each seat, in seat order."""

    kind: ClassVar[str] = "draw"
    starters: list[int]


@dataclass(frozen=True)
class OpeningTilesDealt(GameEvent):
    """RULES.md 7.7 (``no_starter``): instead of a starter tile, two random tiles from
    the stack per seat, placed at ``(0, 0)`` and ``(1, 0)`` with rotation 0."""

    kind: ClassVar[str] = "draw"
    tiles: list[list[int]]


@dataclass(frozen=True)
class SecretCardsDealt(GameEvent):
    """RULES.md 7.10 (``secret_cards``): the species of the card dealt face down to
    each seat (different cards for different seats). The log keeps them; a player's
    view of the state hides the others' until revealed."""

    kind: ClassVar[str] = "draw"
    species: list[str]


@dataclass(frozen=True)
class SecretCardRevealed(GameEvent):
    """RULES.md 7.10: a secret card is revealed when its holder first spends a nature token."""

    kind: ClassVar[str] = "flow"
    player: int
    species: str


@dataclass(frozen=True)
class FirstPlayerChosen(GameEvent):
    """RULES.md 3.6: the seat that plays first; play goes on in seat order."""

    kind: ClassVar[str] = "draw"
    seat: int


@dataclass(frozen=True)
class MarketRefilled(GameEvent):
    """Tiles from the stack and tokens from the bag put into market slots.

    ``fills`` is a list of ``[slot, tile or None, wildlife or None]``, drawn in that
    order (tile before token within a slot, slots in ascending order).
    """

    kind: ClassVar[str] = "draw"
    fills: list[list[Any]]


@dataclass(frozen=True)
class OverpopulationWiped(GameEvent):
    """RULES.md 4.1: tokens in ``slots`` set aside, ``drawn`` put in their place.
    ``mandatory`` for four of a kind, otherwise the active player's optional
    three-of-a-kind wipe. ``unbreakable`` when no wipe could break four of a kind, so the
    repetition stopped. The set-aside tokens go back to the bag at once under rules
    version 1, once the overpopulation is resolved under version 2 (see ``evolve``)."""

    kind: ClassVar[str] = "draw"
    player: int
    slots: list[int]
    set_aside: list[str]
    drawn: list[str]
    mandatory: bool
    unbreakable: bool = False


@dataclass(frozen=True)
class NatureTokenSpent(GameEvent):
    """RULES.md 4.2: a player spent ``cost`` nature tokens on ``action``
    (``free_choice`` or ``wipe``)."""

    player: int
    action: str
    cost: int


@dataclass(frozen=True)
class WildlifeReplaced(GameEvent):
    """RULES.md 4.2, wipe: the chosen market tokens set aside, replacements drawn; the
    set-aside tokens go back to the bag as for :class:`OverpopulationWiped`."""

    kind: ClassVar[str] = "draw"
    player: int
    slots: list[int]
    set_aside: list[str]
    drawn: list[str]


@dataclass(frozen=True)
class PairTaken(GameEvent):
    """RULES.md 4.3: the tile of ``tile_slot`` and the token of ``wildlife_slot``
    (the same slot unless free choice was bought)."""

    player: int
    tile_slot: int
    wildlife_slot: int
    tile: int
    wildlife: str


@dataclass(frozen=True)
class TilePlaced(GameEvent):
    """RULES.md 4.3: the taken tile placed at ``(q, r)`` with ``rotation`` 0..5."""

    player: int
    tile: int
    q: int
    r: int
    rotation: int


@dataclass(frozen=True)
class WildlifePlaced(GameEvent):
    """RULES.md 4.3: the taken token placed on the player's tile at ``(q, r)``."""

    player: int
    wildlife: str
    q: int
    r: int


@dataclass(frozen=True)
class NatureTokenEarned(GameEvent):
    """RULES.md 4.3, keystone reward: a token placed on a keystone tile earns 1."""

    kind: ClassVar[str] = "flow"
    player: int
    q: int
    r: int


@dataclass(frozen=True)
class WildlifeReturned(GameEvent):
    """RULES.md 4.3: the taken token not placed; it goes back into the bag."""

    player: int
    wildlife: str


@dataclass(frozen=True)
class SoloPairDiscarded(GameEvent):
    """RULES.md 4.4, solo: the remaining tile and token farthest from the stack leave
    the game; the rest slide away from the stack to fill the gaps."""

    kind: ClassVar[str] = "flow"
    tile_slot: int
    tile: int
    wildlife_slot: int
    wildlife: str


@dataclass(frozen=True)
class TurnEnded(GameEvent):
    """The end of turn ``turn`` (counted from 1 over all players) of seat ``player``."""

    kind: ClassVar[str] = "flow"
    player: int
    turn: int


@dataclass(frozen=True)
class GameEnded(GameEvent):
    """RULES.md 4.5: the stack could not refill the market; the game is over."""

    kind: ClassVar[str] = "flow"
    turns: int


EVENT_TYPES: dict[str, type[GameEvent]] = {
    cls.__name__: cls
    for cls in (
        GameStarted,
        TileStackPrepared,
        ScoringCardsDrawn,
        StarterTilesDealt,
        OpeningTilesDealt,
        SecretCardsDealt,
        SecretCardRevealed,
        FirstPlayerChosen,
        MarketRefilled,
        OverpopulationWiped,
        NatureTokenSpent,
        WildlifeReplaced,
        PairTaken,
        TilePlaced,
        WildlifePlaced,
        NatureTokenEarned,
        WildlifeReturned,
        SoloPairDiscarded,
        TurnEnded,
        GameEnded,
    )
}
"""Every event class by its type name: the names used in logs and the event store."""

OPTIONAL_FIELDS: dict[str, tuple[str, ...]] = {"GameStarted": ("bots",)}
"""Fields added after the first logs were written: each is the last of its event's
fields, defaults to ``None`` and is left out of a payload (and of a log record) while
``None``, so the events of games without it keep their bytes."""

PAYLOAD_FIELDS: dict[str, tuple[str, ...]] = {
    name: tuple(f.name for f in fields(cls))[2:] for name, cls in EVENT_TYPES.items()
}
"""The payload field names of each event type, in declaration order."""


def make_event(type_name: str, game_id: UUID, version: int, payload: dict[str, Any]) -> GameEvent:
    """Build an event from its type name and payload (as read from a log or a store)."""
    cls = EVENT_TYPES[type_name]
    return cls(game_id, version, **payload)
