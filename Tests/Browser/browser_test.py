#!/usr/bin/env python3
"""Drives `ingest serve` in headless Chromium (Debian's chromium and chromium-driver, Selenium).

    browser_test.py URL ARTEFACTS FIRST SECOND SPLIT_AT

Opens the catalogue, filters it, opens a capture, merges capture FIRST into SECOND through the
catalogue's tick boxes and Merge button, splits the merged capture back at photo SPLIT_AT through
its "Split here" button, and checks the catalogue afterwards. Every page must load without a
console error (the browser's log at level SEVERE, CSP violations included). A screenshot of each
page goes to ARTEFACTS. Exits 1 naming the first check that failed; prints one line per step.
`settler` and `run` serve signin_test.py too.
"""
import json
import os
import sys
import tempfile

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait


class Check(Exception):
    pass


def browser(phone=None):
    """Headless Chromium; with `phone` (width, height), a phone's screen of that size in CSS pixels,
    with touch and a phone's user agent (Chromium's mobile emulation)."""
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--disable-extensions", "--no-first-run"]:
        options.add_argument(argument)
    if phone:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": phone[0], "height": phone[1], "pixelRatio": 2.625, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                         "Chrome/120.0 Mobile Safari/537.36"})
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def settler(driver, wait, artefacts):
    """settle(name, status=None): waits for the page, saves its screenshot as ARTEFACTS/name.png, and
    fails on any console error so far but the one that reports `status` for a page meant to fail."""
    def settle(name, status=None):
        wait.until(lambda d: d.execute_script("return document.readyState") == "complete")
        driver.save_screenshot(os.path.join(artefacts, f"{name}.png"))
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and not (status and f"status of {status}" in entry["message"])]
        if errors:
            raise Check(f"{name}: console errors: {errors}")
        print(f"{name}: {driver.title} ({driver.current_url})", flush=True)
    return settle


def run(label, artefacts, steps, phone=None):
    """Runs steps(driver, wait, settle) in a new headless Chromium (a phone's, see `browser`); 0, or
    1 after saying which check failed (its screenshot: ARTEFACTS/LABEL-failure.png)."""
    os.makedirs(artefacts, exist_ok=True)
    # Chromium's own temporary folders (its singleton socket's, which outlive driver.quit()) go in
    # one of ours, removed after it: a run of the tests leaves nothing in /tmp.
    with tempfile.TemporaryDirectory(prefix="browser-", ignore_cleanup_errors=True) as scratch:
        os.environ["TMPDIR"] = scratch
        driver = browser(phone)
        driver.set_page_load_timeout(30)
        wait = WebDriverWait(driver, 15)
        try:
            steps(driver, wait, settler(driver, wait, artefacts))
        except (Check, WebDriverException) as failure:
            print(f"{label} failed: {failure}", file=sys.stderr)
            try:
                driver.save_screenshot(os.path.join(artefacts, f"{label}-failure.png"))
            except WebDriverException:
                pass
            return 1
        finally:
            driver.quit()
    return 0


def main():
    url, artefacts, first, second, split_at = sys.argv[1:6]
    return run("catalogue", artefacts, lambda driver, wait, settle: merge_and_split(
        driver, wait, settle, url, first, second, split_at))


def merge_and_split(driver, wait, settle, url, first, second, split_at):
    def cards():
        return [card.get_attribute("data-id") for card in driver.find_elements(By.CSS_SELECTOR, "article.card")]

    driver.get(url)
    settle("catalogue")
    everything = cards()
    if first not in everything or second not in everything:
        raise Check(f"catalogue: the captures to merge are not shown: {everything}")

    driver.find_element(By.NAME, "nobarcode").click()
    driver.find_element(By.CSS_SELECTOR, "form.filters button[type=submit]").click()
    wait.until(lambda d: "nobarcode=1" in d.current_url)
    settle("catalogue-filtered")
    filtered = cards()
    codes = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "article.card .code")]
    if not filtered or len(filtered) >= len(everything) or any(code != "no barcode" for code in codes):
        raise Check(f"filter: expected only captures without barcode, got {codes}")

    driver.find_element(By.CSS_SELECTOR, "article.card h3 a").click()
    wait.until(lambda d: "/captures/" in d.current_url)
    settle("capture")
    if not driver.find_elements(By.CSS_SELECTOR, "figure.photo img"):
        raise Check("capture: no photo shown")

    driver.get(url)
    settle("catalogue-again")
    button = driver.find_element(By.ID, "merge-button")
    if button.is_enabled():
        raise Check("merge: the button is enabled before two captures are ticked")
    # The grid lists newest first: the later capture is ticked first and keeps its id.
    for capture in (second, first):
        driver.find_element(By.CSS_SELECTOR, f'article.card[data-id="{capture}"] input[type=checkbox]').click()
    wait.until(expected_conditions.element_to_be_clickable((By.ID, "merge-button")))
    if button.text != "Merge 2 captures":
        raise Check(f"merge: the button says {button.text!r}")
    button.click()
    wait.until(lambda d: f"/captures/{second}" in d.current_url)
    settle("merged")
    notice = driver.find_element(By.ID, "notice").text
    if "merged 2 captures" not in notice:
        raise Check(f"merge: the page does not report it: {notice!r}")
    merged_photos = len(driver.find_elements(By.CSS_SELECTOR, "figure.photo"))
    merged_url = driver.current_url

    driver.find_element(By.CSS_SELECTOR, f'#photo-{split_at} form.split button').click()
    wait.until(lambda d: d.current_url != merged_url)
    settle("split")
    notice = driver.find_element(By.ID, "notice").text
    if "split" not in notice:
        raise Check(f"split: the page does not report it: {notice!r}")
    left = len(driver.find_elements(By.CSS_SELECTOR, "figure.photo"))
    if not 0 < left < merged_photos:
        raise Check(f"split: {left} of {merged_photos} photos left")

    driver.get(url)
    settle("catalogue-after")
    after = cards()
    if len(after) != len(everything) or first in after:
        raise Check(f"catalogue after: {len(after)} captures, {len(everything)} before")

    for name, path in [("review", "review"), ("edits", "edits")]:
        driver.get(url + path)
        settle(name)
    print(json.dumps({"captures": len(after), "merged_photos": merged_photos, "left_after_split": left}))


if __name__ == "__main__":
    sys.exit(main())
