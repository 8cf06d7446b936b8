"""Screens that explain (issue 24) in a real browser, on a desktop (1280x800) and a phone
(390x844): each scoring card's rule on hover and on tap (the texts of ``GET /api/cards``),
the key to habitats, species and keystones, the "How to play" link of every page and its
page, and with secret cards a seat's own total as "N + ?"."""

from __future__ import annotations

import urllib.request

import pytest
from browser_support import (
    BROWSER,
    PAIRS_ONLY,
    SIZES,
    api,
    inside_viewport,
    js_errors,
    no_sideways_scroll,
    play_one_step,
    screenshot,
    wait,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

pytest_plugins = ["browser_support"]
pytestmark = BROWSER

HABITATS = ["mountain", "forest", "prairie", "wetland", "river"]


def rule_texts(server: str) -> dict[str, str]:
    """Each card's rule as the pages show it, from ``GET /api/cards``."""
    cards = api(server, "/api/cards")["cards"]
    return {c["card"]: f"{c['card']}: {c['scores']} (rules {c['rule']})" for c in cards}


def shown_rule(driver: WebDriver) -> str | None:
    """The text below the cards line (``None`` while it is hidden)."""
    rule = driver.find_element(By.ID, "card-rule")
    return rule.text if rule.is_displayed() else None


def card_buttons(driver: WebDriver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#cards button.card")


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_tapped_card_shows_its_rule_and_the_key_shows_the_habitats(server, browsers, size):
    width, height = size
    seats = [{"name": "ann"}, {"bot": "greedy"}]
    created = api(server, "/api/games", {"seats": seats, "options": {"cards": "A,B,C,D,A"}})
    texts = rule_texts(server)
    driver = browsers(width, height)
    driver.get(server + created["seats"][0]["join_link"])
    wait(driver, lambda d: len(card_buttons(d)) == 5)
    buttons = card_buttons(driver)
    assert [b.text for b in buttons] == ["bear A", "elk B", "salmon C", "hawk D", "fox A"]
    assert all(b.get_attribute("title") == texts[b.text] for b in buttons)  # the hover text
    assert shown_rule(driver) is None
    buttons[1].click()
    wait(driver, lambda d: shown_rule(d) == texts["elk B"])
    assert inside_viewport(driver, driver.find_element(By.ID, "card-rule"))
    screenshot(driver, f"explain-card-{width}.png", width)
    card_buttons(driver)[3].click()  # another card replaces it
    wait(driver, lambda d: shown_rule(d) == texts["hawk D"])
    card_buttons(driver)[3].click()  # tapped again: hidden
    wait(driver, lambda d: shown_rule(d) is None)
    card_buttons(driver)[0].send_keys(Keys.ENTER)  # the keyboard too
    wait(driver, lambda d: shown_rule(d) == texts["bear A"])
    assert card_buttons(driver)[0].get_attribute("aria-expanded") == "true"
    wait(driver, lambda d: d.find_element(By.ID, "turn-label").text.startswith("Your turn"))
    play_one_step(driver, set(PAIRS_ONLY))  # the page redraws: the rule stays shown
    assert shown_rule(driver) == texts["bear A"]

    habitats = driver.find_elements(By.CSS_SELECTOR, "#key-habitats li")
    assert not any(item.is_displayed() for item in habitats)
    driver.find_element(By.CSS_SELECTOR, "#key summary").click()
    wait(driver, lambda d: all(item.is_displayed() for item in habitats))
    assert [item.text for item in habitats] == HABITATS
    assert len(driver.find_elements(By.CSS_SELECTOR, "#key-species li")) == 5
    assert "nature token" in driver.find_element(By.ID, "key").text
    assert no_sideways_scroll(driver)
    driver.execute_script("document.getElementById('key').scrollIntoView()")
    screenshot(driver, f"explain-key-{width}.png", width)

    watcher = browsers(width, height)  # the spectator page: the same cards line and key
    watcher.get(server + created["spectate_link"])
    wait(watcher, lambda d: len(card_buttons(d)) == 5)
    card_buttons(watcher)[2].click()
    wait(watcher, lambda d: shown_rule(d) == texts["salmon C"])
    watcher.find_element(By.CSS_SELECTOR, "#key summary").click()
    wait(watcher, lambda d: d.find_element(By.ID, "key-habitats").is_displayed())
    assert no_sideways_scroll(watcher)
    if width >= 1280:  # the scores table spans the page, not a narrow column it scrolls in
        scores = watcher.find_element(By.CSS_SELECTOR, "#scores").find_element(By.XPATH, "..")
        assert watcher.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", scores)
    screenshot(watcher, f"explain-spectate-{width}.png", width)
    assert not js_errors(driver) and not js_errors(watcher)


def known_part(score: dict) -> int:
    """What a viewer can add up of a total that depends on a hidden card."""
    wildlife = sum(points for points in score["wildlife"].values() if points is not None)
    return wildlife + score["habitat_total"] + score["bonus_total"] + score["nature_tokens"]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_with_secret_cards_a_seat_sees_its_own_total_as_known_points_plus_a_question(server, browsers, size):
    width, height = size
    seats = [{"name": "ann"}, {"name": "bob"}]
    created = api(server, "/api/games", {"seats": seats, "options": {"rules": ["secret_cards"]}})
    ann = created["seats"][0]
    view = api(server, f"/api/games/{created['game_id']}", token=ann["token"])
    mine = view["state"]["scores"]["players"][0]
    assert mine["total"] is None  # the server still hides it: bob's card is not revealed
    hidden = [species for species, letter in view["state"]["cards"].items() if letter is None]
    assert len(hidden) == 1
    driver = browsers(width, height)
    driver.get(server + ann["join_link"])
    wait(driver, lambda d: len(card_buttons(d)) == 5)
    expected = f"{known_part(mine)} + ?"
    assert driver.find_element(By.ID, "my-info").text.startswith(f"{expected} points")
    row = driver.find_element(By.CSS_SELECTOR, "#scores tbody tr")
    assert row.find_element(By.CSS_SELECTOR, "td.total").text == expected
    hint = driver.find_element(By.ID, "scores-hint").text
    assert "? : the points of a card not revealed yet" in hint
    button = driver.find_element(By.ID, f"card-{hidden[0]}")
    assert button.text == f"{hidden[0]} ?"
    button.click()
    said = f"{hidden[0]} ?: a secret card, hidden until revealed"
    wait(driver, lambda d: (shown_rule(d) or "").startswith(said))
    assert no_sideways_scroll(driver)
    screenshot(driver, f"explain-secret-{width}.png", width)
    assert not js_errors(driver)


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_every_page_links_to_how_to_play_and_it_fits_a_phone(server, browsers, size):
    width, height = size
    created = api(server, "/api/games", {"seats": [{"name": "ann"}, {"bot": "greedy"}]})
    made = api(server, "/api/maps", {"name": "campaign"})
    seat = created["seats"][0]["join_link"]
    pages = [
        "/",
        seat,
        created["spectate_link"],
        f"/map.html?map={made['map_id']}",
        "/table.html",
        "/no-such-page.html",
    ]
    driver = browsers(width, height)
    for page in pages:
        driver.get(server + page)
        link = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "header.bar a.help"))
        assert link.text == "How to play" and link.get_attribute("href") == server + "/how-to-play.html", page
        assert inside_viewport(driver, link), page
    link.click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#key-habitats li"))
    text = driver.find_element(By.TAG_NAME, "main").text
    for words in ("Take a pair", "Place the tile", "return it", "Overpopulation", "keystone", "20 rounds"):
        assert words in text, words
    assert [i.text for i in driver.find_elements(By.CSS_SELECTOR, "#key-habitats li")] == HABITATS
    assert no_sideways_scroll(driver)
    screenshot(driver, f"explain-how-to-play-{width}.png", width)
    rules = driver.find_element(By.ID, "rules-link").get_attribute("href")
    with urllib.request.urlopen(rules, timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain")
        assert answer.read().decode().startswith("# The rules of Cascadia")
    assert [e for e in js_errors(driver) if "/no-such-page.html " not in e] == []  # its 404 is meant
