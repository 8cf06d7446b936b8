"""The player view: what one viewer may see of a game, as plain data.

:func:`player_view` is the one place that decides what is hidden from whom. Every view of
a game state uses it: ``show`` (text and ``--json``), ``score``, the ``play`` screen and
its ``cards`` command, the HTML replay viewer and the SVG boards when given a seat; a
server can hand its dict straight to an API or a stream (plain lists, dicts, strings,
numbers and ``None``, ready for JSON).

A viewer is a seat (``0`` .. ``players - 1``), :data:`SPECTATOR` (someone watching, who
holds no card), or :data:`EVERYTHING` (the referee's view: all that the game's log holds,
for the owner of the event store and the replay tools). A seat or a spectator sees:

- no ``seed`` and no ``draw_position``: with the seed every draw of the game, the other
  seats' secret cards included, could be worked out in advance;
- RULES.md 7.10 (``secret_cards``): its own secret card, and the other seats' only once
  revealed (their first nature-token spend) or once the game is over (the final scoring
  shows every card). Until then the species of another seat's card is ``None`` in
  ``secret_cards``, and the letter of that species' card is ``None`` in ``cards`` and
  ``second_cards`` (and ``?`` in a card choice such as ``B,C,A,A,A`` in ``options``);
  the running scores of that species, and the totals, ranks and card sets that depend
  on it, are ``None`` in ``scores``;
- already hidden from everyone, because the state does not hold them: the order of the
  tile stack (only its size is known) and the order of the tokens in the bag (only how
  many of each species it holds, which anyone can count from what is on the table).
"""

from __future__ import annotations

from typing import Any, Final

from cascadia.domain.components import WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.state import GameState, tile_counts, wildlife_counts
from cascadia.projections.game_scores import score_state
from cascadia.projections.scoresheet import named_sheet
from cascadia.projections.turns import game_round

SPECTATOR: Final = "spectator"
"""A viewer who holds no seat: sees what every seat sees, and no secret card."""
EVERYTHING: Final = None
"""The referee's view: everything the game's log holds."""

Viewer = int | str | None
"""A seat number, :data:`SPECTATOR` or :data:`EVERYTHING`."""

_HIDDEN_TOTALS = ("wildlife_total", "total", "rank", "won", "leading", "card_set")


def check_viewer(state: GameState, viewer: Viewer) -> Viewer:
    """``viewer`` if it is one of ``state``'s seats, :data:`SPECTATOR` or
    :data:`EVERYTHING`; else :class:`InvalidOptionError`."""
    if viewer is EVERYTHING or viewer == SPECTATOR:
        return viewer
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < state.player_count:
        raise InvalidOptionError(
            f"a viewer is a seat from 0 to {state.player_count - 1} or {SPECTATOR!r}, not {viewer!r}"
        )
    return viewer


def hidden_species(state: GameState, viewer: Viewer) -> list[str]:
    """The species whose scoring card ``viewer`` may not see (RULES.md 7.10): the secret
    cards of the other seats, not yet revealed, while the game goes on."""
    check_viewer(state, viewer)
    if viewer is EVERYTHING or state.finished or not state.secret_cards:
        return []
    return [
        species
        for seat, species in enumerate(state.secret_cards)
        if seat != viewer and not state.secret_revealed[seat]
    ]


def environment_view(environment: Environment) -> list[dict[str, Any]]:
    """Each placed tile: position, tile id, rotation and token (or ``None``), sorted."""
    return [
        {
            "q": q,
            "r": r,
            "tile": tile,
            "rotation": rotation,
            "wildlife": environment.wildlife.get((q, r)),
        }
        for (q, r), (tile, rotation) in sorted(environment.tiles.items())
    ]


def player_view(
    state: GameState, viewer: Viewer, *, scores: bool = True, environments: bool = True
) -> dict[str, Any]:
    """The game after its last applied event as ``viewer`` may see it (see the module
    docstring for what is hidden), with the running (or final) score sheet (``None``
    with ``scores=False``, for a caller that does not show it and would rather not pay
    for scoring every board) and each player's ``environment`` (:func:`environment_view`;
    ``None`` with ``environments=False``, for a caller that keeps them)."""
    hidden = set(hidden_species(state, viewer))
    options = _options(state, hidden)
    ts = state.turn_state
    view: dict[str, Any] = {
        "viewer": viewer,
        "game_id": str(state.game_id),
        "rules_version": state.rules_version,
        "options": options,
        "cards": _masked(state.cards, hidden),
        "second_cards": _masked(state.second_cards, hidden) if state.second_cards else None,
        "secret_cards": [None if species in hidden else species for species in state.secret_cards],
        "version": state.version,
        "turn": state.turn,
        "round": game_round(state).to_dict(),
        "finished": state.finished,
        "first_player": state.first_player,
        "current_player": state.current,
        "stack_size": state.stack_size,
        "market": [
            {"slot": slot, "tile": tile, "wildlife": token}
            for slot, (tile, token) in enumerate(zip(state.market_tiles, state.market_wildlife, strict=True))
        ],
        "bag": state.bag_counts(),
        "turn_state": {
            "three_wipe_used": ts.three_wipe_used,
            "free_choice": ts.free_choice,
            "taken_tile": ts.taken_tile,
            "taken_wildlife": ts.taken_wildlife,
            "tile_placed_at": list(ts.tile_hex) if ts.tile_hex else None,
            "wildlife_done": ts.wildlife_done,
        },
        "players": [
            {
                "seat": seat,
                "name": player.name,
                "starter": player.starter,
                "nature_tokens": player.nature_tokens,
                "nature_earned": player.nature_earned,
                "nature_spent": player.nature_spent,
                "environment": environment_view(player.environment) if environments else None,
            }
            for seat, player in enumerate(state.players)
        ],
        "tiles": tile_counts(state),
        "wildlife": wildlife_counts(state),
        "scores": _scores(state, hidden, options) if scores else None,
    }
    if viewer is EVERYTHING:
        view["seed"] = state.seed
        view["draw_position"] = state.draw_position
    return view


def _options(state: GameState, hidden: set[str]) -> dict[str, Any]:
    """The game options; a card choice that names the letters of hidden cards (such as
    ``B,C,A,A,A``) shows ``?`` for them."""
    options = state.options.to_dict()
    if hidden and "," in options["cards"]:
        options["cards"] = ",".join(_masked(state.cards, hidden)[species] or "?" for species in WILDLIFE)
    return options


def _masked(cards: dict[str, str], hidden: set[str]) -> dict[str, str | None]:
    return {species: None if species in hidden else card for species, card in cards.items()}


def scores_view(state: GameState, viewer: Viewer, options: dict[str, Any]) -> dict[str, Any]:
    """The ``scores`` of ``player_view(state, viewer)``, given its ``options``: for a
    caller that built the view with ``scores=False`` and keeps the score sheet's text."""
    return _scores(state, set(hidden_species(state, viewer)), options)


def _scores(state: GameState, hidden: set[str], options: dict[str, Any]) -> dict[str, Any]:
    """The score sheet (:func:`named_sheet`) without what depends on a hidden card, its
    ``options`` the viewer's (:func:`_options`)."""
    sheet = named_sheet(score_state(state), state.names)
    sheet["options"] = options
    if not hidden:
        return sheet
    sheet["cards"] = _masked(sheet["cards"], hidden)
    if sheet["second_cards"] is not None:
        sheet["second_cards"] = _masked(sheet["second_cards"], hidden)
    for player in sheet["players"]:
        player["wildlife"] = _masked(player["wildlife"], hidden)
        player.update(dict.fromkeys(_HIDDEN_TOTALS))
    sheet["winners"] = None
    sheet["solo_rating"] = None
    return sheet
