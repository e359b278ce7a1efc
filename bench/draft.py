#!/usr/bin/env python3
"""The capture flow's barcode step: how soon `ingest serve` answers a barcode photo with its code
and product (POST /api/drafts/{id}/photos?role=barcode).

    bench/draft.py [--ingest .build/release/ingest] [--work /tmp/ingest-draft] [--photos 20]
                   [--report docs/benchmarks.md]

For each photo: a new draft, the photo posted with curl as its barcode photo, the seconds from the
request's start to the answer (which carries the code and the product data's name: the photo is
decoded, thumbnailed and read before the server answers), and the draft cancelled. Photos: the
first --photos photos that hold a barcode of the 12 MP corpus of bench/bench.py (4032×3024, cached
in /tmp/ingest-bench), and the real phone photos of ../shared/realphotos/off (whole grocery photos,
1–12 MP) and realphotos/barcodes (close-ups), used in place. The catalogue knows samples/products.tsv
only, so a name is given for none of these codes: the look-up is made all the same. Server and
curl on loopback: the upload itself takes milliseconds. The goal: the code on the page within 1 s
of the upload's end.

Prints a Markdown section; --report FILE replaces the section of that name in FILE (or appends it).
Needs curl; ingest built in release mode (this script never builds it).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, SHARED, sh  # noqa: E402
from report import facts, wrap, write  # noqa: E402
from upload import Server, twelve_megapixel_corpus  # noqa: E402

HEADING = "## The capture flow's barcode step (bench/draft.py)"
GOAL_SECONDS = 1.0


def timed_barcode(server, photo):
    """(seconds from the request's start to the answer, the code read or None, `photo`) for `photo` sent as
    a new draft's barcode photo; the draft is cancelled after."""
    base = ["curl", "-sS", "-H", f"X-CSRF-Token: {server.token}", "-H", "Expect:"]
    made = subprocess.run(base + ["-X", "POST", server.url + "api/drafts"], capture_output=True, text=True)
    draft = json.loads(made.stdout)["id"]
    out = subprocess.run(base + ["-w", "\n%{http_code} %{time_total}", "-F", f"photo=@{photo}",
                                 f"{server.url}api/drafts/{draft}/photos?role=barcode"], capture_output=True, text=True)
    body, _, tail = out.stdout.rpartition("\n")
    status, seconds = tail.split()
    if out.returncode != 0 or status != "200":
        sys.exit(f"{photo}: curl {out.returncode}, HTTP {status}: {body[:300]} {out.stderr[:300]}")
    answer = json.loads(body)
    subprocess.run(base + ["-X", "DELETE", f"{server.url}api/drafts/{draft}"], capture_output=True, check=True)
    return float(seconds), (answer.get("barcode") or {}).get("text"), photo


def row(label, results):
    times = sorted(seconds for seconds, _, _ in results)
    read = sum(1 for _, code, _ in results if code)
    worst = max(results)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    met = "yes" if times[-1] <= GOAL_SECONDS else ("median and p90" if p90 <= GOAL_SECONDS else "NO")
    size = os.path.getsize(worst[2]) / (1 << 20)
    return (f"| {label} | {len(results)} | {read} | {statistics.median(times):.2f} | {p90:.2f} | {times[-1]:.2f} "
            f"(`{os.path.basename(worst[2])}`, {size:.1f} MB) | {met} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ingest", default=os.path.join(ROOT, ".build", "release", "ingest"))
    ap.add_argument("--work", default="/tmp/ingest-draft")
    ap.add_argument("--photos", type=int, default=20, help="barcode photos of the generated corpus")
    ap.add_argument("--report", help="replace (or append) the section in this Markdown file")
    args = ap.parse_args()
    corpus, expected, ingest = twelve_megapixel_corpus(args.ingest)
    truth = json.load(open(expected))
    generated = [os.path.join(corpus, "inbox", s["name"], c["photos"][0]) for s in truth["sets"] for c in s["captures"]
                 if c.get("barcode")][:args.photos]
    real = os.path.join(SHARED, "realphotos")
    groups = [("generated, 12 MP (first photo of a capture with a barcode)", generated)]
    for folder, label in [("off", "real grocery photos (`realphotos/off`)"), ("barcodes", "real close-ups (`realphotos/barcodes`)")]:
        path = os.path.join(real, folder)
        files = sorted(os.path.join(path, name) for name in os.listdir(path)
                       if name.lower().endswith((".jpg", ".jpeg", ".png", ".webp", ".heic")))
        groups.append((label, files))
    every = [photo for _, photos in groups for photo in photos]
    sh("cat " + " ".join(f"'{p}'" for p in every) + " > /dev/null")  # warm the page cache

    server = Server(ingest, args.work)
    load_before = os.getloadavg()
    try:
        sh([ingest, "products", "import", os.path.join(ROOT, "samples", "products.tsv"), "--quiet",
            "--config", os.path.join(args.work, "pipeline.json")])
        timed_barcode(server, generated[0])  # the first request starts the image libraries
        results = []
        for label, photos in groups:
            measured = []
            for index, photo in enumerate(photos):
                measured.append(timed_barcode(server, photo))
                print(f"{label}: {index + 1}/{len(photos)} {measured[-1][0]:.2f} s", file=sys.stderr)
            results.append((label, measured))
    finally:
        server.stop()
    lines = [wrap(f"{facts(load_before[0], os.getloadavg()[0])}; one draft a photo, posted with curl as its barcode "
                  "photo to `ingest serve` on loopback; seconds from the request's start to the answer that carries "
                  f"the code and the product (the photo decoded, thumbnailed and read first). Goal: ≤ {GOAL_SECONDS:.0f} s."),
             "", "| photos | n | code read | median s | p90 s | worst s | goal met |", "|---|---|---|---|---|---|---|"]
    lines += [row(label, measured) for label, measured in results]
    section = "\n".join(lines) + "\n"
    print(HEADING + "\n\n" + section)
    if args.report:
        write(args.report, HEADING, section)


if __name__ == "__main__":
    main()
