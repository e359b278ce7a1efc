#!/usr/bin/env python3
"""Two phones drafting at once on `ingest serve --watch --token` (two headless Chromiums, each a
412×915 touch screen with a session of its own).

    capture_sessions_test.py URL ARTEFACTS TOKEN BARCODE_A FRONT_A BARCODE_B FRONT_B

Each phone signs in with TOKEN, photographs its barcode and its front, turn by turn: each page shows
its own code and only its own photos; the draft of phone A, asked for from phone B's session, does
not exist (404). Both save with an agent of their own and land on their own capture's page, with
their own code. Every page must load without a console error but B's 404. Screenshots go to
ARTEFACTS (capture-sessions-*.png). Exits 1 naming the first check that failed; prints one line per
step, last {"a": ID, "b": ID} as JSON.
"""
import json
import os
import sys
import tempfile

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import Check, browser, settler  # noqa: E402

PHONE = (412, 915)


class Phone:
    """One browser with its own session, driving /capture."""

    def __init__(self, name, url, artefacts):
        self.name, self.url = name, url
        self.driver = browser(PHONE)
        self.driver.set_page_load_timeout(30)
        self.wait = WebDriverWait(self.driver, 20)
        self.settle = settler(self.driver, self.wait, artefacts)

    def sign_in(self, token):
        self.driver.get(self.url + "capture")
        self.wait.until(lambda d: "/signin" in d.current_url)
        self.driver.find_element(By.NAME, "token").send_keys(token)
        self.driver.find_element(By.CSS_SELECTOR, "form.signin button[type=submit]").click()
        self.wait.until(lambda d: d.current_url.split("?")[0].endswith("/capture"))
        self.settle(f"capture-sessions-{self.name}-signed-in")

    def take(self, role, path):
        self.driver.find_element(By.CSS_SELECTOR, f"#flow input[type=file][data-role={role}]").send_keys(path)

    def photos(self):
        return len(self.driver.find_elements(By.CSS_SELECTOR, "#draft-photos figure"))

    def draft_id(self):
        return self.driver.execute_script("return window.localStorage.getItem('ingest.draft')")

    def text(self, element):
        return self.driver.find_element(By.ID, element).text

    def wait_for(self, step, condition):
        try:
            self.wait.until(lambda d: condition())
        except TimeoutException:
            raise Check(f"{self.name} {step}: the barcode step says {self.text('barcode-result')!r}, the page "
                        f"{self.text('flow-status')!r}, {self.photos()} photos")

    def status_of(self, path):
        """The status of a GET of `path` from this browser's page (its session's cookie)."""
        return self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0], {credentials: 'same-origin'}).then((r) => done(r.status), () => done(0));", path)

    def save(self, agent):
        self.driver.find_element(By.ID, "to-review").click()
        self.driver.find_element(By.ID, "flow-agentId").send_keys(agent)
        self.driver.find_element(By.ID, "save").click()

    def capture(self):
        try:
            WebDriverWait(self.driver, 60, ignored_exceptions=[StaleElementReferenceException]).until(
                lambda d: "/captures/" in d.current_url)
        except TimeoutException:
            raise Check(f"{self.name} save: not on a capture's page after 60 s; the page says {self.text('flow-status')!r}")
        self.wait.until(lambda d: d.execute_script("return document.readyState") == "complete")
        return self.driver.current_url.split("/captures/")[1].split("?")[0].split("#")[0]


def main():
    if len(sys.argv) != 8:
        print(__doc__, file=sys.stderr)
        return 64
    url, artefacts, token = sys.argv[1:4]
    barcode_a, front_a, barcode_b, front_b = (os.path.abspath(path) for path in sys.argv[4:8])
    if not url.endswith("/"):
        url += "/"
    os.makedirs(artefacts, exist_ok=True)
    phones = []
    with tempfile.TemporaryDirectory(prefix="browser-", ignore_cleanup_errors=True) as scratch:
        os.environ["TMPDIR"] = scratch
        try:
            a, b = Phone("a", url, artefacts), Phone("b", url, artefacts)
            phones = [a, b]
            for phone in phones:
                phone.sign_in(token)
            a.take("barcode", barcode_a)
            b.take("barcode", barcode_b)
            a.wait_for("barcode", lambda: "EAN-13" in a.text("barcode-result"))
            b.wait_for("barcode", lambda: "UPC-A" in b.text("barcode-result"))
            code_a, code_b = a.text("barcode-result").split()[0], b.text("barcode-result").split()[0]
            if code_a == code_b:
                raise Check(f"the two phones show the same code {code_a}")
            print(f"barcodes: phone a reads {code_a}, phone b {code_b}", flush=True)
            for phone, front in [(a, front_a), (b, front_b)]:
                phone.driver.find_element(By.ID, "to-photos").click()
                phone.take("front", front)
            a.wait_for("front", lambda: a.photos() == 2)
            b.wait_for("front", lambda: b.photos() == 2)
            if a.draft_id() == b.draft_id():
                raise Check(f"the two phones share the draft {a.draft_id()}")
            status = b.status_of(f"/api/drafts/{a.draft_id()}")
            if status != 404:
                raise Check(f"phone b asked for phone a's draft and got HTTP {status}, not 404")
            b.driver.get_log("browser")  # that 404 was asked for
            for phone in phones:
                phone.settle(f"capture-sessions-{phone.name}-photos")
            print("photos: each phone shows its own 2 photos; phone a's draft does not exist for phone b", flush=True)
            a.save("phone-a")
            b.save("phone-b")
            captures = {phone.name: phone.capture() for phone in phones}
            for phone, code in [(a, code_a), (b, code_b)]:
                text = phone.driver.find_element(By.TAG_NAME, "main").text
                if code not in text or f"phone-{phone.name}" not in text:
                    raise Check(f"{phone.name} saved: its capture's page does not show {code} and phone-{phone.name}")
                phone.settle(f"capture-sessions-{phone.name}-saved")
            if captures["a"] == captures["b"]:
                raise Check(f"both phones landed on capture {captures['a']}")
            print(f"saved: phone a's capture {captures['a']}, phone b's {captures['b']}", flush=True)
            print(json.dumps(captures))
        except (Check, WebDriverException) as failure:
            print(f"capture-sessions failed: {failure}", file=sys.stderr)
            for phone in phones:
                try:
                    phone.driver.save_screenshot(os.path.join(artefacts, f"capture-sessions-{phone.name}-failure.png"))
                except WebDriverException:
                    pass
            return 1
        finally:
            for phone in phones:
                phone.driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
