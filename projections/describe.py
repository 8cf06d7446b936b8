"""Events in words: one sentence per event, players by name.

The one describer of events: the HTML replay viewer shows a turn's events with it and
``cascadia play`` says what each command did (:func:`describe_moves`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cascadia.domain import events as ev
from cascadia.domain.components import TILES, article
from cascadia.projections.render import render_cards
from cascadia.projections.turns import round_of_turn


def tile_text(tile_id: int) -> str:
    """A tile in words: ``#34 mountain/prairie (elk, hawk)``; keystones say so."""
    tile = TILES[tile_id]
    kind = f"{tile.habitats[0]} keystone" if tile.keystone else "/".join(tile.habitats)
    return f"#{tile_id} {kind} ({', '.join(tile.wildlife)})"


SECOND_PERSON = "you"
"""A seat named ``you`` (``cascadia new``'s default human) is spoken to: "you play
first", "your board", not "you plays first", "you's board"."""


def seat_name(names: Sequence[str], seat: int) -> str:
    """How a seat is named in a sentence: its name, with its seat number when another
    seat has the same name (``greedy (seat 1)``); ``seat N`` when it has none."""
    if not 0 <= seat < len(names):
        return f"seat {seat}"
    name = names[seat]
    return f"{name} (seat {seat})" if names.count(name) > 1 else name


def is_addressed(names: Sequence[str], seat: int) -> bool:
    """Whether the seat is spoken to in the second person (its name is ``you``, and no
    other seat has that name)."""
    return 0 <= seat < len(names) and names[seat] == SECOND_PERSON and names.count(SECOND_PERSON) == 1


def subject(names: Sequence[str], seat: int, third: str, second: str) -> str:
    """The seat and a verb that agrees with it: ``ann has``, ``you have``."""
    return f"{seat_name(names, seat)} {second if is_addressed(names, seat) else third}"


def possessive(names: Sequence[str], seat: int) -> str:
    """``ann's``, ``greedy (seat 1)'s``, or ``your``."""
    return "your" if is_addressed(names, seat) else f"{seat_name(names, seat)}'s"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _slot_list(slots: Sequence[int]) -> str:
    """``slot 2`` or ``slots 0, 1, 3``."""
    return ("slot " if len(slots) == 1 else "slots ") + ", ".join(str(s) for s in slots)


def describe_event(
    event: ev.GameEvent,
    names: Sequence[str],
    view: Mapping[str, Any] | None = None,
    rounds: int | None = None,
) -> str:
    """One event as a sentence, players by name; given a player ``view`` of the game
    (:func:`~cascadia.projections.player_view.player_view`, or the parts of one it reads:
    ``seed``, ``cards`` and ``second_cards``), as its viewer may read it: the seed and the
    cards it may not see left out. Given the game's number of ``rounds``
    (:func:`~cascadia.projections.turns.game_round`), a turn's end says "round k of n"."""

    def who(seat: int) -> str:
        return seat_name(names, seat)

    e: Any = event
    if isinstance(event, ev.GameStarted):
        seed = f" with seed {e.seed}" if view is None or "seed" in view else ""
        bots = e.bots or [None] * len(e.names)
        seats = [
            name if bot is None else f"{name} (bot v{bot['version']})"
            for name, bot in zip(e.names, bots, strict=True)
        ]
        return f"Game started{seed}: {', '.join(seats)}."
    if isinstance(event, ev.TileStackPrepared):
        return f"The stack holds {e.size} tiles."
    if isinstance(event, ev.ScoringCardsDrawn):
        cards, second = (e.cards, e.second_cards) if view is None else (view["cards"], view["second_cards"])
        text = f"Scoring cards: {render_cards(cards)}."
        if second:
            text += f" Second set: {render_cards(second)}."
        return text
    if isinstance(event, ev.StarterTilesDealt):
        return "Starter tiles: " + ", ".join(f"{who(i)} #{s}" for i, s in enumerate(e.starters)) + "."
    if isinstance(event, ev.OpeningTilesDealt):
        return (
            "Opening tiles: "
            + "; ".join(
                f"{who(i)} {' and '.join(tile_text(t) for t in tiles)}" for i, tiles in enumerate(e.tiles)
            )
            + "."
        )
    if isinstance(event, ev.SecretCardsDealt):
        return f"Secret cards dealt face down ({plural(len(e.species), 'player')}, one each)."
    if isinstance(event, ev.SecretCardRevealed):
        whose = "your" if is_addressed(names, e.player) else "their"
        return f"{who(e.player)} revealed {whose} secret card: {e.species}."
    if isinstance(event, ev.FirstPlayerChosen):
        return f"{subject(names, e.seat, 'plays', 'play')} first."
    if isinstance(event, ev.MarketRefilled):
        fills = [
            f"slot {slot}: "
            + " + ".join(
                part for part in (tile_text(tile) if tile is not None else "", wildlife or "") if part
            )
            for slot, tile, wildlife in e.fills
        ]
        return "Market refilled: " + ("; ".join(fills) if fills else "nothing to fill") + "."
    if isinstance(event, ev.OverpopulationWiped):
        if e.mandatory:
            what = f"Overpopulation: four {e.set_aside[0]} in the market, all wiped"
        else:
            what = f"{who(e.player)} wiped three {e.set_aside[0]} ({_slot_list(e.slots)})"
        text = f"{what}; drawn: {', '.join(e.drawn)}."
        return text + (" The bag cannot break it; no further wipe." if e.unbreakable else "")
    if isinstance(event, ev.NatureTokenSpent):
        action = "free choice of tile and token" if e.action == "free_choice" else "a wipe of market tokens"
        return f"{who(e.player)} spent {plural(e.cost, 'nature token')} on {action}."
    if isinstance(event, ev.WildlifeReplaced):
        return (
            f"{who(e.player)} wiped {_slot_list(e.slots)}: {', '.join(e.set_aside)} set aside, "
            f"{', '.join(e.drawn)} drawn."
        )
    if isinstance(event, ev.PairTaken):
        where = (
            f"slot {e.tile_slot}"
            if e.tile_slot == e.wildlife_slot
            else (f"slots {e.tile_slot} and {e.wildlife_slot}")
        )
        return f"{who(e.player)} took tile {tile_text(e.tile)} and {article(e.wildlife)} from {where}."
    if isinstance(event, ev.TilePlaced):
        turn = "" if TILES[e.tile].keystone else f", rotation {e.rotation}"
        return f"{who(e.player)} placed tile #{e.tile} at ({e.q}, {e.r}){turn}."
    if isinstance(event, ev.WildlifePlaced):
        return f"{who(e.player)} placed the {e.wildlife} at ({e.q}, {e.r})."
    if isinstance(event, ev.NatureTokenEarned):
        return f"{who(e.player)} earned a nature token (keystone at ({e.q}, {e.r}))."
    if isinstance(event, ev.WildlifeReturned):
        return f"{who(e.player)} returned the {e.wildlife} to the bag."
    if isinstance(event, ev.SoloPairDiscarded):
        return (
            f"Solo: tile {tile_text(e.tile)} (slot {e.tile_slot}) and the {e.wildlife} "
            f"(slot {e.wildlife_slot}) leave the game."
        )
    if isinstance(event, ev.TurnEnded):
        of = "" if rounds is None else f" of {rounds}"
        return f"End of {possessive(names, e.player)} turn, round {round_of_turn(e.turn, len(names))}{of}."
    if isinstance(event, ev.GameEnded):
        rounds = plural(round_of_turn(e.turns, len(names)), "round")
        return f"Game over after {rounds}: the stack cannot refill the market."
    return f"{event.type}."  # pragma: no cover - every event type is named above


_QUIET = (ev.MarketRefilled, ev.TurnEnded)


def describe_moves(events: Iterable[ev.GameEvent], names: Sequence[str]) -> list[str]:
    """The sentences of the events a command emitted, leaving out refills and turn ends
    (the next market and the next prompt show them)."""
    return [describe_event(e, names) for e in events if not isinstance(e, _QUIET)]
