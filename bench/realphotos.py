#!/usr/bin/env python3
"""What `ingest`, `zbarimg` and zxing-cpp read on real photos of real packages (issue 11).

    bench/realphotos.py [--photos ../shared/realphotos] [--out /tmp/ingest-realphotos]
                        [--report docs/recall.md] [--ingest .build/release/ingest] [--workers 2]
                        [--runs 1] [--no-references]

Every photo of PHOTOS/barcodes (close-ups, one code each, PHOTOS/barcodes/expected.tsv), PHOTOS/off
(whole grocery photos, PHOTOS/off/expected.tsv) and PHOTOS/nobarcode (no code at all) becomes its
own set in OUT/inbox, and is read by
    ingest   `ingest run` + `ingest export --csv` (pipeline.json: workers N, default symbologies);
             every barcode hit of the set's photos counts (the catalogue's barcode_hit table)
    zbarimg  `zbarimg --xml` with its defaults (all symbologies), N at once
    zxing    zxing-cpp's Python binding (`zxingcpp.read_barcodes`, all formats) on the photo
A read is correct when it is the photo's code: retail codes compared as GTIN-13 (a UPC-E expanded;
for the `*-extension-*` groups the code without its add-on), other codes by their text with line
breaks removed (the TSV cannot hold them). Every read on a `nobarcode/` photo, and every read on a
barcode photo that is neither its code nor a code of the same group's kind, is a false positive; a
code a photo is known to hold besides its own (`ALSO_HOLDS`, checked by eye) counts neither way.
`--runs N` runs ingest N times and reports photos whose reads differ between runs. The loss table
lists every photo a reference reads right and ingest does not, with what `ingest explain` says became
of the code: the rule that dropped it, or that no step read it.

Needs the apt packages zbar-tools and libvips-tools (for the formats zbarimg's ImageMagick cannot
open) and the pip packages zxing-cpp and pillow; `ingest` built in release mode. The Markdown
report is printed and written to REPORT.
"""
import argparse
import csv
import datetime as dt
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The photos are crops of codes out of photos, some 11 px tall: the default minPixels (64, the
# shortest side of a product photo) would refuse 27 of them as "too small for a photo".
MIN_PIXELS = 8
RETAIL_GROUPS = ("ean13-1", "ean13-3", "upca-2", "upca-4", "upce-1", "upce-2")
OFF_GROUPS = ("ean13-off", "ean8-off")
REPORTED_GROUPS = RETAIL_GROUPS + ("ean13-extension-1", "upca-extension-1", "code128-1", "qrcode-2") + OFF_GROUPS


# ---------------------------------------------------------------- codes
def upce_to_upca(code):
    """The 12-digit UPC-A of an 8-digit UPC-E (number system, six digits, check digit)."""
    ns, d, check = code[0], code[1:7], code[7]
    last = d[5]
    if last in "012":
        body = d[0:2] + last + "0000" + d[2:5]
    elif last == "3":
        body = d[0:3] + "00000" + d[3:5]
    elif last == "4":
        body = d[0:4] + "00000" + d[4]
    else:
        body = d[0:5] + "0000" + last
    return ns + body + check


def gtin_check_ok(gtin):
    digits = [int(c) for c in gtin]
    total = sum(d * (3 if i % 2 else 1) for i, d in enumerate(reversed(digits[:-1])))
    return (10 - total % 10) % 10 == digits[-1]


def gtin13_candidates(text):
    """Every GTIN-13 a retail read's text can stand for (an 8-digit code is EAN-8 or UPC-E)."""
    digits = re.sub(r"\D", "", text)
    if len(digits) == 14 and digits[0] == "0":
        digits = digits[1:]
    if len(digits) == 13:
        return {digits}
    if len(digits) == 12:
        return {"0" + digits}
    if len(digits) == 8:
        found = {"00000" + digits}
        if digits[0] in "01":
            found.add("0" + upce_to_upca(digits))
        return found
    return set()


def expected_key(group, text):
    """What a correct read of this photo must be: a GTIN-13 for retail groups, the text otherwise."""
    if is_retail(group):
        return text[:13]  # the TSV holds retail codes as GTIN-13, an add-on's digits after them
    return plain(text)


def plain(text):
    """The text without line breaks: the TSV drops some and writes others as `<LF>`."""
    return re.sub(r"\r|\n|<LF>", "", text)


# Codes a photo holds besides the one its expected.tsv names (the README says "one barcode each"):
# reading one is neither right nor wrong. Each was checked by eye and is read by zxing-cpp as well.
# `qrcode-2-16.webp` is a "double QR": expected.tsv names the inner code ("[内側QRコード]", inner QR
# code), printed inside an outer one whose text says so ("[外側QRコード]", outer QR code).
ALSO_HOLDS = {
    "qrcode-2-16.webp": {"[外側QRコード] *ﾀﾞﾌﾞﾙQR*http://d-qr.net/ex/"},
}


def is_also_held(file, text):
    """True when `text` is a code the photo `file` (its name, or a path ending in it) holds besides its own."""
    return plain(text) in ALSO_HOLDS.get(os.path.basename(file), set())


def is_wrong(file, group, key, read):
    """True when `read` ((format, text, gtin13 or None)) of the photo `file` is neither its code nor
    one it also holds."""
    return group == "nobarcode" or not (is_correct(group, key, read) or is_also_held(file, read[1]))


def is_retail(group):
    return group.startswith(("ean13", "upca", "upce"))


def is_correct(group, key, read):
    """read: (format, text, gtin13 or None)."""
    _, text, gtin = read
    if is_retail(group):
        return key in ({gtin} if gtin else gtin13_candidates(text))
    return plain(text) in (key, key.replace('\\"', '"'))


# ---------------------------------------------------------------- photos
def load_photos(folder):
    """[(name, path, group, key, add-on or None)]: every photo, the no-barcode ones with group 'nobarcode'."""
    photos = []
    for kind in ("barcodes", "off"):
        with open(os.path.join(folder, kind, "expected.tsv"), newline="", encoding="utf-8") as f:
            for line in f:
                file, group, text = line.rstrip("\n").split("\t", 2)
                addon = text[13:] if "extension" in group else None
                photos.append((file, os.path.join(folder, kind, file), group, expected_key(group, text), addon))
    for file in sorted(os.listdir(os.path.join(folder, "nobarcode"))):
        if file.lower().endswith((".jpg", ".jpeg", ".png", ".webp", ".gif", ".tif", ".tiff")):
            photos.append((file, os.path.join(folder, "nobarcode", file), "nobarcode", None, None))
    return photos


def set_name(index):
    return f"photo-{index:03d}"


def make_inbox(photos, inbox):
    shutil.rmtree(inbox, ignore_errors=True)
    for index, (_, path, _, _, _) in enumerate(photos):
        folder = os.path.join(inbox, set_name(index))
        os.makedirs(folder)
        shutil.copy2(path, os.path.join(folder, os.path.basename(path).replace("#", "n")))


# ---------------------------------------------------------------- readers
def run_ingest(binary, inbox, work, workers):
    """`ingest run` on a copy of the inbox; returns (seconds, {set: {(format, text, gtin13)}})."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    shutil.copytree(inbox, os.path.join(work, "inbox"))
    config = os.path.join(work, "pipeline.json")
    with open(config, "w") as f:
        f.write('{"inbox": "inbox", "library": "library", "catalog": "library/catalog.sqlite",'
                f' "quarantine": "quarantine", "workers": {workers}, "minPixels": {MIN_PIXELS}}}\n')
    start = time.monotonic()
    run = subprocess.run([binary, "run", "--config", config], capture_output=True, text=True)
    seconds = time.monotonic() - start
    if run.returncode not in (0, 1):
        sys.exit(f"ingest run exited {run.returncode}:\n{run.stderr[-3000:]}")
    reads = defaultdict(set)
    with sqlite3.connect(f"file:{os.path.join(work, 'library', 'catalog.sqlite')}?mode=ro", uri=True) as db:
        for name, symbology, text, gtin, addon in db.execute(
                "SELECT c.set_name, h.symbology, h.text, h.gtin13, h.addon FROM barcode_hit h "
                "JOIN photo p ON p.id = h.photo_id JOIN capture c ON c.id = p.capture_id"):
            reads[name].add((symbology, text, gtin))
            if addon:
                ADDONS[name].add((gtin, addon))
    return seconds, reads


# {set: {(gtin13, add-on)}} of the last ingest run.
ADDONS = defaultdict(set)


def zbarimg_read(path):
    """zbarimg's codes, all symbologies on (its defaults); a format its ImageMagick cannot open
    goes through a PNG made by vips."""
    def run(file):
        return subprocess.run(["zbarimg", "-q", "--nodbus", "--xml", file], capture_output=True, text=True)
    out = run(path)
    if out.returncode not in (0, 4):  # 4: opened, no code found
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "photo.png")
            subprocess.run(["vips", "copy", path, copy], check=True, capture_output=True)
            out = run(copy)
    if not out.stdout.strip():
        return set()
    root = ET.fromstring(out.stdout)
    return {(symbol.get("type"), symbol.findtext("{*}data") or "", None) for symbol in root.findall(".//{*}symbol")}


def zxing_read(path):
    import zxingcpp
    from PIL import Image
    with Image.open(path) as image:
        return {(str(code.format), code.text, None) for code in zxingcpp.read_barcodes(image)}


def per_photo(read, photos, workers):
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(read, [photo[1] for photo in photos]))  # (name, path, …)
    return time.monotonic() - start, {set_name(i): r for i, r in enumerate(results)}


# ---------------------------------------------------------------- report
def tally(photos, reads):
    """{group: (correct, n)}, [false positives as (file, read)], {set: correct?}."""
    counts, wrong, correct = defaultdict(lambda: [0, 0]), [], {}
    for index, (file, _, group, key, _) in enumerate(photos):
        found = reads.get(set_name(index), set())
        if group == "nobarcode":
            wrong += [(file, read) for read in sorted(found)]
            continue
        ok = any(is_correct(group, key, read) for read in found)
        correct[set_name(index)] = ok
        counts[group][0] += ok
        counts[group][1] += 1
        # Each photo holds one code, but for ALSO_HOLDS: any other read is a false one.
        wrong += [(file, read) for read in sorted(found) if is_wrong(file, group, key, read)]
    return counts, wrong, correct


def table(photos, results):
    labels = list(results)
    lines = ["| group | n | " + " | ".join(labels) + " |", "|---|---|" + "---|" * len(labels)]
    tallies = {label: tally(photos, reads)[0] for label, reads in results.items()}
    def cells(groups):
        n = sum(tallies[labels[0]][g][1] for g in groups)
        return [str(n)] + [f"{sum(tallies[l][g][0] for g in groups)}/{n}" for l in labels]
    for group in REPORTED_GROUPS:
        lines.append(f"| {group} | " + " | ".join(cells([group])) + " |")
    lines.append("| **retail** (the six groups above the extensions) | "
                 + " | ".join(f"**{c}**" for c in cells(RETAIL_GROUPS)) + " |")
    lines.append("| **off** (whole grocery photos) | " + " | ".join(f"**{c}**" for c in cells(OFF_GROUPS)) + " |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", default=os.path.join(os.path.dirname(ROOT), "shared", "realphotos"))
    ap.add_argument("--out", default="/tmp/ingest-realphotos")
    ap.add_argument("--report", default=os.path.join(ROOT, "docs", "recall.md"))
    ap.add_argument("--ingest", default=os.path.join(ROOT, ".build", "release", "ingest"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runs", type=int, default=1, help="ingest runs, to find photos whose reads vary")
    ap.add_argument("--no-references", dest="references", action="store_false",
                    help="ingest only (a quick look while working on the reader)")
    args = ap.parse_args()

    photos = load_photos(args.photos)
    inbox = os.path.join(args.out, "inbox")
    make_inbox(photos, inbox)
    results, seconds, runs = {}, {}, []
    for run in range(args.runs):
        seconds["ingest"], reads = run_ingest(args.ingest, inbox, os.path.join(args.out, "work"), args.workers)
        runs.append(reads)
    results["ingest"] = runs[-1]
    if args.references:
        seconds["zbarimg"], results["zbarimg"] = per_photo(zbarimg_read, photos, args.workers)
        seconds["zxing"], results["zxing"] = per_photo(zxing_read, photos, args.workers)
        results["either reference"] = {name: results["zbarimg"].get(name, set()) | results["zxing"].get(name, set())
                                       for name in set(results["zbarimg"]) | set(results["zxing"])}
    report = render(args, photos, results, seconds, runs)
    print(report)
    with open(args.report, "w") as f:
        f.write(report)


def render(args, photos, results, seconds, runs):
    lines = ["# Barcode recall on real photos (issue 11)", "",
             "Made by `bench/realphotos.py`; do not edit by hand, run it again. The generated hard set's",
             "report is `docs/recall-hardset.md`.", "",
             f"- {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, repository at {report.commit()}; "
             f"photos: `{args.photos}` "
             f"({sum(1 for p in photos if p[2] != 'nobarcode')} with a code, "
             f"{sum(1 for p in photos if p[2] == 'nobarcode')} without), each its own set",
             f"- ingest: `ingest run`, {args.workers} workers, default symbologies, minPixels {MIN_PIXELS} (the photos are "
             "crops of codes, some 11 px tall); every hit of every photo counts",
             "- zbarimg: `zbarimg --xml` with its defaults; zxing: zxing-cpp "
             f"{version('zxing-cpp')} (`zxingcpp.read_barcodes`, all formats)" if "zxing" in results else "", ""]
    body = table(photos, results)
    lines += fitted_section(args.report) + [""]
    lines += ["## Codes read", ""] + body + [""]
    lines += ["## False reads", "", "Codes a photo holds besides the one its TSV names count neither way: "
              + ", ".join(f"`{f}` (`{next(iter(c))[:30]}`)" for f, c in ALSO_HOLDS.items()) + ".", ""]
    for label, reads in results.items():
        wrong = tally(photos, reads)[1]
        lines.append(f"- {label}: {len(wrong)}" + "".join(f"\n  - `{f}`: {r[0]} `{r[1][:60]}`" for f, r in wrong))
    lines += ["", "## Add-ons", ""]
    extension = [(i, p) for i, p in enumerate(photos) if "extension" in p[2]]
    right = sum(1 for i, p in extension if (p[3], p[4]) in ADDONS.get(set_name(i), set()))
    wrong = [(p[0], read) for i, p in extension for read in ADDONS.get(set_name(i), set()) if read != (p[3], p[4])]
    elsewhere = [(p[0], read) for i, p in enumerate(photos) if "extension" not in p[2] for read in ADDONS.get(set_name(i), ())]
    lines.append(f"- ingest: {right}/{len(extension)} add-ons of the extension groups read and stored beside their GTIN-13; "
                 f"{len(wrong)} wrong" + "".join(f"\n  - `{f}`: {g} + `{a}`" for f, (g, a) in wrong))
    lines.append("- on photos of other groups (their TSV names the code only, not whether an add-on is printed): "
                 + (", ".join(f"`{f}` {g} + `{a}`" for f, (g, a) in elsewhere) or "none"))
    lines += ["", "## Photos only one of ingest and the references reads", ""]
    if "either reference" in results:
        ours, theirs = tally(photos, results["ingest"])[2], tally(photos, results["either reference"])[2]
        names = {set_name(i): p[0] for i, p in enumerate(photos)}
        lines.append("- missed by ingest, read by a reference: "
                     + (", ".join(f"`{names[n]}`" for n in sorted(ours) if theirs[n] and not ours[n]) or "none"))
        lines.append("- read by ingest only: "
                     + (", ".join(f"`{names[n]}`" for n in sorted(ours) if ours[n] and not theirs[n]) or "none"))
    lines.append("- missed by every reader: " + (", ".join(
        f"`{photos[i][0]}`" for i in range(len(photos)) if photos[i][2] != "nobarcode"
        and not any(tally(photos, r)[2].get(set_name(i)) for r in results.values())) or "none"))
    if "either reference" in results:
        lines += ["", "## Loss table", "",
                  "Every photo a reference reads right and ingest does not, and what `ingest explain` says became of",
                  "its code: the rule that dropped the read (the last one), or that no step read it.", ""]
        lines += loss_table(args, photos, results)
    if len(runs) > 1:
        varying = [photos[i][0] for i in range(len(photos)) if len({frozenset(r.get(set_name(i), ())) for r in runs}) > 1]
        lines += ["", f"## Same photos, same codes ({len(runs)} ingest runs)", "",
                  f"- photos whose reads differ between runs: {', '.join(varying) or 'none'}"]
    lines += ["", "## Time", "", "| reader | seconds |", "|---|---|"]
    lines += [f"| {label} | {s:.1f} |" for label, s in seconds.items()]
    return "\n".join(lines) + "\n"


def fitted_section(path):
    """The leave-one-group-out section `bench/fit_rules.py` wrote into the report (kept as it is:
    the fit takes half an hour), or a line saying how to make it."""
    heading = "## Leave one group out (bench/fit_rules.py)"
    lines = report.read_section(path, heading) or [heading, "", "Not made yet: run `bench/fit_rules.py --write`."]
    while not lines[-1].strip():  # the blank line before the next heading is render's
        lines.pop()
    return lines


def loss_table(args, photos, results):
    """The loss table's rows (Markdown): `ingest explain --json` on each photo ingest lost."""
    ours, zbar, zxing = (tally(photos, results[label])[2] for label in ("ingest", "zbarimg", "zxing"))
    lost = [i for i in range(len(photos)) if photos[i][2] != "nobarcode" and not ours[set_name(i)]
            and (zbar[set_name(i)] or zxing[set_name(i)])]
    if not lost:
        return ["none"]
    config = os.path.join(args.out, "work", "pipeline.json")
    explain = subprocess.run([args.ingest, "explain", "--json", "--config", config] + [photos[i][1] for i in lost],
                             capture_output=True, text=True)
    explained = {e["photo"]: e for e in json.loads(explain.stdout or "[]")}
    rows = ["| photo | group | zbarimg | zxing | what became of the code in ingest |", "|---|---|---|---|---|"]
    counts = defaultdict(int)
    for i in lost:
        file, path, group, key, _ = photos[i]
        what, detail = fate(explained.get(path), key)
        counts[what] += 1
        rows.append(f"| `{file}` | {group} | {'yes' if zbar[set_name(i)] else 'no'} | {'yes' if zxing[set_name(i)] else 'no'} "
                    f"| {what}{': ' + detail if detail else ''} |")
    return rows + ["", "By what became of the code: " + ", ".join(f"{what} {n}" for what, n in sorted(counts.items())) + "."]


def fate(explanation, key):
    """What became of the code `key` in one `ingest explain` record: (what, detail)."""
    if explanation is None:
        return "not explained", "ingest explain failed on it"
    events = [e for e in explanation["events"] if e.get("code") and (e["code"] == key or key in gtin13_candidates(e["code"]))]
    if key in explanation["codes"]:
        return "read alone, lost in the run", ""
    drops = [e for e in events if e["outcome"] == "dropped"]
    if drops:
        last = drops[-1]
        return "dropped", f"{last['because']} ({last['step']}: {last['source']}, {last.get('lines')} lines)"
    if any(e["outcome"] == "unconfirmed" for e in events):
        return "unconfirmed", "read once, no second read agreed"
    others = sorted({plain(e["code"])[:40] for e in explanation["events"] if e["step"] == "decision"})
    gave = f"the photo gave `{'`, `'.join(others)}`; " if others else ""
    reference = explanation.get("zxingOnWholePhoto")
    if reference is None or any(key == plain(code) or key in gtin13_candidates(code) for code in reference):
        return "never read by any step", gave + f"the linked zxing-cpp reads it on the whole photo at full resolution ({LINKED_ZXING})"
    return "not readable by the linked decoders", gave + ("zxing-cpp as linked reads nothing of it on the whole photo either "
                                                          f"({LINKED_ZXING})")


# What `ingest explain`'s reference read is: zxing-cpp as ingest links it, with its own defaults
# (turned, shrunk, inverted) on the photo's luminance as ingest decodes it.
LINKED_ZXING = "ingest's zxing-cpp with its defaults, on the luminance ingest decodes"


def version(package):
    try:
        from importlib.metadata import version as v
        return v(package)
    except Exception:
        return "?"


if __name__ == "__main__":
    main()
