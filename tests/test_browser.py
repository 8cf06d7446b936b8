"""The browser client and the HTML replay viewer in a real browser: Selenium driving
Debian's ``chromium`` and ``chromium-driver`` (headless; nothing is downloaded).

The server runs in a uvicorn thread on a free port of 127.0.0.1 with its own data
directory (tests/browser_support.py). Without chromium these tests skip, unless
``CASCADIA_REQUIRE_BROWSER=1`` (``.ci/run`` sets it), when they fail.
``CASCADIA_SCREENSHOTS=DIR`` saves the pages' screenshots there (``docs/`` holds the
ones the README shows).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    BROWSER,
    PHONE,
    api,
    click,
    clickable,
    confirm,
    ended,
    inside_viewport,
    js_errors,
    matches,
    no_sideways_scroll,
    play_one_step,
    resize,
    screenshot,
    screenshot_of,
    wait,
)
from cascadia.bots.registry import play_game
from cascadia.domain.options import GameOptions
from cascadia.replays.viewer import render_html
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

pytest_plugins = ["browser_support"]
pytestmark = BROWSER


# -- tests --------------------------------------------------------------------------------


def test_a_human_plays_a_whole_game_against_greedy_by_clicking(server, browsers, cli):
    driver = browsers()
    driver.get(server + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#seats .seat-row"))
    kinds = [e.get_attribute("value") for e in driver.find_elements(By.CSS_SELECTOR, "#seats .seat-kind")]
    assert kinds == ["human", "bot:greedy"]
    resize(driver, PHONE, 844)
    assert no_sideways_scroll(driver)
    resize(driver, 1280)
    driver.find_element(By.ID, "create-game").click()
    join = wait(driver, lambda d: clickable(d, "#links a.join"))[0]
    href = join.get_attribute("href")
    assert "#token=" in href
    join.click()
    wait(driver, lambda d: d.execute_script("return document.body.dataset.version"))
    # the token stays in the address's fragment (a reload or a copy keeps the seat) and in
    # localStorage, under the game and seat (the bare address opens the seat again), with
    # the creator's token the lobby kept
    game = href.split("game=")[1].split("&")[0]
    assert driver.current_url == href
    kept = sorted(driver.execute_script("return Object.keys(localStorage)"))
    assert kept == [f"cascadia-creator:{game}", f"cascadia-seat:{game}:0"]

    seen: set[str] = set()
    labels: set[str] = set()
    shots = False
    deadline = time.monotonic() + 150
    while not ended(driver):
        assert time.monotonic() < deadline, f"the game did not end; steps seen: {sorted(seen)}"
        wait(driver, lambda d: ended(d) or d.find_element(By.ID, "turn-label").text.startswith("Your turn"))
        if ended(driver):
            break
        labels.add(driver.find_element(By.ID, "turn-label").text)
        if not shots and len(labels) >= 6 and clickable(driver, "#my-board path.target"):
            shots = True  # the tile placement: legal hexes, a preview, its rotations
            spots = range(len(clickable(driver, "#my-board path.target")))
            best = max(spots, key=lambda i: matches(driver, i))
            click(driver, "#my-board path.target", best)
            assert no_sideways_scroll(driver)
            screenshot(driver, "play-desktop.png", 1280)
            resize(driver, PHONE, 844)
            assert no_sideways_scroll(driver)
            assert inside_viewport(driver, driver.find_element(By.ID, "turn-label"))
            screenshot(driver, "play-phone.png", PHONE)
            events = driver.find_element(By.ID, "events").find_element(By.XPATH, "..")
            screenshot_of(events, "events-phone.png")
            resize(driver, 1280)
        play_one_step(driver, seen)
    assert {"Your turn · round 1 of 20", "Your turn · round 20 of 20"} <= labels
    assert {"rotations"} <= seen and ("token" in seen or "return" in seen)

    # the end screen: winner, scores, seed revealed and checked against the commitment
    winner = driver.find_element(By.ID, "winner").text
    assert re.search(r"^\u2605 (You win|.+ wins) with \d+ points|^\u2605 Shared win", winner), winner
    wait(
        driver,
        lambda d: (
            "commitment" in d.find_element(By.ID, "commitment-verdict").text
            and not d.find_element(By.ID, "commitment-verdict").text.startswith("Checking")
        ),
    )
    assert driver.find_element(By.ID, "commitment-verdict").text.startswith("\u2714")
    seed = driver.find_element(By.ID, "seed").text
    assert seed.isdigit()
    rows = driver.find_elements(By.CSS_SELECTOR, "#final-scores tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, "td.name").text for r in rows] == ["you", "greedy"]
    screenshot(driver, "play-end.png", 1280)

    # the log, downloaded by the browser, passes the audit and holds the revealed seed
    driver.find_element(By.ID, "download-log").click()
    folder: Path = driver.download_dir  # type: ignore[attr-defined]
    logs = wait(driver, lambda d: [p for p in folder.glob("*.cascadia")], 20)
    code, out, err = cli("audit", str(logs[0]), "--json", home=False)
    assert code == 0, err
    assert json.loads(out)
    assert not js_errors(driver)


def test_two_humans_see_only_their_own_secret_card_and_each_others_moves_live(server, browsers):
    seats = [{"name": "ann"}, {"name": "bob"}]
    created = api(server, "/api/games", {"seats": seats, "options": {"rules": ["secret_cards"]}})
    game = created["game_id"]
    pages = []
    for seat in created["seats"]:
        driver = browsers()
        if seat["seat"] == 0:
            driver.get(server + seat["join_link"])
        else:  # bob pastes his link into the lobby, where the game is listed
            driver.get(server + "/")
            wait(driver, lambda d: "ann, bob" in d.find_element(By.ID, "games").text)
            driver.find_element(By.ID, "join-link").send_keys(server + seat["join_link"])
            driver.find_element(By.CSS_SELECTOR, "#join button").click()
        wait(driver, lambda d: d.execute_script("return document.body.dataset.version"))
        assert driver.current_url == server + seat["join_link"]
        pages.append(driver)
    watcher = browsers(PHONE, 844)
    watcher.get(server + created["spectate_link"])
    wait(watcher, lambda d: d.find_elements(By.CSS_SELECTOR, "#boards section.player"))

    views = [api(server, f"/api/games/{game}", token=s["token"]) for s in created["seats"]]
    cards = [v["state"]["secret_cards"] for v in views]
    for seat, page in enumerate(pages):
        mine = cards[seat][seat]
        assert mine is not None and cards[seat][1 - seat] is None
        assert page.find_element(By.ID, "my-secret").text == f"your secret card: {mine}"
        assert "secret card" not in page.find_element(By.ID, "cards").text.replace("your secret card", "")
        # the points of the other's card species, and so the totals, are hidden too
        assert "?" in page.find_element(By.ID, "scores").text
    assert not watcher.find_elements(By.ID, "my-secret")
    assert "secret card" not in watcher.find_element(By.ID, "cards").text

    # three turns: each move shows up in the other browser and the spectator's, no reload
    for _ in range(3):
        state = api(server, f"/api/games/{game}")["state"]
        active, other = pages[state["current_player"]], pages[1 - state["current_player"]]
        assert active.find_element(By.ID, "turn-label").text.startswith("Your turn")
        seat = state["current_player"]
        tiles = len(state["players"][seat]["environment"])
        marker = other.execute_script("return (window.__same_page = 'page-' + Math.random())")
        seen: set[str] = {"three", "free", "wipe"}  # plain pairs only here
        turn = state["turn"]
        while api(server, f"/api/games/{game}")["state"]["turn"] == turn:
            play_one_step(active, seen)
        css = f'#boards section[data-seat="{seat}"] g.hex'
        for page in (other, watcher):
            wait(page, lambda d, css=css, n=tiles + 1: len(d.find_elements(By.CSS_SELECTOR, css)) == n, 10)
        assert other.execute_script("return window.__same_page") == marker  # live: never reloaded
        wait(other, lambda d: d.find_element(By.ID, "turn-label").text.startswith("Your turn"), 10)
    assert no_sideways_scroll(watcher)
    for page in [*pages, watcher]:
        assert not js_errors(page)


@pytest.fixture(scope="module")
def viewer_file(tmp_path_factory) -> Path:
    game = play_game(5, ["random", "greedy", "random", "greedy"], GameOptions())
    path = tmp_path_factory.mktemp("viewer") / "viewer.html"
    path.write_text(render_html(game.collect_events()), encoding="utf-8")
    return path


@pytest.mark.parametrize("width", [PHONE, 1280])
def test_viewer_fits_without_sideways_scrolling(browsers, viewer_file, width):
    driver = browsers(width)
    driver.get(viewer_file.as_uri())
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#score-rows tr"))
    for step in ("first", "next", "last"):
        driver.find_element(By.ID, step).click()
        assert no_sideways_scroll(driver), step
        for element_id in ("label", "play", "first", "last"):
            assert inside_viewport(driver, driver.find_element(By.ID, element_id)), (step, element_id)
        cells = "#score-rows td.total, #score-rows td:nth-child(3)"  # total, rank
        for cell in driver.find_elements(By.CSS_SELECTOR, cells):
            assert inside_viewport(driver, cell), step
    # the last point of the game: the winner's banner; the four boards stay on the page
    assert driver.find_element(By.ID, "label").text.startswith("Round 20 of 20")
    banner = driver.find_element(By.ID, "banner")
    assert banner.is_displayed() and ("wins" in banner.text or "Shared win" in banner.text)
    for board in driver.find_elements(By.CSS_SELECTOR, "svg.board"):
        assert inside_viewport(driver, board)
    headers = driver.find_element(By.ID, "score-head").text
    assert all(name in headers for name in ("forest", "prairie", "wetland", "river", "total", "rank"))
    if width == PHONE:
        screenshot(driver, "viewer-phone.png", width)
    driver.find_element(By.ID, "first").click()
    driver.find_element(By.ID, "next").click()
    # early turns are framed on their own boards: a board of a few tiles fills its frame
    fill = driver.execute_script(
        "const s = document.querySelector('svg.board'), b = s.getBoundingClientRect(),"
        " g = s.querySelector('g.hex').getBoundingClientRect(); return g.width / b.width"
    )
    assert fill > 0.15
    assert not js_errors(driver)


def test_viewer_copies_the_position_shown(browsers, viewer_file):
    from cascadia.projections.position import parse_position

    driver = browsers()
    driver.get(viewer_file.as_uri())
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#score-rows tr"))
    driver.execute_script(
        "Object.defineProperty(navigator, 'clipboard', {value: {writeText: (t) =>"
        " { window.__copied = t; return Promise.resolve(); }}})"
    )
    for _ in range(2):
        driver.find_element(By.ID, "next").click()
    driver.find_element(By.ID, "copy").click()
    wait(driver, lambda d: d.find_element(By.ID, "copy").text == "Copied", 5)
    position = parse_position(driver.execute_script("return window.__copied"))
    assert position.turn == 3 and position.viewer is None and len(position.boards) == 4
    assert not js_errors(driver)


def test_viewer_shows_each_turns_analysis_and_moves_the_graph_cursor(browsers, tmp_path):
    from cascadia.bots.analysis import analyse_log
    from cascadia.replays.format import LogHeader, write_log
    from cascadia.replays.scores import final_score_sheet

    game = play_game(31, ["greedy", "random"], GameOptions())
    events = game.collect_events()
    log = tmp_path / "game.cascadia"
    write_log(log, LogHeader.from_events(events), events, final_score_sheet(game.state))
    rows = [row.to_dict() for row in analyse_log(log, budget=1)[1]]
    tagged = next(row for row in rows if row["tag"])
    page = tmp_path / "viewer.html"
    page.write_text(render_html(log, analysis=rows), encoding="utf-8")
    driver = browsers(PHONE)
    driver.get(page.as_uri() + f"#turn={tagged['turn']}")
    wait(driver, lambda d: d.find_element(By.ID, "analysis").text)
    note = driver.find_element(By.ID, "analysis").text
    assert note.startswith(tagged["tag"]) and f"{tagged['lost']:g} points lost" in note
    cursor = driver.find_element(By.ID, "score-cursor")
    at_tagged = float(cursor.get_attribute("x1"))
    driver.find_element(By.ID, "first").click()
    assert float(cursor.get_attribute("x1")) < at_tagged
    assert "no move" in driver.find_element(By.ID, "analysis").text.lower()
    assert no_sideways_scroll(driver)
    assert not js_errors(driver)


def seed_where(condition: Callable[[Any], bool]) -> int:
    """The first seed whose 2-player game (human first) meets ``condition`` at turn 1."""
    from cascadia.domain.game import Game

    for seed in range(5000):
        game = Game.start(seed=seed, players=["you", "greedy"])
        if game.state.current == 0 and condition(game):
            return seed
    raise AssertionError("no such seed")


def open_seat(server: str, browsers, monkeypatch, seed: int) -> tuple[WebDriver, dict[str, Any]]:
    """A human-vs-greedy game with the given seed (the server's seed draw patched), open
    in a browser at the human's join link."""
    from cascadia.server import games

    monkeypatch.setattr(games.secrets, "randbits", lambda bits: seed)
    created = api(server, "/api/games", {"seats": [{"name": "you"}, {"bot": "greedy"}]})
    monkeypatch.undo()
    driver = browsers()
    driver.get(server + created["seats"][0]["join_link"])
    wait(driver, lambda d: d.find_element(By.ID, "turn-label").text == "Your turn · round 1 of 20")
    return driver, created


def market_tokens(driver: WebDriver) -> list[str]:
    return [g.get_attribute("data-wildlife") for g in driver.find_elements(By.CSS_SELECTOR, "g.market-token")]


def test_the_play_page_copies_the_seats_position(server, browsers, monkeypatch):
    from cascadia.projections.position import parse_position

    driver, _ = open_seat(server, browsers, monkeypatch, 11)
    driver.execute_script(
        "Object.defineProperty(navigator, 'clipboard', {value: {writeText: (t) =>"
        " { window.__copied = t; return Promise.resolve(); }}})"
    )
    driver.find_element(By.ID, "copy-position").click()
    wait(driver, lambda d: d.find_element(By.ID, "copy-position").text == "Copied", 5)
    position = parse_position(driver.execute_script("return window.__copied"))
    assert position.viewer == 0 and position.to_move is not None and position.to_move.seat == 0
    assert not js_errors(driver)


def test_the_three_alike_wipe_and_a_nature_token_wipe_by_clicking(server, browsers, monkeypatch):
    from cascadia.domain.components import TILES

    # three tokens alike in the market at turn 1: the page offers the wipe, once
    driver, _ = open_seat(server, browsers, monkeypatch, seed_where(lambda g: g.can_wipe_three()))
    before = market_tokens(driver)
    assert max(before.count(s) for s in set(before)) == 3
    confirm(driver, "wipe-three")
    assert "you wiped three" in driver.find_element(By.ID, "events").text
    assert not clickable(driver, "#wipe-three")
    play_one_step(driver, {"three", "free", "wipe"})  # then a pair, as usual
    assert clickable(driver, "#my-board path.target")

    # a keystone with its own animal: placing the token there earns a nature token, spent
    # next turn on wiping two chosen market tokens
    def keystone_pair(game) -> bool:
        return any(
            tile is not None and TILES[tile].keystone and TILES[tile].wildlife[0] == animal
            for tile, animal in zip(game.state.market_tiles, game.state.market_wildlife, strict=True)
        )

    driver, created = open_seat(server, browsers, monkeypatch, seed_where(keystone_pair))
    token = created["seats"][0]["token"]
    path = f"/api/games/{created['game_id']}"
    market = api(server, path, token=token)["state"]["market"]
    slot = next(m["slot"] for m in market if TILES[m["tile"]].wildlife == (m["wildlife"],))
    resize(driver, 1280, 700)  # a 1280x800 screen, less the browser's own bars
    click(driver, f'#market-svg g.slot[data-slot="{slot}"]')
    assert "keystone" in driver.find_element(By.ID, "take").text  # its habitat, not its id
    confirm(driver, "take")
    click(driver, "#my-board path.target")
    assert not clickable(driver, "#rotations button")  # a keystone looks the same every way
    assert "keystone" in driver.find_element(By.ID, "prompt").text  # nothing to turn
    in_view = "const r = document.getElementById('place-tile').getBoundingClientRect();"
    assert driver.execute_script(in_view + " return r.top >= 0 && r.bottom <= window.innerHeight;")
    confirm(driver, "place-tile")
    q, r = api(server, path, token=token)["state"]["turn_state"]["tile_placed_at"]
    click(driver, f'#my-board circle.token-target[data-q="{q}"][data-r="{r}"]')
    confirm(driver, "place-token")
    wait(driver, lambda d: d.find_element(By.ID, "turn-label").text == "Your turn · round 2 of 20")
    assert "1 nature token" in driver.find_element(By.ID, "my-info").text
    driver.find_element(By.ID, "nature-wipe").click()
    click(driver, "#market-svg g.market-token[role=button]", 0)
    click(driver, "#market-svg g.market-token[role=button]", 2)
    assert driver.find_element(By.ID, "confirm-wipe").text == "Wipe 2 tokens"
    confirm(driver, "confirm-wipe")
    assert "you spent 1 nature token on a wipe of market tokens." in driver.find_element(By.ID, "events").text
    assert "0 nature tokens" in driver.find_element(By.ID, "my-info").text
    assert not js_errors(driver)


# -- an achievement map: the winner marks on the end screen; the map page follows ----------


def test_a_winner_marks_the_map_on_the_end_screen_and_the_map_page_shows_it_live(
    live_server, browsers, monkeypatch
):
    import httpx
    from cascadia.server import games
    from selenium.webdriver.support.select import Select
    from server_support import play_to_end, simulated_winners

    server, app = live_server
    mode = "must_match"
    seed = next(  # a game the human (played greedily through the API) wins against greedy
        s
        for s in range(100)
        if simulated_winners(s, ["you", "greedy"], {mode: True, "achievement_mode": mode}, {0}) == ("you",)
    )

    # the lobby, on a phone: a new map, then a game for it in a restriction's mode
    lobby = browsers(PHONE, 844)
    lobby.get(server + "/")
    wait(lobby, lambda d: d.find_elements(By.CSS_SELECTOR, "#seats .seat-row"))
    lobby.find_element(By.ID, "map-name").send_keys("summer")
    lobby.find_element(By.ID, "map-players").send_keys("you, greedy")
    lobby.find_element(By.ID, "create-map").click()
    link = wait(lobby, lambda d: d.find_elements(By.CSS_SELECTOR, "#maps a[data-map]"))[0]
    map_id = link.get_attribute("data-map")
    assert link.get_attribute("href").endswith(f"/map.html?map={map_id}")
    assert Select(lobby.find_element(By.ID, "map")).first_selected_option.get_attribute("value") == map_id
    Select(lobby.find_element(By.ID, "mode")).select_by_value(mode)
    assert no_sideways_scroll(lobby)
    monkeypatch.setattr(games.secrets, "randbits", lambda bits: seed)
    lobby.find_element(By.ID, "create-game").click()
    join = wait(lobby, lambda d: clickable(d, "#links a.join"))[0].get_attribute("href")
    monkeypatch.undo()
    assert not js_errors(lobby)
    game_id = join.split("game=")[1].split("&")[0]
    created = api(server, f"/api/games/{game_id}")
    assert (created["map_id"], created["achievement_mode"]) == (map_id, mode)

    # the map page, on a phone, before the game: empty paths
    watcher = browsers(PHONE, 844)
    watcher.get(f"{server}/map.html?map={map_id}")
    wait(watcher, lambda d: d.find_elements(By.CSS_SELECTOR, "#map-svg svg"))
    first = int(watcher.execute_script("return document.body.dataset.version"))
    filled = watcher.find_element(By.CSS_SELECTOR, 'tr[data-player="you"] td.filled').text
    assert filled.startswith("0 / ")

    seat_tokens = [join.split("#token=")[1], None]
    with httpx.Client(base_url=server, timeout=10) as client:
        play_to_end(client, app.state.service.store, game_id, seat_tokens, {0})

    # the end screen: the winner's mark as a button; after marking, the cell filled
    player = browsers()
    player.get(join)
    button = wait(player, lambda d: clickable(d, "#marks button.mark"))[0]
    assert button.get_attribute("data-achievement") == mode
    assert len(clickable(player, "#marks button.mark")) == 1
    button.click()
    marked = wait(player, lambda d: d.find_elements(By.ID, "marked"))[0]
    assert "cell 1" in marked.text
    assert player.find_elements(By.CSS_SELECTOR, "#marks-map svg")
    screenshot(player, "map-end.png", 1280)
    assert not js_errors(player)

    # the map page, never reloaded, shows the mark as its stream brings it
    wait(watcher, lambda d: int(d.execute_script("return document.body.dataset.version")) > first)
    you = 'tr[data-player="you"] td.filled'
    wait(watcher, lambda d: d.find_element(By.CSS_SELECTOR, you).text.startswith("1 / "))
    assert "won a must match game" in watcher.find_element(By.ID, "map-svg").get_attribute("innerHTML")
    assert no_sideways_scroll(watcher)
    screenshot(watcher, "map-phone.png", PHONE)
    assert not js_errors(watcher)
