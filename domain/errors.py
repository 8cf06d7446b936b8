"""Typed errors. Every illegal command raises a subclass of :class:`IllegalMoveError`
with a message that names the rule and, where there is one, the hex; the game is
left exactly as it was."""

from __future__ import annotations


class CascadiaError(Exception):
    """Base class of every error this project raises on purpose."""


class InvalidOptionError(CascadiaError, ValueError):
    """A game option or setup parameter that the rules do not allow."""


class UnknownRulesVersionError(InvalidOptionError):
    """A game (or log) recorded under a rules version this engine does not implement."""


class IllegalMoveError(CascadiaError):
    """A command that the rules do not allow in the current state."""

    rule = "RULES.md 4"


class GameOverError(IllegalMoveError):
    """The game has ended; no more commands are accepted."""

    rule = "RULES.md 4.5"


class OutOfOrderError(IllegalMoveError):
    """A command given at the wrong point of a turn (e.g. placing before taking)."""

    rule = "RULES.md 4"


class OverpopulationError(IllegalMoveError):
    """An optional three-of-a-kind wipe that is not available."""

    rule = "RULES.md 4.1"


class NatureTokenError(IllegalMoveError):
    """A nature-token action the player cannot take."""

    rule = "RULES.md 4.2"


class MarketChoiceError(IllegalMoveError):
    """A market slot choice that is not allowed (bad slot, or not a pair without free choice)."""

    rule = "RULES.md 4.3"


class TilePlacementError(IllegalMoveError):
    """A habitat tile placed where it may not go."""

    rule = "RULES.md 4.3"


class WildlifePlacementError(IllegalMoveError):
    """A wildlife token placed where it may not go."""

    rule = "RULES.md 4.3"


class CommandFormatError(CascadiaError, ValueError):
    """A command that cannot be read: a malformed plain-data form (missing or extra
    keys, a wrong type, an unknown command type) or text that is not the move notation."""
