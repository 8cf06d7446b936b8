"""Game options: card selection, bag, scoring interpretations and rule variants.

Every option is recorded in the game's first event and in its log header, so a
game can always be replayed and audited under the rules it was played with.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from cascadia.domain.components import CARD_LETTERS, VARIANT_CARDS, WILDLIFE
from cascadia.domain.errors import InvalidOptionError, UnknownRulesVersionError

RULES_V1 = "cascadia-rules-1"
"""Overpopulation returns the set-aside tokens to the bag after each single wipe."""
RULES_V2 = "cascadia-rules-2"
"""RULES.md 4.1-4.2 as the rulebook says: the set-aside tokens go back to the bag only
when the overpopulation is resolved."""
RULES_VERSIONS: tuple[str, ...] = (RULES_V1, RULES_V2)
"""Every rules version this engine plays, audits and replays: logs are forever, so a
game keeps the version it was recorded under."""
RULES_VERSION = RULES_V2
"""The rules version of new games; stored with every game."""

RESTRICTIONS: tuple[str, ...] = (
    "must_match",
    "must_not_match",
    "corridors_of_three",
    "corridors_min_five",
    "market_of_three",
    "two_card_sets",
    "no_starter",
    "nature_cost_two",
    "no_token_on_new_tile",
    "secret_cards",
)
"""The ten rule-restriction options of RULES.md section 7, in its order."""


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The options a game is played under (RULES.md sections 3, 5 and 7).

    ``cards``: ``random`` (one card per species drawn from A-D), ``all-a``, ``family``,
    ``intermediate``, or five letters for bear, elk, salmon, hawk, fox such as
    ``A,B,C,D,A``.
    """

    cards: str = "random"
    balanced_bag: bool = False
    salmon_runs: str = "strict"
    elk_rings: str = "arc"
    majority_bonus: bool = True
    # The rule-restriction options of RULES.md section 7.
    must_match: bool = False
    must_not_match: bool = False
    corridors_of_three: bool = False
    corridors_min_five: bool = False
    market_of_three: bool = False
    two_card_sets: bool = False
    no_starter: bool = False
    nature_cost_two: bool = False
    no_token_on_new_tile: bool = False
    secret_cards: bool = False
    achievement_mode: str | None = None
    """RULES.md 8.1: the mode a game is played for on an achievement map, named before
    it starts: ``standard`` or the name of the one rule restriction in play (``None``:
    not played for achievements)."""

    def __post_init__(self) -> None:
        choice = parse_card_choice(self.cards)
        if self.must_match and self.must_not_match:
            raise InvalidOptionError("must_match and must_not_match exclude each other")
        if self.corridors_of_three and self.corridors_min_five:
            raise InvalidOptionError("corridors_of_three and corridors_min_five exclude each other")
        if self.two_card_sets and (choice is not None and choice["bear"] in VARIANT_CARDS):
            raise InvalidOptionError("two_card_sets needs lettered cards, not a variant card")
        if self.salmon_runs not in ("strict", "lenient"):
            raise InvalidOptionError(f"salmon_runs must be 'strict' or 'lenient', not {self.salmon_runs!r}")
        if self.elk_rings not in ("arc", "any-subset"):
            raise InvalidOptionError(f"elk_rings must be 'arc' or 'any-subset', not {self.elk_rings!r}")
        if self.achievement_mode is not None:
            self._check_achievement_mode(choice)

    def _check_achievement_mode(self, choice: dict[str, str] | None) -> None:
        """RULES.md 8.1: a standard game has standard rules; a rule-restriction game has
        exactly the one restriction it is played for; both use lettered cards."""
        mode = self.achievement_mode
        restrictions = [name for name in RESTRICTIONS if getattr(self, name)]
        if mode != "standard" and mode not in RESTRICTIONS:
            raise InvalidOptionError(
                f"achievement_mode is 'standard' or a rule restriction "
                f"({', '.join(RESTRICTIONS)}), not {mode!r}"
            )
        if choice is not None and choice["bear"] in VARIANT_CARDS:
            raise InvalidOptionError(
                f"a game for achievements uses lettered cards, not {self.cards!r} (RULES.md 8)"
            )
        expected = [] if mode == "standard" else [mode]
        if restrictions != expected:
            in_play = ", ".join(restrictions) or "none"
            raise InvalidOptionError(
                f"a {mode} game for achievements has "
                f"{'no rule restriction' if mode == 'standard' else 'exactly the restriction ' + str(mode)} "
                f"(RULES.md 8.1); in play: {in_play}"
            )

    @property
    def market_size(self) -> int:
        """RULES.md 7.5: three pairs with ``market_of_three``, else four."""
        return 3 if self.market_of_three else 4

    @property
    def nature_cost(self) -> int:
        """RULES.md 7.8: each nature-token action costs 2 with ``nature_cost_two``, else 1."""
        return 2 if self.nature_cost_two else 1

    def to_dict(self) -> dict[str, Any]:
        """Every option, except ``achievement_mode`` when unset: it came after the first
        logs were written, and their options (and bytes) stay as they were."""
        data = self._fields()
        if data["achievement_mode"] is None:
            del data["achievement_mode"]
        return data

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults."""
        default = GameOptions()
        return {k: v for k, v in self._fields().items() if getattr(default, k) != v}

    def _fields(self) -> dict[str, Any]:
        """Every field by name, in declaration order: ``dataclasses.asdict`` without its
        deep copies (every option is a string, a boolean or ``None``)."""
        return {name: getattr(self, name) for name in _OPTION_NAMES}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameOptions:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptionError(f"unknown game option(s): {', '.join(unknown)}")
        return cls(**data)


_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(GameOptions))


def check_rules_version(version: object) -> str:
    """``version`` if this engine implements it, else :class:`UnknownRulesVersionError`."""
    if version not in RULES_VERSIONS:
        raise UnknownRulesVersionError(
            f"unknown rules version {version!r}; this engine implements {', '.join(RULES_VERSIONS)}"
        )
    return str(version)


def parse_card_choice(cards: str) -> dict[str, str] | None:
    """The fixed card per species that ``cards`` names, or ``None`` when drawn at random.

    Raises :class:`InvalidOptionError` for anything that is not a card choice.
    """
    choice = cards.strip().lower()
    if choice == "random":
        return None
    if choice == "all-a":
        return dict.fromkeys(WILDLIFE, "A")
    if choice in VARIANT_CARDS:
        return dict.fromkeys(WILDLIFE, choice)
    letters = [part.strip().upper() for part in cards.split(",")]
    if len(letters) != len(WILDLIFE) or any(letter not in CARD_LETTERS for letter in letters):
        raise InvalidOptionError(
            f"cards must be random, all-a, family, intermediate or five letters A-D for "
            f"bear, elk, salmon, hawk, fox (e.g. A,B,C,D,A), not {cards!r}"
        )
    return dict(zip(WILDLIFE, letters, strict=True))
