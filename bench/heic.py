#!/usr/bin/env python3
"""`ingest` against `vipsthumbnail -s 400x` on HEIC photos, the format phones save by default (issue 11).

    bench/heic.py [--photos 12] [--workers 2] [--runs 3] [--ingest .build/release/ingest]
                  [--report docs/benchmarks.md]

Makes (and caches in /tmp/ingest-bench/heic-N) HEIC copies of the first N photos of the 12 MP bench
corpus (bench/bench.py makes it; `vips copy x.jpg x.heic[Q=50]`, libheif from Debian), in sets of
three, and one 48 MP HEIC (8064×6048, the corpus's first photo enlarged). Then, page cache warm,
runs by turns:
    ingest          `ingest run` (workers N) on a copy of the N-photo inbox
    ingest + 48 MP  the same with the 48 MP photo added as a set of its own
    vipsthumbnail   `vipsthumbnail -s 400x` over the N photos in one process
and prints the median wall time, the CPU time (user + system) per photo and the peak RSS of each;
--report FILE rewrites the section "## HEIC (bench/heic.py)" of FILE with it.
Needs the apt package libvips-tools (with libheif) and `ingest` built in release mode.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from bench import timed  # noqa: E402
from report import command_line, facts, section, write  # noqa: E402

ROOT = common.ROOT
HEADING = "## HEIC (bench/heic.py)"
CORPUS = "/tmp/ingest-bench/corpus-40-11-4032x3024/inbox"
PER_SET = 3


def make_photos(count):
    """The cached HEIC inbox: OUT/inbox/set-NN/*.heic and OUT/big/set-48mp/big.heic."""
    out = f"/tmp/ingest-bench/heic-{count}"
    if os.path.exists(os.path.join(out, "done")):
        return out
    if not os.path.isdir(CORPUS):
        sys.exit(f"{CORPUS} is missing: run bench/bench.py once to make the 12 MP corpus")
    shutil.rmtree(out, ignore_errors=True)
    sources = sorted(os.path.join(d, f) for d, _, files in os.walk(CORPUS) for f in files if f.lower().endswith(".jpg"))
    for index, source in enumerate(sources[:count]):
        folder = os.path.join(out, "inbox", f"set-{index // PER_SET + 1:02d}")
        os.makedirs(folder, exist_ok=True)
        target = os.path.join(folder, os.path.basename(source)[:-4] + ".heic")
        print(f"encoding {target}", file=sys.stderr)
        subprocess.run(["vips", "copy", source, target + "[Q=50]"], check=True)
    big = os.path.join(out, "big", "set-48mp")
    os.makedirs(big)
    subprocess.run(["vips", "resize", sources[0], os.path.join(big, "big.heic[Q=50]"), "2"], check=True)
    open(os.path.join(out, "done"), "w").close()
    return out


def ingest_run(binary, inboxes, workers, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "inbox"))
    for inbox in inboxes:
        for name in os.listdir(inbox):
            shutil.copytree(os.path.join(inbox, name), os.path.join(work, "inbox", name))
    common.write_config(os.path.join(work, "pipeline.json"), end="\n", workers=workers, **common.without_text(binary))
    return timed([binary, "run", "--config", "pipeline.json"], cwd=work)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", type=int, default=12)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--ingest", default=os.path.join(ROOT, ".build", "release", "ingest"))
    ap.add_argument("--report", metavar="FILE", help=f"rewrite the section '{HEADING}' of this Markdown file")
    args = ap.parse_args()
    out = make_photos(args.photos)
    inbox, big = os.path.join(out, "inbox"), os.path.join(out, "big")
    photos = sorted(os.path.join(d, f) for d, _, files in os.walk(inbox) for f in files)
    thumbs = os.path.join(out, "thumbs")
    os.makedirs(thumbs, exist_ok=True)
    results = {"ingest": [], "ingest + 48 MP": [], "vipsthumbnail": []}
    load_before = os.getloadavg()[0]
    for _ in range(args.runs):
        results["ingest"].append(ingest_run(args.ingest, [inbox], args.workers, os.path.join(out, "work")))
        results["ingest + 48 MP"].append(ingest_run(args.ingest, [inbox, big], args.workers, os.path.join(out, "work")))
        results["vipsthumbnail"].append(timed(["vipsthumbnail", "-s", "400x", "-o", os.path.join(thumbs, "%s.jpg"), *photos]))
    load = os.getloadavg()[0]
    lines = [f"{args.photos} HEIC photos of 4032x3024 (Q=50) in sets of {PER_SET}, {args.workers} workers, "
             f"median of {args.runs} runs; load average {load:.1f} at the end", "",
             f"{'pipeline':<16}{'seconds':>9}{'CPU s/photo':>13}{'peak RSS':>10}"]
    for label, runs in results.items():
        count = args.photos + (1 if "48" in label else 0)
        wall = statistics.median(r.seconds for r in runs)
        cpu = statistics.median(r.cpu for r in runs) / count
        rss = max(r.rss for r in runs)
        lines.append(f"{label:<16}{wall:>9.2f}{cpu:>13.2f}{rss:>8.0f}MB")
    lines += ["", "'ingest + 48 MP' adds one 8064x6048 HEIC (146 MB decoded as 8-bit RGB) to the same inbox; "
              "its CPU per photo counts it as one photo."]
    print("\n".join(lines))
    if args.report:
        write(args.report, HEADING, section(
            f"{facts(load_before, load)}. `{command_line()}`: HEIC copies (`vips copy x.jpg x.heic[Q=50]`) of "
            f"the first {args.photos} photos of the `bench/bench.py` corpus, and one 48 MP HEIC, page cache warm.",
            lines))

if __name__ == "__main__":
    main()
