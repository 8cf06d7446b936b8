"""Hidden information stays hidden (RULES.md 7.10, ``secret_cards``): every view of a
game, for every seat and for a spectator, before and after each reveal, checked by value.

The games are dealt so that each secret card has a letter no other card has (the dealt
species get B, C, D; the face-up ones A): a hidden card leaks exactly when its letter
shows up, so the tests look for the letter itself, wherever it might appear, not for a
key. Each check also asserts what the viewer must see (its own card, the revealed ones),
so that it can fail both ways.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from cascadia.application.store import GameStore
from cascadia.bots.registry import play_game
from cascadia.domain import events as ev
from cascadia.domain.components import WILDLIFE
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.player_view import EVERYTHING, SPECTATOR, player_view
from cascadia.replays.viewer import render_html

SEED = 0  # random bots: every seat spends a nature token, so every card is revealed
SEAT_LETTERS = "BCD"


def dealt_game(players: int) -> tuple[list[ev.GameEvent], dict[str, str]]:
    """The events of a random-bot game with secret cards, and its card letters."""
    probe = Game.start(SEED, ["random"] * players, GameOptions(cards="A,A,A,A,A", secret_cards=True))
    letters = dict.fromkeys(WILDLIFE, "A")
    for seat, species in enumerate(probe.state.secret_cards):
        letters[species] = SEAT_LETTERS[seat]
    options = GameOptions(cards=",".join(letters[s] for s in WILDLIFE), secret_cards=True)
    game = play_game(SEED, ["random"] * players, options)
    return game.collect_events(), letters


def checkpoints(events: list[ev.GameEvent]) -> list[int]:
    """Event counts to look at: before the first reveal, after each reveal, at the end."""
    reveals = [e.originator_version for e in events if isinstance(e, ev.SecretCardRevealed)]
    return [reveals[0] - 1, *reveals, len(events)]


def expectations(events: list[ev.GameEvent], viewer: int | str) -> tuple[list[int], list[int]]:
    """The seats whose secret card ``viewer`` may see after ``events``, and the others."""
    state = Game.replay(events).state
    seen = [
        seat
        for seat in range(state.player_count)
        if seat == viewer or state.secret_revealed[seat] or state.finished
    ]
    return seen, [seat for seat in range(state.player_count) if seat not in seen]


def strings(value: Any) -> list[str]:
    """Every string in a JSON value, keys and values."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return [value] if isinstance(value, str) else []


def shows_letter(text: str, letter: str) -> bool:
    return re.search(rf"\b{letter}\b", text) is not None


def check_text(text: str, state_events, letters, viewer) -> None:
    state = Game.replay(state_events).state
    seen, hidden = expectations(state_events, viewer)
    for seat in seen:
        species = state.secret_cards[seat]
        assert f"{species} {letters[species]}" in text, f"{species} of seat {seat} should show"
    for seat in hidden:
        species = state.secret_cards[seat]
        assert not shows_letter(text, letters[species]), f"seat {seat}'s card letter leaked"
        assert f"secret card {species}" not in text
    assert "seed" not in text


def check_json(data: Any, state_events, letters, viewer) -> None:
    state = Game.replay(state_events).state
    seen, hidden = expectations(state_events, viewer)
    values = strings(data)
    for seat in seen:
        assert letters[state.secret_cards[seat]] in values
    for seat in hidden:
        assert letters[state.secret_cards[seat]] not in values, f"seat {seat}'s card letter leaked"
    if "secret_cards" in data:
        assert [data["secret_cards"][seat] is None for seat in range(state.player_count)] == [
            seat in hidden for seat in range(state.player_count)
        ]
    assert "seed" not in data and state.seed not in [data.get("draw_position")]


# -- the function itself ---------------------------------------------------------------------


def test_the_player_view_is_plain_json_data_and_hides_what_it_says():
    events, letters = dealt_game(2)
    before = checkpoints(events)[0]
    state = Game.replay(events[:before]).state
    for viewer in (0, 1, SPECTATOR):
        view = player_view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        assert "seed" not in view and "draw_position" not in view
        check_json(view, events[:before], letters, viewer)
        hidden = [s for seat, s in enumerate(state.secret_cards) if seat != viewer]
        for species in hidden:
            assert view["cards"][species] is None
            assert all(p["wildlife"][species] is None for p in view["scores"]["players"])
            assert all(p["total"] is None for p in view["scores"]["players"])
    full = player_view(state, EVERYTHING)
    assert full["seed"] == SEED and full["secret_cards"] == state.secret_cards
    assert full["cards"] == state.cards and all(p["total"] is not None for p in full["scores"]["players"])


@pytest.mark.parametrize("viewer", [-1, 2, "1", True, "referee"])
def test_a_viewer_is_a_seat_or_a_spectator(viewer):
    state = Game.start(1, 2).state
    with pytest.raises(InvalidOptionError):
        player_view(state, viewer)


def test_without_secret_cards_nothing_but_the_seed_is_hidden():
    state = play_game(3, ["random", "random"], GameOptions(cards="A,B,C,D,A")).state
    view = player_view(state, 0)
    assert view["cards"] == state.cards and view["secret_cards"] == []
    full = player_view(state, EVERYTHING)
    assert {k: v for k, v in full.items() if k not in ("seed", "draw_position", "viewer")} == {
        k: v for k, v in view.items() if k != "viewer"
    }


# -- every view, every seat, before and after each reveal ---------------------------------------


def stored(home: Path, events: list[ev.GameEvent]) -> str:
    GameStore(home).save_new_game(events)
    return str(events[0].originator_id)


@pytest.mark.parametrize("players", [2, 3])
def test_show_score_and_board_for_every_seat_before_and_after_each_reveal(cli, tmp_path, players):
    events, letters = dealt_game(players)
    for count in checkpoints(events):
        shown = events[:count]
        home = tmp_path / f"at-{count}"
        game = stored(home, shown)
        for viewer in [*range(players), SPECTATOR]:
            where = ["--as-player", str(viewer), "--home", str(home)]
            code, out, err = cli("show", game, *where, home=False)
            assert code == 0, err
            check_text(out, shown, letters, viewer)
            code, out, err = cli("show", game, *where, "--json", home=False)
            assert code == 0, err
            check_json(json.loads(out), shown, letters, viewer)
            code, out, err = cli("score", game, *where, home=False)
            assert code == 0, err
            check_text(out, shown, letters, viewer)
            code, out, err = cli("score", game, *where, "--json", home=False)
            assert code == 0, err
            check_json(json.loads(out), shown, letters, viewer)
            if viewer == SPECTATOR:
                continue
            svg = tmp_path / "board.svg"
            code, out, err = cli(
                "board", game, "--seat", str(viewer), "-o", str(svg), "--home", str(home), home=False
            )
            assert code == 0, err
            _, hidden = expectations(shown, viewer)
            assert ("points" in svg.read_text()) == (not hidden)


def html_strings(page: str) -> list[str]:
    """The text of an HTML viewer page that comes from the game: the embedded data and
    the header facts (the rest is the page's own markup, style and script)."""
    data = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert data is not None
    facts = re.findall(r'<div class="facts">(.*?)</div>', page, re.S)
    return strings(json.loads(data.group(1))) + facts


@pytest.mark.parametrize("players", [2, 3])
def test_the_html_viewer_for_every_seat_before_and_after_each_reveal(players):
    events, letters = dealt_game(players)
    for count in checkpoints(events):
        shown = events[:count]
        state = Game.replay(shown).state
        for viewer in [*range(players), SPECTATOR]:
            texts = html_strings(render_html(shown, viewer=viewer))
            seen, hidden = expectations(shown, viewer)
            assert not any("seed" in text for text in texts)
            for seat in hidden:
                assert not any(shows_letter(text, letters[state.secret_cards[seat]]) for text in texts)
            for seat in seen:
                species = state.secret_cards[seat]
                assert any(f"{species} {letters[species]}" in text for text in texts)
    everything = html_strings(render_html(events))
    assert any(f"seed {SEED}" in text for text in everything)


def test_the_html_viewer_hides_a_card_in_the_steps_before_its_reveal(cli, tmp_path):
    """A whole game's page for seat 0: the steps before seat 1's reveal do not show seat
    1's card, the steps after do (through ``cascadia view --as-player``)."""
    events, letters = dealt_game(2)
    home = tmp_path / "home"
    game = stored(home, events)
    code, _, err = cli("export", game, "-o", str(tmp_path / "game.cascadia"), "--home", str(home), home=False)
    assert code == 0, err
    page = tmp_path / "seat0.html"
    code, _, err = cli(
        "view", str(tmp_path / "game.cascadia"), "-o", str(page), "--as-player", "0", home=False
    )
    assert code == 0, err
    data = json.loads(re.search(r'id="game-data">(.*?)</script>', page.read_text(), re.S).group(1))
    other = Game.replay(events).state.secret_cards[1]
    revealed_at = next(
        e.originator_version for e in events if isinstance(e, ev.SecretCardRevealed) and e.player == 1
    )
    pairing = f"{other} {letters[other]}"
    for snapshot in data["snapshots"]:
        assert (pairing in snapshot["cards"]) == (snapshot["version"] >= revealed_at)
    assert "seed" not in data


# -- the play screen (a shared screen: several human seats) ------------------------------------


def test_play_shows_a_seats_secret_card_on_its_own_turn_only(cli, tmp_path, monkeypatch):
    probe = Game.start(SEED, ["ann", "bob"], GameOptions(cards="A,A,A,A,A", secret_cards=True)).state
    letters = dict.fromkeys(WILDLIFE, "A")
    for seat, species in enumerate(probe.secret_cards):
        letters[species] = SEAT_LETTERS[seat]
    cards = ",".join(letters[s] for s in WILDLIFE)
    code, out, err = cli(
        "new",
        "--seat-names",
        "ann,bob",
        "--seed",
        str(SEED),
        "--cards",
        cards,
        "--rule",
        "secret_cards",
        "--json",
    )
    assert code == 0, err
    game_id = json.loads(out)["id"]
    store = GameStore(tmp_path)
    for _ in range(2):  # the first seat's turn, then the other's
        seat = store.game(store.find_game(game_id)).current_player
        other = 1 - seat
        monkeypatch.setattr(sys, "stdin", io.StringIO("cards\nquit\n"))
        code, out, err = cli("play", game_id)
        assert code == 0, err
        own, theirs = probe.secret_cards[seat], probe.secret_cards[other]
        assert f"secret card: {own}" in out and f"{own} {letters[own]}" in out
        assert not shows_letter(out, letters[theirs]) and f"secret card: {theirs}" not in out
        assert f"{theirs} hidden" in out and "seed" not in out
        game = store.game(store.find_game(game_id))  # this seat plays its turn
        game.take(0)
        q, r = game.legal_tile_positions()[0]
        game.place_tile(q, r, 0)
        game.return_wildlife()
        store.save_game(game)
