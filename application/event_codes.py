"""The short codes of stored event types: the compact event store's explicit, versioned table.

The compact store (:mod:`cascadia.application.compact_recorder`) writes an event as its
code and its field values instead of its topic (``cascadia.domain.events:TilePlaced``)
and a map of field names to values. A code stands for a topic *and* the field names
of that event type, in the order its values are stored.

Rules, so that every row ever written stays readable:

- a code is never reused, and its topic and fields never change;
- a new event type gets the next free code;
- an event type whose fields change (added, removed, renamed, reordered) gets a new
  code with the new fields; its old code stays in the table, for the rows written with
  it (the mapper then sees the old state, as it would from any other store);
- each such change raises :data:`CODES_VERSION`.

An event whose type has no code here, or whose state does not match its code's fields,
is still stored: with its full topic and its state bytes as the transcoder made them
(see :mod:`cascadia.application.compact_codec`). ``tests/test_compact_store.py``
checks that every event type of the project has a code whose fields are its own.
"""

from __future__ import annotations

from dataclasses import dataclass

CODES_VERSION = 3
"""The version of :data:`EVENT_CODES`: raised whenever a code is added."""


@dataclass(frozen=True)
class EventCode:
    """One stored event type: its code, its topic, and its state's keys in stored order."""

    code: int
    topic: str
    fields: tuple[str, ...]


_GAME = "cascadia.domain.events:"
_MAP = "cascadia.domain.achievement_map:"
_SERVER = "cascadia.server.store:"

EVENT_CODES: tuple[EventCode, ...] = (
    # version 1: the game's events (domain/events.py)
    EventCode(1, _GAME + "GameStarted", ("seed", "players", "names", "options", "rules_version", "bots")),
    EventCode(2, _GAME + "TileStackPrepared", ("size",)),
    EventCode(3, _GAME + "ScoringCardsDrawn", ("cards", "second_cards")),
    EventCode(4, _GAME + "StarterTilesDealt", ("starters",)),
    EventCode(5, _GAME + "OpeningTilesDealt", ("tiles",)),
    EventCode(6, _GAME + "SecretCardsDealt", ("species",)),
    EventCode(7, _GAME + "SecretCardRevealed", ("player", "species")),
    EventCode(8, _GAME + "FirstPlayerChosen", ("seat",)),
    EventCode(9, _GAME + "MarketRefilled", ("fills",)),
    EventCode(
        10,
        _GAME + "OverpopulationWiped",
        ("player", "slots", "set_aside", "drawn", "mandatory", "unbreakable"),
    ),
    EventCode(11, _GAME + "NatureTokenSpent", ("player", "action", "cost")),
    EventCode(12, _GAME + "WildlifeReplaced", ("player", "slots", "set_aside", "drawn")),
    EventCode(13, _GAME + "PairTaken", ("player", "tile_slot", "wildlife_slot", "tile", "wildlife")),
    EventCode(14, _GAME + "TilePlaced", ("player", "tile", "q", "r", "rotation")),
    EventCode(15, _GAME + "WildlifePlaced", ("player", "wildlife", "q", "r")),
    EventCode(16, _GAME + "NatureTokenEarned", ("player", "q", "r")),
    EventCode(17, _GAME + "WildlifeReturned", ("player", "wildlife")),
    EventCode(18, _GAME + "SoloPairDiscarded", ("tile_slot", "tile", "wildlife_slot", "wildlife")),
    EventCode(19, _GAME + "TurnEnded", ("player", "turn")),
    EventCode(20, _GAME + "GameEnded", ("turns",)),
    # version 1: the achievement map's events (domain/achievement_map.py)
    EventCode(32, _MAP + "MapCreated", ("name",)),
    EventCode(33, _MAP + "PlayerJoined", ("player", "path")),
    EventCode(34, _MAP + "AchievementMarked", ("player", "achievement", "game_id", "mode", "cell")),
    EventCode(35, _MAP + "GameRecorded", ("game_id", "mode", "seated")),
    # version 1: the server's records (server/store.py)
    EventCode(
        48, _SERVER + "ServerGameOpened", ("game_id", "kinds", "token_hashes", "commitment", "salt", "map_id")
    ),
    EventCode(49, _SERVER + "StreamTicketUsed", ("game_id", "seat")),
    # version 2: the creator's token digest; a seat's link re-issued (issue 24)
    EventCode(
        50,
        _SERVER + "ServerGameOpened",
        ("game_id", "kinds", "token_hashes", "commitment", "salt", "map_id", "creator_hash"),
    ),
    EventCode(51, _SERVER + "SeatLinkReplaced", ("game_id", "seat", "token_hash")),
    # version 3: the turn time limit; a seat handed to a bot (issue 24)
    EventCode(
        52,
        _SERVER + "ServerGameOpened",
        ("game_id", "kinds", "token_hashes", "commitment", "salt", "map_id", "creator_hash", "turn_seconds"),
    ),
    EventCode(53, _SERVER + "SeatHandedToBot", ("game_id", "seat", "bot", "reason")),
)
"""Every code ever given (game events 1-31, map events 32-47, server records 48-63)."""

BY_CODE: dict[int, EventCode] = {entry.code: entry for entry in EVENT_CODES}
CURRENT: dict[str, EventCode] = {entry.topic: entry for entry in EVENT_CODES}
"""The code new events of each topic are written with (the last one given to it)."""
