"""Seats that survive (issue 24) in a real browser, on a desktop (1280x800) and a phone
(390x844): a seat's link opened again in a fresh browser plays on, the bare address
opens the seat again in the same browser, "Copy my link", the creator replacing a seat's
link (the old one refused, on the open page too), a creator who plays reaching the
seats' management from the play page, and "game not found" / "page not found" where an
address leads nowhere."""

from __future__ import annotations

import uuid

import pytest
from browser_support import (
    BROWSER,
    PAIRS_ONLY,
    SIZES,
    api,
    clickable,
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

pytest_plugins = ["browser_support"]
pytestmark = BROWSER


def label(driver: WebDriver) -> str:
    return driver.find_element(By.ID, "turn-label").text


def my_turn(driver: WebDriver) -> None:
    wait(driver, lambda d: label(d).startswith("Your turn"))


def fake_clipboard(driver: WebDriver) -> None:
    driver.execute_script(
        "Object.defineProperty(navigator, 'clipboard', {value: {writeText: (t) =>"
        " { window.__copied = t; return Promise.resolve(); }}})"
    )


def fits(driver: WebDriver, *ids: str) -> None:
    assert no_sideways_scroll(driver)
    for element_id in ids:
        assert inside_viewport(driver, driver.find_element(By.ID, element_id)), element_id


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_seat_link_opens_again_in_a_fresh_browser_and_plays_on(server, browsers, size):
    width, height = size
    created = api(server, "/api/games", {"seats": [{"name": "ann"}, {"bot": "greedy"}]})
    gid, link = created["game_id"], server + created["seats"][0]["join_link"]
    first = browsers(width, height)
    first.get(link)
    my_turn(first)
    play_one_step(first, set(PAIRS_ONLY))  # a pair taken: a tile in hand
    fake_clipboard(first)
    first.find_element(By.ID, "copy-link").click()
    wait(first, lambda d: d.find_element(By.ID, "copy-link").text == "Copied", 5)
    assert first.execute_script("return window.__copied") == link
    assert first.current_url == link  # the fragment stays: a reload keeps the seat
    fits(first, "copy-link", "turn-label")
    screenshot(first, f"seat-play-{width}.png", width)
    taken = version(first)
    assert not js_errors(first)
    first.quit()  # the tab, the browser, its storage: all gone

    again = browsers(width, height)
    again.get(link)
    wait(again, lambda d: version(d) == taken)
    play_one_step(again, set(PAIRS_ONLY))  # the tile in hand placed: the game goes on
    assert version(again) > taken
    again.get(f"{server}/play.html?game={gid}")  # the bare address, in this browser
    wait(again, lambda d: version(d) > taken)
    assert again.current_url == link  # the seat and its fragment put back
    assert not again.find_element(By.ID, "error").is_displayed()
    assert not js_errors(again)


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_creator_replaces_a_seats_link_and_the_old_one_is_refused(server, browsers, size):
    width, height = size
    creator = browsers(width, height)
    creator.get(server + "/")
    name = wait(creator, lambda d: d.find_elements(By.CSS_SELECTOR, "#seats .seat-name"))[0]
    name.clear()
    name.send_keys("ann")
    creator.find_element(By.ID, "create-game").click()
    old = wait(creator, lambda d: clickable(d, "#links a.join"))[0].get_attribute("href")
    manage = creator.find_element(By.ID, "creator-link").get_attribute("href")
    assert "#creator=" in manage and "/spectate.html?game=" in manage
    fits(creator, "creator-item")
    screenshot(creator, f"seat-lobby-{width}.png", width)

    player = browsers(width, height)
    player.get(old)
    my_turn(player)

    creator.get(manage.split("#")[0])  # the lobby kept the creator's token: the bare address
    button = wait(creator, lambda d: clickable(d, "#seat-links button.new-link"))[0]
    assert creator.current_url == manage
    assert len(clickable(creator, "#seat-links button.new-link")) == 1  # one human seat
    button.click()
    assert button.text == "Replace ann's link?"
    fits(creator, "creator")
    screenshot(creator, f"seat-creator-{width}.png", width)
    button.click()
    new = wait(creator, lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-links code.join-link"))[0].text
    assert new.startswith(f"{server}/play.html?game=") and new != old
    fits(creator, "creator")
    screenshot(creator, f"seat-creator-new-{width}.png", width)

    # the page open on the old link stops, saying why (its stream ended)
    wait(player, lambda d: label(d) == "Link replaced", 20)
    assert "replaced by the game's creator" in player.find_element(By.ID, "error").text
    assert player.find_element(By.ID, "copy-link").is_displayed() is False
    fits(player, "turn-label", "error")
    screenshot(player, f"seat-replaced-{width}.png", width)

    fresh = browsers(width, height)
    fresh.get(old)
    wait(fresh, lambda d: label(d) == "Link replaced")
    fresh.get(new)
    my_turn(fresh)
    for driver in (creator, player, fresh):
        assert not [e for e in js_errors(driver) if "401" not in e]  # the refusals themselves


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_creator_who_plays_manages_the_seats_from_the_play_page(server, browsers, size):
    """The lobby's creator opens their own seat: the play page's header links to the
    seats' management (new links, a seat handed to a bot); a seat opened in a browser
    that did not create the game shows no such link."""
    width, height = size
    creator = browsers(width, height)
    creator.get(server + "/")
    names = wait(creator, lambda d: d.find_elements(By.CSS_SELECTOR, "#seats .seat-name"))
    names[0].clear()
    names[0].send_keys("ann")
    creator.find_element(By.ID, "create-game").click()
    link = wait(creator, lambda d: clickable(d, "#links a.join"))[0].get_attribute("href")
    creator.get(link)
    my_turn(creator)
    manage = wait(creator, lambda d: clickable(d, "#manage-seats"))[0]
    fits(creator, "manage-seats", "copy-link", "turn-label")
    screenshot(creator, f"seat-play-creator-{width}.png", width)
    manage.click()
    wait(creator, lambda d: clickable(d, "#seat-links button.new-link"))
    assert "/spectate.html?game=" in creator.current_url
    assert not js_errors(creator)

    other = browsers(width, height)
    other.get(link)
    my_turn(other)
    assert not other.find_element(By.ID, "manage-seats").is_displayed()


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_an_address_that_leads_nowhere_says_so(server, browsers, size):
    width, height = size
    created = api(server, "/api/games", {"seats": [{"name": "ann"}, {"name": "bob"}]})
    gid = created["game_id"]
    driver = browsers(width, height)
    for path in (
        f"/play.html?game={uuid.uuid4()}&seat=0#token={'x' * 43}",  # no such game
        f"/play.html?game={gid[:8]}&seat=0",  # a prefix of a game's id
        f"/play.html?game={gid.upper()}",
        f"/spectate.html?game={gid[:8]}",
    ):
        driver.get(server + path)
        wait(driver, lambda d: label(d) == "Game not found")
        assert "no game" in driver.find_element(By.ID, "error").text
    fits(driver, "turn-label", "error")
    screenshot(driver, f"seat-no-game-{width}.png", width)

    driver.get(f"{server}/play.html?game={gid}")  # a real game, but no seat in this browser
    wait(driver, lambda d: label(d) == "No seat")
    assert "join link" in driver.find_element(By.ID, "error").text
    screenshot(driver, f"seat-no-seat-{width}.png", width)

    token = created["seats"][1]["token"]
    driver.get(f"{server}/play.html?game={gid}&seat=1&token={token}")  # a token in the query
    wait(driver, lambda d: label(d) == "Link not accepted")
    assert token not in driver.current_url

    driver.get(f"{server}/no-such-page")
    assert label(driver) == "Page not found"
    assert driver.find_element(By.CSS_SELECTOR, "#not-found a.button").get_attribute("href") == server + "/"
    fits(driver, "not-found")
    screenshot(driver, f"seat-page-not-found-{width}.png", width)
