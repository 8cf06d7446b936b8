"""The lobby's list of the server's games (issue 24) in a real browser, on a desktop
(1280x800) and a phone (390x844): an empty server's friendly line; a finished game and a
game in play listed newest first with their round ("round 7 of 20", as the game pages say
it) or winner and scores, a seat handed to a bot marked so; "Watch" opening the game's
spectator page; "Play as" for a seat this browser keeps, its address without the token;
the list read again when the page is shown again; the 20 newest, then "Show more".
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_support import (
    BROWSER,
    SIZES,
    api,
    inside_viewport,
    js_errors,
    no_sideways_scroll,
    screenshot,
    wait,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from server_support import next_command

pytest_plugins = ["browser_support"]
pytestmark = BROWSER

SIZE_IDS = ["desktop", "phone"]


def items(driver: WebDriver) -> list[dict[str, Any]]:
    """The games listed: each one's id, text, and its links' texts and addresses (read in
    one step: a list drawn again meanwhile leaves no stale element behind)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#games li.listed-game')].map((li) => ({"
        " game: li.dataset.game, text: li.innerText,"
        " links: [...li.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]) }));"
    )


def fits(driver: WebDriver) -> None:
    """Nothing scrolls sideways, and no game of the list spills out of the page."""
    assert no_sideways_scroll(driver)
    for element in driver.find_elements(By.CSS_SELECTOR, "#games li, #games-count"):
        assert not element.is_displayed() or inside_viewport(driver, element), element.text


def bots_game(server: str) -> dict[str, Any]:
    """A game of two bots, played to its end on the server (in the background)."""
    created = api(server, "/api/games", {"seats": [{"bot": "greedy"}, {"bot": "random"}]})
    deadline = time.monotonic() + 60
    while not api(server, f"/api/games/{created['game_id']}")["finished"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)
    return created


def play_until_turn(server: str, created: dict[str, Any], turn: int) -> None:
    """The human seats play (the first legal command each), the bots theirs in between,
    until game turn ``turn`` or the first after it that is a human's (then the game
    waits)."""
    game = created["game_id"]
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the game did not get there"
        view = api(server, f"/api/games/{game}")
        seat = view["current_player"]
        if view["seats"][seat]["kind"] != "human":
            time.sleep(0.02)  # a bot's turn, played in the background
            continue
        if view["turn"] >= turn:
            return
        token = created["seats"][seat]["token"]
        mine = api(server, f"/api/games/{game}", token=token)
        body = {"command": next_command(mine), "expected_version": mine["version"]}
        api(server, f"/api/games/{game}/commands", body, token=token)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_an_empty_server_says_so(server, browsers, size):
    driver = browsers(*size)
    driver.get(server + "/")
    empty = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#games li.empty"))
    assert "No games on this server yet" in empty[0].text
    assert not driver.find_element(By.ID, "games-count").is_displayed()
    assert driver.find_element(By.ID, "more-games").is_displayed() is False
    fits(driver)
    screenshot(driver, f"lobby-empty-{size[0]}.png", size[0])
    assert not js_errors(driver)


@pytest.fixture(scope="module")
def games(server) -> dict[str, Any]:
    """A finished game of two bots, then a game of ann, bob (handed to greedy) and cy in
    play, in its fourth round."""
    finished = bots_game(server)
    playing = api(server, "/api/games", {"seats": [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}]})
    creator = playing["creator_token"]
    api(server, f"/api/games/{playing['game_id']}/seats/1/bot", {"bot": "greedy"}, token=creator)
    play_until_turn(server, playing, 11)
    return {"finished": finished, "playing": playing}


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_lobby_lists_a_finished_game_and_a_game_in_play(server, browsers, games, size):
    finished, playing = games["finished"]["game_id"], games["playing"]["game_id"]
    view = api(server, f"/api/games/{playing}")
    score = api(server, f"/api/games/{finished}/score")
    names = [s["name"] for s in api(server, f"/api/games/{finished}")["seats"]]
    winner = names[score["winners"][0]]
    driver = browsers(*size)
    driver.get(server + "/")
    listed = wait(driver, lambda d: len(items(d)) == 2 and items(d))
    assert [g["game"] for g in listed] == [playing, finished]  # newest first

    in_play, over = listed
    round_text = f"round {view['state']['round']['number']} of {view['state']['round']['of']}"
    assert round_text == "round 4 of 20"
    assert "ann, bob (bot: greedy, took over), cy" in in_play["text"]
    assert f"In play · {round_text}" in in_play["text"]
    to_play = ["ann", "bob (bot: greedy, took over)", "cy"][view["current_player"]]
    assert f"{to_play} to play" in in_play["text"]
    assert "greedy (bot), random (bot)" in over["text"]
    assert "Finished after 20 rounds" in over["text"]
    assert f"{winner} won" in over["text"]
    assert len(score["winners"]) == 1, "a tie: the test expects one winner"
    for player in score["players"]:
        assert f"{names[player['seat']]} {player['total']}" in over["text"]
    assert driver.find_element(By.ID, "games-count").text == "2 games, newest first."
    fits(driver)
    screenshot(driver, f"lobby-games-{size[0]}.png", size[0])

    # no seat's token anywhere in the page: the list has none to show
    page = driver.page_source
    for seat in games["playing"]["seats"]:
        assert seat["token"] is None or seat["token"] not in page
    assert games["playing"]["creator_token"] not in page

    watch = driver.find_element(By.CSS_SELECTOR, f'li[data-game="{finished}"] a.watch')
    assert watch.text == "Watch"
    watch.click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#boards section.player"))
    assert driver.current_url == f"{server}/spectate.html?game={finished}"
    assert "Game over" in driver.find_element(By.ID, "turn-label").text
    assert not js_errors(driver)


def test_a_seat_kept_by_this_browser_is_played_from_the_list(server, browsers, games):
    playing = games["playing"]
    ann = playing["seats"][0]
    driver = browsers(*SIZES[1])
    driver.get(server + ann["join_link"])  # the play page keeps ann's token in this browser
    wait(driver, lambda d: d.execute_script("return document.body.dataset.version"))
    driver.get(server + "/")
    listed = wait(driver, lambda d: len(items(d)) == 2 and items(d))
    links = dict(listed[0]["links"])
    assert links["Play as ann"] == f"/play.html?game={playing['game_id']}&seat=0"
    assert "Play as bob" not in links and "Play as cy" not in links  # handed; not kept here
    assert [text for text, _ in listed[1]["links"]] == ["Watch"]  # a finished game is watched
    fits(driver)
    screenshot(driver, "lobby-play-as-390.png", SIZES[1][0])
    driver.find_element(By.CSS_SELECTOR, "a.play").click()
    wait(driver, lambda d: d.execute_script("return document.body.dataset.version"))
    assert driver.find_element(By.ID, "turn-label").text  # ann's page, by the token kept
    assert not js_errors(driver)


def test_the_list_is_read_again_when_the_page_is_shown_and_shows_more_on_demand(server, browsers, games):
    driver = browsers(*SIZES[0])
    driver.get(server + "/")
    wait(driver, lambda d: len(items(d)) == 2)
    made = [api(server, "/api/games", {"seats": [{"name": f"p{i}"}, {"bot": "greedy"}]}) for i in range(20)]
    driver.execute_script("document.dispatchEvent(new Event('visibilitychange'))")  # back to the tab
    listed = wait(driver, lambda d: len(items(d)) == 20 and items(d))
    assert listed[0]["game"] == made[-1]["game_id"]
    assert driver.find_element(By.ID, "games-count").text == "The 20 newest of 22 games."
    more = driver.find_element(By.ID, "more-games")
    assert more.is_displayed()
    more.click()
    listed = wait(driver, lambda d: len(items(d)) == 22 and items(d))
    assert listed[-1]["game"] == games["finished"]["game_id"]
    assert not driver.find_element(By.ID, "more-games").is_displayed()
    assert driver.find_element(By.ID, "games-count").text == "22 games, newest first."
    assert not js_errors(driver)
