#!/usr/bin/env python3
"""Drives `ingest serve --token` in headless Chromium: signing in, a correction, an error page.

    signin_test.py URL ARTEFACTS TOKEN CODE

Opens the catalogue and must land on the sign-in page; a wrong token must be refused on the page;
the right one must lead back to the catalogue with a session cookie that is HttpOnly and
SameSite=Strict. Then it opens the first capture and sets its barcode to CODE through the page's
form (which carries the session's CSRF token), and opens a capture that does not exist, which must
answer an error page. No console error is allowed but the one that reports the status of a page
that is meant to fail (401 for the wrong token, 404 for the missing capture). A screenshot of each
page goes to ARTEFACTS. Exits 1 naming the first check that failed; last prints the capture's id.
"""
import json
import os
import sys

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import Check, run  # noqa: E402


def main():
    url, artefacts, token, code = sys.argv[1:5]
    return run("signin", artefacts, lambda driver, wait, settle: sign_in_and_correct(
        driver, wait, settle, url, token, code))


def sign_in_and_correct(driver, wait, settle, url, token, code):
    def sign_in(with_token):
        field = driver.find_element(By.NAME, "token")
        field.clear()
        field.send_keys(with_token)
        driver.find_element(By.CSS_SELECTOR, "form.signin button[type=submit]").click()

    driver.get(url)
    wait.until(lambda d: "/signin" in d.current_url)
    settle("signin")

    sign_in("not-the-token-" + token)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.problem"))
    settle("signin-refused", status=401)
    if driver.get_cookies():
        raise Check(f"a wrong token was given a cookie: {driver.get_cookies()}")

    sign_in(token)
    wait.until(lambda d: "/signin" not in d.current_url)
    settle("signed-in")
    if not driver.find_elements(By.CSS_SELECTOR, "article.card"):
        raise Check("signed in: no capture shown")
    cookies = driver.get_cookies()
    if len(cookies) != 1 or not cookies[0]["httpOnly"] or cookies[0].get("sameSite") != "Strict":
        raise Check(f"signed in: the session cookie is not HttpOnly and SameSite=Strict: {cookies}")

    driver.find_element(By.CSS_SELECTOR, "article.card h3 a").click()
    wait.until(lambda d: "/captures/" in d.current_url)
    capture = driver.current_url.split("/captures/")[1].split("?")[0].split("#")[0]
    driver.find_element(By.CSS_SELECTOR, "form.barcode input[name=code]").send_keys(code)
    driver.find_element(By.CSS_SELECTOR, "form.barcode button[type=submit]").click()
    wait.until(lambda d: "edit=" in d.current_url)
    settle("barcode-set")
    if not driver.find_element(By.ID, "notice").text:
        raise Check("barcode: the page does not report the edit")

    driver.get(url + "captures/ffffffffffffffff")
    settle("not-found", status=404)
    if "HTTP 404" not in driver.find_element(By.TAG_NAME, "body").text:
        raise Check("a missing capture is not answered with an error page")
    print(json.dumps({"capture": capture}))


if __name__ == "__main__":
    sys.exit(main())
