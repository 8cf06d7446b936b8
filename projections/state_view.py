"""A game's state as plain data (for ``--json`` output and other tools)."""

from __future__ import annotations

from typing import Any

from cascadia.domain.environment import Environment
from cascadia.domain.state import GameState, tile_counts, wildlife_counts


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


def visible_secret_cards(state: GameState, viewer: int | None) -> list[str | None]:
    """RULES.md 7.10: each seat's secret card as ``viewer`` sees it: its own, and the
    others' once revealed (``None`` while hidden). ``viewer=None`` sees everything."""
    return [
        card if viewer is None or seat == viewer or state.secret_revealed[seat] else None
        for seat, card in enumerate(state.secret_cards)
    ]


def state_view(state: GameState, viewer: int | None = None) -> dict[str, Any]:
    """The state of a game after its last applied event, as seat ``viewer`` may see it
    (``None``: everything the log holds)."""
    ts = state.turn_state
    return {
        "game_id": str(state.game_id),
        "seed": state.seed,
        "rules_version": state.rules_version,
        "options": state.options.to_dict(),
        "cards": state.cards,
        "second_cards": state.second_cards,
        "secret_cards": visible_secret_cards(state, viewer),
        "version": state.version,
        "turn": state.turn,
        "finished": state.finished,
        "first_player": state.first_player,
        "current_player": state.current,
        "draw_position": state.draw_position,
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
                "environment": environment_view(player.environment),
            }
            for seat, player in enumerate(state.players)
        ],
        "tiles": tile_counts(state),
        "wildlife": wildlife_counts(state),
    }
