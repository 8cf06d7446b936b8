"""SVG boards and the HTML replay viewer: well-formed pictures that show the rules'
geometry, deterministic bytes, one snapshot per turn, escaping, and the commands."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from cascadia.application.store import GameStore
from cascadia.bots.registry import continue_game, make_bots, play_game
from cascadia.domain import events as ev
from cascadia.domain.components import TILES
from cascadia.domain.environment import Environment
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import DIRECTIONS, tile_edges
from cascadia.domain.options import GameOptions
from cascadia.projections.describe import describe_event, seat_name
from cascadia.projections.svg import (
    HABITAT_COLOURS,
    WILDLIFE_COLOURS,
    WILDLIFE_LETTERS,
    environment_svg,
    game_svg,
    hex_center,
    market_svg,
)
from cascadia.replays import viewer
from cascadia.replays.format import LogHeader, write_log
from cascadia.replays.scores import final_score_sheet
from cascadia.replays.viewer import render_html, viewer_data

NS = "{http://www.w3.org/2000/svg}"
XSS = "<script>alert(1)</script>"


@cache
def _events(players: int, seed: int, options: tuple[tuple[str, object], ...]) -> tuple[ev.GameEvent, ...]:
    game = play_game(seed, ["random"] * players, GameOptions(**dict(options)))
    return tuple(game.collect_events())


def events_of(players: int = 4, seed: int = 5, **options: object) -> list[ev.GameEvent]:
    """The events of a finished random-bot game (cached)."""
    return list(_events(players, seed, tuple(sorted(options.items()))))


def write_game_log(path, events: list[ev.GameEvent]) -> None:
    state = Game.replay(events).state
    write_log(path, LogHeader.from_events(events), events, final_score_sheet(state))


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def hex_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "hex"]


def page_data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


# -- SVG -----------------------------------------------------------------------------------


def test_board_svg_is_xml_with_one_group_per_tile_and_a_token_circle_per_token():
    state = Game.replay(events_of()).state
    for player in state.players:
        env = player.environment
        root = parse(environment_svg(env, legend=True, title=player.name))
        groups = hex_groups(root)
        assert len(groups) == len(env.tiles)
        assert {(int(g.get("data-q")), int(g.get("data-r"))) for g in groups} == set(env.tiles)
        for g in groups:
            h = (int(g.get("data-q")), int(g.get("data-r")))
            tile_id, rotation = env.tiles[h]
            assert (int(g.get("data-tile")), int(g.get("data-rotation"))) == (tile_id, rotation)
            tokens = [t for t in g.iter(f"{NS}g") if t.get("class") == "token"]
            symbols = [t for t in g.iter(f"{NS}g") if t.get("class") == "symbol"]
            species = env.wildlife.get(h)
            if species is None:
                assert tokens == [] and g.get("data-wildlife") is None
                assert [s.get("data-wildlife") for s in symbols] == list(TILES[tile_id].wildlife)
            else:
                assert len(tokens) == 1 and symbols == []
                circle = tokens[0].find(f"{NS}circle")
                assert circle.get("fill") == WILDLIFE_COLOURS[species]
                assert float(circle.get("r")) > 10  # a large disc, not a symbol
                assert tokens[0].find(f"{NS}text").text == WILDLIFE_LETTERS[species]
            keystone = [p for p in g.iter(f"{NS}path") if p.get("class") == "keystone"]
            assert len(keystone) == (1 if TILES[tile_id].keystone else 0)


def _triangles(group: ET.Element) -> dict[int, ET.Element]:
    return {int(p.get("data-edge")): p for p in group.iter(f"{NS}path") if p.get("data-edge") is not None}


@pytest.mark.parametrize("tile_id", [31, 84, 86])
def test_dual_tile_edge_colours_follow_tile_edges_at_every_rotation(tile_id):
    assert not TILES[tile_id].keystone
    for rotation in range(6):
        env = Environment({(0, 0): (tile_id, rotation)})
        (group,) = hex_groups(parse(environment_svg(env)))
        triangles = _triangles(group)
        assert sorted(triangles) == [0, 1, 2, 3, 4, 5]
        edges = tile_edges(tile_id, rotation)
        assert [triangles[i].get("fill") for i in range(6)] == [HABITAT_COLOURS[h] for h in edges]
        first = TILES[tile_id].habitats[0]
        assert [edges[(rotation + k) % 6] for k in range(3)] == [first] * 3  # RULES.md 2


def test_edge_triangles_point_at_the_neighbour_across_that_edge():
    """Triangle ``i`` (centre to edge ``i``) lies towards the neighbour in direction ``i``:
    the picture follows the axial directions of RULES.md 2, not only the labels."""
    (group,) = hex_groups(parse(environment_svg(Environment({(0, 0): (40, 0)}))))
    for edge, path in _triangles(group).items():
        numbers = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
        assert numbers[:2] == [0, 0]
        mx, my = (numbers[2] + numbers[4]) / 2, (numbers[3] + numbers[5]) / 2
        nx, ny = hex_center(*DIRECTIONS[edge])
        cosine = (mx * nx + my * ny) / (math.hypot(mx, my) * math.hypot(nx, ny))
        assert cosine > 0.999, (edge, cosine)


def test_keystone_is_one_colour_and_svg_escapes_titles():
    env = Environment({(0, 0): (3, 2)}, {(0, 0): "hawk"})
    root = parse(environment_svg(env, title='<b>"ann" & co</b>', highlight=(0, 0)))
    (group,) = hex_groups(root)
    assert {p.get("fill") for p in _triangles(group).values()} == {HABITAT_COLOURS["mountain"]}
    assert any(t.text == '<b>"ann" & co</b>' for t in root.iter(f"{NS}text"))
    assert [g for g in root.iter(f"{NS}g") if g.get("class") == "highlight"]
    assert not [g for g in parse(environment_svg(env)).iter(f"{NS}g") if g.get("class") == "highlight"]


def test_svg_bytes_are_deterministic():
    state = Game.replay(events_of()).state
    env = state.players[1].environment
    shuffled = Environment(dict(reversed(env.tiles.items())), dict(reversed(env.wildlife.items())))
    first = environment_svg(env, legend=True, highlight=next(iter(env.tiles)))
    assert first == environment_svg(shuffled, legend=True, highlight=next(iter(env.tiles)))
    assert market_svg(state) == market_svg(Game.replay(events_of()).state)
    assert game_svg(state) == game_svg(Game.replay(events_of()).state)


def test_market_and_game_pictures():
    events = events_of(2, seed=8)
    state = Game.replay(events[:40]).state
    root = parse(market_svg(state))
    slots = [g for g in root.iter(f"{NS}g") if g.get("class") == "slot"]
    assert [int(g.get("data-tile")) for g in slots] == [t for t in state.market_tiles if t is not None]
    tokens = [g.get("data-wildlife") for g in root.iter(f"{NS}g") if g.get("class") == "market-token"]
    assert tokens == [w for w in state.market_wildlife if w is not None]
    root = parse(game_svg(state, seats=[1], totals=[3, 4]))
    boards = [s for s in root.iter(f"{NS}svg") if s.get("class") == "board"]
    assert [b.get("data-seat") for b in boards] == ["1"]
    assert len(hex_groups(root)) == len(state.players[1].environment.tiles)


def test_four_boards_wrap_into_two_rows_of_two():
    state = Game.replay(events_of()).state
    root = parse(game_svg(state))
    boards = [s for s in root.iter(f"{NS}svg") if s.get("class") == "board"]
    places = [(float(b.get("x")), float(b.get("y"))) for b in boards]
    assert len({x for x, _ in places}) == 2 and len({y for _, y in places}) == 2
    one_row = parse(game_svg(state, columns=4))
    assert float(root.get("width")) < 0.6 * float(one_row.get("width"))
    three = parse(game_svg(Game.replay(events_of(3, seed=7)).state))
    assert len({s.get("y") for s in three.iter(f"{NS}svg") if s.get("class") == "board"}) == 1


# -- HTML viewer ----------------------------------------------------------------------------


def test_viewer_has_one_snapshot_per_turn_plus_setup_and_stays_small(tmp_path):
    events = events_of()
    log = tmp_path / "game.cascadia"
    write_game_log(log, events)
    page = render_html(log)
    assert page == render_html(events)  # the same game, the same bytes
    assert page.startswith("<!DOCTYPE html>")
    data = page_data(page)
    turns = [e for e in events if isinstance(e, ev.TurnEnded)]
    snapshots = data["snapshots"]
    assert len(snapshots) == len(turns) + 1
    assert [s["turn"] for s in snapshots] == list(range(len(turns) + 1))
    assert [s["player"] for s in snapshots[1:]] == [t.player for t in turns]
    assert data["rounds"] == 20
    assert [s["round"] for s in snapshots] == [0] + [(t.turn + 3) // 4 for t in turns]
    fourth = seat_name(data["names"], turns[3].player)
    assert snapshots[4]["events"][-1] == f"End of {fourth}'s turn, round 1 of 20."
    assert snapshots[-1]["finished"] and not any(s["finished"] for s in snapshots[:-1])
    endings = ("End of ", "Game over", "Overpopulation")
    assert all(s["events"][-1].startswith(endings) for s in snapshots[1:])
    final = Game.replay(events).state
    assert snapshots[-1]["scores"][0][12] == final_score_sheet(final)["players"][0]["total"]
    assert snapshots[-1]["tiles"] == [len(p.environment.tiles) for p in final.players]
    assert len(page.encode()) < 1_000_000  # 4 players, 80 turns
    # each snapshot's boards are the boards of the state after that turn
    state = Game.replay([e for e in events if e.originator_version <= snapshots[7]["version"]]).state
    for seat, board in enumerate(snapshots[7]["boards"]):
        env = state.players[seat].environment
        assert {(q, r): (t, rot) for q, r, t, rot, _ in board} == env.tiles
        assert {(q, r): data["species"][w] for q, r, _, _, w in board if w >= 0} == env.wildlife
    assert [[h, w] for h, w in data["catalogue"][:1]] == [[list(TILES[0].habitats), list(TILES[0].wildlife)]]


def test_viewer_draws_with_the_clients_drawing_module():
    page = render_html(events_of(2, seed=3))
    draw = (Path(viewer.__file__).parents[1] / "server" / "static" / "draw.js").read_text(encoding="utf-8")
    script = re.search(r'<script type="module">(.*?)</script>', page, re.S).group(1)
    # draw.js is inlined whole, only its export keywords dropped
    assert draw.replace("\nexport function ", "\nfunction ").replace("\nexport const ", "\nconst ") in script
    assert "export " not in script and not re.search(r"^import ", script, re.M)
    assert "function drawBoard(" in script and "drawBoard(" in script.split("function drawBoard(", 1)[1]


def test_solo_snapshot_carries_the_rating():
    data = viewer_data(events_of(1, seed=4))
    last = data["snapshots"][-1]
    assert last["finished"] and last["rating"]
    assert all(s["rating"] for s in data["snapshots"])  # a solo sheet always rates
    assert viewer_data(events_of(2, seed=3))["snapshots"][-1]["rating"] is None


def test_viewer_refers_to_nothing_outside_the_file():
    page = render_html(events_of(2, seed=3))
    assert page.count('"http://www.w3.org/2000/svg"') == 1  # the SVG namespace: a name, not a reference
    page = page.replace('"http://www.w3.org/2000/svg"', "")
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"\b(src|href|xlink:href)\s*=", page)
    assert "@import" not in page and "url(" not in page
    assert page.count("<script") == 2


def test_viewer_escapes_names_from_the_log(tmp_path):
    game = Game.start(21, [XSS, "bob"])
    continue_game(game, make_bots(["random", "random"], 21))
    events = game.collect_events()
    log = tmp_path / "xss.cascadia"
    write_game_log(log, events)
    page = render_html(log)
    assert XSS not in page and "alert(1)</script>" not in page
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # title and heading
    assert page_data(page)["names"] == [XSS, "bob"]
    assert "innerHTML" not in page and "eval(" not in page


def test_every_event_type_reads_as_a_sentence():
    seen = set()
    for events in (
        events_of(1, seed=4),
        events_of(2, seed=6, secret_cards=True, no_starter=True, two_card_sets=True),
        events_of(3, seed=9, market_of_three=True),
    ):
        data = viewer_data(events)
        assert len(data["snapshots"]) == sum(isinstance(e, ev.TurnEnded) for e in events) + 1
        names = [f"seat-name-{i}" for i in range(len(data["names"]))]
        for event in events:
            text = describe_event(event, names)
            assert text[0].isupper() or text.startswith("seat-name-"), text
            assert text.endswith("."), text
            player = getattr(event, "player", None)
            if player is not None and not getattr(event, "mandatory", False):
                assert names[player] in text, text
            seen.add(event.type)
    assert {"SoloPairDiscarded", "OpeningTilesDealt", "SecretCardsDealt", "GameEnded"} <= seen


def test_a_log_cut_inside_a_turn_ends_with_an_unfinished_snapshot():
    events = events_of(2, seed=3)
    cut = next(i for i, e in enumerate(events) if isinstance(e, ev.TilePlaced) and i > 40)
    snapshots = viewer_data(events[:cut])["snapshots"]
    assert not snapshots[-1]["complete"] and snapshots[-1]["player"] is None
    assert all(s["complete"] for s in snapshots[:-1])


# -- commands -------------------------------------------------------------------------------


def one_line_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_view_command_writes_the_page_and_refuses_a_corrupt_log(cli, tmp_path):
    log = tmp_path / "game.cascadia"
    write_game_log(log, events_of(2, seed=3))
    out = tmp_path / "view.html"
    code, stdout, err = cli("view", str(log), "-o", str(out), home=False)
    assert code == 0 and err == "" and "turns" in stdout
    assert out.read_text(encoding="utf-8") == render_html(log)

    data = bytearray(log.read_bytes())
    data[len(data) // 2] ^= 0x20
    bad = tmp_path / "bad.cascadia"
    bad.write_bytes(bytes(data))
    target = tmp_path / "bad.html"
    code, stdout, err = cli("view", str(bad), "-o", str(target), home=False)
    assert code == 1 and stdout == ""
    assert "bad.cascadia" in one_line_error(err)
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.cascadia", "game.cascadia", "view.html"]


def test_board_command_draws_stored_boards(cli, tmp_path):
    events = events_of(3, seed=7)
    GameStore(str(tmp_path)).save_events(events)
    game_id = str(events[0].originator_id)
    out = tmp_path / "boards.svg"
    code, stdout, err = cli("board", game_id[:8], "-o", str(out))
    assert code == 0 and err == "" and "3 board(s)" in stdout
    root = parse(out.read_text(encoding="utf-8"))
    assert len([s for s in root.iter(f"{NS}svg") if s.get("class") == "board"]) == 3
    assert len(hex_groups(root)) == sum(len(p.environment.tiles) for p in Game.replay(events).state.players)

    code, _, err = cli("board", game_id, "--turn", "0", "--seat", "2", "-o", str(out))
    assert code == 0 and err == ""
    root = parse(out.read_text(encoding="utf-8"))
    assert len(hex_groups(root)) == 3
    assert not [g for g in root.iter(f"{NS}g") if g.get("class") == "highlight"]

    code, _, err = cli("board", game_id, "--turn", "5", "-o", str(out))
    root = parse(out.read_text(encoding="utf-8"))
    assert code == 0 and len([g for g in root.iter(f"{NS}g") if g.get("class") == "highlight"]) == 1

    code, _, err = cli("board", game_id, "--seat", "3", "-o", str(tmp_path / "no.svg"))
    assert code == 1 and "--seat" in one_line_error(err) and not (tmp_path / "no.svg").exists()
