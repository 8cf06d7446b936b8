"""How a bot marks the achievement map after a game it won (RULES.md 8.1).

The rule: of the achievements it may mark for the game (met in that game and not marked
before; after a rule-restriction game, that restriction), a bot marks the first in the
order of RULES.md 8's list (scores 80 to 110, no nature tokens left, no bears ... no
foxes, 11 of one species, corridors, habitat points, species points, nature tokens, no
token on a keystone, exactly three species). It always marks when it may: a mark is
never worth less than none.
"""

from __future__ import annotations

from collections.abc import Sequence


def bot_mark(markable: Sequence[str]) -> str | None:
    """The achievement a bot marks of ``markable`` (given in RULES.md 8's order), or
    ``None`` when there is nothing to mark."""
    return markable[0] if markable else None
