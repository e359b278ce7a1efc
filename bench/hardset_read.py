"""The readers of bench/hardset.py and how their reads are scored: `ingest` on the whole inbox,
ZBar alone and pyzbar on each photo, every read as (text, GTIN-13 or None).
"""
import csv
import os
import sys
from collections import defaultdict

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

# ZBar alone: only the five symbologies the hard set holds.
ZBAR_OPTIONS = ["-Sdisable", "-Sean13.enable", "-Supca.enable", "-Sean8.enable", "-Scode128.enable", "-Sqrcode.enable"]


def run_ingest(args, inbox, work, binary):
    """`binary run` + `binary export` on a hard-linked copy of the inbox.
    Returns (seconds, {set: {(text, gtin13)}}, the lines of the run summary)."""
    captures = os.path.join(work, "captures.csv")
    seconds, summary = common.run_ingest(binary, inbox, work, link=True, export=captures, indent=1,
                                         workers=args.workers)
    reads = defaultdict(set)
    with open(captures, newline="") as f:
        for capture in csv.DictReader(f):
            if capture.get("barcode"):
                reads[capture["set_name"]].add((capture["barcode"], capture.get("gtin13") or None))
    # every hit of every photo, not only the one a capture keeps (an early build may not record them)
    for hit in common.barcode_hits(work):
        reads[hit["set_name"]].add((hit["text"], hit["gtin13"]))
    return seconds, reads, summary


def zbar_read(path):
    """zbarimg's codes in one photo at full resolution."""
    out = common.zbarimg(ZBAR_OPTIONS, path)
    return {(line.split(":", 1)[1], None) for line in out.stdout.splitlines() if ":" in line}


def pyzbar_read(path):
    """pyzbar on the Pillow greyscale image, the five symbologies: the Python baseline's method."""
    from pyzbar.pyzbar import ZBarSymbol, decode
    symbols = [ZBarSymbol.EAN13, ZBarSymbol.UPCA, ZBarSymbol.EAN8, ZBarSymbol.CODE128, ZBarSymbol.QRCODE]
    with Image.open(path) as img:
        return {(code.data.decode(), None) for code in decode(img.convert("L"), symbols=symbols)}


def run_per_photo(read, truth, inbox, workers, pool_type):
    """Applies read(path) to every photo, `workers` at once; returns (seconds, {set: reads})."""
    names = list(truth["sets"])
    seconds, results = common.read_each(read, [os.path.join(inbox, truth["sets"][n]["file"]) for n in names],
                                        workers, pool_type)
    return seconds, dict(zip(names, results))


def is_correct(read, entry):
    """True when the read's text or GTIN-13 is the code's value or GTIN-13."""
    text, gtin = read
    accepted = {entry["value"], entry["gtin13"]} - {None}
    return text in accepted or (gtin is not None and gtin in accepted)


def score(truth, reads):
    """Per set: (read correctly?, [wrong reads]); on a set without a barcode every read is wrong."""
    return {name: (any(is_correct(r, e) for r in reads.get(name, ())) if e["value"] else False,
                   sorted(r[0] for r in reads.get(name, ()) if not e["value"] or not is_correct(r, e)))
            for name, e in truth["sets"].items()}
