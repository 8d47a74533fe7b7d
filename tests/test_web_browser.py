"""``codebots serve`` in a real headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by selenium): whole games played by clicking and typing, as a
person does, against a real server."""

from __future__ import annotations

import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.common.exceptions import (  # noqa: E402
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from codebots.play import Session  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
NO_BROWSER = (
    "Debian's chromium and chromium-driver are not installed (make test installs them as "
    "root: apt-get install chromium chromium-driver)"
)
CLUES = ["ocean", "planet", "thunder", "candle", "pirate", "rocket", "garden", "winter"]
CLUES += ["silver", "dragon", "forest", "engine", "castle", "river", "music", "desert"]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real uvicorn server on a free loopback port: ``(base url, records folder)``."""
    import uvicorn

    from codebots.web.app import create_app

    records = tmp_path_factory.mktemp("web") / "records"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(records), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", records
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER):
        pytest.skip(NO_BROWSER)
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument("--window-size=1200,1100")
    try:
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    except WebDriverException as error:
        pytest.skip(f"{NO_BROWSER}: {error.msg}")
    yield driver
    driver.quit()


def new_game(browser, server, variant: str, role: str = "guesser", seed: int = 3) -> str:
    base, _ = server
    browser.get(base + "/")
    Select(browser.find_element(By.ID, "variant")).select_by_value(variant)
    Select(browser.find_element(By.ID, "role")).select_by_value(role)
    for field, value in (("spymaster", "glove"), ("guesser", "glove"), ("seed", str(seed))):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.ID, "start").click()
    # The server answers once the game is made (and the AI has moved): under load that can
    # take longer than the click, so wait for the game page rather than read the URL at once.
    WebDriverWait(browser, 60).until(lambda driver: "/games/" in driver.current_url)
    assert "/games/" in browser.current_url, browser.page_source[:500]
    return browser.current_url.rsplit("/", 1)[1]


def present(browser, element_id: str):
    try:
        return browser.find_element(By.ID, element_id)
    except NoSuchElementException:
        return None


def shown(browser, element_id: str, containing: str = "", timeout: float = 30):
    """The element once the page the last click or Enter asked for shows it (with the text
    ``containing``): the answer can take longer than the click under load, and the page
    being left may still be there meanwhile."""

    def ready(driver):
        element = present(driver, element_id)
        return element if element is not None and containing in element.text else None

    wait = WebDriverWait(browser, timeout, ignored_exceptions=(StaleElementReferenceException,))
    return wait.until(ready)


def play_by_hand(browser, limit: int = 300) -> str:
    """Click the first card in play, pass where the AI may act, or type a clue and press
    Enter, until the result shows; returns it."""
    clues = iter(CLUES * 20)
    for _ in range(limit):
        try:
            result = present(browser, "result")
            if result is not None:
                return result.text
            cards = browser.find_elements(By.CSS_SELECTOR, "button.card")
            if cards:
                cards[0].click()
            elif present(browser, "pass") is not None:
                browser.find_element(By.ID, "pass").click()
            else:  # the keyboard: a clue typed and sent with Enter
                browser.find_element(By.ID, "text").send_keys(f"{next(clues)} 1", Keys.ENTER)
        except (StaleElementReferenceException, NoSuchElementException):
            continue  # the page was replaced by the server's answer meanwhile: look again
        except WebDriverException as error:  # the same race, as Chromium reports it mid-click
            if "does not belong to the document" not in str(error):
                raise
    raise AssertionError("the game did not end")


def finished_record(server, game_id: str) -> Session:
    session = Session.load(server[1] / f"web-{game_id}.jsonl")
    assert session.done
    return session


def test_a_single_team_game_as_the_guesser(browser, server):
    game_id = new_game(browser, server, "single-team-2019")
    assert "red's guesser" in browser.page_source
    result = play_by_hand(browser)
    assert result.startswith(("You won", "You lost"))
    assert finished_record(server, game_id).result_text() == result
    assert len(browser.find_elements(By.CSS_SELECTOR, "#clues li")) >= 1


def test_a_classic_game_as_the_spymaster(browser, server):
    game_id = new_game(browser, server, "classic", role="spymaster", seed=8)
    assert browser.find_elements(By.CSS_SELECTOR, ".card.is-assassin")  # the key is shown
    result = play_by_hand(browser)
    assert result.startswith(("Red won", "Blue won"))
    session = finished_record(server, game_id)
    assert any(event["by"] == "human" and event["type"] == "clue" for event in session.events)


def test_a_duet_game_as_player_zero_to_its_end(browser, server):
    game_id = new_game(browser, server, "duet", seed=11)
    assert shown(browser, "status-line", "time bank")
    result = play_by_hand(browser)
    assert result.startswith(("You won", "You lost"))
    assert present(browser, "other-side") is not None  # the AI's side, shown at the end
    assert finished_record(server, game_id).result_text() == result


def test_the_pages_load_nothing_from_the_network(browser, server):
    base, _ = server
    browser.get(base + "/")
    urls = browser.execute_script(
        "return performance.getEntriesByType('resource').map(entry => entry.name)"
    )
    assert urls and all(url.startswith(base) for url in urls), urls


def test_a_mission_from_a_campaign_file(browser, server):
    import json

    base, records = server
    browser.get(base + "/campaigns")
    browser.find_element(By.ID, "name").send_keys("my-log", Keys.ENTER)
    assert shown(browser, "progress", "0 of 24 missions won")
    missions = browser.find_elements(By.CSS_SELECTOR, "#map .mission.is-open")
    assert [m.get_attribute("data-mission") for m in missions] == [
        "london",
        "hogwarts",
        "hogsmeade",
    ]
    browser.find_element(By.ID, "play-london").click()
    result = play_by_hand(browser)
    assert result.startswith(("You won", "You lost"))
    assert shown(browser, "campaign-notes", "campaign saved to")
    progress = json.loads((records / "campaigns" / "my-log.json").read_text())
    assert [game["mission"] for game in progress["games"]] == ["london"]
    assert progress["won"] == (["london"] if result.startswith("You won") else [])
    browser.find_element(By.ID, "back-to-map").click()
    assert shown(browser, "progress", f"{len(progress['won'])} of 24 missions won")
