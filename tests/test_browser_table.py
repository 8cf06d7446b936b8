"""The table scorer page (``/table.html``, issue 24) in a real browser, on a desktop
(1280x800) and a phone (390x844): boards of simulated games entered by clicking, hex by
hex as a player copies a table, score as ``cascadia score --board`` scores them
(:func:`score_table`, the projections' score sheet) for every player; a text loaded and
copied back is the same text; a malformed text shows its line and column; a row of the
sheet outlines the hexes that scored it; the table survives a reload."""

from __future__ import annotations

import time
from collections import deque

import pytest
from browser_support import (
    BROWSER,
    PHONE,
    SIZES,
    inside_viewport,
    js_errors,
    no_sideways_scroll,
    screenshot,
    wait,
)
from cascadia.bots.registry import play_game
from cascadia.domain.components import HABITATS, VARIANT_CARDS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex, neighbours
from cascadia.domain.options import GameOptions
from cascadia.projections.board_text import (
    HABITAT_LETTERS,
    BoardPlayer,
    BoardTable,
    hex_habitats,
    option_text,
    score_table,
    table_of,
    table_text,
)
from cascadia.projections.scored_cells import scored_cells
from cascadia.projections.scoresheet import ScoreSheet
from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

pytest_plugins = ["browser_support"]
pytestmark = BROWSER

DESKTOP_GAMES = (
    (11, GameOptions()),
    (12, GameOptions(salmon_runs="lenient", elk_rings="any-subset")),
    (13, GameOptions(cards="family")),
    (14, GameOptions(cards="intermediate", majority_bonus=False)),
    (15, GameOptions()),
)
"""Five four-player games: 20 boards entered at desktop width."""
PHONE_GAME = (21, GameOptions())
"""One two-player game: 2 boards entered at phone width."""


def real_table(seed: int, options: GameOptions, players: int) -> BoardTable:
    """The boards of a simulated game as ``cascadia score GAME --board-text`` writes them."""
    bots = ["greedy" if (seed + seat) % 2 else "random" for seat in range(players)]
    state = play_game(seed, bots, options).state
    table = table_of(state)
    names = [f"{name[:10]} {seat + 1}" for seat, name in enumerate(state.names)]
    return BoardTable(
        tuple(
            BoardPlayer(n, p.environment, p.nature_tokens) for n, p in zip(names, table.players, strict=True)
        ),
        table.cards,
        table.options,
        table.second_cards,
    )


def open_page(driver: WebDriver, server: str) -> None:
    """The page with a fresh table (nothing kept from an earlier test)."""
    driver.get(server + "/table.html")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/table.html")
    settled(driver)


def settled(driver: WebDriver) -> None:
    """Wait until the sheet shows the table as it stands (no scoring pending)."""
    wait(driver, lambda d: d.execute_script("return document.body.dataset.pending === '0'"))


def tap(driver: WebDriver, css: str) -> None:
    """Click the element ``css`` names, found afresh (the page redraws after each choice,
    and the players' tabs when a score comes in)."""
    for _ in range(5):
        try:
            element = driver.find_element(By.CSS_SELECTOR, css)
            try:
                element.click()
            except ElementClickInterceptedException:  # under the page's sticky header: scroll to it
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
                element.click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"could not click {css}")


def in_reach_order(tiles: set[Hex]) -> list[Hex]:
    """The hexes of a board from ``0,0`` outwards, each touching one placed before (the page
    offers only the empty hexes next to the board)."""
    start = (0, 0) if (0, 0) in tiles else min(tiles)
    order, seen, todo = [], {start}, deque([start])
    while todo:
        h = todo.popleft()
        order.append(h)
        for n in neighbours(h):
            if n in tiles and n not in seen:
                seen.add(n)
                todo.append(n)
    return order


def enter_table(driver: WebDriver, table: BoardTable) -> None:
    """Enter ``table`` by clicking: the cards and scoring options, then per player the name,
    the nature tokens and every hex (habitat, second habitat and its side, token)."""
    if table.cards["bear"] in VARIANT_CARDS:
        Select(driver.find_element(By.ID, "card-variant")).select_by_value(table.cards["bear"])
    else:
        for species in WILDLIFE:
            Select(driver.find_element(By.ID, f"card-{species}")).select_by_value(table.cards[species])
    for name in ("salmon_runs", "elk_rings", "majority_bonus"):
        value = option_text(table.options, name)
        select = Select(driver.find_element(By.ID, f"option-{name}"))
        if select.first_selected_option.get_attribute("value") != value:
            if not driver.find_element(By.ID, "options-box").get_attribute("open"):
                tap(driver, "#options-box summary")
            Select(driver.find_element(By.ID, f"option-{name}")).select_by_value(value)
    for seat, player in enumerate(table.players):
        if seat:
            tap(driver, "#add-player")
        name = driver.find_element(By.ID, "player-name")
        name.clear()
        name.send_keys(player.name)
        for _ in range(player.nature_tokens):
            tap(driver, "#nature-plus")
        enter_board(driver, player)


EDITOR_BUTTONS = (
    *(f'#first-picks [data-first="{h}"]' for h in HABITATS),
    *(f'#second-picks [data-second="{h}"]' for h in HABITATS),
    *(f'#facing-picks [data-facing="{edge}"]' for edge in ("NE", "E", "SE", "SW", "W", "NW")),
    *(f'#token-picks [data-token="{s}"]' for s in WILDLIFE),
    "#hex-save",
)
"""The editor's buttons (made once with the page), by the CSS that finds each."""


def enter_board(driver: WebDriver, player: BoardPlayer) -> None:
    """Every hex of ``player``'s board: tap its place, then in the editor its habitat, its
    second habitat and the side the first faces, its token, and Place (each hex one
    sequence of pointer clicks, to keep the test quick); then the page's board is checked
    hex by hex against ``player``'s."""
    environment = player.environment
    buttons = dict(
        zip(
            EDITOR_BUTTONS,
            driver.execute_script(
                "return arguments[0].map((css) => document.querySelector(css));", list(EDITOR_BUTTONS)
            ),
            strict=True,
        )
    )
    for q, r in in_reach_order(set(environment.tiles)):
        letters, _, facing = hex_habitats(*environment.tiles[(q, r)]).partition("@")
        first, _, second = letters.partition("/")
        wanted = [f'#first-picks [data-first="{HABITAT_LETTERS[first]}"]']
        if second:
            wanted += [
                f'#second-picks [data-second="{HABITAT_LETTERS[second]}"]',
                f'#facing-picks [data-facing="{facing}"]',
            ]
        token = environment.wildlife.get((q, r))
        if token:
            wanted.append(f'#token-picks [data-token="{token}"]')
        target = driver.find_element(By.CSS_SELECTOR, f'#table-board path.target[data-q="{q}"][data-r="{r}"]')
        chain = ActionChains(driver, duration=0).click(target)
        for css in (*wanted, "#hex-save"):
            chain.click(buttons[css])
        chain.perform()
    entered = driver.execute_script(
        "const t = JSON.parse(localStorage.getItem('cascadia.table')); return t.players[t.current].hexes;"
    )
    assert {tuple(map(int, k.split(","))) for k in entered} == set(environment.tiles), player.name
    for (q, r), (tile, rotation) in environment.tiles.items():
        kept = entered[f"{q},{r}"]
        assert (kept["first"], kept["second"] or None, kept["token"] or None) == (
            *_habitat_names(hex_habitats(tile, rotation)),
            environment.wildlife.get((q, r)),
        ), (player.name, q, r)


def _habitat_names(text: str) -> tuple[str, str | None]:
    """The habitats of a hex's text (``M`` or ``M/F@E``) by name, in the text's order (the
    order :func:`enter_board` picks them in, which the page keeps)."""
    letters = text.partition("@")[0].split("/")
    return HABITAT_LETTERS[letters[0]], HABITAT_LETTERS[letters[1]] if len(letters) > 1 else None


def shown_sheet(driver: WebDriver) -> dict[str, list[str]]:
    """The page's score sheet: per row, the text of each player's cell (read at once)."""
    return driver.execute_script(
        "const rows = {};"
        "for (const tr of document.querySelectorAll('#sheet tr[data-row]'))"
        "  rows[tr.dataset.row] = [...tr.querySelectorAll('td[data-seat]')].map((td) => td.textContent);"
        "return rows;"
    )


def expected_sheet(sheet: ScoreSheet) -> dict[str, list[str]]:
    """``sheet`` as the page shows it."""
    players = sheet.players
    return {
        **{s: [str(p.wildlife[s]) for p in players] for s in WILDLIFE},
        **{
            x: [
                f"{p.habitat_points[x]}" + (f" +{p.habitat_bonuses[x]}" if p.habitat_bonuses[x] else "")
                for p in players
            ]
            for x in HABITATS
        },
        "nature": [str(p.nature_tokens) for p in players],
        "total": [str(p.total) for p in players],
        "rank": [str(p.rank) for p in players],
    }


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_boards_entered_by_clicking_score_as_score_board(
    browsers, server: str, width: int, height: int
) -> None:
    driver = browsers(width, height)
    games = DESKTOP_GAMES if width != PHONE else (PHONE_GAME,)
    players = 4 if width != PHONE else 2
    started = time.monotonic()
    boards = 0
    for number, (seed, options) in enumerate(games):
        table = real_table(seed, options, players)
        open_page(driver, server)
        enter_table(driver, table)
        settled(driver)
        sheet = score_table(table)
        assert shown_sheet(driver) == expected_sheet(sheet), f"game {seed}"
        winners = [table.players[s].name for s in sheet.winners]
        assert all(name in driver.find_element(By.ID, "winner").text for name in winners)
        boards += len(table.players)
        if number == 0:
            assert no_sideways_scroll(driver)
            for button in driver.find_elements(By.CSS_SELECTOR, "main button"):
                if button.is_displayed():
                    assert inside_viewport(driver, button), button.text
            tag = "desktop" if width != PHONE else "phone"
            driver.execute_script("window.scrollTo(0, 0)")
            screenshot(driver, f"table-{tag}.png", width)
            tap(driver, "#table-board g.hex:not(.preview)")
            for css in ('#first-picks [data-first="mountain"]', '#second-picks [data-second="river"]'):
                tap(driver, css)
            tap(driver, '#facing-picks [data-facing="E"]')
            assert driver.find_element(By.CSS_SELECTOR, "#table-board g.preview")
            assert no_sideways_scroll(driver)
            screenshot(driver, f"table-editor-{tag}.png", width)
            tap(driver, "#hex-cancel")
    assert not js_errors(driver)
    print(f"\n{boards} boards entered by clicking at {width}px in {time.monotonic() - started:.1f} s")


def test_load_from_text_copies_back_the_same_text_and_survives_a_reload(browsers, server: str) -> None:
    driver = browsers(*SIZES[0])
    open_page(driver, server)
    table = real_table(31, GameOptions(two_card_sets=True, salmon_runs="lenient"), 3)
    text = table_text(table)
    tap(driver, "#load-text")
    box = driver.find_element(By.ID, "text-box")
    box.send_keys(text)
    tap(driver, "#load-apply")
    settled(driver)
    assert shown_sheet(driver) == expected_sheet(score_table(table))
    assert "Second card set" in driver.find_element(By.ID, "second-cards").text
    tap(driver, "#copy-text")
    assert driver.find_element(By.ID, "text-box").get_attribute("value") == text
    driver.refresh()
    settled(driver)
    assert shown_sheet(driver) == expected_sheet(score_table(table))
    tap(driver, "#copy-text")
    assert driver.find_element(By.ID, "text-box").get_attribute("value") == text
    # a tile tapped, changed, then removed: the sheet follows (the last hex reached from
    # 0,0 leaves the board in one piece)
    seat = 2
    tap(driver, f'#players [data-player="{seat}"]')
    q, r = in_reach_order(set(table.players[seat].environment.tiles))[-1]
    tap(driver, f'#table-board g.hex[data-q="{q}"][data-r="{r}"]')
    tap(driver, '#token-picks [data-token="bear"]')
    tap(driver, "#hex-save")
    settled(driver)
    assert shown_sheet(driver) == expected_sheet(score_table(changed(table, seat, (q, r), "bear")))
    tap(driver, f'#table-board g.hex[data-q="{q}"][data-r="{r}"]')
    tap(driver, "#hex-remove")
    settled(driver)
    assert shown_sheet(driver) == expected_sheet(score_table(changed(table, seat, (q, r), None)))
    assert not js_errors(driver)


def changed(table: BoardTable, seat: int, h: Hex, token: str | None) -> BoardTable:
    """``table`` with the hex ``h`` of ``seat`` holding ``token``, or removed (``None``)."""
    player = table.players[seat]
    tiles, wildlife = dict(player.environment.tiles), dict(player.environment.wildlife)
    wildlife.pop(h, None)
    if token is None:
        del tiles[h]
    else:
        wildlife[h] = token
    edited = BoardPlayer(player.name, Environment(tiles, wildlife), player.nature_tokens)
    players = (*table.players[:seat], edited, *table.players[seat + 1 :])
    return BoardTable(players, table.cards, table.options, table.second_cards)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_malformed_text_shows_its_line_and_column(browsers, server: str, width: int, height: int) -> None:
    driver = browsers(width, height)
    open_page(driver, server)
    tap(driver, "#load-text")
    driver.find_element(By.ID, "text-box").send_keys("cards: A B C D A\nplayer: Anna\n0,0 M bear\n1,0 X\n")
    tap(driver, "#load-apply")
    error = driver.find_element(By.ID, "load-error")
    wait(driver, lambda d: error.is_displayed())
    assert "table.txt:4:5: expected a habitat letter" in error.text
    assert inside_viewport(driver, error) and no_sideways_scroll(driver)
    screenshot(driver, f"table-error-{'phone' if width == PHONE else 'desktop'}.png", width)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_row_tapped_outlines_the_hexes_that_scored_it(
    browsers, server: str, width: int, height: int
) -> None:
    driver = browsers(width, height)
    open_page(driver, server)
    table = real_table(41, GameOptions(), 2)
    tap(driver, "#load-text")
    driver.execute_script(
        "arguments[0].value = arguments[1]", driver.find_element(By.ID, "text-box"), table_text(table)
    )
    tap(driver, "#load-apply")
    settled(driver)
    sheet = score_table(table)
    seat = 1
    cells = scored_cells(table.players[seat].environment, table.cards, table.options)
    row = next(s for s in WILDLIFE if sheet.players[seat].wildlife[s] > 0)
    tap(driver, f'#sheet tr[data-row="{row}"] td[data-seat="{seat}"]')
    outlined = {
        (int(p.get_attribute("data-q")), int(p.get_attribute("data-r")))
        for p in driver.find_elements(By.CSS_SELECTOR, "#table-board path.scored")
    }
    assert outlined == {h for group in cells.wildlife[row] for h in group}
    assert "row-highlight" in driver.find_element(
        By.CSS_SELECTOR, f'#sheet tr[data-row="{row}"]'
    ).get_attribute("class")
    tab = driver.find_element(By.CSS_SELECTOR, f'#players [data-player="{seat}"]')
    assert tab.get_attribute("aria-selected") == "true"
    habitat = max(HABITATS, key=lambda x: sheet.players[seat].corridors[x])
    tap(driver, f'#sheet tr[data-row="{habitat}"] td[data-seat="{seat}"]')
    corridor = {
        (int(p.get_attribute("data-q")), int(p.get_attribute("data-r")))
        for p in driver.find_elements(By.CSS_SELECTOR, "#table-board path.scored")
    }
    assert len(corridor) == sheet.players[seat].corridors[habitat]
    screenshot(driver, f"table-highlight-{'phone' if width == PHONE else 'desktop'}.png", width)
    assert not js_errors(driver)


def test_the_lobby_and_how_to_play_link_to_the_page(browsers, server: str) -> None:
    driver = browsers(*SIZES[1])
    for page in ("/", "/how-to-play.html"):
        driver.get(server + page)
        link = driver.find_element(By.ID, "table-link")
        assert link.text == "Score a table game" and inside_viewport(driver, link)
        link.click()
        wait(driver, lambda d: d.current_url == server + "/table.html")
        settled(driver)
    assert not js_errors(driver)
