#!/usr/bin/env python3
"""Drives the capture flow of `/capture` (`ingest serve --watch`) in headless Chromium as a phone:
a 412×915 screen with touch and a phone's user agent.

    capture_flow_test.py URL ARTEFACTS DRAFTS PHOTO...

PHOTO... are the barcode, front and label photos of one product from the samples
(samples/single-product/IMG_000*.jpg), which the server's catalogue must not hold yet and whose
products must be imported (the code and name come from samples/expected.json and products.tsv, as
for capture_test.py). DRAFTS is the server's `<inbox>/.drafts` folder, which must hold no draft
once the flow is over.

1. The flow shows at a phone's width without sideways scrolling; the whole-set form is folded away.
2. Barcode: the barcode photo's code, symbology and product name appear before anything is saved
   (the seconds from choosing the photo to the name shown are printed), and nothing says the
   catalogue has it.
3. Photos: a wrong front, retaken (one front, the new one); the label; one more, removed; a photo
   sent while the connection is cut (the browser offline) is reported and leaves the draft as it
   was; the page reloaded (a phone that locked) goes on with the same draft.
4. Review and Save with an agent: the capture's page opens with the barcode, the product, the agent
   and three thumbnails.
5. The same product again (new bytes of the same pictures): the page says the catalogue has it since
   today with 3 photos; "add to that capture", a front, Save: the same capture's page opens, now
   with five photos.
6. A front photo as the barcode: "No barcode found"; Skip; a front; Cancel: nothing left in DRAFTS.

Every page must load without a console error but those of the cut connection. A screenshot of each
step goes to ARTEFACTS (capture-flow-*.png). Exits 1 naming the first check that failed; prints one
line per step, last {"capture": ID, "nameSeconds": S} as JSON.
"""
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
from capture_test import expected  # noqa: E402

PHONE = (412, 915)
AGENT_ID = "aisle-3-phone"
AGENT_NAME = "Ana Lima"


def main():
    if len(sys.argv) != 7:
        print(__doc__, file=sys.stderr)
        return 64
    url, artefacts, drafts = sys.argv[1], sys.argv[2], sys.argv[3]
    photos = [os.path.abspath(photo) for photo in sys.argv[4:]]
    if not url.endswith("/"):
        url += "/"
    barcode, product = expected(photos)
    with tempfile.TemporaryDirectory(prefix="capture-flow-") as scratch:
        return run("capture-flow", artefacts, lambda driver, wait, settle: flow(
            driver, wait, settle, url, drafts, photos, barcode, product, scratch), phone=PHONE)


def renewed(photo, folder, tag):
    """PHOTO with a JPEG comment after its first two bytes: the same picture in new bytes, which a
    run does not take for a duplicate of the photo catalogued already."""
    with open(photo, "rb") as file:
        data = file.read()
    comment = f"capture flow test {tag}".encode()
    length = len(comment) + 2
    path = os.path.join(folder, f"{tag}-{os.path.basename(photo)}")
    with open(path, "wb") as file:
        file.write(data[:2] + bytes([0xFF, 0xFE, length >> 8, length & 0xFF]) + comment + data[2:])
    return path


def flow(driver, wait, settle, url, drafts, photos, barcode, product, scratch):
    barcode_photo, front_photo, label_photo = photos
    page = url + "capture"

    def by_id(name):
        return driver.find_element(By.ID, name)

    def status_text():
        return by_id("flow-status").text

    def no_sideways_scroll(step):
        widths = driver.execute_script("const root = document.documentElement;"
                                       "return [root.scrollWidth, root.clientWidth, window.innerWidth];")
        if widths[0] > widths[1]:
            raise Check(f"{step}: the page scrolls sideways at {widths[2]} px: {widths[0]} px wide, {widths[1]} px shown")

    def take(role, path):
        driver.find_element(By.CSS_SELECTOR, f"#flow input[type=file][data-role={role}]").send_keys(path)

    def cards():
        return driver.execute_script(
            "return Array.from(document.querySelectorAll('#draft-photos figure')).map((card) => "
            "({number: Number(card.dataset.number), role: card.dataset.role, "
            "loaded: Array.from(card.querySelectorAll('img')).every((image) => image.complete && image.naturalWidth > 0)}));")

    def wait_for_cards(step, count):
        try:
            wait.until(lambda d: len(cards()) == count and all(card["loaded"] for card in cards()))
        except TimeoutException:
            raise Check(f"{step}: wanted {count} photos with thumbnails, got {cards()}; the page says {status_text()!r}")
        return cards()

    def wait_for_barcode_step(step, text):
        try:
            wait.until(lambda d: text in by_id("barcode-result").text)
        except TimeoutException:
            raise Check(f"{step}: the barcode step does not say {text!r}; it says "
                        f"{by_id('barcode-result').text!r} / {status_text()!r}")

    def new_capture(step, photo, text):
        """/capture opened anew, `photo` taken as the barcode, and the step saying `text`."""
        driver.get(page)
        settle("capture-flow-" + step.replace(" ", "-"))
        take("barcode", photo)
        wait_for_barcode_step(step, text)

    def tap(name):
        by_id(name).click()

    def wait_for_capture(step):
        try:
            WebDriverWait(driver, 60, ignored_exceptions=[StaleElementReferenceException]).until(
                lambda d: "/captures/" in d.current_url or d.find_element(By.ID, "flow-status").get_attribute("class") == "problem")
        except TimeoutException:
            raise Check(f"{step}: not on a capture's page after 60 s; the page says {status_text()!r}")
        if "/captures/" not in driver.current_url:
            raise Check(f"{step}: the page says {status_text()!r}")
        wait.until(lambda d: d.execute_script("return document.readyState") == "complete")
        return driver.current_url.split("/captures/")[1].split("?")[0].split("#")[0]

    def wait_for_thumbnails(step, count):
        try:
            wait.until(lambda d: d.execute_script(
                "const images = Array.from(document.querySelectorAll('figure.photo img'));"
                "return images.length === arguments[0] && images.every((image) => image.complete && image.naturalWidth > 0);",
                count))
        except TimeoutException:
            raise Check(f"{step}: the capture's page does not show {count} loaded thumbnails")

    # 1. The flow at a phone's size.
    driver.get(page)
    settle("capture-flow-start")
    if not by_id("flow").is_displayed() or by_id("step-photos").is_displayed():
        raise Check("start: the flow's first step is not what shows")
    if by_id("whole-set").get_attribute("open") is not None:
        raise Check("start: the whole-set form is open")
    if not driver.execute_script("return navigator.maxTouchPoints > 0"):
        raise Check("start: the browser has no touch screen")
    no_sideways_scroll("start")
    print("start: the barcode step shows at 412 px, touch, without sideways scrolling", flush=True)

    # 2. The barcode, read and named at once.
    started = time.monotonic()
    take("barcode", barcode_photo)
    wait_for_barcode_step("barcode", product)
    name_seconds = time.monotonic() - started
    result = by_id("barcode-result").text
    if barcode not in result or "EAN-13" not in result:
        raise Check(f"barcode: the step says {result!r}, not {barcode} EAN-13")
    if "In the catalogue since" in result or by_id("add-to-choice").is_displayed():
        raise Check(f"barcode: a product not catalogued yet is said to be: {result!r}")
    no_sideways_scroll("barcode")
    settle("capture-flow-barcode")
    print(f"barcode: {result!r}, {name_seconds:.2f} s from choosing the photo", flush=True)

    # 3. Photos: retake, remove, a cut connection, a reload.
    tap("to-photos")
    wrong = renewed(label_photo, scratch, "wrong-front")
    take("front", wrong)
    first_front = [card for card in wait_for_cards("front", 2) if card["role"] == "front"]
    take("front", front_photo)
    wait.until(lambda d: [card["number"] for card in cards() if card["role"] == "front"] != [first_front[0]["number"]])
    fronts = [card for card in wait_for_cards("retake", 2) if card["role"] == "front"]
    if len(fronts) != 1:
        raise Check(f"retake: the fronts are {fronts}")
    take("label", label_photo)
    wait_for_cards("label", 3)
    take("more", renewed(front_photo, scratch, "more"))
    more = [card for card in wait_for_cards("more", 4) if card["role"] == "more"][0]
    driver.find_element(By.CSS_SELECTOR, f'#draft-photos figure[data-number="{more["number"]}"] button').click()
    kept = wait_for_cards("remove", 3)
    if sorted(card["role"] for card in kept) != ["barcode", "front", "label"]:
        raise Check(f"remove: the photos are {kept}")
    no_sideways_scroll("photos")
    settle("capture-flow-photos")
    print(f"photos: a front retaken, one more removed: {[card['role'] for card in kept]}", flush=True)

    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    take("more", renewed(front_photo, scratch, "cut"))
    try:
        wait.until(lambda d: "cut off" in status_text())
    except TimeoutException:
        raise Check(f"cut: the page says {status_text()!r}")
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    driver.get_log("browser")  # the cut request's errors are this step's, meant
    print(f"cut: {status_text()!r}", flush=True)
    driver.get(page)
    after_reload = wait_for_cards("reload", 3)
    if sorted(card["number"] for card in after_reload) != sorted(card["number"] for card in kept):
        raise Check(f"reload: the draft has {after_reload}, it had {kept}")
    settle("capture-flow-reloaded")
    print(f"reload: the same draft, {len(after_reload)} photos; the page says {status_text()!r}", flush=True)

    # 4. Review and Save.
    tap("to-review")
    review = by_id("review").text
    if barcode not in review or "3 photos" not in review:
        raise Check(f"review: it says {review!r}")
    by_id("flow-agentId").send_keys(AGENT_ID)
    by_id("flow-agentName").send_keys(AGENT_NAME)
    no_sideways_scroll("review")
    settle("capture-flow-review")
    tap("save")
    capture = wait_for_capture("save")
    text = driver.find_element(By.TAG_NAME, "main").text
    for what, value in [("barcode", barcode), ("product name", product), ("agent id", AGENT_ID), ("agent name", AGENT_NAME)]:
        if value not in text:
            raise Check(f"saved: the capture's page does not show the {what} {value!r}")
    wait_for_thumbnails("saved", 3)
    settle("capture-flow-saved")
    print(f"saved: capture {capture} with {barcode}, {product!r}, the agent and 3 thumbnails", flush=True)

    # 5. The same product again, added to its capture.
    new_capture("again", renewed(barcode_photo, scratch, "again"), "In the catalogue since")
    result = by_id("barcode-result").text
    if "3 photos" not in result or not by_id("add-to-choice").is_displayed():
        raise Check(f"again: the step says {result!r}, add-to shown: {by_id('add-to-choice').is_displayed()}")
    settle("capture-flow-catalogued")
    print(f"again: {result!r}", flush=True)
    tap("add-to")
    tap("to-photos")
    take("front", renewed(front_photo, scratch, "again"))
    wait_for_cards("again front", 2)
    tap("to-review")
    if "will be added to the capture" not in by_id("review").text:
        raise Check(f"again review: it says {by_id('review').text!r}")
    tap("save")
    joined = wait_for_capture("add to it")
    if joined != capture:
        raise Check(f"add to it: the page of {joined} opened, not of {capture}")
    wait_for_thumbnails("add to it", 5)
    settle("capture-flow-joined")
    print(f"add to it: capture {joined} now shows 5 thumbnails", flush=True)

    # 6. No barcode, skip, cancel.
    new_capture("no code", renewed(front_photo, scratch, "no-code"), "No barcode found")
    settle("capture-flow-no-barcode")
    tap("skip")
    take("front", renewed(label_photo, scratch, "cancelled"))
    wait_for_cards("cancel's front", 2)
    tap("cancel")
    try:
        wait.until(lambda d: "Cancelled" in status_text() and not cards())
    except TimeoutException:
        raise Check(f"cancel: the page says {status_text()!r}, shows {cards()}")
    left = sorted(name for name in os.listdir(drafts) if not name.startswith("."))
    if left:
        raise Check(f"cancel: drafts left on disk: {left}")
    settle("capture-flow-cancelled")
    print("cancel: nothing left in the drafts' folder", flush=True)

    print(json.dumps({"capture": capture, "nameSeconds": round(name_seconds, 3)}))


if __name__ == "__main__":
    sys.exit(main())
