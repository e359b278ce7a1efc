#!/usr/bin/env python3
"""Drives `/capture` of `ingest serve --watch` in headless Chromium at a phone's width (360×740).

    capture_test.py URL ARTEFACTS PHOTO...

PHOTO... are the photos of one product from the samples (samples/single-product/IMG_000*.jpg): the
barcode they must be catalogued with comes from samples/expected.json and the product's name from
samples/products.tsv (both found next to the photos' folder, else in this package's samples), so
the server's catalogue must have the products imported and must not hold these photos yet.

It uses the page's whole-set form (below the one-product flow, which capture_flow_test.py drives),
opened by its summary. At 360 px the page must not scroll sideways, and its file input must ask for the camera's photos
(accept="image/*", capture="environment", multiple). It types an agent id, name and note, chooses
the photos and checks that each gets a preview (a blob: image the Content-Security-Policy lets
load); then uploads them and must land (within 60 s) on the capture's page, which must show the
barcode, the product's name, the agent and note typed, and one loaded thumbnail per photo, having
shown the progress bar full and the set's name on the way. Reloaded, /capture must have the agent
id and name filled in again (localStorage) and the note empty. Last it uploads a text file named
notes.jpg: the page must say, as a problem, that it is not a photo, and stay on /capture.

Every page must load without a console error (the browser's log at level SEVERE); the one error
allowed is the 415 of the refused upload. A screenshot of each step goes to ARTEFACTS. Exits 1
naming the first check that failed; prints one line per step, last the capture's id as JSON
({"capture": ID}) for the XCTest to look the capture up in the catalogue.
"""
import csv
import json
import os
import sys
import tempfile
import time

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import Check, run  # noqa: E402

AGENT_ID = "aisle-7-phone"
AGENT_NAME = "Zoë Fernández"
NOTE = "top shelf, left of the till"

# Records, in sessionStorage (which outlives the navigation to the capture's page), what #outcome
# said and what the progress bar showed while the upload and the polling went on: the upload of a
# few photos to a loopback server is over too soon to be watched from outside.
RECORD = """
const outcome = document.getElementById("outcome"), progress = document.getElementById("progress");
const note = () => {
  const seen = JSON.parse(sessionStorage.getItem("capture-test") || "[]");
  seen.push({ text: outcome.textContent, problem: outcome.classList.contains("problem"),
              shown: !progress.hidden && progress.getBoundingClientRect().height > 0, value: progress.value });
  sessionStorage.setItem("capture-test", JSON.stringify(seen));
};
sessionStorage.removeItem("capture-test");
new MutationObserver(note).observe(outcome, { childList: true, characterData: true, subtree: true, attributes: true });
"""


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 64
    url, artefacts, photos = sys.argv[1], sys.argv[2], [os.path.abspath(photo) for photo in sys.argv[3:]]
    if not url.endswith("/"):
        url += "/"
    barcode, product = expected(photos)
    return run("capture", artefacts, lambda driver, wait, settle: capture(
        driver, wait, settle, url, photos, barcode, product))


def expected(photos):
    """The GTIN-13 the samples' expected.json gives the one capture of PHOTO's set, and the name
    products.tsv gives that product."""
    folder = os.path.dirname(photos[0])
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.dirname(folder), os.path.join(here, "..", "..", "samples")]
    samples = next((path for path in candidates if os.path.isfile(os.path.join(path, "expected.json"))), None)
    if samples is None:
        sys.exit(f"capture: no expected.json in {candidates}")
    with open(os.path.join(samples, "expected.json"), encoding="utf-8") as file:
        sets = json.load(file)["sets"]
    names = sorted(os.path.basename(photo) for photo in photos)
    found = [set_["captures"][0]["gtin13"] for set_ in sets
             if set_["name"] == os.path.basename(folder) and len(set_["captures"]) == 1
             and sorted(set_["captures"][0]["photos"]) == names]
    if not found or not found[0]:
        sys.exit(f"capture: expected.json has no one-capture set {os.path.basename(folder)} of {names}")
    barcode = found[0]
    with open(os.path.join(samples, "products.tsv"), encoding="utf-8", newline="") as file:
        rows = csv.DictReader(file, delimiter="\t", quoting=csv.QUOTE_NONE)
        product = next((row["product_name"] for row in rows if row["code"].zfill(13) == barcode), None)
    if not product:
        sys.exit(f"capture: products.tsv has no name for {barcode}")
    return barcode, product


def capture(driver, wait, settle, url, photos, barcode, product):
    page = url + "capture"

    def on_capture_page():
        return driver.current_url.split("?")[0].split("#")[0] == page

    def no_sideways_scroll(step):
        # clientWidth, not innerWidth: the desktop browser's scroll bar takes 15 of the 360 px that
        # a phone's overlay scroll bar leaves to the page.
        widths = driver.execute_script("const root = document.documentElement;"
                                       "return [root.scrollWidth, root.clientWidth, window.innerWidth];")
        if widths[0] > widths[1]:
            raise Check(f"{step}: the page scrolls sideways at {widths[2]} px: {widths[0]} px wide, {widths[1]} px shown")

    def wait_for_images(step, selector, count):
        try:
            wait.until(images_loaded(selector, count))
        except TimeoutException:
            found = driver.execute_script(
                f"return Array.from(document.querySelectorAll('{selector}')).map((i) => [i.alt, i.naturalWidth]);")
            raise Check(f"{step}: wanted {count} loaded images, got {found}")

    def show_outcome():
        driver.execute_script("document.getElementById('outcome').scrollIntoView({block: 'end'})")

    def field(name):
        return driver.find_element(By.ID, name)

    def images_loaded(selector, count):
        return lambda d: d.execute_script(
            "const images = Array.from(document.querySelectorAll(arguments[0]));"
            "return images.length === arguments[1] && images.every((image) => image.complete && image.naturalWidth > 0);",
            selector, count)

    def open_whole_set():
        driver.find_element(By.CSS_SELECTOR, "#whole-set summary").click()
        wait.until(lambda d: d.find_element(By.ID, "whole-set").get_attribute("open") is not None)

    # 1. The page at a phone's size, with nothing remembered yet.
    driver.set_window_size(360, 740)
    driver.get(page)
    open_whole_set()
    settle("capture-page")
    if not driver.find_elements(By.ID, "capture"):
        raise Check(f"capture page: no upload form: {driver.find_element(By.TAG_NAME, 'main').text!r}")
    for name in ("agentId", "agentName", "note"):
        if field(name).get_attribute("value"):
            raise Check(f"capture page: #{name} is filled in before anything was remembered")

    # 2. Usable on a phone: no sideways scrolling, the camera asked for photos, several at a time.
    no_sideways_scroll("capture page")
    input_ = field("photos")
    wanted = {"type": "file", "accept": "image/*", "capture": "environment"}
    got = {name: input_.get_attribute(name) for name in wanted}
    if got != wanted or not driver.execute_script("return arguments[0].multiple", input_):
        raise Check(f"capture page: the file input is {got}, multiple="
                    f"{driver.execute_script('return arguments[0].multiple', input_)}; wanted {wanted}, multiple")
    if field("progress").is_displayed():
        raise Check("capture page: the progress bar shows before anything is sent")
    print("capture page: 360 px wide without sideways scrolling; the file input takes camera photos, several", flush=True)

    # 3. Who, a note, the photos: one loaded preview each.
    field("agentId").send_keys(AGENT_ID)
    field("agentName").send_keys(AGENT_NAME)
    field("note").send_keys(NOTE)
    input_.send_keys("\n".join(photos))
    wait_for_images("previews", "#previews img", len(photos))
    alts = [image.get_attribute("alt") for image in driver.find_elements(By.CSS_SELECTOR, "#previews img")]
    if alts != [os.path.basename(photo) for photo in photos]:
        raise Check(f"previews: they show {alts}")
    no_sideways_scroll("previews")
    settle("capture-previews")

    # 4. Upload: the progress bar fills, the set is followed until catalogued, its capture opens.
    driver.execute_script(RECORD)
    field("send").click()
    try:
        # The page leaves /capture once the set is catalogued: an element found just before may be
        # gone when it is read.
        WebDriverWait(driver, 60, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: "/captures/" in d.current_url or d.find_element(By.ID, "outcome").get_attribute("class") == "problem")
    except TimeoutException:
        raise Check(f"upload: not on the capture's page after 60 s; the page says "
                    f"{driver.find_element(By.ID, 'outcome').text!r}")
    if "/captures/" not in driver.current_url:
        raise Check(f"upload: the page says {driver.find_element(By.ID, 'outcome').text!r}")
    seen = json.loads(driver.execute_script("return sessionStorage.getItem('capture-test')") or "[]")
    uploaded = [state for state in seen if state["text"].startswith(f"Uploaded {len(photos)} photos as upload-")]
    if any(state["problem"] for state in seen) or not uploaded:
        raise Check(f"upload: the page said {[state['text'] for state in seen]}")
    if not all(state["shown"] and state["value"] == 100 for state in uploaded):
        raise Check(f"upload: the progress bar was not shown full once uploaded: {uploaded}")
    print(f"upload: the page said {' / '.join(dict.fromkeys(state['text'] for state in seen))}", flush=True)

    capture_id = driver.current_url.split("/captures/")[1].split("?")[0].split("#")[0]
    settle("captured")
    text = driver.find_element(By.TAG_NAME, "main").text
    for what, value in [("barcode", barcode), ("product name", product), ("agent id", AGENT_ID),
                        ("agent name", AGENT_NAME), ("note", NOTE), ("capture id", capture_id)]:
        if value not in text:
            raise Check(f"captured: the page does not show the {what} {value!r}")
    wait_for_images("captured", "figure.photo img", len(photos))
    no_sideways_scroll("captured")
    print(f"captured: {capture_id} shows {barcode}, {product!r}, the agent, the note and {len(photos)} thumbnails",
          flush=True)

    # 5. The device remembers who, not what.
    driver.get(page)
    open_whole_set()
    settle("capture-again")
    remembered = {name: field(name).get_attribute("value") for name in ("agentId", "agentName", "note")}
    if remembered != {"agentId": AGENT_ID, "agentName": AGENT_NAME, "note": ""}:
        raise Check(f"capture again: the fields are {remembered}")
    print("capture again: the agent's id and name are filled in, the note is empty", flush=True)

    # 6. A file that is not a photo is refused, on the page, which stays where it is.
    with tempfile.TemporaryDirectory() as folder:
        fake = os.path.join(folder, "notes.jpg")
        with open(fake, "w", encoding="utf-8") as file:
            file.write("milk, eggs, bread\n")
        field("photos").send_keys(fake)
        field("send").click()
        try:
            wait.until(lambda d: d.find_element(By.ID, "outcome").get_attribute("class") == "problem")
        except TimeoutException:
            raise Check(f"refusal: #outcome is not a problem: {driver.find_element(By.ID, 'outcome').text!r}")
    time.sleep(1)  # a navigation the page should not make would have begun by now
    outcome = driver.find_element(By.ID, "outcome").text
    if "notes.jpg" not in outcome or "not a photo" not in outcome:
        raise Check(f"refusal: the page says {outcome!r}")
    if not on_capture_page():
        raise Check(f"refusal: the browser left /capture for {driver.current_url}")
    if not field("send").is_enabled():
        raise Check("refusal: the Upload button stays disabled")
    no_sideways_scroll("refusal")
    show_outcome()
    settle("capture-refused", status=415)
    print(f"refusal: {outcome}", flush=True)

    print(json.dumps({"capture": capture_id}))


if __name__ == "__main__":
    sys.exit(main())
