#!/usr/bin/env python3
"""A hard barcode test set, and how many of its codes ZBar alone and `ingest` read (issue 6).

    bench/hardset.py [--seed 1] [--per 30] [--nobarcode 135] [--out /tmp/ingest-hardset]
                     [--report docs/recall-hardset.md] [--ingest .build/release/ingest] [--workers 2]
                     [--only clean,blur,...] [--reuse] [--no-pyzbar]

Writes OUT/inbox/<perturbation>-<nnn>/photo.<ext>, every photo its own set: one barcode (EAN-13,
UPC-A, EAN-8, Code 128 or QR, weighted as ../shared/corpus/gen_corpus.py weights them) on a label
pasted on a package background, made hard by one perturbation (see PERTURBATIONS). The
`nobarcode-<nnn>` sets are package fronts, nutrition labels and textures that fool barcode readers
(stripes, wood grain, printed text, tables, checkerboards, an EAN-13 with a wrong check digit): any
barcode read there is a false positive. OUT/truth.json maps each set to {perturbation, symbology,
value, gtin13, ...}. The photos depend only on --seed, --per and --nobarcode; --reuse keeps a set
already generated with the same ones.

Then the same photos are read by
    ingest   `ingest run` (pipeline.json: workers N, default symbologies) on a hard-linked copy of
             the inbox, then `ingest export --csv`; every barcode of a set counts, from the CSV and
             from the catalogue's barcode_hit table
    zbar     `zbarimg` on each photo at full resolution, only the five symbologies, N at once
    pyzbar   pyzbar on the Pillow greyscale image (the Python baseline's method), N processes
and a Markdown report (recall, wrong reads, false positives, time) is printed and written.

Needs the pip packages pillow numpy python-barcode qrcode piexif (pyzbar for the third reader) and
the apt packages zbar-tools and libvips-tools; `ingest` built in release mode.
"""
import argparse
import datetime as dt
import json
import os
import shlex
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from hardset_make import generate  # noqa: E402
from hardset_read import pyzbar_read, run_ingest, run_per_photo, score, zbar_read  # noqa: E402
from hardset_report import describe_binary, report  # noqa: E402
from hardset_shots import PERTURBATIONS  # noqa: E402

ROOT = common.ROOT
# The pieces, in the order data flows: hardset_labels (a code drawn, warped) → hardset_shots (a photo
# of it, PERTURBATIONS) and hardset_nobarcode → hardset_make (plan, render, truth.json) →
# hardset_read (ingest, ZBar, pyzbar; scoring) → hardset_report. This file only wires them.


def main():
    """Generates (or keeps) the photos, reads them with every pipeline, writes reads.json and the report."""
    start = time.monotonic()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per", type=int, default=30, help="photos per perturbation")
    ap.add_argument("--nobarcode", type=int, default=135, help="photos without a barcode (at least 120)")
    ap.add_argument("--out", default="/tmp/ingest-hardset")
    ap.add_argument("--report", default=os.path.join(ROOT, "docs", "recall-hardset.md"))
    ap.add_argument("--ingest", default=common.INGEST)
    ap.add_argument("--workers", type=int, default=2, help="photos read at once, by each pipeline")
    ap.add_argument("--only", help="comma-separated perturbations to make (and 'nobarcode'), for a quick look")
    ap.add_argument("--reuse", action="store_true", help="keep OUT if it was generated with the same seed and counts")
    ap.add_argument("--no-pyzbar", dest="pyzbar", action="store_false")
    ap.add_argument("--before", help="an earlier ingest binary, read as a fourth pipeline ('ingest before')")
    ap.add_argument("--before-label", default="", help="what the earlier binary is, for the report")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    if not os.access(args.ingest, os.X_OK):
        sys.exit(f"{args.ingest}: no ingest binary; build one with "
                 "`swift build -c release --product ingest` or pass --ingest")
    if args.only:
        chosen = set(args.only.split(","))
        unknown = chosen - set(PERTURBATIONS) - {"nobarcode"}
        if unknown:
            sys.exit(f"--only: unknown perturbation(s) {', '.join(sorted(unknown))}")
        for name in list(PERTURBATIONS):
            if name not in chosen:
                del PERTURBATIONS[name]
        if "nobarcode" not in chosen:
            args.nobarcode = 0
        args.reuse = False

    # others rebuild the binary while this runs: use a copy taken now, described now
    notes = describe_binary(args.ingest)
    snapshot = tempfile.mkdtemp(prefix="hardset-ingest-")
    binary, args.ingest = args.ingest, shutil.copy2(args.ingest, os.path.join(snapshot, "ingest"))
    notes["load"] = " / ".join(f"{x:.1f}" for x in os.getloadavg())

    seconds = {}
    truth = generate(args)
    seconds["generate"] = time.monotonic() - start
    print(f"{len(truth['sets'])} photos in {args.out}/inbox ({seconds['generate']:.0f} s)", file=sys.stderr)

    inbox = os.path.join(args.out, "inbox")
    seconds["ingest"], ingest_reads, summary = run_ingest(args, inbox, os.path.join(args.out, "run-ingest"), args.ingest)
    print(f"ingest: {seconds['ingest']:.1f} s", file=sys.stderr)
    if args.before:
        seconds["before"], before_reads, _ = run_ingest(args, inbox, os.path.join(args.out, "run-before"), args.before)
        print(f"ingest before: {seconds['before']:.1f} s", file=sys.stderr)
    seconds["zbar"], zbar_reads = run_per_photo(zbar_read, truth, inbox, args.workers, ThreadPoolExecutor)
    print(f"zbar: {seconds['zbar']:.1f} s", file=sys.stderr)
    raw = {"ingest": ingest_reads, "zbar": zbar_reads}
    if args.before:
        raw["before"] = before_reads
    if args.pyzbar:
        seconds["pyzbar"], raw["pyzbar"] = run_per_photo(pyzbar_read, truth, inbox, args.workers, ProcessPoolExecutor)
        print(f"pyzbar: {seconds['pyzbar']:.1f} s", file=sys.stderr)
    results = {reader: score(truth, reads) for reader, reads in raw.items()}
    seconds["total"] = time.monotonic() - start
    shutil.rmtree(snapshot)

    notes["load_end"] = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    notes.update({"command": " ".join(["bench/hardset.py"] + [shlex.quote(a) for a in sys.argv[1:]]),
                  "binary": os.path.relpath(binary, ROOT) if binary.startswith(ROOT + os.sep) else binary,
                  "summary": summary, "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")})
    with open(os.path.join(args.out, "reads.json"), "w") as f:
        json.dump({reader: {name: sorted(map(list, found)) for name, found in reads.items()}
                   for reader, reads in raw.items()}, f, indent=1)
    common.write_report(args.report, report(args, truth, results, seconds, notes))
    print(f"report: {args.report}", file=sys.stderr)


if __name__ == "__main__":
    main()
