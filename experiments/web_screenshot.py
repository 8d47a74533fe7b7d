"""The README's picture of the browser table: a Duet game a few moves in, taken with the
same headless Chromium the browser tests drive.

    .venv/bin/python experiments/web_screenshot.py   # writes docs/images/web-duet.png
"""

from __future__ import annotations

import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from codebots.web.app import create_app

OUT = Path(__file__).resolve().parents[1] / "docs" / "images" / "web-duet.png"


def main() -> int:
    with tempfile.TemporaryDirectory() as records, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        server = uvicorn.Server(
            uvicorn.Config(create_app(Path(records)), port=port, log_level="warning")
        )
        threading.Thread(target=server.run, daemon=True).start()
        while not server.started:
            time.sleep(0.05)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--window-size=1100,1180"):
            options.add_argument(flag)
        browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            browser.get(f"http://127.0.0.1:{port}/")
            Select(browser.find_element(By.ID, "variant")).select_by_value("duet")
            seed = browser.find_element(By.ID, "seed")
            seed.clear()
            seed.send_keys("4")
            browser.find_element(By.ID, "start").click()
            for _ in range(4):  # a few moves in: a green found, a clue in play
                cards = browser.find_elements(By.CSS_SELECTOR, "button.card")
                if cards:
                    cards[0].click()
                elif browser.find_elements(By.ID, "pass"):
                    browser.find_element(By.ID, "pass").click()
            OUT.parent.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(OUT))
        finally:
            browser.quit()
            server.should_exit = True
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
