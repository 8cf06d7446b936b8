"""Game options: card selection, bag, scoring interpretations and rule variants.

Every option is recorded in the game's first event and in its log header, so a
game can always be replayed and audited under the rules it was played with.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from cascadia.domain.components import CARD_LETTERS, VARIANT_CARDS, WILDLIFE
from cascadia.domain.errors import InvalidOptionError

RULES_VERSION = "cascadia-rules-1"
"""The version of RULES.md this engine implements; stored with every game."""

CARD_MODES = ("random", "all-a", "family", "intermediate", "explicit")


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

    def __post_init__(self) -> None:
        parse_card_choice(self.cards)
        if self.salmon_runs not in ("strict", "lenient"):
            raise InvalidOptionError(f"salmon_runs must be 'strict' or 'lenient', not {self.salmon_runs!r}")
        if self.elk_rings not in ("arc", "any-subset"):
            raise InvalidOptionError(f"elk_rings must be 'arc' or 'any-subset', not {self.elk_rings!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameOptions:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptionError(f"unknown game option(s): {', '.join(unknown)}")
        return cls(**data)


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
