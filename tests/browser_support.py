"""What the browser tests share (loaded with ``pytest_plugins = ["browser_support"]``):
the game server in a uvicorn thread, headless chromium sessions (Selenium, Debian's
``chromium`` and ``chromium-driver``; nothing is downloaded), screenshots, and playing a
seat by clicking.

Without chromium the browser tests skip (each module sets ``pytestmark = BROWSER``),
unless ``CASCADIA_REQUIRE_BROWSER=1`` (``.ci/run`` sets it), when they fail.
``CASCADIA_SCREENSHOTS=DIR`` saves the pages' screenshots there.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
REQUIRED = os.environ.get("CASCADIA_REQUIRE_BROWSER") == "1"
PHONE = 390
SIZES = [(1280, 800), (PHONE, 844)]
"""The window sizes a page is tested at: a desktop's and a phone's."""
PAIRS_ONLY = frozenset({"three", "free", "wipe"})
"""``play_one_step``'s steps to leave out: a plain market pair is taken."""
SCREENSHOTS = os.environ.get("CASCADIA_SCREENSHOTS")

try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - selenium is in the test extra
    webdriver = None

_missing = (
    "selenium is not installed"
    if webdriver is None
    else None
    if os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)
    else f"no {CHROMIUM} / {CHROMEDRIVER} (apt-get install chromium chromium-driver)"
)
if _missing and REQUIRED:
    raise RuntimeError(f"CASCADIA_REQUIRE_BROWSER=1 but {_missing}")
BROWSER = pytest.mark.skipif(
    _missing is not None, reason=f"{_missing}; CASCADIA_REQUIRE_BROWSER=1 makes this a failure"
)
"""The mark of every browser test module (its ``pytestmark``)."""


# -- fixtures -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def live_server(tmp_path_factory) -> Iterator[tuple[str, Any]]:
    """The game server (API and client) on a free port: its base URL and its application."""
    import uvicorn
    from cascadia.server.app import ServerConfig, create_app

    home = tmp_path_factory.mktemp("server-home")
    app = create_app(ServerConfig(home=str(home), env={}))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    runner = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    thread = threading.Thread(target=runner.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not runner.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    runner.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def server(live_server) -> str:
    """The live server's base URL."""
    return live_server[0]


@pytest.fixture(scope="module")
def browsers(tmp_path_factory) -> Iterator[Callable[..., WebDriver]]:
    """Makes headless chromium sessions (each its own profile: its own storage); all
    still open (a test may ``quit`` one itself) are closed at the end of the module."""
    made: list[WebDriver] = []

    def make(width: int = 1280, height: int = 900) -> WebDriver:
        downloads = tmp_path_factory.mktemp("downloads")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-dev-shm-usage",
            "--disable-gpu",
            f"--window-size={max(width, 500)},{height}",
            "--hide-scrollbars",
        ):
            options.add_argument(arg)
        options.add_experimental_option("prefs", {"download.default_directory": str(downloads)})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        driver.download_dir = downloads  # type: ignore[attr-defined]
        made.append(driver)
        resize(driver, width, height)
        return driver

    yield make
    for driver in made:
        if driver.service.is_connectable():
            driver.quit()


def resize(driver: WebDriver, width: int, height: int = 900) -> None:
    """The page's viewport: ``width`` CSS pixels (a phone below 500: mobile emulation,
    as desktop chromium keeps windows at least 500 px wide)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500},
    )


def screenshot(driver: WebDriver, name: str, width: int) -> None:
    """Save a full-page screenshot as ``name`` when CASCADIA_SCREENSHOTS names a folder."""
    if not SCREENSHOTS:
        return
    height = driver.execute_script("return document.documentElement.scrollHeight")
    resize(driver, width, min(height, 3000))
    time.sleep(0.3)
    driver.save_screenshot(str(Path(SCREENSHOTS) / name))
    resize(driver, width)


def screenshot_of(element: WebElement, name: str) -> None:
    """Save a screenshot of one element (scrolled into view) as ``name`` when
    CASCADIA_SCREENSHOTS names a folder: a panel far down a long page. The page is
    scrolled back to its top afterwards (as the test left it)."""
    if SCREENSHOTS:
        element.screenshot(str(Path(SCREENSHOTS) / name))
        element.parent.execute_script("window.scrollTo(0, 0)")


def js_errors(driver: WebDriver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def wait(driver: WebDriver, condition: Callable[[WebDriver], Any], seconds: float = 20) -> Any:
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(condition)


def no_sideways_scroll(driver: WebDriver) -> bool:
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def inside_viewport(driver: WebDriver, element) -> bool:
    """Whether ``element`` lies within the viewport's width, its text not spilling out."""
    return driver.execute_script(
        "const e = arguments[0], b = e.getBoundingClientRect();"
        "return b.width > 0 && b.left >= 0 && b.right <= window.innerWidth"
        " && e.scrollWidth <= e.clientWidth + 1;",
        element,
    )


def api(server: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    request = urllib.request.Request(server + path, method="POST" if body is not None else "GET")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(request, data, timeout=10) as answer:
        return json.loads(answer.read())


# -- playing by clicking ------------------------------------------------------------------


def version(driver: WebDriver) -> int:
    return int(driver.execute_script("return document.body.dataset.version || 0"))


def confirm(driver: WebDriver, button_id: str) -> None:
    """Click a confirming button and wait for the page to show the stored move."""
    before = version(driver)
    driver.find_element(By.ID, button_id).click()
    busy = "return document.body.dataset.busy === 'true'"
    wait(driver, lambda d: version(d) > before and not d.execute_script(busy))


def clickable(driver: WebDriver, css: str) -> list:
    return [e for e in driver.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]


def click(driver: WebDriver, css: str, index: int = 0) -> None:
    """Click the ``index``-th visible element matching ``css`` (found afresh: the page
    redraws its SVG after every choice)."""
    for _ in range(5):
        try:
            found = clickable(driver, css)
            found[index % len(found)].click()
            return
        except StaleElementReferenceException:
            time.sleep(0.1)
    raise AssertionError(f"could not click {css}")


def matches(driver: WebDriver, target: int) -> int:
    """The most edges the tile in hand matches at the ``target``-th legal hex (over its
    rotations, as the rotation buttons count them)."""
    click(driver, "#my-board path.target", target)
    labels = [b.get_attribute("aria-label") for b in clickable(driver, "#rotations button")]
    counts = [int(label.split(", ")[1].split()[0]) for label in labels]  # "rotation 2, 1 matching edges"
    return max(counts, default=0)


def play_one_step(driver: WebDriver, seen: set[str]) -> None:
    """Make the next move of the seat's turn by clicking, the way a player would: a
    market pair (once each: the three-alike wipe, a nature token's free choice or wipe
    when offered), a legal hex with a rotation, a token target or else the return."""
    if clickable(driver, "#wipe-three") and "three" not in seen:
        seen.add("three")
        confirm(driver, "wipe-three")
        return
    if clickable(driver, "#nature-free") and "free" not in seen:
        seen.add("free")
        confirm(driver, "nature-free")
        click(driver, "#market-svg g.slot[role=button]", 0)
        click(driver, "#market-svg g.market-token[role=button]", -1)  # a tile and a token of two slots
        assert driver.find_element(By.ID, "take").text.startswith("Take ")
        confirm(driver, "take")
        return
    if clickable(driver, "#nature-wipe") and "wipe" not in seen:
        seen.add("wipe")
        driver.find_element(By.ID, "nature-wipe").click()
        click(driver, "#market-svg g.market-token[role=button]", 1)
        confirm(driver, "confirm-wipe")
        return
    if clickable(driver, "#market-svg g.slot[role=button]"):
        click(driver, "#market-svg g.slot[role=button]", len(seen))
        confirm(driver, "take")
        seen.add(f"take{len(seen)}")
        return
    if clickable(driver, "#my-board path.target"):
        middle = len(clickable(driver, "#my-board path.target")) // 2  # keeps the board compact
        click(driver, "#my-board path.target", middle)
        if clickable(driver, "#rotations button"):
            seen.add("rotations")
            click(driver, "#rotations button", -1)
            chosen = driver.find_element(By.CSS_SELECTOR, "#rotations button:last-child")
            assert "chosen" in chosen.get_attribute("class")
        assert driver.find_elements(By.CSS_SELECTOR, "#my-board g.preview")
        confirm(driver, "place-tile")
        return
    if clickable(driver, "#my-board circle.token-target"):
        click(driver, "#my-board circle.token-target", 0)
        seen.add("token")
        confirm(driver, "place-token")
        return
    confirm(driver, "return-token")
    seen.add("return")


def ended(driver: WebDriver) -> bool:
    return driver.find_element(By.ID, "end").is_displayed()
