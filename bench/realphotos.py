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
import datetime as dt
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import realphotos_losses as losses  # noqa: E402
import report  # noqa: E402
from common import plain, set_name  # noqa: E402

ROOT = common.ROOT
# The photos are crops of codes out of photos, some 11 px tall: the default minPixels (64, the
# shortest side of a product photo) would refuse 27 of them as "too small for a photo".
MIN_PIXELS = 8
RETAIL_GROUPS = ("ean13-1", "ean13-3", "upca-2", "upca-4", "upce-1", "upce-2")
OFF_GROUPS = ("ean13-off", "ean8-off")
REPORTED_GROUPS = RETAIL_GROUPS + ("ean13-extension-1", "upca-extension-1", "code128-1", "qrcode-2") + OFF_GROUPS


# ---------------------------------------------------------------- codes
def expected_key(group, text):
    """What a correct read of this photo must be: a GTIN-13 for retail groups, the text otherwise."""
    if is_retail(group):
        return text[:13]  # the TSV holds retail codes as GTIN-13, an add-on's digits after them
    return plain(text)


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
    if is_retail(group):
        return common.reads_gtin(key, read)
    return plain(read[1]) in (key, key.replace('\\"', '"'))


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


def make_inbox(photos, inbox):
    """Every photo copied into a set of its own, INBOX/photo-NNN (a '#' in its name, which a URL
    would cut short, becomes 'n')."""
    shutil.rmtree(inbox, ignore_errors=True)
    for index, (_, path, _, _, _) in enumerate(photos):
        folder = os.path.join(inbox, set_name(index))
        os.makedirs(folder)
        shutil.copy2(path, os.path.join(folder, os.path.basename(path).replace("#", "n")))


# ---------------------------------------------------------------- readers
def run_ingest(binary, inbox, work, workers):
    """`ingest run` on a copy of the inbox (minPixels MIN_PIXELS); returns (seconds,
    {set: {(format, text, gtin13)}}), every hit of every photo, and keeps the add-ons in ADDONS."""
    seconds, _ = common.run_ingest(binary, inbox, work, end="\n", workers=workers, minPixels=MIN_PIXELS)
    reads = defaultdict(set)
    for hit in common.barcode_hits(work):
        reads[hit["set_name"]].add((hit["symbology"], hit["text"], hit["gtin13"]))
        if hit["addon"]:
            ADDONS[hit["set_name"]].add((hit["gtin13"], hit["addon"]))
    return seconds, reads


# {set: {(gtin13, add-on)}} of the last ingest run.
ADDONS = defaultdict(set)


def zbarimg_read(path):
    """zbarimg's codes, all symbologies on (its defaults); a format its ImageMagick cannot open
    goes through a PNG made by vips."""
    out = common.zbarimg(["--xml"], path)
    if not out.stdout.strip():
        return set()
    root = ET.fromstring(out.stdout)
    return {(symbol.get("type"), symbol.findtext("{*}data") or "", None) for symbol in root.findall(".//{*}symbol")}


def per_photo(read, photos, workers):
    """read(path) of every photo ((name, path, …)), `workers` at once: (seconds, {set: reads})."""
    seconds, results = common.read_each(read, [photo[1] for photo in photos], workers)
    return seconds, {set_name(i): r for i, r in enumerate(results)}


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
    ap.add_argument("--photos", default=common.REALPHOTOS)
    ap.add_argument("--out", default="/tmp/ingest-realphotos")
    ap.add_argument("--report", default=os.path.join(ROOT, "docs", "recall.md"))
    ap.add_argument("--ingest", default=common.INGEST)
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
        seconds["zxing"], results["zxing"] = per_photo(common.zxing_read, photos, args.workers)
        results["either reference"] = {name: results["zbarimg"].get(name, set()) | results["zxing"].get(name, set())
                                       for name in set(results["zbarimg"]) | set(results["zxing"])}
    common.write_report(args.report, render(args, photos, results, seconds, runs))


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
             f"{common.package_version('zxing-cpp')} (`zxingcpp.read_barcodes`, all formats)" if "zxing" in results else "", ""]
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
        correct = {label: tally(photos, results[label])[2] for label in ("ingest", "zbarimg", "zxing")}
        lines += losses.loss_table(args.ingest, os.path.join(args.out, "work", "pipeline.json"), photos, correct)
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


if __name__ == "__main__":
    main()
