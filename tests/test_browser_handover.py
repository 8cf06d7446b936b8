"""Games that finish (issue 24) in a real browser, on a desktop (1280x800) and a phone
(390x844): a game of two humans created in the lobby with a turn time limit, whose
first player lets the time run out: the seat handed to greedy (its page stopped, the
game offered to watch), the other seat's page showing the countdown and "(bot: greedy,
took over)", that seat playing on to the end screen; and the creator handing a seat to
a bot from the spectator page.

The server's turn clock runs ahead when a test says so (:class:`AheadClock`): no test
waits out a turn's time limit.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from browser_support import (
    BROWSER,
    PAIRS_ONLY,
    SIZES,
    api,
    clickable,
    ended,
    inside_viewport,
    js_errors,
    no_sideways_scroll,
    play_one_step,
    screenshot,
    version,
    wait,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select
from server_support import next_command

pytest_plugins = ["browser_support"]
pytestmark = BROWSER

COUNTDOWN = re.compile(r"^0:[0-3]\d left$")
"""A turn's time left in a page's bar, of a game with a 30 s limit."""
NAMES = ("ann", "bob")
"""The seats' names, in seat order."""


class AheadClock:
    """The server's monotonic clock, plus the seconds a test moved it ahead by."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.ahead


@pytest.fixture(scope="module")
def clock(live_server) -> Iterator[AheadClock]:
    """The live server's turn clock, moved ahead by the test (a turn's time runs out at once)."""
    service = live_server[1].state.service
    real, service.clock.now = service.clock.now, AheadClock()
    yield service.clock.now
    service.clock.now = real


def label(driver: WebDriver) -> str:
    return driver.find_element(By.ID, "turn-label").text


def countdown(driver: WebDriver) -> str:
    """The turn's time left in the page's bar ("" when hidden)."""
    box = driver.find_element(By.ID, "turn-clock")
    return box.text if box.is_displayed() else ""


def text_of(driver: WebDriver, css: str) -> str | None:
    """The text of the element ``css`` finds, read in one step (a panel drawn again
    meanwhile leaves no stale element behind)."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e && e.textContent", css
    )


def fits(driver: WebDriver, *ids: str) -> None:
    assert no_sideways_scroll(driver)
    for element_id in ids:
        assert inside_viewport(driver, driver.find_element(By.ID, element_id)), element_id


def create_in_lobby(driver: WebDriver, server: str, turn_limit: str) -> dict[int, str]:
    """A game of two humans, ann and bob, made in the lobby with the turn time limit
    labelled ``turn_limit``: each seat's join link."""
    driver.get(server + "/")
    rows = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#seats .seat-row"))
    for row, name in zip(rows, NAMES, strict=True):
        Select(row.find_element(By.CSS_SELECTOR, ".seat-kind")).select_by_value("human")
        field = row.find_element(By.CSS_SELECTOR, ".seat-name")
        field.clear()
        field.send_keys(name)
    Select(driver.find_element(By.ID, "turn-seconds")).select_by_visible_text(turn_limit)
    driver.find_element(By.ID, "create-game").click()
    joins = wait(driver, lambda d: clickable(d, "#links a.join"))
    return {int(a.get_attribute("data-seat")): a.get_attribute("href") for a in joins}


def game_of(link: str) -> str:
    return parse_qs(urlparse(link).query)["game"][0]


def token_of(link: str) -> str:
    return urlparse(link).fragment.removeprefix("token=")


def play_to_the_end(server: str, game: str, token: str) -> None:
    """The seat of ``token`` plays its turns over the API (the first legal command each
    time) until the game is over, the bots playing theirs in between."""
    deadline = time.monotonic() + 60
    while not (view := api(server, f"/api/games/{game}", token=token))["finished"]:
        assert time.monotonic() < deadline, "the game did not finish"
        if not view["your_turn"]:
            time.sleep(0.02)  # a bot's turn, played in the background
            continue
        body = {"command": next_command(view), "expected_version": view["version"]}
        api(server, f"/api/games/{game}/commands", body, token=token)


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_timed_out_seat_is_handed_to_greedy_and_the_game_finishes(server, browsers, clock, size):
    width, height = size
    other = browsers(width, height)  # the creator, who plays the seat not to move first
    links = create_in_lobby(other, server, "30 s")
    game = game_of(links[0])
    assert api(server, f"/api/games/{game}")["turn_seconds"] == 30
    mover = api(server, f"/api/games/{game}")["state"]["current_player"]
    idle = browsers(width, height)
    idle.get(links[mover])
    wait(idle, lambda d: label(d).startswith("Your turn"))
    other.get(links[1 - mover])
    waiting = f"{NAMES[mover]} to play"
    wait(other, lambda d: label(d).startswith(waiting))
    for page in (idle, other):
        assert COUNTDOWN.match(countdown(page)), countdown(page)
        fits(page, "turn-label", "turn-clock")
    screenshot(other, f"handover-countdown-{width}.png", width)

    clock.ahead += 30  # the seat to move lets its turn's time run out
    wait(idle, lambda d: label(d) == "Seat handed to a bot")
    assert "a bot plays this seat now" in idle.find_element(By.ID, "error").text
    assert countdown(idle) == ""  # the page stopped: no clock ticking on
    fits(idle, "turn-label", "error")
    screenshot(idle, f"handover-refused-{width}.png", width)
    idle.find_element(By.ID, "watch-game").click()  # its player watches the game go on
    wait(idle, lambda d: d.current_url == f"{server}/spectate.html?game={game}")
    handed = f"{NAMES[mover]} (bot: greedy, took over)"
    wait(other, lambda d: label(d).startswith("Your turn"))  # greedy played the seat's turn
    assert handed in other.find_element(By.ID, "scores").text
    assert COUNTDOWN.match(countdown(other)), countdown(other)  # the turn's clock started again
    fits(other, "turn-label", "turn-clock")  # the scores table scrolls inside its panel on a phone
    screenshot(other, f"handover-took-over-{width}.png", width)

    before = version(other)
    play_one_step(other, set(PAIRS_ONLY))  # the human seat plays on, by clicking
    assert version(other) > before
    play_to_the_end(server, game, token_of(links[1 - mover]))
    wait(other, ended, 30)
    wait(idle, ended)
    assert handed in other.find_element(By.ID, "end").text
    assert countdown(other) == ""  # no clock once the game is over
    fits(other, "end")
    screenshot(other, f"handover-end-{width}.png", width)
    view = api(server, f"/api/games/{game}")
    assert view["seats"][mover]["handed"] == {"bot": "greedy", "reason": "time-limit"}
    assert view["seats"][1 - mover]["handed"] is None
    for page in (idle, other):
        assert not [e for e in js_errors(page) if "401" not in e]  # the refusal itself


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_creator_hands_a_seat_to_a_bot_from_the_spectator_page(server, browsers, size):
    width, height = size
    created = api(server, "/api/games", {"seats": [{"name": name} for name in NAMES]})
    game = created["game_id"]
    mover = api(server, f"/api/games/{game}")["state"]["current_player"]  # the seat handed over
    handed = f"{NAMES[mover]} (bot: greedy, took over)"
    player = browsers(width, height)
    player.get(server + created["seats"][1 - mover]["join_link"])
    wait(player, lambda d: label(d).startswith(f"{NAMES[mover]} to play"))
    assert countdown(player) == ""  # no turn time limit: no clock

    creator = browsers(width, height)
    creator.get(server + created["creator_link"])
    button = wait(creator, lambda d: clickable(d, f'#seat-links button.hand-to-bot[data-seat="{mover}"]'))[0]
    button.click()
    assert button.text == f"Hand {NAMES[mover]}'s seat to greedy?"
    fits(creator, "creator")
    screenshot(creator, f"handover-creator-confirm-{width}.png", width)
    button.click()
    item = f'#seat-links li[data-seat="{mover}"]'
    wait(creator, lambda d: text_of(d, item) == handed)  # the panel drawn again: a bot's seat
    assert not creator.find_elements(By.CSS_SELECTOR, f"{item} button")
    fits(creator, "creator")
    screenshot(creator, f"handover-creator-done-{width}.png", width)

    wait(player, lambda d: label(d).startswith("Your turn"))  # greedy played the handed seat's turn
    assert handed in player.find_element(By.ID, "scores").text
    fits(player, "turn-label")
    assert api(server, f"/api/games/{game}")["seats"][mover]["handed"] == {
        "bot": "greedy",
        "reason": "creator",
    }
    for page in (player, creator):
        assert not js_errors(page)
