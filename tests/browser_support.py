"""The pit board in a real browser, for the tests: Debian's chromium, headless, driven by Selenium
through Debian's chromedriver (nothing downloaded: both paths are given).

Timing is taken in the page: a MutationObserver the test installs (:data:`STAMP`) stamps
(``Date.now()``) the moment each element with a ``data-key`` first enters the DOM, and the test waits
for a key with an asynchronous script that the observer answers (:func:`seen`: no polling). Anything
else a test waits for in the page is a condition chromedriver checks (:func:`until`), never a sleep.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
HAVE_CHROMIUM = CHROMIUM.exists() and CHROMEDRIVER.exists()
needs_chromium = pytest.mark.skipif(not HAVE_CHROMIUM,
                                    reason="Debian's chromium and chromium-driver are not installed (.ci/setup)")

STAMP = """
window.__seen = {}; window.__waiters = [];
const scan = () => {
  const now = Date.now();
  for (const node of document.querySelectorAll('[data-key]')) {
    const key = node.getAttribute('data-key');
    if (!(key in window.__seen)) {
      const tile = node.closest('article');
      window.__seen[key] = {at: now, text: node.textContent, tile: tile ? tile.className : null};
    }
  }
  window.__waiters = window.__waiters.filter(w => {
    if (!(w.key in window.__seen)) return true;
    w.done(window.__seen[w.key]);
    return false;
  });
};
new MutationObserver(scan).observe(document.documentElement, {subtree: true, childList: true});
scan();
window.__said = [];
const alert = document.getElementById('announce');
if (alert) new MutationObserver(() => window.__said.push(alert.textContent)).observe(
  alert, {childList: true, characterData: true, subtree: true});
"""

WAIT_KEY = """
const [key, done] = arguments;
if (key in window.__seen) done(window.__seen[key]); else window.__waiters.push({key, done});
"""


def open_browser(profile: Path, width: int = 1600, height: int = 1000) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--hide-scrollbars", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


@pytest.fixture
def browsers(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """``browsers(width, height)`` -> a new headless Chromium (its own profile, so its own cookies),
    quit after the test."""
    if not HAVE_CHROMIUM:
        pytest.skip("Debian's chromium and chromium-driver are not installed (.ci/setup)")
    made: list[Any] = []

    def make(width: int = 1600, height: int = 1000, *, screen: bool = False) -> Any:
        """``screen``: the page gets the whole ``width`` x ``height`` (a floor screen's browser in
        kiosk mode, no tabs or address bar), not a window of that size."""
        driver = open_browser(tmp_path / f"chromium-profile-{len(made)}", width, height)
        made.append(driver)
        if screen:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        return driver

    yield make
    for driver in made:
        driver.quit()


@pytest.fixture
def browser(browsers: Callable[..., Any]) -> Any:
    return browsers()


def stamped(driver: Any, url: str) -> None:
    """Open ``url`` and stamp every keyed element from then on."""
    driver.get(url)
    driver.execute_script(STAMP)


def seen(driver: Any, key: str, timeout: float = 30.0) -> dict:
    """When ``key`` entered the DOM (``at``, unix seconds), its text then and its tile's classes
    then, waiting for it up to ``timeout``."""
    driver.set_script_timeout(timeout)
    found = driver.execute_async_script(WAIT_KEY, key)
    return {**found, "at": found["at"] / 1000.0}


def until(driver: Any, script: str, *args: Any, timeout: float = 15.0) -> Any:
    """Wait until ``script`` (``return ...``) gives something true in the page, and give it."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: d.execute_script(script, *args),
                                                f"never true in the page: {script}")


def screenshot(driver: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    assert driver.save_screenshot(str(path)), "chromium took no screenshot"
    print(f"board screenshot: {path}")
    return path


def log_in(driver: Any, url: str, user: str, password: str, then: str = "/") -> None:
    """Log in on the board's form, as a person does, and land on ``then``."""
    from urllib.parse import quote

    driver.get(f"{url}/login?next={quote(then, safe='/')}")
    driver.find_element("id", "user").send_keys(user)
    field = driver.find_element("id", "password")
    field.send_keys(password)
    field.submit()
    until(driver, "return location.pathname === arguments[0] && !!document.getElementById('who')", then)


def confirm(driver: Any, fields: dict[str, str] | None = None) -> str:
    """Fill the open confirmation dialog's ``fields`` (id -> text), confirm, and give what the board
    said (the dialog's answer line once it is not "Sending…")."""
    for field, text in (fields or {}).items():
        driver.find_element("id", field).send_keys(text)
    driver.find_element("id", "confirm-go").click()
    return until(driver, "const s = document.getElementById('confirm-said'); "
                         "return s && s.textContent && s.textContent !== 'Sending…' && s.textContent")
